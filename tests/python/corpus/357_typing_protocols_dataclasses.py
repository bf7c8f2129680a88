from dataclasses import dataclass
from typing import Protocol, runtime_checkable, Iterable

@runtime_checkable
class Shape(Protocol):
    def area(self) -> float: ...

@dataclass
class Sq:
    side: float
    def area(self) -> float:
        return self.side ** 2

@dataclass
class Circ:
    r: float
    def area(self) -> float:
        return 3.14159 * self.r ** 2

class NotShape:
    pass

def total_area(shapes: Iterable[Shape]) -> float:
    return sum(s.area() for s in shapes)

items: list[object] = [Sq(2), Circ(1), NotShape(), Sq(0.5)]
shapes = [s for s in items if isinstance(s, Shape)]
print(len(shapes), f"{total_area(shapes):.4f}")
print([type(s).__name__ for s in items if not isinstance(s, Shape)])
print(total_area.__annotations__)
