import os

with open("a.txt", "w") as f:
    f.write("alpha\n")
os.rename("a.txt", "b.txt")
print(os.path.exists("a.txt"), os.path.exists("b.txt"))
os.makedirs("x/y/z")
os.replace("b.txt", "x/y/z/c.txt")
print(sorted(os.listdir("x/y/z")))
os.remove("x/y/z/c.txt")
os.removedirs("x/y/z")
print(os.path.exists("x"))
try:
    os.remove("nope.txt")
except FileNotFoundError as e:
    print("FileNotFoundError", e.errno, e.filename)
