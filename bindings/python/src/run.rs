//! What every run shares, whatever runs it (`Shell.run`, `Sandbox.run` and its sync
//! twin, `spawn`): the keyword options a call takes, the `CancelToken`, and the
//! `RunResult` with its bytes and explicit text helpers. A run that a limit, a
//! cancellation or a bug in shellbox ended raises (`LimitExceeded`, `Cancelled`,
//! `InternalError`) with the result so far on the exception.

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use shellbox::ExecOutput;
use shellbox::interp::Stopped;
use shellbox::session::RunOptions;

use crate::errors::Error;
use crate::wait::IntoPython;

/// What a run produced: its output as bytes and its exit status.
#[pyclass(frozen, module = "shellbox")]
pub struct RunResult {
    /// Everything the script wrote to stdout.
    #[pyo3(get)]
    stdout: Py<PyBytes>,
    /// Everything the script wrote to stderr.
    #[pyo3(get)]
    stderr: Py<PyBytes>,
    #[pyo3(get)]
    exit_code: i32,
    /// The script that ran (for reports).
    #[pyo3(get)]
    script: String,
    env: Option<BTreeMap<String, String>>,
}

impl RunResult {
    fn of(py: Python<'_>, script: String, out: &ExecOutput) -> RunResult {
        RunResult {
            stdout: PyBytes::new(py, &out.stdout).unbind(),
            stderr: PyBytes::new(py, &out.stderr).unbind(),
            exit_code: out.exit_code,
            script,
            env: out.env.clone(),
        }
    }
}

/// Decodes `bytes` as `encoding`.
fn decode<'py>(
    bytes: &Bound<'py, PyBytes>,
    encoding: &str,
    errors: &str,
) -> PyResult<Bound<'py, PyAny>> {
    bytes.call_method1("decode", (encoding, errors))
}

#[pymethods]
impl RunResult {
    #[new]
    #[pyo3(signature = (stdout = None, stderr = None, exit_code = 0, script = String::new(), env = None))]
    fn new(
        py: Python<'_>,
        stdout: Option<Py<PyBytes>>,
        stderr: Option<Py<PyBytes>>,
        exit_code: i32,
        script: String,
        env: Option<BTreeMap<String, String>>,
    ) -> RunResult {
        let empty = || PyBytes::new(py, b"").unbind();
        RunResult {
            stdout: stdout.unwrap_or_else(empty),
            stderr: stderr.unwrap_or_else(empty),
            exit_code,
            script,
            env,
        }
    }

    /// The shell's variables at the end, when the run asked for them
    /// (`capture_env=True`); else `None`.
    #[getter]
    fn env(&self) -> Option<BTreeMap<String, String>> {
        self.env.clone()
    }

    /// stdout decoded (UTF-8 unless told otherwise).
    #[pyo3(signature = (encoding = "utf-8", errors = "strict"))]
    fn text<'py>(
        &self,
        py: Python<'py>,
        encoding: &str,
        errors: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        decode(self.stdout.bind(py), encoding, errors)
    }

    /// stdout as UTF-8 text.
    #[getter]
    fn stdout_text<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        decode(self.stdout.bind(py), "utf-8", "strict")
    }

    /// stderr as UTF-8 text.
    #[getter]
    fn stderr_text<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        decode(self.stderr.bind(py), "utf-8", "strict")
    }

    /// Whether the exit status is 0.
    #[getter]
    fn ok(&self) -> bool {
        self.exit_code == 0
    }

    /// This result, or `ExitStatusError` if the status is not 0.
    fn check(slf: Py<Self>) -> Result<Py<Self>, Error> {
        if slf.get().exit_code == 0 {
            Ok(slf)
        } else {
            Err(Error::Exit(slf))
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "RunResult(exit_code={}, stdout={}, stderr={})",
            self.exit_code,
            self.stdout.bind(py).repr()?,
            self.stderr.bind(py).repr()?
        ))
    }
}

/// Stops every run given it at the run's next command or loop iteration.
#[pyclass(frozen, module = "shellbox")]
#[derive(Default)]
pub struct CancelToken {
    pub(crate) token: shellbox::session::CancelToken,
}

#[pymethods]
impl CancelToken {
    #[new]
    fn new() -> CancelToken {
        CancelToken::default()
    }

    fn cancel(&self) {
        self.token.cancel();
    }

    #[getter]
    fn cancelled(&self) -> bool {
        self.token.is_cancelled()
    }
}

/// Why a background process ended early.
#[pyclass(frozen, module = "shellbox")]
pub struct StopReason {
    /// `"limit"`, `"cancelled"` or `"internal"`.
    #[pyo3(get)]
    kind: &'static str,
    /// The `Limits` field, for `"limit"`.
    #[pyo3(get)]
    limit: Option<&'static str>,
    #[pyo3(get)]
    message: Option<String>,
}

