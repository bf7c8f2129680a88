import fnmatch
import re

handlers = [("*.min.js", "skip minified"), ("*.js", "lint js"), ("test_*.py", "run test"),
            ("*.py", "lint py"), ("Makefile", "build"), ("*.[ch]", "compile")]
files = ["app.js", "app.min.js", "test_io.py", "io.py", "Makefile", "x.c", "x.h", "notes.md"]
compiled = [(re.compile(fnmatch.translate(p)), action) for p, action in handlers]
for f in files:
    action = next((a for rx, a in compiled if rx.match(f)), "ignore")
    print(f"{f:12} {action}")
print(fnmatch.filter(files, "*.?"), fnmatch.fnmatchcase("MAKEFILE", "Makefile"))
