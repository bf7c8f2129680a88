import json
import pprint

raw = '{"service": {"name": "api", "replicas": 3, "env": {"A": "1", "B": "2"}}, "ports": [80, 443, 8080, 8443], "enabled": true}'
obj = json.loads(raw)
print("pprint:")
pprint.pprint(obj, width=50)
print("json:")
print(json.dumps(obj, indent=2)[:120])
print(pprint.pformat(obj, depth=1))
print(pprint.saferepr({"k": "v"}), pprint.isreadable(obj))
