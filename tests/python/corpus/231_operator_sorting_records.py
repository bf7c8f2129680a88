from operator import attrgetter, itemgetter, methodcaller
from collections import namedtuple

Emp = namedtuple("Emp", "name dept salary")
staff = [Emp("zoe", "ops", 70), Emp("al", "eng", 95), Emp("bea", "eng", 95), Emp("cal", "ops", 60)]
for e in sorted(staff, key=attrgetter("dept", "name")):
    print(e)
print([e.name for e in sorted(staff, key=attrgetter("salary"), reverse=True)])
print(list(map(itemgetter(0), staff)), list(map(methodcaller("upper"), ["a", "b"])))
get_last = itemgetter(-1)
print(get_last("xyz"), get_last([1, 2, 3]), itemgetter(slice(1, 3))("abcd"))
