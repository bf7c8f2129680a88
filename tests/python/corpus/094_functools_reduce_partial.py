from functools import reduce, partial
import operator

nums = [3, 5, 2, 8, 1]
print(reduce(operator.add, nums), reduce(operator.mul, nums, 1), reduce(max, nums))
print(reduce(lambda acc, x: acc * 10 + x, [1, 2, 3], 0))
int2 = partial(int, base=2)
print(int2("1011"), int2("111"), int2.func.__name__, int2.keywords)
def power(base, exp):
    return base ** exp
square = partial(power, exp=2)
cube = partial(power, exp=3)
print([square(i) for i in range(5)], cube(3))
merged = reduce(lambda a, b: {**a, **b}, [{"a": 1}, {"b": 2}, {"a": 3}])
print(merged)
