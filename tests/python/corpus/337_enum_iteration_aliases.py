from enum import Enum, IntFlag, unique

class Size(Enum):
    S = 1
    M = 2
    L = 3
    SMALL = 1

print(list(Size), Size.SMALL is Size.S, Size(1).name)
print([name for name in Size.__members__], len(Size.__members__))
try:
    @unique
    class Dup(Enum):
        A = 1
        B = 1
except ValueError as e:
    print("ValueError:", e)

class Access(IntFlag):
    READ = 4
    WRITE = 2
    EXEC = 1

p = Access.READ | Access.EXEC
print(int(p), Access.WRITE in p, p & Access.READ, Access(6), list(Access(7)))
