//! File contents: whole-file reads and writes, open(2) with its flags, and positioned
//! I/O on inodes. Contents are `Arc<Vec<u8>>`, copied only when a snapshot shares them.
//!
//! Devices: the interpreter implements their streams; here `/dev/null` reads as empty
//! and swallows writes, `/dev/zero`, `/dev/random` and `/dev/urandom` swallow writes,
//! `/dev/full` refuses them with ENOSPC, and every other whole-file read or write of a
//! device (endless or interpreter-owned streams) is EINVAL. Truncating a device is a
//! no-op, as `: > /dev/null` needs.

use std::sync::Arc;

use super::inode::{Node, R, W};
use super::resolve::Follow;
use super::{Device, Errno, Fs, FsResult, Ino, LimitHit, OpenOptions};

/// A whole-file write to a device.
fn device_write(device: Device) -> FsResult<()> {
    match device {
        Device::Null | Device::Zero | Device::Random | Device::Urandom => Ok(()),
        Device::Full => Err(Errno::ENOSPC.into()),
        Device::Stdin | Device::Stdout | Device::Stderr => Err(Errno::EINVAL.into()),
        Device::Tty => Err(Errno::ENXIO.into()),
    }
}

/// A whole-file read of a device.
fn device_read(device: Device) -> FsResult<Arc<Vec<u8>>> {
    match device {
        Device::Null => Ok(Arc::new(Vec::new())),
        Device::Tty => Err(Errno::ENXIO.into()),
        _ => Err(Errno::EINVAL.into()),
    }
}

/// The buffer of `data`, copied first (with room for `extra` more bytes) if a snapshot
/// or a reader shares it.
fn unshare(data: &mut Arc<Vec<u8>>, extra: usize) -> &mut Vec<u8> {
    if Arc::get_mut(data).is_none() {
        let mut copy = Vec::with_capacity(data.len().saturating_add(extra));
        copy.extend_from_slice(data);
        *data = Arc::new(copy);
    }
    Arc::make_mut(data)
}

/// Converts a file offset or length already checked against the file size limit.
fn to_usize(n: u64) -> FsResult<usize> {
    usize::try_from(n).map_err(|_| Errno::EFBIG.into())
}

impl Fs {
    /// The whole content of a regular file (EISDIR for directories).
    ///
    /// ```
    /// # use shellbox::fs::{Clock, Fs};
    /// let fs = Fs::new(Clock::virtual_at(0));
    /// assert_eq!(fs.read_file("/etc/hostname")?.as_slice(), b"shellbox\n");
    /// # Ok::<(), shellbox::fs::FsError>(())
    /// ```
    pub fn read_file(&self, path: &str) -> FsResult<Arc<Vec<u8>>> {
        let (_, ino) = self.walk_existing(path, Follow::Yes)?;
        self.read_inode(ino)
    }

    /// The contents of inode `ino`, as [`Fs::read_file`] reads them once it has found it
    /// (for callers that already hold it from a directory listing).
    pub fn read_inode(&self, ino: Ino) -> FsResult<Arc<Vec<u8>>> {
        let inode = self.inode(ino)?;
        if !self.may(inode, R) {
            return Err(Errno::EACCES.into());
        }
        self.content(ino)
    }

    /// Creates or truncates `path` and writes `data` (mode 0644 for a new file).
    pub fn write_file(&mut self, path: &str, data: &[u8]) -> FsResult<()> {
        self.put(path, data, false, 0o644)
    }

    /// [`Fs::write_file`], giving a new file `mode` (the caller's umask already
    /// applied, as for open(2)); an existing file keeps its mode.
    ///
    /// ```
    /// # use shellbox::fs::{Clock, Fs};
    /// let mut fs = Fs::new(Clock::virtual_at(0));
    /// fs.write_file_mode("/workspace/secret", b"x", 0o600)?;
    /// assert_eq!(fs.stat("/workspace/secret")?.mode, 0o600);
    /// # Ok::<(), shellbox::fs::FsError>(())
    /// ```
    pub fn write_file_mode(&mut self, path: &str, data: &[u8], mode: u32) -> FsResult<()> {
        self.put(path, data, false, mode)
    }

    /// Appends to `path`, creating it if needed.
    pub fn append_file(&mut self, path: &str, data: &[u8]) -> FsResult<()> {
        self.put(path, data, true, 0o644)
    }

    /// [`Fs::append_file`], giving a new file `mode` (umask applied by the caller).
    pub fn append_file_mode(&mut self, path: &str, data: &[u8], mode: u32) -> FsResult<()> {
        self.put(path, data, true, mode)
    }

