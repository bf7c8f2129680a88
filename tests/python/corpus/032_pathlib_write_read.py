from pathlib import Path

root = Path("notes")
root.mkdir()
(root / "a.txt").write_text("first line\nsecond\n")
(root / "b.txt").write_text("only one\n")
(root / "c.md").write_text("# title\n\nbody\n")
for f in sorted(root.iterdir()):
    text = f.read_text()
    print(f"{f.name}: {len(text.splitlines())} lines, {f.stat().st_size} bytes")
print(sorted(p.name for p in root.glob("*.txt")))
(root / "b.txt").unlink()
print(sorted(p.name for p in root.iterdir()))
