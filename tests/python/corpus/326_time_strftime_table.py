import time

ts = [0, 86399, 951782400, 1234567890, 2000000000]
print(f"{'epoch':>10}  {'utc':19}  day")
for t in ts:
    g = time.gmtime(t)
    print(f"{t:>10}  {time.strftime('%Y-%m-%d %H:%M:%S', g)}  {time.strftime('%a', g)}")
print(time.strftime("%y%m%d", time.gmtime(1e9)), time.gmtime(1e9).tm_isdst)
print(calendar_timegm := __import__("calendar").timegm(time.gmtime(1234567890)))
