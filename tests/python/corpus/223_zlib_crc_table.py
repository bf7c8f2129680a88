import zlib

files = {"a.txt": b"alpha", "b.txt": b"bravo" * 100, "c.txt": b""}
for name, data in files.items():
    print(f"{name} crc32={zlib.crc32(data):08x} adler32={zlib.adler32(data):08x} len={len(data)}")
stream = b"".join(files.values())
running = 0
for data in files.values():
    running = zlib.crc32(data, running)
print(running == zlib.crc32(stream))
big = bytes(range(256)) * 400
print(zlib.decompress(zlib.compress(big, 1)) == big, zlib.decompress(zlib.compress(big, 9), bufsize=10) == big)
print(zlib.MAX_WBITS, zlib.DEFLATED)
