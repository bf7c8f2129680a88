import os
import shutil

for p in ["proj/src/a.py", "proj/src/a.pyc", "proj/__pycache__/x.pyc", "proj/.git/HEAD", "proj/README"]:
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(p)
shutil.copytree("proj", "clean", ignore=shutil.ignore_patterns("*.pyc", "__pycache__", ".git"))
out = []
for root, dirs, files in os.walk("clean"):
    dirs.sort()
    out += [os.path.join(root, f) for f in sorted(files)]
print(out)
shutil.copy2("proj/README", "README.copy")
print(open("README.copy").read())
try:
    shutil.copytree("proj", "clean")
except FileExistsError as e:
    print("FileExistsError:", os.path.basename(e.filename))
