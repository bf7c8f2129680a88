from dataclasses import dataclass, field
from collections import defaultdict

@dataclass(order=True)
class Part:
    sort_key: tuple = field(init=False, repr=False)
    category: str
    name: str
    qty: int
    unit_cost: float

    def __post_init__(self):
        self.sort_key = (self.category, -self.qty)

parts = [Part("fastener", "bolt", 500, 0.05), Part("motor", "stepper", 4, 12.5),
         Part("fastener", "nut", 800, 0.02), Part("motor", "servo", 10, 6.0),
         Part("wire", "cable 1m", 50, 0.8)]
by_cat = defaultdict(list)
for p in sorted(parts):
    by_cat[p.category].append(p)
for cat, ps in by_cat.items():
    value = sum(p.qty * p.unit_cost for p in ps)
    print(f"{cat.upper():10} {len(ps)} parts  ${value:8.2f}")
    for p in ps:
        print(f"   {p.name:<10}{p.qty:>5} x {p.unit_cost:5.2f}")
