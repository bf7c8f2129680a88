import io
import os
import zipfile

buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as z:
    for i in range(3):
        z.writestr(f"reports/r{i}.txt", f"report {i}\n" * (i + 1))
buf.seek(0)
with zipfile.ZipFile(buf) as z:
    names = z.namelist()
    print(names)
    z.extractall("unzipped")
for n in names:
    with open(os.path.join("unzipped", n)) as f:
        print(n, len(f.readlines()))
try:
    zipfile.ZipFile(io.BytesIO(b"nope"))
except zipfile.BadZipFile as e:
    print("BadZipFile:", e)
