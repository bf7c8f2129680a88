import random

random.seed(99)
suits = "SHDC"
ranks = "23456789TJQKA"
deck = [r + s for s in suits for r in ranks]
random.shuffle(deck)
hands = {p: sorted(deck[i::4][:5], key=lambda c: (ranks.index(c[0]), c[1])) for i, p in enumerate("NESW")}
for player, hand in hands.items():
    print(player, " ".join(hand))
print(random.sample(ranks, 3), random.choice(suits), random.randint(100, 200))
random.seed(99)
again = [r + s for s in suits for r in ranks]
random.shuffle(again)
print(again[:5] == deck[:5])
