import calendar
from datetime import date

cal = calendar.TextCalendar(firstweekday=calendar.SUNDAY)
print(cal.formatmonth(2024, 3))
holidays = {date(2024, 3, 17): "St Patrick", date(2024, 3, 31): "Easter"}
for d, name in sorted(holidays.items()):
    print(d.isoformat(), calendar.day_name[d.weekday()], name)
print([calendar.month_abbr[m] for m in range(1, 13)][::3])
print(sum(1 for w in calendar.monthcalendar(2024, 3) for d in w[1:6] if d))
