import json

def merge(target, patch):
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            result.pop(k, None)
        else:
            result[k] = merge(result.get(k), v)
    return result

base = {"title": "Hello", "author": {"given": "John", "family": "Doe"}, "tags": ["a", "b"], "content": "x"}
patch = {"title": "Hi", "author": {"family": None, "nick": "jd"}, "tags": ["c"], "content": None}
print(json.dumps(merge(base, patch), indent=2))
print(merge({"a": 1}, 5), merge(5, {"a": {"b": 1}}))
