import io
import tarfile

buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w:gz") as tar:
    for name in ["src/a.py", "src/b.py", "docs/x.md", "src/data.bin"]:
        data = name.encode() * 3
        ti = tarfile.TarInfo(name)
        ti.size = len(data)
        ti.mode = 0o644
        tar.addfile(ti, io.BytesIO(data))
buf.seek(0)
with tarfile.open(fileobj=buf, mode="r:*") as tar:
    pys = [m for m in tar if m.name.endswith(".py")]
    for m in pys:
        print(m.name, m.size, oct(m.mode), tar.extractfile(m).read()[:8])
    try:
        tar.getmember("nope")
    except KeyError as e:
        print("KeyError:", e)
print(tarfile.is_tarfile("missing.tar") if False else "skip")
