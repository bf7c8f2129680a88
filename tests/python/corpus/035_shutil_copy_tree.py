import os
import shutil

os.makedirs("src/sub")
with open("src/one.txt", "w") as f:
    f.write("1\n")
with open("src/sub/two.txt", "w") as f:
    f.write("22\n")
shutil.copytree("src", "dst")
shutil.copy("src/one.txt", "dst/one_copy.txt")
for root, dirs, files in os.walk("dst"):
    dirs.sort()
    for name in sorted(files):
        p = os.path.join(root, name)
        print(p, open(p).read().strip())
shutil.rmtree("src")
print(os.path.exists("src"), os.path.exists("dst"))
