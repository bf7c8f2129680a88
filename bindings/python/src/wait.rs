//! Running engine work off the Python thread. Blocking calls ([`blocking`],
//! [`block_on`]) hand the work to the engine's threads and wait with the GIL
//! released, waking every [`POLL`] on the main thread to let Python run its signal
//! handlers: a `KeyboardInterrupt` cancels the work, waits briefly for it to stop, and
//! is raised. Async calls ([`future`]) return an `asyncio.Future` of the running loop
//! that a tokio task settles through `loop.call_soon_threadsafe`; cancelling the
//! Future drops the task, which stops its command.

use std::future::Future;
use std::sync::mpsc;
use std::sync::{LazyLock, OnceLock};
use std::time::Duration;

use pyo3::BoundObject;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyCFunction;

use crate::errors::Error;

/// How often a blocked main thread looks for signals (Ctrl-C).
const POLL: Duration = Duration::from_millis(20);

/// How long an interrupted call waits for its work to stop before raising anyway.
const GRACE: Duration = Duration::from_secs(2);

/// The engine's tokio runtime (for the asyncio API and the sync twins of it).
static RUNTIME: LazyLock<Result<tokio::runtime::Runtime, String>> = LazyLock::new(|| {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("shellbox-py")
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start shellbox's runtime: {e}"))
});

pub(crate) fn runtime() -> Result<&'static tokio::runtime::Runtime, Error> {
    RUNTIME.as_ref().map_err(|e| Error::Internal(e.clone()))
}

/// The Python id (`threading.get_ident()`) of the main thread, where signals land.
static MAIN_THREAD: OnceLock<u64> = OnceLock::new();

/// Records the main thread (called when the module is imported).
pub(crate) fn note_main_thread(py: Python<'_>) -> PyResult<()> {
    let ident: u64 = py
        .import("threading")?
        .call_method0("main_thread")?
        .getattr("ident")?
        .extract()?;
    let _ = MAIN_THREAD.set(ident);
    Ok(())
}

thread_local! {
    static ON_MAIN: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
}

/// Whether this is Python's main thread (the only one `KeyboardInterrupt` reaches).
fn on_main_thread(py: Python<'_>) -> bool {
    ON_MAIN.with(|cached| {
        if let Some(known) = cached.get() {
            return known;
        }
        let ident = py
            .import("threading")
            .and_then(|t| t.call_method0("get_ident"))
            .and_then(|i| i.extract::<u64>())
            .ok();
        let main = ident.is_some() && ident == MAIN_THREAD.get().copied();
        cached.set(Some(main));
        main
    })
}

/// Runs `work` with the GIL released and returns what it returns. On the main thread
/// it runs on an engine thread while this one waits for signals; a `KeyboardInterrupt`
/// calls `interrupt` (which must make the work end soon) and is raised. Elsewhere no
/// signal can arrive, so it runs right here.
pub(crate) fn blocking<T, F>(py: Python<'_>, work: F, interrupt: impl Fn()) -> Result<T, Error>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    if !on_main_thread(py) {
        return Ok(py.detach(work));
    }
    let (tx, rx) = mpsc::sync_channel(1);
    runtime()?.spawn_blocking(move || {
        // The waiter may have given up (after an interrupt); nobody needs the answer.
        let _ = tx.send(work());
    });
    wait(py, rx, interrupt)
}

