//! Files seeded from a host directory (the CLI's `--root`, a template's seed folder),
//! looked at lazily so that overlaying a large tree costs one directory listing rather
//! than a `stat` and a read of every file.
//!
//! Seeding lists the tree (names and kinds) and makes [`Node::Host`] inodes; a file's
//! size and identity are taken from the host the first time the sandbox needs either
//! (a `stat`, a read, a write), and its bytes on the first read. From that first look
//! on the file is fixed: one replaced or resized on the host since reads as EIO rather
//! than its new contents.
//!
//! The host is only ever read, and only below the seeded directory: every lookup is
//! made relative to a descriptor of that directory and refuses symlinks at every step
//! (`openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`, or `openat` one component
//! at a time with `O_NOFOLLOW` where the kernel lacks it), so a directory swapped for a
//! link after listing leads nowhere.
//!
//! Limits: seeding creates inodes like any other creation (count, depth and name
//! limits apply then). A file's bytes are counted against the filesystem's limits when
//! first read: one larger than `max_file_bytes` reads as EFBIG, and bytes read from the
//! host, for as long as any snapshot holds them, count against `max_total_bytes`
//! alongside what is in memory (ENOSPC once they would not fit).

use std::io::Read;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use imbl::OrdMap;
use rustix::fs::{Mode, OFlags};

use super::inode::{Inode, Node, W, X};
use super::namespace::check_symlink_target;
use super::{Errno, Fs, FsError, FsResult, Ino, LimitHit};

/// A seeded host directory, held open so that later lookups start from the directory
/// that was listed, wherever its path leads by then.
#[derive(Debug)]
pub(crate) struct HostRoot {
    fd: OwnedFd,
    path: PathBuf,
}

impl HostRoot {
    /// Opens host directory `path` (the caller's choice: symlinks on the way to it are
    /// followed, none below it ever are).
    pub(crate) fn open(path: &Path) -> std::io::Result<HostRoot> {
        let fd = rustix::fs::open(
            path,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(HostRoot {
            fd,
            path: path.to_owned(),
        })
    }

    /// Another descriptor of the directory itself (with its own listing position).
    pub(crate) fn reopen(&self) -> std::io::Result<OwnedFd> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        Ok(rustix::fs::openat(&self.fd, ".", flags, Mode::empty())?)
    }

    /// The host path of `rel` below this directory, for messages.
    pub(crate) fn display_path(&self, rel: &Path) -> PathBuf {
        self.path.join(rel)
    }

    /// Opens `rel` (relative, never `..`) below this directory without following a
    /// symlink anywhere on the way.
    pub(crate) fn open_beneath(&self, rel: &Path, flags: OFlags) -> std::io::Result<OwnedFd> {
        let flags = flags | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::ResolveFlags;
            let resolve =
                ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
            match rustix::fs::openat2(&self.fd, rel, flags, Mode::empty(), resolve) {
                // No openat2 (before Linux 5.6, or filtered out): one step at a time.
                Err(rustix::io::Errno::NOSYS | rustix::io::Errno::PERM) => {}
                other => return other.map_err(Into::into),
            }
        }
        self.open_stepwise(rel, flags)
    }

    /// [`open_beneath`](Self::open_beneath) without `openat2`: `openat` one component
    /// at a time, none of them followed if it is a symlink.
    fn open_stepwise(&self, rel: &Path, flags: OFlags) -> std::io::Result<OwnedFd> {
        let mut parts = rel.components().peekable();
        let mut dir: Option<OwnedFd> = None;
        while let Some(part) = parts.next() {
            let std::path::Component::Normal(name) = part else {
                return Err(std::io::Error::from(std::io::ErrorKind::InvalidInput));
            };
            let at = match &dir {
                Some(fd) => fd,
                None => &self.fd,
            };
            let step = if parts.peek().is_some() {
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
            } else {
                flags
            };
            dir = Some(rustix::fs::openat(at, name, step, Mode::empty())?);
        }
        dir.ok_or_else(|| std::io::Error::from(std::io::ErrorKind::InvalidInput))
    }
}

/// Bytes of host files read into memory and still held (by any snapshot of the
/// filesystem they were seeded into), counted against `max_total_bytes`.
#[derive(Debug, Default)]
pub(crate) struct HostBudget(AtomicU64);

impl HostBudget {
    /// Takes `len` more bytes if the total stays within `cap`.
    fn take(&self, len: u64, cap: u64) -> bool {
        self.0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
                held.checked_add(len).filter(|&total| total <= cap)
            })
            .is_ok()
    }

    fn give_back(&self, len: u64) {
        // Never below zero: every give_back matches a take.
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
                Some(held.saturating_sub(len))
            });
    }
}

