import heapq

a = ["2024-01-02T10:00 a start", "2024-01-02T10:05 a work", "2024-01-02T10:30 a end"]
b = ["2024-01-02T09:59 b boot", "2024-01-02T10:05 b ping", "2024-01-02T11:00 b halt"]
c = ["2024-01-02T10:10 c tick"]
for line in heapq.merge(a, b, c):
    print(line)
print(list(heapq.merge([5, 3, 1], [4, 2], reverse=True)))
print(list(heapq.merge(["bb", "a"], ["ccc"], key=len, reverse=True)))
