import itertools as it

print(list(it.islice(it.count(10, 5), 4)))
print(list(it.islice(it.cycle("ab"), 5)))
print(list(it.repeat("x", 3)))
print(list(it.accumulate([1, 2, 3, 4])), list(it.accumulate([3, 1, 4, 1], max)))
print(list(it.chain([1, 2], "ab", (3,))), list(it.chain.from_iterable([[1], [2, 3]])))
print(list(it.compress("abcdef", [1, 0, 1, 0, 1, 1])))
print(list(it.dropwhile(lambda x: x < 3, [1, 2, 3, 1])), list(it.takewhile(lambda x: x < 3, [1, 2, 3, 1])))
print(list(it.filterfalse(str.isdigit, "a1b2")), list(it.starmap(pow, [(2, 3), (3, 2)])))
print(list(it.zip_longest("abc", [1], fillvalue="-")))
print(list(it.pairwise([1, 2, 4, 7])))
