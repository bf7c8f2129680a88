rows = [
    {"name": "ls", "calls": 120, "avg_ms": 0.8},
    {"name": "grep", "calls": 85, "avg_ms": 2.35},
    {"name": "python3", "calls": 40, "avg_ms": 41.0},
    {"name": "jq", "calls": 3, "avg_ms": 5.125},
]
cols = ["name", "calls", "avg_ms"]
cells = [[str(r["name"]), str(r["calls"]), f"{r['avg_ms']:.2f}"] for r in rows]
widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(cols)]
def line(vals, right=(False, True, True)):
    return "| " + " | ".join(v.rjust(w) if r else v.ljust(w) for v, w, r in zip(vals, widths, right)) + " |"
print(line(cols, (False, False, False)))
print("|" + "|".join(("-" * (w + 1) + ":") if i else ("-" * (w + 2)) for i, w in enumerate(widths)) + "|")
for row in cells:
    print(line(row))
