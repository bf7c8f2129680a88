import hashlib
import os
import json

def hash_pw(pw: str, salt: bytes) -> str:
    return hashlib.pbkdf2_hmac("sha256", pw.encode(), salt, 2000).hex()

users = {}
for i, (name, pw) in enumerate([("ann", "s3cret"), ("bob", "hunter2")]):
    salt = bytes([i]) * 16
    users[name] = {"salt": salt.hex(), "hash": hash_pw(pw, salt)}
with open("users.json", "w") as f:
    json.dump(users, f)
db = json.load(open("users.json"))
def login(name, pw):
    u = db.get(name)
    return bool(u) and hash_pw(pw, bytes.fromhex(u["salt"])) == u["hash"]
print(login("ann", "s3cret"), login("ann", "wrong"), login("bob", "hunter2"), login("eve", "x"))
print(db["ann"]["hash"][:20], len(os.listdir(".")))
