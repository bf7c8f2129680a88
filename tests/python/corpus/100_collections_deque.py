from collections import deque

d = deque([1, 2, 3], maxlen=5)
d.append(4)
d.appendleft(0)
d.append(5)
print(d, d.maxlen)
d.rotate(2)
print(list(d))
d.rotate(-3)
print(list(d), d.popleft(), d.pop(), list(d))
recent = deque(maxlen=3)
for line in ["l1", "l2", "l3", "l4", "l5"]:
    recent.append(line)
print("tail:", list(recent))
grid = ["S.#", "..#", "#.E"]
q, seen = deque([(0, 0, 0)]), {(0, 0)}
while q:
    r, c, dist = q.popleft()
    if grid[r][c] == "E":
        print("steps to exit:", dist)
        break
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < 3 and 0 <= nc < 3 and grid[nr][nc] != "#" and (nr, nc) not in seen:
            seen.add((nr, nc))
            q.append((nr, nc, dist + 1))
