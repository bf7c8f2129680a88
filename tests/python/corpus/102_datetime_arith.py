from datetime import datetime, date, timedelta

start = datetime(2024, 1, 2, 9, 30)
print(start, start.isoformat(), start.weekday(), start.strftime("%A %d %B %Y %H:%M"))
due = start + timedelta(days=30, hours=5)
print(due, (due - start).total_seconds(), due - start)
print(date(2024, 3, 1) - date(2024, 2, 1), date(2023, 3, 1) - date(2023, 2, 1))
d = date(2024, 1, 31)
print(d.replace(day=1), d.isocalendar(), d.toordinal(), d.timetuple().tm_yday)
for i in range(0, 15, 7):
    print((start + timedelta(days=i)).strftime("%a %Y-%m-%d"))
print(timedelta(days=1, seconds=3661) * 2, timedelta(hours=-1))
