import json
import statistics

measurements = {"sensor": "t1", "unit": "C",
                "readings": [21.5, 22.0, 22.4, 35.9, 21.8, 22.1, -40.0, 22.3]}
with open("readings.json", "w") as f:
    json.dump(measurements, f)
with open("readings.json") as f:
    m = json.load(f)
vals = m["readings"]
med = statistics.median(vals)
mad = statistics.median(abs(v - med) for v in vals)
clean = [v for v in vals if abs(v - med) <= 5 * mad]
outliers = [v for v in vals if v not in clean]
print(f"sensor {m['sensor']}: {len(vals)} readings, median {med:.2f}{m['unit']}")
print("outliers:", outliers)
print(f"clean mean {statistics.mean(clean):.3f}, min {min(clean)}, max {max(clean)}")
