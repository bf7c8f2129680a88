//! The persistent in-memory filesystem: an inode table in `imbl` maps, so `snapshot()`
//! and `fork()` are O(1) clones and a write copies only what it touches.
//!
//! All paths given to [`Fs`] are absolute virtual paths (`/workspace/a.txt`); callers
//! resolve relative paths against their cwd first (see [`path::join`]).
//!
//! ```
//! use shellbox::fs::{Clock, Errno, Fs};
//! let mut fs = Fs::new(Clock::virtual_at(0));
//! fs.write_file("/workspace/a.txt", b"one\n")?;
//! let before = fs.snapshot();
//! fs.append_file("/workspace/a.txt", b"two\n")?;
//! assert_eq!(fs.read_file("/workspace/a.txt")?.as_slice(), b"one\ntwo\n");
//! assert_eq!(before.read_file("/workspace/a.txt")?.as_slice(), b"one\n");
//! assert_eq!(fs.read_file("/workspace/nope").map_err(|e| e.errno), Err(Errno::ENOENT));
//! # Ok::<(), shellbox::fs::FsError>(())
//! ```
//!
//! Layout of this module: `inode` (what an inode holds, the permission rule),
//! `resolve` (path resolution), `content` (file data: read, write, open, truncate),
//! `namespace` (directory entries: mkdir, unlink, rename, links), `attrs` (chmod, chown,
//! times), `layout` (the default tree), `host` (files seeded from a host directory,
//! looked at on first use), `image` (the inode table as plain data, for the durable
//! store) and [`model`] (a reference model for tests).

mod attrs;
mod clock;
mod content;
mod errno;
mod host;
mod image;
mod inode;
mod layout;
pub mod model;
mod namespace;
pub mod path;
mod resolve;
mod sched;

use std::sync::{Arc, Mutex, MutexGuard};

use imbl::OrdMap;

pub use clock::{Clock, Hold, Lane, LaneGuard, blocked, blocked_on, current_waker, tick};
pub use errno::{Errno, FsError, FsResult};
pub(crate) use host::{HostRoot, SeedDir, SeedEntry, SeedKind};
pub use image::{FsImage, InodeImage, NodeImage};
use inode::{Inode, Node};
pub use namespace::NamedFiles;
use resolve::Follow;
pub use sched::{Blocked, Waker};

/// An inode number.
pub type Ino = u64;

/// The inode number of `/`.
pub const ROOT_INO: Ino = 1;

pub(crate) const NANOS_PER_SEC: i64 = 1_000_000_000;

/// A point in virtual time: seconds and nanoseconds since the Unix epoch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    pub secs: i64,
    pub nanos: u32,
}

impl Timestamp {
    /// A timestamp `secs` seconds after the epoch.
    ///
    /// ```
    /// let t = shellbox::fs::Timestamp::from_secs(5);
    /// assert_eq!((t.secs, t.nanos), (5, 0));
    /// ```
    pub fn from_secs(secs: i64) -> Timestamp {
        Timestamp { secs, nanos: 0 }
    }

    /// The timestamp `nanos` nanoseconds after the epoch (negative: before it).
    ///
    /// ```
    /// let t = shellbox::fs::Timestamp::from_nanos(-1);
    /// assert_eq!((t.secs, t.nanos), (-1, 999_999_999));
    /// ```
    pub fn from_nanos(nanos: i64) -> Timestamp {
        Timestamp {
            secs: nanos.div_euclid(NANOS_PER_SEC),
            nanos: u32::try_from(nanos.rem_euclid(NANOS_PER_SEC)).unwrap_or(0),
        }
    }

    /// Nanoseconds since the epoch, saturating at the ends of `i64` (years ±292).
    pub fn as_nanos(self) -> i64 {
        self.secs
            .saturating_mul(NANOS_PER_SEC)
            .saturating_add(i64::from(self.nanos))
    }
}

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

impl Device {
    /// Every device, in the order `/dev` lists them.
    pub const ALL: [Device; 9] = [
        Device::Full,
        Device::Null,
        Device::Random,
        Device::Stderr,
        Device::Stdin,
        Device::Stdout,
        Device::Tty,
        Device::Urandom,
        Device::Zero,
    ];

