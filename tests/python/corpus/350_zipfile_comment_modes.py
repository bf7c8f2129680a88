import zipfile

with zipfile.ZipFile("c.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.comment = b"built by corpus"
    z.writestr("big.txt", "line\n" * 1000)
    z.writestr("small.txt", "x", compress_type=zipfile.ZIP_STORED)
with zipfile.ZipFile("c.zip") as z:
    print(z.comment)
    for info in sorted(z.infolist(), key=lambda i: i.filename):
        kind = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}[info.compress_type]
        print(info.filename, info.file_size, kind, info.compress_size < info.file_size)
    with z.open("big.txt") as f:
        print(sum(1 for _ in f))
try:
    zipfile.ZipFile("c.zip", "q")
except ValueError as e:
    print("ValueError:", e)
