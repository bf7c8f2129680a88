seq = list(range(10))
print(seq[2:5], seq[:3], seq[-3:], seq[::2], seq[::-1], seq[7:2:-2], seq[100:])
first, *middle, last = seq
print(first, middle, last)
(a, b), c = (1, 2), 3
print(a, b, c)
a, b = b, a
print(a, b)
s = "hello world"
print(s[::-1], s[-5:], s[:-6])
seq[2:4] = ["x", "y", "z"]
print(seq)
del seq[::3]
print(seq)
print(*[1, 2], *"ab", sep="-")
d = {**{"a": 1}, "b": 2, **{"a": 3}}
print(d, [*range(3), *"xy"])
