import gzip

with gzip.open("notes.txt.gz", "wt") as f:
    f.write("first\nsecond\nthird\n")
with gzip.open("notes.txt.gz", "rt") as f:
    print([l.rstrip() for l in f])
with gzip.open("notes.txt.gz", "rb") as f:
    print(f.read(5), f.read(1), f.peek(1)[:1] if hasattr(f, "peek") else b"")
with open("fake.gz", "wb") as f:
    f.write(b"\x1f\x8b not really gzip")
try:
    with gzip.open("fake.gz") as f:
        f.read()
except (gzip.BadGzipFile, EOFError, OSError) as e:
    print("error:", type(e).__name__)
with open("trunc.gz", "wb") as f:
    f.write(gzip.compress(b"x" * 1000)[:-6])
gzip.open("trunc.gz").read()
