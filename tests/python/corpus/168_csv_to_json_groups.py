import csv
import json
from collections import defaultdict

with open("employees.csv", "w", newline="") as f:
    f.write("name,dept,salary\nann,eng,120\nbob,eng,100\ncy,ops,80\ndee,sales,90\ned,ops,85\n")
groups = defaultdict(list)
with open("employees.csv", newline="") as f:
    for row in csv.DictReader(f):
        groups[row["dept"]].append({"name": row["name"], "salary": int(row["salary"])})
summary = {
    dept: {"count": len(ms), "total": sum(m["salary"] for m in ms),
           "top": max(ms, key=lambda m: m["salary"])["name"]}
    for dept, ms in sorted(groups.items())
}
with open("summary.json", "w") as f:
    json.dump(summary, f, indent=2)
print(open("summary.json").read())
