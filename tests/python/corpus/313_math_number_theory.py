import math
from functools import reduce

def factorize(n):
    f, d = [], 2
    while d * d <= n:
        while n % d == 0:
            f.append(d)
            n //= d
        d += 1
    if n > 1:
        f.append(n)
    return f

for n in [360, 97, 1001, 2**16 + 1, 600851475143]:
    print(n, factorize(n))
print(reduce(math.gcd, [84, 126, 210]), reduce(math.lcm, range(1, 21)))
def totient(n):
    return sum(1 for k in range(1, n + 1) if math.gcd(n, k) == 1)
print([totient(n) for n in range(1, 13)])
print(math.comb(52, 5), math.factorial(10) // (math.factorial(3) * math.factorial(7)))
