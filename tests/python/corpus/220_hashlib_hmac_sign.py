import hashlib
import hmac
import json

SECRET = b"top-secret-key"

def sign(payload: dict) -> str:
    body = json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
    return hmac.new(SECRET, body, hashlib.sha256).hexdigest()

msg = {"user": "kim", "amount": 42, "currency": "EUR"}
sig = sign(msg)
print(sig)
tampered = dict(msg, amount=4200)
print(hmac.compare_digest(sig, sign(msg)), hmac.compare_digest(sig, sign(tampered)))
print(hmac.new(b"k", b"m", "md5").hexdigest(), hmac.digest(b"k", b"m", "sha1").hex())
print(hashlib.sha224(b"x").hexdigest()[:16], hashlib.sha384(b"x").hexdigest()[:16])
print(sorted(a for a in hashlib.algorithms_guaranteed if a.startswith("sha"))[:4])
