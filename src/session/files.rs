//! A sandbox's file operations beyond reading and writing whole files: removal with
//! `rm`'s `-r`/`-f` choices, copies of files and trees, and the error mapping the
//! language bindings use for every filesystem call they make through
//! [`Sandbox::fs`].

use super::sandbox::{Sandbox, SandboxError, SandboxErrorKind};
use crate::fs::{Errno, FileType, Fs, FsError};
use std::collections::HashMap;

/// How [`Sandbox::remove`] treats what it finds.
///
/// ```
/// use shellbox::session::RemoveOptions;
/// let rm_rf = RemoveOptions::new(true, true);
/// assert!(rm_rf.recursive && rm_rf.force);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RemoveOptions {
    /// Remove a directory with everything in it (else only an empty one).
    pub recursive: bool,
    /// A missing path is not an error.
    pub force: bool,
}

impl RemoveOptions {
    /// Options with these two choices.
    pub fn new(recursive: bool, force: bool) -> RemoveOptions {
        RemoveOptions { recursive, force }
    }
}

/// How deep [`Sandbox::copy`] follows a tree (the filesystem's own depth limit is
/// lower; this only stops a runaway walk).
const MAX_COPY_DEPTH: usize = 4096;

impl From<FsError> for SandboxError {
    fn from(e: FsError) -> SandboxError {
        SandboxError::fs("filesystem operation", "", &e)
    }
}

impl SandboxError {
    /// The error of filesystem operation `op` (`"read"`, `"mkdir"`, ...) on `path`,
    /// made on the thread that ran it, right after it failed: a limit's refusal is
    /// [`SandboxErrorKind::LimitExceeded`] naming the limit, other errnos their kind.
    pub fn from_fs(op: &str, path: &str, e: &FsError) -> SandboxError {
        SandboxError::fs(op, path, e)
    }
}

/// Runs a host-side operation on `path` (a file the host writes, a directory it
/// makes or copies, a path it removes): as root, so the host may act anywhere, as the
/// administrator of a machine would; then whatever it created (the path with
/// everything below it, and any parents that were missing) is given to the sandbox
/// user, so scripts can change it as files they made themselves. Paths that existed
/// keep their owners.
///
/// ```
/// use shellbox::fs::{Clock, Fs};
/// let mut fs = Fs::new(Clock::virtual_at(0));
/// assert!(fs.write_file("/data/a.txt", b"x").is_err()); // the user may not write in /
/// shellbox::session::provision(&mut fs, "/data/a.txt", |fs| {
///     fs.mkdir_all("/data", 0o755)?;
///     fs.write_file("/data/a.txt", b"x")
/// })
/// .unwrap();
/// assert_eq!(fs.stat("/data").unwrap().uid, 1000);
/// assert_eq!(fs.stat("/data/a.txt").unwrap().uid, 1000);
/// assert_eq!(fs.stat("/").unwrap().uid, 0);
/// ```
pub fn provision<R, E: From<FsError>>(
    fs: &mut Fs,
    path: &str,
    f: impl FnOnce(&mut Fs) -> Result<R, E>,
) -> Result<R, E> {
    let (uid, gid) = fs.user();
    // The first missing ancestor (or the path itself): everything from there down
    // is new.
    let mut missing = Vec::new();
    let mut p = path;
    while fs.lstat(p).is_err() {
        missing.push(p.to_owned());
        let parent = crate::fs::path::parent(p);
        if parent == p {
            break;
        }
        p = parent;
    }
    fs.as_root(|fs| {
        let r = f(fs)?;
        // The first missing path is `path` itself (when it was missing): its whole
        // tree is new; the other missing paths are parents made on the way.
        for (i, m) in missing.iter().enumerate() {
            if i == 0 {
                give_tree(fs, m, uid, gid, 0)?;
            } else {
                give(fs, m, uid, gid)?;
            }
        }
        Ok(r)
    })
}

