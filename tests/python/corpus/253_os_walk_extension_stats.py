import os
from collections import Counter, defaultdict

files = {"a/x.py": 120, "a/y.py": 80, "a/b/z.txt": 10, "a/b/w.md": 300, "c/q.py": 50,
         "c/r.TXT": 5, "c/noext": 1, "c/.env": 7}
for p, n in files.items():
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write("#" * n)
counts, sizes = Counter(), defaultdict(int)
for root, _, names in os.walk("."):
    for name in names:
        if root == ".":
            continue
        ext = os.path.splitext(name)[1].lower() or "(none)"
        counts[ext] += 1
        sizes[ext] += os.path.getsize(os.path.join(root, name))
for ext in sorted(counts, key=lambda e: (-sizes[e], e)):
    print(f"{ext:8} {counts[ext]:3} files {sizes[ext]:6} bytes")
