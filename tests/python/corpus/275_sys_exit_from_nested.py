import sys

def validate(n):
    if n < 0:
        print(f"fatal: negative value {n}", file=sys.stderr)
        sys.exit(7)
    return n

def process(values):
    total = 0
    for v in values:
        total += validate(v)
        print("running total", total)
    return total

try:
    process([1, 2, -1, 4])
finally:
    print("finally still runs")
