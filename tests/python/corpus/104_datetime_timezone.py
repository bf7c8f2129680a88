from datetime import datetime, timezone, timedelta

utc = datetime(2024, 6, 1, 12, 0, tzinfo=timezone.utc)
ist = timezone(timedelta(hours=5, minutes=30), "IST")
pst = timezone(timedelta(hours=-8))
print(utc.isoformat(), utc.astimezone(ist).isoformat(), utc.astimezone(pst))
print(utc.astimezone(ist).strftime("%H:%M %Z %z"), utc.tzname(), pst.tzname(None))
print(datetime.fromisoformat("2024-06-01T12:00:00+02:00").astimezone(timezone.utc))
print(utc.timestamp(), datetime.fromtimestamp(0, timezone.utc))
print(utc == utc.astimezone(ist), utc.utcoffset(), ist.utcoffset(None))
