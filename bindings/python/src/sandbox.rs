//! `shellbox.Sandbox`: an agent's session in eve's shape, with an asyncio API. Every
//! `run` is a fresh shell in `/workspace` over one filesystem; `spawn` starts a
//! background `Process`; `call_tool` serves the six agent tools with the session's
//! read stamps; `save` and `Sandbox.load` keep it in a durable store. Each awaitable
//! call has a `*_sync` twin that blocks (with the GIL released) instead.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use shellbox::store::{SaveReport as RustSaveReport, Store};

use crate::commands::{self, Caps};
use crate::errors::Error;
use crate::fs::{FileSystem, Snapshot};
use crate::limits::Limits;
use crate::process::Spawned;
use crate::run::{Finished, RunArgs, RunResult, run_args};
use crate::shell::{Setup, Shell};
use crate::tools::{Json, input_of};
use crate::wait::{IntoPython, block_on, blocking, future, runtime};

/// A sandbox session. Copies of the handle (`fork` aside) are the same session.
#[pyclass(frozen, module = "shellbox")]
pub struct Sandbox {
    pub(crate) sb: shellbox::Sandbox,
    pub(crate) caps: Caps,
}

/// What a save wrote.
#[pyclass(frozen, module = "shellbox")]
pub struct SaveReport {
    /// The sequence number of the new snapshot.
    #[pyo3(get)]
    seq: u64,
    /// Blobs the store did not have yet, and their bytes.
    #[pyo3(get)]
    blobs_written: u64,
    #[pyo3(get)]
    bytes_written: u64,
    #[pyo3(get)]
    manifest: PathBuf,
}

impl From<RustSaveReport> for SaveReport {
    fn from(r: RustSaveReport) -> SaveReport {
        SaveReport {
            seq: r.seq,
            blobs_written: r.blobs_written,
            bytes_written: r.blob_bytes_written,
            manifest: r.manifest,
        }
    }
}

#[pymethods]
impl SaveReport {
    fn __repr__(&self) -> String {
        format!(
            "SaveReport(seq={}, blobs_written={}, bytes_written={})",
            self.seq, self.blobs_written, self.bytes_written
        )
    }
}

/// A sandbox loaded from a store, to be made a `Sandbox` under the GIL (which also
/// warns about damaged snapshots that were skipped).
struct Loaded(shellbox::Sandbox, Caps, shellbox::store::LoadReport);

impl IntoPython for Loaded {
    fn into_python(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let Loaded(sb, caps, report) = self;
        for d in &report.discarded {
            let text = format!(
                "shellbox: skipped a damaged snapshot {}: {}",
                d.path.display(),
                d.reason
            );
            let text = std::ffi::CString::new(text.replace('\0', " "))?;
            PyErr::warn(
                py,
                &py.get_type::<pyo3::exceptions::PyUserWarning>(),
                &text,
                1,
            )?;
        }
        Ok(Py::new(py, Sandbox { sb, caps })?.into_any())
    }
}

/// The store in `dir` (opened on the calling thread: it touches the disk).
fn store_at(dir: &std::path::Path) -> Result<Store, Error> {
    Store::open(dir).map_err(Error::Store)
}

impl Sandbox {
    fn run_work(
        &self,
        script: String,
        args: RunArgs,
    ) -> impl std::future::Future<Output = Result<Finished, Error>> + Send + 'static {
        let sb = self.sb.clone();
        async move {
            let out = sb.run(args.opts).await.map_err(Error::Sandbox)?;
            Ok(Finished {
                script,
                out,
                check: args.check,
            })
        }
    }

    fn spawn_work(
        &self,
        args: RunArgs,
    ) -> impl std::future::Future<Output = Result<Spawned, Error>> + Send + 'static {
        let sb = self.sb.clone();
        async move {
            sb.spawn(args.opts)
                .await
                .map(Spawned)
                .map_err(Error::Sandbox)
        }
    }

    fn tool_work(
        &self,
        name: String,
        input: &Bound<'_, PyAny>,
    ) -> Result<
        impl std::future::Future<Output = Result<serde_json::Value, shellbox::tools::ToolError>>
        + Send
        + 'static,
        Error,
    > {
        let input = input_of(input)?;
        let sb = self.sb.clone();
        Ok(async move { sb.call_tool(&name, input?).await })
    }

    fn stop_work(&self) -> impl std::future::Future<Output = Result<(), Error>> + Send + 'static {
        let sb = self.sb.clone();
        async move {
            sb.stop().await;
            Ok(())
        }
    }

    fn save_work(
        &self,
        dir: PathBuf,
        name: String,
    ) -> impl FnOnce() -> Result<SaveReport, Error> + Send + 'static {
        let sb = self.sb.clone();
        move || {
            let store = store_at(&dir)?;
            sb.save_blocking(&store, &name)
                .map(SaveReport::from)
                .map_err(Error::Sandbox)
        }
    }

    /// The load of session `name` from the store in `dir`, with the sandbox settings
    /// and commands of `setup`.
    fn load_work(
        setup: &Setup<'_, '_>,
        dir: PathBuf,
        name: String,
    ) -> Result<impl FnOnce() -> Result<Loaded, Error> + Send + 'static, Error> {
        let (builder, caps) = setup.builder()?;
        let commands = commands::parse(setup.commands)?;
        Ok(move || {
            let store = store_at(&dir)?;
            let (sb, report) = builder.load(&store, &name).map_err(Error::Sandbox)?;
            commands::install(&sb, commands, caps);
            Ok(Loaded(sb, caps, report))
        })
    }
}

