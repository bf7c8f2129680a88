import time

st = time.strptime("2024-01-02 03:04:05", "%Y-%m-%d %H:%M:%S")
print(time.strftime("%Y-%m-%dT%H:%M:%S", st), st.tm_wday, st.tm_yday)
print(time.strftime("%a %b %d %j %%", st))
print(time.mktime(time.localtime(1000000)) > 0)
print(time.gmtime(1704164645)[:6])
print(time.strftime("%H:%M", time.gmtime(3600 * 13 + 60 * 7)))
def fmt_duration(seconds):
    m, s = divmod(int(seconds), 60)
    h, m = divmod(m, 60)
    return f"{h:d}h{m:02d}m{s:02d}s"
for s in [5, 65, 3600, 3725, 86399]:
    print(s, fmt_duration(s))