    fn put(&mut self, path: &str, data: &[u8], append: bool, mode: u32) -> FsResult<()> {
        let walk = self.walk(path, Follow::Yes)?;
        let Some(ino) = walk.ino else {
            let target = walk.new_entry(Errno::EISDIR)?;
            self.check_create(&target, data.len() as u64)?;
            self.insert_new(target, Node::File(Arc::new(data.to_vec())), mode & 0o7777)?;
            return Ok(());
        };
        let trailing_slash = walk.trailing_slash;
        let inode = self.inode(ino)?;
        match &inode.node {
            Node::Dir(_) => Err(Errno::EISDIR.into()),
            Node::Symlink(_) => Err(Errno::ELOOP.into()),
            _ if trailing_slash => Err(Errno::ENOTDIR.into()),
            _ if !self.may(inode, W) => Err(Errno::EACCES.into()),
            Node::Device(device) => device_write(*device),
            // Whoever writes a FIFO through the plain filesystem has no reader
            // joined to it (the interpreter joins them): the bytes go nowhere.
            Node::Fifo => Ok(()),
            Node::File(_) | Node::Host(_) => {
                let old_len = inode.size();
                if append {
                    self.modify_file(ino, old_len.saturating_add(data.len() as u64), |buf| {
                        unshare(buf, data.len()).extend_from_slice(data);
                    })
                } else {
                    self.modify_file(ino, data.len() as u64, |buf| match Arc::get_mut(buf) {
                        Some(v) => {
                            v.clear();
                            v.extend_from_slice(data);
                        }
                        None => *buf = Arc::new(data.to_vec()),
                    })
                }
            }
        }
    }

    /// Checks the size limits for regular file `ino` growing or shrinking to `new_len`,
    /// then edits its buffer and stamps mtime/ctime. Changes nothing on error.
    fn modify_file(
        &mut self,
        ino: Ino,
        new_len: u64,
        edit: impl FnOnce(&mut Arc<Vec<u8>>),
    ) -> FsResult<()> {
        self.materialize(ino)?;
        let old_len = self.inode(ino)?.file_bytes();
        if new_len > self.limits.max_file_bytes {
            return Err(self.limit_error(LimitHit::FileBytes(self.limits.max_file_bytes)));
        }
        if new_len > old_len
            && self.file_bytes.saturating_add(new_len - old_len) > self.limits.max_total_bytes
        {
            return Err(self.limit_error(LimitHit::TotalBytes(self.limits.max_total_bytes)));
        }
        let now = self.now();
        let inode = self.inode_mut(ino)?;
        let Node::File(buf) = &mut inode.node else {
            return Err(Errno::EINVAL.into());
        };
        edit(buf);
        let actual = buf.len() as u64;
        inode.mtime = now;
        inode.ctime = now;
        self.file_bytes = self
            .file_bytes
            .saturating_sub(old_len)
            .saturating_add(actual);
        Ok(())
    }

    /// open(2): resolves (creating/truncating as asked, checking permissions) and returns
    /// the inode; later I/O goes through the `*_ino` calls. Opening a directory for
    /// writing is EISDIR; opening a device returns its inode.
    ///
    /// `create` with `exclusive` does not follow a final symlink (EEXIST even if it
    /// dangles). Truncation applies only when opening for writing. `create` on an
    /// existing directory is EISDIR, as on Linux.
    ///
    /// The filesystem keeps no open-file table: an inode is freed as soon as its last
    /// link is removed, after which the `*_ino` calls on it are EBADF.
    ///
    /// ```
    /// # use shellbox::fs::{Clock, Fs, OpenOptions};
    /// let mut fs = Fs::new(Clock::virtual_at(0));
    /// let ino = fs.open("/workspace/log", OpenOptions::append())?;
    /// fs.write_at(ino, 0, b"hi\n")?;
    /// assert_eq!(fs.read_at(ino, 0, 100)?, b"hi\n");
    /// # Ok::<(), shellbox::fs::FsError>(())
    /// ```
    pub fn open(&mut self, path: &str, opts: OpenOptions) -> FsResult<Ino> {
        let writing = opts.write || opts.append;
        let exclusive = opts.create && opts.exclusive;
        let follow = if exclusive {
            Follow::Never
        } else {
            Follow::Yes
        };
        let walk = self.walk(path, follow)?;
        let Some(ino) = walk.ino else {
            if !opts.create {
                return Err(Errno::ENOENT.into());
            }
            let target = walk.new_entry(Errno::EISDIR)?;
            self.check_create(&target, 0)?;
            let mode = opts.mode.unwrap_or(0o644) & 0o7777;
            return self.insert_new(target, Node::File(Arc::new(Vec::new())), mode);
        };
        if exclusive {
            return Err(Errno::EEXIST.into());
        }
        let trailing_slash = walk.trailing_slash;
        let inode = self.inode(ino)?;
        let want = if writing {
            W | if opts.read { R } else { 0 }
        } else {
            R
        };
        match &inode.node {
            Node::Dir(_) if writing || opts.create => return Err(Errno::EISDIR.into()),
            Node::Symlink(_) => return Err(Errno::ELOOP.into()),
            Node::File(_) | Node::Host(_) | Node::Device(_) | Node::Fifo if trailing_slash => {
                return Err(Errno::ENOTDIR.into());
            }
            _ => {}
        }
        if !self.may(inode, want) {
            return Err(Errno::EACCES.into());
        }
        // A shellbox session never has a controlling terminal: opening /dev/tty fails as
        // it does for a process without one (as bash run from cron or CI sees it).
        if matches!(inode.node, Node::Device(Device::Tty)) {
            return Err(Errno::ENXIO.into());
        }
        if writing && opts.truncate && matches!(inode.node, Node::File(_) | Node::Host(_)) {
            self.modify_file(ino, 0, |buf| match Arc::get_mut(buf) {
                Some(v) => v.clear(),
                None => *buf = Arc::new(Vec::new()),
            })?;
        }
        Ok(ino)
    }