    /// The name under `/dev`.
    ///
    /// ```
    /// assert_eq!(shellbox::fs::Device::Urandom.name(), "urandom");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Device::Null => "null",
            Device::Zero => "zero",
            Device::Full => "full",
            Device::Random => "random",
            Device::Urandom => "urandom",
            Device::Stdin => "stdin",
            Device::Stdout => "stdout",
            Device::Stderr => "stderr",
            Device::Tty => "tty",
        }
    }
}

/// The kind of an inode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileType {
    File,
    Dir,
    Symlink,
    Device(Device),
    /// A named pipe (mkfifo): it holds no data; opening it meets the other end.
    Fifo,
}

impl FileType {
    pub fn is_file(self) -> bool {
        self == FileType::File
    }
    pub fn is_dir(self) -> bool {
        self == FileType::Dir
    }
    pub fn is_symlink(self) -> bool {
        self == FileType::Symlink
    }
    pub fn is_fifo(self) -> bool {
        self == FileType::Fifo
    }
    /// The kind in one word, as the language bindings name it (`file`, `directory`,
    /// `symlink`, `device`, `fifo`).
    ///
    /// ```
    /// use shellbox::fs::{Device, FileType};
    /// assert_eq!(FileType::Dir.kind_name(), "directory");
    /// assert_eq!(FileType::Device(Device::Null).kind_name(), "device");
    /// ```
    pub fn kind_name(self) -> &'static str {
        match self {
            FileType::File => "file",
            FileType::Dir => "directory",
            FileType::Symlink => "symlink",
            FileType::Device(_) => "device",
            FileType::Fifo => "fifo",
        }
    }
    /// The type letter `ls -l` prints (`-`, `d`, `l`, `c`, `p`).
    ///
    /// ```
    /// use shellbox::fs::{Device, FileType};
    /// assert_eq!(FileType::Device(Device::Null).ls_char(), 'c');
    /// ```
    pub fn ls_char(self) -> char {
        match self {
            FileType::File => '-',
            FileType::Dir => 'd',
            FileType::Symlink => 'l',
            FileType::Device(_) => 'c',
            FileType::Fifo => 'p',
        }
    }
}

/// What stat(2) reports.
///
/// Sizes: a regular file's length, 4096 for a directory, the target's length for a
/// symlink, 0 for a device or a FIFO.
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

impl Metadata {
    pub fn is_file(&self) -> bool {
        self.file_type.is_file()
    }
    pub fn is_dir(&self) -> bool {
        self.file_type.is_dir()
    }
    pub fn is_symlink(&self) -> bool {
        self.file_type.is_symlink()
    }
}

/// One directory entry, as returned (sorted by name) by [`Fs::read_dir`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirEntry {
    pub name: String,
    pub ino: Ino,
    pub file_type: FileType,
}

/// How [`Fs::open`] opens a file (O_RDONLY, O_WRONLY|O_CREAT|O_TRUNC, ...).
///
/// Neither `write` nor `append` means read-only (O_RDONLY is 0), whatever `read` says.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenOptions {
    pub read: bool,
    pub write: bool,
    pub append: bool,
    pub create: bool,
    pub truncate: bool,
    /// O_EXCL with create: fail with EEXIST if it exists (noclobber uses this).
    pub exclusive: bool,
    /// The permission bits a file it creates gets, the caller's umask already applied
    /// (open(2)'s mode argument); `None` is 0644, `0666` under the usual umask.
    pub mode: Option<u32>,
}

impl OpenOptions {
    /// `<`: O_RDONLY.
    pub fn read() -> OpenOptions {
        OpenOptions {
            read: true,
            ..OpenOptions::default()
        }
    }
    /// `>`: O_WRONLY|O_CREAT|O_TRUNC.
    pub fn write_truncate() -> OpenOptions {
        OpenOptions {
            write: true,
            create: true,
            truncate: true,
            ..OpenOptions::default()
        }
    }
    /// `>>`: O_WRONLY|O_CREAT|O_APPEND.
    pub fn append() -> OpenOptions {
        OpenOptions {
            write: true,
            append: true,
            create: true,
            ..OpenOptions::default()
        }
    }
}

