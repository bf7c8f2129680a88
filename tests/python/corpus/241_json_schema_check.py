import json

schema = {"name": str, "age": int, "email": str, "tags": list}
docs = json.loads("""[
  {"name": "a", "age": 3, "email": "a@x", "tags": []},
  {"name": "b", "age": "3", "email": "b@x", "tags": []},
  {"name": "c", "age": 4, "tags": "x"},
  {"name": "d", "age": 5, "email": "d@x", "tags": [], "extra": true}
]""")
for i, d in enumerate(docs):
    problems = []
    for key, typ in schema.items():
        if key not in d:
            problems.append(f"missing {key}")
        elif not isinstance(d[key], typ):
            problems.append(f"{key}: expected {typ.__name__}, got {type(d[key]).__name__}")
    problems += [f"unexpected {k}" for k in d if k not in schema]
    print(i, "OK" if not problems else "; ".join(problems))
