import pprint

config = {
    "server": {"host": "0.0.0.0", "ports": list(range(8000, 8012)), "tls": {"cert": "a.pem", "key": "a.key"}},
    "users": [{"name": f"user{i}", "roles": ["read", "write"][: i % 2 + 1]} for i in range(4)],
    "flags": (True, False, None),
}
pprint.pprint(config)
pprint.pprint(config, width=50, depth=2)
print(pprint.pformat(list(range(30)), compact=True, width=40))
pprint.pprint({"z": 1, "a": 2, "m": 3}, sort_dicts=False)
