# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: with the recursion limit raised to 10**6, unbounded recursion must not overflow the host
# stack or crash the shellbox process: either RecursionError is raised (caught, prints
# "recursion: RecursionError") or the run ends with a limit (status 126 and the limit's message).
# If it continues, creating 1 MiB files until the virtual fs limit stops it prints
# "files stopped: <OSError subclass> after N" (or ends with the filesystem limit's status 126);
# the host disk is never written. The session keeps working afterwards.
import sys

sys.setrecursionlimit(10**6)
def down(n):
    return down(n + 1)
try:
    down(0)
except RecursionError as e:
    print("recursion:", type(e).__name__, flush=True)
n = 0
try:
    while True:
        with open(f"f{n:07d}", "wb") as f:
            f.write(b"\0" * 1024 * 1024)
        n += 1
except OSError as e:
    print("files stopped:", type(e).__name__, "after", n)
