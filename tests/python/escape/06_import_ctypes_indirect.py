# DO NOT RUN ON THE HOST: this program probes the sandbox (see tests/python/README.md).
# expect: every indirect way to reach ctypes/_ctypes/cffi fails with ImportError; prints
# "<name>: ImportError" (or ModuleNotFoundError) for each of the four names; status 0.
import importlib

for name in ["_ctypes", "ctypes.util", "cffi", "_posixsubprocess"]:
    try:
        importlib.import_module(name)
        print(name, "IMPORTED")
    except ImportError as e:
        print(name + ":", type(e).__name__)
