from itertools import cycle, islice, product, combinations

workers = ["ann", "bob", "cy"]
days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
rota = list(zip(days, cycle(workers)))
print(rota)
pairs = list(combinations(workers, 2))
print("pairings:", pairs)
slots = list(product(["09:00", "13:00"], ["room A", "room B"]))
print(len(slots), slots[0], slots[-1])
print(list(islice(cycle("AB"), 0, 7, 2)))
