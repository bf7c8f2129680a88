from itertools import groupby
from operator import itemgetter

employees = [
    {"name": "ann", "dept": "eng", "salary": 120, "age": 34},
    {"name": "bob", "dept": "eng", "salary": 100, "age": 45},
    {"name": "cy", "dept": "ops", "salary": 70, "age": 29},
    {"name": "dee", "dept": "ops", "salary": 75, "age": 51},
    {"name": "ed", "dept": "sales", "salary": 65, "age": 38},
]
# SELECT dept, COUNT(*), AVG(salary), MAX(age) FROM employees WHERE age > 30 GROUP BY dept HAVING COUNT(*) >= 1 ORDER BY AVG(salary) DESC
rows = sorted((e for e in employees if e["age"] > 30), key=itemgetter("dept"))
result = []
for dept, grp in groupby(rows, key=itemgetter("dept")):
    g = list(grp)
    result.append((dept, len(g), sum(e["salary"] for e in g) / len(g), max(e["age"] for e in g)))
result.sort(key=lambda r: -r[2])
print(f"{'dept':6}{'n':>3}{'avg':>8}{'max_age':>9}")
for r in result:
    print(f"{r[0]:6}{r[1]:>3}{r[2]:>8.1f}{r[3]:>9}")
