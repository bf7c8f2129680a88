import bisect
from collections import Counter

edges = [0, 18, 30, 45, 65]
labels = ["<18", "18-29", "30-44", "45-64", "65+"]
ages = [3, 17, 18, 22, 29, 30, 31, 44, 45, 50, 64, 65, 80, 99, 0]
bins = Counter(labels[bisect.bisect_right(edges, a) - 1] for a in ages)
for label in labels:
    print(f"{label:>6} {'*' * bins[label]} {bins[label]}")
sorted_ages = sorted(ages)
lo, hi = bisect.bisect_left(sorted_ages, 30), bisect.bisect_right(sorted_ages, 50)
print("ages 30..50:", sorted_ages[lo:hi])
