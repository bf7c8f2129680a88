import os
import shutil

os.makedirs("data")
with open("data/db.sqlite", "w") as f:
    f.write("v1")
def backup(keep=3):
    os.makedirs("backups", exist_ok=True)
    existing = sorted(os.listdir("backups"))
    n = int(existing[-1].split(".")[1]) + 1 if existing else 1
    shutil.copy("data/db.sqlite", f"backups/db.{n:03d}.bak")
    existing = sorted(os.listdir("backups"))
    for old in existing[:-keep]:
        os.remove(os.path.join("backups", old))
for v in range(2, 7):
    backup()
    with open("data/db.sqlite", "w") as f:
        f.write(f"v{v}")
for name in sorted(os.listdir("backups")):
    print(name, open(os.path.join("backups", name)).read())
