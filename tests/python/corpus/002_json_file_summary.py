import json

data = {"users": [{"name": "ann", "age": 31}, {"name": "bob", "age": 27},
                  {"name": "cy", "age": 45}]}
with open("users.json", "w") as f:
    json.dump(data, f, indent=4)

with open("users.json") as f:
    loaded = json.load(f)

ages = [u["age"] for u in loaded["users"]]
print(f"users: {len(ages)}")
print(f"mean age: {sum(ages) / len(ages):.2f}")
oldest = max(loaded["users"], key=lambda u: u["age"])
print(f"oldest: {oldest['name']}")
print(open("users.json").read().count("\n"), "lines in file")
