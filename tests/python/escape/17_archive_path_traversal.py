# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: archives with '../' and absolute member names cannot write outside the virtual fs. With
# tarfile's extractall and zipfile's extractall, whatever is created lands in the virtual fs
# (zipfile strips '..' and '/'); tarfile either refuses the members (prints "tar refused: ...")
# or writes into the virtual fs. The host's /tmp/shellbox-zip-slip and /tmp/shellbox-tar-slip
# never exist after the run. Status 0.
import io
import tarfile
import zipfile

buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as z:
    z.writestr("../../../../tmp/shellbox-zip-slip", "zip")
    z.writestr("/tmp/shellbox-zip-abs", "zip")
with zipfile.ZipFile(buf) as z:
    z.extractall("out")
print("zip extracted")
tbuf = io.BytesIO()
with tarfile.open(fileobj=tbuf, mode="w") as t:
    for name in ["../../../../tmp/shellbox-tar-slip", "/tmp/shellbox-tar-abs"]:
        info = tarfile.TarInfo(name)
        info.size = 3
        t.addfile(info, io.BytesIO(b"tar"))
tbuf.seek(0)
try:
    with tarfile.open(fileobj=tbuf) as t:
        t.extractall("tout")
    print("tar extracted")
except Exception as e:
    print("tar refused:", type(e).__name__)
