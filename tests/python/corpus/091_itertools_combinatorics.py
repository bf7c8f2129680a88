from itertools import permutations, combinations, combinations_with_replacement, product

print(list(permutations("abc", 2)))
print(["".join(p) for p in permutations("xyz")])
print(list(combinations(range(4), 3)))
print(list(combinations_with_replacement("ab", 2)))
print(list(product([0, 1], repeat=3)))
print(len(list(product("ab", "cd", "ef"))))
coins = [1, 5, 10, 25]
ways = sorted(c for r in range(1, 4) for c in combinations_with_replacement(coins, r) if sum(c) == 30)
print(ways)
