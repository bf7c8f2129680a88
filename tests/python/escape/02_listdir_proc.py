# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: /proc is not the host's procfs. os.listdir('/proc') raises FileNotFoundError (or lists
# only what the virtual fs holds: no numeric pid directories of host processes). Reading
# /proc/self/environ and /proc/self/cmdline prints "blocked: <ExceptionName>"; stdout never
# contains host environment variables or the host command line. Status 0.
import os

try:
    entries = os.listdir("/proc")
    pids = [e for e in entries if e.isdigit()]
    print("listdir /proc:", len(entries), "entries,", len(pids), "pid dirs")
except OSError as e:
    print("listdir /proc blocked:", type(e).__name__)
for path in ["/proc/self/environ", "/proc/self/cmdline", "/proc/self/maps", "/proc/1/root/etc/hostname"]:
    try:
        with open(path, "rb") as f:
            print(path, "READ", f.read(120))
    except OSError as e:
        print(path, "blocked:", type(e).__name__)
