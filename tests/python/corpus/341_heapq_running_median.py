import heapq

def running_medians(xs):
    lo, hi = [], []
    for x in xs:
        heapq.heappush(lo, -x)
        heapq.heappush(hi, -heapq.heappop(lo))
        if len(hi) > len(lo):
            heapq.heappush(lo, -heapq.heappop(hi))
        yield -lo[0] if len(lo) > len(hi) else (-lo[0] + hi[0]) / 2

data = [5, 15, 1, 3, 8, 7, 9, 10, 20, 2]
print(list(running_medians(data)))
tasks = [(2, "write"), (1, "plan"), (3, "test"), (1, "coffee")]
heapq.heapify(tasks)
while tasks:
    pri, name = heapq.heappop(tasks)
    print(pri, name)
