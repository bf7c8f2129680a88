from datetime import date, timedelta

def next_weekday(d, weekday):
    return d + timedelta(days=(weekday - d.weekday()) % 7 or 7)

def business_days(start, end):
    n, d = 0, start
    while d < end:
        if d.weekday() < 5:
            n += 1
        d += timedelta(days=1)
    return n

today = date(2024, 1, 2)
print("next friday:", next_weekday(today, 4), "next tuesday:", next_weekday(today, 1))
print("business days in Jan:", business_days(date(2024, 1, 1), date(2024, 2, 1)))
m = date(2024, 1, 31)
months = []
for i in range(1, 5):
    y, mo = divmod(m.month - 1 + i, 12)
    first = date(m.year + y, mo + 1, 1)
    months.append(first.strftime("%b %Y"))
print(months, date(2024, 12, 31).strftime("%G-W%V-%u"), date.min, date.max)
