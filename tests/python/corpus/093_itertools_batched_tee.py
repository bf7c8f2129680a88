import itertools

def batched(iterable, n):
    it = iter(iterable)
    while batch := tuple(itertools.islice(it, n)):
        yield batch

print(list(batched("abcdefg", 3)))
a, b = itertools.tee(range(5))
next(b)
print(list(zip(a, b)))
def sliding(seq, n):
    its = itertools.tee(seq, n)
    for i, t in enumerate(its):
        for _ in range(i):
            next(t, None)
    return zip(*its)
print(list(sliding([1, 2, 3, 4, 5], 3)))
