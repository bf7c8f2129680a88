xs = [3, -1, 4, -1, 5, -9]
print(len(xs), sum(xs), min(xs), max(xs), abs(-3), any(x > 4 for x in xs), all(x > -10 for x in xs))
print(list(map(abs, xs)), list(filter(None, [0, 1, "", "a", None])), list(zip("ab", [1, 2], [True, False])))
print(list(enumerate("abc", start=1)), list(range(10, 0, -3)), list(reversed("abc")))
print(isinstance(3, (int, float)), type(3.0).__name__, callable(len), hasattr("s", "upper"))
print(round(3.14159, 2), divmod(17, 5), pow(2, 10), hex(255), chr(97), ord("a"), bin(5))
print(int("42"), float("3.5"), str(10), bool(""), bool("x"), list("ab"), tuple([1]), set([1, 1]))
print(format(1234.5, ",.1f"), format(42, "x"), repr("a\n"), sorted({3: "c", 1: "a"}))
ns = {}
exec("y = 6 * 7", ns)
print(ns["y"], eval("2 ** 8"), getattr(str, "upper")("x"), vars(type("T", (), {"a": 1}))["a"])
print(next(iter([9])), slice(1, 5, 2).indices(3), memoryview(b"ab")[0], hash(1) == hash(1.0))
