import time

def work(n):
    return sum(i * i for i in range(n))

results = {}
for n in (1000, 10000):
    start = time.perf_counter()
    value = work(n)
    elapsed = time.perf_counter() - start
    results[n] = (value, elapsed >= 0)
for n, (v, ok) in results.items():
    print(f"n={n:<6} value={v:<14} timing ok={ok}")
print("process_time is float:", isinstance(time.process_time(), float))
print("time.time is after 2001:", time.time() > 1e9)
