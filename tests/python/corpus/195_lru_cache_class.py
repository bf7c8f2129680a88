from collections import OrderedDict

class LRU:
    def __init__(self, cap):
        self.cap, self.data = cap, OrderedDict()
        self.hits = self.misses = 0
    def get(self, k):
        if k in self.data:
            self.data.move_to_end(k)
            self.hits += 1
            return self.data[k]
        self.misses += 1
        return None
    def put(self, k, v):
        self.data[k] = v
        self.data.move_to_end(k)
        if len(self.data) > self.cap:
            evicted = self.data.popitem(last=False)
            print("evict", evicted)

c = LRU(2)
c.put("a", 1)
c.put("b", 2)
c.get("a")
c.put("c", 3)
print(c.get("b"), c.get("a"), c.get("c"))
c.put("d", 4)
print(list(c.data), c.hits, c.misses)