    /// Reads up to `len` bytes at `offset` of a regular file inode.
    ///
    /// Past the end reads nothing; `/dev/null` reads nothing; a directory is EISDIR and
    /// other devices EINVAL. No permission check: that happened at [`Fs::open`].
    pub fn read_at(&self, ino: Ino, offset: u64, len: usize) -> FsResult<&[u8]> {
        let data: &[u8] = match &self.inode(ino)?.node {
            Node::File(data) => data,
            Node::Host(host) => self.host_bytes(host)?,
            Node::Dir(_) => return Err(Errno::EISDIR.into()),
            Node::Device(Device::Null) | Node::Fifo => return Ok(&[]),
            Node::Device(_) | Node::Symlink(_) => return Err(Errno::EINVAL.into()),
        };
        let start = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(data.len());
        let end = start.saturating_add(len).min(data.len());
        Ok(data.get(start..end).unwrap_or_default())
    }

    /// Turns a file still on the host into one held in memory, before it is changed;
    /// from then on its bytes count against the total like any written file's.
    fn materialize(&mut self, ino: Ino) -> FsResult<()> {
        let Node::Host(host) = &self.inode(ino)?.node else {
            return Ok(());
        };
        let bytes = Arc::clone(self.host_bytes(host)?);
        let len = bytes.len() as u64;
        if self.file_bytes.saturating_add(len) > self.limits.max_total_bytes {
            return Err(self.limit_error(LimitHit::TotalBytes(self.limits.max_total_bytes)));
        }
        self.inode_mut(ino)?.node = Node::File(bytes);
        self.file_bytes = self.file_bytes.saturating_add(len);
        Ok(())
    }

    /// Reads every file still on the host, so that their failures can be reported
    /// (with the host path) before something like a durable save needs their bytes.
    pub fn check_host_files(&self) -> Result<(), String> {
        for inode in self.inodes.values() {
            if let Node::Host(host) = &inode.node {
                self.host_bytes(host)
                    .map_err(|e| format!("{}: {e}", host.path().display()))?;
            }
        }
        Ok(())
    }

    /// The content of a regular file inode (`/dev/null`: empty; a directory: EISDIR;
    /// other devices and symlinks: EINVAL). No permission check.
    pub fn content(&self, ino: Ino) -> FsResult<Arc<Vec<u8>>> {
        match &self.inode(ino)?.node {
            Node::File(data) => Ok(Arc::clone(data)),
            Node::Host(host) => Ok(Arc::clone(self.host_bytes(host)?)),
            Node::Dir(_) => Err(Errno::EISDIR.into()),
            Node::Device(device) => device_read(*device),
            // Read through the plain filesystem, a FIFO has no writer: end of file.
            Node::Fifo => Ok(Arc::new(Vec::new())),
            Node::Symlink(_) => Err(Errno::EINVAL.into()),
        }
    }

