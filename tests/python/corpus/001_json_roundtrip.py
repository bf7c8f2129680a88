import json

records = [
    {"id": 1, "name": "alpha", "tags": ["x", "y"], "score": 9.5},
    {"id": 2, "name": "beta", "tags": [], "score": None},
    {"id": 3, "name": "gamma", "tags": ["z"], "score": 7},
]
text = json.dumps(records)
print(text)
back = json.loads(text)
print(back == records)
print(json.dumps(records[0], indent=2, sort_keys=True))
