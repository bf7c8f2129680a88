//! The interpreter thread: builds a RustPython interpreter without host access, gives
//! it the native `_shellbox` module (the sandbox's filesystem, streams, clock and
//! generator), runs the bootstrap and then the user's program, and reports its exit
//! status.

use std::collections::{BTreeMap, HashMap};
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use rustpython_vm::builtins::{PyBaseException, PyBaseExceptionRef, PyUtf8StrRef};
use rustpython_vm::common::rc::PyRc;
use rustpython_vm::compiler::Mode;
use rustpython_vm::function::{ArgBytesLike, ArgIntoFloat};
use rustpython_vm::scope::Scope;
use rustpython_vm::{AsObject, Interpreter, PyObjectRef, PyResult, Settings, VirtualMachine};

use super::Program;
use crate::fs::{Errno, FileType, FsError, Ino, Metadata, OpenOptions, SharedFs, Timestamp};

/// The deepest Python recursion a script may ask for (`sys.setrecursionlimit` is
/// capped here); with the interpreter thread's stack it keeps deep recursion a
/// `RecursionError`, never a stack overflow.
pub const MAX_RECURSION: usize = 4000;

/// The hash seed of every interpreter (`PYTHONHASHSEED`; str and bytes hashes, and so
/// the order of sets of them, are the same in every run).
const HASH_SEED: u32 = 0;

/// What the interpreter thread asks of the command's thread.
pub enum Request {
    /// Bytes for standard output (fd 1) or error (fd 2).
    Write {
        fd: i32,
        data: Vec<u8>,
        reply: mpsc::SyncSender<io::Result<()>>,
    },
    /// Up to `max` bytes of standard input (empty: end of file).
    Read {
        max: usize,
        reply: mpsc::SyncSender<io::Result<Vec<u8>>>,
    },
    /// `time.sleep`: virtual time passes.
    Sleep {
        nanos: i64,
        reply: mpsc::SyncSender<Result<(), String>>,
    },
    /// The virtual clock's time, in nanoseconds since the epoch.
    Now { reply: mpsc::SyncSender<i64> },
    /// The program ended with this status.
    Done(i32),
}

/// What the interpreter thread starts from.
pub struct Setup {
    pub fs: SharedFs,
    pub cwd: String,
    pub env: BTreeMap<String, String>,
    pub isolated: bool,
    pub umask: u32,
    pub uid: u32,
    pub gid: u32,
    pub pid: u32,
    pub seed: u64,
    pub clock: crate::fs::Clock,
    pub unbuffered: bool,
    pub tx: mpsc::Sender<Request>,
}

/// Stops a running interpreter from another thread: from its next instruction on,
/// every instruction raises, so the program unwinds and cannot catch its way on (the
/// interpreter's `interrupt` setting, a hook of our vendored rustpython-vm).
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// An open file of the interpreter.
enum Fd {
    Stdin,
    Stdout,
    Stderr,
    File {
        ino: Ino,
        pos: u64,
        read: bool,
        write: bool,
        append: bool,
    },
}

/// The state the `_shellbox` functions share.
struct Sandbox {
    fs: SharedFs,
    cwd: Mutex<String>,
    env: Mutex<BTreeMap<String, String>>,
    umask: Mutex<u32>,
    fds: Mutex<HashMap<i32, Fd>>,
    rng: Mutex<u64>,
    tx: mpsc::Sender<Request>,
    clock: crate::fs::Clock,
    ids: (u32, u32),
    pid: u32,
    unbuffered: bool,
}

impl Sandbox {
    fn abs(&self, path: &str) -> String {
        let cwd = lock(&self.cwd).clone();
        crate::fs::path::join(&cwd, path)
    }

