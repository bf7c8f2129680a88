import uuid

ns = uuid.NAMESPACE_DNS
u3 = uuid.uuid3(ns, "example.com")
u5 = uuid.uuid5(ns, "example.com")
print(u3, u3.version, u3.variant)
print(u5, u5.version, u5.hex)
print(uuid.uuid5(uuid.NAMESPACE_URL, "https://example.com/a"))
print(uuid.uuid5(uuid.NAMESPACE_OID, "1.2.3"), uuid.uuid3(uuid.NAMESPACE_X500, "cn=x"))
u = uuid.UUID("12345678-1234-5678-1234-567812345678")
print(u.int, u.bytes[:4], u.fields[0], str(u).upper(), u.urn)
print(uuid.UUID(bytes=u.bytes) == u, uuid.UUID(int=0))
try:
    uuid.UUID("not-a-uuid")
except ValueError as e:
    print("ValueError:", e)
