import uuid

NAMESPACE = uuid.UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")
docs = {"readme": "hello", "license": "MIT", "readme-copy": "hello"}
ids = {name: uuid.uuid5(NAMESPACE, text) for name, text in docs.items()}
for name, u in ids.items():
    print(f"{name:12} {u}")
print(ids["readme"] == ids["readme-copy"], NAMESPACE == uuid.NAMESPACE_URL)
print(uuid.uuid3(uuid.NAMESPACE_DNS, "python.org"))
print(uuid.uuid5(uuid.NAMESPACE_DNS, "python.org"))
