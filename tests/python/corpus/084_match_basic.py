def describe(x):
    match x:
        case 0:
            return "zero"
        case int(n) if n < 0:
            return "negative int"
        case int() | float():
            return "number"
        case "" :
            return "empty string"
        case str(s):
            return f"string of {len(s)}"
        case [] :
            return "empty list"
        case [first, *rest]:
            return f"list starting {first!r} (+{len(rest)})"
        case {"type": t, **others}:
            return f"dict type={t} extra={sorted(others)}"
        case None:
            return "none"
        case _:
            return "other"

for v in [0, -3, 2.5, "", "abc", [], [1, 2, 3], {"type": "a", "z": 1, "b": 2}, None, (1,), {1}]:
    print(repr(v), "->", describe(v))
