import csv
import io

text = "id,name\n1,x\n2,y\n"
rows = list(csv.DictReader(io.StringIO(text)))
print(len(rows), "rows")
for r in rows:
    print(r["id"], r["name"])
print(rows[0]["email"])
