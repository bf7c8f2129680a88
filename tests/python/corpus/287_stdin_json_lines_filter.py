import json
import sys

kept = dropped = 0
for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    try:
        rec = json.loads(line)
    except json.JSONDecodeError:
        print("bad line:", line[:20], file=sys.stderr)
        dropped += 1
        continue
    if rec.get("status", 0) >= 400:
        print(json.dumps({"path": rec["path"], "status": rec["status"]}))
        kept += 1
print(f"kept={kept} dropped={dropped}", file=sys.stderr)
