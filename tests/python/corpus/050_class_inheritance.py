class Shape:
    def area(self):
        raise NotImplementedError

    def describe(self):
        return f"{type(self).__name__} with area {self.area():.2f}"

class Rect(Shape):
    def __init__(self, w, h):
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h

class Square(Rect):
    def __init__(self, side):
        super().__init__(side, side)

class Circle(Shape):
    def __init__(self, r):
        self.r = r

    def area(self):
        return 3.14159 * self.r ** 2

for s in [Rect(2, 3), Square(4), Circle(1.5)]:
    print(s.describe(), isinstance(s, Rect), issubclass(type(s), Shape))
print([c.__name__ for c in Square.__mro__])
Shape().describe()
