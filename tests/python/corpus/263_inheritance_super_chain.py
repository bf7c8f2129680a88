class Base:
    def __init__(self, **kw):
        print("Base init", sorted(kw))
    def hello(self):
        return ["Base"]

class A(Base):
    def __init__(self, a=None, **kw):
        print("A init", a)
        super().__init__(**kw)
    def hello(self):
        return ["A"] + super().hello()

class B(Base):
    def __init__(self, b=None, **kw):
        print("B init", b)
        super().__init__(**kw)
    def hello(self):
        return ["B"] + super().hello()

class C(A, B):
    def hello(self):
        return ["C"] + super().hello()

c = C(a=1, b=2, extra=3)
print(c.hello())
print([k.__name__ for k in C.__mro__])
