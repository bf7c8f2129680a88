import os

layout = {"logs/app.log": 5000, "logs/old/app.1.log": 12000, "cache/a.tmp": 100,
          "cache/b.tmp": 20000, "src/x.py": 300}
for path, size in layout.items():
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(b"#" * size)

found = []
for root, _, files in os.walk("."):
    for name in files:
        p = os.path.relpath(os.path.join(root, name))
        if os.path.getsize(p) > 1000 and not name.endswith(".py"):
            found.append((os.path.getsize(p), p))
for size, p in sorted(found, reverse=True):
    print(f"{size / 1024:6.1f} KiB  {p}")
