# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: modules that would touch the host process are absent or inert: importing mmap,
# resource, signal, fcntl and termios either fails (prints "<mod>: unavailable") or, for
# resource.setrlimit / signal.signal / signal.alarm, the calls do not change the shellbox host
# process (the shell session keeps working after the run: a following `echo ok` prints ok).
# Status 0.
import importlib

for mod in ["mmap", "resource", "signal", "fcntl", "termios", "pty", "select"]:
    try:
        importlib.import_module(mod)
        print(mod + ": imported")
    except ImportError:
        print(mod + ": unavailable")
try:
    import signal
    signal.alarm(1)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print("signal calls returned")
except Exception as e:
    print("signal blocked:", type(e).__name__)
