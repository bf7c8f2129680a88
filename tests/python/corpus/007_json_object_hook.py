import json
from dataclasses import dataclass

@dataclass
class Point:
    x: float
    y: float

def hook(d):
    if set(d) == {"x", "y"}:
        return Point(**d)
    return d

shape = json.loads('{"name": "tri", "pts": [{"x": 0, "y": 0}, {"x": 4, "y": 0}, {"x": 0, "y": 3}]}',
                   object_hook=hook)
print(shape["name"], shape["pts"])
a, b, c = shape["pts"]
area = abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2
print("area", area)
