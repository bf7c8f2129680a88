//! [`Template`]: set up a sandbox once (seed files from a host folder, then a
//! `bootstrap` function), freeze its filesystem, and start every session from an O(1)
//! fork of it. A fingerprint of the revalidation key and the seed folder's contents
//! decides when the frozen state is stale and bootstrap must run again.

use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};

use super::sandbox::{Sandbox, SandboxBuilder, SandboxError, SandboxErrorKind};
use crate::fs::Fs;
use crate::tools::WORKSPACE;

type BoxFuture = Pin<Box<dyn Future<Output = Result<(), SandboxError>> + Send>>;
type BootstrapFn = Arc<dyn Fn(Sandbox) -> BoxFuture + Send + Sync>;
type KeyFn = Arc<dyn Fn() -> String + Send + Sync>;

/// Builds a [`Template`].
#[derive(Clone, Default)]
pub struct TemplateBuilder {
    key: Option<KeyFn>,
    seed_dir: Option<PathBuf>,
    bootstrap: Option<BootstrapFn>,
    sandbox: SandboxBuilder,
    store: Option<crate::store::Store>,
}

impl fmt::Debug for TemplateBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TemplateBuilder")
            .field("seed_dir", &self.seed_dir)
            .finish_non_exhaustive()
    }
}

impl TemplateBuilder {
    /// A key for what the seed folder cannot show (the bootstrap's inputs, a version):
    /// when the string it returns changes, the template is rebuilt.
    pub fn revalidation_key(mut self, key: impl Fn() -> String + Send + Sync + 'static) -> Self {
        self.key = Some(Arc::new(key));
        self
    }

    /// A host folder whose contents land in `/workspace` (before bootstrap runs). Its
    /// contents are part of the fingerprint.
    pub fn seed_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.seed_dir = Some(dir.into());
        self
    }

    /// Runs once per build on a sandbox over the template's filesystem; what it leaves
    /// in the filesystem is what every session starts with.
    pub fn bootstrap<F, Fut>(mut self, f: F) -> Self
    where
        F: Fn(Sandbox) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<(), SandboxError>> + Send + 'static,
    {
        self.bootstrap = Some(Arc::new(move |sb| Box::pin(f(sb))));
        self
    }

    /// Settings for the sandboxes (bootstrap's and the sessions'): environment, limits,
    /// commands. Files and the filesystem given here are ignored.
    pub fn sandbox(mut self, builder: SandboxBuilder) -> Self {
        self.sandbox = builder;
        self
    }

    /// Keeps built templates in a durable store, under `template-<fingerprint>`, so a
    /// later process with the same fingerprint skips bootstrap.
    pub fn store(mut self, store: crate::store::Store) -> Self {
        self.store = Some(store);
        self
    }

    /// The template (nothing runs until the first session or [`Template::revalidate`]).
    pub fn build(self) -> Template {
        Template {
            inner: Arc::new(Inner {
                config: self,
                built: tokio::sync::Mutex::new(None),
                builds: AtomicU64::new(0),
            }),
        }
    }
}

/// A frozen, bootstrapped filesystem that sessions fork. Cloning gives another handle.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use shellbox::session::Template;
/// let template = Template::builder()
///     .revalidation_key(|| "deps-v1".to_owned())
///     .bootstrap(|sb| async move {
///         sb.run("mkdir -p tools && echo 'echo ready' > tools/check.sh").await?;
///         Ok(())
///     })
///     .build();
/// let a = template.session().await?;
/// let b = template.session().await?;
/// a.run("rm tools/check.sh").await?;
/// assert_eq!(b.run("bash tools/check.sh").await?.stdout, b"ready\n");
/// assert_eq!(template.builds(), 1);
/// # Ok::<(), shellbox::session::SandboxError>(())
/// # }).unwrap();
/// ```
#[derive(Clone)]
pub struct Template {
    inner: Arc<Inner>,
}

impl fmt::Debug for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Template")
            .field("builds", &self.builds())
            .finish_non_exhaustive()
    }
}

struct Inner {
    config: TemplateBuilder,
    built: tokio::sync::Mutex<Option<Built>>,
    builds: AtomicU64,
}

struct Built {
    fingerprint: String,
    fs: Fs,
}

