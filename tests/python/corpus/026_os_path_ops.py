import os.path as op

paths = ["a/b/c.txt", "archive.tar.gz", "./x/../y/z.py", "noext", "dir/", ".hidden"]
for p in paths:
    print(f"{p!r:18} base={op.basename(p)!r} dir={op.dirname(p)!r} ext={op.splitext(p)[1]!r}")
print(op.join("a", "b", "c"))
print(op.join("a", "/abs", "c"))
print(op.normpath("a//b/./c/../d"))
print(op.relpath("a/b/c", "a/x"))
print(op.commonpath(["a/b/c", "a/b/d/e"]))
print(op.isabs("/x"), op.isabs("x"))
