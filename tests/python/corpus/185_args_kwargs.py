def f(a, b=2, *args, c, d=4, **kwargs):
    return f"a={a} b={b} args={args} c={c} d={d} kwargs={kwargs}"

print(f(1, c=3))
print(f(1, 2, 3, 4, c=5, e=6))
print(f(*[1, 2, 3], **{"c": 9, "z": 0}))
def pos_only(x, y, /, z):
    return x + y + z
print(pos_only(1, 2, z=3))
def kw_only(*, name):
    return name
print(kw_only(name="n"))
for call in [lambda: f(), lambda: kw_only("n"), lambda: pos_only(x=1, y=2, z=3), lambda: f(1, c=1, a=2)]:
    try:
        call()
    except TypeError as e:
        print("TypeError:", e)
