import json

samples = ['{"ok": 1}', '{"missing": }', '[1, 2 3]', '"str"', 'nul']
for s in samples:
    try:
        v = json.loads(s)
        print("ok  ", repr(v))
    except json.JSONDecodeError as e:
        print("fail", e.msg, "at line", e.lineno, "col", e.colno)
