import math

class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)
    def __sub__(self, o):
        return Vec(self.x - o.x, self.y - o.y)
    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)
    __rmul__ = __mul__
    def __abs__(self):
        return math.hypot(self.x, self.y)
    def __eq__(self, o):
        return (self.x, self.y) == (o.x, o.y)
    def __bool__(self):
        return bool(self.x or self.y)
    def __repr__(self):
        return f"Vec({self.x}, {self.y})"
    def __iter__(self):
        yield self.x
        yield self.y

a, b = Vec(3, 4), Vec(1, -1)
print(a + b, a - b, a * 2, 3 * b, abs(a))
print(a == Vec(3, 4), bool(Vec(0, 0)), list(a), dict(x=a.x))
x, y = b
print(x, y)
