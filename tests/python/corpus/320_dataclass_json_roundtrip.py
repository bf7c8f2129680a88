import json
from dataclasses import dataclass, asdict, field

@dataclass
class Address:
    city: str
    zip: str

@dataclass
class Person:
    name: str
    age: int
    address: Address
    emails: list[str] = field(default_factory=list)

    @classmethod
    def from_dict(cls, d):
        return cls(d["name"], d["age"], Address(**d["address"]), d.get("emails", []))

people = [Person("Ann", 30, Address("Oslo", "0150"), ["ann@x.no"]), Person("Bo", 41, Address("Rome", "00100"))]
text = json.dumps([asdict(p) for p in people], indent=2)
with open("people.json", "w") as f:
    f.write(text)
loaded = [Person.from_dict(d) for d in json.load(open("people.json"))]
print(loaded == people)
print(loaded[1])
print(text.splitlines()[:6])
