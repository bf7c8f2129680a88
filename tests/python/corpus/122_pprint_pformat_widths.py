from pprint import pformat, pp

matrix = [[i * j for j in range(8)] for i in range(5)]
print(pformat(matrix, width=30))
data = {"long_key_" + str(i): "value " * i for i in range(1, 5)}
print(pformat(data, indent=2, width=60))
pp({"b": [1, 2], "a": "x"})
print(pformat("a long string " * 8, width=40))
