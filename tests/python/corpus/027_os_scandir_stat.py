import os

os.makedirs("box/inner")
for name, n in [("big.bin", 4096), ("small.bin", 10), ("mid.bin", 300)]:
    with open(os.path.join("box", name), "wb") as f:
        f.write(b"\0" * n)

with os.scandir("box") as it:
    entries = sorted(it, key=lambda e: e.name)
for e in entries:
    kind = "d" if e.is_dir() else "f"
    size = e.stat().st_size if e.is_file() else 0
    print(kind, e.name, size)
largest = max((e for e in entries if e.is_file()), key=lambda e: e.stat().st_size)
print("largest:", largest.name)
