class Ring:
    def __init__(self, items):
        self._items = list(items)
    def __len__(self):
        return len(self._items)
    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self) * 2))]
        return self._items[i % len(self._items)]
    def __setitem__(self, i, v):
        self._items[i % len(self._items)] = v
    def __iter__(self):
        return iter(self._items)
    def __reversed__(self):
        return reversed(self._items)
    def __str__(self):
        return "Ring(" + "->".join(map(str, self._items)) + ")"

r = Ring("abcd")
print(len(r), r[0], r[5], r[-1], r[2:7])
r[6] = "Z"
print(r, list(reversed(r)), "Z" in r)
print(str(r), f"{r}")
