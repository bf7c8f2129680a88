import zipfile

with zipfile.ZipFile("bundle.zip", "w", compression=zipfile.ZIP_DEFLATED) as z:
    z.writestr("readme.txt", "hello zip\n")
    z.writestr("data/numbers.csv", "\n".join(str(i) for i in range(100)))
    with open("extra.txt", "w") as f:
        f.write("extra file\n")
    z.write("extra.txt", arcname="misc/extra.txt")
with zipfile.ZipFile("bundle.zip") as z:
    for info in z.infolist():
        print(f"{info.filename:18} {info.file_size:5} {info.compress_type}")
    print(z.read("readme.txt").decode().strip())
    with z.open("data/numbers.csv") as f:
        print(sum(int(x) for x in f.read().split()))
    print(z.testzip(), zipfile.is_zipfile("bundle.zip"), zipfile.is_zipfile("extra.txt"))
