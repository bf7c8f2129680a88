import os

os.mkdir("data")
for i in range(5):
    with open(os.path.join("data", f"file{i}.txt"), "w") as f:
        f.write("x" * (i * 10))
os.mkdir(os.path.join("data", "sub"))

entries = sorted(os.listdir("data"))
print(entries)
total = 0
for e in entries:
    p = os.path.join("data", e)
    if os.path.isfile(p):
        total += os.path.getsize(p)
    print(f"{e:8} {'dir' if os.path.isdir(p) else 'file'}")
print("total bytes:", total)
