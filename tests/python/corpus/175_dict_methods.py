inv = {"apple": 3, "pear": 0, "fig": 12}
print(inv.get("kiwi"), inv.get("kiwi", 0), inv.setdefault("kiwi", 5), inv)
print(list(inv.keys()), list(inv.values()), list(inv.items())[:2])
print(inv.pop("pear"), inv.pop("nope", "default"), inv.popitem(), inv)
inv.update({"apple": 4}, melon=1)
print(inv, len(inv), "fig" in inv, 4 in inv.values())
print(dict.fromkeys(["a", "b"], 0), dict(zip("xyz", range(3))), dict([("k", "v")]))
merged = inv | {"apple": 0, "new": 9}
print(merged, sorted(merged, key=merged.get))
print({k: v for k, v in sorted(merged.items(), key=lambda kv: kv[1], reverse=True)})
inv.clear()
print(inv, bool(inv))
