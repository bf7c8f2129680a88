import time

t = time.gmtime(0)
print(t.tm_year, t.tm_mon, t.tm_mday, t.tm_wday, t.tm_yday)
print(time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(1700000000)))
st = time.strptime("2024-01-02 03:04:05", "%Y-%m-%d %H:%M:%S")
print(st.tm_hour, st.tm_min, st.tm_sec, st.tm_wday)
print(time.asctime(time.gmtime(86400 * 365)))
start = time.monotonic()
time.sleep(0.01)
elapsed = time.monotonic() - start
print("slept at least 10ms:", elapsed >= 0.009)
print(type(time.time()).__name__, time.perf_counter() > 0)
