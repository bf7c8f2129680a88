class Fib:
    def __init__(self, limit):
        self.limit = limit
    def __iter__(self):
        return FibIter(self.limit)

class FibIter:
    def __init__(self, limit):
        self.a, self.b, self.limit = 0, 1, limit
    def __iter__(self):
        return self
    def __next__(self):
        if self.a > self.limit:
            raise StopIteration
        v = self.a
        self.a, self.b = self.b, self.a + self.b
        return v

f = Fib(100)
print(list(f), sum(f), max(f))
it = iter(f)
print(next(it), next(it), next(it), list(it))
print(list(zip(Fib(5), "abcdef")))
print(list(iter([1, 2, 3, 0, 4].pop, 0)))
