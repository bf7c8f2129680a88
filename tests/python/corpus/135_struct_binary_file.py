import struct

HEADER = struct.Struct("<4sHH")
ENTRY = struct.Struct("<I16s")
entries = [(1, b"alpha"), (2, b"beta"), (30000, b"gamma-ray")]
with open("db.bin", "wb") as f:
    f.write(HEADER.pack(b"SBX1", 1, len(entries)))
    for num, name in entries:
        f.write(ENTRY.pack(num, name))

with open("db.bin", "rb") as f:
    magic, version, count = HEADER.unpack(f.read(HEADER.size))
    print(magic.decode(), version, count)
    for _ in range(count):
        num, name = ENTRY.unpack(f.read(ENTRY.size))
        label = name.rstrip(b"\0").decode()
        print(f"{num:>6} {label}")
    print("trailing:", f.read())
