from typing import NamedTuple, TypedDict, Literal, Union, Any, get_type_hints

class Point(NamedTuple):
    x: float
    y: float = 0.0

class Movie(TypedDict):
    title: str
    year: int

Mode = Literal["r", "w"]

def open_mode(m: Mode) -> str:
    return {"r": "read", "w": "write"}[m]

p = Point(1.5)
print(p, p._asdict(), p._replace(y=2), Point._fields)
m: Movie = {"title": "Alien", "year": 1979}
print(m, type(m).__name__)
print(open_mode("w"))
print(get_type_hints(Point))
def f(x: Union[int, str], y: Any = None) -> None: ...
print(f.__annotations__["x"])