/// How a host file is opened just to look at it (no read permission needed, no
/// waiting on a FIFO put in its place).
#[cfg(target_os = "linux")]
const LOOK: OFlags = OFlags::PATH;
#[cfg(not(target_os = "linux"))]
const LOOK: OFlags = OFlags::RDONLY.union(OFlags::NONBLOCK);

/// What the first look at a host file found.
#[derive(Clone, Copy, Debug)]
struct Seen {
    len: u64,
    dev: u64,
    ino: u64,
}

impl Seen {
    /// The identity of what `fd` opened, if it is a regular file.
    fn of(fd: &OwnedFd) -> Result<Seen, Errno> {
        let st = rustix::fs::fstat(fd).map_err(|_| Errno::EIO)?;
        if rustix::fs::FileType::from_raw_mode(st.st_mode) != rustix::fs::FileType::RegularFile {
            return Err(Errno::EIO);
        }
        Ok(Seen {
            len: u64::try_from(st.st_size).map_err(|_| Errno::EIO)?,
            dev: st.st_dev,
            ino: st.st_ino,
        })
    }
}

/// A regular file listed in a seeded host directory.
#[derive(Debug)]
pub(crate) struct HostFile {
    root: Arc<HostRoot>,
    /// Where it is below `root`: its directory (shared by the directory's files) and
    /// its host name.
    dir: Arc<Path>,
    name: Box<[u8]>,
    budget: Arc<HostBudget>,
    /// The first look (kept when it failed too, so the file stays as it was seen).
    seen: OnceLock<Result<Seen, Errno>>,
    /// The bytes once read (a read failure is kept too, so a file reads the same way
    /// each time), shared by every snapshot.
    bytes: OnceLock<Result<Arc<Vec<u8>>, Errno>>,
}

impl Drop for HostFile {
    fn drop(&mut self) {
        if let Some(Ok(bytes)) = self.bytes.get() {
            self.budget.give_back(bytes.len() as u64);
        }
    }
}

impl HostFile {
    /// Its size: taken on the first look; 0 if it could not be looked at (its reads
    /// then fail with EIO).
    pub(crate) fn len(&self) -> u64 {
        self.seen().map_or(0, |seen| seen.len)
    }

    /// Its size if something has looked at it, 0 otherwise.
    pub(crate) fn len_if_seen(&self) -> u64 {
        match self.seen.get() {
            Some(Ok(seen)) => seen.len,
            _ => 0,
        }
    }

    /// Where on the host the file is, for error messages.
    pub(crate) fn path(&self) -> PathBuf {
        self.root.display_path(&self.rel())
    }

    /// Its path below the root.
    fn rel(&self) -> PathBuf {
        self.dir.join(std::ffi::OsStr::from_bytes(&self.name))
    }

    fn seen(&self) -> Result<Seen, Errno> {
        *self.seen.get_or_init(|| {
            let fd = self
                .root
                .open_beneath(&self.rel(), LOOK)
                .map_err(|_| Errno::EIO)?;
            Seen::of(&fd)
        })
    }

    /// The bytes, read on the first call after `room` agrees to hold them (`room` is
    /// asked again on a later call if it refused).
    fn bytes(&self, room: impl FnOnce(u64) -> FsResult<()>) -> FsResult<&Arc<Vec<u8>>> {
        if let Some(done) = self.bytes.get() {
            return kept(done);
        }
        let (seen, fd) = match self.open_as_seen() {
            Ok(opened) => opened,
            Err(e) => {
                let _ = self.seen.set(Err(e));
                return kept(self.bytes.get_or_init(|| Err(e)));
            }
        };
        room(seen.len)?;
        let mut ran = false;
        let done = self.bytes.get_or_init(|| {
            ran = true;
            read_exactly(std::fs::File::from(fd), seen.len)
        });
        // `room` took the bytes: give them back unless they are now held here.
        if !ran || done.is_err() {
            self.budget.give_back(seen.len);
        }
        kept(done)
    }

    /// Opens the file to read it as it was first seen: the file of the first look if
    /// there was one (another file in its place is EIO), else this one, which becomes
    /// the first look.
    fn open_as_seen(&self) -> Result<(Seen, OwnedFd), Errno> {
        let fd = self
            .root
            .open_beneath(&self.rel(), OFlags::RDONLY | OFlags::NONBLOCK)
            .map_err(|e| host_errno(&e))?;
        let now = Seen::of(&fd)?;
        match *self.seen.get_or_init(|| Ok(now)) {
            Ok(seen) if (seen.dev, seen.ino) == (now.dev, now.ino) => Ok((seen, fd)),
            _ => Err(Errno::EIO),
        }
    }
}

