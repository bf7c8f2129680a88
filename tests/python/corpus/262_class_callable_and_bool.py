class Threshold:
    def __init__(self, limit):
        self.limit = limit
        self.calls = 0
    def __call__(self, x):
        self.calls += 1
        return x > self.limit
    def __bool__(self):
        return self.limit is not None
    def __len__(self):
        return self.calls

over10 = Threshold(10)
print(list(filter(over10, [5, 15, 10, 11])), over10.calls, len(over10))
print(bool(Threshold(None)), bool(over10), callable(over10))
class Empty:
    def __len__(self):
        return 0
print(bool(Empty()), "empty" if not Empty() else "full")