    fn next_u64(&self) -> u64 {
        // splitmix64 over the session's seed: the same session replays the same bytes.
        let mut s = lock(&self.rng);
        *s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Error numbers the filesystem never produces but the interpreter's calls do.
const EPIPE: (i32, &str) = (32, "Broken pipe");
const EMFILE: (i32, &str) = (24, "Too many open files");
const ESPIPE: (i32, &str) = (29, "Illegal seek");
const EOPNOTSUPP: (i32, &str) = (95, "Operation not supported");

/// An `OSError` (the subclass its errno selects) for `err` on `path`.
fn os_error(vm: &VirtualMachine, errno: Errno, path: Option<&str>) -> PyBaseExceptionRef {
    os_error_code(vm, (errno.code(), errno.strerror()), path)
}

/// An `OSError` for a raw error number and its text.
fn os_error_code(
    vm: &VirtualMachine,
    (code, msg): (i32, &str),
    path: Option<&str>,
) -> PyBaseExceptionRef {
    let ty = vm.ctx.exceptions.os_error.to_owned();
    let made = match path {
        Some(p) => ty.as_object().call((code, msg, p.to_owned()), vm),
        None => ty.as_object().call((code, msg), vm),
    };
    match made {
        Ok(obj) => match obj.downcast::<PyBaseException>() {
            Ok(e) => e,
            Err(_) => vm.new_os_error(msg.to_owned()),
        },
        Err(e) => e,
    }
}

fn fs_err(vm: &VirtualMachine, e: FsError, path: &str) -> PyBaseExceptionRef {
    if let Some(hit) = crate::fs::take_limit_hit() {
        return vm.new_os_error(hit.to_string());
    }
    os_error(vm, e.errno, Some(path))
}

fn type_bits(t: FileType) -> u32 {
    match t {
        FileType::File => 0o100000,
        FileType::Dir => 0o040000,
        FileType::Symlink => 0o120000,
        FileType::Fifo => 0o010000,
        FileType::Device(_) => 0o020000,
    }
}

/// stat(2)'s fields as `posix.stat_result` takes them: mode, ino, dev, nlink, uid, gid,
/// size, and the three times in nanoseconds.
type StatTuple = PyObjectRef;

fn int_list(vm: &VirtualMachine, v: &[i64]) -> PyObjectRef {
    vm.ctx
        .new_list(v.iter().map(|n| vm.ctx.new_int(*n).into()).collect())
        .into()
}

fn stat_tuple(vm: &VirtualMachine, m: &Metadata) -> StatTuple {
    let big = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    int_list(
        vm,
        &[
            i64::from(type_bits(m.file_type) | (m.mode & 0o7777)),
            big(m.ino),
            0x803,
            i64::from(m.nlink),
            i64::from(m.uid),
            i64::from(m.gid),
            big(m.size),
            m.atime.as_nanos(),
            m.mtime.as_nanos(),
            m.ctime.as_nanos(),
        ],
    )
}

fn bad_fd(vm: &VirtualMachine) -> PyBaseExceptionRef {
    os_error(vm, Errno::EBADF, None)
}

/// Sends a request and waits for its answer; a command thread that is gone (the run
/// was stopped) is an I/O error.
fn ask<T>(
    sb: &Sandbox,
    make: impl FnOnce(mpsc::SyncSender<T>) -> Request,
) -> Result<T, &'static str> {
    let (reply, answer) = mpsc::sync_channel(1);
    sb.tx.send(make(reply)).map_err(|_| "the shell is gone")?;
    answer.recv().map_err(|_| "the shell is gone")
}

fn io_to_py(vm: &VirtualMachine, e: &io::Error) -> PyBaseExceptionRef {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return os_error_code(vm, EPIPE, None);
    }
    vm.new_os_error(e.to_string())
}

