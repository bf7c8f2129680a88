import hashlib
import json
import os

for name, body in [("a.txt", "alpha"), ("sub/b.txt", "bravo"), ("sub/c.txt", "charlie")]:
    os.makedirs(os.path.dirname(name) or ".", exist_ok=True)
    with open(name, "w") as f:
        f.write(body)
manifest = {}
for root, dirs, files in os.walk("."):
    dirs.sort()
    for f in sorted(files):
        if f.endswith((".py", ".json")):
            continue
        p = os.path.relpath(os.path.join(root, f))
        manifest[p] = hashlib.sha256(open(p, "rb").read()).hexdigest()[:12]
with open("manifest.json", "w") as fh:
    json.dump(manifest, fh, indent=1, sort_keys=True)
with open("sub/b.txt", "a") as f:
    f.write("!")
for p, h in json.load(open("manifest.json")).items():
    now = hashlib.sha256(open(p, "rb").read()).hexdigest()[:12]
    print(f"{'OK     ' if now == h else 'CHANGED'} {p}")
