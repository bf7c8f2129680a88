//! Custom commands written in Python. A registered name runs, on the engine's thread,
//! a closure that reads the command's stdin (bounded, see `Ctx::read_stdin_to_end`),
//! takes the GIL only to call the Python function with a
//! `CommandContext`, and then writes what the function wrote to `ctx.stdout` and
//! `ctx.stderr` to the command's real streams. The function's return value is the
//! exit status (`None` is 0); an exception it raises is a failure of the command
//! (its message on stderr, status 1), never of the run.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use shellbox::commands::{CmdResult, Ctx};

use crate::errors::Error;

/// What a custom command sees.
#[pyclass(frozen, module = "shellbox")]
pub struct CommandContext {
    /// The name it was called by.
    #[pyo3(get)]
    name: String,
    #[pyo3(get)]
    args: Vec<String>,
    /// All of its stdin.
    #[pyo3(get)]
    stdin: Py<PyBytes>,
    /// Its exported environment.
    #[pyo3(get)]
    env: BTreeMap<String, String>,
    /// Its working directory (absolute).
    #[pyo3(get)]
    cwd: String,
    #[pyo3(get)]
    stdout: Py<CommandOutput>,
    #[pyo3(get)]
    stderr: Py<CommandOutput>,
}

/// A custom command's stdout or stderr: `write(bytes | str)`, so `print(...,
/// file=ctx.stdout)` works too. What is written reaches the command's stream when
/// the function returns; more than the run's output limit is refused.
#[pyclass(frozen, module = "shellbox")]
pub struct CommandOutput {
    sink: Arc<Sink>,
}

/// What a command function wrote to one stream, and whether it tried to write more
/// than the cap (which ends the run, as the output limit does in the engine).
#[derive(Default)]
struct Sink {
    buf: Mutex<Vec<u8>>,
    cap: usize,
    overflowed: std::sync::atomic::AtomicBool,
}

impl Sink {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.buf.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn overflowed(&self) -> bool {
        self.overflowed.load(std::sync::atomic::Ordering::Relaxed)
    }
}

#[pymethods]
impl CommandOutput {
    /// Appends `data` (str is written as UTF-8); returns how much was given.
    fn write(&self, data: &Bound<'_, PyAny>) -> Result<usize, Error> {
        let bytes = crate::run::bytes_of(data, "data")?;
        let sink = &self.sink;
        let mut buf = sink.buf.lock().unwrap_or_else(|e| e.into_inner());
        if buf.len() + bytes.len() > sink.cap {
            sink.overflowed
                .store(true, std::sync::atomic::Ordering::Relaxed);
            return Err(Error::Sandbox(shellbox::session::SandboxError::new(
                shellbox::session::SandboxErrorKind::LimitExceeded,
                output_limit(sink.cap),
            )));
        }
        buf.extend_from_slice(&bytes);
        // A str is counted in characters, as `TextIO.write` counts it.
        Ok(match data.cast::<pyo3::types::PyString>() {
            Ok(s) => s.len()?,
            Err(_) => bytes.len(),
        })
    }

    fn flush(&self) {}

    fn writable(&self) -> bool {
        true
    }
}

/// The engine's message for the output limit (so the run names `max_output_bytes`).
fn output_limit(cap: usize) -> String {
    format!("output limit exceeded ({cap} bytes)")
}

/// How much a custom command may take in and put out.
#[derive(Clone, Copy)]
pub(crate) struct Caps {
    pub(crate) stdin: usize,
    pub(crate) output: usize,
}

impl Caps {
    pub(crate) fn of(limits: &shellbox::Limits) -> Caps {
        Caps {
            stdin: limits.max_string_len,
            output: usize::try_from(limits.max_output_bytes).unwrap_or(usize::MAX),
        }
    }
}

/// The command that calls Python function `f`.
pub(crate) fn command(
    f: Py<PyAny>,
    caps: Caps,
) -> impl Fn(&mut Ctx) -> CmdResult + Send + Sync + 'static {
    move |ctx| call(&f, caps, ctx)
}

/// Checks that `f` can be a command.
pub(crate) fn check_callable(name: &str, f: &Bound<'_, PyAny>) -> Result<(), Error> {
    if f.is_callable() {
        Ok(())
    } else {
        Err(Error::Type(format!("command '{name}' must be callable")))
    }
}

/// The outcome of the Python call: a status, or a message for stderr.
type Called = Result<i32, String>;

