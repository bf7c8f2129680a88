import bisect

def grade(score, breakpoints=(60, 70, 80, 90), grades="FDCBA"):
    return grades[bisect.bisect(breakpoints, score)]

print([grade(s) for s in [33, 99, 77, 70, 89, 90, 100, 60, 59]])
data = [1, 3, 3, 3, 7, 9]
print(bisect.bisect_left(data, 3), bisect.bisect_right(data, 3), bisect.bisect_left(data, 4))
bisect.insort(data, 5)
bisect.insort_left(data, 3)
print(data)
words = sorted(["delta", "alpha", "echo", "bravo"])
i = bisect.bisect_left(words, "c")
print(words[i:], words[:i])
events = [(1, "a"), (5, "b"), (9, "c")]
print(events[bisect.bisect_right([e[0] for e in events], 6) - 1])
