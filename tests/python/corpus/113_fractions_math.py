from fractions import Fraction as F

a, b = F(1, 3), F(2, 7)
print(a + b, a - b, a * b, a / b, a ** 2, -a, abs(F(-3, 4)))
print(F("0.125"), F("3/9"), F(0.5), F(0.1).limit_denominator(100))
print(F(22, 7) > 3, float(F(22, 7)), round(F(7, 2)), round(F(22, 7), 2), int(F(-7, 2)))
print(sum(F(1, n) for n in range(1, 7)))
h = F(0)
for n in range(1, 21):
    h += F(1, n * (n + 1))
print(h, h.numerator, h.denominator, h.as_integer_ratio())
try:
    F(1, 0)
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
