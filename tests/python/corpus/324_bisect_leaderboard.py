import bisect

class Leaderboard:
    def __init__(self):
        self.scores = []
        self.names = []
    def add(self, name, score):
        i = bisect.bisect_left(self.scores, -score)
        self.scores.insert(i, -score)
        self.names.insert(i, name)
    def rank(self, score):
        return bisect.bisect_left(self.scores, -score) + 1
    def top(self, n):
        return [(nm, -s) for nm, s in zip(self.names[:n], self.scores[:n])]

lb = Leaderboard()
for name, s in [("ann", 50), ("bob", 80), ("cy", 65), ("dee", 80), ("ed", 10)]:
    lb.add(name, s)
print(lb.top(3))
print([lb.rank(s) for s in (100, 80, 66, 0)])
