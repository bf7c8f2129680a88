import glob
import os
import re

for i in [1, 2, 10, 11, 3]:
    with open(f"part-{i}.dat", "w") as f:
        f.write("d" * i)
with open("part-x.dat", "w") as f:
    f.write("?")
files = glob.glob("part-*.dat")
print(sorted(files))
def num(p):
    m = re.search(r"part-(\d+)\.dat$", p)
    return int(m.group(1)) if m else float("inf")
natural = sorted(files, key=num)
print(natural)
print(sum(os.path.getsize(f) for f in glob.glob("part-[0-9]*.dat")))
print(sorted(glob.glob("part-1?.dat")), sorted(glob.glob("part-[!1]*.dat")))