/// Gives `path` to `uid:gid` (a symlink's own owner matters to nothing here, and
/// chown would follow it).
fn give(fs: &mut Fs, path: &str, uid: u32, gid: u32) -> Result<(), FsError> {
    match fs.lstat(path) {
        Ok(meta) if !meta.is_symlink() => fs.chown(path, Some(uid), Some(gid)),
        _ => Ok(()),
    }
}

/// [`give`] for `path` and everything below it.
fn give_tree(fs: &mut Fs, path: &str, uid: u32, gid: u32, depth: usize) -> Result<(), FsError> {
    give(fs, path, uid, gid)?;
    if depth < MAX_COPY_DEPTH && fs.lstat(path).is_ok_and(|m| m.is_dir()) {
        for entry in fs.read_dir(path)? {
            let child = crate::fs::path::join(path, &entry.name);
            give_tree(fs, &child, uid, gid, depth + 1)?;
        }
    }
    Ok(())
}

/// One file for [`provision_files`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct NewFile {
    /// Absolute.
    pub path: String,
    pub content: Vec<u8>,
    /// Permission bits (default 0644).
    pub mode: Option<u32>,
    /// Modification (and access) time.
    pub mtime: Option<crate::fs::Timestamp>,
}

impl NewFile {
    pub fn new(path: impl Into<String>, content: impl Into<Vec<u8>>) -> NewFile {
        NewFile {
            path: path.into(),
            content: content.into(),
            mode: None,
            mtime: None,
        }
    }
}

/// Writes many files as the host ([`provision`]: anywhere, parents made, what is new
/// given to the sandbox user), quickly: the files are grouped by directory, each
/// directory is made once, and new files in a directory the user may write go in
/// as one batch ([`Fs::create_files`]). When a path is given twice, the later
/// content wins. Stops at the first failure, naming its path.
///
/// ```
/// use shellbox::fs::{Clock, Fs};
/// use shellbox::session::{NewFile, provision_files};
/// let mut fs = Fs::new(Clock::virtual_at(0));
/// let files = vec![NewFile::new("/data/a", "1"), NewFile::new("/data/sub/b", "2")];
/// provision_files(&mut fs, files).unwrap();
/// assert_eq!(fs.read_file("/data/sub/b").unwrap().as_slice(), b"2");
/// assert_eq!(fs.stat("/data/sub").unwrap().uid, 1000);
/// ```
pub fn provision_files(fs: &mut Fs, files: Vec<NewFile>) -> Result<(), SandboxError> {
    // By directory, in first-seen order.
    let mut order: Vec<String> = Vec::new();
    // foldhash: SipHash was a tenth of the time of seeding 20,000 files.
    let mut by_dir: HashMap<String, Vec<NewFile>, foldhash::fast::RandomState> = HashMap::default();
    for f in files {
        let dir = crate::fs::path::parent(&f.path);
        if let Some(group) = by_dir.get_mut(dir) {
            group.push(f);
        } else {
            order.push(dir.to_owned());
            by_dir.insert(dir.to_owned(), vec![f]);
        }
    }
    for dir in order {
        let Some(group) = by_dir.remove(&dir) else {
            continue;
        };
        provision(fs, &dir, |fs| fs.mkdir_all(&dir, 0o755))
            .map_err(|e| SandboxError::fs("mkdir", &dir, &e))?;
        let mut attrs = Vec::new();
        let mut batch = Vec::with_capacity(group.len());
        for f in group {
            if f.mode.is_some() || f.mtime.is_some() {
                attrs.push((f.path.clone(), f.mode, f.mtime));
            }
            batch.push((crate::fs::path::file_name(&f.path).to_owned(), f.content));
        }
        // In a directory the user may not write (say `/`), each file goes in as the
        // host, one at a time.
        let left = if fs.access(&dir, false, true, true).is_ok() {
            fs.create_files(&dir, batch).map_err(|(name, e)| {
                SandboxError::fs("write", &crate::fs::path::join(&dir, &name), &e)
            })?
        } else {
            batch
        };
        // A name the directory has already (a path given twice among them, the later
        // content winning) is written over, in order.
        let left = left
            .into_iter()
            .map(|(name, content)| NewFile::new(crate::fs::path::join(&dir, &name), content));
        for f in left {
            provision(fs, &f.path, |fs| fs.write_file(&f.path, &f.content))
                .map_err(|e| SandboxError::fs("write", &f.path, &e))?;
        }
        for (path, mode, mtime) in attrs {
            if let Some(mode) = mode {
                provision(fs, &path, |fs| fs.chmod(&path, mode & 0o7777))
                    .map_err(|e| SandboxError::fs("chmod", &path, &e))?;
            }
            if let Some(t) = mtime {
                provision(fs, &path, |fs| fs.set_times(&path, Some(t), Some(t)))
                    .map_err(|e| SandboxError::fs("utimes", &path, &e))?;
            }
        }
    }
    Ok(())
}

