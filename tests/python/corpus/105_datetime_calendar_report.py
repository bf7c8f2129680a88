from datetime import date, timedelta
import calendar

start = date(2024, 2, 1)
days = [start + timedelta(days=i) for i in range(29)]
weekends = [d for d in days if d.weekday() >= 5]
print(len(days), "days,", len(weekends), "weekend days")
print("first weekend:", weekends[0].isoformat(), "last:", weekends[-1].isoformat())
print(calendar.isleap(2024), tuple(map(int, calendar.monthrange(2024, 2))))
print(calendar.month(2024, 2))
by_week = {}
for d in days:
    by_week.setdefault(d.isocalendar()[1], []).append(d.day)
for wk, ds in by_week.items():
    print(f"W{wk:02d}: {ds[0]:2}-{ds[-1]:2}")