/// Builds the `_shellbox` module.
fn native_module(vm: &VirtualMachine, sb: &Arc<Sandbox>) -> PyResult<PyObjectRef> {
    let dict = vm.ctx.new_dict();
    macro_rules! func {
        ($name:literal, $f:expr) => {
            dict.set_item($name, vm.new_function($name, $f).into(), vm)?;
        };
    }

    func!("posix_source", |vm: &VirtualMachine| -> PyObjectRef {
        vm.ctx.new_str(include_str!("posix.py")).into()
    });
    let s = Arc::clone(sb);
    func!("unbuffered", move || -> bool { s.unbuffered });
    func!("max_recursion", || -> usize { MAX_RECURSION });

    let s = Arc::clone(sb);
    func!("stat", move |path: PyUtf8StrRef,
                        follow: bool,
                        vm: &VirtualMachine|
          -> PyResult<StatTuple> {
        let abs = s.abs(path.as_str());
        let fs = s.fs.lock();
        let m = if follow {
            fs.stat(&abs)
        } else {
            fs.lstat(&abs)
        };
        m.map(|m| stat_tuple(vm, &m))
            .map_err(|e| fs_err(vm, e, path.as_str()))
    });
    let s = Arc::clone(sb);
    func!("fstat", move |fd: i32,
                         vm: &VirtualMachine|
          -> PyResult<StatTuple> {
        let fds = lock(&s.fds);
        match fds.get(&fd) {
            Some(Fd::File { ino, .. }) => {
                let fs = s.fs.lock();
                fs.stat_ino(*ino)
                    .map(|m| stat_tuple(vm, &m))
                    .map_err(|e| os_error(vm, e.errno, None))
            }
            Some(_) => Ok(int_list(
                vm,
                &[
                    0o010600,
                    0,
                    0x803,
                    1,
                    i64::from(s.ids.0),
                    i64::from(s.ids.1),
                    0,
                    0,
                    0,
                    0,
                ],
            )),
            None => Err(bad_fd(vm)),
        }
    });
    let s = Arc::clone(sb);
    func!("access", move |path: PyUtf8StrRef, mode: u32| -> bool {
        let abs = s.abs(path.as_str());
        let fs = s.fs.lock();
        if mode == 0 {
            return fs.stat(&abs).is_ok();
        }
        fs.access(&abs, mode & 4 != 0, mode & 2 != 0, mode & 1 != 0)
            .is_ok()
    });
    let s = Arc::clone(sb);
    func!("open", move |path: PyUtf8StrRef,
                        flags: i32,
                        mode: u32,
                        vm: &VirtualMachine|
          -> PyResult<i32> {
        let p = path.as_str();
        let special = match p {
            "/dev/stdin" | "/dev/fd/0" => Some(Fd::Stdin),
            "/dev/stdout" | "/dev/fd/1" => Some(Fd::Stdout),
            "/dev/stderr" | "/dev/fd/2" => Some(Fd::Stderr),
            _ => None,
        };
        let entry = match special {
            Some(fd) => fd,
            None => {
                let abs = s.abs(p);
                let acc = flags & 3;
                let umask = *lock(&s.umask);
                let opts = OpenOptions {
                    read: acc == 0 || acc == 2,
                    write: acc == 1 || acc == 2,
                    append: flags & 0o2000 != 0,
                    create: flags & 0o100 != 0,
                    truncate: flags & 0o1000 != 0,
                    exclusive: flags & 0o200 != 0,
                    mode: Some(mode & !umask & 0o7777),
                };
                let mut fs = s.fs.lock();
                if flags & 0o200000 != 0 {
                    let m = fs.stat(&abs).map_err(|e| fs_err(vm, e, p))?;
                    if !m.is_dir() {
                        return Err(os_error(vm, Errno::ENOTDIR, Some(p)));
                    }
                }
                let ino = match fs.stat(&abs) {
                    Ok(m) if m.is_dir() => {
                        if opts.write || opts.append {
                            return Err(os_error(vm, Errno::EISDIR, Some(p)));
                        }
                        fs.access(&abs, true, false, false)
                            .map_err(|e| fs_err(vm, e, p))?;
                        m.ino
                    }
                    _ => fs.open(&abs, opts).map_err(|e| fs_err(vm, e, p))?,
                };
                Fd::File {
                    ino,
                    pos: 0,
                    read: opts.read,
                    write: opts.write,
                    append: opts.append,
                }
            }
        };
        let mut fds = lock(&s.fds);
        if fds.len() >= 1024 {
            return Err(os_error_code(vm, EMFILE, Some(p)));
        }
        let fd = (0..).find(|n| !fds.contains_key(n)).unwrap_or(0);
        fds.insert(fd, entry);
        Ok(fd)
    });
    let s = Arc::clone(sb);
    func!("close", move |fd: i32,
                         vm: &VirtualMachine|
          -> PyResult<()> {
        match lock(&s.fds).remove(&fd) {
            Some(_) => Ok(()),
            None => Err(bad_fd(vm)),
        }
    });
    let s = Arc::clone(sb);
    func!("dup", move |fd: i32,
                       vm: &VirtualMachine|
          -> PyResult<i32> {
        let mut fds = lock(&s.fds);
        let copy = match fds.get(&fd) {
            Some(Fd::Stdin) => Fd::Stdin,
            Some(Fd::Stdout) => Fd::Stdout,
            Some(Fd::Stderr) => Fd::Stderr,
            Some(Fd::File {
                ino,
                pos,
                read,
                write,
                append,
            }) => Fd::File {
                ino: *ino,
                pos: *pos,
                read: *read,
                write: *write,
                append: *append,
            },
            None => return Err(bad_fd(vm)),
        };
        let new = (0..).find(|n| !fds.contains_key(n)).unwrap_or(0);
        fds.insert(new, copy);
        Ok(new)
    });
    let s = Arc::clone(sb);
    func!("read", move |fd: i32,
                        n: usize,
                        vm: &VirtualMachine|
          -> PyResult<PyObjectRef> {
        let mut fds = lock(&s.fds);
        let data = match fds.get_mut(&fd) {
            Some(Fd::Stdin) => {
                drop(fds);
                match ask(&s, |reply| Request::Read { max: n, reply }) {
                    Ok(Ok(d)) => d,
                    Ok(Err(e)) => return Err(io_to_py(vm, &e)),
                    Err(m) => return Err(vm.new_os_error(m.to_owned())),
                }
            }
            Some(Fd::File { ino, pos, read, .. }) => {
                if !*read {
                    return Err(bad_fd(vm));
                }
                let fs = s.fs.lock();
                let d = fs
                    .read_at(*ino, *pos, n)
                    .map_err(|e| os_error(vm, e.errno, None))?
                    .to_vec();
                *pos += d.len() as u64;
                d
            }
            Some(_) | None => return Err(bad_fd(vm)),
        };
        Ok(vm.ctx.new_bytes(data).into())
    });
    let s = Arc::clone(sb);
    func!("write", move |fd: i32,
                         data: ArgBytesLike,
                         vm: &VirtualMachine|
          -> PyResult<usize> {
        let bytes = data.borrow_buf().to_vec();
        let len = bytes.len();
        let mut fds = lock(&s.fds);
        match fds.get_mut(&fd) {
            Some(Fd::Stdout) | Some(Fd::Stderr) => {
                let which = if matches!(fds.get(&fd), Some(Fd::Stderr)) {
                    2
                } else {
                    1
                };
                drop(fds);
                match ask(&s, |reply| Request::Write {
                    fd: which,
                    data: bytes,
                    reply,
                }) {
                    Ok(Ok(())) => Ok(len),
                    Ok(Err(e)) => Err(io_to_py(vm, &e)),
                    Err(m) => Err(vm.new_os_error(m.to_owned())),
                }
            }
            Some(Fd::File {
                ino,
                pos,
                write,
                append,
                ..
            }) => {
                if !*write && !*append {
                    return Err(bad_fd(vm));
                }
                let mut fs = s.fs.lock();
                if *append {
                    *pos = fs
                        .stat_ino(*ino)
                        .map_err(|e| os_error(vm, e.errno, None))?
                        .size;
                }
                *pos = fs.write_at(*ino, *pos, &bytes).map_err(|e| {
                    if let Some(hit) = crate::fs::take_limit_hit() {
                        return vm.new_os_error(hit.to_string());
                    }
                    os_error(vm, e.errno, None)
                })?;
                Ok(len)
            }
            Some(Fd::Stdin) | None => Err(bad_fd(vm)),
        }
    });
    let s = Arc::clone(sb);
    func!("lseek", move |fd: i32,
                         off: i64,
                         how: i32,
                         vm: &VirtualMachine|
          -> PyResult<u64> {
        let mut fds = lock(&s.fds);
        match fds.get_mut(&fd) {
            Some(Fd::File { ino, pos, .. }) => {
                let base = match how {
                    0 => 0i64,
                    1 => i64::try_from(*pos).unwrap_or(i64::MAX),
                    2 => {
                        let fs = s.fs.lock();
                        let size = fs
                            .stat_ino(*ino)
                            .map_err(|e| os_error(vm, e.errno, None))?
                            .size;
                        i64::try_from(size).unwrap_or(i64::MAX)
                    }
                    _ => return Err(os_error(vm, Errno::EINVAL, None)),
                };
                let new = base.checked_add(off).filter(|n| *n >= 0);
                match new {
                    Some(n) => {
                        *pos = n as u64;
                        Ok(*pos)
                    }
                    None => Err(os_error(vm, Errno::EINVAL, None)),
                }
            }
            Some(_) => Err(os_error_code(vm, ESPIPE, None)),
            None => Err(bad_fd(vm)),
        }
    });
    let s = Arc::clone(sb);
    func!("ftruncate", move |fd: i32,
                             len: u64,
                             vm: &VirtualMachine|
          -> PyResult<()> {
        let fds = lock(&s.fds);
        match fds.get(&fd) {
            Some(Fd::File { ino, write, .. }) if *write => {
                s.fs.lock()
                    .truncate_ino(*ino, len)
                    .map_err(|e| os_error(vm, e.errno, None))
            }
            Some(_) => Err(os_error(vm, Errno::EINVAL, None)),
            None => Err(bad_fd(vm)),
        }
    });
    let s = Arc::clone(sb);
    func!("truncate", move |path: PyUtf8StrRef,
                            len: u64,
                            vm: &VirtualMachine|
          -> PyResult<()> {
        let abs = s.abs(path.as_str());
        s.fs.lock()
            .truncate(&abs, len)
            .map_err(|e| fs_err(vm, e, path.as_str()))
    });
    let s = Arc::clone(sb);
    func!("getcwd", move || -> String { lock(&s.cwd).clone() });
    let s = Arc::clone(sb);
    func!("chdir", move |path: PyUtf8StrRef,
                         vm: &VirtualMachine|
          -> PyResult<()> {
        let abs = s.abs(path.as_str());
        let fs = s.fs.lock();
        let m = fs.stat(&abs).map_err(|e| fs_err(vm, e, path.as_str()))?;
        if !m.is_dir() {
            return Err(os_error(vm, Errno::ENOTDIR, Some(path.as_str())));
        }
        fs.access(&abs, false, false, true)
            .map_err(|e| fs_err(vm, e, path.as_str()))?;
        drop(fs);
        *lock(&s.cwd) = abs;
        Ok(())
    });
    let s = Arc::clone(sb);
    func!("listdir", move |path: PyUtf8StrRef,
                           vm: &VirtualMachine|
          -> PyResult<PyObjectRef> {
        let abs = s.abs(path.as_str());
        let fs = s.fs.lock();
        fs.read_dir(&abs)
            .map(|v| {
                vm.ctx
                    .new_list(
                        v.into_iter()
                            .map(|e| vm.ctx.new_str(e.name).into())
                            .collect(),
                    )
                    .into()
            })
            .map_err(|e| fs_err(vm, e, path.as_str()))
    });
    let s = Arc::clone(sb);
    func!("scandir", move |path: PyUtf8StrRef,
                           vm: &VirtualMachine|
          -> PyResult<PyObjectRef> {
        let abs = s.abs(path.as_str());
        let fs = s.fs.lock();
        fs.read_dir(&abs)
            .map(|v| {
                let items = v
                    .into_iter()
                    .map(|e| {
                        let kind = match e.file_type {
                            FileType::Dir => "d",
                            FileType::Symlink => "l",
                            FileType::File => "f",
                            _ => "o",
                        };
                        vm.new_tuple((e.name, kind, e.ino)).into()
                    })
                    .collect();
                vm.ctx.new_list(items).into()
            })
            .map_err(|e| fs_err(vm, e, path.as_str()))
    });
    macro_rules! path_op {
        ($name:literal, |$fs:ident, $abs:ident, $um:ident $(, $arg:ident : $ty:ty)*| $body:expr) => {
            let s = Arc::clone(sb);
            func!(
                $name,
                move |path: PyUtf8StrRef, $($arg: $ty,)* vm: &VirtualMachine| -> PyResult<()> {
                    let $abs = s.abs(path.as_str());
                    let $um = *lock(&s.umask);
                    let _ = $um;
                    let mut $fs = s.fs.lock();
                    $body.map_err(|e| fs_err(vm, e, path.as_str()))
                }
            );
        };
    }
    path_op!("mkdir", |fs, abs, umask, mode: u32| fs
        .mkdir(&abs, mode & !umask & 0o7777));
    path_op!("rmdir", |fs, abs, umask| fs.remove_dir(&abs));
    path_op!("unlink", |fs, abs, umask| {
        match fs.lstat(&abs) {
            Ok(m) if m.is_dir() => Err(FsError::from(Errno::EISDIR)),
            _ => fs.remove_file(&abs),
        }
    });
    path_op!("mkfifo", |fs, abs, umask, mode: u32| fs
        .mkfifo(&abs, mode & !umask & 0o7777));
    path_op!("chmod", |fs, abs, umask, mode: u32, follow: bool| {
        if follow {
            fs.chmod(&abs, mode)
        } else {
            match fs.lstat(&abs) {
                Ok(m) if m.is_symlink() => Err(FsError::from(Errno::EPERM)),
                _ => fs.chmod(&abs, mode),
            }
        }
    });
    path_op!("chown", |fs,
                       abs,
                       umask,
                       uid: i64,
                       gid: i64,
                       follow: bool| {
        let u = u32::try_from(uid).ok();
        let g = u32::try_from(gid).ok();
        if follow {
            fs.chown(&abs, u, g)
        } else {
            fs.lchown(&abs, u, g)
        }
    });
    path_op!("utime", |fs,
                       abs,
                       umask,
                       atime: Option<i64>,
                       mtime: Option<i64>,
                       follow: bool| {
        let a = atime.map(Timestamp::from_nanos);
        let m = mtime.map(Timestamp::from_nanos);
        if follow {
            fs.set_times(&abs, a, m)
        } else {
            fs.lset_times(&abs, a, m)
        }
    });
    func!("fchmod", |_fd: i32,
                     _mode: u32,
                     vm: &VirtualMachine|
     -> PyResult<()> {
        Err(os_error_code(vm, EOPNOTSUPP, None))
    });
    macro_rules! two_path_op {
        ($name:literal, |$fs:ident, $a:ident, $b:ident| $body:expr) => {
            let s = Arc::clone(sb);
            func!($name, move |src: PyUtf8StrRef,
                               dst: PyUtf8StrRef,
                               vm: &VirtualMachine|
                  -> PyResult<()> {
                let $a = s.abs(src.as_str());
                let $b = s.abs(dst.as_str());
                let mut $fs = s.fs.lock();
                $body.map_err(|e| {
                    if let Some(hit) = crate::fs::take_limit_hit() {
                        return vm.new_os_error(hit.to_string());
                    }
                    let code = e.errno.code();
                    let msg = e.errno.strerror();
                    let ty = vm.ctx.exceptions.os_error.to_owned();
                    match ty.as_object().call(
                        (
                            code,
                            msg,
                            src.as_str().to_owned(),
                            0,
                            dst.as_str().to_owned(),
                        ),
                        vm,
                    ) {
                        Ok(obj) => match obj.downcast::<PyBaseException>() {
                            Ok(e) => e,
                            Err(_) => vm.new_os_error(msg.to_owned()),
                        },
                        Err(e) => e,
                    }
                })
            });
        };
    }
    two_path_op!("rename", |fs, a, b| fs.rename(&a, &b));
    two_path_op!("link", |fs, a, b| fs.link(&a, &b));
    let s = Arc::clone(sb);
    func!("symlink", move |target: PyUtf8StrRef,
                           link: PyUtf8StrRef,
                           vm: &VirtualMachine|
          -> PyResult<()> {
        let abs = s.abs(link.as_str());
        s.fs.lock()
            .symlink(target.as_str(), &abs)
            .map_err(|e| fs_err(vm, e, link.as_str()))
    });
    let s = Arc::clone(sb);
    func!("readlink", move |path: PyUtf8StrRef,
                            vm: &VirtualMachine|
          -> PyResult<String> {
        let abs = s.abs(path.as_str());
        s.fs.lock()
            .readlink(&abs)
            .map_err(|e| fs_err(vm, e, path.as_str()))
    });
    let s = Arc::clone(sb);
    func!("umask", move |mask: u32| -> u32 {
        std::mem::replace(&mut *lock(&s.umask), mask & 0o777)
    });
    func!("strerror", |code: i32| -> String {
        Errno::ALL
            .iter()
            .map(|e| (e.code(), e.strerror()))
            .chain([EPIPE, EMFILE, ESPIPE, EOPNOTSUPP])
            .find(|(c, _)| *c == code)
            .map(|(_, m)| m.to_owned())
            .unwrap_or_else(|| format!("Unknown error {code}"))
    });
    let s = Arc::clone(sb);
    func!("urandom", move |n: usize,
                           vm: &VirtualMachine|
          -> PyResult<PyObjectRef> {
        if n > 1 << 24 {
            return Err(vm.new_memory_error("urandom: too many bytes".to_owned()));
        }
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            out.extend_from_slice(&s.next_u64().to_le_bytes());
        }
        out.truncate(n);
        Ok(vm.ctx.new_bytes(out).into())
    });
    let s = Arc::clone(sb);
    func!("getpid", move || -> u32 { s.pid });
    func!("getppid", || -> u32 { 1 });
    let s = Arc::clone(sb);
    func!("ids", move || -> (u32, u32) { s.ids });
    let s = Arc::clone(sb);
    func!("login", move || -> String {
        crate::commands::util::user_name(s.ids.0)
    });
    func!(
        "uname",
        || -> (&'static str, &'static str, &'static str, &'static str, &'static str) {
            ("Linux", "shellbox", "6.1.0", "#1 SMP", "x86_64")
        }
    );
    let s = Arc::clone(sb);
    func!("environ", move |vm: &VirtualMachine| -> PyObjectRef {
        let items = lock(&s.env)
            .iter()
            .map(|(k, v)| vm.new_tuple((k.clone(), v.clone())).into())
            .collect();
        vm.ctx.new_list(items).into()
    });
    let s = Arc::clone(sb);
    func!("putenv", move |k: PyUtf8StrRef, v: PyUtf8StrRef| {
        lock(&s.env).insert(k.as_str().to_owned(), v.as_str().to_owned());
    });
    let s = Arc::clone(sb);
    func!("unsetenv", move |k: PyUtf8StrRef| {
        lock(&s.env).remove(k.as_str());
    });
    func!("exit", |code: i32, vm: &VirtualMachine| -> PyResult<()> {
        Err(vm.new_exception(
            vm.ctx.exceptions.system_exit.to_owned(),
            vec![vm.ctx.new_int(code).into()],
        ))
    });
    let s = Arc::clone(sb);
    func!("time_ns", move || -> i64 { now(&s) });
    let s = Arc::clone(sb);
    func!("time", move || -> f64 { now(&s) as f64 / 1e9 });
    let s = Arc::clone(sb);
    func!("sleep", move |secs: ArgIntoFloat,
                         vm: &VirtualMachine|
          -> PyResult<()> {
        let secs = f64::from(secs);
        if !secs.is_finite() || secs < 0.0 {
            return Err(vm.new_value_error("sleep length must be non-negative".to_owned()));
        }
        let nanos = (secs * 1e9).min(i64::MAX as f64) as i64;
        match ask(&s, |reply| Request::Sleep { nanos, reply }) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(m)) => Err(vm.new_os_error(m)),
            Err(m) => Err(vm.new_os_error(m.to_owned())),
        }
    });
    Ok(vm.new_module("_shellbox", dict, None).into())
}

