import functools
import operator

@functools.lru_cache(maxsize=2)
def load(name):
    print("loading", name)
    return name.upper()

for n in ["a", "b", "a", "c", "a"]:
    load(n)
print(load.cache_info())
load.cache_clear()
print(load.cache_info().currsize)
class Money:
    def __init__(self, c):
        self.c = c
    def __add__(self, o):
        return Money(self.c + o.c)
    def __repr__(self):
        return f"${self.c / 100:.2f}"
print(functools.reduce(operator.add, [Money(150), Money(275), Money(5)]))
print(functools.partial(max, default=0)([]), sorted(functools.reduce(operator.or_, [{1}, {2}, {1, 3}])))