#[pymethods]
impl Sandbox {
    /// A sandbox with `files` (path to bytes or str, relative to `/workspace`),
    /// exported `env`, `limits`, custom `commands`, a host folder `root` overlaid
    /// read-only at `/workspace`, and an `id` (default: a fresh one).
    #[new]
    #[pyo3(signature = (files = None, env = None, limits = None, *, commands = None, root = None, id = None))]
    fn new(
        files: Option<&Bound<'_, PyDict>>,
        env: Option<&Bound<'_, PyDict>>,
        limits: Option<PyRef<'_, Limits>>,
        commands: Option<&Bound<'_, PyDict>>,
        root: Option<&Bound<'_, PyAny>>,
        id: Option<String>,
    ) -> Result<Sandbox, Error> {
        let setup = Setup {
            files,
            env,
            limits: limits.as_deref(),
            commands,
            root,
            id,
        };
        let (sb, caps) = setup.build()?;
        Ok(Sandbox { sb, caps })
    }

    #[getter]
    fn id(&self) -> &str {
        self.sb.id()
    }

    /// Runs `script` in a fresh shell in `/workspace`; awaits its `RunResult`. Takes
    /// the keywords of `Shell.run`. Cancelling the awaitable stops the command.
    #[pyo3(signature = (script, stdin = None, **kwargs))]
    fn run<'py>(
        &self,
        py: Python<'py>,
        script: String,
        stdin: Option<&Bound<'py, PyAny>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> Result<Bound<'py, PyAny>, Error> {
        let args = run_args(script.clone(), stdin, kwargs, false)?;
        future(py, self.run_work(script, args))
    }

    /// [`run`](Self::run) for sync code.
    #[pyo3(signature = (script, stdin = None, **kwargs))]
    fn run_sync(
        &self,
        py: Python<'_>,
        script: String,
        stdin: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> Result<Py<RunResult>, Error> {
        let args = run_args(script.clone(), stdin, kwargs, false)?;
        block_on(py, self.run_work(script, args))?.result(py)
    }

    /// Starts `script` in the background; awaits its `Process` (at once). Takes the
    /// keywords of `run` (not `check`) and `stdin_pipe=True` for a writable stdin.
    #[pyo3(signature = (script, stdin = None, **kwargs))]
    fn spawn<'py>(
        &self,
        py: Python<'py>,
        script: String,
        stdin: Option<&Bound<'py, PyAny>>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> Result<Bound<'py, PyAny>, Error> {
        let args = run_args(script, stdin, kwargs, true)?;
        future(py, self.spawn_work(args))
    }

    /// [`spawn`](Self::spawn) for sync code.
    #[pyo3(signature = (script, stdin = None, **kwargs))]
    fn spawn_sync(
        &self,
        py: Python<'_>,
        script: String,
        stdin: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> Result<Py<PyAny>, Error> {
        let args = run_args(script, stdin, kwargs, true)?;
        Ok(block_on(py, self.spawn_work(args))?.into_python(py)?)
    }

    /// Calls agent tool `name` with `input` (a JSON text or a JSON-able value, as the
    /// model sent it); awaits its JSON output, or raises `ToolError`.
    fn call_tool<'py>(
        &self,
        py: Python<'py>,
        name: String,
        input: &Bound<'py, PyAny>,
    ) -> Result<Bound<'py, PyAny>, Error> {
        let work = self.tool_work(name, input)?;
        future(py, async move { work.await.map(Json).map_err(Error::Tool) })
    }

    /// [`call_tool`](Self::call_tool) for sync code.
    fn call_tool_sync(
        &self,
        py: Python<'_>,
        name: String,
        input: &Bound<'_, PyAny>,
    ) -> Result<Py<PyAny>, Error> {
        let work = self.tool_work(name, input)?;
        let out = block_on(py, async move { work.await.map_err(Error::Tool) })?;
        Ok(Json(out).into_python(py)?)
    }

