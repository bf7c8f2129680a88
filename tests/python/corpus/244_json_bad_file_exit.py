import json
import sys

with open("broken.json", "w") as f:
    f.write('{"name": "x", "items": [1, 2,\n  3,, 4]}')
try:
    with open("broken.json") as f:
        json.load(f)
except json.JSONDecodeError as e:
    print(f"broken.json:{e.lineno}:{e.colno}: {e.msg}", file=sys.stderr)
    sys.exit(2)
print("unreachable")
