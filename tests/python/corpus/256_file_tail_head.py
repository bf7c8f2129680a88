from collections import deque

with open("big.txt", "w") as f:
    for i in range(1, 1001):
        f.write(f"line {i:04d}\n")

def head(path, n):
    with open(path) as f:
        return [next(f).rstrip() for _ in range(n)]

def tail(path, n):
    with open(path) as f:
        return [l.rstrip() for l in deque(f, maxlen=n)]

print(head("big.txt", 3))
print(tail("big.txt", 3))
with open("big.txt") as f:
    f.seek(0, 2)
    size = f.tell()
print(size, size // 10)