fn call(f: &Py<PyAny>, caps: Caps, ctx: &mut Ctx) -> CmdResult {
    let stdin = ctx.read_stdin_to_end(caps.stdin)?;
    let sink = || {
        Arc::new(Sink {
            cap: caps.output,
            ..Sink::default()
        })
    };
    let (out, err) = (sink(), sink());
    let called = Python::try_attach(|py| -> Called {
        let calling = || -> PyResult<i32> {
            let context = CommandContext {
                name: ctx.name.to_owned(),
                args: ctx.args.to_vec(),
                stdin: PyBytes::new(py, &stdin).unbind(),
                env: ctx.env.clone(),
                cwd: ctx.cwd.to_owned(),
                stdout: Py::new(py, CommandOutput { sink: out.clone() })?,
                stderr: Py::new(py, CommandOutput { sink: err.clone() })?,
            };
            let _inside = InCommand::enter();
            finish(py, f.call1(py, (context,))?)
        };
        calling().map_err(|e| describe(py, &e))
    });
    ctx.stdout.write_all(&out.take())?;
    ctx.stderr.write_all(&err.take())?;
    if out.overflowed() || err.overflowed() {
        return Err(shellbox::commands::fatal(format!(
            "{}: {}",
            ctx.name,
            output_limit(caps.output)
        )));
    }
    // The run may have been cancelled (or run out of time) while Python worked.
    ctx.host.check()?;
    match called {
        Some(Ok(status)) => Ok(status),
        Some(Err(message)) => {
            writeln!(ctx.stderr, "{}: {message}", ctx.name)?;
            Ok(1)
        }
        None => {
            writeln!(ctx.stderr, "{}: Python is shutting down", ctx.name)?;
            Ok(126)
        }
    }
}

thread_local! {
    /// Set while this thread runs a custom command's Python function.
    static IN_COMMAND: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Marks this thread as running a command's function until dropped.
struct InCommand(bool);

impl InCommand {
    fn enter() -> InCommand {
        InCommand(IN_COMMAND.with(|c| c.replace(true)))
    }
}

impl Drop for InCommand {
    fn drop(&mut self) {
        IN_COMMAND.with(|c| c.set(self.0));
    }
}

/// Whether this thread is running a custom command's Python function (a script run
/// from there must not wait for a shell that may be the one running the command).
pub(crate) fn in_command() -> bool {
    IN_COMMAND.with(std::cell::Cell::get)
}

/// The status a command function returned (awaiting it first if it is a coroutine):
/// an int, or `None` for 0.
fn finish(py: Python<'_>, returned: Py<PyAny>) -> PyResult<i32> {
    let mut value = returned.into_bound(py);
    if py
        .import("inspect")?
        .call_method1("iscoroutine", (&value,))?
        .is_truthy()?
    {
        value = py.import("asyncio")?.call_method1("run", (value,))?;
    }
    if value.is_none() {
        return Ok(0);
    }
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "a command returns an int exit status or None, not a bool",
        ));
    }
    let status: i64 = value.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err("a command returns an int exit status or None")
    })?;
    // Statuses wrap to a byte, as `exit` does.
    Ok(i32::from(status.rem_euclid(256) as u8))
}

/// `Type: message` of a Python exception, for the command's stderr.
fn describe(py: Python<'_>, e: &PyErr) -> String {
    let name = e
        .get_type(py)
        .name()
        .map_or_else(|_| "Exception".to_owned(), |n| n.to_string());
    format!("{name}: {}", e.value(py))
}

/// The functions of a `commands` argument (a dict of name to callable), checked.
pub(crate) fn parse(
    commands: Option<&Bound<'_, pyo3::types::PyDict>>,
) -> Result<Vec<(String, Py<PyAny>)>, Error> {
    let mut parsed = Vec::new();
    for (name, f) in commands.map(|c| c.iter()).into_iter().flatten() {
        let name: String = name
            .extract()
            .map_err(|_| Error::Type("command names must be str".into()))?;
        check_callable(&name, &f)?;
        parsed.push((name, f.unbind()));
    }
    Ok(parsed)
}

/// Registers parsed `commands` in `sb`.
pub(crate) fn install(sb: &shellbox::Sandbox, commands: Vec<(String, Py<PyAny>)>, caps: Caps) {
    for (name, f) in commands {
        sb.register(name, command(f, caps));
    }
}