/// The session's virtual time in nanoseconds, as the command's thread sees it.
fn now(sb: &Sandbox) -> i64 {
    ask(sb, |reply| Request::Now { reply }).unwrap_or_else(|_| sb.clock.now().as_nanos())
}

/// How an interpreter ended, before the command's thread is told.
pub struct Finished {
    /// Whether the thread may run another interpreter: not if this one panicked or was
    /// stopped mid-way, which may leave the thread's RustPython statics half-updated.
    pub fit: bool,
    code: i32,
    tx: mpsc::Sender<Request>,
}

impl Finished {
    /// Tells the command's thread the exit status.
    pub fn report(self) {
        let _ = self.tx.send(Request::Done(self.code));
    }
}

/// Runs the program on this (the interpreter's) thread; [`Finished::report`] then
/// gives its status to the command's thread.
pub fn run_interpreter(
    setup: Setup,
    program: Program,
    argv: Vec<String>,
    stop_tx: mpsc::Sender<Arc<StopHandle>>,
) -> Finished {
    let tx = setup.tx.clone();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        interpret(setup, program, argv, stop_tx)
    }));
    let (code, fit) = match result {
        Ok((code, stopped)) => (code, !stopped),
        Err(_) => (70, false),
    };
    Finished { fit, code, tx }
}

