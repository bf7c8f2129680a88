import re

expr = "3 + 4*(2 - x1) / 7.5 >= y"
tokens = re.findall(r"\d+\.\d+|\d+|[A-Za-z_]\w*|>=|<=|[-+*/()<>]", expr)
print(tokens)
print(re.split(r"[,;]\s*", "a, b;c ,d"))
print(re.split(r"(\d)", "a1b2c"))
print(re.split(r"\s+", "  lead and trail  ".strip()))
kinds = ["num" if re.fullmatch(r"[\d.]+", t) else "id" if t[0].isalpha() else "op" for t in tokens]
print(" ".join(kinds))
