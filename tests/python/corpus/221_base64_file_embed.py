import base64
import json

with open("icon.bin", "wb") as f:
    f.write(bytes(range(0, 256, 7)))
with open("icon.bin", "rb") as f:
    raw = f.read()
doc = {"name": "icon.bin", "size": len(raw), "data": base64.b64encode(raw).decode()}
print(json.dumps(doc)[:80])
restored = base64.b64decode(doc["data"])
with open("icon_copy.bin", "wb") as f:
    f.write(restored)
print(open("icon_copy.bin", "rb").read() == raw, len(doc["data"]))
print(base64.a85encode(b"hello world"), base64.a85decode(base64.a85encode(b"xyz")))
print(base64.b32decode("NBSWY3DP"), base64.b16decode("4869"))
