with open("records.dat", "wb") as f:
    for i in range(10):
        f.write(i.to_bytes(4, "little"))
with open("records.dat", "rb") as f:
    f.seek(4 * 7)
    print(int.from_bytes(f.read(4), "little"), f.tell())
    f.seek(-8, 2)
    print([int.from_bytes(f.read(4), "little") for _ in range(2)], f.read())
with open("records.dat", "r+b") as f:
    f.seek(0)
    f.write((999).to_bytes(4, "little"))
    f.truncate(12)
data = open("records.dat", "rb").read()
print(len(data), [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)])
f = open("records.dat", "rb")
f.close()
print(f.closed)
f.read()
