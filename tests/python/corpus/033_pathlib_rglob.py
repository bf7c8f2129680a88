from pathlib import Path

for rel in ["src/a.py", "src/lib/b.py", "src/lib/c.txt", "src/lib/deep/d.py", "e.py"]:
    p = Path(rel)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("# " + rel + "\n")

pys = sorted(Path(".").rglob("*.py"))
for p in pys:
    print(p.as_posix(), len(p.parts))
print(sorted(str(p) for p in Path("src").glob("*/*.py")))
print(sum(1 for p in Path("src").rglob("*") if p.is_dir()), "dirs")
