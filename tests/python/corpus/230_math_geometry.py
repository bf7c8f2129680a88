import math

def polygon_area(pts):
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]))) / 2

def angle_deg(a, b, c):
    v1 = (a[0] - b[0], a[1] - b[1])
    v2 = (c[0] - b[0], c[1] - b[1])
    dot = v1[0] * v2[0] + v1[1] * v2[1]
    return math.degrees(math.acos(dot / (math.hypot(*v1) * math.hypot(*v2))))

square = [(0, 0), (4, 0), (4, 4), (0, 4)]
tri = [(0, 0), (3, 0), (0, 4)]
print(polygon_area(square), polygon_area(tri))
print(round(angle_deg((1, 0), (0, 0), (0, 1)), 6), round(angle_deg((3, 0), (0, 0), (3, 3)), 6))
hexagon = [(math.cos(math.pi / 3 * k), math.sin(math.pi / 3 * k)) for k in range(6)]
print(round(polygon_area(hexagon), 6), round(3 * math.sqrt(3) / 2, 6))
print(f"{math.atan2(1, -1):.6f} {math.asin(0.5):.6f} {math.tan(math.pi / 4):.6f}")
print(math.ceil(math.log2(1000)), math.floor(math.log10(99999)), f"{math.pi:.15f}")
