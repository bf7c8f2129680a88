from pathlib import Path

logs = Path("logs")
for day in ["2024-01-01", "2024-01-03", "2023-12-31", "2024-01-02"]:
    (logs / day[:4]).mkdir(parents=True, exist_ok=True)
    (logs / day[:4] / f"app-{day}.log").write_text(f"log for {day}\n")
(logs / "2024" / "notes.txt").write_text("not a log")
all_logs = sorted(logs.rglob("app-*.log"), key=lambda p: p.stem.removeprefix("app-"))
print("oldest:", all_logs[0].relative_to(logs))
print("newest:", all_logs[-1].relative_to(logs), "->", all_logs[-1].read_text().strip())
keep = set(all_logs[-2:])
for p in all_logs:
    if p not in keep:
        p.unlink()
print(sorted(p.as_posix() for p in logs.rglob("*") if p.is_file()))
