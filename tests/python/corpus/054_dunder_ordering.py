from functools import total_ordering

@total_ordering
class Version:
    def __init__(self, s):
        self.parts = tuple(int(p) for p in s.split("."))
    def __eq__(self, other):
        return self.parts == other.parts
    def __lt__(self, other):
        return self.parts < other.parts
    def __hash__(self):
        return hash(self.parts)
    def __repr__(self):
        return "v" + ".".join(map(str, self.parts))

vs = [Version(s) for s in ["1.10.0", "1.2.3", "1.2.10", "0.9", "1.2.3"]]
print(sorted(vs))
print(max(vs), min(vs))
print(Version("2.0") >= Version("1.99.99"), Version("1.0") <= Version("1.0"))
print(len(set(vs)))
