from fractions import Fraction

recipe = {"flour (cup)": "2 1/4", "sugar (cup)": "3/4", "eggs": "2", "milk (cup)": "1/3"}

def parse(q):
    return sum(Fraction(p) for p in q.split())

def show(fr):
    whole, rem = divmod(fr.numerator, fr.denominator)
    if rem == 0:
        return str(whole)
    frac = f"{rem}/{fr.denominator}"
    return f"{whole} {frac}" if whole else frac

for scale in [Fraction(1, 2), Fraction(3, 2), 3]:
    print(f"x{scale}:", ", ".join(f"{k}={show(parse(v) * scale)}" for k, v in recipe.items()))
print(Fraction("1.75"), Fraction(3, 4) + 0.25, Fraction(1, 3) == 1 / 3)
