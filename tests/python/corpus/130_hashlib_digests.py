import hashlib

data = b"The quick brown fox jumps over the lazy dog"
for name in ["md5", "sha1", "sha256", "sha512"]:
    h = hashlib.new(name, data)
    print(f"{name:7} {h.digest_size:3} {h.hexdigest()[:32]}")
print(hashlib.sha256(b"").hexdigest())
h = hashlib.sha256()
for chunk in [b"The quick ", b"brown fox ", b"jumps over the lazy dog"]:
    h.update(chunk)
print(h.hexdigest() == hashlib.sha256(data).hexdigest())
print(hashlib.blake2b(b"abc", digest_size=16).hexdigest())
print(hashlib.sha3_256(b"abc").hexdigest())