/// Size limits enforced by the filesystem.
///
/// Exceeding `max_total_bytes` or `max_files` gives ENOSPC, `max_file_bytes` EFBIG, and
/// `max_path_depth` (components of a canonical path) or `max_name_len` (bytes of one
/// component) ENAMETOOLONG; the failing operation changes nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FsLimits {
    pub max_total_bytes: u64,
    pub max_file_bytes: u64,
    pub max_files: u64,
    pub max_path_depth: usize,
    pub max_name_len: usize,
}

impl Default for FsLimits {
    /// 1 GiB in total, 256 MiB per file, a million inodes, 256 levels, 255-byte names.
    fn default() -> FsLimits {
        FsLimits {
            max_total_bytes: 1 << 30,
            max_file_bytes: 256 << 20,
            max_files: 1_000_000,
            max_path_depth: 256,
            max_name_len: 255,
        }
    }
}

/// A size or count limit of [`FsLimits`] that refused an operation. The filesystem
/// remembers the last one per thread (see [`take_limit_hit`]) so the interpreter can end
/// the script that hit it, while the command itself still sees EFBIG/ENOSPC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitHit {
    /// `max_file_bytes`.
    FileBytes(u64),
    /// `max_total_bytes`.
    TotalBytes(u64),
    /// `max_files`.
    Files(u64),
}

impl std::fmt::Display for LimitHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LimitHit::FileBytes(n) => write!(f, "file size limit exceeded ({n} bytes)"),
            LimitHit::TotalBytes(n) => write!(f, "filesystem size limit exceeded ({n} bytes)"),
            LimitHit::Files(n) => write!(f, "file count limit exceeded ({n} files)"),
        }
    }
}

thread_local! {
    static LIMIT_HIT: std::cell::Cell<Option<LimitHit>> = const { std::cell::Cell::new(None) };
}

/// The limit a filesystem operation on this thread last refused, cleared by the call.
pub fn take_limit_hit() -> Option<LimitHit> {
    LIMIT_HIT.with(|c| c.take())
}

/// The filesystem. Cloning is O(1) and the clone is fully isolated from later writes.
#[derive(Clone)]
pub struct Fs {
    inodes: OrdMap<Ino, Inode>,
    next_ino: Ino,
    /// Bytes held by regular files (kept incrementally for `usage`).
    file_bytes: u64,
    /// Inodes in the table.
    inode_count: u64,
    /// Bytes read from seeded host files and still held (shared by snapshots, which
    /// share those bytes too).
    host_budget: Arc<host::HostBudget>,
    limits: FsLimits,
    clock: Clock,
    uid: u32,
    gid: u32,
}

impl std::fmt::Debug for Fs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fs")
            .field("inodes", &self.inode_count)
            .field("file_bytes", &self.file_bytes)
            .field("uid", &self.uid)
            .field("gid", &self.gid)
            .finish_non_exhaustive()
    }
}

/// The default acting user and group.
pub const DEFAULT_UID: u32 = 1000;
/// The default acting group.
pub const DEFAULT_GID: u32 = 1000;

impl Fs {
    /// The error for an operation a size limit refuses, noting the limit for
    /// [`take_limit_hit`].
    pub(crate) fn limit_error(&self, hit: LimitHit) -> FsError {
        LIMIT_HIT.with(|c| c.set(Some(hit)));
        match hit {
            LimitHit::FileBytes(_) => Errno::EFBIG.into(),
            LimitHit::TotalBytes(_) | LimitHit::Files(_) => Errno::ENOSPC.into(),
        }
    }

