# The `posix` module of shellbox's python3: the operating-system calls that `os`,
# `io`, `pathlib`, `shutil`, `glob` and `tempfile` are built on, each answered by the
# sandbox's virtual filesystem through the native `_shellbox` module. Nothing here can
# reach the host: there is no host module underneath.
import _shellbox as _sb

error = OSError
F_OK, R_OK, W_OK, X_OK = 0, 4, 2, 1
O_RDONLY, O_WRONLY, O_RDWR = 0, 1, 2
O_CREAT, O_EXCL, O_NOCTTY, O_TRUNC, O_APPEND = 0o100, 0o200, 0o400, 0o1000, 0o2000
O_NONBLOCK, O_DSYNC, O_DIRECTORY, O_NOFOLLOW, O_CLOEXEC = 0o4000, 0o10000, 0o200000, 0o400000, 0o2000000
O_SYNC, O_ACCMODE = 0o4010000, 3
SEEK_SET, SEEK_CUR, SEEK_END = 0, 1, 2
EX_OK = 0
WNOHANG = 1
TMP_MAX = 238328
_have_functions = ["HAVE_FSTATAT", "HAVE_LSTAT", "HAVE_FTRUNCATE", "HAVE_UTIMENSAT"]


def _path(p, name="path"):
    if isinstance(p, int) and not isinstance(p, bool):
        raise OSError(9, "Bad file descriptor")
    if isinstance(p, (str, bytes)):
        s = p
    elif hasattr(type(p), "__fspath__"):
        s = type(p).__fspath__(p)
        if not isinstance(s, (str, bytes)):
            raise TypeError(f"expected {type(p).__name__}.__fspath__() to return str or bytes, not {type(s).__name__}")
    else:
        raise TypeError(f"{name}: should be string, bytes or os.PathLike, not {type(p).__name__}")
    if isinstance(s, bytes):
        s = s.decode("utf-8", "surrogateescape")
    if "\0" in s:
        raise ValueError(f"{name}: embedded null character in {name}")
    return s


def _no_dir_fd(dir_fd):
    if dir_fd is not None:
        raise NotImplementedError("dir_fd unavailable on this platform")


def fspath(path):
    if isinstance(path, (str, bytes)):
        return path
    t = type(path)
    try:
        r = t.__fspath__(path)
    except AttributeError:
        if hasattr(t, "__fspath__"):
            raise
        raise TypeError("expected str, bytes or os.PathLike object, not " + t.__name__) from None
    if isinstance(r, (str, bytes)):
        return r
    raise TypeError(f"expected {t.__name__}.__fspath__() to return str or bytes, not {type(r).__name__}")


