import sys
import hashlib

data = sys.stdin.buffer.read()
print(len(data), "bytes")
print("sha1", hashlib.sha1(data).hexdigest())
print("lines", data.count(b"\n"))
print("upper", data.upper().decode("utf-8").splitlines()[0])
sys.stdout.flush()
sys.stdout.buffer.write(data[:5] + b"\n")