    /// An empty filesystem holding only `/` (mode 0755, owned by root); the acting user
    /// is 1000/1000, so populate it as root (`set_user(0, 0)`) first.
    pub fn empty(clock: Clock) -> Fs {
        let root = Inode::new(Node::Dir(OrdMap::new()), 0o755, 0, 0, clock.now());
        Fs {
            inodes: OrdMap::unit(ROOT_INO, root),
            next_ino: ROOT_INO + 1,
            file_bytes: 0,
            inode_count: 1,
            host_budget: Arc::default(),
            limits: FsLimits::default(),
            clock,
            uid: DEFAULT_UID,
            gid: DEFAULT_GID,
        }
    }
    /// The default layout: /workspace, /home/user, /tmp (1777), /dev/{null,zero,full,random,
    /// urandom,stdin,stdout,stderr,tty}, /usr/bin and /bin linking to it, /etc,
    /// /proc/self (minimal).
    /// Files are owned by uid/gid 1000 except system dirs owned by 0.
    ///
    /// Also `/usr/local/bin`, `/dev/fd` (an empty directory: the interpreter resolves
    /// `/dev/fd/N` itself), `/etc/passwd`, `/etc/group`, `/etc/hostname` and `/root`.
    /// `/bin` and `/usr/bin` stay empty until [`Fs::install_commands`].
    pub fn new(clock: Clock) -> Fs {
        layout::default_layout(clock)
    }
    /// The same filesystem with other limits (existing content is not re-checked).
    pub fn with_limits(mut self, limits: FsLimits) -> Fs {
        self.limits = limits;
        self
    }
    pub fn limits(&self) -> FsLimits {
        self.limits
    }
    /// An O(1) read-only copy of the current state.
    pub fn snapshot(&self) -> Fs {
        self.clone()
    }
    /// An O(1) writable copy: changes to either side are invisible to the other (the
    /// same as `clone`, named for readers of session code).
    ///
    /// ```
    /// # use shellbox::fs::{Clock, Fs};
    /// let mut fs = Fs::new(Clock::virtual_at(0));
    /// let mut fork = fs.fork();
    /// fork.write_file("/tmp/x", b"fork only")?;
    /// assert!(!fs.exists("/tmp/x"));
    /// # Ok::<(), shellbox::fs::FsError>(())
    /// ```
    pub fn fork(&self) -> Fs {
        self.clone()
    }
    pub fn clock(&self) -> &Clock {
        &self.clock
    }
    /// Gives this filesystem another clock (a copy of a template gets its own, since
    /// clones share one).
    pub fn set_clock(&mut self, clock: Clock) {
        self.clock = clock;
    }
    /// The acting user for permission checks (default 1000/1000; uid 0 bypasses checks).
    pub fn set_user(&mut self, uid: u32, gid: u32) {
        self.uid = uid;
        self.gid = gid;
    }
    /// The acting user and group.
    pub fn user(&self) -> (u32, u32) {
        (self.uid, self.gid)
    }
    /// Runs `f` acting as root (the system's own files), then as the user again.
    pub fn as_root<R>(&mut self, f: impl FnOnce(&mut Fs) -> R) -> R {
        let (uid, gid) = self.user();
        self.set_user(0, 0);
        let r = f(self);
        self.set_user(uid, gid);
        r
    }
    /// stat(2): follows symlinks.
    pub fn stat(&self, path: &str) -> FsResult<Metadata> {
        let (_, ino) = self.walk_existing(path, Follow::Yes)?;
        self.stat_ino(ino)
    }
    /// lstat(2): a symlink in the final component is described, not followed (unless
    /// the path ends in `/`).
    pub fn lstat(&self, path: &str) -> FsResult<Metadata> {
        let (_, ino) = self.walk_existing(path, Follow::No)?;
        self.stat_ino(ino)
    }
    /// [`stat`](Self::stat) of a path that must be a directory (ENOTDIR otherwise), as
    /// for a directory to change into or write below.
    pub fn stat_dir(&self, path: &str) -> FsResult<Metadata> {
        let meta = self.stat(path)?;
        if meta.is_dir() {
            Ok(meta)
        } else {
            Err(Errno::ENOTDIR.into())
        }
    }
    /// fstat(2): EBADF if no inode has that number (any more).
    pub fn stat_ino(&self, ino: Ino) -> FsResult<Metadata> {
        Ok(self.inode(ino)?.metadata(ino))
    }
    /// [`stat_ino`](Self::stat_ino) for a walk that never uses `size` (`find -name`,
    /// `ls` without sizes): a seeded host file nothing has looked at yet is not looked
    /// at on the host for it, and its size reads 0. Other files are as `stat_ino` has
    /// them.
    ///
    /// ```
    /// # use shellbox::fs::{Clock, Fs};
    /// let mut fs = Fs::new(Clock::virtual_at(0));
    /// fs.write_file("/workspace/a", b"abc")?;
    /// let ino = fs.stat("/workspace/a")?.ino;
    /// assert_eq!(fs.stat_ino_unsized(ino)?, fs.stat_ino(ino)?);
    /// # Ok::<(), shellbox::fs::FsError>(())
    /// ```
    pub fn stat_ino_unsized(&self, ino: Ino) -> FsResult<Metadata> {
        let inode = self.inode(ino)?;
        Ok(match &inode.node {
            Node::Host(host) => inode.metadata_sized(ino, host.len_if_seen()),
            _ => inode.metadata(ino),
        })
    }
    pub fn exists(&self, path: &str) -> bool {
        self.stat(path).is_ok()
    }
    /// Whether the acting user may read/write/execute `path` (access(2)); follows symlinks.
    ///
    /// With all three false it only checks that the path resolves (F_OK).
    pub fn access(&self, path: &str, read: bool, write: bool, exec: bool) -> FsResult<()> {
        let (_, ino) = self.walk_existing(path, Follow::Yes)?;
        let want = (u32::from(read) * inode::R) | (u32::from(write) * inode::W) | u32::from(exec);
        if self.may(self.inode(ino)?, want) {
            Ok(())
        } else {
            Err(Errno::EACCES.into())
        }
    }
    /// [`Fs::access`] of an inode already open (faccessat through `/dev/fd/N`).
    pub fn access_ino(&self, ino: Ino, read: bool, write: bool, exec: bool) -> FsResult<()> {
        let want = (u32::from(read) * inode::R) | (u32::from(write) * inode::W) | u32::from(exec);
        if self.may(self.inode(ino)?, want) {
            Ok(())
        } else {
            Err(Errno::EACCES.into())
        }
    }
    /// Total bytes stored in regular files and the number of inodes (for limits and df).
    pub fn usage(&self) -> (u64, u64) {
        (self.file_bytes, self.inode_count)
    }

