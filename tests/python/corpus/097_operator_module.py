import operator as op

rows = [{"name": "b", "age": 30}, {"name": "a", "age": 25}, {"name": "c", "age": 30}]
print(sorted(rows, key=op.itemgetter("age", "name")))
pairs = [(1, "z"), (3, "a"), (2, "m")]
print(sorted(pairs, key=op.itemgetter(1)), op.itemgetter(0, 1)(pairs[0]))
class P:
    def __init__(self, n):
        self.n = n
        self.inner = self
print(op.attrgetter("inner.n")(P(7)))
print(op.methodcaller("replace", "a", "o")("banana"))
print(op.add(2, 3), op.truediv(7, 2), op.floordiv(7, 2), op.mod(7, 3), op.neg(4), op.pow(2, 10))
print(op.contains([1, 2], 2), op.getitem("abc", 1), op.not_(0), op.and_(6, 3), op.xor(6, 3))
lst = [1, 2, 3]
op.setitem(lst, 0, 9)
op.delitem(lst, 1)
print(lst, op.concat("ab", "cd"), op.index(5))
