import os
import tarfile

os.makedirs("pkg/lib")
files = {"pkg/README": "read me\n", "pkg/lib/a.py": "A = 1\n", "pkg/lib/b.py": "B = 2\n" * 10}
for p, body in files.items():
    with open(p, "w") as f:
        f.write(body)
with tarfile.open("pkg.tar.gz", "w:gz") as tar:
    tar.add("pkg")
with tarfile.open("pkg.tar.gz", "r:gz") as tar:
    for m in sorted(tar.getmembers(), key=lambda m: m.name):
        print(f"{'d' if m.isdir() else 'f'} {m.name:14} {m.size}")
    data = tar.extractfile("pkg/lib/b.py").read()
print(data.count(b"\n"))
