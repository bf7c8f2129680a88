import glob
import os

for n in ["a1.txt", "a2.txt", "b1.txt", "b10.log", "notes.md"]:
    open(n, "w").close()
os.makedirs("sub/deeper")
open("sub/s.txt", "w").close()
open("sub/deeper/d.txt", "w").close()
print(sorted(glob.glob("*.txt")))
print(sorted(glob.glob("a?.txt")))
print(sorted(glob.glob("[ab]1.*")))
print(sorted(glob.glob("**/*.txt", recursive=True)))
print(sorted(glob.glob("sub/*")))
print(glob.glob("nothing*"))
print(glob.escape("we[ird].txt"))
