class Money:
    __slots__ = ("amount", "currency")
    def __init__(self, amount, currency="USD"):
        self.amount, self.currency = amount, currency
    def __repr__(self):
        return f"Money({self.amount!r}, {self.currency!r})"
    def __str__(self):
        return f"{self.amount:,.2f} {self.currency}"
    def __format__(self, spec):
        return format(self.amount, spec) + " " + self.currency if spec else str(self)
    def __eq__(self, o):
        return isinstance(o, Money) and (self.amount, self.currency) == (o.amount, o.currency)
    def __hash__(self):
        return hash((self.amount, self.currency))
    def __add__(self, o):
        if o.currency != self.currency:
            raise ValueError(f"currency mismatch: {self.currency} vs {o.currency}")
        return Money(self.amount + o.amount, self.currency)
    def __radd__(self, o):
        return self if o == 0 else NotImplemented

wallet = [Money(1200.5), Money(30), Money(0.25)]
print(sum(wallet), repr(sum(wallet)), f"{Money(5):>8.1f}", f"{Money(7)}")
print(len({Money(1), Money(1), Money(1, "EUR")}), Money(1) == 1, Money(2) != Money(2))
Money(1) + Money(1, "EUR")
