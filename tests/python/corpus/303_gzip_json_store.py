import gzip
import json

events = [{"seq": i, "type": ["click", "view", "buy"][i % 3], "value": i * 1.5} for i in range(200)]
with gzip.open("events.json.gz", "wt", encoding="utf-8") as f:
    json.dump(events, f)
with gzip.open("events.json.gz", "rt", encoding="utf-8") as f:
    loaded = json.load(f)
print(len(loaded), loaded == events)
by_type = {}
for e in loaded:
    by_type[e["type"]] = by_type.get(e["type"], 0) + e["value"]
print(by_type)
with open("events.json.gz", "rb") as f:
    print(f.read(3) == b"\x1f\x8b\x08")
