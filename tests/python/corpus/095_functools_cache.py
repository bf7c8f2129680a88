from functools import lru_cache, cache, cached_property

@lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

print(fib(80), fib.cache_info())

calls = []
@cache
def slow_square(x):
    calls.append(x)
    return x * x

print([slow_square(i % 3) for i in range(7)], calls)

class Report:
    def __init__(self, rows):
        self.rows = rows
    @cached_property
    def total(self):
        print("computing total")
        return sum(self.rows)

r = Report([1, 2, 3])
print(r.total, r.total)
