import glob
import os

for name in ["a.tmp", "b.tmp", "keep.txt", "cache/c.tmp", "cache/deep/d.tmp", "cache/e.dat"]:
    os.makedirs(os.path.dirname(name) or ".", exist_ok=True)
    with open(name, "w") as f:
        f.write("x")
victims = sorted(glob.glob("**/*.tmp", recursive=True))
print("removing:", victims)
for v in victims:
    os.remove(v)
left = sorted(p for p in glob.glob("**/*", recursive=True) if os.path.isfile(p) and not p.endswith(".py"))
print("left:", left)
print(sorted(glob.glob("cache/**", recursive=True)))
print(glob.glob("*.tmp"), sorted(glob.glob("[kc]*")))
