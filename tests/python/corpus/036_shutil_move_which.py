import os
import shutil

os.mkdir("in")
os.mkdir("out")
for n in ["a.log", "b.log", "c.txt"]:
    open(os.path.join("in", n), "w").write(n)
for n in sorted(os.listdir("in")):
    if n.endswith(".log"):
        shutil.move(os.path.join("in", n), "out")
print(sorted(os.listdir("in")), sorted(os.listdir("out")))
with open("in/c.txt") as src, open("joined.txt", "w") as dst:
    shutil.copyfileobj(src, dst)
print(open("joined.txt").read())
print(shutil.which("definitely-not-a-command-xyz"))
