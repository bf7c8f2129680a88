import math

print(math.sqrt(2), math.pi, math.e, math.tau)
print(math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.5), round(2.5), round(3.5), round(-0.5))
print(math.gcd(84, 36), math.lcm(4, 6), math.factorial(20), math.comb(10, 3), math.perm(5, 2))
print(math.isclose(0.1 + 0.2, 0.3), 0.1 + 0.2 == 0.3, math.fsum([0.1] * 10), 0.1 * 3)
print(math.log(100, 10), math.log2(1024), math.log10(0.001), math.exp(1) == math.e)
print(math.sin(math.pi / 2), round(math.cos(math.pi), 3), math.degrees(math.pi), math.radians(180))
print(math.hypot(3, 4), math.dist((0, 0), (6, 8)), math.prod([1, 2, 3, 4]), math.isqrt(99))
print(math.inf > 10**300, math.isnan(math.nan), math.copysign(3, -0.0), math.fmod(-7, 3), -7 % 3)
try:
    math.sqrt(-1)
except ValueError as e:
    print("ValueError:", e)
