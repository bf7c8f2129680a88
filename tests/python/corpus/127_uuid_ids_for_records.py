import uuid

NS = uuid.uuid5(uuid.NAMESPACE_DNS, "shellbox.test")
records = ["alice", "bob", "carol", "alice"]
ids = {}
for r in records:
    rid = uuid.uuid5(NS, r)
    ids.setdefault(str(rid), []).append(r)
for k in sorted(ids):
    print(k[:8], ids[k])
print(len(ids), "distinct ids")
print(sorted(str(uuid.uuid3(NS, n))[:13] for n in ["x", "y", "z"]))
