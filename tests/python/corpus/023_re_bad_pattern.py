import re

patterns = [r"a+b", r"(unclosed", r"[z-a]", r"ok\d"]
for p in patterns:
    try:
        re.compile(p)
        print(f"{p!r}: valid")
    except re.error as e:
        print(f"{p!r}: error: {e.msg}")
re.fullmatch(r"\d+", "12a").group()