    /// Calls a tool and awaits the MCP `tools/call` result (`content`,
    /// `structuredContent`, `isError`): failures are results, not exceptions.
    fn call_tool_mcp<'py>(
        &self,
        py: Python<'py>,
        name: String,
        input: &Bound<'py, PyAny>,
    ) -> Result<Bound<'py, PyAny>, Error> {
        let work = self.tool_work(name.clone(), input)?;
        future(py, async move {
            Ok(Json(shellbox::mcp::call_result(&name, work.await)))
        })
    }

    /// [`call_tool_mcp`](Self::call_tool_mcp) for sync code.
    fn call_tool_mcp_sync(
        &self,
        py: Python<'_>,
        name: String,
        input: &Bound<'_, PyAny>,
    ) -> Result<Py<PyAny>, Error> {
        let work = self.tool_work(name.clone(), input)?;
        let out = block_on(py, async move { Ok(work.await) })?;
        Ok(Json(shellbox::mcp::call_result(&name, out)).into_python(py)?)
    }

    /// The read stamps of the session: `{path: {"sha256": ..., "len": ...}}`.
    fn read_stamps(&self, py: Python<'_>) -> Result<Py<PyAny>, Error> {
        let stamps = serde_json::to_value(self.sb.read_stamps())
            .map_err(|e| Error::Internal(e.to_string()))?;
        Ok(Json(stamps).into_python(py)?)
    }

    /// Saves the session (files, id, environment, read stamps) to the store in
    /// `store_dir` as `name`; awaits a `SaveReport`.
    fn save<'py>(
        &self,
        py: Python<'py>,
        store_dir: PathBuf,
        name: String,
    ) -> Result<Bound<'py, PyAny>, Error> {
        let work = self.save_work(store_dir, name);
        let rt = runtime()?;
        future(py, async move {
            rt.spawn_blocking(work)
                .await
                .map_err(|e| Error::Internal(format!("the save failed: {e}")))?
        })
    }

    /// [`save`](Self::save) for sync code.
    fn save_sync(
        &self,
        py: Python<'_>,
        store_dir: PathBuf,
        name: String,
    ) -> Result<SaveReport, Error> {
        blocking(py, self.save_work(store_dir, name), || {})?
    }

    /// Session `name` of the store in `store_dir`, awaited; `env`, `limits` and
    /// `commands` are what it runs with (the saved environment comes first).
    #[staticmethod]
    #[pyo3(signature = (store_dir, name, *, env = None, limits = None, commands = None))]
    fn load<'py>(
        py: Python<'py>,
        store_dir: PathBuf,
        name: String,
        env: Option<&Bound<'py, PyDict>>,
        limits: Option<PyRef<'py, Limits>>,
        commands: Option<&Bound<'py, PyDict>>,
    ) -> Result<Bound<'py, PyAny>, Error> {
        let setup = Setup::settings(env, limits.as_deref(), commands);
        let work = Sandbox::load_work(&setup, store_dir, name)?;
        let rt = runtime()?;
        future(py, async move {
            rt.spawn_blocking(work)
                .await
                .map_err(|e| Error::Internal(format!("the load failed: {e}")))?
        })
    }

    /// [`load`](Self::load) for sync code.
    #[staticmethod]
    #[pyo3(signature = (store_dir, name, *, env = None, limits = None, commands = None))]
    fn load_sync(
        py: Python<'_>,
        store_dir: PathBuf,
        name: String,
        env: Option<&Bound<'_, PyDict>>,
        limits: Option<PyRef<'_, Limits>>,
        commands: Option<&Bound<'_, PyDict>>,
    ) -> Result<Py<PyAny>, Error> {
        let setup = Setup::settings(env, limits.as_deref(), commands);
        let work = Sandbox::load_work(&setup, store_dir, name)?;
        Ok(blocking(py, work, || {})??.into_python(py)?)
    }

    /// An O(1) copy of the session: same files, commands, environment and read stamps;
    /// a fresh id; no running commands.
    fn fork(&self) -> Sandbox {
        Sandbox {
            sb: self.sb.fork(),
            caps: self.caps,
        }
    }

    /// A persistent `Shell` over this sandbox's filesystem (not a copy of it).
    fn shell(&self) -> Shell {
        Shell::over(self.sb.clone(), self.caps)
    }

    /// The session's files.
    #[getter]
    fn fs(&self) -> FileSystem {
        FileSystem::new(self.sb.clone())
    }

    /// An O(1) snapshot of the filesystem.
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            fs: self.sb.snapshot(),
        }
    }

    /// Puts the filesystem back as it was in `snapshot`.
    fn restore(&self, snapshot: PyRef<'_, Snapshot>) {
        self.sb.restore(snapshot.fs.clone());
    }

    /// Adds command `name` (or replaces one) for the commands started from now on.
    fn register(&self, name: String, function: &Bound<'_, PyAny>) -> Result<(), Error> {
        commands::check_callable(&name, function)?;
        self.sb.register(
            name,
            commands::command(function.clone().unbind(), self.caps),
        );
        Ok(())
    }

    /// Stops every command of the session (runs, processes, `bash` tool jobs); awaits
    /// their end.
    fn stop<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>, Error> {
        future(py, self.stop_work())
    }

    /// [`stop`](Self::stop) for sync code.
    fn stop_sync(&self, py: Python<'_>) -> Result<(), Error> {
        block_on(py, self.stop_work())
    }

    fn __repr__(&self) -> String {
        format!("Sandbox(id={})", crate::run::quoted(self.sb.id()))
    }
}
