import random

random.seed(42)
print([random.randint(1, 6) for _ in range(10)])
print(round(random.random(), 10))
colors = ["red", "green", "blue", "cyan"]
print(random.choice(colors))
deck = list(range(10))
random.shuffle(deck)
print(deck)
print(random.sample(range(100), 5))
random.seed("reproducible")
a = [random.randint(0, 99) for _ in range(5)]
random.seed("reproducible")
print(a == [random.randint(0, 99) for _ in range(5)], a)
