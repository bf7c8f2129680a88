import bisect

starts = [0, 10, 20, 35, 50]
labels = ["cold", "cool", "mild", "warm", "hot"]
for t in [-5, 0, 9.9, 10, 27, 49, 50, 100]:
    i = bisect.bisect_right(starts, t) - 1
    print(f"{t:>6} {labels[max(i, 0)]}")
class Timeline:
    def __init__(self):
        self.times, self.events = [], []
    def add(self, t, e):
        i = bisect.bisect(self.times, t)
        self.times.insert(i, t)
        self.events.insert(i, e)
    def between(self, a, b):
        return self.events[bisect.bisect_left(self.times, a):bisect.bisect_right(self.times, b)]
tl = Timeline()
for t, e in [(5, "e5"), (1, "e1"), (9, "e9"), (5, "e5b"), (3, "e3")]:
    tl.add(t, e)
print(tl.events, tl.between(3, 5), bisect.bisect_left([1, 2], 3, key=None))
