from pathlib import Path, PurePosixPath

p = PurePosixPath("docs/guide/intro.md")
print(p.name, p.stem, p.suffix, p.parent, p.parts)
print(p.with_suffix(".html"), p.with_name("index.md"))
print(PurePosixPath("a.tar.gz").suffixes)
print(list(map(str, p.parents)))
print(p.relative_to("docs"))
print(PurePosixPath("a") / "b" / "c.txt")
print(p.match("*.md"), p.match("guide/*.md"), p.match("*.txt"))
q = Path("x/y")
print(q.exists(), q.is_absolute())