fn interpret(
    setup: Setup,
    program: Program,
    argv: Vec<String>,
    stop_tx: mpsc::Sender<Arc<StopHandle>>,
) -> (i32, bool) {
    let mut settings = Settings::default();
    settings.argv = argv;
    settings.isolated = setup.isolated;
    // One seed for every interpreter: the interned strings of a thread's `Context`
    // outlive its interpreters with their hashes cached, so an interpreter hashing with
    // another seed misses them in every dict (the third interpreter of a reused thread
    // found `builtins` empty). Fixed rather than per process, so that runs replay.
    settings.hash_seed = Some(HASH_SEED);
    settings.install_signal_handlers = false;
    settings.import_site = false;
    settings.allow_external_library = false;
    settings.user_site_directory = false;
    settings.safe_path = true;
    settings.buffered_stdio = !setup.unbuffered;
    let interrupt = Arc::new(AtomicBool::new(false));
    settings.interrupt = Some(Arc::clone(&interrupt));
    let _ = stop_tx.send(Arc::new(StopHandle(Arc::clone(&interrupt))));
    let mut fds = HashMap::new();
    fds.insert(0, Fd::Stdin);
    fds.insert(1, Fd::Stdout);
    fds.insert(2, Fd::Stderr);
    let sb = Arc::new(Sandbox {
        fs: setup.fs,
        cwd: Mutex::new(setup.cwd),
        env: Mutex::new(setup.env),
        umask: Mutex::new(setup.umask),
        fds: Mutex::new(fds),
        rng: Mutex::new(setup.seed),
        tx: setup.tx,
        clock: setup.clock,
        ids: (setup.uid, setup.gid),
        pid: setup.pid,
        unbuffered: setup.unbuffered,
    });
    let builder = Interpreter::builder(settings);
    let defs = rustpython_stdlib::stdlib_module_defs(&builder.ctx);
    let interp = builder
        .add_native_modules(&defs)
        .add_frozen_modules(rustpython_pylib::FROZEN_STDLIB)
        .init_hook(|vm| {
            if let Some(state) = PyRc::get_mut(&mut vm.state) {
                state.config.paths.stdlib_dir = Some(rustpython_pylib::LIB_PATH.to_owned());
            }
        })
        .build();
    let status = interp.enter(|vm| {
        let status = match start(vm, &sb, program) {
            Ok(()) => 0,
            Err(exc) => exit_status(vm, &sb, exc),
        };
        flush_std(vm);
        status
    });
    // Finalizing (atexit, then every object of this interpreter collected and
    // untracked) is not optional: the collector's object lists are shared by every
    // interpreter of the thread, and one dropped without it leaves them dangling.
    let _ = interp.finalize(None);
    (status, interrupt.load(Ordering::SeqCst))
}

