import zipfile

with zipfile.ZipFile("a.zip", "w") as z:
    z.writestr("one.txt", "1")
with zipfile.ZipFile("a.zip", "a") as z:
    z.writestr("two.txt", "22")
    z.writestr(zipfile.ZipInfo("dir/", date_time=(2024, 1, 2, 0, 0, 0)), "")
with zipfile.ZipFile("a.zip") as z:
    for i in z.infolist():
        print(i.filename, i.file_size, i.is_dir())
    info = z.getinfo("one.txt")
    print(info.compress_type == zipfile.ZIP_STORED, z.read("two.txt"))
    try:
        z.read("three.txt")
    except KeyError as e:
        print("KeyError:", e)
