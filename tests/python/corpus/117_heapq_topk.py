import heapq

scores = [("ann", 82), ("bob", 95), ("cy", 77), ("dee", 95), ("ed", 60), ("flo", 88)]
print(heapq.nlargest(3, scores, key=lambda s: s[1]))
print(heapq.nsmallest(2, scores, key=lambda s: s[1]))
h = []
for name, s in scores:
    heapq.heappush(h, (-s, name))
print([heapq.heappop(h) for _ in range(3)])
nums = [9, 4, 7, 1, 8, 2]
heapq.heapify(nums)
print(nums[0], heapq.heappushpop(nums, 3), heapq.heapreplace(nums, 10), sorted(nums))
print(list(heapq.merge([1, 4, 9], [2, 3, 10], [5])))
