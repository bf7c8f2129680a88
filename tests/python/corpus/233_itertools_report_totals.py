from itertools import groupby, accumulate, islice, count
from operator import itemgetter

txns = [("2024-01-02", "food", 12.5), ("2024-01-02", "travel", 30.0), ("2024-01-03", "food", 8.25),
        ("2024-01-05", "food", 20.0), ("2024-01-05", "fun", 15.0), ("2024-01-05", "travel", 4.0)]
daily = [(d, sum(t[2] for t in ts)) for d, ts in groupby(txns, key=itemgetter(0))]
for (day, amt), running in zip(daily, accumulate(a for _, a in daily)):
    print(f"{day}  {amt:7.2f}  {running:8.2f}")
for n, (d, c, a) in zip(count(1), islice(sorted(txns, key=lambda t: -t[2]), 3)):
    print(n, d, c, a)
