import zlib

source = b"".join(f"record-{i:05d};".encode() for i in range(3000))
comp = zlib.compressobj(9)
parts = []
for i in range(0, len(source), 1000):
    parts.append(comp.compress(source[i:i + 1000]))
parts.append(comp.flush())
blob = b"".join(parts)
print("ratio under 25%:", len(blob) / len(source) < 0.25)
dec = zlib.decompressobj()
restored = bytearray()
for i in range(0, len(blob), 128):
    restored += dec.decompress(blob[i:i + 128], 4096)
    while dec.unconsumed_tail:
        restored += dec.decompress(dec.unconsumed_tail, 4096)
restored += dec.flush()
print(len(restored), bytes(restored) == source, dec.eof, restored[-13:])
