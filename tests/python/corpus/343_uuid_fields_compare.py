import uuid

u = uuid.uuid5(uuid.NAMESPACE_DNS, "shellbox.dev")
print(u, u.version, u.variant == uuid.RFC_4122)
print(u.time_low, u.time_mid, u.clock_seq, u.node)
print(len(u.bytes), u.bytes_le != u.bytes, uuid.UUID(bytes_le=u.bytes_le) == u)
ids = sorted(uuid.uuid3(uuid.NAMESPACE_OID, str(i)) for i in range(5))
print([str(i)[:8] for i in ids])
print(uuid.UUID(fields=u.fields) == u, str(uuid.UUID(hex=u.hex.upper())) == str(u))