    /// Writes at `offset` (zero-filling any gap); returns the new end offset.
    ///
    /// An empty write changes nothing. Devices behave as in [`Fs::write_file`]. No
    /// permission check: that happened at [`Fs::open`].
    pub fn write_at(&mut self, ino: Ino, offset: u64, data: &[u8]) -> FsResult<u64> {
        let end = offset.checked_add(data.len() as u64).ok_or(Errno::EFBIG)?;
        let old_len = match &self.inode(ino)?.node {
            Node::File(buf) => buf.len() as u64,
            Node::Host(host) => host.len(),
            Node::Dir(_) => return Err(Errno::EISDIR.into()),
            Node::Device(device) => return device_write(*device).map(|()| end),
            Node::Fifo => return Ok(end),
            Node::Symlink(_) => return Err(Errno::EINVAL.into()),
        };
        if data.is_empty() {
            return Ok(end);
        }
        let new_len = old_len.max(end);
        if new_len > self.limits.max_file_bytes {
            return Err(self.limit_error(LimitHit::FileBytes(self.limits.max_file_bytes)));
        }
        let (start, stop, total) = (to_usize(offset)?, to_usize(end)?, to_usize(new_len)?);
        self.modify_file(ino, new_len, |buf| {
            let extra = total.saturating_sub(buf.len());
            let v = unshare(buf, extra);
            if v.len() < total {
                v.resize(total, 0);
            }
            if let Some(slot) = v.get_mut(start..stop) {
                slot.copy_from_slice(data);
            }
        })?;
        Ok(end)
    }

    /// truncate(2): cuts or zero-extends a regular file (needs write permission).
    pub fn truncate(&mut self, path: &str, len: u64) -> FsResult<()> {
        let (_, ino) = self.walk_existing(path, Follow::Yes)?;
        let inode = self.inode(ino)?;
        if inode.is_dir() {
            return Err(Errno::EISDIR.into());
        }
        if !self.may(inode, W) {
            return Err(Errno::EACCES.into());
        }
        self.truncate_ino(ino, len)
    }

