from fractions import Fraction
import math

def continued_fraction(x: Fraction, n=10):
    terms = []
    for _ in range(n):
        a = math.floor(x)
        terms.append(a)
        if x == a:
            break
        x = 1 / (x - a)
    return terms

def convergents(terms):
    out = []
    for i in range(1, len(terms) + 1):
        f = Fraction(terms[i - 1])
        for t in reversed(terms[:i - 1]):
            f = t + 1 / f
        out.append(f)
    return out

print(continued_fraction(Fraction(415, 93)))
pi_approx = Fraction(math.pi)
terms = continued_fraction(pi_approx, 5)
print(terms, [str(c) for c in convergents(terms)])
print(Fraction(math.pi).limit_denominator(1000), Fraction(2).__pow__(Fraction(1, 2)))
