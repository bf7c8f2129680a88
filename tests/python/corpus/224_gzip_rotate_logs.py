import gzip
import os
import shutil

os.makedirs("logs")
for i in range(3):
    with open(f"logs/app.log.{i}", "w") as f:
        f.write("".join(f"entry {i}-{j}\n" for j in range(50)))
for name in sorted(os.listdir("logs")):
    src = os.path.join("logs", name)
    with open(src, "rb") as fin, gzip.open(src + ".gz", "wb") as fout:
        shutil.copyfileobj(fin, fout)
    os.remove(src)
print(sorted(os.listdir("logs")))
with gzip.open("logs/app.log.1.gz", "rt") as f:
    lines = f.readlines()
print(len(lines), lines[0].strip(), lines[-1].strip())
