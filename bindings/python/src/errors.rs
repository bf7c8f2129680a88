//! The one place where shellbox's failures become Python exceptions. The exception
//! classes of shellbox's own (`LimitExceeded`, `ToolError`, ...) are defined in Python,
//! in `shellbox/errors.py`, so they read and type-check as ordinary Python; filesystem
//! failures are the builtin `OSError` subclasses (`FileNotFoundError`,
//! `IsADirectoryError`, ...) chosen by errno, and bad arguments are `TypeError` and
//! `ValueError`.

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use shellbox::fs::{Errno, FsError};
use shellbox::interp::Stopped;
use shellbox::session::{SandboxError, SandboxErrorKind};
use shellbox::store::StoreError;
use shellbox::tools::ToolError;

use crate::run::RunResult;

/// Why a call failed, before it is a Python exception (it is made under the GIL, where
/// the exception's attributes can be set).
pub(crate) enum Error {
    /// A run ended early: a limit, a cancellation, or a bug in shellbox. The result
    /// holds what the script printed until then.
    Stopped(Stopped, Py<RunResult>),
    /// `check()` of a result with a non-zero status.
    Exit(Py<RunResult>),
    /// A filesystem call failed: the sandbox's error (which tells a limit apart),
    /// the errno and the path.
    Fs(SandboxError, Errno, String),
    Sandbox(SandboxError),
    Tool(ToolError),
    Store(StoreError),
    /// A Python exception raised in a template's bootstrap, wrapped as a
    /// `BootstrapError` whose cause it is.
    Bootstrap(String, Option<PyErr>),
    /// A host (not virtual) file operation, such as seeding from a host folder.
    Host(std::io::Error),
    Type(String),
    Value(String),
    /// shellbox itself failed (a thread vanished, a runtime could not start).
    Internal(String),
    /// The end of a byte stream, for `__anext__`.
    EndOfStream,
    Py(PyErr),
}

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Error {
        Error::Py(e)
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        Python::attach(|py| e.into_pyerr(py))
    }
}

/// An exception class of `shellbox.errors`.
fn class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyType>> {
    static MODULE: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let module = MODULE.get_or_try_init(py, || py.import("shellbox.errors").map(Bound::unbind))?;
    module
        .bind(py)
        .getattr(name)?
        .cast_into()
        .map_err(Into::into)
}

/// `shellbox.errors.NAME(*args)` as an exception.
fn raise<'py, A: pyo3::call::PyCallArgs<'py>>(py: Python<'py>, name: &str, args: A) -> PyErr {
    match class(py, name).and_then(|c| c.call1(args)) {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}

/// The `OSError` of errno `code` (Python picks the subclass from it), about `path`.
fn os_error(code: i32, message: &str, path: Option<&str>) -> PyErr {
    match path {
        Some(p) => PyOSError::new_err((code, message.to_owned(), p.to_owned())),
        None => PyOSError::new_err((code, message.to_owned())),
    }
}

/// The errno a sandbox error kind stands for.
fn errno_of(kind: SandboxErrorKind) -> Errno {
    match kind {
        SandboxErrorKind::NotFound => Errno::ENOENT,
        SandboxErrorKind::IsDirectory => Errno::EISDIR,
        SandboxErrorKind::PermissionDenied => Errno::EACCES,
        SandboxErrorKind::AlreadyExists => Errno::EEXIST,
        SandboxErrorKind::NotADirectory => Errno::ENOTDIR,
        SandboxErrorKind::NotEmpty => Errno::ENOTEMPTY,
        SandboxErrorKind::InvalidArgument => Errno::EINVAL,
        _ => Errno::EIO,
    }
}

impl Error {
    /// The error of filesystem operation `op` on the resolved `path`, made on the
    /// thread that ran it (a limit's refusal is only told apart there).
    pub(crate) fn fs(op: &str, path: &str, e: &FsError) -> Error {
        Error::Fs(SandboxError::from_fs(op, path, e), e.errno, path.to_owned())
    }

    pub(crate) fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            Error::Stopped(stop, result) => match stop {
                Stopped::Limit { limit, message } => {
                    raise(py, "LimitExceeded", (message, limit, result))
                }
                Stopped::Cancelled => raise(py, "Cancelled", ("the run was cancelled", result)),
                Stopped::Internal(message) => raise(py, "InternalError", (message, result)),
                _ => raise(py, "InternalError", ("the run stopped early", result)),
            },
            Error::Exit(result) => raise(py, "ExitStatusError", (result,)),
            Error::Fs(e, errno, path) if e.kind() != SandboxErrorKind::LimitExceeded => {
                os_error(errno.code(), errno.strerror(), Some(&path))
            }
            Error::Fs(e, _, _) | Error::Sandbox(e) => sandbox(py, &e),
            Error::Tool(e) => {
                let path = e.path.clone();
                raise(py, "ToolError", (e.message, e.kind.code(), path))
            }
            Error::Store(e) => {
                let path = e.path.map(|p| p.display().to_string());
                raise(py, "StoreError", (e.message, path))
            }
            Error::Bootstrap(message, cause) => {
                let err = raise(py, "BootstrapError", (message,));
                err.set_cause(py, cause);
                err
            }
            Error::Host(e) => PyOSError::new_err(e.to_string()),
            Error::Type(m) => PyTypeError::new_err(m),
            Error::Value(m) => PyValueError::new_err(m),
            Error::Internal(m) => raise(py, "InternalError", (m, py.None())),
            Error::EndOfStream => pyo3::exceptions::PyStopAsyncIteration::new_err(()),
            Error::Py(e) => e,
        }
    }
}

/// A sandbox error: a limit is `LimitExceeded`, a store failure `StoreError`, a
/// filesystem failure the `OSError` of its kind.
fn sandbox(py: Python<'_>, e: &SandboxError) -> PyErr {
    let message = e.message().to_owned();
    match e.kind() {
        SandboxErrorKind::LimitExceeded => {
            let limit = shellbox::limits::limit_named_in(&message).unwrap_or("limit");
            raise(py, "LimitExceeded", (message, limit, py.None()))
        }
        SandboxErrorKind::Store => raise(py, "StoreError", (message, py.None())),
        SandboxErrorKind::StoreConflict => raise(py, "StoreConflict", (message, py.None())),
        SandboxErrorKind::Bootstrap => raise(py, "BootstrapError", (message,)),
        SandboxErrorKind::InvalidUtf8 => PyValueError::new_err(message),
        SandboxErrorKind::Unsupported => pyo3::exceptions::PyNotImplementedError::new_err(message),
        SandboxErrorKind::Spawn => PyRuntimeError::new_err(message),
        kind => os_error(errno_of(kind).code(), &message, None),
    }
}
