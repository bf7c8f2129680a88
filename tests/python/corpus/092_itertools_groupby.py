from itertools import groupby
from operator import itemgetter

sales = [("2024-01", "east", 5), ("2024-01", "west", 3), ("2024-02", "east", 7),
         ("2024-02", "east", 1), ("2024-03", "west", 9)]
for month, rows in groupby(sales, key=itemgetter(0)):
    rows = list(rows)
    print(month, len(rows), sum(r[2] for r in rows))
by_region = sorted(sales, key=itemgetter(1))
for region, rows in groupby(by_region, key=itemgetter(1)):
    print(region, [r[2] for r in rows])
print([(k, len(list(g))) for k, g in groupby("aaabccdddd")])
