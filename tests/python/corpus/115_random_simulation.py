import random
from collections import Counter

random.seed(2024)
rolls = Counter(random.randint(1, 6) + random.randint(1, 6) for _ in range(3600))
for total in range(2, 13):
    bar = "*" * (rolls[total] // 20)
    print(f"{total:2} {rolls[total]:4} {bar}")
inside = sum(1 for _ in range(20000) if random.random() ** 2 + random.random() ** 2 <= 1)
print("pi ~", inside * 4 / 20000)
