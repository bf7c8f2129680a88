from dataclasses import dataclass, FrozenInstanceError

@dataclass(frozen=True, order=True)
class Card:
    rank: int
    suit: str

hand = [Card(10, "hearts"), Card(2, "spades"), Card(10, "clubs"), Card(14, "spades")]
print(sorted(hand))
print(max(hand), Card(2, "spades") in hand)
print(len({Card(1, "a"), Card(1, "a"), Card(2, "a")}))
try:
    hand[0].rank = 3
except FrozenInstanceError as e:
    print("frozen:", e)
