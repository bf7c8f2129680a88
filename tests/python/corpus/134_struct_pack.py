import struct

rec = struct.pack("<IhBx3sf", 1024, -2, 255, b"abc", 1.5)
print(len(rec), rec.hex(), struct.calcsize("<IhBx3sf"))
print(struct.unpack("<IhBx3sf", rec))
print(struct.pack(">H", 0x1234), struct.pack("<H", 0x1234), struct.pack("!i", -1))
print(struct.unpack(">Q", b"\x00" * 7 + b"\x2a"), struct.pack("?", True), struct.calcsize("@ic"))
items = [(1, 2.0), (3, 4.5)]
blob = b"".join(struct.pack("<id", a, b) for a, b in items)
print([t for t in struct.iter_unpack("<id", blob)])
s = struct.Struct("<3H")
print(s.size, s.unpack_from(b"\x00\x01\x00\x02\x00\x03\x00", 1))
try:
    struct.pack("<B", 256)
except struct.error as e:
    print("struct.error for 256 as B:", type(e).__name__)