impl Sandbox {
    /// Removes a file, symlink or directory. A directory needs `recursive` unless it
    /// is empty; `force` makes a missing path a success. A symlink is removed
    /// itself, not what it points to.
    ///
    /// ```
    /// use shellbox::session::{RemoveOptions, Sandbox, SandboxErrorKind};
    /// let sb = Sandbox::builder().file("d/a.txt", "x").build();
    /// let err = sb.remove("d", RemoveOptions::default()).unwrap_err();
    /// assert_eq!(err.kind(), SandboxErrorKind::NotEmpty);
    /// sb.remove("d", RemoveOptions::new(true, false)).unwrap();
    /// sb.remove("d", RemoveOptions::new(false, true)).unwrap(); // gone: fine with force
    /// ```
    pub fn remove(&self, path: &str, opts: RemoveOptions) -> Result<(), SandboxError> {
        let p = self.resolve_path(path);
        remove_in(&mut self.fs(), &p, opts)
    }

    /// Copies a file (its bytes and mode) to `dst`, replacing a file there; with
    /// `recursive`, a directory and everything in it (symlinks copied as links).
    /// A directory without `recursive` is refused, as `cp` refuses it.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let sb = shellbox::session::Sandbox::builder().file("src/a.txt", "x").build();
    /// sb.copy("src", "dst", true)?;
    /// assert_eq!(sb.read_text_file("dst/a.txt").await?, "x");
    /// # Ok::<(), shellbox::session::SandboxError>(())
    /// # }).unwrap();
    /// ```
    pub fn copy(&self, src: &str, dst: &str, recursive: bool) -> Result<(), SandboxError> {
        let (src, dst) = (self.resolve_path(src), self.resolve_path(dst));
        copy_in(&mut self.fs(), &src, &dst, recursive)
    }

    /// Moves (renames) `src` to `dst`, replacing a file there.
    pub fn rename(&self, src: &str, dst: &str) -> Result<(), SandboxError> {
        let (src, dst) = (self.resolve_path(src), self.resolve_path(dst));
        self.fs()
            .rename(&src, &dst)
            .map_err(|e| SandboxError::fs("rename", &src, &e))
    }
}

/// [`Sandbox::remove`] on a filesystem, for an absolute path.
pub fn remove_in(fs: &mut Fs, path: &str, opts: RemoveOptions) -> Result<(), SandboxError> {
    let meta = match fs.lstat(path) {
        Ok(m) => m,
        Err(e) if opts.force && e.is(Errno::ENOENT) => return Ok(()),
        Err(e) => return Err(SandboxError::fs("remove", path, &e)),
    };
    let removed = match (meta.is_dir(), opts.recursive) {
        (true, true) => fs.remove_all(path),
        (true, false) => fs.remove_dir(path),
        (false, _) => fs.remove_file(path),
    };
    removed.map_err(|e| SandboxError::fs("remove", path, &e))
}

/// [`Sandbox::copy`] on a filesystem, for absolute paths.
pub fn copy_in(fs: &mut Fs, src: &str, dst: &str, recursive: bool) -> Result<(), SandboxError> {
    if dst
        .strip_prefix(src)
        .is_some_and(|rest| rest.starts_with('/'))
    {
        return Err(SandboxError::new(
            SandboxErrorKind::InvalidArgument,
            format!("copy {src}: cannot copy a directory into itself ({dst})"),
        ));
    }
    copy_node(fs, src, dst, recursive, 0)
}

