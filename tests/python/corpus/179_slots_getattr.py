class Point:
    __slots__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y

p = Point(1, 2)
try:
    p.z = 3
except AttributeError as e:
    print("AttributeError:", type(e).__name__, "z" in str(e))

class Record:
    def __init__(self, **fields):
        self._fields = fields
    def __getattr__(self, name):
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(f"no field {name!r}") from None
    def __setattr__(self, name, value):
        if name.startswith("_"):
            super().__setattr__(name, value)
        else:
            self._fields[name] = value

r = Record(a=1, b="two")
r.c = 3.0
print(r.a, r.b, r.c, sorted(r._fields), getattr(r, "zz", "default"))
print(r.missing)
