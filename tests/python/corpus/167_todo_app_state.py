import json
from pathlib import Path

DB = Path("todo.json")

def load():
    return json.loads(DB.read_text()) if DB.exists() else []

def save(items):
    DB.write_text(json.dumps(items, indent=1))

def add(text):
    items = load()
    items.append({"id": len(items) + 1, "text": text, "done": False})
    save(items)

def done(i):
    items = load()
    for it in items:
        if it["id"] == i:
            it["done"] = True
    save(items)

for t in ["buy milk", "write report", "call mom"]:
    add(t)
done(2)
for it in load():
    print(f"[{'x' if it['done'] else ' '}] {it['id']}. {it['text']}")
print(DB.stat().st_size > 0, len(DB.read_text().splitlines()))