    /// ftruncate(2) on an inode (no permission check); a no-op on devices, and on a
    /// file whose length is already `len`.
    pub fn truncate_ino(&mut self, ino: Ino, len: u64) -> FsResult<()> {
        let old_len = match &self.inode(ino)?.node {
            Node::File(buf) => buf.len() as u64,
            Node::Host(host) => host.len(),
            Node::Dir(_) => return Err(Errno::EISDIR.into()),
            Node::Device(_) | Node::Fifo => return Ok(()),
            Node::Symlink(_) => return Err(Errno::EINVAL.into()),
        };
        if old_len == len {
            return Ok(());
        }
        if len > self.limits.max_file_bytes {
            return Err(self.limit_error(LimitHit::FileBytes(self.limits.max_file_bytes)));
        }
        let total = to_usize(len)?;
        self.modify_file(ino, len, |buf| {
            let extra = total.saturating_sub(buf.len());
            unshare(buf, extra).resize(total, 0);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::testing::{T0, errno, fixture};
    use crate::fs::{FsLimits, Timestamp};

    /// Runs `op` on a fresh fixture and checks its outcome, then what `read` reads back.
    fn check(
        op: impl FnOnce(&mut Fs) -> FsResult<()>,
        want: Result<(), Errno>,
        read: &str,
        want_read: Result<&[u8], Errno>,
    ) {
        let mut fs = fixture();
        let before = fs.snapshot();
        let got = errno(op(&mut fs));
        assert_eq!(got, want, "operation outcome");
        let content = errno(fs.read_file(read));
        assert_eq!(
            content.as_deref().map(Vec::as_slice).map_err(|e| *e),
            want_read,
            "read {read}"
        );
        if got.is_err() {
            assert_eq!(fs.usage(), before.usage(), "a failed write changes nothing");
        }
    }

    #[test]
    fn read_file_table() {
        let mut fs = fixture();
        let _ = fs.chmod("/workspace/d/g", 0o200);
        for (path, want) in [
            ("/workspace/f", Ok(&b"hello"[..])),
            ("/workspace/link", Ok(b"hello")),
            ("/workspace/d", Err(Errno::EISDIR)),
            ("/workspace/dlink", Err(Errno::EISDIR)),
            ("/workspace/nope", Err(Errno::ENOENT)),
            ("/workspace/dangling", Err(Errno::ENOENT)),
            ("/workspace/f/", Err(Errno::ENOTDIR)),
            ("/workspace/f/x", Err(Errno::ENOTDIR)),
            ("/workspace/d/g", Err(Errno::EACCES)),
            ("/dev/null", Ok(b"")),
            ("/dev/zero", Err(Errno::EINVAL)),
            ("/dev/stdin", Err(Errno::EINVAL)),
            ("/etc/hostname", Ok(b"shellbox\n")),
        ] {
            let got = errno(fs.read_file(path));
            assert_eq!(
                got.as_deref().map(Vec::as_slice).map_err(|e| *e),
                want,
                "{path}"
            );
        }
    }

    #[test]
    fn write_file_table() {
        let w =
            |path: &'static str, data: &'static [u8]| move |fs: &mut Fs| fs.write_file(path, data);
        let f = "/workspace/f";
        for (op, want, read, want_read) in [
            (
                w("/workspace/new", b"n"),
                Ok(()),
                "/workspace/new",
                Ok(&b"n"[..]),
            ),
            (w(f, b"replaced"), Ok(()), f, Ok(b"replaced")),
            (w(f, b""), Ok(()), f, Ok(b"")),
            (
                w("/workspace/link", b"via link"),
                Ok(()),
                f,
                Ok(b"via link"),
            ),
            (
                w("/workspace/dangling", b"t"),
                Ok(()),
                "/workspace/nope",
                Ok(b"t"),
            ),
            (
                w("/workspace/abs/h", b"h"),
                Ok(()),
                "/workspace/d/h",
                Ok(b"h"),
            ),
            (w("/workspace/d", b""), Err(Errno::EISDIR), f, Ok(b"hello")),
            (
                w("/workspace/new/", b""),
                Err(Errno::EISDIR),
                "/workspace/new",
                Err(Errno::ENOENT),
            ),
            (
                w("/workspace/f/", b""),
                Err(Errno::ENOTDIR),
                f,
                Ok(b"hello"),
            ),
            (
                w("/workspace/no/x", b""),
                Err(Errno::ENOENT),
                f,
                Ok(b"hello"),
            ),
            (
                w("/workspace/f/x", b""),
                Err(Errno::ENOTDIR),
                f,
                Ok(b"hello"),
            ),
            (w("/", b""), Err(Errno::EISDIR), f, Ok(b"hello")),
            (
                w("/etc/new", b""),
                Err(Errno::EACCES),
                "/etc/new",
                Err(Errno::ENOENT),
            ),
            (w("/etc/passwd", b""), Err(Errno::EACCES), f, Ok(b"hello")),
            (w("/dev/null", b"gone"), Ok(()), "/dev/null", Ok(b"")),
            (w("/dev/zero", b"gone"), Ok(()), f, Ok(b"hello")),
            (w("/dev/full", b"x"), Err(Errno::ENOSPC), f, Ok(b"hello")),
            (w("/dev/stdout", b"x"), Err(Errno::EINVAL), f, Ok(b"hello")),
            (
                w("/workspace/a\0b", b"x"),
                Err(Errno::EINVAL),
                f,
                Ok(b"hello"),
            ),
        ] {
            check(op, want, read, want_read);
        }
        let long = "/workspace/".to_owned() + &"n".repeat(256);
        check(
            |fs| fs.write_file(&long, b"x"),
            Err(Errno::ENAMETOOLONG),
            "/workspace/f",
            Ok(b"hello"),
        );
    }

    #[test]
    fn append_file_table() {
        let a =
            |path: &'static str, data: &'static [u8]| move |fs: &mut Fs| fs.append_file(path, data);
        let f = "/workspace/f";
        for (op, want, read, want_read) in [
            (a(f, b" world"), Ok(()), f, Ok(&b"hello world"[..])),
            (a("/workspace/link", b"!"), Ok(()), f, Ok(b"hello!")),
            (
                a("/workspace/new", b"n"),
                Ok(()),
                "/workspace/new",
                Ok(b"n"),
            ),
            (a("/workspace/d", b"n"), Err(Errno::EISDIR), f, Ok(b"hello")),
            (a("/dev/null", b"n"), Ok(()), "/dev/null", Ok(b"")),
            (
                a("/etc/hostname", b"n"),
                Err(Errno::EACCES),
                "/etc/hostname",
                Ok(b"shellbox\n"),
            ),
        ] {
            check(op, want, read, want_read);
        }
    }

    #[test]
    fn new_files_get_mode_owner_and_times() -> FsResult<()> {
        let mut fs = fixture();
        fs.clock().advance(5_000_000_000);
        fs.write_file("/workspace/d/new", b"abc")?;
        let m = fs.stat("/workspace/d/new")?;
        let now = Timestamp::from_secs(T0 + 5);
        assert_eq!(
            (m.mode, m.uid, m.gid, m.nlink, m.size),
            (0o644, 1000, 1000, 1, 3)
        );
        assert_eq!((m.atime, m.mtime, m.ctime), (now, now, now));
        assert_eq!(fs.stat("/workspace/d")?.mtime, now, "parent mtime");
        fs.clock().advance(1_000_000_000);
        fs.append_file("/workspace/d/new", b"d")?;
        let later = Timestamp::from_secs(T0 + 6);
        let m = fs.stat("/workspace/d/new")?;
        assert_eq!((m.atime, m.mtime, m.ctime), (now, later, later));
        assert_eq!(
            fs.stat("/workspace/d")?.mtime,
            now,
            "writing a file leaves its dir"
        );
        fs.set_user(0, 0);
        fs.write_file("/workspace/rootfile", b"")?;
        assert_eq!(fs.stat("/workspace/rootfile")?.uid, 0);
        Ok(())
    }

    #[test]
    fn appends_reuse_an_unshared_buffer_and_copy_a_shared_one() -> FsResult<()> {
        let mut fs = fixture();
        fs.write_file("/workspace/log", b"")?;
        for _ in 0..1000 {
            fs.append_file("/workspace/log", b"0123456789")?;
        }
        let snap = fs.snapshot();
        let shared = fs.read_file("/workspace/log")?;
        fs.append_file("/workspace/log", b"!")?;
        assert_eq!(shared.len(), 10_000);
        assert_eq!(snap.read_file("/workspace/log")?.len(), 10_000);
        assert_eq!(fs.read_file("/workspace/log")?.len(), 10_001);
        drop((snap, shared));
        let before = Arc::as_ptr(&fs.read_file("/workspace/log")?);
        fs.append_file("/workspace/log", b"?")?;
        assert_eq!(
            Arc::as_ptr(&fs.read_file("/workspace/log")?),
            before,
            "in place"
        );
        Ok(())
    }

    #[test]
    fn limits_refuse_and_change_nothing() -> FsResult<()> {
        let base = fixture();
        let (bytes, inodes) = base.usage();
        let limited = |limits: FsLimits| base.clone().with_limits(limits);
        let per_file = limited(FsLimits {
            max_file_bytes: 8,
            ..FsLimits::default()
        });
        let total = limited(FsLimits {
            max_total_bytes: bytes + 4,
            ..FsLimits::default()
        });
        let count = limited(FsLimits {
            max_files: inodes,
            ..FsLimits::default()
        });
        type Op = fn(&mut Fs) -> FsResult<()>;
        /// Outcomes under the per-file, total-bytes and inode-count limits.
        type Wants = [Result<(), Errno>; 3];
        let ops: [(&str, Op, Wants); 8] = [
            (
                "write 9",
                |fs| fs.write_file("/workspace/n", b"123456789"),
                [Err(Errno::EFBIG), Err(Errno::ENOSPC), Err(Errno::ENOSPC)],
            ),
            (
                "write 4",
                |fs| fs.write_file("/workspace/n", b"1234"),
                [Ok(()), Ok(()), Err(Errno::ENOSPC)],
            ),
            (
                "append 4",
                |fs| fs.append_file("/workspace/f", b"1234"),
                [Err(Errno::EFBIG), Ok(()), Ok(())],
            ),
            (
                "append 5",
                |fs| fs.append_file("/workspace/f", b"12345"),
                [Err(Errno::EFBIG), Err(Errno::ENOSPC), Ok(())],
            ),
            (
                "overwrite shrink",
                |fs| fs.write_file("/workspace/f", b"1"),
                [Ok(()), Ok(()), Ok(())],
            ),
            (
                "truncate 9",
                |fs| fs.truncate("/workspace/f", 9),
                [Err(Errno::EFBIG), Ok(()), Ok(())],
            ),
            (
                "mkdir",
                |fs| fs.mkdir("/workspace/e", 0o755),
                [Ok(()), Ok(()), Err(Errno::ENOSPC)],
            ),
            (
                "write_at far",
                |fs| {
                    let ino = fs.open("/workspace/f", OpenOptions::default())?;
                    fs.write_at(ino, 1 << 40, b"x").map(drop)
                },
                [Err(Errno::EFBIG), Err(Errno::EFBIG), Err(Errno::EFBIG)],
            ),
        ];
        for (name, op, wants) in ops {
            for (fs, want) in [&per_file, &total, &count].into_iter().zip(wants) {
                let mut fs = fs.clone();
                let got = errno(op(&mut fs));
                assert_eq!(got, want, "{name} with {:?}", fs.limits());
                if got.is_err() {
                    assert_eq!(fs.usage(), (bytes, inodes), "{name}");
                    assert_eq!(fs.read_file("/workspace/f")?.as_slice(), b"hello", "{name}");
                    assert!(!fs.exists("/workspace/n"), "{name}");
                }
            }
        }
        Ok(())
    }

    /// A created file gets the mode asked for (the caller's umask applied); an
    /// existing one keeps its own.
    #[test]
    fn creation_mode() -> FsResult<()> {
        let mut fs = fixture();
        let opts = OpenOptions {
            mode: Some(0o640),
            ..OpenOptions::write_truncate()
        };
        fs.open("/workspace/new", opts)?;
        fs.open("/workspace/f", opts)?;
        fs.write_file_mode("/workspace/w", b"x", 0o600)?;
        fs.append_file_mode("/workspace/a", b"x", 0o400)?;
        let modes: Vec<u32> = ["new", "f", "w", "a"]
            .iter()
            .map(|n| fs.stat(&format!("/workspace/{n}")).map(|m| m.mode))
            .collect::<FsResult<_>>()?;
        assert_eq!(modes, [0o640, 0o644, 0o600, 0o400]);
        Ok(())
    }

    #[test]
    fn open_table() -> FsResult<()> {
        let opts = |spec: &str| OpenOptions {
            read: spec.contains('r'),
            write: spec.contains('w'),
            append: spec.contains('a'),
            create: spec.contains('c'),
            truncate: spec.contains('t'),
            exclusive: spec.contains('x'),
            mode: None,
        };
        let mut fs = fixture();
        let _ = fs.chmod("/workspace/d/g", 0o000);
        for (path, spec, want, content_after) in [
            ("/workspace/f", "r", Ok(()), Some(&b"hello"[..])),
            ("/workspace/f", "", Ok(()), Some(b"hello")),
            ("/workspace/f", "wt", Ok(()), Some(b"")),
            ("/workspace/f", "rt", Ok(()), Some(b"hello")),
            ("/workspace/f", "a", Ok(()), Some(b"hello")),
            ("/workspace/f", "wcx", Err(Errno::EEXIST), Some(b"hello")),
            ("/workspace/link", "wcx", Err(Errno::EEXIST), None),
            ("/workspace/dangling", "wcx", Err(Errno::EEXIST), None),
            ("/workspace/dangling", "wc", Ok(()), Some(b"")),
            ("/workspace/new", "wcx", Ok(()), Some(b"")),
            ("/workspace/new", "wct", Ok(()), Some(b"")),
            ("/workspace/new", "w", Err(Errno::ENOENT), None),
            ("/workspace/new", "r", Err(Errno::ENOENT), None),
            ("/workspace/new/", "wc", Err(Errno::EISDIR), None),
            ("/workspace/f/", "r", Err(Errno::ENOTDIR), None),
            ("/workspace/d", "r", Ok(()), None),
            ("/workspace/d/", "r", Ok(()), None),
            ("/workspace/d", "w", Err(Errno::EISDIR), None),
            ("/workspace/d", "wc", Err(Errno::EISDIR), None),
            ("/workspace/d", "rc", Err(Errno::EISDIR), None),
            ("/workspace/d/g", "r", Err(Errno::EACCES), None),
            ("/workspace/d/g", "w", Err(Errno::EACCES), None),
            ("/etc/passwd", "r", Ok(()), None),
            ("/etc/passwd", "w", Err(Errno::EACCES), None),
            ("/etc/passwd", "rw", Err(Errno::EACCES), None),
            ("/etc/new", "wc", Err(Errno::EACCES), None),
            ("/dev/null", "wct", Ok(()), None),
            ("/dev/stdout", "w", Ok(()), None),
        ] {
            let mut fs = fs.clone();
            let got = errno(fs.open(path, opts(spec)));
            assert_eq!(got.map(drop), want, "open {path} {spec:?}");
            if let (Ok(ino), Some(content)) = (got, content_after) {
                assert_eq!(fs.content(ino)?.as_slice(), content);
                assert_eq!(fs.stat(path).map(|m| m.ino), Ok(ino), "{path}");
            }
        }
        Ok(())
    }

    #[test]
    fn open_returns_device_inodes() -> FsResult<()> {
        let mut fs = fixture();
        let ino = fs.open("/dev/null", OpenOptions::read())?;
        assert_eq!(
            fs.stat_ino(ino)?.file_type,
            crate::fs::FileType::Device(Device::Null)
        );
        // No controlling terminal: /dev/tty exists but does not open, for reading or writing.
        assert_eq!(
            fs.stat("/dev/tty")?.file_type,
            crate::fs::FileType::Device(Device::Tty)
        );
        for opts in [OpenOptions::read(), OpenOptions::default()] {
            assert_eq!(errno(fs.open("/dev/tty", opts)), Err(Errno::ENXIO));
        }
        Ok(())
    }

    #[test]
    fn positioned_io() -> FsResult<()> {
        let mut fs = fixture();
        let ino = fs.open("/workspace/f", OpenOptions::default())?;
        let check_read = |fs: &Fs, offset, len, want: &[u8]| {
            assert_eq!(
                errno(fs.read_at(ino, offset, len)),
                Ok(want),
                "{offset}+{len}"
            );
        };
        check_read(&fs, 0, 2, b"he");
        check_read(&fs, 3, 100, b"lo");
        check_read(&fs, 5, 1, b"");
        check_read(&fs, u64::MAX, usize::MAX, b"");
        assert_eq!(fs.write_at(ino, 1, b"EL")?, 3);
        assert_eq!(fs.read_file("/workspace/f")?.as_slice(), b"hELlo");
        assert_eq!(fs.write_at(ino, 8, b"!")?, 9);
        assert_eq!(fs.read_file("/workspace/f")?.as_slice(), b"hELlo\0\0\0!");
        assert_eq!(
            fs.write_at(ino, 100, b"")?,
            100,
            "empty write extends nothing"
        );
        assert_eq!(fs.stat_ino(ino)?.size, 9);
        assert_eq!(errno(fs.write_at(ino, u64::MAX, b"x")), Err(Errno::EFBIG));
        let dir = fs.open("/workspace/d", OpenOptions::read())?;
        let null = fs.open("/dev/null", OpenOptions::read())?;
        let full = fs.open("/dev/full", OpenOptions::read())?;
        assert_eq!(errno(fs.read_at(dir, 0, 1)), Err(Errno::EISDIR));
        assert_eq!(errno(fs.read_at(null, 0, 1)), Ok(&b""[..]));
        assert_eq!(errno(fs.write_at(dir, 0, b"x")), Err(Errno::EISDIR));
        assert_eq!(errno(fs.write_at(null, 7, b"x")), Ok(8));
        assert_eq!(errno(fs.write_at(full, 0, b"x")), Err(Errno::ENOSPC));
        assert_eq!(errno(fs.content(dir)).map(drop), Err(Errno::EISDIR));
        assert_eq!(errno(fs.content(12345)).map(drop), Err(Errno::EBADF));
        fs.remove_file("/workspace/f")?;
        assert_eq!(errno(fs.read_at(ino, 0, 1)), Err(Errno::EBADF));
        Ok(())
    }

    #[test]
    fn truncate_table() -> FsResult<()> {
        for (path, len, want, content) in [
            ("/workspace/f", 2, Ok(()), &b"he"[..]),
            ("/workspace/f", 7, Ok(()), b"hello\0\0"),
            ("/workspace/link", 0, Ok(()), b""),
            ("/workspace/d", 0, Err(Errno::EISDIR), b"hello"),
            ("/workspace/nope", 0, Err(Errno::ENOENT), b"hello"),
            ("/etc/passwd", 0, Err(Errno::EACCES), b"hello"),
            ("/dev/null", 0, Ok(()), b"hello"),
        ] {
            let mut fs = fixture();
            assert_eq!(errno(fs.truncate(path, len)), want, "truncate {path} {len}");
            assert_eq!(fs.read_file("/workspace/f")?.as_slice(), content, "{path}");
        }
        let mut fs = fixture();
        let ino = fs.open("/workspace/f", OpenOptions::default())?;
        let snap = fs.snapshot();
        fs.truncate_ino(ino, 1)?;
        assert_eq!(fs.read_file("/workspace/f")?.as_slice(), b"h");
        assert_eq!(snap.read_file("/workspace/f")?.as_slice(), b"hello");
        let dir = fs.open("/workspace/d", OpenOptions::read())?;
        assert_eq!(errno(fs.truncate_ino(dir, 0)), Err(Errno::EISDIR));
        Ok(())
    }

    #[test]
    fn truncate_stamps_only_on_change_but_o_trunc_always() -> FsResult<()> {
        let mut fs = fixture();
        fs.clock().advance(1_000_000_000);
        fs.truncate("/workspace/f", 5)?;
        assert_eq!(fs.stat("/workspace/f")?.mtime, Timestamp::from_secs(T0));
        fs.open("/workspace/f", OpenOptions::write_truncate())?;
        fs.clock().advance(1_000_000_000);
        fs.open("/workspace/f", OpenOptions::write_truncate())?;
        assert_eq!(fs.stat("/workspace/f")?.mtime, Timestamp::from_secs(T0 + 2));
        Ok(())
    }
}
