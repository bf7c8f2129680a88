import zipfile

with zipfile.ZipFile("tree.zip", "w") as z:
    z.writestr("root/a.txt", "A")
    z.writestr("root/sub/b.txt", "B")
    z.writestr("root/sub/c.md", "C")
root = zipfile.Path("tree.zip", "root/")
print(sorted(p.name for p in root.iterdir()))
sub = root / "sub"
print(sub.is_dir(), sorted(p.name for p in sub.iterdir()))
print((sub / "b.txt").read_text(), (root / "a.txt").exists(), (root / "zz").exists())
