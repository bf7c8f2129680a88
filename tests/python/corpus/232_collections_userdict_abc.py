from collections import UserDict, UserList
from collections.abc import Mapping, Sequence, Iterable, MutableMapping

class LowerDict(UserDict):
    def __setitem__(self, key, value):
        super().__setitem__(key.lower(), value)
    def __getitem__(self, key):
        return super().__getitem__(key.lower())

d = LowerDict({"Content-Type": "json"})
d["X-ID"] = 7
print(dict(d), d["CONTENT-type"], "x-id" in d)
class Stack(UserList):
    def push(self, x):
        self.append(x)
s = Stack([1])
s.push(2)
print(s, len(s), s[-1])
print(isinstance(d, MutableMapping), isinstance({}, Mapping), isinstance("s", Sequence), isinstance(5, Iterable))
