import time

t0 = time.perf_counter()
m0 = time.monotonic()
for _ in range(3):
    time.sleep(0.005)
dt = time.perf_counter() - t0
dm = time.monotonic() - m0
print("perf_counter advanced:", dt > 0.0)
print("monotonic advanced:", dm > 0.0)
print("ns clock is int:", isinstance(time.monotonic_ns(), int))
try:
    time.sleep(-1)
except ValueError as e:
    print("ValueError:", e)
