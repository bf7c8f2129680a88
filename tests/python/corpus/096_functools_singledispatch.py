from functools import singledispatch, cmp_to_key
from decimal import Decimal

@singledispatch
def fmt(x):
    return f"<{type(x).__name__}>"

@fmt.register
def _(x: int):
    return f"int {x:,}"

@fmt.register
def _(x: float):
    return f"float {x:.3f}"

@fmt.register(list)
def _(x):
    return "[" + ", ".join(fmt(i) for i in x) + "]"

print(fmt(1234567), fmt(2.5), fmt([1, 2.0, "s"]), fmt(Decimal("1")))
def by_len_then_alpha(a, b):
    return (len(a) > len(b)) - (len(a) < len(b)) or (a > b) - (a < b)
print(sorted(["pear", "fig", "apple", "kiwi", "date"], key=cmp_to_key(by_len_then_alpha)))
