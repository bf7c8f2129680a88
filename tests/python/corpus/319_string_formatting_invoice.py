items = [("Consulting", 12.5, 150.0), ("Travel", 1, 320.4), ("Software license", 3, 99.99)]
w = 48
print("INVOICE".center(w))
print(f"{'No. 2024-0017':>{w}}")
print("=" * w)
print(f"{'Description':<24}{'Qty':>6}{'Rate':>9}{'Amount':>9}")
print("-" * w)
total = 0
for desc, qty, rate in items:
    amt = qty * rate
    total += amt
    print(f"{desc[:23]:<24}{qty:>6g}{rate:>9.2f}{amt:>9.2f}")
print("-" * w)
print(f"{'Total':<39}{total:>9.2f}")
print(f"{'Due (net 30)':<39}{'2024-02-01':>9}")
print("%s|%8.3f|%-6d|%+.1e" % ("old", 3.14159, 42, 12345.678))
