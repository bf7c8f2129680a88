import csv
import sys
from collections import defaultdict

totals = defaultdict(float)
counts = defaultdict(int)
for row in csv.DictReader(sys.stdin):
    totals[row["category"]] += float(row["amount"])
    counts[row["category"]] += 1
width = max(map(len, totals))
for cat in sorted(totals, key=totals.get, reverse=True):
    print(f"{cat:<{width}}  {counts[cat]:>3}  {totals[cat]:>9.2f}")
print(f"{'ALL':<{width}}  {sum(counts.values()):>3}  {sum(totals.values()):>9.2f}")
