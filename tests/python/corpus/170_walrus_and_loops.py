import re

data = ["id=5", "junk", "id=12", "id=x", "id=7"]
ids = [int(m.group(1)) for s in data if (m := re.fullmatch(r"id=(\d+)", s))]
print(ids)
chunks = iter(["aa", "bb", "", "cc"])
while (chunk := next(chunks)):
    print("chunk", chunk)
for i in range(3):
    if i == 5:
        break
else:
    print("loop finished without break")
for n in range(2, 20):
    for d in range(2, n):
        if n % d == 0:
            break
    else:
        print(n, end=" ")
print()
total = 0
i = 0
while i < 10:
    i += 1
    if i % 3 == 0:
        continue
    total += i
print(total)
