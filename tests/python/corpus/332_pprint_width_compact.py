import pprint

words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"]
pprint.pprint(words, width=40)
pprint.pprint(words, width=40, compact=True)
pp = pprint.PrettyPrinter(indent=4, width=30, sort_dicts=True)
pp.pprint({"zeta": [1, 2, 3], "alpha": {"nested": (4, 5)}, "mid": "text"})
print(pprint.pformat({"list": sorted({3, 1, 2}), "tuple": tuple(sorted(frozenset({9, 7})))}))
print(pprint.pformat(b"bytes " * 10, width=30))
