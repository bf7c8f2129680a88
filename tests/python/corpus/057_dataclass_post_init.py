from dataclasses import dataclass, field, fields

@dataclass
class Invoice:
    customer: str
    lines: list[tuple[str, float, int]]
    tax_rate: float = 0.2
    subtotal: float = field(init=False)
    total: float = field(init=False, repr=False)

    def __post_init__(self):
        if not self.lines:
            raise ValueError("invoice needs at least one line")
        self.subtotal = sum(p * q for _, p, q in self.lines)
        self.total = round(self.subtotal * (1 + self.tax_rate), 2)

inv = Invoice("acme", [("widget", 2.5, 4), ("gizmo", 10.0, 1)])
print(inv)
print(inv.total)
print([f.name for f in fields(Invoice)])
Invoice("empty", [])
