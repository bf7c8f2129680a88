import traceback

def parse_all(items):
    out = []
    for it in items:
        try:
            out.append(int(it))
        except ValueError:
            print(f"skipping {it!r}")
    return out

print(parse_all(["1", "x", "3"]))
try:
    int("nope")
except ValueError as e:
    lines = traceback.format_exception_only(type(e), e)
    print("formatted:", lines[-1].strip())
try:
    [][1]
except IndexError as e:
    print("repr:", repr(e), "args:", e.args)
    err = e
raise err
