class Typed:
    def __init__(self, kind):
        self.kind = kind
    def __set_name__(self, owner, name):
        self.name = "_" + name
    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.name, None)
    def __set__(self, obj, value):
        if not isinstance(value, self.kind):
            raise TypeError(f"{self.name[1:]} must be {self.kind.__name__}, got {type(value).__name__}")
        setattr(obj, self.name, value)

class Product:
    name = Typed(str)
    price = Typed(float)
    def __init__(self, name, price):
        self.name = name
        self.price = price

p = Product("pen", 1.5)
print(p.name, p.price, type(Product.name).__name__)
try:
    p.price = "cheap"
except TypeError as e:
    print("TypeError:", e)
Product(42, 1.0)
