//! A sandbox's file operations beyond reading and writing whole files: removal with
//! `rm`'s `-r`/`-f` choices, copies of files and trees, and the error mapping the
//! language bindings use for every filesystem call they make through
//! [`Sandbox::fs`].

use super::sandbox::{Sandbox, SandboxError, SandboxErrorKind};
use crate::fs::{Errno, FileType, Fs, FsError};

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

impl SandboxError {
    /// The error of filesystem operation `op` (`"read"`, `"mkdir"`, ...) on `path`,
    /// made on the thread that ran it, right after it failed: a limit's refusal is
    /// [`SandboxErrorKind::LimitExceeded`] naming the limit, other errnos their kind.
    pub fn from_fs(op: &str, path: &str, e: &FsError) -> SandboxError {
        SandboxError::fs(op, path, e)
    }
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
        let mut fs = self.fs();
        let meta = match fs.lstat(&p) {
            Ok(m) => m,
            Err(e) if opts.force && e.is(Errno::ENOENT) => return Ok(()),
            Err(e) => return Err(SandboxError::fs("remove", &p, &e)),
        };
        let removed = match (meta.is_dir(), opts.recursive) {
            (true, true) => fs.remove_all(&p),
            (true, false) => fs.remove_dir(&p),
            (false, _) => fs.remove_file(&p),
        };
        removed.map_err(|e| SandboxError::fs("remove", &p, &e))
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
        if dst
            .strip_prefix(src.as_str())
            .is_some_and(|rest| rest.starts_with('/'))
        {
            return Err(SandboxError::new(
                SandboxErrorKind::InvalidArgument,
                format!("copy {src}: cannot copy a directory into itself ({dst})"),
            ));
        }
        let mut fs = self.fs();
        copy_node(&mut fs, &src, &dst, recursive, 0)
    }

    /// Moves (renames) `src` to `dst`, replacing a file there.
    pub fn rename(&self, src: &str, dst: &str) -> Result<(), SandboxError> {
        let (src, dst) = (self.resolve_path(src), self.resolve_path(dst));
        self.fs()
            .rename(&src, &dst)
            .map_err(|e| SandboxError::fs("rename", &src, &e))
    }
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
