from pathlib import Path

p = Path("blob.bin")
p.write_bytes(bytes(range(16)))
data = p.read_bytes()
print(len(data), data[:4], data.hex())
t = Path("empty.flag")
t.touch()
print(t.exists(), t.stat().st_size)
t.rename("renamed.flag")
print(sorted(x.name for x in Path(".").iterdir() if x.suffix != ".py"))
print(Path("renamed.flag").is_file(), Path("missing").is_file())
