import random

rng = random.Random(7)
names = ["ann", "bob", "cy", "dee", "ed", "flo"]
teams = rng.sample(names, len(names))
print("team A:", sorted(teams[:3]), "team B:", sorted(teams[3:]))
print([rng.choice("HT") for _ in range(12)])
rng2 = random.Random(7)
print(rng2.sample(names, len(names)) == teams)
walk, pos = [], 0
for _ in range(15):
    pos += rng.choice([-1, 1])
    walk.append(pos)
print(walk, max(walk), min(walk))
