//! `shellbox.Template`: a sandbox set up once — a host folder seeded into
//! `/workspace`, `files` written, then a Python `bootstrap(sandbox)` (a function or a
//! coroutine function) — and frozen; every `session()` is an O(1) fork of it. It is
//! the Rust [`shellbox::Template`]: the revalidation key and the seed folder's
//! contents decide when it is rebuilt, and a store keeps built templates across
//! processes. A bootstrap runs on an engine thread of its own, holding the GIL only
//! while Python runs; the exception it raises is the cause of the `BootstrapError`.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use shellbox::commands::Registry;
use shellbox::session::{SandboxError, SandboxErrorKind};

use crate::commands::{self, Caps};
use crate::errors::Error;
use crate::limits::Limits;
use crate::sandbox::Sandbox;
use crate::shell::Setup;
use crate::wait::{IntoPython, block_on, future};

/// The last Python exception a bootstrap raised, for the error that reports it.
type Failure = Arc<Mutex<Option<PyErr>>>;

/// A bootstrapped filesystem that sessions fork.
#[pyclass(frozen, module = "shellbox")]
pub struct Template {
    template: shellbox::Template,
    caps: Caps,
    failure: Failure,
}

/// Calls the Python bootstrap with a `Sandbox` over `sb`, running it to its end if
/// it is a coroutine.
fn run_bootstrap(py: Python<'_>, f: &Py<PyAny>, sb: shellbox::Sandbox, caps: Caps) -> PyResult<()> {
    let sandbox = Py::new(py, Sandbox { sb, caps })?;
    let returned = f.bind(py).call1((sandbox,))?;
    if py
        .import("inspect")?
        .call_method1("iscoroutine", (&returned,))?
        .is_truthy()?
    {
        py.import("asyncio")?.call_method1("run", (returned,))?;
    }
    Ok(())
}

/// The revalidation key: a str, or a function returning one (called at every
/// revalidation; an exception it raises makes a key that forces a rebuild).
fn key_fn(key: Py<PyAny>) -> impl Fn() -> String + Send + Sync + 'static {
    move || {
        Python::try_attach(|py| {
            let k = key.bind(py);
            let value = if k.is_callable() {
                k.call0()
            } else {
                Ok(k.clone())
            };
            match value.and_then(|v| v.extract::<String>()) {
                Ok(s) => s,
                Err(e) => format!("<revalidation_key failed: {e}>"),
            }
        })
        .unwrap_or_else(|| "<Python is shutting down>".to_owned())
    }
}

/// A session's sandbox, to be made a `Sandbox` under the GIL.
struct Session(shellbox::Sandbox, Caps);

impl IntoPython for Session {
    fn into_python(self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(Py::new(
            py,
            Sandbox {
                sb: self.0,
                caps: self.1,
            },
        )?
        .into_any())
    }
}

impl Template {
    /// The error for `e`, with the bootstrap's Python exception as its cause.
    fn error(failure: &Failure, e: SandboxError) -> Error {
        if e.kind() == SandboxErrorKind::Bootstrap {
            let cause = failure.lock().unwrap_or_else(|p| p.into_inner()).take();
            return Error::Bootstrap(e.message().to_owned(), cause);
        }
        Error::Sandbox(e)
    }

    fn session_work(
        &self,
    ) -> impl std::future::Future<Output = Result<Session, Error>> + Send + 'static {
        let (template, caps, failure) = (self.template.clone(), self.caps, self.failure.clone());
        async move {
            match template.session().await {
                Ok(sb) => Ok(Session(sb, caps)),
                Err(e) => Err(Template::error(&failure, e)),
            }
        }
    }

    fn revalidate_work(
        &self,
    ) -> impl std::future::Future<Output = Result<bool, Error>> + Send + 'static {
        let (template, failure) = (self.template.clone(), self.failure.clone());
        async move {
            template
                .revalidate()
                .await
                .map_err(|e| Template::error(&failure, e))
        }
    }
}

