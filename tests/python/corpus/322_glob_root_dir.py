import glob
import os

os.makedirs("pkg/mod")
for f in ["pkg/__init__.py", "pkg/mod/a.py", "pkg/mod/b.py", "pkg/mod/data.json"]:
    open(f, "w").close()
print(sorted(glob.glob("**/*.py", root_dir="pkg", recursive=True)))
print(sorted(glob.glob("*", root_dir="pkg/mod")))
print(sorted(glob.glob("pkg/mod/?.py")), glob.has_magic("a*b"), glob.has_magic("plain"))
print(sorted(os.path.basename(p) for p in glob.iglob("pkg/*/*.json")))
