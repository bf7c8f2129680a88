//! The persistent in-memory filesystem: an inode table in `imbl` maps, so `snapshot()`
//! and `fork()` are O(1) clones and a write copies only what it touches.
//!
//! All paths given to [`Fs`] are absolute virtual paths (`/workspace/a.txt`); callers
//! resolve relative paths against their cwd first (see [`path::join`]).
// SKELETON: the public API below is the contract; bodies are being implemented.
#![allow(unused_variables, dead_code, clippy::todo)]

pub mod path;

use std::sync::{Arc, Mutex, MutexGuard};

/// An inode number.
pub type Ino = u64;

/// A point in virtual time: seconds and nanoseconds since the Unix epoch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    pub secs: i64,
    pub nanos: u32,
}

/// The clock that stamps mtimes; shared by every clone of a filesystem and by the shell.
#[derive(Clone, Debug)]
pub struct Clock(Arc<std::sync::atomic::AtomicI64>);

impl Clock {
    /// A virtual clock starting at `secs` since the epoch.
    pub fn virtual_at(secs: i64) -> Clock {
        todo!()
    }
    /// The current virtual time.
    pub fn now(&self) -> Timestamp {
        todo!()
    }
    /// Moves the clock forward by `nanos` (sleep).
    pub fn advance(&self, nanos: i64) {
        todo!()
    }
    /// Sets the clock.
    pub fn set(&self, t: Timestamp) {
        todo!()
    }
}

/// POSIX error kinds, displayed with strerror's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Errno {
    ENOENT,
    EEXIST,
    ENOTDIR,
    EISDIR,
    ENOTEMPTY,
    EACCES,
    EPERM,
    ELOOP,
    EINVAL,
    ENOSPC,
    EFBIG,
    ENAMETOOLONG,
    EXDEV,
    EBUSY,
    EBADF,
}

impl Errno {
    /// strerror(3) text, e.g. "No such file or directory".
    pub fn strerror(self) -> &'static str {
        todo!()
    }
}

/// A failed filesystem operation: the error kind (the path is the caller's to print).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FsError {
    pub errno: Errno,
}
impl std::fmt::Display for FsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.errno.strerror())
    }
}
impl std::error::Error for FsError {}
impl From<Errno> for FsError {
    fn from(errno: Errno) -> FsError {
        FsError { errno }
    }
}

pub type FsResult<T> = Result<T, FsError>;

/// Special files under /dev.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Device {
    Null,
    Zero,
    Full,
    Random,
    Urandom,
    Stdin,
    Stdout,
    Stderr,
    Tty,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileType {
    File,
    Dir,
    Symlink,
    Device(Device),
}

/// What stat(2) reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Metadata {
    pub ino: Ino,
    pub file_type: FileType,
    /// Permission bits (0o7777).
    pub mode: u32,
    pub nlink: u32,
    pub uid: u32,
    pub gid: u32,
    pub size: u64,
    pub atime: Timestamp,
    pub mtime: Timestamp,
    pub ctime: Timestamp,
}

/// One directory entry, as returned (sorted by name) by [`Fs::read_dir`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    pub name: String,
    pub ino: Ino,
    pub file_type: FileType,
}

/// How [`Fs::open`] opens a file (O_RDONLY, O_WRONLY|O_CREAT|O_TRUNC, ...).
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenOptions {
    pub read: bool,
    pub write: bool,
    pub append: bool,
    pub create: bool,
    pub truncate: bool,
    /// O_EXCL with create: fail with EEXIST if it exists (noclobber uses this).
    pub exclusive: bool,
}

/// Size limits enforced by the filesystem.
#[derive(Clone, Copy, Debug)]
pub struct FsLimits {
    pub max_total_bytes: u64,
    pub max_file_bytes: u64,
    pub max_files: u64,
    pub max_path_depth: usize,
    pub max_name_len: usize,
}

/// The filesystem. Cloning is O(1) and the clone is fully isolated from later writes.
#[derive(Clone, Debug)]
pub struct Fs {}

