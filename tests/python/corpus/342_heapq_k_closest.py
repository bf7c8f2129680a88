import heapq
import math

points = [(1, 3), (-2, 2), (5, 8), (0, 1), (3, 3), (-1, -1), (7, 0)]
k = 3
closest = heapq.nsmallest(k, points, key=lambda p: math.hypot(*p))
print(closest)
heap = []
for p in points:
    d = -(p[0] ** 2 + p[1] ** 2)
    if len(heap) < k:
        heapq.heappush(heap, (d, p))
    else:
        heapq.heappushpop(heap, (d, p))
print(sorted(p for _, p in heap))
print(heapq.nlargest(2, "shellbox"), heapq.nsmallest(3, [3.5, -1, 2, 0]))