    fn inode(&self, ino: Ino) -> FsResult<&Inode> {
        self.inodes.get(&ino).ok_or_else(|| Errno::EBADF.into())
    }

    fn inode_mut(&mut self, ino: Ino) -> FsResult<&mut Inode> {
        self.inodes.get_mut(&ino).ok_or_else(|| Errno::EBADF.into())
    }

    /// Whether the acting user has the permissions in `want` on `inode`.
    fn may(&self, inode: &Inode, want: u32) -> bool {
        inode.permits(self.uid, self.gid, want)
    }

    fn now(&self) -> Timestamp {
        self.clock.now()
    }
}

/// A filesystem shared by the concurrent stages of a session.
///
/// Never hold the lock while blocking on a pipe: take what you need, or a
/// [`snapshot`](SharedFs::snapshot), and release it.
#[derive(Clone, Debug)]
pub struct SharedFs(Arc<Mutex<Fs>>, Arc<LiveFiles>);

/// What the open special files of a shared filesystem hold while they are open (a
/// FIFO's pipe, by inode): live state of the processes using it, never part of a
/// snapshot. The interpreter, which implements their I/O, decides what it keeps here.
#[derive(Default)]
pub struct LiveFiles(Mutex<std::collections::HashMap<Ino, Arc<dyn std::any::Any + Send + Sync>>>);

impl std::fmt::Debug for LiveFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LiveFiles")
    }
}

