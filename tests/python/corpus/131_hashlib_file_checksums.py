import hashlib
import os

os.makedirs("files")
contents = {"a.txt": b"hello\n", "b.txt": b"hello\n", "c.bin": bytes(range(256)) * 40, "d.txt": b""}
for name, data in contents.items():
    with open(os.path.join("files", name), "wb") as f:
        f.write(data)

def sha256_of(path, bufsize=1024):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(bufsize):
            h.update(chunk)
    return h.hexdigest()

by_hash = {}
for name in sorted(os.listdir("files")):
    digest = sha256_of(os.path.join("files", name))
    by_hash.setdefault(digest, []).append(name)
    print(f"{digest[:16]}  {name}")
dups = [names for names in by_hash.values() if len(names) > 1]
print("duplicates:", dups)
print(hashlib.md5(b"x").hexdigest(), hashlib.pbkdf2_hmac("sha256", b"pw", b"salt", 1000).hex()[:24])
