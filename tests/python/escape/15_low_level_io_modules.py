# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: the lower-level file APIs (posix.open, os.open, io.FileIO, _io.open, builtins.open via
# __import__) are re-pointed at the virtual fs just like open(): each attempt on /etc/hostname
# prints "blocked FileNotFoundError" (or the virtual file's size if the virtual fs has one, the
# same size for every API). Never the host's hostname. Status 0.
import io
import os

def via_posix(p):
    import posix
    return posix.read(posix.open(p, posix.O_RDONLY), 100)

apis = {
    "posix.open": via_posix,
    "os.open": lambda p: os.read(os.open(p, os.O_RDONLY), 100),
    "io.FileIO": lambda p: io.FileIO(p).read(100),
    "_io.open": lambda p: __import__("_io").open(p, "rb").read(100),
    "builtins.open": lambda p: __import__("builtins").open(p, "rb").read(100),
}
for name, fn in apis.items():
    try:
        print(name, "READ", len(fn("/etc/hostname")))
    except (OSError, ImportError) as e:
        print(name, "blocked", type(e).__name__)
