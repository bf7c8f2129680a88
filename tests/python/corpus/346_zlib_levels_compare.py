import zlib

text = ("The quick brown fox jumps over the lazy dog. " * 40).encode()
results = []
for level in (0, 1, 6, 9):
    c = zlib.compress(text, level)
    results.append((level, len(c)))
    assert zlib.decompress(c) == text
print("level 0 is stored:", results[0][1] > len(text))
print("level 9 smaller than level 0:", results[3][1] < results[0][1])
print("all roundtrip:", all(zlib.decompress(zlib.compress(text, l)) == text for l in range(10)))
gz = zlib.compressobj(wbits=31)
blob = gz.compress(text) + gz.flush()
print(blob[:2].hex(), zlib.decompress(blob, wbits=31) == text, zlib.decompress(blob, 47) == text)
