import json
import sys

doc = json.load(sys.stdin)
out = []
for item in doc["items"]:
    out.append({"sku": item["sku"].upper(), "value": round(item["qty"] * item["price"], 2)})
out.sort(key=lambda d: -d["value"])
json.dump({"count": len(out), "items": out}, sys.stdout, indent=2)
print()
