def average(xs):
    return sum(xs) / len(xs)

groups = {"a": [1, 2, 3], "b": [10], "c": []}
for name, xs in groups.items():
    print(name, average(xs))
