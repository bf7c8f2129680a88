from dataclasses import dataclass
from typing import Callable, Iterable

@dataclass
class Step:
    name: str
    fn: Callable[[Iterable], Iterable]

class Pipeline:
    def __init__(self, *steps: Step):
        self.steps = list(steps)
    def run(self, data):
        for s in self.steps:
            data = list(s.fn(data))
            print(f"after {s.name:<8}: {data}")
        return data

p = Pipeline(
    Step("strip", lambda xs: (x.strip() for x in xs)),
    Step("nonempty", lambda xs: filter(None, xs)),
    Step("ints", lambda xs: map(int, xs)),
    Step("evens", lambda xs: (x for x in xs if x % 2 == 0)),
    Step("square", lambda xs: (x * x for x in xs)),
)
print(sum(p.run([" 1", "2 ", "", " 3 ", "4", "10"])))
p.run(["1", "x"])
