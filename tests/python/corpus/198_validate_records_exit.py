import json
import sys

records = json.loads('[{"id": 1, "email": "a@x.io"}, {"id": 2}, {"id": "3", "email": "c@x"}, {"id": 4, "email": "d@x.io"}]')
errors = []
for i, r in enumerate(records):
    if not isinstance(r.get("id"), int):
        errors.append(f"record {i}: id must be int")
    email = r.get("email")
    if email is None:
        errors.append(f"record {i}: missing email")
    elif "." not in email.split("@")[-1]:
        errors.append(f"record {i}: bad email {email!r}")
print(f"{len(records)} records, {len(errors)} problems")
for e in errors:
    print("  " + e, file=sys.stderr)
sys.exit(65 if errors else 0)
