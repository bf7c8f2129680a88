//! `shellbox.Shell`: a persistent shell session (variables, functions and the working
//! directory carry across `run` calls) over a sandbox's filesystem, which `sh.fs`
//! reads and writes directly. A run holds the shell while it runs, so runs on one
//! shell from several Python threads take turns.

use std::sync::{Arc, Mutex, MutexGuard};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use shellbox::Sandbox;

use crate::commands::{self, Caps};
use crate::errors::Error;
use crate::fs::{FileSystem, Snapshot};
use crate::limits::Limits;
use crate::run::{Finished, RunResult, run_args};

/// A persistent shell.
#[pyclass(frozen, subclass, module = "shellbox")]
pub struct Shell {
    sb: Sandbox,
    shell: Arc<Mutex<shellbox::Shell>>,
    caps: Caps,
}

fn lock(shell: &Mutex<shellbox::Shell>) -> MutexGuard<'_, shellbox::Shell> {
    shell.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shell {
    /// A shell over `sb`'s filesystem (a new one, or `sb`'s own via `Sandbox.shell`).
    pub(crate) fn over(sb: Sandbox, caps: Caps) -> Shell {
        let shell = sb.shell();
        Shell {
            sb,
            shell: Arc::new(Mutex::new(shell)),
            caps,
        }
    }
}

/// Builds the sandbox a new `Shell` or `Sandbox` works on: `root` overlaid (read-only
/// underneath, writes kept in memory) at `/workspace`, then `files` written there,
/// then `commands` registered.
pub(crate) struct Setup<'a, 'py> {
    pub(crate) files: Option<&'a Bound<'py, PyDict>>,
    pub(crate) env: Option<&'a Bound<'py, PyDict>>,
    pub(crate) limits: Option<&'a Limits>,
    pub(crate) commands: Option<&'a Bound<'py, PyDict>>,
    pub(crate) root: Option<&'a Bound<'py, PyAny>>,
    pub(crate) id: Option<String>,
}

impl<'a, 'py> Setup<'a, 'py> {
    /// The settings alone (no files, host folder or id), for loading a stored session.
    pub(crate) fn settings(
        env: Option<&'a Bound<'py, PyDict>>,
        limits: Option<&'a Limits>,
        commands: Option<&'a Bound<'py, PyDict>>,
    ) -> Setup<'a, 'py> {
        Setup {
            files: None,
            env,
            limits,
            commands,
            root: None,
            id: None,
        }
    }

    /// The builder of the sandbox, with its environment, limits and id.
    pub(crate) fn builder(&self) -> Result<(shellbox::SandboxBuilder, Caps), Error> {
        let mut b = Sandbox::builder();
        let limits = self.limits.map(Limits::to_rust).unwrap_or_default();
        let caps = Caps::of(&limits);
        if self.limits.is_some() {
            b = b.limits(limits);
        }
        if let Some(env) = self.env {
            for (k, v) in crate::run::str_pairs(env, "env")? {
                b = b.env(k, v);
            }
        }
        if let Some(id) = &self.id {
            b = b.id(id.clone());
        }
        Ok((b, caps))
    }

    pub(crate) fn build(&self) -> Result<(Sandbox, Caps), Error> {
        let (b, caps) = self.builder()?;
        let sb = b.build();
        self.fill(&sb, caps)?;
        Ok((sb, caps))
    }

    /// Overlays `root`, writes `files` and registers `commands` in `sb`.
    pub(crate) fn fill(&self, sb: &Sandbox, caps: Caps) -> Result<(), Error> {
        if let Some(root) = self.root {
            let host: std::path::PathBuf = root
                .extract()
                .map_err(|_| Error::Type("root must be a host path (str or os.PathLike)".into()))?;
            let mut fs = sb.fs();
            shellbox::session::copy_host_dir(&mut fs, &host, shellbox::tools::WORKSPACE, &[])
                .map_err(Error::Host)?;
        }
        if let Some(files) = self.files {
            let py = files.py();
            let fs = FileSystem::new(sb.clone());
            for (path, content) in files.iter() {
                fs.write(py, &path, &content, false, None)?;
            }
        }
        commands::install(sb, commands::parse(self.commands)?, caps);
        Ok(())
    }
}

