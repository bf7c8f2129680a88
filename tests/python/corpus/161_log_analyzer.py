import re
from collections import Counter, defaultdict

LOG = """127.0.0.1 - - [02/Jan/2024:10:00:01] "GET /index.html HTTP/1.1" 200 512
10.0.0.5 - - [02/Jan/2024:10:00:02] "GET /api/users HTTP/1.1" 200 1024
10.0.0.5 - - [02/Jan/2024:10:00:03] "POST /api/users HTTP/1.1" 201 64
127.0.0.1 - - [02/Jan/2024:10:01:00] "GET /missing HTTP/1.1" 404 0
10.0.0.9 - - [02/Jan/2024:10:02:00] "GET /api/users HTTP/1.1" 500 12
"""
with open("access.log", "w") as f:
    f.write(LOG)
rx = re.compile(r'(\S+) .*?\[(.*?)\] "(\w+) (\S+) [^"]*" (\d{3}) (\d+)')
status, per_ip, bytes_by_path = Counter(), Counter(), defaultdict(int)
with open("access.log") as f:
    for line in f:
        m = rx.match(line)
        if not m:
            continue
        ip, ts, method, path, code, size = m.groups()
        status[code[0] + "xx"] += 1
        per_ip[ip] += 1
        bytes_by_path[path] += int(size)
print("status:", dict(sorted(status.items())))
print("top ip:", per_ip.most_common(1)[0])
for path, b in sorted(bytes_by_path.items(), key=lambda kv: (-kv[1], kv[0])):
    print(f"{b:>6}  {path}")
