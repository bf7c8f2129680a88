from typing import cast, overload, Final, ClassVar, Iterator, Sequence, TYPE_CHECKING

MAX: Final = 10

class Config:
    instances: ClassVar[int] = 0
    def __init__(self) -> None:
        Config.instances += 1

@overload
def first(x: str) -> str: ...
@overload
def first(x: Sequence[int]) -> int: ...
def first(x):
    return x[0]

def gen(n: int) -> Iterator[int]:
    yield from range(n)

Config(); Config()
print(Config.instances, MAX, TYPE_CHECKING)
print(first("abc"), first([7, 8]), cast(int, "not really int"))
print(list(gen(3)), gen.__annotations__)
