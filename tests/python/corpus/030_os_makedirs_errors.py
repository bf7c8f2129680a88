import os

os.makedirs("a/b")
try:
    os.makedirs("a/b")
except FileExistsError as e:
    print("exists:", e.filename)
os.makedirs("a/b", exist_ok=True)
with open("a/file", "w") as f:
    f.write("x")
try:
    os.mkdir("a/file/sub")
except (NotADirectoryError, FileNotFoundError) as e:
    print(type(e).__name__)
try:
    os.rmdir("a")
except OSError as e:
    print("rmdir failed:", type(e).__name__)
print(sorted(os.listdir("a")))
