from decimal import Decimal, InvalidOperation, localcontext, DivisionByZero

for s in ["1.5", "abc", "1e999999999", "NaN", "-Infinity"]:
    try:
        d = Decimal(s)
        print(s, "->", d, d.is_nan(), d.is_infinite())
    except InvalidOperation:
        print(s, "-> invalid")
with localcontext() as ctx:
    ctx.prec = 5
    print(Decimal("3.14159265") * 1)
    ctx.traps[DivisionByZero] = False
    print(Decimal(1) / Decimal(0))
print(Decimal(10) / Decimal(4), Decimal(10) // Decimal(4), Decimal(-7) % Decimal(3))
try:
    Decimal(1) / Decimal(0)
except DivisionByZero as e:
    print("DivisionByZero caught:", isinstance(e, ZeroDivisionError))
