x = 3
items = ["a", "b"]
user = {"name": "kim"}
print(f"{x=}")
print(f"{x * 2 + 1 = }")
print(f"{items!r} {items[0]!s} {user['name']!r}")
print(f"{'nested ' + str(len(items))}")
print(f"{{literal braces}} {x}")
value = 7.0
print(f"{value=:.2f}")
print(f"{'multi'}" f"{'part'}")
