words = ["apple", "Banana", "cherry", "date", "Elderberry", "fig"]
print([w.lower() for w in words if len(w) > 4])
print({w[0].lower(): len(w) for w in words})
print(sorted({len(w) for w in words}))
matrix = [[i * 3 + j for j in range(3)] for i in range(3)]
print(matrix)
print([row[i] for i, row in enumerate(matrix)])
print([[row[i] for row in matrix] for i in range(3)])
print([x for row in matrix for x in row if x % 2])
print({k: v for k, v in zip("abc", range(3)) if v})
pairs = [(a, b) for a in range(1, 4) for b in range(a, 4) if (a + b) % 2 == 0]
print(pairs)
