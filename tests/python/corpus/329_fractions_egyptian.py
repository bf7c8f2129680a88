from fractions import Fraction
import math

def egyptian(fr):
    parts = []
    while fr.numerator:
        d = math.ceil(fr.denominator / fr.numerator)
        parts.append(Fraction(1, d))
        fr -= Fraction(1, d)
    return parts

for f in [Fraction(4, 13), Fraction(5, 6), Fraction(7, 15), Fraction(2, 3)]:
    parts = egyptian(f)
    print(f"{str(f):>5} = " + " + ".join(map(str, parts)), sum(parts) == f)
print(sorted([Fraction(1, 3), Fraction(2, 7), Fraction(3, 10)]), Fraction(3, 6).denominator)
