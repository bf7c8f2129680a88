a = {"pear", "apple", "fig", "kiwi"}
b = {"fig", "grape", "apple"}
print(sorted(a | b))
print(sorted(a & b), sorted(a - b), sorted(a ^ b))
print(a >= {"fig"}, {"fig"} < a, a.isdisjoint({"x"}))
nums = {5, 1, 9, 3}
nums.add(7)
nums.discard(100)
nums.remove(1)
print(sorted(nums), len(nums), 9 in nums)
words = "the cat and the hat and the bat".split()
print(sorted(set(words)), len(set(words)))
seen, uniq = set(), []
for w in words:
    if w not in seen:
        seen.add(w)
        uniq.append(w)
print(uniq)
fs = frozenset([3, 1, 2])
print(sorted(fs), fs == {1, 2, 3}, sorted({fs: "x"}[frozenset({1, 2, 3})]))
