import copy

orig = {"name": "cfg", "layers": [[1, 2], [3]], "meta": {"v": 1}}
shallow = copy.copy(orig)
deep = copy.deepcopy(orig)
orig["layers"][0].append(99)
orig["meta"]["v"] = 2
orig["name"] = "changed"
print(shallow)
print(deep)

class Node:
    def __init__(self, v):
        self.v = v
        self.children = []
    def __deepcopy__(self, memo):
        n = Node(self.v * 10)
        n.children = copy.deepcopy(self.children, memo)
        return n

root = Node(1)
root.children.append(Node(2))
c = copy.deepcopy(root)
print(c.v, [k.v for k in c.children])
cyc = [1]
cyc.append(cyc)
d = copy.deepcopy(cyc)
print(d[1] is d, d[1] is cyc)
