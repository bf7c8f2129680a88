import contextlib
import io
import os

@contextlib.contextmanager
def chdir_tmp(name):
    os.makedirs(name, exist_ok=True)
    old = os.getcwd()
    os.chdir(name)
    try:
        yield name
    finally:
        os.chdir(old)

with chdir_tmp("work") as d:
    with open("inside.txt", "w") as f:
        f.write("hi")
print(os.listdir(d))
with contextlib.suppress(FileNotFoundError):
    os.remove("does-not-exist")
    print("not reached")
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    print("captured line")
print("got:", buf.getvalue().strip())
with contextlib.ExitStack() as stack:
    files = [stack.enter_context(open(n, "w")) for n in ("x1", "x2")]
    print(all(not f.closed for f in files))
print(all(f.closed for f in files))
