raw = """  Alice Smith ,  ENGINEERING, 2019-03-01, 120000
bob jones,marketing ,2020-11-15,  85000
  CAROL  white, Engineering,2018-07-30,135000
"""
records = []
for line in raw.strip().splitlines():
    name, dept, start, salary = (part.strip() for part in line.split(","))
    name = " ".join(w.capitalize() for w in name.split())
    records.append((name, dept.title(), start, int(salary)))
width = max(len(r[0]) for r in records)
for name, dept, start, salary in sorted(records, key=lambda r: r[2]):
    year = start[:4]
    print(f"{name:<{width}}  {dept:<12} since {year}  ${salary:>9,}")
print(f"{'avg':<{width}}  {'':<12} {'':10}  ${sum(r[3] for r in records) / len(records):>9,.0f}")
