import struct
from collections import namedtuple

Rec = namedtuple("Rec", "id temp humidity flags name")
FMT = struct.Struct("<HhBB8s")
raw_records = [(1, -125, 40, 0b01, b"north"), (2, 231, 77, 0b10, b"south-east"[:8]), (3, 0, 100, 0b11, b"roof")]
blob = b"".join(FMT.pack(*r) for r in raw_records)
print(len(blob), FMT.size, blob[:FMT.size].hex())
for fields in FMT.iter_unpack(blob):
    r = Rec(*fields)
    name = r.name.rstrip(b"\x00").decode()
    flags = [n for bit, n in ((1, "heater"), (2, "fan")) if r.flags & bit]
    print(f"#{r.id} {name:<8} {r.temp / 10:+5.1f}C {r.humidity:3}% {flags}")
print(struct.unpack("<HhBB8s", blob[:-1] + b"x")[4])
struct.unpack("<HhBB8s", blob[:5])