impl Template {
    /// A builder.
    pub fn builder() -> TemplateBuilder {
        TemplateBuilder::default()
    }

    /// The fingerprint of the current inputs: the revalidation key, the seed folder's
    /// contents and the shellbox version. Reads the whole seed folder.
    pub fn fingerprint(&self) -> Result<String, SandboxError> {
        let cfg = &self.inner.config;
        let mut h = Sha256::new();
        h.update(format!("shellbox-template {}\0", env!("CARGO_PKG_VERSION")));
        if let Some(key) = &cfg.key {
            h.update(key());
        }
        h.update(b"\0");
        if let Some(dir) = &cfg.seed_dir {
            let digest = super::seed::digest_host_dir(dir).map_err(|e| {
                SandboxError::new(
                    SandboxErrorKind::Io,
                    format!("seed folder {}: {e}", dir.display()),
                )
            })?;
            h.update(digest);
        }
        Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
    }

    /// How many times bootstrap has run for this template.
    pub fn builds(&self) -> u64 {
        self.inner.builds.load(Ordering::Relaxed)
    }

    /// A new session: an O(1) fork of the frozen filesystem (built first if it never
    /// was), with a fresh id and no read stamps.
    ///
    /// Cancel safety: dropping the future during a first build abandons the build
    /// (bootstrap's commands are stopped); the next call starts it again.
    pub async fn session(&self) -> Result<Sandbox, SandboxError> {
        let mut built = self.inner.built.lock().await;
        if built.is_none() {
            *built = Some(self.build_now(self.fingerprint()?).await?);
        }
        let fs = match built.as_ref() {
            Some(b) => b.fs.fork(),
            None => {
                return Err(SandboxError::new(
                    SandboxErrorKind::Bootstrap,
                    "no template",
                ));
            }
        };
        Ok(self.inner.config.sandbox.clone().filesystem(fs).build())
    }

    /// Recomputes the fingerprint and rebuilds if it differs from the last build's (or
    /// if there was none). Returns whether it rebuilt. Sessions already started keep
    /// their filesystem.
    pub async fn revalidate(&self) -> Result<bool, SandboxError> {
        let fingerprint = self.fingerprint()?;
        let mut built = self.inner.built.lock().await;
        if built.as_ref().is_some_and(|b| b.fingerprint == fingerprint) {
            return Ok(false);
        }
        *built = Some(self.build_now(fingerprint).await?);
        Ok(true)
    }

    /// Builds the filesystem for `fingerprint`: from the store if it has it, else by
    /// seeding and bootstrapping (then saving it to the store).
    async fn build_now(&self, fingerprint: String) -> Result<Built, SandboxError> {
        let cfg = &self.inner.config;
        let name = format!("template-{}", fingerprint.get(..32).unwrap_or(&fingerprint));
        if let Some(store) = &cfg.store
            && let Ok(loaded) = store.load(&name)
        {
            return Ok(Built {
                fingerprint,
                fs: loaded.fs,
            });
        }
        let sandbox = cfg.sandbox.clone().build();
        let mut fs = sandbox.snapshot();
        if let Some(dir) = &cfg.seed_dir {
            super::seed::copy_host_dir(&mut fs, dir, WORKSPACE, &[]).map_err(|e| {
                SandboxError::new(
                    SandboxErrorKind::Io,
                    format!("seed folder {}: {e}", dir.display()),
                )
            })?;
        }
        let sandbox = cfg.sandbox.clone().filesystem(fs).build();
        self.inner.builds.fetch_add(1, Ordering::Relaxed);
        if let Some(bootstrap) = &cfg.bootstrap {
            let result = bootstrap(sandbox.clone()).await;
            sandbox.stop().await;
            result.map_err(|e| {
                SandboxError::new(
                    SandboxErrorKind::Bootstrap,
                    format!("template bootstrap failed: {e}"),
                )
            })?;
        }
        let fs = sandbox.snapshot();
        if let Some(store) = &cfg.store {
            let snapshot = crate::store::Snapshot {
                fs: fs.clone(),
                meta: serde_json::json!({ "fingerprint": fingerprint }),
            };
            store.save(&name, &snapshot).map_err(|e| {
                SandboxError::new(SandboxErrorKind::Store, format!("saving the template: {e}"))
            })?;
        }
        Ok(Built { fingerprint, fs })
    }
}
