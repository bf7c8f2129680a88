from enum import Flag, IntEnum, StrEnum, auto

class Perm(Flag):
    R = 4
    W = 2
    X = 1

class Level(IntEnum):
    LOW = 1
    HIGH = 10

class Mode(StrEnum):
    FAST = auto()
    SAFE = auto()

rw = Perm.R | Perm.W
print(rw, Perm.W in rw, Perm.X in rw, rw.value)
print(Perm(7), Perm(0), bool(Perm(0)))
print(Level.HIGH > Level.LOW, Level.LOW + 5, sorted([Level.HIGH, Level.LOW]))
print(Mode.FAST, Mode.SAFE.upper(), Mode("fast") is Mode.FAST, f"{Mode.SAFE}")
