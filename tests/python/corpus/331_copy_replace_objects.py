import copy
from dataclasses import dataclass, field

@dataclass
class Doc:
    title: str
    tags: list = field(default_factory=list)
    meta: dict = field(default_factory=dict)

d1 = Doc("draft", ["a"], {"rev": 1})
d2 = copy.copy(d1)
d3 = copy.deepcopy(d1)
d2.title = "copy"
d2.tags.append("shared!")
d3.meta["rev"] = 2
print(d1)
print(d2)
print(d3)
memo = {}
x = [1]
pair = [x, x]
cp = copy.deepcopy(pair, memo)
print(cp[0] is cp[1], cp[0] is x, len(memo) > 0)
