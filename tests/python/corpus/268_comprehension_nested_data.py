orders = [
    {"id": 1, "items": [{"sku": "a", "qty": 2}, {"sku": "b", "qty": 1}]},
    {"id": 2, "items": [{"sku": "a", "qty": 5}]},
    {"id": 3, "items": []},
    {"id": 4, "items": [{"sku": "c", "qty": 1}, {"sku": "b", "qty": 4}]},
]
skus = sorted({i["sku"] for o in orders for i in o["items"]})
qty = {s: sum(i["qty"] for o in orders for i in o["items"] if i["sku"] == s) for s in skus}
print(skus, qty)
print([o["id"] for o in orders if not o["items"]])
print({o["id"]: [i["sku"] for i in o["items"]] for o in orders})
print(max(orders, key=lambda o: sum(i["qty"] for i in o["items"]))["id"])
flat = [(o["id"], i["sku"]) for o in orders for i in o["items"] if i["qty"] > 1]
print(flat)
