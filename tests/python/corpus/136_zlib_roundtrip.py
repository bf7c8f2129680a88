import zlib

text = ("shellbox " * 200 + "end").encode()
comp = zlib.compress(text, 9)
print(len(text), len(comp) < len(text) // 10)
print(zlib.decompress(comp) == text)
print(zlib.crc32(b"hello"), hex(zlib.crc32(b"hello world")), zlib.adler32(b"hello"))
crc = 0
for part in [b"hel", b"lo"]:
    crc = zlib.crc32(part, crc)
print(crc == zlib.crc32(b"hello"))
d = zlib.decompressobj()
out = b"".join(d.decompress(comp[i:i + 16]) for i in range(0, len(comp), 16)) + d.flush()
print(out[:18], out == text)
try:
    zlib.decompress(b"not compressed data")
except zlib.error as e:
    print("zlib.error:", e)