/// Installs `_shellbox`, runs the bootstrap, then the program.
fn start(vm: &VirtualMachine, sb: &Arc<Sandbox>, program: Program) -> PyResult<()> {
    let module = native_module(vm, sb)?;
    let modules = vm.sys_module.get_attr("modules", vm)?;
    modules.set_item("_shellbox", module, vm)?;
    let boot = vm.new_scope_with_builtins();
    run_source(
        vm,
        boot,
        include_str!("bootstrap.py"),
        "<shellbox bootstrap>",
    )?;
    let cwd = lock(&sb.cwd).clone();
    let path_list = vm.sys_module.get_attr("path", vm)?;
    match &program {
        Program::Script { path, .. } if path != "<stdin>" => {
            let dir = crate::fs::path::parent(path).to_owned();
            vm.call_method(&path_list, "insert", (0, dir))?;
        }
        Program::Module(_) => {
            vm.call_method(&path_list, "insert", (0, cwd))?;
        }
        _ => {
            vm.call_method(&path_list, "insert", (0, ""))?;
        }
    }
    match program {
        Program::Code(code) => {
            let scope = vm.new_scope_with_main()?;
            run_source(vm, scope, &code, "<string>")
        }
        Program::Script { source, path } => {
            let text = match String::from_utf8(source) {
                Ok(t) => t,
                Err(e) => {
                    let msg = format!(
                        "(unicode error) 'utf-8' codec can't decode byte 0x{:02x} in position {}: invalid start byte",
                        e.as_bytes()
                            .get(e.utf8_error().valid_up_to())
                            .copied()
                            .unwrap_or(0),
                        e.utf8_error().valid_up_to()
                    );
                    return Err(
                        vm.new_exception_msg(vm.ctx.exceptions.syntax_error.to_owned(), msg.into())
                    );
                }
            };
            let scope = vm.new_scope_with_main()?;
            if path != "<stdin>" {
                scope
                    .globals
                    .set_item("__file__", vm.ctx.new_str(path.clone()).into(), vm)?;
            }
            run_source(vm, scope, &text, &path)
        }
        Program::Module(name) => {
            vm.new_scope_with_main()?;
            let runpy = vm.import("runpy", 0)?;
            let run_module = runpy.get_attr("_run_module_as_main", vm)?;
            run_module.call((name, true), vm)?;
            Ok(())
        }
    }
}

