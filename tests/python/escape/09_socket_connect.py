# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: no socket reaches the host network: socket creation or connect fails; prints
# "blocked: <ExceptionName>" for each attempt (or the import fails: status 1, last stderr line an
# ImportError for socket/_socket). Never "CONNECTED". Status 0 when socket imports.
import socket

for addr in [("127.0.0.1", 80), ("127.0.0.1", 22), ("169.254.169.254", 80), ("::1", 80)]:
    try:
        fam = socket.AF_INET6 if ":" in addr[0] else socket.AF_INET
        s = socket.socket(fam, socket.SOCK_STREAM)
        s.settimeout(1)
        s.connect(addr)
        print(addr, "CONNECTED")
        s.close()
    except (OSError, NotImplementedError) as e:
        print(addr, "blocked:", type(e).__name__)
try:
    print("resolved:", socket.gethostbyname("example.com"))
except (OSError, NotImplementedError) as e:
    print("dns blocked:", type(e).__name__)
