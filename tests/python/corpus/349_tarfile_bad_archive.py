import tarfile

with open("notatar.tar", "wb") as f:
    f.write(b"this is definitely not a tar archive" * 3)
print(tarfile.is_tarfile("notatar.tar"))
try:
    tarfile.open("notatar.tar")
except tarfile.ReadError as e:
    print("ReadError:", type(e).__name__, isinstance(e, tarfile.TarError))
try:
    tarfile.open("missing.tar")
except FileNotFoundError as e:
    print("FileNotFoundError:", e.filename)
with tarfile.open("empty.tar", "w"):
    pass
with tarfile.open("empty.tar") as t:
    print(t.getnames())
tarfile.open("notatar.tar", "r:gz")
