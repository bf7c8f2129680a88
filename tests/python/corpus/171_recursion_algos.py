import sys

def permutations(s):
    if len(s) <= 1:
        return [s]
    return [c + p for i, c in enumerate(s) for p in permutations(s[:i] + s[i + 1:])]

def hanoi(n, a="A", b="B", c="C", moves=None):
    moves = [] if moves is None else moves
    if n:
        hanoi(n - 1, a, c, b, moves)
        moves.append((a, c))
        hanoi(n - 1, b, a, c, moves)
    return moves

def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))

print(permutations("abc"))
print(len(hanoi(10)), hanoi(2))
print(ackermann(2, 3))
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
print(depth(500), sys.getrecursionlimit() >= 1000)
