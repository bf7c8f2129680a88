import hashlib
import os
from pathlib import Path

layout = {"photos/a.jpg": b"IMG1", "photos/b.jpg": b"IMG2", "backup/a_copy.jpg": b"IMG1",
          "backup/old/b.jpg": b"IMG2", "backup/c.jpg": b"IMG3", "docs/empty.txt": b""}
for p, data in layout.items():
    Path(p).parent.mkdir(parents=True, exist_ok=True)
    Path(p).write_bytes(data)
seen = {}
removed = []
for p in sorted(Path(".").rglob("*")):
    if p.is_file() and p.suffix != ".py":
        digest = hashlib.md5(p.read_bytes()).hexdigest()
        if digest in seen:
            removed.append((p.as_posix(), seen[digest]))
            p.unlink()
        else:
            seen[digest] = p.as_posix()
for dup, orig in removed:
    print(f"removed {dup} (same as {orig})")
print(sorted(p.as_posix() for p in Path(".").rglob("*.jpg")))
