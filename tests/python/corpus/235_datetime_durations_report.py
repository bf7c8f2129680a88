from datetime import datetime, timedelta

entries = [("build", "2024-01-02 09:00", "2024-01-02 09:42"),
           ("test", "2024-01-02 09:42", "2024-01-02 11:05"),
           ("deploy", "2024-01-02 11:05", "2024-01-02 11:09"),
           ("verify", "2024-01-02 23:50", "2024-01-03 00:20")]
total = timedelta()
for name, s, e in entries:
    start = datetime.strptime(s, "%Y-%m-%d %H:%M")
    end = datetime.strptime(e, "%Y-%m-%d %H:%M")
    dur = end - start
    total += dur
    mins = int(dur.total_seconds() // 60)
    print(f"{name:<7} {start:%H:%M}-{end:%H:%M} {mins:>4} min  {'#' * (mins // 10)}")
print("total:", total, "=", total.total_seconds() / 3600, "h")
print(max(entries, key=lambda e: datetime.fromisoformat(e[2]) - datetime.fromisoformat(e[1]))[0])
