import json
from datetime import date
from decimal import Decimal

class Enc(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, date):
            return o.isoformat()
        if isinstance(o, Decimal):
            return str(o)
        if isinstance(o, set):
            return sorted(o)
        return super().default(o)

payload = {"when": date(2024, 3, 1), "price": Decimal("19.99"), "ids": {3, 1, 2}}
print(json.dumps(payload, cls=Enc, sort_keys=True))
try:
    json.dumps({"bad": object()}, cls=Enc)
except TypeError as e:
    print("TypeError:", str(e).split(" is ")[1])
