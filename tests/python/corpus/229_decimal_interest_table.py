from decimal import Decimal, ROUND_HALF_UP

principal = Decimal("10000.00")
rate = Decimal("0.045")
cents = Decimal("0.01")
balance = principal
print(f"{'year':>4} {'interest':>10} {'balance':>12}")
for year in range(1, 6):
    interest = (balance * rate).quantize(cents, rounding=ROUND_HALF_UP)
    balance += interest
    print(f"{year:>4} {interest:>10} {balance:>12,}")
print("growth:", ((balance / principal - 1) * 100).quantize(Decimal("0.001")), "%")
print(Decimal("1.1") * 3, Decimal("1") / 3 * 3, sum([Decimal("0.1")] * 10) == 1)
