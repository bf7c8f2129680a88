from dataclasses import dataclass, field
from pprint import pprint, isrecursive, isreadable

@dataclass
class Node:
    name: str
    children: list = field(default_factory=list)

tree = Node("root", [Node("a", [Node("a1"), Node("a2")]), Node("b", [Node("b1", [Node("deep")])])])
pprint(tree, width=60)
cyc = [1, 2]
cyc.append(cyc)
print(isrecursive(cyc), isreadable(cyc), isreadable([1, (2, "x")]))
pprint({"k" * 10: list(range(12)), "short": (1, 2)}, width=40)
