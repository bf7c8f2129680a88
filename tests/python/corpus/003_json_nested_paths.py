import json

doc = json.loads('''{"a": {"b": [1, {"c": "deep"}, 3]}, "d": true, "e": null}''')

def walk(node, path=""):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from walk(v, f"{path}.{k}" if path else k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, f"{path}[{i}]")
    else:
        yield path, node

for p, v in walk(doc):
    print(f"{p:12} = {json.dumps(v)}")
