def mean(xs):
    assert xs, "mean of empty list"
    return sum(xs) / len(xs)

print(mean([1, 2, 3]))
try:
    mean([])
except AssertionError as e:
    print("AssertionError:", e)
def check_sorted(xs):
    for a, b in zip(xs, xs[1:]):
        assert a <= b, f"not sorted: {a} > {b}"
check_sorted([1, 2, 2, 5])
print("first list sorted")
check_sorted([1, 3, 2])
