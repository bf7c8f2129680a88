//! Directory entries: creating (mkdir, symlink, link), listing, removing (unlink, rmdir,
//! rm -rf) and renaming them, with POSIX's rules for permissions, the sticky bit, link
//! counts and parent-directory timestamps.

use std::sync::Arc;

use imbl::OrdMap;

use super::inode::{Inode, Node, W, X};
use super::path::components;
use super::resolve::{Follow, Last, Walk};
use super::{Device, DirEntry, Errno, Fs, FsError, FsResult, Ino, LimitHit, Metadata, Timestamp};

/// Longest symlink target accepted (PATH_MAX less the terminating NUL).
pub(crate) const MAX_SYMLINK_LEN: usize = 4095;

/// Files by name with their contents (for [`Fs::create_files`]).
pub type NamedFiles = Vec<(String, Vec<u8>)>;

/// Where a new entry goes.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    pub(crate) dir: Ino,
    pub(crate) name: String,
    /// Components in the new entry's canonical path.
    pub(crate) depth: usize,
}

/// A symlink target's own rules: not empty (ENOENT), no NUL (EINVAL), at most 4095
/// bytes (ENAMETOOLONG).
pub(crate) fn check_symlink_target(target: &str) -> FsResult<()> {
    if target.is_empty() {
        return Err(Errno::ENOENT.into());
    }
    if target.contains('\0') {
        return Err(Errno::EINVAL.into());
    }
    if target.len() > MAX_SYMLINK_LEN {
        return Err(Errno::ENAMETOOLONG.into());
    }
    Ok(())
}

impl Walk<'_> {
    /// Where the (missing) final entry would be created; `trailing_err` if the path ends
    /// in `/`, which only mkdir accepts for a new entry.
    pub(crate) fn new_entry(&self, trailing_err: Errno) -> FsResult<Target> {
        if self.trailing_slash {
            return Err(trailing_err.into());
        }
        self.target()
    }

    /// The final entry's place (EEXIST when the path is `/`, `.` or `..`).
    pub(crate) fn target(&self) -> FsResult<Target> {
        Ok(Target {
            dir: self.dir,
            name: self.name(Errno::EEXIST)?.to_owned(),
            depth: self.depth(),
        })
    }
}

impl Fs {
    /// Creates many regular files (mode 0644, owned by the acting user) in directory
    /// `dir` at once: the directory is resolved and checked once and its listing
    /// written back once, each file checked as `write_file` checks a new one
    /// (name, size, count and total limits). Names already in the directory are not
    /// touched: they come back, with their contents, for the caller to write as it
    /// chooses. On an error the files before the one it names stay created.
    ///
    /// ```
    /// use shellbox::fs::{Clock, Fs};
    /// let mut fs = Fs::new(Clock::virtual_at(0));
    /// fs.write_file("/workspace/b", b"old").unwrap();
    /// let files = vec![("a".to_owned(), b"1".to_vec()), ("b".to_owned(), b"2".to_vec())];
    /// let left = fs.create_files("/workspace", files).unwrap();
    /// assert_eq!(left, [("b".to_owned(), b"2".to_vec())]);
    /// assert_eq!(fs.read_file("/workspace/a").unwrap().as_slice(), b"1");
    /// ```
    pub fn create_files(
        &mut self,
        dir: &str,
        files: NamedFiles,
    ) -> Result<NamedFiles, (String, FsError)> {
        let at = |e: FsError| (dir.to_owned(), e);
        let walk = self.walk(dir, Follow::Yes).map_err(at)?;
        let (ino, depth) = (walk.existing().map_err(at)?, walk.depth());
        let parent = self.inode(ino).map_err(at)?;
        let Some(existing) = parent.entries() else {
            return Err(at(Errno::ENOTDIR.into()));
        };
        if !self.may(parent, W | X) {
            return Err(at(Errno::EACCES.into()));
        }
        if depth + 1 > self.limits.max_path_depth {
            return Err(at(Errno::ENAMETOOLONG.into()));
        }
        let mut listing = existing.clone();
        let now = self.now();
        let mut left = Vec::new();
        let mut result = Ok(());
        for (name, data) in files {
            if listing.contains_key(&name) {
                left.push((name, data));
                continue;
            }
            if let Err(e) = self.check_new_file(&name, data.len() as u64) {
                result = Err((name, e));
                break;
            }
            let bytes = data.len() as u64;
            let inode = Inode::new(Node::File(Arc::new(data)), 0o644, self.uid, self.gid, now);
            let new = self.add_inode(inode);
            self.file_bytes = self.file_bytes.saturating_add(bytes);
            listing.insert(name, new);
        }
        let parent = self.inode_mut(ino).map_err(at)?;
        parent.node = Node::Dir(listing);
        parent.mtime = now;
        parent.ctime = now;
        result.map(|()| left)
    }

