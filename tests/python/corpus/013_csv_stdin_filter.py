import csv
import sys

reader = csv.DictReader(sys.stdin)
writer = csv.writer(sys.stdout, lineterminator="\n")
writer.writerow(["name", "score"])
kept = 0
for row in reader:
    if int(row["score"]) >= 50:
        writer.writerow([row["name"].title(), row["score"]])
        kept += 1
print(f"kept {kept}", file=sys.stderr)
