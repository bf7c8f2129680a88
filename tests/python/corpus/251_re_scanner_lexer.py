import re

TOKEN_SPEC = [("NUMBER", r"\d+(?:\.\d*)?"), ("ASSIGN", r":="), ("END", r";"), ("ID", r"[A-Za-z]+"),
              ("OP", r"[+\-*/]"), ("NEWLINE", r"\n"), ("SKIP", r"[ \t]+"), ("MISMATCH", r".")]
rx = re.compile("|".join(f"(?P<{n}>{p})" for n, p in TOKEN_SPEC))
code = "total := price * 1.2;\ncount := count + 1;\nx := 3 $ 4;"
line = 1
for m in rx.finditer(code):
    kind, value = m.lastgroup, m.group()
    if kind == "NEWLINE":
        line += 1
    elif kind == "SKIP":
        continue
    elif kind == "MISMATCH":
        raise RuntimeError(f"{value!r} unexpected on line {line}")
    else:
        print(line, kind, value)
