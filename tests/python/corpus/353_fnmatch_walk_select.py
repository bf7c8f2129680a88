import fnmatch
import os

for p in ["src/app.py", "src/app_test.py", "src/util/str_test.py", "src/util/io.py", "docs/guide.md", "setup.cfg"]:
    os.makedirs(os.path.dirname(p) or ".", exist_ok=True)
    open(p, "w").close()
include, exclude = ["*.py", "*.md"], ["*_test.py"]
selected = []
for root, dirs, files in os.walk("."):
    dirs.sort()
    for name in sorted(files):
        if name.endswith(".py") and name[:3].isdigit():
            continue
        if any(fnmatch.fnmatch(name, p) for p in include) and not any(fnmatch.fnmatch(name, p) for p in exclude):
            selected.append(os.path.relpath(os.path.join(root, name)))
print(selected)
print(fnmatch.filter(["A.PY", "b.py"], "*.py"), fnmatch.fnmatchcase("A.PY", "*.PY"))
