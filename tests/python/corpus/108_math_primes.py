import math

def is_prime(n):
    if n < 2:
        return False
    for d in range(2, math.isqrt(n) + 1):
        if n % d == 0:
            return False
    return True

def sieve(limit):
    flags = [True] * (limit + 1)
    flags[0:2] = [False, False]
    for i in range(2, math.isqrt(limit) + 1):
        if flags[i]:
            flags[i * i::i] = [False] * len(flags[i * i::i])
    return [i for i, f in enumerate(flags) if f]

primes = sieve(100)
print(primes)
print(all(is_prime(p) for p in primes), len(primes))
print([n for n in range(1000, 1100) if is_prime(n)])
print(sum(sieve(100000)))
