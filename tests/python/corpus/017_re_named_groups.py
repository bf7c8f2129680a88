import re

log = """2024-01-02 10:15:00 INFO  server started port=8080
2024-01-02 10:15:03 WARN  slow request path=/api ms=1200
2024-01-02 10:16:40 ERROR failed path=/db ms=30
"""
rx = re.compile(r"^(?P<date>\S+) (?P<time>\S+) (?P<level>\w+)\s+(?P<msg>.*)$", re.M)
for m in rx.finditer(log):
    kv = dict(re.findall(r"(\w+)=(\S+)", m["msg"]))
    print(m.group("level"), m["time"], kv)
print(rx.groupindex["level"])
