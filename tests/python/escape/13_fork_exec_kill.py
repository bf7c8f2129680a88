# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: process-level calls never act on the host: os.fork, os.execv, os.kill(1, 0) and
# os.posix_spawn either are missing (AttributeError) or fail (OSError/NotImplementedError/
# PermissionError); prints "<name>: blocked <ExceptionName>" for each. The Python run keeps going
# (no exec replaced it) and prints "still here"; status 0.
import os

attempts = {
    "fork": lambda: os.fork(),
    "execv": lambda: os.execv("/bin/sh", ["sh", "-c", "id"]),
    "kill": lambda: os.kill(1, 0),
    "posix_spawn": lambda: os.posix_spawn("/bin/true", ["true"], {}),
}
for name, fn in attempts.items():
    try:
        r = fn()
        print(name + ": RAN", r)
    except (AttributeError, OSError, NotImplementedError) as e:
        print(name + ": blocked", type(e).__name__)
print("still here")