class stat_result(tuple):
    n_sequence_fields = 10
    n_fields = 19
    n_unnamed_fields = 3
    _names = ("st_mode", "st_ino", "st_dev", "st_nlink", "st_uid", "st_gid", "st_size")

    def __new__(cls, seq, extra=None):
        seq = tuple(seq)
        if len(seq) < 10:
            raise TypeError(f"os.stat_result() takes an at least 10-sequence ({len(seq)}-sequence given)")
        self = tuple.__new__(cls, seq[:10])
        ns = extra if extra is not None else tuple(int(t * 1_000_000_000) for t in seq[7:10])
        self._ns = ns
        return self

    st_mode = property(lambda s: s[0])
    st_ino = property(lambda s: s[1])
    st_dev = property(lambda s: s[2])
    st_nlink = property(lambda s: s[3])
    st_uid = property(lambda s: s[4])
    st_gid = property(lambda s: s[5])
    st_size = property(lambda s: s[6])
    st_atime = property(lambda s: s._ns[0] / 1e9)
    st_mtime = property(lambda s: s._ns[1] / 1e9)
    st_ctime = property(lambda s: s._ns[2] / 1e9)
    st_atime_ns = property(lambda s: s._ns[0])
    st_mtime_ns = property(lambda s: s._ns[1])
    st_ctime_ns = property(lambda s: s._ns[2])
    st_blksize = property(lambda s: 4096)
    st_blocks = property(lambda s: (s[6] + 511) // 512)
    st_rdev = property(lambda s: 0)

    def __reduce__(self):
        return (stat_result, (tuple(self), self._ns))

    def __repr__(self):
        f = ", ".join(f"{n}={getattr(self, n)}" for n in self._names)
        return (f"os.stat_result({f}, st_atime={self[7]}, st_mtime={self[8]}, st_ctime={self[9]})")


def _mkstat(t):
    mode, ino, dev, nlink, uid, gid, size, a, m, c = t
    return stat_result((mode, ino, dev, nlink, uid, gid, size, a // 1_000_000_000, m // 1_000_000_000, c // 1_000_000_000), (a, m, c))


class terminal_size(tuple):
    def __new__(cls, seq):
        return tuple.__new__(cls, seq)
    columns = property(lambda s: s[0])
    lines = property(lambda s: s[1])

    def __repr__(self):
        return f"os.terminal_size(columns={self[0]}, lines={self[1]})"


class times_result(tuple):
    user = property(lambda s: s[0])
    system = property(lambda s: s[1])
    children_user = property(lambda s: s[2])
    children_system = property(lambda s: s[3])
    elapsed = property(lambda s: s[4])


class uname_result(tuple):
    sysname = property(lambda s: s[0])
    nodename = property(lambda s: s[1])
    release = property(lambda s: s[2])
    version = property(lambda s: s[3])
    machine = property(lambda s: s[4])


def stat(path, *, dir_fd=None, follow_symlinks=True):
    _no_dir_fd(dir_fd)
    if isinstance(path, int) and not isinstance(path, bool):
        return _mkstat(_sb.fstat(path))
    return _mkstat(_sb.stat(_path(path), follow_symlinks))


def lstat(path, *, dir_fd=None):
    _no_dir_fd(dir_fd)
    return _mkstat(_sb.stat(_path(path), False))


def fstat(fd):
    return _mkstat(_sb.fstat(fd))


def access(path, mode, *, dir_fd=None, effective_ids=False, follow_symlinks=True):
    _no_dir_fd(dir_fd)
    return _sb.access(_path(path), mode)


def open(path, flags, mode=0o777, *, dir_fd=None):
    _no_dir_fd(dir_fd)
    return _sb.open(_path(path), flags, mode)


def close(fd):
    _sb.close(fd)


def closerange(lo, hi):
    for fd in range(lo, hi):
        try:
            _sb.close(fd)
        except OSError:
            pass


def read(fd, n):
    if n < 0:
        raise ValueError("negative length")
    return _sb.read(fd, n)


def readinto(fd, buffer):
    with memoryview(buffer) as view, view.cast("B") as m:
        data = _sb.read(fd, len(m))
        m[:len(data)] = data
    return len(data)


def write(fd, data):
    return _sb.write(fd, bytes(data))


def lseek(fd, pos, how):
    return _sb.lseek(fd, pos, how)


def ftruncate(fd, length):
    _sb.ftruncate(fd, length)


def truncate(path, length):
    if isinstance(path, int):
        return _sb.ftruncate(path, length)
    _sb.truncate(_path(path), length)


def fsync(fd):
    _sb.fstat(fd if isinstance(fd, int) else fd.fileno())


fdatasync = fsync


def isatty(fd):
    _sb.fstat(fd)
    return False


def dup(fd):
    return _sb.dup(fd)


def get_inheritable(fd):
    return False


def set_inheritable(fd, inheritable):
    pass


def get_blocking(fd):
    return True


def set_blocking(fd, blocking):
    pass


def device_encoding(fd):
    return None


def getcwd():
    return _sb.getcwd()


def getcwdb():
    return _sb.getcwd().encode("utf-8", "surrogateescape")


def chdir(path):
    _sb.chdir(_path(path))


def listdir(path=None):
    if path is None:
        path = "."
    if isinstance(path, int) and not isinstance(path, bool):
        raise OSError(95, "Operation not supported")
    as_bytes = isinstance(path, bytes) or isinstance(fspath(path), bytes)
    names = _sb.listdir(_path(path))
    if as_bytes:
        return [n.encode("utf-8", "surrogateescape") for n in names]
    return names


class DirEntry:
    __slots__ = ("name", "path", "_kind", "_ino", "_stat", "_lstat")

    def __init__(self, *a):
        raise TypeError("cannot create 'posix.DirEntry' instances")

    @classmethod
    def _make(cls, dirpath, name, kind, ino, as_bytes):
        e = object.__new__(cls)
        if as_bytes:
            name = name.encode("utf-8", "surrogateescape")
            sep = b"/"
        else:
            sep = "/"
        e.name = name
        e.path = dirpath + name if dirpath.endswith(sep) else dirpath + sep + name
        e._kind = kind
        e._ino = ino
        e._stat = None
        e._lstat = None
        return e

    def __fspath__(self):
        return self.path

    def __repr__(self):
        return f"<DirEntry {self.name!r}>"

    def inode(self):
        return self._ino

    def is_symlink(self):
        return self._kind == "l"

    def is_junction(self):
        return False

    def is_dir(self, *, follow_symlinks=True):
        if self._kind == "l" and follow_symlinks:
            try:
                return _S_ISDIR(self.stat().st_mode)
            except OSError:
                return False
        return self._kind == "d"

    def is_file(self, *, follow_symlinks=True):
        if self._kind == "l" and follow_symlinks:
            try:
                return _S_ISREG(self.stat().st_mode)
            except OSError:
                return False
        return self._kind == "f"

    def stat(self, *, follow_symlinks=True):
        if follow_symlinks:
            if self._stat is None:
                self._stat = stat(self.path)
            return self._stat
        if self._lstat is None:
            self._lstat = lstat(self.path)
        return self._lstat

    def __class_getitem__(cls, item):
        return cls


def _S_ISDIR(m):
    return (m & 0o170000) == 0o040000


def _S_ISREG(m):
    return (m & 0o170000) == 0o100000


class _ScandirIterator:
    def __init__(self, entries):
        self._it = iter(entries)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)

    def close(self):
        self._it = iter(())

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()


def scandir(path=None):
    if path is None:
        path = "."
    if isinstance(path, int) and not isinstance(path, bool):
        raise OSError(95, "Operation not supported")
    raw = fspath(path)
    as_bytes = isinstance(raw, bytes)
    p = _path(path)
    shown = raw if raw not in ("", b"") else ("." if not as_bytes else b".")
    entries = [DirEntry._make(shown, n, k, i, as_bytes) for (n, k, i) in _sb.scandir(p)]
    return _ScandirIterator(entries)


def mkdir(path, mode=0o777, *, dir_fd=None):
    _no_dir_fd(dir_fd)
    _sb.mkdir(_path(path), mode)


def rmdir(path, *, dir_fd=None):
    _no_dir_fd(dir_fd)
    _sb.rmdir(_path(path))


def unlink(path, *, dir_fd=None):
    _no_dir_fd(dir_fd)
    _sb.unlink(_path(path))


remove = unlink


def rename(src, dst, *, src_dir_fd=None, dst_dir_fd=None):
    _no_dir_fd(src_dir_fd)
    _no_dir_fd(dst_dir_fd)
    _sb.rename(_path(src, "src"), _path(dst, "dst"))


replace = rename


def link(src, dst, *, src_dir_fd=None, dst_dir_fd=None, follow_symlinks=True):
    _sb.link(_path(src, "src"), _path(dst, "dst"))


def symlink(src, dst, target_is_directory=False, *, dir_fd=None):
    _no_dir_fd(dir_fd)
    _sb.symlink(_path(src, "src"), _path(dst, "dst"))


def readlink(path, *, dir_fd=None):
    _no_dir_fd(dir_fd)
    r = _sb.readlink(_path(path))
    if isinstance(fspath(path), bytes):
        return r.encode("utf-8", "surrogateescape")
    return r


def chmod(path, mode, *, dir_fd=None, follow_symlinks=True):
    _no_dir_fd(dir_fd)
    if isinstance(path, int) and not isinstance(path, bool):
        return _sb.fchmod(path, mode)
    _sb.chmod(_path(path), mode, follow_symlinks)


def fchmod(fd, mode):
    _sb.fchmod(fd, mode)


def lchmod(path, mode):
    _sb.chmod(_path(path), mode, False)


def chown(path, uid, gid, *, dir_fd=None, follow_symlinks=True):
    _no_dir_fd(dir_fd)
    _sb.chown(_path(path), uid, gid, follow_symlinks)


def lchown(path, uid, gid):
    _sb.chown(_path(path), uid, gid, False)


def utime(path, times=None, *, ns=None, dir_fd=None, follow_symlinks=True):
    _no_dir_fd(dir_fd)
    if times is not None and ns is not None:
        raise ValueError("utime: you may specify either 'times' or 'ns' but not both")
    if times is not None:
        if not isinstance(times, tuple) or len(times) != 2:
            raise TypeError("utime: 'times' must be either a tuple of two ints or None")
        a, m = (int(t * 1_000_000_000) for t in times)
    elif ns is not None:
        if not isinstance(ns, tuple) or len(ns) != 2:
            raise TypeError("utime: 'ns' must be a tuple of two ints")
        a, m = ns
    else:
        a = m = None
    _sb.utime(_path(path), a, m, follow_symlinks)


def mkfifo(path, mode=0o666, *, dir_fd=None):
    _no_dir_fd(dir_fd)
    _sb.mkfifo(_path(path), mode)


def umask(mask):
    return _sb.umask(mask)


def strerror(code):
    return _sb.strerror(code)


def urandom(n):
    if n < 0:
        raise ValueError("negative argument not allowed")
    return _sb.urandom(n)


def getpid():
    return _sb.getpid()


def getppid():
    return _sb.getppid()


def getuid():
    return _sb.ids()[0]


def geteuid():
    return _sb.ids()[0]


def getgid():
    return _sb.ids()[1]


def getegid():
    return _sb.ids()[1]


def getgroups():
    return [_sb.ids()[1]]


def getlogin():
    return _sb.login()


def cpu_count():
    return 1


def process_cpu_count():
    return 1


def uname():
    return uname_result(_sb.uname())


def times():
    return times_result((0.0, 0.0, 0.0, 0.0, 0.0))


def get_terminal_size(fd=1):
    raise OSError(25, "Inappropriate ioctl for device")


def putenv(key, value):
    _sb.putenv(key if isinstance(key, str) else key.decode("utf-8", "surrogateescape"),
               value if isinstance(value, str) else value.decode("utf-8", "surrogateescape"))


def unsetenv(key):
    _sb.unsetenv(key if isinstance(key, str) else key.decode("utf-8", "surrogateescape"))


def _create_environ():
    return {k.encode("utf-8", "surrogateescape"): v.encode("utf-8", "surrogateescape") for k, v in _sb.environ()}


environ = _create_environ()


def _exit(code):
    _sb.exit(code)


def abort():
    _sb.exit(134)


def register_at_fork(*, before=None, after_in_child=None, after_in_parent=None):
    pass


def kill(pid, sig):
    raise PermissionError(1, "Operation not permitted")


def _denied(name):
    def f(*a, **k):
        raise PermissionError(1, f"Operation not permitted: {name} is not available in the sandbox")
    f.__name__ = name
    return f


for _n in ("system", "fork", "execv", "execve", "execvp", "execvpe", "posix_spawn", "posix_spawnp",
           "waitpid", "wait", "pipe", "setsid", "setuid", "setgid", "chroot", "nice", "killpg"):
    globals()[_n] = _denied(_n)
del _n


def fsencode(filename):
    filename = fspath(filename)
    return filename.encode("utf-8", "surrogateescape") if isinstance(filename, str) else filename


def fsdecode(filename):
    filename = fspath(filename)
    return filename.decode("utf-8", "surrogateescape") if isinstance(filename, bytes) else filename


def waitstatus_to_exitcode(status):
    if status & 0x7F == 0:
        return (status >> 8) & 0xFF
    return -(status & 0x7F)


def WIFEXITED(s):
    return s & 0x7F == 0


def WEXITSTATUS(s):
    return (s >> 8) & 0xFF


def WIFSIGNALED(s):
    return ((s & 0x7F) + 1) >> 1 > 0 and s & 0x7F != 0x7F


def WTERMSIG(s):
    return s & 0x7F


__all__ = [n for n in dict(globals()) if not n.startswith("_") and n not in ("error",)] + ["error"]