#[pymethods]
impl Template {
    /// A template whose sessions start from what `bootstrap(sandbox)` left, after
    /// `seed_dir` (a host folder) was copied into `/workspace` and `files` written
    /// there. `revalidation_key` (a str or a function returning one) names what the
    /// folder cannot show; `store` (a directory) keeps built templates. `env`,
    /// `limits` and `commands` apply to bootstrap and to every session.
    #[new]
    #[pyo3(signature = (bootstrap = None, *, revalidation_key = None, seed_dir = None, store = None, files = None, env = None, limits = None, commands = None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        bootstrap: Option<Py<PyAny>>,
        revalidation_key: Option<Py<PyAny>>,
        seed_dir: Option<PathBuf>,
        store: Option<PathBuf>,
        files: Option<&Bound<'_, PyDict>>,
        env: Option<&Bound<'_, PyDict>>,
        limits: Option<PyRef<'_, Limits>>,
        commands: Option<&Bound<'_, PyDict>>,
    ) -> Result<Template, Error> {
        let setup = Setup::settings(env, limits.as_deref(), commands);
        let (sandbox, caps) = setup.builder()?;
        let mut registry = Registry::with_builtins();
        for (name, f) in commands::parse(commands)? {
            registry.register(name, commands::command(f, caps));
        }
        let mut seed_files = Vec::new();
        for (path, content) in files.map(|f| f.iter()).into_iter().flatten() {
            let path = crate::fs::vpath(&path)?;
            seed_files.push((path, crate::run::bytes_of(&content, "a file's content")?));
        }
        let failure = Failure::default();
        let slot = failure.clone();
        let bootstrap = bootstrap.map(Arc::new);
        let mut b = shellbox::Template::builder()
            .sandbox(sandbox.registry(registry))
            .bootstrap(move |sb| {
                let (files, bootstrap, slot) =
                    (seed_files.clone(), bootstrap.clone(), slot.clone());
                async move {
                    for (path, content) in files {
                        sb.write_binary_file(&path, content).await?;
                    }
                    let Some(f) = bootstrap else { return Ok(()) };
                    let ran = tokio::task::spawn_blocking(move || {
                        Python::try_attach(|py| run_bootstrap(py, &f, sb, caps))
                    })
                    .await;
                    let message = match ran {
                        Ok(Some(Ok(()))) => return Ok(()),
                        Ok(None) => "Python is shutting down".to_owned(),
                        Ok(Some(Err(e))) => {
                            let message = e.to_string();
                            *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                            message
                        }
                        Err(e) => format!("the bootstrap thread failed: {e}"),
                    };
                    Err(SandboxError::new(SandboxErrorKind::Bootstrap, message))
                }
            });
        if let Some(key) = revalidation_key {
            b = b.revalidation_key(key_fn(key));
        }
        if let Some(dir) = seed_dir {
            b = b.seed_dir(dir);
        }
        if let Some(dir) = store {
            b = b.store(shellbox::store::Store::open(&dir).map_err(Error::Store)?);
        }
        Ok(Template {
            template: b.build(),
            caps,
            failure,
        })
    }

    /// A new session (bootstrapping first if the template was never built); awaits
    /// its `Sandbox`.
    fn session<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>, Error> {
        future(py, self.session_work())
    }

    /// [`session`](Self::session) for sync code.
    fn session_sync(&self, py: Python<'_>) -> Result<Py<PyAny>, Error> {
        Ok(block_on(py, self.session_work())?.into_python(py)?)
    }

    /// Rebuilds if the key or the seed folder changed since the last build; awaits
    /// whether it rebuilt.
    fn revalidate<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>, Error> {
        future(py, self.revalidate_work())
    }

    /// [`revalidate`](Self::revalidate) for sync code.
    fn revalidate_sync(&self, py: Python<'_>) -> Result<bool, Error> {
        block_on(py, self.revalidate_work())
    }

    /// How many times bootstrap has run.
    #[getter]
    fn builds(&self) -> u64 {
        self.template.builds()
    }

    /// The fingerprint of the current inputs (reads the whole seed folder).
    fn fingerprint(&self, py: Python<'_>) -> Result<String, Error> {
        let template = &self.template;
        py.detach(|| template.fingerprint()).map_err(Error::Sandbox)
    }
}
