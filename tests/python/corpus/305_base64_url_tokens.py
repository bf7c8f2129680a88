import base64
import hashlib
import json

def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

def unb64url(s: str) -> bytes:
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))

header = {"alg": "none", "typ": "JWT"}
payload = {"sub": "user-1", "iat": 1704153600, "roles": ["admin"]}
token = ".".join(b64url(json.dumps(p, separators=(",", ":")).encode()) for p in (header, payload))
print(token)
h, p = token.split(".")
print(json.loads(unb64url(p)), json.loads(unb64url(h))["typ"])
print(b64url(hashlib.sha256(token.encode()).digest()))