/// What an open of a host file that failed looks like in the sandbox: a file the host
/// process may not read is unreadable there too; anything else is an I/O error.
fn host_errno(e: &std::io::Error) -> Errno {
    match e.kind() {
        std::io::ErrorKind::PermissionDenied => Errno::EACCES,
        _ => Errno::EIO,
    }
}

/// A kept outcome of reading a host file, as the filesystem returns it.
fn kept(done: &Result<Arc<Vec<u8>>, Errno>) -> FsResult<&Arc<Vec<u8>>> {
    done.as_ref().map_err(|e| (*e).into())
}

/// All of `file` if it holds exactly `len` bytes (one it has grown or shrunk to since
/// it was first seen reads as EIO).
///
/// Each read asks for one byte more than is still expected, so a file that grew shows
/// it at once; having `len` bytes ends the reading without another read to meet the
/// end (the size came from `fstat` of this open file).
fn read_exactly(mut file: std::fs::File, len: u64) -> Result<Arc<Vec<u8>>, Errno> {
    let want = usize::try_from(len).map_err(|_| Errno::EFBIG)?;
    let mut data = vec![0; want.checked_add(1).ok_or(Errno::EFBIG)?];
    let mut got = 0;
    while got < want {
        let Some(room) = data.get_mut(got..) else {
            break;
        };
        match file.read(room) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Err(Errno::EIO),
        }
    }
    if got != want {
        return Err(Errno::EIO);
    }
    data.truncate(want);
    Ok(Arc::new(data))
}

/// A directory being seeded: its inode and the depth of its canonical path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SeedDir {
    ino: Ino,
    depth: usize,
    /// The host directory's permission bits, given to it by [`Fs::seed_done`] once its
    /// entries are in (until then it is writable, so they can be added); `None` for a
    /// directory that was there before seeding.
    mode: Option<u32>,
}

/// One entry of a listed host directory, as [`Fs::seed_entries`] adds it.
#[derive(Debug)]
pub(crate) struct SeedEntry {
    pub(crate) name: String,
    pub(crate) kind: SeedKind,
}

/// What a [`SeedEntry`] is.
#[derive(Debug)]
pub(crate) enum SeedKind {
    /// A directory with these permission bits.
    Dir(u32),
    /// A regular file: its directory's path below the [`HostRoot`], its name there,
    /// and its permission bits.
    File(Arc<Path>, Box<[u8]>, u32),
    /// A symlink with this target.
    Symlink(String),
}

impl Fs {
    /// Directory `path` (created with its parents if missing) as the place to seed into.
    pub(crate) fn seed_dir(&mut self, path: &str) -> FsResult<SeedDir> {
        self.mkdir_all(path, 0o755)?;
        let walk = self.walk(path, super::resolve::Follow::Yes)?;
        Ok(SeedDir {
            ino: walk.existing()?,
            depth: walk.depth(),
            mode: None,
        })
    }

    /// Gives seeded directory `dir` its host permission bits, now that its entries
    /// are in.
    pub(crate) fn seed_done(&mut self, dir: SeedDir) {
        if let (Some(mode), Ok(inode)) = (dir.mode, self.inode_mut(dir.ino)) {
            inode.mode = mode & 0o7777;
        }
    }

    /// Adds the entries of one listed host directory to `dir`, in order, each checked
    /// as any creation is (permission, depth, file count, name); a directory merges
    /// into one already there, anything else there is EEXIST. Returns one [`SeedDir`]
    /// per `SeedKind::Dir` entry, in order (pass each to [`Fs::seed_done`] once its
    /// own entries are in). On failure the entries before the one
    /// named in the error stay.
    pub(crate) fn seed_entries(
        &mut self,
        dir: SeedDir,
        root: &Arc<HostRoot>,
        entries: Vec<SeedEntry>,
    ) -> Result<Vec<SeedDir>, (String, FsError)> {
        let mut subdirs = Vec::new();
        let Some(first) = entries.first().map(|e| e.name.clone()) else {
            return Ok(subdirs);
        };
        let parent = self.inode(dir.ino).map_err(|e| (first.clone(), e))?;
        let Some(existing) = parent.entries() else {
            return Err((first, Errno::ENOTDIR.into()));
        };
        if !self.may(parent, W | X) {
            return Err((first, Errno::EACCES.into()));
        }
        if dir.depth + 1 > self.limits.max_path_depth {
            return Err((first, Errno::ENAMETOOLONG.into()));
        }
        let mut listing = existing.clone();
        let mut new_dirs = 0;
        let mut failed = None;
        for entry in entries {
            let wanted = match entry.kind {
                SeedKind::Dir(mode) => Some(mode),
                _ => None,
            };
            match self.seed_entry(&listing, root, entry.kind, &entry.name) {
                Ok((ino, is_dir, created)) => {
                    if is_dir {
                        subdirs.push(SeedDir {
                            ino,
                            depth: dir.depth + 1,
                            mode: wanted.filter(|_| created),
                        });
                        new_dirs += u32::from(created);
                    }
                    if created {
                        listing.insert(entry.name, ino);
                    }
                }
                Err(e) => {
                    failed = Some((entry.name, e));
                    break;
                }
            }
        }
        let now = self.now();
        if let Ok(parent) = self.inode_mut(dir.ino) {
            parent.node = Node::Dir(listing);
            parent.nlink = parent.nlink.saturating_add(new_dirs);
            parent.mtime = now;
            parent.ctime = now;
        }
        match failed {
            Some(failure) => Err(failure),
            None => Ok(subdirs),
        }
    }

