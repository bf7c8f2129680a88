import zlib

c = zlib.compressobj(level=6, wbits=-15)
chunks = [c.compress(f"row {i},value {i * i}\n".encode()) for i in range(500)]
raw = b"".join(chunks) + c.flush()
d = zlib.decompressobj(wbits=-15)
text = d.decompress(raw).decode()
lines = text.splitlines()
print(len(lines), lines[0], lines[-1])
print(sum(int(l.split("value ")[1]) for l in lines))
print(zlib.decompress(zlib.compress(b"", 1)), zlib.crc32(b""))
