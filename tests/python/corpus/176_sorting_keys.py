people = [("ann", 31, "nyc"), ("bob", 25, "sf"), ("cy", 31, "la"), ("dee", 25, "nyc"), ("ed", 40, "sf")]
print(sorted(people, key=lambda p: p[1]))
print(sorted(people, key=lambda p: (-p[1], p[0])))
print(sorted(people, key=lambda p: (p[2], p[1]), reverse=True))
words = ["banana", "Apple", "cherry", "apple", "Banana"]
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=lambda w: (w.lower(), w)))
print(sorted("hello"), sorted([3, 1, 2], reverse=True), max("abc", "z", key=len))
nums = [5, 3, 8, 1]
nums.sort()
print(nums, list(reversed(nums)), min(nums), max(nums, default=None), max([], default="empty"))
print(sorted([[1, 2], [1], [0, 5]]), sorted([(1, "b"), (1, "a")]))
