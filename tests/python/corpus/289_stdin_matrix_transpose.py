import sys

rows = [line.split() for line in sys.stdin if line.strip()]
widths = {len(r) for r in rows}
if len(widths) != 1:
    print(f"ragged input: row lengths {sorted(widths)}", file=sys.stderr)
    sys.exit(3)
for col in zip(*rows):
    print(" ".join(f"{c:>3}" for c in col))
