import json

s = {"city": "Zürich", "emoji": "\u2603", "quote": 'say "hi"', "tab": "a\tb"}
print(json.dumps(s))
print(json.dumps(s, ensure_ascii=False))
print(json.dumps([1.5, 2.0, 1e20, -0.0, 3]))
print(json.dumps({"b": 1, "a": [1, 2]}, separators=(",", ":"), sort_keys=True))
print(json.loads('"\\u00e9t\\u00e9"'))
