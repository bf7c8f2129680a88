from enum import Enum, auto

class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3

class Status(Enum):
    PENDING = auto()
    RUNNING = auto()
    DONE = auto()

print(Color.RED, repr(Color.GREEN), Color(3), Color["BLUE"])
print(Color.RED.name, Color.RED.value, [c.name for c in Color])
print([s.value for s in Status], Status.DONE is Status(3))
print(Color.RED == 1, Color.RED == Color.RED, len(Color))
try:
    Color(7)
except ValueError as e:
    print("ValueError:", e)
