from fractions import Fraction
from itertools import product

dice = range(1, 7)
outcomes = list(product(dice, dice))
p_sum7 = Fraction(sum(1 for a, b in outcomes if a + b == 7), len(outcomes))
p_double = Fraction(sum(1 for a, b in outcomes if a == b), len(outcomes))
p_either = Fraction(sum(1 for a, b in outcomes if a + b == 7 or a == b), len(outcomes))
print(p_sum7, p_double, p_either, p_sum7 + p_double == p_either)
ev = sum(Fraction(a + b, 36) for a, b in outcomes)
print("expected sum:", ev, float(ev))
p_no_six_4 = Fraction(5, 6) ** 4
print("at least one six in 4 rolls:", 1 - p_no_six_4, f"{float(1 - p_no_six_4):.4f}")