impl Fs {
    /// An empty filesystem holding only `/` (mode 0755).
    pub fn empty(clock: Clock) -> Fs {
        todo!()
    }
    /// The default layout: /workspace, /home/user, /tmp (1777), /dev/{null,zero,full,random,
    /// urandom,stdin,stdout,stderr,tty}, /bin, /usr/bin, /etc, /proc/self (minimal).
    /// Files are owned by uid/gid 1000 except system dirs owned by 0.
    pub fn new(clock: Clock) -> Fs {
        todo!()
    }
    pub fn with_limits(self, limits: FsLimits) -> Fs {
        todo!()
    }
    pub fn limits(&self) -> FsLimits {
        todo!()
    }
    /// An O(1) read-only copy of the current state.
    pub fn snapshot(&self) -> Fs {
        self.clone()
    }
    pub fn clock(&self) -> &Clock {
        todo!()
    }
    /// The acting user for permission checks (default 1000/1000; uid 0 bypasses checks).
    pub fn set_user(&mut self, uid: u32, gid: u32) {
        todo!()
    }
    pub fn stat(&self, path: &str) -> FsResult<Metadata> {
        todo!()
    }
    pub fn lstat(&self, path: &str) -> FsResult<Metadata> {
        todo!()
    }
    pub fn stat_ino(&self, ino: Ino) -> FsResult<Metadata> {
        todo!()
    }
    pub fn exists(&self, path: &str) -> bool {
        self.stat(path).is_ok()
    }
    /// Whether the acting user may read/write/execute `path` (access(2)); follows symlinks.
    pub fn access(&self, path: &str, read: bool, write: bool, exec: bool) -> FsResult<()> {
        todo!()
    }
    /// The whole content of a regular file (EISDIR for directories).
    pub fn read_file(&self, path: &str) -> FsResult<Arc<Vec<u8>>> {
        todo!()
    }
    /// Creates or truncates `path` and writes `data` (mode 0644 for a new file).
    pub fn write_file(&mut self, path: &str, data: &[u8]) -> FsResult<()> {
        todo!()
    }
    /// Appends to `path`, creating it if needed.
    pub fn append_file(&mut self, path: &str, data: &[u8]) -> FsResult<()> {
        todo!()
    }
    /// open(2): resolves (creating/truncating as asked, checking permissions) and returns
    /// the inode; later I/O goes through the `*_ino` calls. Opening a directory for
    /// writing is EISDIR; opening a device returns its inode.
    pub fn open(&mut self, path: &str, opts: OpenOptions) -> FsResult<Ino> {
        todo!()
    }
    /// Reads up to `len` bytes at `offset` of a regular file inode.
    pub fn read_at(&self, ino: Ino, offset: u64, len: usize) -> FsResult<&[u8]> {
        todo!()
    }
    /// The content of a regular file inode.
    pub fn content(&self, ino: Ino) -> FsResult<Arc<Vec<u8>>> {
        todo!()
    }
    /// Writes at `offset` (zero-filling any gap); returns the new end offset.
    pub fn write_at(&mut self, ino: Ino, offset: u64, data: &[u8]) -> FsResult<u64> {
        todo!()
    }
    pub fn truncate(&mut self, path: &str, len: u64) -> FsResult<()> {
        todo!()
    }
    pub fn truncate_ino(&mut self, ino: Ino, len: u64) -> FsResult<()> {
        todo!()
    }
    /// mkdir(2): EEXIST if present, ENOENT if the parent is missing.
    pub fn mkdir(&mut self, path: &str, mode: u32) -> FsResult<()> {
        todo!()
    }
    /// mkdir -p: creates missing parents; Ok if it already is a directory.
    pub fn mkdir_all(&mut self, path: &str, mode: u32) -> FsResult<()> {
        todo!()
    }
    /// Entries of a directory sorted by name (no `.`/`..`).
    pub fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        todo!()
    }
    /// unlink(2) (EISDIR on a directory).
    pub fn remove_file(&mut self, path: &str) -> FsResult<()> {
        todo!()
    }
    /// rmdir(2) (ENOTEMPTY unless empty).
    pub fn remove_dir(&mut self, path: &str) -> FsResult<()> {
        todo!()
    }
    /// rm -rf of one path (does not follow a symlink at `path`).
    pub fn remove_all(&mut self, path: &str) -> FsResult<()> {
        todo!()
    }
    /// rename(2) with POSIX rules (replace a file or empty dir, EINVAL into itself, ...).
    pub fn rename(&mut self, from: &str, to: &str) -> FsResult<()> {
        todo!()
    }
    /// link(2): a hard link to a non-directory.
    pub fn link(&mut self, existing: &str, new: &str) -> FsResult<()> {
        todo!()
    }
    /// symlink(2): `linkpath` pointing at `target` (stored verbatim).
    pub fn symlink(&mut self, target: &str, linkpath: &str) -> FsResult<()> {
        todo!()
    }
    pub fn readlink(&self, path: &str) -> FsResult<String> {
        todo!()
    }
    /// realpath(3): the canonical absolute path, all symlinks resolved; must exist.
    pub fn canonicalize(&self, path: &str) -> FsResult<String> {
        todo!()
    }
    pub fn chmod(&mut self, path: &str, mode: u32) -> FsResult<()> {
        todo!()
    }
    pub fn chown(&mut self, path: &str, uid: Option<u32>, gid: Option<u32>) -> FsResult<()> {
        todo!()
    }
    /// Sets atime/mtime (None = now).
    pub fn set_times(
        &mut self,
        path: &str,
        atime: Option<Timestamp>,
        mtime: Option<Timestamp>,
    ) -> FsResult<()> {
        todo!()
    }
    /// Total bytes stored in regular files and the number of inodes (for limits and df).
    pub fn usage(&self) -> (u64, u64) {
        todo!()
    }
}

/// A filesystem shared by the concurrent stages of a session.
///
/// Never hold the lock while blocking on a pipe: take what you need, or a
/// [`snapshot`](SharedFs::snapshot), and release it.
#[derive(Clone, Debug)]
pub struct SharedFs(Arc<Mutex<Fs>>);

impl SharedFs {
    pub fn new(fs: Fs) -> SharedFs {
        SharedFs(Arc::new(Mutex::new(fs)))
    }
    /// Locks the filesystem (a poisoned lock is recovered: the data is persistent).
    pub fn lock(&self) -> MutexGuard<'_, Fs> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// An O(1) copy of the current state.
    pub fn snapshot(&self) -> Fs {
        self.lock().clone()
    }
}
