//! `shellbox.FileSystem` (`Shell.fs`, `Sandbox.fs`): direct reads and writes of a
//! session's virtual filesystem, with paths relative to `/workspace` unless absolute.
//! Every call releases the GIL while it holds the filesystem's lock; failures are the
//! `OSError` of their errno (`FileNotFoundError`, ...) or `LimitExceeded`. Also
//! `StatResult` and `Snapshot` (an O(1) copy of a filesystem).

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use shellbox::Sandbox;
use shellbox::fs::{Errno, Fs, FsError, Metadata, Timestamp};
use shellbox::session::RemoveOptions;

use crate::errors::Error;

/// A virtual path from a `str` or an `os.PathLike` (such as `PurePosixPath`).
pub(crate) fn vpath(obj: &Bound<'_, PyAny>) -> Result<String, Error> {
    if let Ok(s) = obj.extract::<String>() {
        return Ok(s);
    }
    let fspath = obj
        .py()
        .import("os")?
        .call_method1("fspath", (obj,))
        .map_err(|_| Error::Type("a path must be str or os.PathLike[str]".into()))?;
    fspath
        .extract()
        .map_err(|_| Error::Type("a path must be str or os.PathLike[str]".into()))
}

/// A session's files.
#[pyclass(frozen, module = "shellbox")]
pub struct FileSystem {
    sb: Sandbox,
}

impl FileSystem {
    pub(crate) fn new(sb: Sandbox) -> FileSystem {
        FileSystem { sb }
    }

    /// Runs `f` on the locked filesystem and the resolved `path`, with the GIL released;
    /// its error is made right there (see [`Error::fs`]).
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        op: &str,
        path: &Bound<'_, PyAny>,
        f: impl FnOnce(&mut Fs, &str) -> Result<T, FsError> + Send,
    ) -> Result<T, Error> {
        let p = self.sb.resolve_path(&vpath(path)?);
        let sb = &self.sb;
        py.detach(|| {
            let mut fs = sb.fs();
            f(&mut fs, &p).map_err(|e| Error::fs(op, &p, &e))
        })
    }

    /// Runs one of the sandbox's own file operations with the GIL released.
    fn sandbox_op(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&Sandbox) -> Result<(), shellbox::session::SandboxError> + Send,
    ) -> Result<(), Error> {
        let sb = &self.sb;
        py.detach(|| f(sb)).map_err(Error::Sandbox)
    }
}

/// A file's metadata (times are seconds since the epoch, on the virtual clock).
#[pyclass(frozen, module = "shellbox")]
pub struct StatResult {
    /// `"file"`, `"directory"`, `"symlink"` or `"device"`.
    #[pyo3(get)]
    kind: &'static str,
    /// Permission bits (`0o644`, ...).
    #[pyo3(get)]
    mode: u32,
    #[pyo3(get)]
    size: u64,
    #[pyo3(get)]
    ino: u64,
    #[pyo3(get)]
    nlink: u32,
    #[pyo3(get)]
    uid: u32,
    #[pyo3(get)]
    gid: u32,
    #[pyo3(get)]
    mtime: f64,
    #[pyo3(get)]
    atime: f64,
    #[pyo3(get)]
    ctime: f64,
}

impl StatResult {
    fn of(m: &Metadata) -> StatResult {
        let secs = |t: Timestamp| t.secs as f64 + f64::from(t.nanos) / 1e9;
        StatResult {
            kind: m.file_type.kind_name(),
            mode: m.mode,
            size: m.size,
            ino: m.ino,
            nlink: m.nlink,
            uid: m.uid,
            gid: m.gid,
            mtime: secs(m.mtime),
            atime: secs(m.atime),
            ctime: secs(m.ctime),
        }
    }
}

#[pymethods]
impl StatResult {
    fn is_file(&self) -> bool {
        self.kind == "file"
    }
    fn is_dir(&self) -> bool {
        self.kind == "directory"
    }
    fn is_symlink(&self) -> bool {
        self.kind == "symlink"
    }
    fn __repr__(&self) -> String {
        format!(
            "StatResult(kind={}, mode=0o{:o}, size={}, mtime={})",
            crate::run::quoted(self.kind),
            self.mode,
            self.size,
            self.mtime
        )
    }
}

/// An O(1) copy of a filesystem, to restore later or to start sessions from.
#[pyclass(frozen, module = "shellbox")]
pub struct Snapshot {
    pub(crate) fs: Fs,
}

#[pymethods]
impl FileSystem {
    /// The absolute virtual path `path` stands for.
    fn resolve(&self, path: &Bound<'_, PyAny>) -> Result<String, Error> {
        Ok(self.sb.resolve_path(&vpath(path)?))
    }

