def matmul(a, b):
    return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]

def transpose(m):
    return [list(r) for r in zip(*m)]

def det(m):
    if len(m) == 1:
        return m[0][0]
    return sum((-1) ** j * m[0][j] * det([r[:j] + r[j + 1:] for r in m[1:]]) for j in range(len(m)))

A = [[1, 2], [3, 4]]
B = [[5, 6], [7, 8]]
print(matmul(A, B), transpose(A), det(A))
M = [[2, 0, 1], [1, 3, 2], [1, 1, 1]]
print(det(M))
I = [[int(i == j) for j in range(3)] for i in range(3)]
print(matmul(M, I) == M)
for row in matmul(M, M):
    print(" ".join(f"{v:3}" for v in row))
