rows = [("apples", 12, 0.5), ("bananas", 7, 0.25), ("cherries", 200, 0.05), ("dates", 0, 3.0)]
header = f"{'item':<10}|{'qty':>5}|{'unit':>7}|{'total':>8}"
print(header)
print("-" * len(header))
grand = 0.0
for name, qty, unit in rows:
    total = qty * unit
    grand += total
    print(f"{name:<10}|{qty:>5d}|{unit:>7.2f}|{total:>8.2f}")
print("-" * len(header))
print(f"{'TOTAL':<10}|{'':>5}|{'':>7}|{grand:>8.2f}")
