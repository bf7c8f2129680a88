import os

print(os.sep, os.linesep == "\n", os.pathsep, os.curdir, os.pardir, os.name)
os.makedirs("a/b")
with open("a/b/f.txt", "w") as f:
    f.write("data")
print(os.path.exists("a/b/f.txt"), os.access("a/b/f.txt", os.R_OK))
st = os.stat("a/b/f.txt")
print(st.st_size, oct(st.st_mode & 0o777) in ("0o644", "0o664", "0o666", "0o600"))
os.chmod("a/b/f.txt", 0o600)
print(oct(os.stat("a/b/f.txt").st_mode & 0o777))
here = os.getcwd()
os.chdir("a")
print(os.listdir("."), os.path.basename(os.getcwd()))
os.chdir(here)
print(os.path.samefile("a/b/f.txt", "a/../a/b/f.txt"), os.path.getsize("a/b/f.txt"))
print(os.fspath("x"), os.path.splitext("x.tar.gz"), os.path.split("a/b/c"))
