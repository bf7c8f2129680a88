from collections import Counter

inventory = Counter(apples=3, pears=1)
inventory.update(["apples", "kiwi", "kiwi"])
inventory["pears"] -= 1
print(sorted(inventory.items()))
print(inventory.most_common(2), inventory.total())
a = Counter("abracadabra")
b = Counter("alakazam")
print(sorted((a + b).items()))
print(sorted((a - b).items()))
print(sorted((a & b).items()), sorted((a | b).items()))
print(sorted(a.elements())[:6], +Counter({"x": -1, "y": 2}))
