import io
import tarfile

def add_bytes(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = 0
    tar.addfile(info, io.BytesIO(data))

with tarfile.open("bundle.tar", "w") as t:
    add_bytes(t, "a.txt", b"aaa")
with tarfile.open("bundle.tar", "a") as t:
    add_bytes(t, "b.txt", b"bbbbb")
    add_bytes(t, "dir/c.txt", b"c")
with tarfile.open("bundle.tar") as t:
    for m in t.getmembers():
        print(m.name, m.size, m.mtime, m.type == tarfile.REGTYPE)
    print(t.extractfile("dir/c.txt").read(), tarfile.is_tarfile("bundle.tar"))
