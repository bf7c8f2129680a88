import json

events = json.loads("""[
 {"kind": "click", "x": 10, "y": 20},
 {"kind": "key", "key": "Enter", "mods": ["ctrl"]},
 {"kind": "key", "key": "a", "mods": []},
 {"kind": "scroll", "delta": -3},
 {"kind": "resize", "size": [800, 600]},
 {"oops": true}
]""")
for ev in events:
    match ev:
        case {"kind": "click", "x": int(x), "y": int(y)}:
            print(f"click at ({x},{y})")
        case {"kind": "key", "key": k, "mods": [*mods]} if mods:
            print("key", "+".join(mods + [k]))
        case {"kind": "key", "key": k}:
            print("key", k)
        case {"kind": "resize", "size": [w, h]}:
            print(f"resize {w}x{h}")
        case {"kind": str(kind)}:
            print("unhandled", kind)
        case _:
            print("malformed", ev)
