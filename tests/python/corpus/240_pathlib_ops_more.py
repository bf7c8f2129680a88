from pathlib import Path

base = Path("workspace")
(base / "data" / "raw").mkdir(parents=True)
f = base / "data" / "raw" / "input.CSV"
f.write_text("a,b\n1,2\n")
print(f.suffix.lower(), f.stem, f.parent.name, f.parents[1].as_posix())
g = f.with_stem("clean").with_suffix(".csv")
f.replace(g)
print(sorted(p.relative_to(base).as_posix() for p in base.rglob("*")))
print(g.exists(), f.exists(), g.is_relative_to(base), g.read_text().splitlines())
print(Path("a/b/../c").parts, Path("~/x").expanduser().name, Path("x").joinpath("y", "z").as_posix())
try:
    g.parent.rmdir()
except OSError as e:
    print(type(e).__name__)
g.unlink()
g.unlink(missing_ok=True)
g.parent.rmdir()
print(sorted(p.name for p in (base / "data").iterdir()))
