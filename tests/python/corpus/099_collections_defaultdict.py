from collections import defaultdict

edges = [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("d", "e")]
graph = defaultdict(list)
indeg = defaultdict(int)
for s, d in edges:
    graph[s].append(d)
    indeg[d] += 1
order, ready = [], sorted(n for n in graph if indeg[n] == 0)
while ready:
    n = ready.pop(0)
    order.append(n)
    for m in graph[n]:
        indeg[m] -= 1
        if indeg[m] == 0:
            ready.append(m)
print("topo:", order)
nested = defaultdict(lambda: defaultdict(int))
for word in ["ant", "apple", "bee", "bear", "bee"]:
    nested[word[0]][word] += 1
print({k: dict(v) for k, v in nested.items()})
print(dict(graph))
