from dataclasses import dataclass

@dataclass
class Point:
    x: int
    y: int

@dataclass
class Circle:
    center: Point
    r: int

def where(shape):
    match shape:
        case Point(x=0, y=0):
            return "origin"
        case Point(x=0):
            return "on y axis"
        case Point(x, y) if x == y:
            return "diagonal"
        case Circle(Point(0, 0), r):
            return f"centered circle r={r}"
        case Circle(center=Point(x=cx), r=r) if r > 5:
            return f"big circle at x={cx}"
        case _:
            return "somewhere"

for s in [Point(0, 0), Point(0, 5), Point(3, 3), Point(1, 2), Circle(Point(0, 0), 2),
          Circle(Point(4, 1), 9), Circle(Point(4, 1), 1)]:
    print(s, "->", where(s))
