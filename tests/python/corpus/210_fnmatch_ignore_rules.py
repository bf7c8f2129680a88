import fnmatch
import os

rules = ["*.log", "build/*", "!important.log", "*.tmp"]
files = ["app.log", "important.log", "build/out.o", "src/main.c", "x.tmp", "docs/build/readme"]

def ignored(path):
    result = False
    for rule in rules:
        neg = rule.startswith("!")
        pat = rule[1:] if neg else rule
        if fnmatch.fnmatch(path, pat) or fnmatch.fnmatch(os.path.basename(path), pat):
            result = not neg
    return result

for f in files:
    print(f"{f:20} {'ignored' if ignored(f) else 'kept'}")
print(fnmatch.fnmatch("a/b/c.py", "*.py"), fnmatch.fnmatch("[x]", "[[]x]"))
