import sys

total = 0
bad = 0
for lineno, line in enumerate(sys.stdin, 1):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    try:
        total += float(line)
    except ValueError:
        bad += 1
        print(f"line {lineno}: not a number: {line!r}", file=sys.stderr)
print(f"total={total:g}")
sys.exit(1 if bad else 0)
