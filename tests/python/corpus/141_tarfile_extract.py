import io
import os
import tarfile

buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w") as tar:
    for name, body in [("docs/a.txt", b"alpha\n"), ("docs/b.txt", b"bravo\n"), ("top.txt", b"top\n")]:
        info = tarfile.TarInfo(name)
        info.size = len(body)
        info.mtime = 1700000000
        tar.addfile(info, io.BytesIO(body))
print("tar bytes:", len(buf.getvalue()))
buf.seek(0)
with tarfile.open(fileobj=buf) as tar:
    print(tar.getnames())
    tar.extractall("out", **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
for root, dirs, files in sorted(os.walk("out")):
    for f in sorted(files):
        p = os.path.join(root, f)
        print(p, open(p).read().strip())
