import sys

class Abort(BaseException):
    pass

def work(steps):
    done = []
    for s in steps:
        if s == "abort":
            raise Abort(f"aborted after {len(done)} steps")
        done.append(s)
    return done

try:
    work(["a", "b", "abort"])
except Exception:
    print("not reached")
except Abort as e:
    print("Abort:", e, file=sys.stderr)
print(work(["x", "y"]))
work(["abort"])