impl StopReason {
    pub(crate) fn of(stop: Stopped) -> StopReason {
        let (kind, limit, message) = match stop {
            Stopped::Limit { limit, message } => ("limit", Some(limit), Some(message)),
            Stopped::Cancelled => ("cancelled", None, None),
            Stopped::Internal(message) => ("internal", None, Some(message)),
            _ => ("internal", None, None),
        };
        StopReason {
            kind,
            limit,
            message,
        }
    }
}

#[pymethods]
impl StopReason {
    fn __repr__(&self) -> String {
        format!(
            "StopReason(kind={}, limit={}, message={})",
            quoted(self.kind),
            self.limit.map_or_else(|| "None".into(), quoted),
            self.message
                .as_deref()
                .map_or_else(|| "None".into(), quoted)
        )
    }
}

/// `s` as Python writes a str in a repr (single quotes), for `__repr__`s.
pub(crate) fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// A run's options, parsed from a call's arguments.
pub(crate) struct RunArgs {
    pub(crate) opts: RunOptions,
    /// The run's token: the caller's, or one of its own (for Ctrl-C).
    pub(crate) token: shellbox::session::CancelToken,
    /// Raise `ExitStatusError` on a non-zero status.
    pub(crate) check: bool,
}

/// Bytes from `bytes`, `bytearray` or `str` (encoded as UTF-8); `what` names the
/// argument in the `TypeError`.
pub(crate) fn bytes_of(obj: &Bound<'_, PyAny>, what: &str) -> Result<Vec<u8>, Error> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(s.to_str()?.as_bytes().to_vec());
    }
    if let Ok(b) = obj.cast::<pyo3::types::PyByteArray>() {
        return Ok(b.to_vec());
    }
    Err(Error::Type(format!(
        "{what} must be bytes or str, not {}",
        obj.get_type().name()?
    )))
}

/// A `dict[str, str]` argument as pairs.
pub(crate) fn str_pairs(
    obj: &Bound<'_, PyAny>,
    what: &str,
) -> Result<Vec<(String, String)>, Error> {
    let dict = obj
        .cast::<PyDict>()
        .map_err(|_| Error::Type(format!("{what} must be a dict of str to str")))?;
    let mut pairs = Vec::with_capacity(dict.len());
    for (k, v) in dict.iter() {
        let (Ok(k), Ok(v)) = (k.extract::<String>(), v.extract::<String>()) else {
            return Err(Error::Type(format!("{what} must be a dict of str to str")));
        };
        pairs.push((k, v));
    }
    Ok(pairs)
}

/// The options of a run of `script`: `stdin`, and the keywords `cwd`, `env`, `args`,
/// `capture_env`, `cancel`, `check` (and `stdin_pipe` where `spawn` takes it).
pub(crate) fn run_args(
    script: String,
    stdin: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
    spawn: bool,
) -> Result<RunArgs, Error> {
    let mut opts = RunOptions::new(script);
    if let Some(stdin) = stdin.filter(|s| !s.is_none()) {
        opts.stdin = bytes_of(stdin, "stdin")?;
    }
    let mut check = false;
    let mut token = None;
    for (key, value) in kwargs.map(|k| k.iter()).into_iter().flatten() {
        let key: String = key.extract()?;
        if value.is_none() {
            continue;
        }
        match key.as_str() {
            "cwd" => opts.cwd = Some(value.extract()?),
            "env" => opts.env = str_pairs(&value, "env")?,
            "args" => {
                opts.args = value
                    .extract()
                    .map_err(|_| Error::Type("args must be a list of str".into()))?
            }
            "capture_env" => opts.capture_env = value.is_truthy()?,
            "check" if !spawn => check = value.is_truthy()?,
            "cancel" => {
                let t = value
                    .cast::<CancelToken>()
                    .map_err(|_| Error::Type("cancel must be a shellbox.CancelToken".into()))?;
                token = Some(t.get().token.clone());
            }
            "stdin_pipe" if spawn => opts.stdin_pipe = value.is_truthy()?,
            other => {
                return Err(Error::Type(format!(
                    "unexpected keyword argument '{other}'"
                )));
            }
        }
    }
    let token = token.unwrap_or_default();
    opts.cancel = Some(token.clone());
    Ok(RunArgs { opts, token, check })
}

/// A finished run, to be made a `RunResult` (or the exception it calls for) under
/// the GIL.
pub(crate) struct Finished {
    pub(crate) script: String,
    pub(crate) out: ExecOutput,
    pub(crate) check: bool,
}

impl Finished {
    pub(crate) fn result(self, py: Python<'_>) -> Result<Py<RunResult>, Error> {
        let Finished {
            script,
            mut out,
            check,
        } = self;
        let stopped = out.stopped.take();
        let failed = out.exit_code != 0;
        let result = Py::new(py, RunResult::of(py, script, &out))?;
        match stopped {
            Some(stop) => Err(Error::Stopped(stop, result)),
            None if check && failed => Err(Error::Exit(result)),
            None => Ok(result),
        }
    }
}

impl IntoPython for Finished {
    fn into_python(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        match self.result(py) {
            Ok(r) => Ok(r.into_any()),
            Err(e) => Err(e.into_pyerr(py)),
        }
    }
}
