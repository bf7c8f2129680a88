import uuid

names = ["users", "orders", "products"]
print(f"{'name':10} {'uuid5 (dns)':36} ver")
for n in names:
    u = uuid.uuid5(uuid.NAMESPACE_DNS, f"{n}.shop.example")
    print(f"{n:10} {u} {u.version}")
a = uuid.uuid3(uuid.NAMESPACE_URL, "x")
b = uuid.UUID(str(a))
print(a == b, a < uuid.UUID(int=2**128 - 1), sorted([str(a)[:8], "00000000"]))
print(uuid.UUID("{12345678-1234-5678-1234-567812345678}").hex)
