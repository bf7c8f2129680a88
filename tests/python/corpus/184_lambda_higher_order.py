from functools import reduce

compose = lambda *fs: reduce(lambda f, g: lambda x: g(f(x)), fs)
inc = lambda x: x + 1
dbl = lambda x: x * 2
print(compose(inc, dbl)(5), compose(dbl, inc)(5), compose(inc, inc, inc)(0))
def curry(f):
    return lambda a: lambda b: f(a, b)
add = curry(lambda a, b: a + b)
print(add(2)(3), list(map(add(10), [1, 2, 3])))
pipeline = [str.strip, str.lower, lambda s: s.replace(" ", "_")]
print(reduce(lambda acc, f: f(acc), pipeline, "  Hello Big World "))
ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "max": max}
print({k: f(7, 3) for k, f in ops.items()})
print(sorted(["bb", "a", "ccc"], key=lambda s: -len(s)), (lambda: "immediate")())
