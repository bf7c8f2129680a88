class Rectangle:
    def __init__(self, w, h):
        self.width = w
        self.height = h
    @property
    def width(self):
        return self._w
    @width.setter
    def width(self, v):
        if v <= 0:
            raise ValueError("width must be positive")
        self._w = v
    @property
    def height(self):
        return self._h
    @height.setter
    def height(self, v):
        if v <= 0:
            raise ValueError("height must be positive")
        self._h = v
    @property
    def area(self):
        return self._w * self._h
    @width.deleter
    def width(self):
        print("deleting width")
        del self._w

r = Rectangle(3, 4)
print(r.area)
r.width = 10
print(r.area, r.width)
del r.width
print(hasattr(r, "_w"))
Rectangle(0, 1)
