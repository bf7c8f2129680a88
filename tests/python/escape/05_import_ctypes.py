# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: ctypes is not available: status 1 and last stderr line
# "ModuleNotFoundError: No module named 'ctypes'" (or an ImportError naming ctypes/_ctypes).
# The host's libc is never loaded and "id" never runs on the host (no "uid=" on stdout).
import ctypes

libc = ctypes.CDLL(None)
libc.system(b"id")
print("ctypes loaded, libc called")
