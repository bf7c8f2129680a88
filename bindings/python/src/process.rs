//! `shellbox.Process`: a command started by `Sandbox.spawn`, running in the background
//! while Python goes on. Its output streams are async iterators of `bytes` chunks (and
//! plain iterators for sync code), its stdin (with `stdin_pipe=True`) a bounded pipe,
//! and `wait`/`kill` finish when the command has ended; `kill` is idempotent.

use std::sync::Arc;
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use shellbox::session::SandboxProcess;
use tokio::sync::Mutex;

use crate::errors::Error;
use crate::run::StopReason;
use crate::wait::{IntoPython, block_on, blocking, future, runtime};

/// A running (or finished) background command.
#[pyclass(frozen, module = "shellbox")]
pub struct Process {
    proc: Arc<SandboxProcess>,
    #[pyo3(get)]
    stdout: Py<ByteStream>,
    #[pyo3(get)]
    stderr: Py<ByteStream>,
    /// The write end of stdin, when spawned with `stdin_pipe=True`; else `None`.
    #[pyo3(get)]
    stdin: Option<Py<ProcessStdin>>,
}

/// A process just spawned, to be made a `Process` under the GIL.
pub(crate) struct Spawned(pub(crate) SandboxProcess);

impl IntoPython for Spawned {
    fn into_python(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut p = self.0;
        let empty = shellbox::session::ByteStream::empty;
        let stream = |s| ByteStream {
            inner: Arc::new(Mutex::new(s)),
        };
        let stdout = Py::new(py, stream(std::mem::replace(&mut p.stdout, empty())))?;
        let stderr = Py::new(py, stream(std::mem::replace(&mut p.stderr, empty())))?;
        let stdin = match p.stdin.take() {
            Some(s) => Some(Py::new(py, ProcessStdin { inner: Arc::new(s) })?),
            None => None,
        };
        let proc = Process {
            proc: Arc::new(p),
            stdout,
            stderr,
            stdin,
        };
        Ok(Py::new(py, proc)?.into_any())
    }
}

impl Process {
    /// The exit status once the process ends (within `limit`, else `TimeoutError`).
    fn wait_work(
        &self,
        limit: Option<Duration>,
    ) -> impl std::future::Future<Output = Result<i32, Error>> + Send + 'static {
        let proc = self.proc.clone();
        async move {
            match limit {
                None => Ok(proc.wait().await),
                Some(d) => tokio::time::timeout(d, proc.wait()).await.map_err(|_| {
                    Error::Py(pyo3::exceptions::PyTimeoutError::new_err(format!(
                        "the process did not end within {} s",
                        d.as_secs_f64()
                    )))
                }),
            }
        }
    }

    fn kill_work(&self) -> impl std::future::Future<Output = Result<(), Error>> + Send + 'static {
        let proc = self.proc.clone();
        async move {
            proc.kill().await;
            Ok(())
        }
    }
}

#[pymethods]
impl Process {
    #[getter]
    fn pid(&self) -> u32 {
        self.proc.pid()
    }

    /// The exit status, or `None` while it runs.
    #[getter]
    fn returncode(&self) -> Option<i32> {
        self.proc.try_status()
    }

    /// Why it ended early (a limit, a kill, a bug in shellbox), once it has ended.
    #[getter]
    fn stopped(&self) -> Option<StopReason> {
        self.proc.stopped().map(StopReason::of)
    }

    /// Waits for the end; the exit status (143 if it was killed).
    fn wait<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>, Error> {
        future(py, self.wait_work(None))
    }

    /// [`wait`](Self::wait) for sync code; `timeout` (seconds) raises `TimeoutError`.
    #[pyo3(signature = (timeout = None))]
    fn wait_sync(&self, py: Python<'_>, timeout: Option<f64>) -> Result<i32, Error> {
        let limit = match timeout {
            Some(t) => Some(
                Duration::try_from_secs_f64(t)
                    .map_err(|_| Error::Value(format!("timeout must be 0 or more, not {t}")))?,
            ),
            None => None,
        };
        block_on(py, self.wait_work(limit))
    }

    /// Stops the process; finishes when it has ended (at once if it had).
    fn kill<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>, Error> {
        future(py, self.kill_work())
    }

    /// [`kill`](Self::kill) for sync code.
    fn kill_sync(&self, py: Python<'_>) -> Result<(), Error> {
        block_on(py, self.kill_work())
    }

    fn __repr__(&self) -> String {
        format!(
            "Process(pid={}, returncode={})",
            self.proc.pid(),
            self.proc
                .try_status()
                .map_or_else(|| "None".to_owned(), |c| c.to_string())
        )
    }
}

/// A process's stdout or stderr: `bytes` chunks until the process has ended.
#[pyclass(frozen, module = "shellbox")]
pub struct ByteStream {
    inner: Arc<Mutex<shellbox::session::ByteStream>>,
}

#[pymethods]
impl ByteStream {
    fn __aiter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __anext__<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>, Error> {
        let inner = self.inner.clone();
        future(py, async move {
            inner
                .lock()
                .await
                .next_chunk()
                .await
                .ok_or(Error::EndOfStream)
        })
    }

    fn __iter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> Result<Option<Bound<'py, PyBytes>>, Error> {
        let inner = self.inner.clone();
        let chunk = block_on(py, async move { Ok(inner.lock().await.next_chunk().await) })?;
        Ok(chunk.map(|c| PyBytes::new(py, &c)))
    }

    /// Everything left, once the process has ended.
    fn read<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>, Error> {
        let inner = self.inner.clone();
        future(
            py,
            async move { Ok(inner.lock().await.read_to_end().await) },
        )
    }

    /// [`read`](Self::read) for sync code.
    fn read_sync<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyBytes>, Error> {
        let inner = self.inner.clone();
        let all = block_on(
            py,
            async move { Ok(inner.lock().await.read_to_end().await) },
        )?;
        Ok(PyBytes::new(py, &all))
    }
}

/// The write end of a process's stdin: a bounded pipe (64 KiB), so a write waits
/// while the process has not read what came before. The process reads end of file
/// after `close()`.
#[pyclass(frozen, module = "shellbox")]
pub struct ProcessStdin {
    inner: Arc<shellbox::session::ProcessStdin>,
}

/// A failed write to a process's stdin: `BrokenPipeError` once it has ended.
fn pipe_error(e: std::io::Error) -> Error {
    Error::Py(pyo3::exceptions::PyBrokenPipeError::new_err(format!(
        "write to the process's stdin: {e}"
    )))
}

#[pymethods]
impl ProcessStdin {
    /// Writes all of `data` (`str` as UTF-8); finishes once the pipe took it.
    fn write<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
    ) -> Result<Bound<'py, PyAny>, Error> {
        let data = crate::run::bytes_of(data, "data")?;
        let stdin = self.inner.clone();
        let rt = runtime()?;
        future(py, async move {
            let written = rt.spawn_blocking(move || stdin.write(&data)).await;
            match written {
                Ok(r) => r.map_err(pipe_error),
                Err(e) => Err(Error::Internal(format!("write to stdin: {e}"))),
            }
        })
    }

    /// [`write`](Self::write) for sync code.
    fn write_sync(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> Result<(), Error> {
        let data = crate::run::bytes_of(data, "data")?;
        let stdin = self.inner.clone();
        // An interrupted write cannot be taken back; it ends when the process reads or ends.
        blocking(py, move || stdin.write(&data), || {})?.map_err(pipe_error)
    }

    /// Closes the pipe; closing again does nothing.
    fn close(&self) {
        self.inner.close();
    }
}
