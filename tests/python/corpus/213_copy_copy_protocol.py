import copy

class Config:
    def __init__(self, name, opts):
        self.name = name
        self.opts = opts
    def __copy__(self):
        print("custom __copy__")
        return Config(self.name + "-copy", self.opts)
    def __repr__(self):
        return f"Config({self.name!r}, {self.opts})"

c1 = Config("base", {"a": [1]})
c2 = copy.copy(c1)
c3 = copy.deepcopy(c1)
c1.opts["a"].append(2)
print(c1, c2, c3, sep="\n")
print(c2.opts is c1.opts, c3.opts is c1.opts)
t = (1, [2])
print(copy.copy(t) is t, copy.deepcopy(t) is t, copy.deepcopy((1, 2)) == (1, 2))
