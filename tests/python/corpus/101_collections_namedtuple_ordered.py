from collections import namedtuple, OrderedDict, ChainMap

Row = namedtuple("Row", "id name score", defaults=[0])
rows = [Row(1, "a", 9), Row(2, "b"), Row._make([3, "c", 4])]
print(rows, rows[1].score, max(rows, key=lambda r: r.score).name)
od = OrderedDict.fromkeys("abcde")
od.move_to_end("b")
od.move_to_end("e", last=False)
print(list(od), od.popitem(), od.popitem(last=False))
defaults = {"color": "red", "user": "guest"}
env = {"user": "admin"}
cli = {}
cfg = ChainMap(cli, env, defaults)
print(cfg["color"], cfg["user"], len(cfg), sorted(cfg))
cfg["color"] = "blue"
print(cli, dict(cfg.new_child({"x": 1})).get("x"))
