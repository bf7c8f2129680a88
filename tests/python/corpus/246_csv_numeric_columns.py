import csv
import io

data = """city,pop,area,founded
Springfield,167000,159.7,1821
Shelbyville,84000,88.2,1796
Ogdenville,12000,,1874
North Haverbrook,5500,12.0,n/a
"""
rows = list(csv.DictReader(io.StringIO(data)))
for col in rows[0]:
    vals = []
    for r in rows:
        try:
            vals.append(float(r[col]))
        except ValueError:
            pass
    kind = "numeric" if len(vals) == len(rows) else f"partial ({len(vals)}/{len(rows)})" if vals else "text"
    extra = f" min={min(vals):g} max={max(vals):g}" if vals else ""
    print(f"{col:8} {kind}{extra}")
