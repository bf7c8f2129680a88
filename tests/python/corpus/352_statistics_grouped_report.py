import statistics
from collections import defaultdict

latencies = [("GET /", 12), ("GET /", 15), ("GET /", 11), ("POST /api", 80), ("POST /api", 95),
             ("POST /api", 310), ("GET /img", 5), ("GET /img", 7), ("GET /img", 6), ("GET /img", 40)]
groups = defaultdict(list)
for route, ms in latencies:
    groups[route].append(ms)
print(f"{'route':10} {'n':>2} {'mean':>7} {'median':>7} {'p90':>6} {'max':>4}")
for route, xs in sorted(groups.items()):
    p90 = statistics.quantiles(xs, n=10, method="inclusive")[-1] if len(xs) > 1 else xs[0]
    print(f"{route:10} {len(xs):>2} {statistics.mean(xs):7.1f} {statistics.median(xs):7.1f} {p90:6.1f} {max(xs):4}")
print(statistics.mode([r for r, _ in latencies]))