fn copy_node(
    fs: &mut Fs,
    src: &str,
    dst: &str,
    recursive: bool,
    depth: usize,
) -> Result<(), SandboxError> {
    let err = |op: &str, p: &str, e: FsError| SandboxError::fs(op, p, &e);
    let meta = fs.lstat(src).map_err(|e| err("copy", src, e))?;
    match meta.file_type {
        FileType::Dir => {
            if !recursive {
                return Err(SandboxError::new(
                    SandboxErrorKind::IsDirectory,
                    format!("copy {src}: is a directory (copy it with recursive)"),
                ));
            }
            if depth >= MAX_COPY_DEPTH {
                return Err(SandboxError::new(
                    SandboxErrorKind::LimitExceeded,
                    format!("copy {src}: the tree is deeper than {MAX_COPY_DEPTH} levels"),
                ));
            }
            match fs.mkdir(dst, meta.mode) {
                Ok(()) => {}
                Err(e) if e.is(Errno::EEXIST) && fs.stat(dst).is_ok_and(|m| m.is_dir()) => {}
                Err(e) => return Err(err("mkdir", dst, e)),
            }
            let entries = fs.read_dir(src).map_err(|e| err("read", src, e))?;
            for entry in entries {
                let from = crate::fs::path::join(src, &entry.name);
                let to = crate::fs::path::join(dst, &entry.name);
                copy_node(fs, &from, &to, recursive, depth + 1)?;
            }
            Ok(())
        }
        FileType::Symlink => {
            let target = fs.readlink(src).map_err(|e| err("readlink", src, e))?;
            if fs.lstat(dst).is_ok() {
                fs.remove_file(dst).map_err(|e| err("copy", dst, e))?;
            }
            fs.symlink(&target, dst).map_err(|e| err("symlink", dst, e))
        }
        FileType::Fifo => {
            if fs.lstat(dst).is_ok() {
                fs.remove_file(dst).map_err(|e| err("copy", dst, e))?;
            }
            fs.mkfifo(dst, meta.mode).map_err(|e| err("mkfifo", dst, e))
        }
        FileType::Device(_) => Err(SandboxError::new(
            SandboxErrorKind::InvalidArgument,
            format!("copy {src}: a device cannot be copied"),
        )),
        FileType::File => {
            let data = fs.read_file(src).map_err(|e| err("read", src, e))?;
            fs.write_file(dst, &data)
                .map_err(|e| err("write", dst, e))?;
            fs.chmod(dst, meta.mode).map_err(|e| err("chmod", dst, e))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::fs::{Clock, Fs};

    fn read(fs: &mut Fs, path: &str) -> Vec<u8> {
        fs.read_file(path).unwrap().as_slice().to_vec()
    }

    #[test]
    fn a_path_given_twice_keeps_the_later_content_and_existing_files_are_replaced() {
        let mut fs = Fs::new(Clock::virtual_at(0));
        provision_files(&mut fs, vec![NewFile::new("/d/old", "before")]).unwrap();
        let mut moded = NewFile::new("/d/x", "x");
        moded.mode = Some(0o600);
        let files = vec![
            NewFile::new("/d/a", "1"),
            NewFile::new("/d/b", "2"),
            NewFile::new("/d/a", "3"),
            NewFile::new("/e/c", "4"),
            NewFile::new("/d/old", "after"),
            moded,
            NewFile::new("/d/b", "5"),
        ];
        provision_files(&mut fs, files).unwrap();
        assert_eq!(read(&mut fs, "/d/a"), b"3");
        assert_eq!(read(&mut fs, "/d/b"), b"5");
        assert_eq!(read(&mut fs, "/e/c"), b"4");
        assert_eq!(read(&mut fs, "/d/old"), b"after");
        assert_eq!(fs.stat("/d/x").unwrap().mode & 0o7777, 0o600);
        let names: Vec<String> = fs
            .read_dir("/d")
            .unwrap()
            .into_iter()
            .map(|e| e.name)
            .collect();
        assert_eq!(names, ["a", "b", "old", "x"]);
    }
}
