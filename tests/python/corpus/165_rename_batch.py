import os
import re

names = ["IMG_0001.JPG", "IMG_0002.jpg", "holiday photo 3.jpeg", "notes.TXT", "README"]
os.mkdir("in")
for n in names:
    open(os.path.join("in", n), "w").close()

def clean(name):
    stem, ext = os.path.splitext(name)
    stem = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")
    ext = {".jpeg": ".jpg"}.get(ext.lower(), ext.lower())
    return stem + ext

for n in sorted(os.listdir("in")):
    new = clean(n)
    if new != n:
        os.rename(os.path.join("in", n), os.path.join("in", new))
        print(f"{n!r:24} -> {new!r}")
print(sorted(os.listdir("in")))