    /// A file's bytes.
    fn read_bytes<'py>(
        &self,
        py: Python<'py>,
        path: &Bound<'py, PyAny>,
    ) -> Result<Bound<'py, PyBytes>, Error> {
        let data = self.with(py, "read", path, |fs, p| fs.read_file(p))?;
        Ok(PyBytes::new(py, &data))
    }

    /// A file's text (UTF-8 unless told otherwise).
    #[pyo3(signature = (path, encoding = "utf-8", errors = "strict"))]
    fn read_text<'py>(
        &self,
        py: Python<'py>,
        path: &Bound<'py, PyAny>,
        encoding: &str,
        errors: &str,
    ) -> Result<Bound<'py, PyAny>, Error> {
        Ok(self
            .read_bytes(py, path)?
            .call_method1("decode", (encoding, errors))?)
    }

    /// Creates or replaces a file (`append`: adds to it), creating missing parent
    /// directories; `str` is written as UTF-8; `mode` sets the permission bits.
    #[pyo3(signature = (path, data, *, append = false, mode = None))]
    pub(crate) fn write(
        &self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        append: bool,
        mode: Option<u32>,
    ) -> Result<(), Error> {
        let data = crate::run::bytes_of(data, "data")?;
        self.with(py, "write", path, |fs, p| {
            let parent = shellbox::fs::path::parent(p);
            // A parent that is there (even as a file) is left to the write to judge.
            if !fs.exists(parent) {
                fs.mkdir_all(parent, 0o755)?;
            }
            if append {
                fs.append_file(p, &data)?;
            } else {
                fs.write_file(p, &data)?;
            }
            match mode {
                Some(m) => fs.chmod(p, m & 0o7777),
                None => Ok(()),
            }
        })
    }

    /// Whether `path` exists (a symlink to nothing does not).
    fn exists(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> Result<bool, Error> {
        self.with(py, "stat", path, |fs, p| Ok(fs.exists(p)))
    }

    fn is_file(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> Result<bool, Error> {
        self.with(py, "stat", path, |fs, p| {
            Ok(fs.stat(p).is_ok_and(|m| m.is_file()))
        })
    }

    fn is_dir(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> Result<bool, Error> {
        self.with(py, "stat", path, |fs, p| {
            Ok(fs.stat(p).is_ok_and(|m| m.is_dir()))
        })
    }

    /// The names in a directory, sorted.
    #[pyo3(signature = (path = None))]
    fn listdir(
        &self,
        py: Python<'_>,
        path: Option<&Bound<'_, PyAny>>,
    ) -> Result<Vec<String>, Error> {
        let here = pyo3::types::PyString::new(py, ".").into_any();
        let path = path.unwrap_or(&here);
        let entries = self.with(py, "listdir", path, |fs, p| fs.read_dir(p))?;
        Ok(entries.into_iter().map(|e| e.name).collect())
    }

    /// Creates a directory (`parents`: and missing parents, and no error if it exists).
    #[pyo3(signature = (path, *, parents = false, exist_ok = false, mode = 0o755))]
    fn mkdir(
        &self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        parents: bool,
        exist_ok: bool,
        mode: u32,
    ) -> Result<(), Error> {
        self.with(py, "mkdir", path, |fs, p| {
            let made = if parents {
                fs.mkdir_all(p, mode)
            } else {
                fs.mkdir(p, mode)
            };
            match made {
                Err(e)
                    if e.is(Errno::EEXIST) && exist_ok && fs.stat(p).is_ok_and(|m| m.is_dir()) =>
                {
                    Ok(())
                }
                other => other,
            }
        })
    }

    /// Removes a file, symlink or directory; a directory needs `recursive` unless it is
    /// empty, and `force` makes a missing path no error (as `rm -rf` does).
    #[pyo3(signature = (path, *, recursive = false, force = false))]
    fn remove(
        &self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        recursive: bool,
        force: bool,
    ) -> Result<(), Error> {
        let p = vpath(path)?;
        self.sandbox_op(py, |sb| sb.remove(&p, RemoveOptions::new(recursive, force)))
    }

    /// Copies a file (or with `recursive`, a directory tree).
    #[pyo3(signature = (src, dst, *, recursive = false))]
    fn copy(
        &self,
        py: Python<'_>,
        src: &Bound<'_, PyAny>,
        dst: &Bound<'_, PyAny>,
        recursive: bool,
    ) -> Result<(), Error> {
        let (src, dst) = (vpath(src)?, vpath(dst)?);
        self.sandbox_op(py, |sb| sb.copy(&src, &dst, recursive))
    }

    /// Moves `src` to `dst`, replacing a file there.
    fn rename(
        &self,
        py: Python<'_>,
        src: &Bound<'_, PyAny>,
        dst: &Bound<'_, PyAny>,
    ) -> Result<(), Error> {
        let (src, dst) = (vpath(src)?, vpath(dst)?);
        self.sandbox_op(py, |sb| sb.rename(&src, &dst))
    }

    /// Makes `link` a symlink to `target` (stored as given).
    fn symlink(
        &self,
        py: Python<'_>,
        target: String,
        link: &Bound<'_, PyAny>,
    ) -> Result<(), Error> {
        self.with(py, "symlink", link, |fs, p| fs.symlink(&target, p))
    }

    fn readlink(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> Result<String, Error> {
        self.with(py, "readlink", path, |fs, p| fs.readlink(p))
    }

    /// Sets the permission bits.
    fn chmod(&self, py: Python<'_>, path: &Bound<'_, PyAny>, mode: u32) -> Result<(), Error> {
        self.with(py, "chmod", path, |fs, p| fs.chmod(p, mode & 0o7777))
    }

    /// Metadata of `path` (`follow_symlinks=False`: of a symlink itself).
    #[pyo3(signature = (path, *, follow_symlinks = true))]
    fn stat(
        &self,
        py: Python<'_>,
        path: &Bound<'_, PyAny>,
        follow_symlinks: bool,
    ) -> Result<StatResult, Error> {
        let m = self.with(py, "stat", path, |fs, p| {
            if follow_symlinks {
                fs.stat(p)
            } else {
                fs.lstat(p)
            }
        })?;
        Ok(StatResult::of(&m))
    }
}