/// Runs `work` to its end on the runtime, with the GIL released, waiting as
/// [`blocking`] does; an interrupt drops the future (which stops its command).
pub(crate) fn block_on<T, F>(py: Python<'_>, work: F) -> Result<T, Error>
where
    T: Send + 'static,
    F: Future<Output = Result<T, Error>> + Send + 'static,
{
    let (tx, rx) = mpsc::sync_channel(1);
    let rt = runtime()?;
    let task = rt.spawn(work);
    let abort = task.abort_handle();
    rt.spawn(async move {
        if let Some(out) = joined(task.await) {
            let _ = tx.send(out);
        }
    });
    wait(py, rx, || abort.abort())?
}

/// What a task returned, an `InternalError` if it panicked (a bug in shellbox must not
/// leave its caller waiting forever), or `None` if it was aborted.
fn joined<T>(r: Result<Result<T, Error>, tokio::task::JoinError>) -> Option<Result<T, Error>> {
    match r {
        Ok(out) => Some(out),
        Err(e) if e.is_cancelled() => None,
        Err(e) => Some(Err(Error::Internal(format!("shellbox failed: {e}")))),
    }
}

/// Waits for `rx` with the GIL released, checking for signals every [`POLL`].
fn wait<T: Send>(py: Python<'_>, rx: mpsc::Receiver<T>, interrupt: impl Fn()) -> Result<T, Error> {
    let mut rx = rx;
    loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(POLL);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(value) => return Ok(value),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    interrupt();
                    // Its command stops at its next check point; waiting for that keeps
                    // a shell from being busy when the next call comes.
                    let _ = py.detach(move || rx.recv_timeout(GRACE));
                    return Err(Error::Py(signal));
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Error::Internal(
                    "the engine thread ended without an answer".into(),
                ));
            }
        }
    }
}

/// Converts a finished call's value to Python (under the GIL).
pub(crate) trait IntoPython: Send + 'static {
    fn into_python(self, py: Python<'_>) -> PyResult<Py<PyAny>>;
}

impl<T> IntoPython for T
where
    T: for<'py> IntoPyObject<'py> + Send + 'static,
{
    fn into_python(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.into_pyobject(py)
            .map(|v| v.into_any().unbind())
            .map_err(Into::into)
    }
}

/// An `asyncio.Future` of the running event loop, settled with what `work` returns.
/// Cancelling the Future drops `work`.
pub(crate) fn future<'py, T, F>(py: Python<'py>, work: F) -> Result<Bound<'py, PyAny>, Error>
where
    T: IntoPython,
    F: Future<Output = Result<T, Error>> + Send + 'static,
{
    static GET_LOOP: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let get_loop = GET_LOOP.get_or_try_init(py, || {
        py.import("asyncio")?
            .getattr("get_running_loop")
            .map(Bound::unbind)
    })?;
    let event_loop = get_loop.bind(py).call0()?;
    let fut = event_loop.call_method0("create_future")?;
    let (loop_ref, fut_ref) = (event_loop.unbind(), fut.clone().unbind());
    let rt = runtime()?;
    let task = rt.spawn(work);
    let abort = task.abort_handle();
    rt.spawn(async move {
        if let Some(out) = joined(task.await) {
            // A Python that is shutting down has nobody left to tell.
            let _ = Python::try_attach(|py| settle(py, &loop_ref, fut_ref, out));
        }
    });
    let on_done = PyCFunction::new_closure(py, None, None, move |args, _| -> PyResult<()> {
        if args.get_item(0)?.call_method0("cancelled")?.is_truthy()? {
            abort.abort();
        }
        Ok(())
    })?;
    fut.call_method1("add_done_callback", (on_done,))?;
    Ok(fut)
}

/// Hands `out` to the loop, which sets it on `fut` unless `fut` is done already.
fn settle<T: IntoPython>(
    py: Python<'_>,
    event_loop: &Py<PyAny>,
    fut: Py<PyAny>,
    out: Result<T, Error>,
) {
    let (ok, value) = match out.and_then(|v| v.into_python(py).map_err(Error::Py)) {
        Ok(v) => (true, v),
        Err(e) => (false, e.into_pyerr(py).into_value(py).into_any()),
    };
    let set = match wrap_pyfunction!(set_outcome, py) {
        Ok(f) => f,
        Err(_) => return,
    };
    // A closed loop has nobody waiting any more.
    let _ = event_loop.call_method1(py, "call_soon_threadsafe", (set, fut, ok, value));
}

/// Sets a Future's result or exception (on its loop's thread), unless it was
/// cancelled meanwhile.
#[pyfunction]
fn set_outcome(fut: &Bound<'_, PyAny>, ok: bool, value: Bound<'_, PyAny>) -> PyResult<()> {
    if fut.call_method0("done")?.is_truthy()? {
        return Ok(());
    }
    if ok {
        fut.call_method1("set_result", (value,))?;
    } else {
        fut.call_method1("set_exception", (value,))?;
    }
    Ok(())
}
