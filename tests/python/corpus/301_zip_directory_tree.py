import os
import zipfile

for p in ["proj/a.txt", "proj/src/main.py", "proj/src/util/helpers.py"]:
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(f"# {p}\n")
with zipfile.ZipFile("proj.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for root, dirs, files in os.walk("proj"):
        dirs.sort()
        for f in sorted(files):
            full = os.path.join(root, f)
            z.write(full, os.path.relpath(full, "proj"))
with zipfile.ZipFile("proj.zip") as z:
    for n in z.namelist():
        print(n, z.getinfo(n).file_size)
    z.extract("src/main.py", "only")
print(open("only/src/main.py").read(), end="")
