import sys

print(sys.version_info >= (3, 8), sys.version_info.major)
print(type(sys.maxsize).__name__, sys.maxsize > 2**31, sys.byteorder in ("little", "big"))
print(sys.platform.startswith(("linux", "darwin", "win", "wasi")))
print(isinstance(sys.path, list), "sys" in sys.modules, sys.argv[0].endswith(".py"))
print(sys.getsizeof(0) > 0, sys.float_info.max > 1e300, sys.float_info.epsilon < 1e-15)
print(sys.stdin is sys.__stdin__, sys.stdout.encoding.lower().replace("-", ""), sys.getdefaultencoding())
print(sys.exc_info(), sys.flags.optimize)
try:
    1 / 0
except ZeroDivisionError:
    print(sys.exc_info()[0].__name__)
