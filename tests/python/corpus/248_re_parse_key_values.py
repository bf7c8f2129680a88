import re

line = 'user="John Smith" id=42 active=true ratio=0.75 note="a \\"quoted\\" word" empty=""'
pat = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')
out = {}
for key, raw in pat.findall(line):
    if raw.startswith('"'):
        val = re.sub(r'\\(.)', r"\1", raw[1:-1])
    elif raw in ("true", "false"):
        val = raw == "true"
    elif re.fullmatch(r"-?\d+", raw):
        val = int(raw)
    else:
        val = float(raw)
    out[key] = val
for k, v in out.items():
    print(f"{k:7} {type(v).__name__:5} {v!r}")
