from datetime import datetime, date, time

stamps = ["2024-01-02T03:04:05", "2023-12-31 23:59:59", "2024-02-29"]
for s in stamps:
    dt = datetime.fromisoformat(s)
    print(repr(dt), dt.strftime("%d/%m/%y %I:%M %p"))
p = datetime.strptime("05 Mar 2024 14:07", "%d %b %Y %H:%M")
print(p, p.year, p.month, p.minute)
print(date.fromisoformat("2024-07-04").strftime("%j %U %w"), time(13, 5).isoformat())
print(datetime.combine(date(2024, 5, 6), time(7, 8, 9)).isoformat(sep=" "))
try:
    datetime.strptime("2024-13-01", "%Y-%m-%d")
except ValueError as e:
    print("ValueError:", e)