fn run_source(vm: &VirtualMachine, scope: Scope, source: &str, path: &str) -> PyResult<()> {
    let code = vm
        .compile(source, Mode::Exec, path.to_owned())
        .map_err(|err| vm.new_syntax_error(&err, Some(source)))?;
    if let Ok(linecache) = vm.import("linecache", 0)
        && let Ok(register) = linecache.get_attr("_register_code", vm)
    {
        let _ = register.call(
            (
                code.as_object().to_owned(),
                vm.ctx.new_str(source),
                vm.ctx.new_str(path),
            ),
            vm,
        );
    }
    vm.run_code_obj(code, scope).map(|_| ())
}

/// The exit status of an uncaught exception, after printing it as CPython does
/// (`SystemExit`: its code, or its message and 1).
fn exit_status(vm: &VirtualMachine, sb: &Arc<Sandbox>, exc: PyBaseExceptionRef) -> i32 {
    if exc.fast_isinstance(vm.ctx.exceptions.system_exit) {
        let args = exc.args();
        let arg = match args.as_slice() {
            [] => return 0,
            [one] => one.clone(),
            _ => args.as_object().to_owned(),
        };
        if vm.is_none(&arg) {
            return 0;
        }
        if let Ok(i) = arg.try_to_value::<i64>(vm) {
            return (i & 0xff) as i32;
        }
        flush_std(vm);
        let text = match arg.str(vm) {
            Ok(s) => s.to_string_lossy().into_owned(),
            Err(_) => String::new(),
        };
        write_err(sb, &format!("{text}\n"));
        return 1;
    }
    flush_std(vm);
    let mut text = String::new();
    let hook = vm.sys_module.get_attr("excepthook", vm);
    let default_hook = vm.sys_module.get_attr("__excepthook__", vm);
    let custom = match (&hook, &default_hook) {
        (Ok(h), Ok(d)) => !h.is(d),
        _ => false,
    };
    if custom && let Ok(h) = hook {
        let (t, v, tb) = vm.split_exception(exc.clone());
        if h.call((t, v, tb), vm).is_ok() {
            return 1;
        }
    }
    if vm.write_exception(&mut text, &exc).is_err() {
        text.push_str("(the exception could not be printed)\n");
    }
    write_err(sb, &text);
    1
}

/// Writes to the command's standard error directly (the Python stream may be gone).
fn write_err(sb: &Arc<Sandbox>, text: &str) {
    let _ = ask(sb, |reply| Request::Write {
        fd: 2,
        data: text.as_bytes().to_vec(),
        reply,
    });
}

fn flush_std(vm: &VirtualMachine) {
    for name in ["stdout", "stderr"] {
        if let Ok(stream) = vm.sys_module.get_attr(name, vm)
            && !vm.is_none(&stream)
        {
            let _ = vm.call_method(&stream, "flush", ());
        }
    }
}
