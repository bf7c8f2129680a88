from decimal import Decimal, ROUND_HALF_UP, ROUND_HALF_EVEN, getcontext

prices = [Decimal("19.99"), Decimal("5.01"), Decimal("0.10")]
subtotal = sum(prices)
tax = (subtotal * Decimal("0.0825")).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
print(subtotal, tax, subtotal + tax)
print(0.1 + 0.2, Decimal("0.1") + Decimal("0.2"), Decimal(0.1))
print(Decimal("2.675").quantize(Decimal("0.01"), ROUND_HALF_EVEN), Decimal("2.665").quantize(Decimal("0.01"), ROUND_HALF_EVEN))
getcontext().prec = 10
print(Decimal(1) / Decimal(7), Decimal(2).sqrt())
print(Decimal("1.30") == Decimal("1.3"), Decimal("1.30"), Decimal("1.30").normalize(), Decimal("-0"))
print(Decimal("123.456").as_tuple(), Decimal("1e3") + 1, int(Decimal("9.99")), float(Decimal("0.5")))
