from itertools import islice, count

def primes():
    found = []
    for n in count(2):
        if all(n % p for p in found if p * p <= n):
            found.append(n)
            yield n

def collatz(n):
    while n != 1:
        yield n
        n = n // 2 if n % 2 == 0 else 3 * n + 1
    yield 1

print(list(islice(primes(), 15)))
print(list(collatz(27))[:10], len(list(collatz(27))))
best = max(range(1, 1000), key=lambda n: sum(1 for _ in collatz(n)))
print(best)
print(next(p for p in primes() if p > 1000))
