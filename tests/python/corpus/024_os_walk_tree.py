import os

for d in ["proj/src/pkg", "proj/tests", "proj/docs"]:
    os.makedirs(d, exist_ok=True)
for f, body in {"proj/README.md": "# hi\n", "proj/src/main.py": "print(1)\n",
                "proj/src/pkg/__init__.py": "", "proj/src/pkg/util.py": "x = 1\ny = 2\n",
                "proj/tests/test_a.py": "assert True\n"}.items():
    with open(f, "w") as fh:
        fh.write(body)

for root, dirs, files in os.walk("proj"):
    dirs.sort()
    depth = root.count(os.sep)
    print("  " * depth + os.path.basename(root) + "/")
    for name in sorted(files):
        size = os.path.getsize(os.path.join(root, name))
        print("  " * (depth + 1) + f"{name} ({size}b)")