    /// Makes the inode for entry `name` of a directory whose entries are `listing`, or
    /// finds the directory it merges into: its inode, whether it is a directory, and
    /// whether it is new (to be linked).
    fn seed_entry(
        &mut self,
        listing: &OrdMap<String, Ino>,
        root: &Arc<HostRoot>,
        kind: SeedKind,
        name: &str,
    ) -> FsResult<(Ino, bool, bool)> {
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\0']) {
            return Err(Errno::EINVAL.into());
        }
        if name.len() > self.limits.max_name_len {
            return Err(Errno::ENAMETOOLONG.into());
        }
        if let Some(&ino) = listing.get(name) {
            if matches!(kind, SeedKind::Dir(_)) && self.inode(ino)?.is_dir() {
                return Ok((ino, true, false));
            }
            return Err(Errno::EEXIST.into());
        }
        if self.inode_count >= self.limits.max_files {
            return Err(self.limit_error(LimitHit::Files(self.limits.max_files)));
        }
        let (node, mode) = match kind {
            // Writable until its entries are in; see `seed_done`.
            SeedKind::Dir(_) => (Node::Dir(OrdMap::new()), 0o755),
            SeedKind::File(dir, name, mode) => {
                let host = HostFile {
                    root: Arc::clone(root),
                    dir,
                    name,
                    budget: Arc::clone(&self.host_budget),
                    seen: OnceLock::new(),
                    bytes: OnceLock::new(),
                };
                (Node::Host(Arc::new(host)), mode & 0o7777)
            }
            SeedKind::Symlink(target) => {
                check_symlink_target(&target)?;
                (Node::Symlink(Arc::from(target)), 0o777)
            }
        };
        let inode = Inode::new(node, mode, self.uid, self.gid, self.now());
        let is_dir = inode.is_dir();
        Ok((self.add_inode(inode), is_dir, true))
    }

    /// The bytes of host file `host`, read on first use within the size limits.
    pub(crate) fn host_bytes<'a>(&self, host: &'a HostFile) -> FsResult<&'a Arc<Vec<u8>>> {
        host.bytes(|len| {
            if len > self.limits.max_file_bytes {
                return Err(self.limit_error(LimitHit::FileBytes(self.limits.max_file_bytes)));
            }
            let cap = self.limits.max_total_bytes.saturating_sub(self.file_bytes);
            if !host.budget.take(len, cap) {
                return Err(self.limit_error(LimitHit::TotalBytes(self.limits.max_total_bytes)));
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_below_the_root_follow_no_symlink() -> std::io::Result<()> {
        let base = std::env::temp_dir().join(format!("shellbox-host-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("root/d"))?;
        std::fs::write(base.join("root/d/f"), "in")?;
        std::fs::write(base.join("out"), "out")?;
        std::os::unix::fs::symlink(base.join("root/d"), base.join("root/link-dir"))?;
        std::os::unix::fs::symlink(base.join("out"), base.join("root/link-file"))?;
        let root = HostRoot::open(&base.join("root"))?;
        let read = |fd: OwnedFd| std::io::read_to_string(std::fs::File::from(fd));
        for stepwise in [false, true] {
            let open = |rel: &str| {
                let flags = OFlags::RDONLY;
                if stepwise {
                    root.open_stepwise(Path::new(rel), flags | OFlags::NOFOLLOW)
                } else {
                    root.open_beneath(Path::new(rel), flags)
                }
            };
            assert_eq!(read(open("d/f")?)?, "in");
            for refused in ["link-dir/f", "link-file", "../out", "d/../../out"] {
                assert!(open(refused).is_err(), "{refused} (stepwise: {stepwise})");
            }
        }
        std::fs::remove_dir_all(&base)
    }
}
