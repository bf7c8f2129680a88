from enum import Enum

class Op(Enum):
    ADD = "+"
    SUB = "-"
    MUL = "*"

    def apply(self, a, b):
        match self:
            case Op.ADD:
                return a + b
            case Op.SUB:
                return a - b
            case Op.MUL:
                return a * b

    @classmethod
    def parse(cls, sym):
        return cls(sym)

for sym in "+-*":
    op = Op.parse(sym)
    print(op.name, op.apply(7, 3))
print(Op.__members__.keys())
Op.parse("/")
