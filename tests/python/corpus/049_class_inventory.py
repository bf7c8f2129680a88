class Item:
    def __init__(self, name, price, qty=0):
        self.name = name
        self.price = price
        self.qty = qty

    def total(self):
        return self.price * self.qty

    def __repr__(self):
        return f"Item({self.name!r}, {self.price}, qty={self.qty})"

class Inventory:
    def __init__(self):
        self.items = {}

    def add(self, item):
        self.items[item.name] = item
        return self

    def value(self):
        return sum(i.total() for i in self.items.values())

    def __len__(self):
        return len(self.items)

    def __contains__(self, name):
        return name in self.items

inv = Inventory().add(Item("bolt", 0.1, 100)).add(Item("nut", 0.05, 250)).add(Item("gear", 4.5, 3))
print(len(inv), "bolt" in inv, "screw" in inv)
print(f"value: {inv.value():.2f}")
print(sorted(inv.items.values(), key=Item.total))
