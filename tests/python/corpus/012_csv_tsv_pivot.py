import csv
import io
from collections import defaultdict

data = """date\tmetric\tvalue
2024-01-01\tcpu\t30
2024-01-01\tmem\t55
2024-01-02\tcpu\t41
2024-01-02\tmem\t60
2024-01-03\tcpu\t12
"""
pivot = defaultdict(dict)
for row in csv.DictReader(io.StringIO(data), delimiter="\t"):
    pivot[row["date"]][row["metric"]] = int(row["value"])
metrics = ["cpu", "mem"]
print("date        " + "".join(f"{m:>6}" for m in metrics))
for d in sorted(pivot):
    print(f"{d}  " + "".join(f"{pivot[d].get(m, '-'):>6}" for m in metrics))
