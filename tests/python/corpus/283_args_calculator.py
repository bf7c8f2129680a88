import sys
import operator

OPS = {"+": operator.add, "-": operator.sub, "x": operator.mul, "/": operator.truediv}
tokens = sys.argv[1:]
if not tokens:
    sys.exit("usage: calc NUM [OP NUM]...")
acc = float(tokens[0])
for op, num in zip(tokens[1::2], tokens[2::2]):
    if op not in OPS:
        print(f"unknown operator {op!r}", file=sys.stderr)
        sys.exit(2)
    acc = OPS[op](acc, float(num))
    print(f"{op} {num} = {acc:g}")
print("result:", int(acc) if acc.is_integer() else acc)
