import json

lines = [
    '{"level": "info", "msg": "start"}',
    '{"level": "warn", "msg": "disk 91%"}',
    '{"level": "error", "msg": "boom", "code": 5}',
    '{"level": "info", "msg": "stop"}',
]
with open("log.jsonl", "w") as f:
    f.write("\n".join(lines) + "\n")

counts = {}
with open("log.jsonl") as f:
    for raw in f:
        rec = json.loads(raw)
        counts[rec["level"]] = counts.get(rec["level"], 0) + 1
        if "code" in rec:
            print("error code", rec["code"], "->", rec["msg"])
for level, n in sorted(counts.items()):
    print(f"{level:>6}: {n}")