#[pymethods]
impl Shell {
    /// A shell with `files` (path to bytes or str, relative to `/workspace`), exported
    /// `env`, working directory `cwd` (created if missing), `limits`, custom `commands`
    /// (name to function) and a host folder `root` overlaid read-only at `/workspace`.
    ///
    /// (`_fork_of` is how [`fork`](Self::fork) makes a copy of a subclass's type.)
    #[new]
    #[pyo3(signature = (files = None, env = None, cwd = None, limits = None, *, commands = None, root = None, _fork_of = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        files: Option<&Bound<'_, PyDict>>,
        env: Option<&Bound<'_, PyDict>>,
        cwd: Option<String>,
        limits: Option<PyRef<'_, Limits>>,
        commands: Option<&Bound<'_, PyDict>>,
        root: Option<&Bound<'_, PyAny>>,
        _fork_of: Option<PyRef<'_, Shell>>,
    ) -> Result<Shell, Error> {
        if let Some(base) = _fork_of {
            return Ok(base.forked(py));
        }
        let setup = Setup {
            files,
            env,
            limits: limits.as_deref(),
            commands,
            root,
            id: None,
        };
        let (sb, caps) = setup.build()?;
        let shell = Shell::over(sb, caps);
        if let Some(dir) = cwd {
            shell.enter(&dir)?;
        }
        Ok(shell)
    }

    /// Runs `script` with `stdin` (bytes or str) and returns its result. Keywords:
    /// `cwd` and `env` for this run only, `args` (words appended unparsed to the
    /// first command), `capture_env` (the variables at the end in `result.env`),
    /// `cancel` (a `CancelToken`) and `check` (raise `ExitStatusError` unless the
    /// status is 0). The GIL is released while it runs; Ctrl-C stops it.
    #[pyo3(signature = (script, stdin = None, **kwargs))]
    fn run(
        &self,
        py: Python<'_>,
        script: String,
        stdin: Option<&Bound<'_, PyAny>>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> Result<Py<RunResult>, Error> {
        let args = run_args(script.clone(), stdin, kwargs, false)?;
        if commands::in_command() && self.shell.try_lock().is_err() {
            // Most likely the run that called this command, which would wait forever.
            return Err(Error::Py(pyo3::exceptions::PyRuntimeError::new_err(
                "this shell is busy (a command cannot run scripts on the shell that runs it)",
            )));
        }
        let shell = self.shell.clone();
        let opts = args.opts;
        let token = args.token;
        let out = crate::wait::blocking(py, move || lock(&shell).run(opts), || token.cancel())?;
        Finished {
            script,
            out,
            check: args.check,
        }
        .result(py)
    }

    /// The shell's files.
    #[getter]
    fn fs(&self) -> FileSystem {
        FileSystem::new(self.sb.clone())
    }

    /// The value of shell variable `name`, if set.
    fn var(&self, py: Python<'_>, name: &str) -> Option<String> {
        let shell = &self.shell;
        py.detach(|| lock(shell).var(name))
    }

    /// The working directory.
    #[getter]
    fn cwd(&self, py: Python<'_>) -> String {
        let shell = &self.shell;
        py.detach(|| lock(shell).cwd().to_owned())
    }

    /// An O(1) snapshot of the filesystem.
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            fs: self.sb.snapshot(),
        }
    }

    /// Puts the filesystem back as it was in `snapshot` (shell variables stay).
    fn restore(&self, snapshot: PyRef<'_, Snapshot>) {
        self.sb.restore(snapshot.fs.clone());
    }

    /// An O(1) copy of this session — variables, functions, directory, commands and
    /// files — that goes its own way from here, of the same class as this one.
    fn fork<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let kwargs = PyDict::new(slf.py());
        kwargs.set_item("_fork_of", slf)?;
        slf.get_type().call((), Some(&kwargs))
    }

    /// Adds command `name` (or replaces one, built-in or not) that calls `function`
    /// with a `CommandContext`; it returns the exit status (`None` is 0).
    fn register(
        &self,
        py: Python<'_>,
        name: String,
        function: &Bound<'_, PyAny>,
    ) -> Result<(), Error> {
        commands::check_callable(&name, function)?;
        let command = commands::command(function.clone().unbind(), self.caps);
        let shell = &self.shell;
        py.detach(|| lock(shell).register(name, command));
        Ok(())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!("Shell(cwd={})", crate::run::quoted(&self.cwd(py)))
    }
}

impl Shell {
    fn forked(&self, py: Python<'_>) -> Shell {
        let fork = self.sb.fork();
        let shell = &self.shell;
        let copy = py.detach(|| lock(shell).fork_onto(&fork));
        Shell {
            sb: fork,
            shell: Arc::new(Mutex::new(copy)),
            caps: self.caps,
        }
    }

    /// Makes `dir` (relative to `/workspace`) the working directory, creating it.
    fn enter(&self, dir: &str) -> Result<(), Error> {
        let path = self.sb.resolve_path(dir);
        self.sb
            .fs()
            .mkdir_all(&path, 0o755)
            .map_err(|e| Error::fs("mkdir", &path, &e))?;
        let mut shell = lock(&self.shell);
        let interp = shell.interp_mut();
        interp.cwd = path.clone();
        interp
            .assign_scalar("PWD", path, false)
            .map_err(|e| Error::Value(e.to_string()))
    }
}

/// For the test suite: registers a command that panics in a `Shell` or a `Sandbox`, so
/// that the tests can pin that a bug in shellbox ends the run with `InternalError`
/// instead of taking the interpreter down. Nothing else calls it.
#[pyfunction(name = "_register_panicking_command")]
pub(crate) fn register_panicking_command(
    target: &Bound<'_, PyAny>,
    name: String,
) -> Result<(), Error> {
    #[allow(clippy::panic)]
    fn boom(_: &mut shellbox::commands::Ctx) -> shellbox::commands::CmdResult {
        panic!("a panic for the test suite")
    }
    if let Ok(shell) = target.cast::<Shell>() {
        lock(&shell.get().shell).register(name, boom);
    } else if let Ok(sb) = target.cast::<crate::sandbox::Sandbox>() {
        sb.get().sb.register(name, boom);
    } else {
        return Err(Error::Type("a Shell or a Sandbox".into()));
    }
    Ok(())
}
