from typing import TypeVar, Generic, Optional, Iterable, Callable, Protocol

T = TypeVar("T")

class Stack(Generic[T]):
    def __init__(self) -> None:
        self._items: list[T] = []
    def push(self, item: T) -> None:
        self._items.append(item)
    def pop(self) -> Optional[T]:
        return self._items.pop() if self._items else None
    def __len__(self) -> int:
        return len(self._items)

class HasLen(Protocol):
    def __len__(self) -> int: ...

def total_len(xs: Iterable[HasLen]) -> int:
    return sum(len(x) for x in xs)

def apply(f: Callable[[int], int], v: int) -> int:
    return f(v)

s: Stack[int] = Stack()
for i in range(3):
    s.push(i * i)
print(len(s), s.pop(), s.pop(), s.pop(), s.pop())
print(total_len(["ab", [1, 2, 3], s]), apply(lambda v: v + 1, 41))
print(Stack[int].__origin__.__name__, total_len.__annotations__["return"].__name__)