    /// The checks of a new regular file of `bytes` named `name` (its directory checked
    /// already).
    fn check_new_file(&self, name: &str, bytes: u64) -> FsResult<()> {
        if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\0']) {
            return Err(Errno::EINVAL.into());
        }
        if name.len() > self.limits.max_name_len {
            return Err(Errno::ENAMETOOLONG.into());
        }
        self.check_room(bytes)
    }

    /// The size and count limits for one more inode holding `bytes` file bytes.
    fn check_room(&self, bytes: u64) -> FsResult<()> {
        if bytes > self.limits.max_file_bytes {
            return Err(self.limit_error(LimitHit::FileBytes(self.limits.max_file_bytes)));
        }
        if self.inode_count >= self.limits.max_files {
            return Err(self.limit_error(LimitHit::Files(self.limits.max_files)));
        }
        if self.file_bytes.saturating_add(bytes) > self.limits.max_total_bytes {
            return Err(self.limit_error(LimitHit::TotalBytes(self.limits.max_total_bytes)));
        }
        Ok(())
    }

    /// Checks that a new entry of `bytes` file bytes may be created at `target`: depth,
    /// write and search permission on the directory, then the size and count limits.
    pub(crate) fn check_create(&self, target: &Target, bytes: u64) -> FsResult<()> {
        if target.depth > self.limits.max_path_depth {
            return Err(Errno::ENAMETOOLONG.into());
        }
        if !self.may(self.inode(target.dir)?, W | X) {
            return Err(Errno::EACCES.into());
        }
        self.check_room(bytes)
    }

    /// Creates a new inode owned by the acting user and links it at `target` (checked
    /// by [`Fs::check_create`] first).
    pub(crate) fn insert_new(&mut self, target: Target, node: Node, mode: u32) -> FsResult<Ino> {
        let now = self.now();
        let inode = Inode::new(node, mode, self.uid, self.gid, now);
        let (is_dir, bytes) = (inode.is_dir(), inode.file_bytes());
        self.add_entry(target.dir, target.name, self.next_ino, is_dir, now)?;
        let ino = self.add_inode(inode);
        self.file_bytes = self.file_bytes.saturating_add(bytes);
        Ok(ino)
    }

    /// Puts `inode` in the table under the next inode number, which it returns (the
    /// caller links it).
    pub(crate) fn add_inode(&mut self, inode: Inode) -> Ino {
        let ino = self.next_ino;
        self.inodes.insert(ino, inode);
        self.next_ino += 1;
        self.inode_count += 1;
        ino
    }

    /// Adds entry `name` → `ino` to directory `dir`, stamping its mtime/ctime.
    fn add_entry(
        &mut self,
        dir: Ino,
        name: String,
        ino: Ino,
        is_dir: bool,
        now: Timestamp,
    ) -> FsResult<()> {
        let parent = self.inode_mut(dir)?;
        let Node::Dir(entries) = &mut parent.node else {
            return Err(Errno::ENOTDIR.into());
        };
        entries.insert(name, ino);
        if is_dir {
            parent.nlink = parent.nlink.saturating_add(1);
        }
        parent.mtime = now;
        parent.ctime = now;
        Ok(())
    }

    /// Removes entry `name` from directory `dir`, stamping its mtime/ctime.
    fn take_entry(&mut self, dir: Ino, name: &str, is_dir: bool, now: Timestamp) -> FsResult<()> {
        let parent = self.inode_mut(dir)?;
        let Node::Dir(entries) = &mut parent.node else {
            return Err(Errno::ENOTDIR.into());
        };
        if entries.remove(name).is_none() {
            return Err(Errno::ENOENT.into());
        }
        if is_dir {
            parent.nlink = parent.nlink.saturating_sub(1);
        }
        parent.mtime = now;
        parent.ctime = now;
        Ok(())
    }

    /// Drops one link to `ino` (whose entry is already gone), freeing the inode with its
    /// last link; a directory has only the one.
    fn drop_link(&mut self, ino: Ino, now: Timestamp) -> FsResult<()> {
        let inode = self.inode_mut(ino)?;
        if !inode.is_dir() && inode.nlink > 1 {
            inode.nlink -= 1;
            inode.ctime = now;
            return Ok(());
        }
        if let Some(freed) = self.inodes.remove(&ino) {
            self.inode_count = self.inode_count.saturating_sub(1);
            self.file_bytes = self.file_bytes.saturating_sub(freed.file_bytes());
        }
        Ok(())
    }

    /// Whether the acting user may remove entry `child` from `dir`: write and search
    /// permission on `dir` (EACCES) and, if `dir` is sticky, ownership of the entry or
    /// of `dir` (EPERM).
    fn may_delete(&self, dir: Ino, child: Ino) -> FsResult<()> {
        let parent = self.inode(dir)?;
        if !self.may(parent, W | X) {
            return Err(Errno::EACCES.into());
        }
        if parent.mode & 0o1000 != 0
            && self.uid != 0
            && self.uid != parent.uid
            && self.uid != self.inode(child)?.uid
        {
            return Err(Errno::EPERM.into());
        }
        Ok(())
    }

    /// Unlinks entry `name` → `ino` from `dir` after the permission checks; a directory
    /// must be empty.
    fn unlink_checked(&mut self, dir: Ino, name: &str, ino: Ino) -> FsResult<()> {
        self.may_delete(dir, ino)?;
        let inode = self.inode(ino)?;
        let is_dir = inode.is_dir();
        if inode.entries().is_some_and(|e| !e.is_empty()) {
            return Err(Errno::ENOTEMPTY.into());
        }
        let now = self.now();
        self.take_entry(dir, name, is_dir, now)?;
        self.drop_link(ino, now)
    }

    /// mkdir(2): EEXIST if present, ENOENT if the parent is missing.
    ///
    /// The mode is used as given (the shell applies its umask first); the directory is
    /// owned by the acting user. A final symlink is not followed (EEXIST even if it
    /// dangles).
    ///
    /// ```
    /// # use shellbox::fs::{Clock, Errno, Fs};
    /// let mut fs = Fs::new(Clock::virtual_at(0));
    /// fs.mkdir("/workspace/src", 0o755)?;
    /// assert_eq!(fs.mkdir("/workspace/src", 0o755).map_err(|e| e.errno), Err(Errno::EEXIST));
    /// assert_eq!(fs.mkdir("/workspace/a/b", 0o755).map_err(|e| e.errno), Err(Errno::ENOENT));
    /// # Ok::<(), shellbox::fs::FsError>(())
    /// ```
    pub fn mkdir(&mut self, path: &str, mode: u32) -> FsResult<()> {
        let walk = self.walk(path, Follow::Never)?;
        if walk.ino.is_some() {
            return Err(Errno::EEXIST.into());
        }
        let target = walk.target()?;
        self.check_create(&target, 0)?;
        self.insert_new(target, Node::Dir(OrdMap::new()), mode)?;
        Ok(())
    }

    /// mkdir -p: creates missing parents; Ok if it already is a directory.
    ///
    /// Parents get `mode` plus owner write and search (`u+wx`, as GNU mkdir gives them),
    /// so a restrictive mode never blocks creating the rest of the path. An existing
    /// non-directory is EEXIST as the last component and ENOTDIR before it; parents
    /// created before an error stay.
    pub fn mkdir_all(&mut self, path: &str, mode: u32) -> FsResult<()> {
        if path.is_empty() {
            return Err(Errno::ENOENT.into());
        }
        let comps: Vec<&str> = components(path).collect();
        let mut prefix = String::with_capacity(path.len() + 1);
        for (i, comp) in comps.iter().enumerate() {
            prefix.push('/');
            prefix.push_str(comp);
            let last = i + 1 == comps.len();
            let this_mode = if last { mode } else { mode | 0o300 };
            match self.mkdir(&prefix, this_mode) {
                Err(e) if e.errno == Errno::EEXIST => {
                    if !self.stat(&prefix)?.is_dir() {
                        let errno = if last { Errno::EEXIST } else { Errno::ENOTDIR };
                        return Err(errno.into());
                    }
                }
                other => other?,
            }
        }
        if comps.is_empty() {
            self.stat(path)?;
        }
        Ok(())
    }

    /// Entries of a directory sorted by name (no `.`/`..`).
    ///
    /// Needs read permission on the directory (EACCES); ENOTDIR for anything else.
    pub fn read_dir(&self, path: &str) -> FsResult<Vec<DirEntry>> {
        self.listing(path)?
            .iter()
            .map(|(name, &child)| {
                Ok(DirEntry {
                    name: name.clone(),
                    ino: child,
                    file_type: self.inode(child)?.file_type(),
                })
            })
            .collect()
    }

    /// [`read_dir`](Self::read_dir) with each entry's `lstat`, taken in the same
    /// lookup; without `sizes`, as [`Fs::stat_ino_unsized`] gives them.
    ///
    /// ```
    /// # use shellbox::fs::{Clock, Fs};
    /// let mut fs = Fs::new(Clock::virtual_at(0));
    /// fs.mkdir("/workspace/d", 0o755)?;
    /// fs.write_file("/workspace/d/a", b"abc")?;
    /// let listing = fs.read_dir_stat("/workspace/d", true)?;
    /// assert_eq!(listing.len(), 1);
    /// assert_eq!((listing[0].0.as_str(), listing[0].1.size), ("a", 3));
    /// # Ok::<(), shellbox::fs::FsError>(())
    /// ```
    pub fn read_dir_stat(&self, path: &str, sizes: bool) -> FsResult<Vec<(String, Metadata)>> {
        self.listing(path)?
            .iter()
            .map(|(name, &child)| {
                let meta = if sizes {
                    self.stat_ino(child)?
                } else {
                    self.stat_ino_unsized(child)?
                };
                Ok((name.clone(), meta))
            })
            .collect()
    }

    /// The entries of directory `path`, which the acting user must be able to read.
    fn listing(&self, path: &str) -> FsResult<&OrdMap<String, Ino>> {
        let (_, ino) = self.walk_existing(path, Follow::Yes)?;
        let inode = self.inode(ino)?;
        let Some(entries) = inode.entries() else {
            return Err(Errno::ENOTDIR.into());
        };
        if !self.may(inode, super::inode::R) {
            return Err(Errno::EACCES.into());
        }
        Ok(entries)
    }

    /// unlink(2) (EISDIR on a directory).
    ///
    /// A final symlink is removed, not followed. Needs write permission on the parent
    /// (EACCES); in a sticky directory like /tmp only the owner of the entry or of the
    /// directory may remove it (EPERM).
    pub fn remove_file(&mut self, path: &str) -> FsResult<()> {
        let walk = self.walk(path, Follow::Never)?;
        let name = walk.name(Errno::EISDIR)?;
        let ino = walk.existing()?;
        self.may_delete(walk.dir, ino)?;
        if self.inode(ino)?.is_dir() {
            return Err(Errno::EISDIR.into());
        }
        if walk.trailing_slash {
            return Err(Errno::ENOTDIR.into());
        }
        let (dir, name) = (walk.dir, name.to_owned());
        self.unlink_checked(dir, &name, ino)
    }

    /// rmdir(2) (ENOTEMPTY unless empty).
    ///
    /// `/` is EBUSY, a final `.` EINVAL and `..` ENOTEMPTY, as on Linux; a symlink is
    /// ENOTDIR (not followed).
    pub fn remove_dir(&mut self, path: &str) -> FsResult<()> {
        let walk = self.walk(path, Follow::Never)?;
        let name = match walk.last {
            Last::Name(name) => name,
            Last::Root => return Err(Errno::EBUSY.into()),
            Last::Dot => return Err(Errno::EINVAL.into()),
            Last::DotDot => return Err(Errno::ENOTEMPTY.into()),
        };
        let ino = walk.existing()?;
        self.may_delete(walk.dir, ino)?;
        if !self.inode(ino)?.is_dir() {
            return Err(Errno::ENOTDIR.into());
        }
        let (dir, name) = (walk.dir, name.to_owned());
        self.unlink_checked(dir, &name, ino)
    }

    /// rm -rf of one path (does not follow a symlink at `path`).
    ///
    /// Like `rm -rf`, it removes whatever it may and reports the first error: emptying a
    /// directory needs write and search permission on it, and each entry is removed
    /// under the same rules as [`Fs::remove_file`]. `/` is EBUSY; `.` and `..` EINVAL.
    pub fn remove_all(&mut self, path: &str) -> FsResult<()> {
        let walk = self.walk(path, Follow::Never)?;
        let name = match walk.last {
            Last::Name(name) => name,
            Last::Root => return Err(Errno::EBUSY.into()),
            Last::Dot | Last::DotDot => return Err(Errno::EINVAL.into()),
        };
        let ino = walk.existing()?;
        if walk.trailing_slash && !self.inode(ino)?.is_dir() {
            return Err(Errno::ENOTDIR.into());
        }
        let (dir, name) = (walk.dir, name.to_owned());
        self.remove_tree(dir, name, ino)
    }

    /// Removes `name` → `ino` in `dir` and everything below it, depth first with an
    /// explicit stack (trees may be deeper than the host stack allows recursion).
    fn remove_tree(&mut self, dir: Ino, name: String, ino: Ino) -> FsResult<()> {
        enum Step {
            /// Visit: queue the children of a directory, or remove a leaf.
            Enter(Ino, String, Ino),
            /// Remove the entry once its children are gone.
            Leave(Ino, String, Ino),
        }
        let mut first_err: Option<FsError> = None;
        let mut steps = vec![Step::Enter(dir, name, ino)];
        while let Some(step) = steps.pop() {
            match step {
                Step::Enter(dir, name, ino) => {
                    let inode = self.inode(ino)?;
                    match inode.entries() {
                        Some(entries) if !entries.is_empty() => {
                            if !self.may(inode, W | X) {
                                first_err.get_or_insert(Errno::EACCES.into());
                                continue;
                            }
                            let children: Vec<(String, Ino)> =
                                entries.iter().map(|(n, i)| (n.clone(), *i)).collect();
                            steps.push(Step::Leave(dir, name, ino));
                            for (child_name, child) in children.into_iter().rev() {
                                steps.push(Step::Enter(ino, child_name, child));
                            }
                        }
                        _ => steps.push(Step::Leave(dir, name, ino)),
                    }
                }
                Step::Leave(dir, name, ino) => {
                    if let Err(e) = self.unlink_checked(dir, &name, ino) {
                        first_err.get_or_insert(e);
                    }
                }
            }
        }
        first_err.map_or(Ok(()), Err)
    }

    /// rename(2) with POSIX rules (replace a file or empty dir, EINVAL into itself, ...).
    ///
    /// Neither final component is followed. Renaming onto the same file (or another
    /// hard link of it) does nothing. A directory over a non-directory is ENOTDIR, the
    /// reverse EISDIR, over a non-empty directory ENOTEMPTY, into its own subtree
    /// EINVAL; `/`, `.` or `..` on either side is EBUSY. Moving a directory to another
    /// parent also needs write permission on it (its `..` changes).
    pub fn rename(&mut self, from: &str, to: &str) -> FsResult<()> {
        let src = self.walk(from, Follow::Never)?;
        let src_name = src.name(Errno::EBUSY)?;
        let src_ino = src.existing()?;
        let dst = self.walk(to, Follow::Never)?;
        let dst_name = dst.name(Errno::EBUSY)?;
        let src_inode = self.inode(src_ino)?;
        let src_is_dir = src_inode.is_dir();
        if !src_is_dir && (src.trailing_slash || dst.trailing_slash) {
            return Err(Errno::ENOTDIR.into());
        }
        if dst.ino == Some(src_ino) {
            return Ok(());
        }
        if src_is_dir && dst.passes_through(src_ino) {
            return Err(Errno::EINVAL.into());
        }
        self.may_delete(src.dir, src_ino)?;
        match dst.ino {
            Some(old) => self.may_delete(dst.dir, old)?,
            None if !self.may(self.inode(dst.dir)?, W | X) => {
                return Err(Errno::EACCES.into());
            }
            None => {}
        }
        if src_is_dir && src.dir != dst.dir && !self.may(src_inode, W) {
            return Err(Errno::EACCES.into());
        }
        let replaced = match dst.ino {
            Some(old) => {
                let old_inode = self.inode(old)?;
                match (src_is_dir, old_inode.entries()) {
                    (true, None) => return Err(Errno::ENOTDIR.into()),
                    (false, Some(_)) => return Err(Errno::EISDIR.into()),
                    (true, Some(entries)) if !entries.is_empty() => {
                        return Err(Errno::ENOTEMPTY.into());
                    }
                    _ => Some((old, old_inode.is_dir())),
                }
            }
            None => None,
        };
        if dst.depth() > self.limits.max_path_depth {
            return Err(Errno::ENAMETOOLONG.into());
        }
        let (src_dir, src_name) = (src.dir, src_name.to_owned());
        let (dst_dir, dst_name) = (dst.dir, dst_name.to_owned());
        let now = self.now();
        if let Some((old, old_is_dir)) = replaced {
            self.take_entry(dst_dir, &dst_name, old_is_dir, now)?;
            self.drop_link(old, now)?;
        }
        self.take_entry(src_dir, &src_name, src_is_dir, now)?;
        self.add_entry(dst_dir, dst_name, src_ino, src_is_dir, now)?;
        self.inode_mut(src_ino)?.ctime = now;
        Ok(())
    }

    /// link(2): a hard link to a non-directory.
    ///
    /// A symlink at `existing` is linked itself, not followed. A directory is EPERM;
    /// an existing `new` is EEXIST.
    pub fn link(&mut self, existing: &str, new: &str) -> FsResult<()> {
        let (_, ino) = self.walk_existing(existing, Follow::No)?;
        if self.inode(ino)?.is_dir() {
            return Err(Errno::EPERM.into());
        }
        let dst = self.walk(new, Follow::Never)?;
        if dst.ino.is_some() {
            return Err(Errno::EEXIST.into());
        }
        let target = dst.new_entry(Errno::ENOENT)?;
        if target.depth > self.limits.max_path_depth {
            return Err(Errno::ENAMETOOLONG.into());
        }
        if !self.may(self.inode(target.dir)?, W | X) {
            return Err(Errno::EACCES.into());
        }
        let now = self.now();
        self.add_entry(target.dir, target.name, ino, false, now)?;
        let inode = self.inode_mut(ino)?;
        inode.nlink = inode.nlink.saturating_add(1);
        inode.ctime = now;
        Ok(())
    }

    /// symlink(2): `linkpath` pointing at `target` (stored verbatim).
    ///
    /// An empty target is ENOENT and one over 4095 bytes ENAMETOOLONG; the link has
    /// mode 0777 and counts against the inode limit.
    pub fn symlink(&mut self, target: &str, linkpath: &str) -> FsResult<()> {
        check_symlink_target(target)?;
        let walk = self.walk(linkpath, Follow::Never)?;
        if walk.ino.is_some() {
            return Err(Errno::EEXIST.into());
        }
        let at = walk.new_entry(Errno::ENOENT)?;
        self.check_create(&at, 0)?;
        self.insert_new(at, Node::Symlink(Arc::from(target)), 0o777)?;
        Ok(())
    }

    /// mkfifo(3): creates a named pipe with permission bits `mode` (the caller's umask
    /// already applied). EEXIST if the name is taken (a dangling symlink included).
    ///
    /// ```
    /// # use shellbox::fs::{Clock, FileType, Fs};
    /// let mut fs = Fs::new(Clock::virtual_at(0));
    /// fs.mkfifo("/tmp/p", 0o644)?;
    /// assert_eq!(fs.stat("/tmp/p")?.file_type, FileType::Fifo);
    /// assert!(fs.mkfifo("/tmp/p", 0o644).is_err());
    /// # Ok::<(), shellbox::fs::FsError>(())
    /// ```
    pub fn mkfifo(&mut self, path: &str, mode: u32) -> FsResult<()> {
        let walk = self.walk(path, Follow::Never)?;
        if walk.ino.is_some() {
            return Err(Errno::EEXIST.into());
        }
        let at = walk.new_entry(Errno::ENOENT)?;
        self.check_create(&at, 0)?;
        self.insert_new(at, Node::Fifo, mode)?;
        Ok(())
    }

    /// Creates a device node (for the default layout).
    pub(crate) fn mknod(&mut self, path: &str, device: Device, mode: u32) -> FsResult<Ino> {
        let walk = self.walk(path, Follow::Never)?;
        if walk.ino.is_some() {
            return Err(Errno::EEXIST.into());
        }
        let at = walk.new_entry(Errno::ENOENT)?;
        self.check_create(&at, 0)?;
        self.insert_new(at, Node::Device(device), mode)
    }

    /// readlink(2): the target of a symlink, verbatim (EINVAL for anything else).
    pub fn readlink(&self, path: &str) -> FsResult<String> {
        let (_, ino) = self.walk_existing(path, Follow::No)?;
        match &self.inode(ino)?.node {
            Node::Symlink(target) => Ok(target.to_string()),
            _ => Err(Errno::EINVAL.into()),
        }
    }

    /// realpath(3): the canonical absolute path, all symlinks resolved; must exist.
    ///
    /// ```
    /// # use shellbox::fs::{Clock, Fs};
    /// let mut fs = Fs::new(Clock::virtual_at(0));
    /// fs.symlink("/home/user", "/workspace/home")?;
    /// assert_eq!(fs.canonicalize("/workspace/home/../user/.")?, "/home/user");
    /// # Ok::<(), shellbox::fs::FsError>(())
    /// ```
    pub fn canonicalize(&self, path: &str) -> FsResult<String> {
        let (walk, _) = self.walk_existing(path, Follow::Yes)?;
        Ok(walk.canonical())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::model::check_invariants;
    use crate::fs::testing::{T0, errno, fixture};
    use crate::fs::{FileType, FsLimits};

    const W: &str = "/workspace";

    /// Runs `op` on a fresh fixture, checks its outcome and the invariants, and returns
    /// the filesystem for further checks.
    fn check(op: impl FnOnce(&mut Fs) -> FsResult<()>, want: Result<(), Errno>) -> Fs {
        check_after(|_| Ok(()), op, want)
    }

    /// [`check`] on the fixture after `setup`.
    fn check_after(
        setup: impl FnOnce(&mut Fs) -> FsResult<()>,
        op: impl FnOnce(&mut Fs) -> FsResult<()>,
        want: Result<(), Errno>,
    ) -> Fs {
        let mut fs = fixture();
        assert_eq!(setup(&mut fs), Ok(()));
        let before = fs.snapshot();
        let got = errno(op(&mut fs));
        assert_eq!(got, want);
        assert_eq!(check_invariants(&fs), Ok(()));
        if got.is_err() {
            assert_eq!(fs.usage(), before.usage(), "failure changes nothing");
        }
        fs
    }

    /// The type of what `path` names without following it, or its errno.
    fn kind(fs: &Fs, path: &str) -> Result<FileType, Errno> {
        errno(fs.lstat(path)).map(|m| m.file_type)
    }

    fn names(fs: &Fs, path: &str) -> Vec<String> {
        fs.read_dir(path)
            .map(|entries| entries.into_iter().map(|e| e.name).collect())
            .unwrap_or_default()
    }

    #[test]
    fn mkdir_table() {
        for (path, want) in [
            ("/workspace/new", Ok(())),
            ("/workspace/new/", Ok(())),
            ("/workspace/d/new", Ok(())),
            ("/workspace/dlink/new", Ok(())),
            ("/workspace/d", Err(Errno::EEXIST)),
            ("/workspace/f", Err(Errno::EEXIST)),
            ("/workspace/link", Err(Errno::EEXIST)),
            ("/workspace/dangling", Err(Errno::EEXIST)),
            ("/workspace/dangling/", Err(Errno::EEXIST)),
            ("/", Err(Errno::EEXIST)),
            ("/workspace/.", Err(Errno::EEXIST)),
            ("/workspace/d/..", Err(Errno::EEXIST)),
            ("/workspace/a/b", Err(Errno::ENOENT)),
            ("/workspace/f/b", Err(Errno::ENOTDIR)),
            ("/etc/new", Err(Errno::EACCES)),
            ("", Err(Errno::ENOENT)),
        ] {
            let fs = check(|fs| fs.mkdir(path, 0o700), want);
            if want.is_ok() {
                let m = fs.stat(path);
                assert_eq!(errno(m.clone()).map(|m| (m.mode, m.nlink)), Ok((0o700, 2)));
            }
        }
    }

    #[test]
    fn mkdir_counts_links_and_stamps_the_parent() -> FsResult<()> {
        let mut fs = fixture();
        fs.clock().advance(1_000_000_000);
        fs.mkdir("/workspace/d/sub", 0o755)?;
        fs.mkdir("/workspace/d/sub2", 0o755)?;
        let d = fs.stat("/workspace/d")?;
        assert_eq!(d.nlink, 4);
        assert_eq!(d.mtime, crate::fs::Timestamp::from_secs(T0 + 1));
        fs.remove_dir("/workspace/d/sub")?;
        assert_eq!(fs.stat("/workspace/d")?.nlink, 3);
        Ok(())
    }

    #[test]
    fn mkdir_all_table() {
        for (path, want) in [
            ("/workspace/a/b/c", Ok(())),
            ("/workspace/a//b/./c/", Ok(())),
            ("/workspace/d", Ok(())),
            ("/workspace/dlink/x", Ok(())),
            ("/workspace/a/../b", Ok(())),
            ("/", Ok(())),
            ("/workspace/f", Err(Errno::EEXIST)),
            ("/workspace/f/x/y", Err(Errno::ENOTDIR)),
            ("/workspace/dangling/x", Err(Errno::ENOENT)),
            ("/etc/x/y", Err(Errno::EACCES)),
            ("", Err(Errno::ENOENT)),
        ] {
            let fs = check(|fs| fs.mkdir_all(path, 0o755), want);
            if want.is_ok() {
                assert_eq!(kind(&fs, path), Ok(FileType::Dir), "{path}");
            }
        }
    }

    #[test]
    fn mkdir_all_parents_stay_usable() -> FsResult<()> {
        let mut fs = fixture();
        fs.mkdir_all("/workspace/p/q/r", 0o500)?;
        assert_eq!(fs.stat("/workspace/p")?.mode, 0o700);
        assert_eq!(fs.stat("/workspace/p/q/r")?.mode, 0o500);
        Ok(())
    }

    #[test]
    fn depth_and_count_limits() {
        let mut fs = fixture().with_limits(FsLimits {
            max_path_depth: 3,
            ..FsLimits::default()
        });
        assert_eq!(errno(fs.mkdir("/workspace/d/e", 0o755)), Ok(()));
        assert_eq!(
            errno(fs.mkdir("/workspace/d/e/f", 0o755)),
            Err(Errno::ENAMETOOLONG)
        );
        assert_eq!(
            errno(fs.write_file("/workspace/d/e/f", b"")),
            Err(Errno::ENAMETOOLONG)
        );
        assert_eq!(
            errno(fs.symlink("x", "/workspace/d/e/f")),
            Err(Errno::ENAMETOOLONG)
        );
        assert_eq!(
            errno(fs.link("/workspace/f", "/workspace/d/e/f")),
            Err(Errno::ENAMETOOLONG)
        );
        assert_eq!(
            errno(fs.rename("/workspace/f", "/workspace/d/e/f")),
            Err(Errno::ENAMETOOLONG)
        );
        assert_eq!(
            errno(fs.mkdir_all("/workspace/x/y/z", 0o755)),
            Err(Errno::ENAMETOOLONG)
        );
        let (_, inodes) = fs.usage();
        let mut fs = fs.with_limits(FsLimits {
            max_files: inodes,
            ..FsLimits::default()
        });
        assert_eq!(errno(fs.symlink("x", "/workspace/s")), Err(Errno::ENOSPC));
        assert_eq!(
            errno(fs.link("/workspace/f", "/workspace/h")),
            Ok(()),
            "no new inode"
        );
    }

    #[test]
    fn read_dir_table() {
        let mut fs = fixture();
        let _ = fs.chmod("/workspace/d", 0o311);
        let check_dir = |path: &str, want: Result<Vec<&str>, Errno>| {
            let got = errno(fs.read_dir(path));
            let got = got.map(|es| es.into_iter().map(|e| e.name).collect::<Vec<_>>());
            let want = want.map(|v| v.into_iter().map(String::from).collect::<Vec<_>>());
            assert_eq!(got, want, "{path}");
        };
        check_dir(W, Ok(vec!["abs", "d", "dangling", "dlink", "f", "link"]));
        check_dir("/workspace/d", Err(Errno::EACCES));
        check_dir("/workspace/f", Err(Errno::ENOTDIR));
        check_dir("/workspace/nope", Err(Errno::ENOENT));
        check_dir("/home", Ok(vec!["user"]));
        let entries = fs.read_dir(W).unwrap_or_default();
        let types: Vec<FileType> = entries.iter().map(|e| e.file_type).collect();
        assert_eq!(types[1], FileType::Dir);
        assert_eq!(types[5], FileType::Symlink);
        assert_eq!(
            Some(entries[4].ino),
            fs.stat("/workspace/f").ok().map(|m| m.ino)
        );
    }

    #[test]
    fn remove_file_table() {
        for (path, want, gone, stays) in [
            ("/workspace/f", Ok(()), "/workspace/f", "/workspace/d"),
            ("/workspace/link", Ok(()), "/workspace/link", "/workspace/f"),
            (
                "/workspace/dlink",
                Ok(()),
                "/workspace/dlink",
                "/workspace/d/g",
            ),
            (
                "/workspace/dangling",
                Ok(()),
                "/workspace/dangling",
                "/workspace/f",
            ),
            ("/workspace/d", Err(Errno::EISDIR), "", "/workspace/d"),
            (
                "/workspace/dlink/",
                Err(Errno::ENOTDIR),
                "",
                "/workspace/dlink",
            ),
            ("/workspace/f/", Err(Errno::ENOTDIR), "", "/workspace/f"),
            ("/workspace/nope", Err(Errno::ENOENT), "", "/workspace/f"),
            ("/workspace/nope/x", Err(Errno::ENOENT), "", "/workspace/f"),
            ("/", Err(Errno::EISDIR), "", "/workspace/f"),
            ("/workspace/.", Err(Errno::EISDIR), "", "/workspace/f"),
            ("/etc/passwd", Err(Errno::EACCES), "", "/etc/passwd"),
        ] {
            let fs = check(|fs| fs.remove_file(path), want);
            if !gone.is_empty() {
                assert_eq!(kind(&fs, gone), Err(Errno::ENOENT), "{path}");
            }
            assert!(kind(&fs, stays).is_ok(), "{path}: {stays} stays");
        }
    }

    #[test]
    fn remove_dir_table() {
        for (path, want) in [
            ("/workspace/d", Err(Errno::ENOTEMPTY)),
            ("/workspace/e", Ok(())),
            ("/workspace/e/", Ok(())),
            ("/workspace/f", Err(Errno::ENOTDIR)),
            ("/workspace/dlink", Err(Errno::ENOTDIR)),
            ("/workspace/nope", Err(Errno::ENOENT)),
            ("/", Err(Errno::EBUSY)),
            ("/workspace/e/.", Err(Errno::EINVAL)),
            ("/workspace/e/..", Err(Errno::ENOTEMPTY)),
            ("/usr/bin", Err(Errno::EACCES)),
        ] {
            let fs = check_after(
                |fs| fs.mkdir("/workspace/e", 0o755),
                |fs| fs.remove_dir(path),
                want,
            );
            assert_eq!(kind(&fs, "/workspace/e").is_err(), want.is_ok(), "{path}");
        }
    }

    #[test]
    fn remove_all_table() {
        for (path, want, gone) in [
            ("/workspace/d", Ok(()), "/workspace/d"),
            ("/workspace/f", Ok(()), "/workspace/f"),
            ("/workspace/dlink", Ok(()), "/workspace/dlink"),
            ("/workspace/nope", Err(Errno::ENOENT), ""),
            ("/workspace/f/", Err(Errno::ENOTDIR), ""),
            ("/", Err(Errno::EBUSY), ""),
            ("/workspace/d/..", Err(Errno::EINVAL), ""),
            ("/workspace/.", Err(Errno::EINVAL), ""),
            ("/etc", Err(Errno::EACCES), ""),
        ] {
            let fs = check(|fs| fs.remove_all(path), want);
            if !gone.is_empty() {
                assert_eq!(kind(&fs, gone), Err(Errno::ENOENT), "{path}");
            }
            assert_eq!(
                fs.read_file("/workspace/d/g").is_ok(),
                path != "/workspace/d",
                "{path}: a symlink to d is not followed"
            );
        }
    }

    #[test]
    fn remove_all_deep_and_wide_trees() -> FsResult<()> {
        let mut fs = fixture();
        let deep = "/workspace/t".to_owned() + &"/x".repeat(200);
        fs.mkdir_all(&deep, 0o755)?;
        for i in 0..50 {
            fs.write_file(&format!("/workspace/t/x/f{i}"), b"data")?;
        }
        let (bytes, inodes) = fixture().usage();
        fs.remove_all("/workspace/t")?;
        assert_eq!(fs.usage(), (bytes, inodes));
        assert_eq!(check_invariants(&fs), Ok(()));
        Ok(())
    }

    #[test]
    fn remove_all_removes_what_it_may() -> FsResult<()> {
        let mut fs = fixture();
        fs.mkdir_all("/workspace/t/locked", 0o755)?;
        fs.mkdir_all("/workspace/t/open/inner", 0o755)?;
        fs.write_file("/workspace/t/locked/keep", b"")?;
        fs.write_file("/workspace/t/open/inner/go", b"")?;
        fs.chmod("/workspace/t/locked", 0o555)?;
        assert_eq!(errno(fs.remove_all("/workspace/t")), Err(Errno::EACCES));
        assert_eq!(names(&fs, "/workspace/t"), ["locked"]);
        assert!(fs.exists("/workspace/t/locked/keep"));
        assert_eq!(check_invariants(&fs), Ok(()));
        fs.set_user(0, 0);
        fs.remove_all("/workspace/t")?;
        assert!(!fs.exists("/workspace/t"));
        Ok(())
    }

    #[test]
    fn hard_links_share_the_inode() -> FsResult<()> {
        let mut fs = fixture();
        fs.link("/workspace/f", "/workspace/d/hard")?;
        assert_eq!(fs.stat("/workspace/f")?.nlink, 2);
        assert_eq!(
            fs.stat("/workspace/f")?.ino,
            fs.stat("/workspace/d/hard")?.ino
        );
        fs.append_file("/workspace/d/hard", b"!")?;
        assert_eq!(fs.read_file("/workspace/f")?.as_slice(), b"hello!");
        fs.remove_file("/workspace/f")?;
        assert_eq!(fs.stat("/workspace/d/hard")?.nlink, 1);
        assert_eq!(fs.read_file("/workspace/d/hard")?.as_slice(), b"hello!");
        fs.link("/workspace/link", "/workspace/link2")?;
        assert_eq!(
            fs.readlink("/workspace/link2")?,
            "f",
            "the symlink itself is linked"
        );
        Ok(())
    }

    #[test]
    fn link_table() {
        for (existing, new, want) in [
            ("/workspace/f", "/workspace/h", Ok(())),
            ("/workspace/dangling", "/workspace/h", Ok(())),
            ("/workspace/d", "/workspace/h", Err(Errno::EPERM)),
            ("/workspace/nope", "/workspace/h", Err(Errno::ENOENT)),
            ("/workspace/f", "/workspace/d/g", Err(Errno::EEXIST)),
            ("/workspace/f", "/workspace/dangling", Err(Errno::EEXIST)),
            ("/workspace/f", "/workspace/h/", Err(Errno::ENOENT)),
            ("/workspace/f", "/workspace/no/h", Err(Errno::ENOENT)),
            ("/workspace/f", "/etc/h", Err(Errno::EACCES)),
            ("/workspace/f", "/", Err(Errno::EEXIST)),
        ] {
            check(|fs| fs.link(existing, new), want);
        }
    }

    #[test]
    fn symlink_table() {
        for (target, path, want) in [
            ("anything", "/workspace/s", Ok(())),
            ("../..//x/", "/workspace/s", Ok(())),
            ("", "/workspace/s", Err(Errno::ENOENT)),
            ("a\0b", "/workspace/s", Err(Errno::EINVAL)),
            ("x", "/workspace/f", Err(Errno::EEXIST)),
            ("x", "/workspace/dangling", Err(Errno::EEXIST)),
            ("x", "/workspace/s/", Err(Errno::ENOENT)),
            ("x", "/etc/s", Err(Errno::EACCES)),
            ("x", "/workspace/nope/s", Err(Errno::ENOENT)),
        ] {
            let fs = check(|fs| fs.symlink(target, path), want);
            if want.is_ok() {
                assert_eq!(errno(fs.readlink(path)).as_deref(), Ok(target));
                let m = errno(fs.lstat(path)).map(|m| (m.mode, m.size));
                assert_eq!(m, Ok((0o777, target.len() as u64)));
            }
        }
        let long = "x".repeat(MAX_SYMLINK_LEN + 1);
        check(
            |fs| fs.symlink(&long, "/workspace/s"),
            Err(Errno::ENAMETOOLONG),
        );
    }

    #[test]
    fn readlink_and_canonicalize_table() {
        let fs = fixture();
        for (path, want) in [
            ("/workspace/link", Ok("f")),
            ("/workspace/abs", Ok("/workspace/d")),
            ("/workspace/dangling", Ok("nope")),
            ("/workspace/f", Err(Errno::EINVAL)),
            ("/workspace/dlink/", Err(Errno::EINVAL)),
            ("/workspace/nope", Err(Errno::ENOENT)),
        ] {
            assert_eq!(
                errno(fs.readlink(path)).as_deref().map_err(|e| *e),
                want,
                "{path}"
            );
        }
        for (path, want) in [
            ("/workspace/link", Ok("/workspace/f")),
            ("/workspace/dlink/g", Ok("/workspace/d/g")),
            ("/workspace/abs/../f", Ok("/workspace/f")),
            ("/workspace/dlink/..", Ok("/workspace")),
            ("//workspace/./d/", Ok("/workspace/d")),
            ("/../..", Ok("/")),
            ("/workspace/dangling", Err(Errno::ENOENT)),
            ("/workspace/f/", Err(Errno::ENOTDIR)),
        ] {
            assert_eq!(
                errno(fs.canonicalize(path)).as_deref().map_err(|e| *e),
                want,
                "{path}"
            );
        }
    }

    #[test]
    fn rename_table() {
        // Every case starts from the fixture plus /workspace/e (empty dir) and
        // /workspace/d/sub (dir); `moved` names what must exist afterwards.
        for (from, to, want, moved) in [
            ("/workspace/f", "/workspace/f2", Ok(()), "/workspace/f2"),
            ("/workspace/f", "/workspace/d/g", Ok(()), "/workspace/d/g"),
            (
                "/workspace/f",
                "/workspace/dangling",
                Ok(()),
                "/workspace/dangling",
            ),
            ("/workspace/d", "/workspace/e", Ok(()), "/workspace/e/g"),
            ("/workspace/d", "/workspace/e/", Ok(()), "/workspace/e/g"),
            ("/workspace/d", "/workspace/d2", Ok(()), "/workspace/d2/sub"),
            (
                "/workspace/d/sub",
                "/workspace/top",
                Ok(()),
                "/workspace/top",
            ),
            (
                "/workspace/link",
                "/workspace/e/l",
                Ok(()),
                "/workspace/e/l",
            ),
            ("/workspace/f", "/workspace/f", Ok(()), "/workspace/f"),
            (
                "/workspace/d",
                "/workspace/dlink/..",
                Err(Errno::EBUSY),
                "/workspace/d",
            ),
            (
                "/workspace/f",
                "/workspace/e",
                Err(Errno::EISDIR),
                "/workspace/f",
            ),
            (
                "/workspace/e",
                "/workspace/f",
                Err(Errno::ENOTDIR),
                "/workspace/e",
            ),
            (
                "/workspace/e",
                "/workspace/d",
                Err(Errno::ENOTEMPTY),
                "/workspace/e",
            ),
            (
                "/workspace/d",
                "/workspace/d/sub/x",
                Err(Errno::EINVAL),
                "/workspace/d",
            ),
            (
                "/workspace/d",
                "/workspace/d/x",
                Err(Errno::EINVAL),
                "/workspace/d",
            ),
            (
                "/workspace/d",
                "/workspace/dlink/x",
                Err(Errno::EINVAL),
                "/workspace/d",
            ),
            (
                "/workspace/d",
                "/workspace/d/sub",
                Err(Errno::EINVAL),
                "/workspace/d/sub",
            ),
            (
                "/workspace/d/sub",
                "/workspace/d",
                Err(Errno::ENOTEMPTY),
                "/workspace/d",
            ),
            (
                "/workspace/nope",
                "/workspace/x",
                Err(Errno::ENOENT),
                "/workspace/f",
            ),
            (
                "/workspace/f",
                "/workspace/no/x",
                Err(Errno::ENOENT),
                "/workspace/f",
            ),
            (
                "/workspace/f",
                "/workspace/f/x",
                Err(Errno::ENOTDIR),
                "/workspace/f",
            ),
            (
                "/workspace/f/",
                "/workspace/x",
                Err(Errno::ENOTDIR),
                "/workspace/f",
            ),
            (
                "/workspace/f",
                "/workspace/x/",
                Err(Errno::ENOTDIR),
                "/workspace/f",
            ),
            ("/", "/workspace/x", Err(Errno::EBUSY), "/workspace/f"),
            ("/workspace/f", "/", Err(Errno::EBUSY), "/workspace/f"),
            (
                "/workspace/.",
                "/workspace/x",
                Err(Errno::EBUSY),
                "/workspace/f",
            ),
            ("/workspace/f", "/etc/f", Err(Errno::EACCES), "/workspace/f"),
            (
                "/etc/passwd",
                "/workspace/p",
                Err(Errno::EACCES),
                "/etc/passwd",
            ),
        ] {
            let fs = check_after(
                |fs| {
                    fs.mkdir("/workspace/e", 0o755)?;
                    fs.mkdir("/workspace/d/sub", 0o755)
                },
                |fs| fs.rename(from, to),
                want,
            );
            assert!(kind(&fs, moved).is_ok(), "{from} -> {to}: {moved} exists");
            if want.is_ok() && from != to {
                assert_eq!(kind(&fs, from), Err(Errno::ENOENT), "{from} -> {to}");
            }
        }
    }

    #[test]
    fn rename_keeps_the_inode_and_fixes_link_counts() -> FsResult<()> {
        let mut fs = fixture();
        let ino = fs.stat("/workspace/d")?.ino;
        fs.mkdir("/workspace/e", 0o755)?;
        fs.rename("/workspace/d", "/workspace/e/d")?;
        assert_eq!(fs.stat("/workspace/e/d")?.ino, ino);
        assert_eq!(fs.stat("/workspace/e")?.nlink, 3);
        assert_eq!(fs.stat(W)?.nlink, 3);
        // `..` is physical: it follows the directory to its new parent.
        assert_eq!(fs.canonicalize("/workspace/e/d/..")?, "/workspace/e");
        fs.link("/workspace/f", "/workspace/hard")?;
        fs.rename("/workspace/f", "/workspace/hard")?;
        assert_eq!(
            fs.stat("/workspace/f")?.nlink,
            2,
            "same inode: nothing happens"
        );
        fs.write_file("/workspace/other", b"o")?;
        fs.rename("/workspace/other", "/workspace/hard")?;
        assert_eq!(fs.stat("/workspace/f")?.nlink, 1);
        assert_eq!(check_invariants(&fs), Ok(()));
        Ok(())
    }

    #[test]
    fn rename_of_a_directory_needs_write_on_it_to_change_parent() -> FsResult<()> {
        let mut fs = fixture();
        fs.mkdir("/workspace/e", 0o755)?;
        fs.chmod("/workspace/d", 0o555)?;
        assert_eq!(
            errno(fs.rename("/workspace/d", "/workspace/e/d")),
            Err(Errno::EACCES)
        );
        assert_eq!(errno(fs.rename("/workspace/d", "/workspace/d2")), Ok(()));
        Ok(())
    }

    #[test]
    fn sticky_tmp_protects_other_users_entries() -> FsResult<()> {
        let mut fs = fixture();
        fs.write_file("/tmp/mine", b"")?;
        fs.mkdir("/tmp/mydir", 0o777)?;
        fs.set_user(1001, 1001);
        fs.write_file("/tmp/theirs", b"")?;
        assert_eq!(errno(fs.remove_file("/tmp/mine")), Err(Errno::EPERM));
        assert_eq!(errno(fs.remove_dir("/tmp/mydir")), Err(Errno::EPERM));
        assert_eq!(errno(fs.remove_all("/tmp/mine")), Err(Errno::EPERM));
        assert_eq!(errno(fs.rename("/tmp/mine", "/tmp/x")), Err(Errno::EPERM));
        assert_eq!(
            errno(fs.rename("/tmp/theirs", "/tmp/mine")),
            Err(Errno::EPERM)
        );
        assert_eq!(
            errno(fs.write_file("/tmp/mydir/in", b"")),
            Ok(()),
            "not sticky inside"
        );
        assert_eq!(errno(fs.rename("/tmp/theirs", "/tmp/t2")), Ok(()));
        assert_eq!(errno(fs.remove_file("/tmp/t2")), Ok(()));
        fs.set_user(0, 0);
        assert_eq!(errno(fs.remove_file("/tmp/mine")), Ok(()));
        Ok(())
    }

    #[test]
    fn write_permission_on_the_parent_governs_entries() -> FsResult<()> {
        let mut fs = fixture();
        fs.chmod("/workspace/d", 0o555)?;
        for (what, got) in [
            ("unlink", fs.clone().remove_file("/workspace/d/g")),
            ("create", fs.clone().write_file("/workspace/d/n", b"")),
            ("mkdir", fs.clone().mkdir("/workspace/d/n", 0o755)),
            ("symlink", fs.clone().symlink("x", "/workspace/d/n")),
            ("link", fs.clone().link("/workspace/f", "/workspace/d/n")),
            (
                "rename out",
                fs.clone().rename("/workspace/d/g", "/workspace/g"),
            ),
            (
                "rename in",
                fs.clone().rename("/workspace/f", "/workspace/d/f"),
            ),
        ] {
            assert_eq!(errno(got), Err(Errno::EACCES), "{what}");
        }
        fs.write_file("/workspace/d/g", b"file itself is writable")?;
        Ok(())
    }
}
