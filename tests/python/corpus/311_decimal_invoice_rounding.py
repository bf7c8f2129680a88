from decimal import Decimal, ROUND_HALF_UP, ROUND_DOWN

lines = [("Widget", "3", "19.995"), ("Gadget", "1", "5.5"), ("Cable", "12", "0.333")]
cent = Decimal("0.01")
subtotal = Decimal(0)
for name, qty, price in lines:
    amount = (Decimal(qty) * Decimal(price)).quantize(cent, ROUND_HALF_UP)
    subtotal += amount
    print(f"{name:<8} {qty:>3} x {Decimal(price):>7} = {amount:>8}")
discount = (subtotal * Decimal("0.05")).quantize(cent, ROUND_DOWN)
vat = ((subtotal - discount) * Decimal("0.19")).quantize(cent, ROUND_HALF_UP)
print(f"{'subtotal':<24}{subtotal:>9}")
print(f"{'discount 5%':<24}{-discount:>9}")
print(f"{'VAT 19%':<24}{vat:>9}")
print(f"{'TOTAL':<24}{subtotal - discount + vat:>9}")
