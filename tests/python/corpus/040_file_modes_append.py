with open("log.txt", "w") as f:
    f.write("one\n")
with open("log.txt", "a") as f:
    f.write("two\n")
    print("three", file=f)
with open("log.txt", "r+") as f:
    first = f.readline()
    f.seek(0, 2)
    f.write("four\n")
print(repr(first))
with open("log.txt") as f:
    print(f.readlines())
try:
    open("log.txt", "x")
except FileExistsError:
    print("x mode refuses existing file")
with open("log.txt", "rb") as f:
    f.seek(-5, 2)
    print(f.read())