impl LiveFiles {
    /// The table, locked (a poisoned lock is recovered: entries are whole values).
    pub fn lock(
        &self,
    ) -> MutexGuard<'_, std::collections::HashMap<Ino, Arc<dyn std::any::Any + Send + Sync>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl SharedFs {
    pub fn new(fs: Fs) -> SharedFs {
        SharedFs(Arc::new(Mutex::new(fs)), Arc::default())
    }
    /// Locks the filesystem (a poisoned lock is recovered: the data is persistent).
    pub fn lock(&self) -> MutexGuard<'_, Fs> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// An O(1) copy of the current state.
    pub fn snapshot(&self) -> Fs {
        self.lock().clone()
    }
    /// The live state of its open special files (see [`LiveFiles`]).
    pub fn live(&self) -> &LiveFiles {
        &self.1
    }
}

/// Fixtures shared by the unit tests of the fs modules.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Clock, Errno, Fs, FsResult};

    /// The virtual time fixtures start at.
    pub(crate) const T0: i64 = 1_700_000_000;

    /// `Fs::new` acting as user 1000, plus under /workspace: `f` ("hello"), `d/`,
    /// `d/g` ("x"), `link -> f`, `dlink -> d`, `dangling -> nope`, `abs -> /workspace/d`.
    pub(crate) fn fixture() -> Fs {
        let mut fs = Fs::new(Clock::virtual_at(T0));
        let built = (|| -> FsResult<()> {
            fs.write_file("/workspace/f", b"hello")?;
            fs.mkdir("/workspace/d", 0o755)?;
            fs.write_file("/workspace/d/g", b"x")?;
            fs.symlink("f", "/workspace/link")?;
            fs.symlink("d", "/workspace/dlink")?;
            fs.symlink("nope", "/workspace/dangling")?;
            fs.symlink("/workspace/d", "/workspace/abs")?;
            Ok(())
        })();
        assert_eq!(built, Ok(()));
        fs
    }

    /// A result with only the errno kept, for comparing against tables.
    pub(crate) fn errno<T>(r: FsResult<T>) -> Result<T, Errno> {
        r.map_err(|e| e.errno)
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{T0, errno, fixture};
    use super::*;

    #[test]
    fn timestamp_nanos_round_trip() {
        for nanos in [
            0,
            1,
            -1,
            999_999_999,
            -1_000_000_001,
            1_700_000_000_123_456_789,
        ] {
            assert_eq!(Timestamp::from_nanos(nanos).as_nanos(), nanos);
        }
    }

    #[test]
    fn stat_follows_and_lstat_does_not() {
        let fs = fixture();
        let check = |path: &str, follow: bool, want: Result<(FileType, u64), Errno>| {
            let got = errno(if follow {
                fs.stat(path)
            } else {
                fs.lstat(path)
            });
            assert_eq!(got.map(|m| (m.file_type, m.size)), want, "{path} {follow}");
        };
        check("/workspace/f", true, Ok((FileType::File, 5)));
        check("/workspace/link", true, Ok((FileType::File, 5)));
        check("/workspace/link", false, Ok((FileType::Symlink, 1)));
        check("/workspace/dlink/", false, Ok((FileType::Dir, 4096)));
        check("/workspace/dangling", true, Err(Errno::ENOENT));
        check("/workspace/dangling", false, Ok((FileType::Symlink, 4)));
        check("/workspace/f/", true, Err(Errno::ENOTDIR));
        check("/workspace/link/", false, Err(Errno::ENOTDIR));
        check("/dev/null", true, Ok((FileType::Device(Device::Null), 0)));
        check("", true, Err(Errno::ENOENT));
    }

    #[test]
    fn stat_reports_owner_mode_links_and_times() -> FsResult<()> {
        let fs = fixture();
        let m = fs.stat("/workspace/f")?;
        assert_eq!((m.mode, m.uid, m.gid, m.nlink), (0o644, 1000, 1000, 1));
        assert_eq!(m.mtime, Timestamp::from_secs(T0));
        let d = fs.stat("/workspace/d")?;
        assert_eq!((d.mode, d.nlink), (0o755, 2));
        assert_eq!(fs.stat("/workspace")?.nlink, 3);
        assert_eq!(fs.stat_ino(m.ino)?, m);
        assert_eq!(errno(fs.stat_ino(999_999)), Err(Errno::EBADF));
        Ok(())
    }

    #[test]
    fn access_checks_the_acting_user() -> FsResult<()> {
        let mut fs = fixture();
        fs.chmod("/workspace/f", 0o640)?;
        let check = |fs: &Fs, rwx: (bool, bool, bool), want: Result<(), Errno>| {
            assert_eq!(errno(fs.access("/workspace/f", rwx.0, rwx.1, rwx.2)), want);
        };
        check(&fs, (true, true, false), Ok(()));
        check(&fs, (false, false, true), Err(Errno::EACCES));
        check(&fs, (false, false, false), Ok(()));
        fs.set_user(1001, 1000);
        check(&fs, (true, false, false), Ok(()));
        check(&fs, (false, true, false), Err(Errno::EACCES));
        fs.set_user(1001, 1001);
        check(&fs, (true, false, false), Err(Errno::EACCES));
        fs.set_user(0, 0);
        check(&fs, (true, true, false), Ok(()));
        check(&fs, (false, false, true), Err(Errno::EACCES));
        assert_eq!(fs.user(), (0, 0));
        assert_eq!(
            errno(fs.access("/workspace/nope", false, false, false)),
            Err(Errno::ENOENT)
        );
        Ok(())
    }

    #[test]
    fn clones_are_isolated_both_ways() -> FsResult<()> {
        let mut fs = fixture();
        let snap = fs.snapshot();
        let mut fork = fs.clone();
        fs.append_file("/workspace/f", b" world")?;
        fs.remove_all("/workspace/d")?;
        fork.write_file("/workspace/f", b"fork")?;
        fork.mkdir("/workspace/new", 0o700)?;
        assert_eq!(fs.read_file("/workspace/f")?.as_slice(), b"hello world");
        assert_eq!(fork.read_file("/workspace/f")?.as_slice(), b"fork");
        assert_eq!(snap.read_file("/workspace/f")?.as_slice(), b"hello");
        assert!(snap.exists("/workspace/d/g") && fork.exists("/workspace/d/g"));
        assert!(!fs.exists("/workspace/d") && !snap.exists("/workspace/new"));
        for fs in [&fs, &snap, &fork] {
            model::check_invariants(fs).map_err(|_| Errno::EINVAL)?;
        }
        Ok(())
    }

    #[test]
    fn filesystems_cross_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Fs>();
        send_sync::<SharedFs>();
        send_sync::<FsError>();
    }

    #[test]
    fn usage_counts_file_bytes_and_inodes() -> FsResult<()> {
        let mut fs = fixture();
        let (bytes, inodes) = fs.usage();
        fs.write_file("/workspace/n", b"12345")?;
        assert_eq!(fs.usage(), (bytes + 5, inodes + 1));
        fs.append_file("/workspace/n", b"67")?;
        fs.link("/workspace/n", "/workspace/n2")?;
        assert_eq!(fs.usage(), (bytes + 7, inodes + 1));
        fs.remove_file("/workspace/n")?;
        assert_eq!(fs.usage(), (bytes + 7, inodes + 1));
        fs.remove_file("/workspace/n2")?;
        assert_eq!(fs.usage(), (bytes, inodes));
        fs.remove_all("/workspace/d")?;
        assert_eq!(fs.usage(), (bytes - 1, inodes - 2));
        Ok(())
    }

    #[test]
    fn limits_round_trip() {
        let limits = FsLimits {
            max_files: 7,
            ..FsLimits::default()
        };
        let fs = Fs::empty(Clock::virtual_at(0)).with_limits(limits);
        assert_eq!(fs.limits(), limits);
        assert_eq!(FsLimits::default().max_total_bytes, 1 << 30);
        assert_eq!(fs.clock().now(), Timestamp::from_secs(0));
        assert_eq!(fs.usage(), (0, 1));
    }

    #[test]
    fn shared_fs_locks_and_snapshots() -> FsResult<()> {
        let shared = SharedFs::new(fixture());
        let snap = shared.snapshot();
        shared.lock().write_file("/workspace/f", b"new")?;
        assert_eq!(snap.read_file("/workspace/f")?.as_slice(), b"hello");
        assert_eq!(
            shared.clone().lock().read_file("/workspace/f")?.as_slice(),
            b"new"
        );
        Ok(())
    }
}
