# Run once in every python3 interpreter shellbox starts, before the user's code: it
# installs the sandbox's `posix` module (so that `os` and everything above it work on
# the virtual filesystem), `open` and the standard streams over it, the module finder
# for .py files in the sandbox, and the few guards the sandbox needs.
import sys
import _shellbox

sys.builtin_module_names = tuple(sorted(set(sys.builtin_module_names) | {"posix"}))
_posix = type(sys)("posix")
exec(compile(_shellbox.posix_source(), "<frozen posix>", "exec"), _posix.__dict__)
sys.modules["posix"] = _posix
del _posix

import _io

# `io` takes FileIO from `_io`, which has none without host access: a placeholder
# until _pyio's (over posix) replaces it.
_io.FileIO = type("FileIO", (_io._RawIOBase,), {})
import _pyio

# Raw files are _pyio's FileIO over posix.open/read/write; the buffered and text layers
# above them are the native ones, which are much faster.
for _name in ("BufferedReader", "BufferedWriter", "BufferedRandom", "TextIOWrapper"):
    setattr(_pyio, _name, getattr(_io, _name))
del _name



def _readall(self):
    """FileIO.readall over posix.read: the rest of the file in one piece."""
    self._checkClosed()
    self._checkReadable()
    import posix
    chunks = []
    while True:
        chunk = posix.read(self._fd, 1 << 30)
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


_pyio.FileIO.readall = _readall
del _readall

import io

io.open = _pyio.open
io.FileIO = _pyio.FileIO
_io.open = _pyio.open
_io.FileIO = _pyio.FileIO


def _stream(fd, name, write, buffered, errors, line_buffering):
    raw = _pyio.FileIO(fd, "w" if write else "r", closefd=False)
    raw.name = name
    if write:
        buf = _io.BufferedWriter(raw) if buffered else raw
    else:
        buf = _io.BufferedReader(raw)
    text = _io.TextIOWrapper(buf, encoding="utf-8", errors=errors, newline="\n" if write else None,
                             line_buffering=line_buffering, write_through=not buffered)
    text.mode = "w" if write else "r"
    return text


_unbuffered = _shellbox.unbuffered()
sys.stdin = sys.__stdin__ = _stream(0, "<stdin>", False, True, "strict", False)
sys.stdout = sys.__stdout__ = _stream(1, "<stdout>", True, not _unbuffered, "strict", False)
sys.stderr = sys.__stderr__ = _stream(2, "<stderr>", True, not _unbuffered, "backslashreplace", True)
del _unbuffered, _stream

import builtins

builtins.open = _pyio.open


class _SandboxFinder:
    """Finds modules and packages written as .py files in the sandbox, on sys.path."""

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        import importlib.util
        import posix
        leaf = fullname.rpartition(".")[2]
        dirs = sys.path if path is None else path
        for d in dirs:
            if not isinstance(d, str):
                continue
            base = (d or posix.getcwd()).rstrip("/") + "/" + leaf
            for candidate, is_pkg in ((base + "/__init__.py", True), (base + ".py", False)):
                try:
                    st = posix.stat(candidate)
                except OSError:
                    continue
                if st.st_mode & 0o170000 != 0o100000:
                    continue
                loader = _SandboxLoader(fullname, candidate)
                spec = importlib.util.spec_from_loader(fullname, loader, origin=candidate, is_package=is_pkg)
                if is_pkg:
                    spec.submodule_search_locations = [base]
                return spec
        return None


class _SandboxLoader:
    def __init__(self, name, path):
        self.name = name
        self.path = path

    def create_module(self, spec):
        return None

    def get_filename(self, name=None):
        return self.path

    def get_source(self, name=None):
        with _pyio.open(self.path, "rb") as f:
            data = f.read()
        return data.decode("utf-8")

    def is_package(self, name=None):
        return self.path.endswith("/__init__.py")

    def exec_module(self, module):
        source = self.get_source()
        module.__file__ = self.path
        code = compile(source, self.path, "exec")
        exec(code, module.__dict__)


sys.meta_path.append(_SandboxFinder)


def _setrecursionlimit(limit, _orig=sys.setrecursionlimit, _cap=_shellbox.max_recursion()):
    if not isinstance(limit, int):
        raise TypeError("'%s' object cannot be interpreted as an integer" % type(limit).__name__)
    _orig(min(limit, _cap))


sys.setrecursionlimit = _setrecursionlimit
del _setrecursionlimit

import _thread


def _no_threads(*args, **kwargs):
    raise RuntimeError("can't start new thread: threads are not available in the sandbox")


_thread.start_new_thread = _no_threads
_thread.start_new = _no_threads
if hasattr(_thread, "start_joinable_thread"):
    _thread.start_joinable_thread = _no_threads
del _no_threads

import time as _time

_time.time = _shellbox.time
_time.time_ns = _shellbox.time_ns
# Monotonic clocks follow the virtual clock too, so that sleeps show in them.
_time.monotonic = _time.perf_counter = _shellbox.time
_time.monotonic_ns = _time.perf_counter_ns = _shellbox.time_ns
_time.sleep = _shellbox.sleep


def _utc(f):
    def wrapper(secs=None):
        return f(_shellbox.time() if secs is None else secs)
    wrapper.__name__ = f.__name__
    return wrapper


# The sandbox's clock is the session's virtual clock and its zone is UTC.
_time.gmtime = _utc(_time.gmtime)
_time.localtime = _time.gmtime
_time.ctime = lambda secs=None, _f=_time.asctime: _f(_time.gmtime(secs))
_strftime = _time.strftime
_time.strftime = lambda fmt, t=None, _f=_strftime: _f(fmt, _time.gmtime() if t is None else t)


def _mktime(t):
    # calendar (and the locale and datetime modules it imports) only when asked for.
    import calendar
    return float(calendar.timegm(tuple(t)))


_time.mktime = _mktime
_time.timezone = 0
_time.altzone = 0
_time.daylight = 0
_time.tzname = ("UTC", "UTC")
del _time, _utc, _strftime, _mktime
