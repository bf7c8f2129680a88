//! Inodes: what one file, directory, symlink or device holds, and the permission rule
//! (owner/group/other bits, root bypass) every operation checks against.

use std::sync::Arc;

use imbl::OrdMap;

use super::{Device, FileType, Ino, Metadata, Timestamp};

/// Read permission bit, as in access(2).
pub(crate) const R: u32 = 4;
/// Write permission bit.
pub(crate) const W: u32 = 2;
/// Execute (search, for directories) permission bit.
pub(crate) const X: u32 = 1;

/// The size `stat` reports for a directory (as ext4 does for a small one).
pub(crate) const DIR_SIZE: u64 = 4096;

/// What an inode holds.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    /// A regular file: shared bytes, copied on the first write after a snapshot.
    File(Arc<Vec<u8>>),
    /// A regular file seeded from the host and not yet written: its bytes are read
    /// from the host on first use; the first write turns it into a `File`.
    Host(Arc<super::host::HostFile>),
    /// A directory: entries by name (sorted, so listings need no sort).
    Dir(OrdMap<String, Ino>),
    /// A symbolic link and its target, stored verbatim.
    Symlink(Arc<str>),
    /// A special file whose I/O the interpreter implements.
    Device(Device),
    /// A named pipe: no data of its own; the interpreter joins the opens of its two
    /// ends (see `SharedFs::fifos`).
    Fifo,
}

/// One inode of the table.
#[derive(Clone, Debug)]
pub(crate) struct Inode {
    pub(crate) node: Node,
    /// Permission bits (0o7777).
    pub(crate) mode: u32,
    pub(crate) nlink: u32,
    pub(crate) uid: u32,
    pub(crate) gid: u32,
    pub(crate) atime: Timestamp,
    pub(crate) mtime: Timestamp,
    pub(crate) ctime: Timestamp,
}

impl Inode {
    /// A fresh inode owned by `uid`/`gid`, all times `now`; directories start with the
    /// two links every directory has (its entry and its own `.`).
    pub(crate) fn new(node: Node, mode: u32, uid: u32, gid: u32, now: Timestamp) -> Inode {
        let nlink = if matches!(node, Node::Dir(_)) { 2 } else { 1 };
        Inode {
            node,
            mode: mode & 0o7777,
            nlink,
            uid,
            gid,
            atime: now,
            mtime: now,
            ctime: now,
        }
    }

    pub(crate) fn file_type(&self) -> FileType {
        match &self.node {
            Node::File(_) | Node::Host(_) => FileType::File,
            Node::Dir(_) => FileType::Dir,
            Node::Symlink(_) => FileType::Symlink,
            Node::Device(d) => FileType::Device(*d),
            Node::Fifo => FileType::Fifo,
        }
    }

    pub(crate) fn is_dir(&self) -> bool {
        matches!(self.node, Node::Dir(_))
    }

    /// The entries of a directory; `None` for anything else.
    pub(crate) fn entries(&self) -> Option<&OrdMap<String, Ino>> {
        match &self.node {
            Node::Dir(entries) => Some(entries),
            _ => None,
        }
    }

    /// Bytes counted against the filesystem's total: a regular file's contents in
    /// memory (a host file's count once read, in the host budget: see `host`).
    pub(crate) fn file_bytes(&self) -> u64 {
        match &self.node {
            Node::File(data) => data.len() as u64,
            _ => 0,
        }
    }

    /// The size `stat` reports.
    pub(crate) fn size(&self) -> u64 {
        match &self.node {
            Node::File(data) => data.len() as u64,
            Node::Host(host) => host.len(),
            Node::Dir(_) => DIR_SIZE,
            Node::Symlink(target) => target.len() as u64,
            Node::Device(_) | Node::Fifo => 0,
        }
    }

    pub(crate) fn metadata(&self, ino: Ino) -> Metadata {
        self.metadata_sized(ino, self.size())
    }

    /// Its metadata with `size` for the size.
    pub(crate) fn metadata_sized(&self, ino: Ino, size: u64) -> Metadata {
        Metadata {
            ino,
            file_type: self.file_type(),
            mode: self.mode,
            nlink: self.nlink,
            uid: self.uid,
            gid: self.gid,
            size,
            atime: self.atime,
            mtime: self.mtime,
            ctime: self.ctime,
        }
    }

    /// Whether user `uid` in group `gid` has every permission in `want` (a mask of
    /// [`R`], [`W`], [`X`]). Root may do anything except execute a non-directory that
    /// has no execute bit at all, as on Linux.
    pub(crate) fn permits(&self, uid: u32, gid: u32, want: u32) -> bool {
        if uid == 0 {
            return want & X == 0 || self.is_dir() || self.mode & 0o111 != 0;
        }
        let bits = if uid == self.uid {
            self.mode >> 6
        } else if gid == self.gid {
            self.mode >> 3
        } else {
            self.mode
        };
        bits & want & 7 == want & 7
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(mode: u32, dir: bool, who: (u32, u32), want: u32, allowed: bool) {
        let node = if dir {
            Node::Dir(OrdMap::new())
        } else {
            Node::File(Arc::new(Vec::new()))
        };
        let inode = Inode::new(node, mode, 1000, 1000, Timestamp::default());
        assert_eq!(
            inode.permits(who.0, who.1, want),
            allowed,
            "mode {mode:o} dir={dir} uid={} gid={} want={want}",
            who.0,
            who.1
        );
    }

    #[test]
    fn permission_classes() {
        let owner = (1000, 1000);
        let group = (1001, 1000);
        let other = (1001, 1001);
        let root = (0, 0);
        for (mode, dir, who, want, allowed) in [
            (0o644, false, owner, R | W, true),
            (0o644, false, owner, X, false),
            (0o644, false, group, R, true),
            (0o644, false, group, W, false),
            (0o640, false, other, R, false),
            (0o604, false, group, R, false), // the group class applies, not "other"
            (0o004, false, owner, R, false), // the owner class applies, not "other"
            (0o000, false, root, R | W, true),
            (0o644, false, root, X, false),
            (0o744, false, root, X, true),
            (0o001, false, root, X, true),
            (0o000, true, root, X, true),
            (0o700, true, other, X, false),
            (0o711, true, other, X, true),
            (0o755, true, owner, R | W | X, true),
            (0o555, true, owner, W, false),
            (0o000, false, owner, 0, true),
        ] {
            check(mode, dir, who, want, allowed);
        }
    }

    #[test]
    fn sizes_and_types() {
        let now = Timestamp::default();
        for (node, ty, size, nlink) in [
            (Node::File(Arc::new(b"abc".to_vec())), FileType::File, 3, 1),
            (Node::Dir(OrdMap::new()), FileType::Dir, DIR_SIZE, 2),
            (Node::Symlink(Arc::from("../x")), FileType::Symlink, 4, 1),
            (
                Node::Device(Device::Null),
                FileType::Device(Device::Null),
                0,
                1,
            ),
        ] {
            let inode = Inode::new(node, 0o17777, 1, 2, now);
            let meta = inode.metadata(7);
            assert_eq!(meta.file_type, ty);
            assert_eq!(meta.size, size);
            assert_eq!(meta.nlink, nlink);
            assert_eq!(meta.mode, 0o7777);
            assert_eq!((meta.ino, meta.uid, meta.gid), (7, 1, 2));
        }
    }
}
