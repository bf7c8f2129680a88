//! [`Sandbox`]: an agent's session over one filesystem, in the shape of eve's sandbox
//! handle. Every [`Sandbox::run`] is a fresh shell starting in `/workspace` (files
//! persist, shell state does not); [`Sandbox::spawn`] starts a background process with
//! byte streams; the file methods read and write directly; [`Sandbox::call_tool`] serves
//! the agent tools with this session's read stamps.
//!
//! Cancellation: each command has a cancellation flag that its interpreter checks at
//! every command and loop iteration. Dropping (or aborting) the future of `run` sets it;
//! so do [`SandboxProcess::kill`], [`Sandbox::stop`] and dropping the last handle of a
//! sandbox. A cancelled command ends with status 143.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::mpsc;

use super::CancelToken;
use super::process::{self, CancelOnDrop, ChannelSink, JobOutput, Launch, Proc};
use crate::commands::Registry;
use crate::fs::{Errno, Fs, FsError, SharedFs};
use crate::interp::ExecOutput;
use crate::interp::io::{Capture, OpenFile, PipeWriter};
use crate::interp::procs::{self, ProcTable};
use crate::limits::Limits;
use crate::store::{LoadReport, SaveReport, Snapshot, Store, StoreError, StoreErrorKind};
use crate::tools::{self, BashRun, ReadStamp, ReadStamps, ToolError, ToolHost, WORKSPACE};

/// How long the `bash` tool waits for a command before leaving it in the background.
pub const DEFAULT_BASH_WAIT: Duration = Duration::from_secs(30);

/// Where the `bash` tool puts the output of commands it leaves running.
pub const JOBS_DIR: &str = "/tmp/.shellbox/jobs";

/// The home directory of the sandbox user (`$HOME` in tool paths).
pub const HOME: &str = "/home/user";

/// Why a sandbox operation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SandboxErrorKind {
    NotFound,
    IsDirectory,
    PermissionDenied,
    /// A text read of bytes that are not UTF-8.
    InvalidUtf8,
    /// Something shellbox does not do (network policies).
    Unsupported,
    /// A shell thread could not be started.
    Spawn,
    /// A template's bootstrap failed.
    Bootstrap,
    /// Saving to or loading from a store failed.
    Store,
    /// A save found that another host (or another handle) saved the session since
    /// this one loaded or last saved it; nothing was overwritten. Load it again, apply
    /// the work there, and save.
    StoreConflict,
    /// A limit refused the operation (the file size, the filesystem's size or file
    /// count); the message names it.
    LimitExceeded,
    /// The path exists already.
    AlreadyExists,
    /// A directory operation on something that is not a directory.
    NotADirectory,
    /// The directory is not empty.
    NotEmpty,
    /// An argument the operation cannot take (a directory copied without
    /// `recursive`, a path moved into itself).
    InvalidArgument,
    /// Any other filesystem or host failure.
    Io,
}

/// A failed sandbox operation: its kind and a message naming what failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxError {
    kind: SandboxErrorKind,
    message: String,
    errno: Option<Errno>,
}

impl SandboxError {
    /// An error of `kind`.
    pub fn new(kind: SandboxErrorKind, message: impl Into<String>) -> SandboxError {
        SandboxError {
            kind,
            message: message.into(),
            errno: None,
        }
    }
    pub fn kind(&self) -> SandboxErrorKind {
        self.kind
    }
    /// The filesystem's errno, when a filesystem call failed (`ENOENT`, ...), for
    /// hosts that report errnos the way their platform does.
    pub fn errno(&self) -> Option<Errno> {
        self.errno
    }
    pub fn message(&self) -> &str {
        &self.message
    }
    fn store(e: StoreError) -> SandboxError {
        let kind = match e.kind {
            StoreErrorKind::NotFound => SandboxErrorKind::NotFound,
            StoreErrorKind::Conflict => SandboxErrorKind::StoreConflict,
            _ => SandboxErrorKind::Store,
        };
        SandboxError::new(kind, e.message)
    }
    /// The error of filesystem operation `op` on `path`, made on the thread that ran
    /// it (a limit's refusal is told apart from a plain errno there).
    pub(crate) fn fs(op: &str, path: &str, e: &FsError) -> SandboxError {
        if let Some(hit) = crate::fs::take_limit_hit() {
            return SandboxError {
                errno: Some(e.errno),
                ..SandboxError::new(
                    SandboxErrorKind::LimitExceeded,
                    format!("{op} {path}: {e}: {hit}"),
                )
            };
        }
        let kind = match e.errno {
            Errno::ENOENT => SandboxErrorKind::NotFound,
            Errno::EISDIR => SandboxErrorKind::IsDirectory,
            Errno::EACCES | Errno::EPERM => SandboxErrorKind::PermissionDenied,
            Errno::EEXIST => SandboxErrorKind::AlreadyExists,
            Errno::ENOTDIR => SandboxErrorKind::NotADirectory,
            Errno::ENOTEMPTY => SandboxErrorKind::NotEmpty,
            Errno::EINVAL => SandboxErrorKind::InvalidArgument,
            _ => SandboxErrorKind::Io,
        };
        SandboxError {
            errno: Some(e.errno),
            ..SandboxError::new(kind, format!("{op} {path}: {e}"))
        }
    }
}

impl fmt::Display for SandboxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SandboxError {}

/// An egress policy, as eve's sandboxes take; shellbox has no network, so
/// [`Sandbox::set_network_policy`] refuses every one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NetworkPolicy {
    AllowAll,
    DenyAll,
    /// Only these domains.
    Allow(Vec<String>),
}

/// What to run: the command, and optionally a working directory, extra environment,
/// stdin, words for its first command, a cancellation token and whether to report
/// the shell's variables at the end.
///
/// ```
/// use shellbox::session::{CancelToken, RunOptions};
/// let opts = RunOptions::new("cat").cwd("src").env("K", "v").stdin("input");
/// let grep = RunOptions::new("grep").args(["-c", "x"]).cancel(CancelToken::new());
/// let from_str: RunOptions = "echo hi".into();
/// # let _ = (opts, grep, from_str);
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct RunOptions {
    pub command: String,
    /// Relative to `/workspace` (to the shell's directory for [`crate::Shell::run`]);
    /// default `/workspace`.
    pub cwd: Option<String>,
    pub env: Vec<(String, String)>,
    pub stdin: Vec<u8>,
    /// Words appended, unparsed (no splitting, globbing or quoting), to the first
    /// simple command the script runs.
    pub args: Vec<String>,
    /// Stops the run at its next check point once cancelled.
    pub cancel: Option<CancelToken>,
    /// Report the shell's scalar variables at the end in [`ExecOutput::env`].
    pub capture_env: bool,
    /// For [`Sandbox::spawn`]: keep stdin open as a pipe the caller writes to
    /// ([`SandboxProcess::stdin`]) instead of giving it `stdin`'s bytes.
    pub stdin_pipe: bool,
}

impl RunOptions {
    pub fn new(command: impl Into<String>) -> RunOptions {
        RunOptions {
            command: command.into(),
            ..RunOptions::default()
        }
    }
    /// The working directory (it must exist).
    pub fn cwd(mut self, dir: impl Into<String>) -> RunOptions {
        self.cwd = Some(dir.into());
        self
    }
    /// An exported variable, on top of the sandbox's environment.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> RunOptions {
        self.env.push((key.into(), value.into()));
        self
    }
    /// Bytes on stdin (default: none).
    pub fn stdin(mut self, data: impl Into<Vec<u8>>) -> RunOptions {
        self.stdin = data.into();
        self
    }
    /// Words for the first command (see [`RunOptions::args`](#structfield.args)).
    pub fn args<I, S>(mut self, args: I) -> RunOptions
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }
    /// A token that stops the run when cancelled.
    pub fn cancel(mut self, token: CancelToken) -> RunOptions {
        self.cancel = Some(token);
        self
    }
    /// Report the shell's variables at the end.
    pub fn capture_env(mut self) -> RunOptions {
        self.capture_env = true;
        self
    }
    /// Keep stdin open as a pipe ([`Sandbox::spawn`] only).
    pub fn stdin_pipe(mut self) -> RunOptions {
        self.stdin_pipe = true;
        self
    }
}

impl From<&str> for RunOptions {
    fn from(command: &str) -> RunOptions {
        RunOptions::new(command)
    }
}

impl From<String> for RunOptions {
    fn from(command: String) -> RunOptions {
        RunOptions::new(command)
    }
}

impl From<&String> for RunOptions {
    fn from(command: &String) -> RunOptions {
        RunOptions::new(command.as_str())
    }
}

/// Builds a [`Sandbox`].
#[derive(Clone, Debug, Default)]
pub struct SandboxBuilder {
    fs: Option<Fs>,
    files: Vec<(String, Vec<u8>)>,
    env: Vec<(String, String)>,
    limits: Option<Limits>,
    registry: Option<Registry>,
    id: Option<String>,
    bash_wait: Option<Option<Duration>>,
    stamps: BTreeMap<String, ReadStamp>,
    /// The first pid to hand out (a loaded session goes on where it stopped).
    next_pid: Option<u32>,
}

impl SandboxBuilder {
    /// Starts from this filesystem (a template's fork, a loaded snapshot) instead of a
    /// fresh default layout.
    pub fn filesystem(mut self, fs: Fs) -> Self {
        self.fs = Some(fs);
        self
    }
    /// Adds a file, relative to `/workspace` (parents are created).
    pub fn file(mut self, path: impl Into<String>, content: impl Into<Vec<u8>>) -> Self {
        self.files.push((path.into(), content.into()));
        self
    }
    /// An exported variable every command sees.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }
    /// Limits for each command (default [`Limits::default`]).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = Some(limits);
        self
    }
    /// The commands available (default: the built-in utilities).
    pub fn registry(mut self, registry: Registry) -> Self {
        self.registry = Some(registry);
        self
    }
    /// The network `curl` and `wget` may reach (default: none); kept with the
    /// commands, so set it after [`registry`](Self::registry).
    pub fn network(mut self, policy: crate::net::NetworkPolicy) -> Self {
        self.registry
            .get_or_insert_with(Registry::with_builtins)
            .set_network(policy);
        self
    }
    /// The session's identifier (default: a fresh random-looking one).
    pub fn id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
    }
    /// How long the `bash` tool waits before leaving a command running in the
    /// background ([`DEFAULT_BASH_WAIT`]); `None` waits for every command to finish.
    pub fn bash_wait(mut self, wait: Option<Duration>) -> Self {
        self.bash_wait = Some(wait);
        self
    }
    /// Read stamps to start with (restored from a store).
    pub fn read_stamps(mut self, stamps: BTreeMap<String, ReadStamp>) -> Self {
        self.stamps = stamps;
        self
    }

    /// Builds the sandbox from session `name` in `store`: its filesystem, id, read
    /// stamps and environment (this builder's environment is added after the saved
    /// one). Blocks on disk I/O. A damaged newest snapshot is skipped for the last
    /// complete one; the report says what was discarded.
    pub fn load(self, store: &Store, name: &str) -> Result<(Sandbox, LoadReport), SandboxError> {
        let loaded = store.load(name).map_err(SandboxError::store)?;
        let meta: SessionMeta = serde_json::from_value(loaded.meta).map_err(|e| {
            SandboxError::new(
                SandboxErrorKind::Store,
                format!("session {name:?} has unreadable metadata: {e}"),
            )
        })?;
        let mut env = meta.env;
        env.extend(self.env);
        let builder = SandboxBuilder {
            fs: Some(loaded.fs),
            env,
            id: Some(meta.id),
            stamps: meta.read_stamps,
            next_pid: meta.next_pid,
            ..self
        };
        let sb = builder.build();
        // Damaged newer manifests skipped by the load count as seen: a save goes past them.
        let base = store.seen(name).unwrap_or(loaded.report.seq);
        sb.note_base(store, name, base);
        Ok((sb, loaded.report))
    }

    /// Builds the sandbox.
    pub fn build(self) -> Sandbox {
        let (registry, mut fs) = super::registry_and_fs(self.registry, self.fs);
        super::add_files(&mut fs, &self.files);
        let _ = fs.mkdir_all(WORKSPACE, 0o755);
        if let Some(l) = &self.limits {
            let fl = l.fs_limits(fs.limits());
            fs = fs.with_limits(fl);
        }
        Sandbox {
            inner: Arc::new(Inner {
                id: self.id.unwrap_or_else(new_id),
                fs: SharedFs::new(fs),
                stamps: ReadStamps::from_map(self.stamps),
                registry: Mutex::new(registry),
                limits: self.limits.unwrap_or_default(),
                env: self.env,
                bash_wait: self.bash_wait.unwrap_or(Some(DEFAULT_BASH_WAIT)),
                running: Mutex::new(Vec::new()),
                procs: ProcTable::starting_at(
                    self.next_pid
                        .unwrap_or(process::FIRST_PID)
                        .max(process::FIRST_PID),
                ),
                bases: Mutex::new(HashMap::new()),
            }),
        }
    }
}

/// What a saved session keeps besides its filesystem.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SessionMeta {
    id: String,
    env: Vec<(String, String)>,
    read_stamps: BTreeMap<String, ReadStamp>,
    /// The next process id: pids (and the `bash` tool's job folders named by them)
    /// are never reused over the life of a stored session. Absent in sessions saved
    /// before it was kept.
    #[serde(default)]
    next_pid: Option<u32>,
}

/// A fresh session identifier: `sbx_` and 16 hex digits.
fn new_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let seed = format!(
        "{:?} {} {}",
        std::time::SystemTime::now(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    let hex = ReadStamp::of(seed.as_bytes()).sha256;
    format!("sbx_{}", hex.get(..16).unwrap_or(&hex))
}

/// An agent's sandbox session. Cloning gives another handle to the same session.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use shellbox::session::Sandbox;
/// let sb = Sandbox::builder().file("notes.txt", "b\na\n").build();
/// let out = sb.run("sort notes.txt | head -n 1; cd /tmp; x=1").await?;
/// assert_eq!(out.stdout, b"a\n");
/// // Each run is a fresh shell in /workspace; files persist.
/// assert_eq!(sb.run("pwd; echo ${x:-unset}").await?.stdout, b"/workspace\nunset\n");
/// sb.write_text_file("out/report.md", "# done\n").await?;
/// assert_eq!(sb.read_text_file("/workspace/out/report.md").await?, "# done\n");
/// # Ok::<(), shellbox::session::SandboxError>(())
/// # }).unwrap();
/// ```
#[derive(Clone)]
pub struct Sandbox {
    inner: Arc<Inner>,
}

impl fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sandbox")
            .field("id", &self.inner.id)
            .finish_non_exhaustive()
    }
}

struct Inner {
    id: String,
    fs: SharedFs,
    stamps: ReadStamps,
    /// Replaced whole by [`Sandbox::register`]; commands take a clone of the `Arc`
    /// when they start.
    registry: Mutex<Arc<Registry>>,
    limits: Limits,
    env: Vec<(String, String)>,
    bash_wait: Option<Duration>,
    /// Commands started and not known to have ended.
    running: Mutex<Vec<Proc>>,
    /// Every process of the session (each run's shell and what it starts), so a
    /// `kill` in one run reaches another's.
    procs: Arc<ProcTable>,
    /// The manifest each (store root, session name) this sandbox was loaded from or
    /// last saved as: a later save there is a conflict if someone saved since.
    bases: Mutex<HashMap<(PathBuf, String), u64>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        for p in self
            .running
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
        {
            p.cancel();
        }
    }
}

impl Inner {
    fn lock_bases(&self) -> std::sync::MutexGuard<'_, HashMap<(PathBuf, String), u64>> {
        self.bases.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn resolve(&self, path: &str) -> String {
        crate::fs::path::join(WORKSPACE, path)
    }

    fn registry(&self) -> Arc<Registry> {
        self.registry
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Starts a command with the given output sinks. With `status_first` its status
    /// is known when its shell exits, though jobs it left running may still write.
    fn launch(
        &self,
        opts: RunOptions,
        stdin: Arc<OpenFile>,
        stdout: Arc<OpenFile>,
        stderr: Arc<OpenFile>,
        status_first: bool,
    ) -> Result<Proc, SandboxError> {
        self.launch_then(opts, stdin, stdout, stderr, status_first, None)
    }

    /// [`Inner::launch`], calling `on_exit` on the command's thread when it has ended.
    fn launch_then(
        &self,
        opts: RunOptions,
        stdin: Arc<OpenFile>,
        stdout: Arc<OpenFile>,
        stderr: Arc<OpenFile>,
        status_first: bool,
        on_exit: Option<Box<dyn FnOnce() + Send>>,
    ) -> Result<Proc, SandboxError> {
        let cwd = match &opts.cwd {
            Some(dir) => {
                let cwd = self.resolve(dir);
                if !self.fs.lock().stat(&cwd).is_ok_and(|m| m.is_dir()) {
                    return Err(SandboxError::new(
                        SandboxErrorKind::NotFound,
                        format!("working directory {cwd} does not exist"),
                    ));
                }
                cwd
            }
            None => {
                // A command may have removed /workspace; the next one starts there anyway.
                let _ = self.fs.lock().mkdir_all(WORKSPACE, 0o755);
                WORKSPACE.to_owned()
            }
        };
        let mut env = self.env.clone();
        env.extend(opts.env);
        let cancel = opts.cancel.map_or_else(Default::default, |t| t.flag());
        let start = self.fs.lock().clock().now().secs;
        let process = procs::top_level_shell(&self.procs, start, "bash -c");
        let proc = process::launch(Launch {
            fs: self.fs.clone(),
            registry: self.registry(),
            limits: self.limits.clone(),
            cwd,
            env,
            command: opts.command,
            args: opts.args,
            capture_env: opts.capture_env,
            cancel,
            stdin,
            stdout,
            stderr,
            on_exit,
            process,
            status_first,
        })
        .map_err(|e| {
            SandboxError::new(
                SandboxErrorKind::Spawn,
                format!("cannot start a shell: {e}"),
            )
        })?;
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        running.retain(|p| p.finished.get().is_none());
        running.push(proc.clone());
        Ok(proc)
    }

    /// The `bash` tool's run: wait up to `bash_wait` (giving up early if `call_cancel`
    /// is set, which also stops the command), then leave the command in the background
    /// with its output moved to files under [`JOBS_DIR`].
    fn run_bash(&self, command: &str, call_cancel: &AtomicBool) -> BashRun {
        let out = JobOutput::new(self.limits.max_output_bytes);
        let err = JobOutput::new(self.limits.max_output_bytes);
        let stdin = OpenFile::bytes(Vec::new());
        let proc = match self.launch(
            RunOptions::new(command),
            stdin,
            out.sink(),
            err.sink(),
            false,
        ) {
            Ok(p) => p,
            Err(e) => {
                return BashRun::Completed {
                    exit_code: 126,
                    stdout: Vec::new(),
                    stderr: format!("bash: {e}\n").into_bytes(),
                };
            }
        };
        let deadline = self.bash_wait.map(|w| Instant::now() + w);
        let step = Duration::from_millis(20);
        loop {
            let wait = deadline.map_or(step, |d| {
                step.min(d.saturating_duration_since(Instant::now()))
            });
            if let Some(exit_code) = proc.exit.wait_timeout(Some(wait)) {
                return BashRun::Completed {
                    exit_code,
                    stdout: out.take(),
                    stderr: err.take(),
                };
            }
            if call_cancel.load(Ordering::Relaxed) {
                proc.cancel();
                let exit_code = proc.exit.wait_timeout(None).unwrap_or(process::TERMINATED);
                return BashRun::Completed {
                    exit_code,
                    stdout: out.take(),
                    stderr: err.take(),
                };
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        let dir = format!("{JOBS_DIR}/{}", proc.pid);
        let _ = self.fs.lock().mkdir_all(&dir, 0o755);
        let stdout = out.move_to_file(&self.fs, &format!("{dir}/stdout"));
        let stderr = err.move_to_file(&self.fs, &format!("{dir}/stderr"));
        watch_job(self.fs.clone(), proc.clone(), dir.clone());
        BashRun::Running {
            pid: proc.pid,
            output_directory: dir,
            stdout,
            stderr,
        }
    }
}

/// Watches a background `bash` tool command: writes its `exit` file when it ends, and
/// stops it when a `stop` file appears in its directory.
fn watch_job(fs: SharedFs, proc: Proc, dir: String) {
    let watched = proc.clone();
    let spawned = std::thread::Builder::new()
        .name(format!("shellbox-watch-{}", proc.pid))
        .spawn(move || {
            let proc = watched;
            let stop = format!("{dir}/stop");
            loop {
                if let Some(code) = proc.exit.wait_timeout(Some(Duration::from_millis(100))) {
                    let _ = fs
                        .lock()
                        .write_file(&format!("{dir}/exit"), format!("{code}\n").as_bytes());
                    return;
                }
                if fs.lock().exists(&stop) {
                    proc.cancel();
                }
            }
        });
    if spawned.is_err() {
        // Without a watcher nobody could report the exit or honour a stop request.
        proc.cancel();
    }
}

/// The tool host of one `call_tool`: the session plus that call's cancellation flag.
struct CallHost {
    inner: Arc<Inner>,
    cancel: Arc<AtomicBool>,
}

impl ToolHost for CallHost {
    fn fs(&self) -> &SharedFs {
        &self.inner.fs
    }
    fn stamps(&self) -> &ReadStamps {
        &self.inner.stamps
    }
    fn home(&self) -> &str {
        HOME
    }
    fn run_bash(&self, command: &str) -> BashRun {
        self.inner.run_bash(command, &self.cancel)
    }
}

impl Default for Sandbox {
    fn default() -> Sandbox {
        Sandbox::new()
    }
}

impl Sandbox {
    /// A sandbox with the default layout and an empty `/workspace`.
    pub fn new() -> Sandbox {
        SandboxBuilder::default().build()
    }

    /// A builder for a customised sandbox.
    pub fn builder() -> SandboxBuilder {
        SandboxBuilder::default()
    }

    /// The session's stable identifier (kept across a store round trip).
    pub fn id(&self) -> &str {
        &self.inner.id
    }

    /// Runs a command to completion in a fresh shell and returns its exit code and
    /// output (each stream capped at the limits' `max_output_bytes`).
    ///
    /// Cancel safety: dropping the future stops the command at its next check point.
    pub async fn run(&self, opts: impl Into<RunOptions>) -> Result<ExecOutput, SandboxError> {
        let out = Capture::new(self.inner.limits.max_output_bytes);
        let err = Capture::new(self.inner.limits.max_output_bytes);
        let mut opts = opts.into();
        let stdin = OpenFile::bytes(std::mem::take(&mut opts.stdin));
        let proc = self.inner.launch(
            opts,
            stdin,
            Arc::new(OpenFile::Capture(out.clone())),
            Arc::new(OpenFile::Capture(err.clone())),
            false,
        )?;
        let guard = CancelOnDrop::new(proc.cancel.clone());
        let exit_code = proc.exit.wait().await;
        guard.disarm();
        let outcome = proc.exit.outcome();
        Ok(ExecOutput {
            stdout: out.take(),
            stderr: err.take(),
            exit_code,
            env: outcome.env,
            stopped: outcome.stopped,
        })
    }

    /// Starts a command like [`run`](Self::run) without waiting for it: `on_done` is
    /// called with its output on the command's own thread when it ends. For hosts that
    /// deliver results through callbacks (a language binding resolving a promise),
    /// this saves the thread hops of waiting on a future. `cancel` in the options is
    /// the way to stop it.
    ///
    /// ```
    /// let sb = shellbox::session::Sandbox::new();
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// sb.run_then("echo hi".into(), move |out| tx.send(out).unwrap())?;
    /// assert_eq!(rx.recv().unwrap().stdout, b"hi\n");
    /// # Ok::<(), shellbox::session::SandboxError>(())
    /// ```
    pub fn run_then(
        &self,
        mut opts: RunOptions,
        on_done: impl FnOnce(ExecOutput) + Send + 'static,
    ) -> Result<(), SandboxError> {
        let out = Capture::new(self.inner.limits.max_output_bytes);
        let err = Capture::new(self.inner.limits.max_output_bytes);
        let stdin = OpenFile::bytes(std::mem::take(&mut opts.stdin));
        let (o, e) = (out.clone(), err.clone());
        let cell = Arc::new(Mutex::new(None::<Proc>));
        let seen = cell.clone();
        let finish = move || {
            let proc = seen.lock().unwrap_or_else(|e| e.into_inner()).take();
            let (exit_code, outcome) = match proc {
                Some(p) => (
                    p.exit.get().unwrap_or(process::INTERNAL_ERROR),
                    p.exit.outcome(),
                ),
                None => (process::INTERNAL_ERROR, Default::default()),
            };
            on_done(ExecOutput {
                stdout: o.take(),
                stderr: e.take(),
                exit_code,
                env: outcome.env,
                stopped: outcome.stopped,
            });
        };
        // The command may end before `launch` returns: the proc is put in the cell
        // under its lock, which `finish` takes too.
        let mut slot = cell.lock().unwrap_or_else(|e| e.into_inner());
        let proc = self.inner.launch_then(
            opts,
            stdin,
            Arc::new(OpenFile::Capture(out)),
            Arc::new(OpenFile::Capture(err)),
            false,
            Some(Box::new(finish)),
        )?;
        *slot = Some(proc);
        Ok(())
    }

    /// Starts a command in the background and returns at once. The process runs until
    /// it ends, is killed, or the sandbox stops; dropping the handle does not stop it.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let sb = shellbox::session::Sandbox::new();
    /// let mut p = sb.spawn("for i in 1 2 3; do echo $i; done; exit 4").await?;
    /// assert_eq!(p.stdout.read_to_end().await, b"1\n2\n3\n");
    /// assert_eq!(p.wait().await, 4);
    /// # Ok::<(), shellbox::session::SandboxError>(())
    /// # }).unwrap();
    /// ```
    pub async fn spawn(&self, opts: impl Into<RunOptions>) -> Result<SandboxProcess, SandboxError> {
        let limit = self.inner.limits.max_output_bytes;
        let (out, out_rx) = ChannelSink::pair(limit);
        let (err, err_rx) = ChannelSink::pair(limit);
        let mut opts = opts.into();
        let (stdin, writer) = if opts.stdin_pipe {
            let (r, w) = crate::interp::io::pipe();
            (Arc::new(OpenFile::PipeR(r)), Some(w))
        } else {
            (OpenFile::bytes(std::mem::take(&mut opts.stdin)), None)
        };
        let proc = self
            .inner
            .launch(opts, stdin, Arc::new(out), Arc::new(err), true)?;
        let stdin = writer.map(|w| ProcessStdin {
            writer: Mutex::new(Some(w)),
            cancel: proc.cancel.clone(),
        });
        Ok(SandboxProcess {
            proc,
            stdout: ByteStream(out_rx),
            stderr: ByteStream(err_rx),
            stdin,
        })
    }

    /// `path` made absolute: relative paths start at `/workspace`; `.` and `..` are
    /// resolved lexically (never above `/`).
    ///
    /// ```
    /// let sb = shellbox::session::Sandbox::new();
    /// assert_eq!(sb.resolve_path("repo/build.py"), "/workspace/repo/build.py");
    /// assert_eq!(sb.resolve_path("/etc/../tmp"), "/tmp");
    /// ```
    pub fn resolve_path(&self, path: &str) -> String {
        self.inner.resolve(path)
    }

    /// The bytes of a file.
    ///
    /// Cancel safety: completes without waiting; dropping it is harmless.
    pub async fn read_binary_file(&self, path: &str) -> Result<Vec<u8>, SandboxError> {
        let p = self.resolve_path(path);
        let data = self.inner.fs.lock().read_file(&p);
        data.map(|d| d.to_vec())
            .map_err(|e| SandboxError::fs("read", &p, &e))
    }

    /// The text of a file (an error if it is not UTF-8).
    ///
    /// Cancel safety: completes without waiting; dropping it is harmless.
    pub async fn read_text_file(&self, path: &str) -> Result<String, SandboxError> {
        let data = self.read_binary_file(path).await?;
        String::from_utf8(data).map_err(|_| {
            SandboxError::new(
                SandboxErrorKind::InvalidUtf8,
                format!("read {}: not UTF-8 text", self.resolve_path(path)),
            )
        })
    }

    /// Creates or replaces a file, creating missing parents.
    ///
    /// Cancel safety: completes without waiting; dropping it is harmless.
    pub async fn write_binary_file(
        &self,
        path: &str,
        content: impl AsRef<[u8]>,
    ) -> Result<(), SandboxError> {
        let p = self.resolve_path(path);
        let mut fs = self.inner.fs.lock();
        let parent = crate::fs::path::parent(&p);
        fs.mkdir_all(parent, 0o755)
            .map_err(|e| SandboxError::fs("write", parent, &e))?;
        fs.write_file(&p, content.as_ref())
            .map_err(|e| SandboxError::fs("write", &p, &e))
    }

    /// Creates or replaces a text file, creating missing parents.
    ///
    /// Cancel safety: completes without waiting; dropping it is harmless.
    pub async fn write_text_file(
        &self,
        path: &str,
        content: impl AsRef<str>,
    ) -> Result<(), SandboxError> {
        self.write_binary_file(path, content.as_ref().as_bytes())
            .await
    }

    /// Removes a file, symlink or directory (with everything in it).
    ///
    /// Cancel safety: completes without waiting; dropping it is harmless.
    pub async fn remove_path(&self, path: &str) -> Result<(), SandboxError> {
        let p = self.resolve_path(path);
        let mut fs = self.inner.fs.lock();
        let meta = fs
            .lstat(&p)
            .map_err(|e| SandboxError::fs("remove", &p, &e))?;
        let removed = if meta.is_dir() {
            fs.remove_all(&p)
        } else {
            fs.remove_file(&p)
        };
        removed.map_err(|e| SandboxError::fs("remove", &p, &e))
    }

    /// Stops every command of this sandbox (runs, spawned processes, `bash` tool jobs)
    /// and waits until they have ended. The filesystem stays; later calls work as before.
    ///
    /// Cancel safety: the commands are told to stop before the first await; dropping the
    /// future only stops waiting for them.
    pub async fn stop(&self) {
        let procs: Vec<Proc> =
            std::mem::take(&mut *self.inner.running.lock().unwrap_or_else(|e| e.into_inner()));
        for p in &procs {
            p.cancel();
        }
        for p in &procs {
            p.finished.wait().await;
        }
    }

    /// Refused: shellbox has no network, so there is no egress to allow or deny.
    pub async fn set_network_policy(&self, policy: NetworkPolicy) -> Result<(), SandboxError> {
        Err(SandboxError::new(
            SandboxErrorKind::Unsupported,
            format!(
                "cannot set the network policy to {policy:?}: shellbox sandboxes have no \
                 network at all, so there is nothing to allow or deny"
            ),
        ))
    }

    /// Calls an agent tool (see [`crate::tools`]) with this session's read stamps.
    ///
    /// Cancel safety: dropping the future stops a `bash` command that has not yet been
    /// left running in the background; file tools complete regardless.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use serde_json::json;
    /// let sb = shellbox::session::Sandbox::builder().file("a.txt", "hello\n").build();
    /// let read = sb.call_tool("read_file", json!({"filePath": "a.txt"})).await?;
    /// assert_eq!(read["content"], "1: hello");
    /// let edit = json!({"filePath": "a.txt", "oldString": "hello", "newString": "bye"});
    /// assert_eq!(sb.call_tool("edit_file", edit).await?["replacements"], 1);
    /// # Ok::<(), shellbox::tools::ToolError>(())
    /// # }).unwrap();
    /// ```
    pub async fn call_tool(&self, name: &str, input: Value) -> Result<Value, ToolError> {
        let cancel = Arc::new(AtomicBool::new(false));
        let host = CallHost {
            inner: self.inner.clone(),
            cancel: cancel.clone(),
        };
        let name = name.to_owned();
        let guard = CancelOnDrop::new(cancel);
        let joined =
            tokio::task::spawn_blocking(move || tools::call_tool(&host, &name, input)).await;
        guard.disarm();
        joined.unwrap_or_else(|e| {
            Err(ToolError::new(
                tools::ErrorKind::Io,
                format!("the tool call failed: {e}"),
            ))
        })
    }

    /// A new session whose filesystem is an O(1) copy of this one's: same commands,
    /// limits, environment and read stamps, a fresh id, no running commands. Later
    /// writes on either side are not seen by the other.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let sb = shellbox::session::Sandbox::builder().file("a", "1").build();
    /// let fork = sb.fork();
    /// fork.write_text_file("a", "2").await?;
    /// assert_eq!(sb.read_text_file("a").await?, "1");
    /// assert_ne!(fork.id(), sb.id());
    /// # Ok::<(), shellbox::session::SandboxError>(())
    /// # }).unwrap();
    /// ```
    pub fn fork(&self) -> Sandbox {
        let inner = &self.inner;
        Sandbox {
            inner: Arc::new(Inner {
                id: new_id(),
                fs: SharedFs::new(inner.fs.snapshot()),
                stamps: ReadStamps::from_map(inner.stamps.to_map()),
                registry: Mutex::new(inner.registry()),
                limits: inner.limits.clone(),
                env: inner.env.clone(),
                bash_wait: inner.bash_wait,
                running: Mutex::new(Vec::new()),
                procs: ProcTable::starting_at(inner.procs.next_pid()),
                bases: Mutex::new(inner.lock_bases().clone()),
            }),
        }
    }

    /// A persistent [`Shell`](crate::Shell) over this sandbox's filesystem (not a
    /// copy): its variables, functions and directory carry across its runs, which
    /// start in `/workspace` with the sandbox's commands, limits and environment.
    ///
    /// ```
    /// let sb = shellbox::session::Sandbox::new();
    /// let mut sh = sb.shell();
    /// sh.exec("x=7; echo $x > n.txt");
    /// assert_eq!(sh.exec("echo $x").stdout, b"7\n");
    /// assert_eq!(sb.fs().read_file("/workspace/n.txt").unwrap().to_vec(), b"7\n");
    /// ```
    pub fn shell(&self) -> crate::Shell {
        let inner = &self.inner;
        let budget = crate::limits::Budget::new(inner.limits.clone(), Arc::default());
        let _ = inner.fs.lock().mkdir_all(WORKSPACE, 0o755);
        let start = inner.fs.lock().clock().now().secs;
        let interp = super::new_interp(
            inner.fs.clone(),
            inner.registry(),
            budget,
            WORKSPACE,
            &inner.env,
            procs::top_level_shell(&inner.procs, start, "bash"),
        );
        crate::Shell::from_parts(interp, inner.fs.clone(), inner.limits.clone())
    }

    /// Adds a command, or replaces one of the same name (built-in or not), for the
    /// commands this sandbox starts from now on, and lists it in `/usr/bin`.
    /// Commands already running, and forks and shells made earlier, keep the commands
    /// they started with. See [`Registry::register`] for what a command sees.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use std::io::Write;
    /// let sb = shellbox::Sandbox::new();
    /// sb.register("cat", |ctx| {
    ///     writeln!(ctx.stdout, "no cat here")?;
    ///     Ok(3)
    /// });
    /// let out = sb.run("cat /etc/passwd").await?;
    /// assert_eq!((out.stdout, out.exit_code), (b"no cat here\n".to_vec(), 3));
    /// # Ok::<(), shellbox::session::SandboxError>(())
    /// # }).unwrap();
    /// ```
    pub fn register(
        &self,
        name: impl Into<String>,
        f: impl Fn(&mut crate::commands::Ctx) -> crate::commands::CmdResult + Send + Sync + 'static,
    ) {
        let mut registry = self
            .inner
            .registry
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        *registry = super::with_command(&registry, &self.inner.fs, name.into(), f);
    }

    /// The shared filesystem itself (for shells over it).
    pub(crate) fn shared_fs(&self) -> SharedFs {
        self.inner.fs.clone()
    }

    /// The filesystem, locked while the guard lives (keep it short: every command
    /// of the session waits for it). For the operations [`Sandbox`]'s own methods do
    /// not cover.
    pub fn fs(&self) -> std::sync::MutexGuard<'_, Fs> {
        self.inner.fs.lock()
    }

    /// An O(1) snapshot of the filesystem.
    pub fn snapshot(&self) -> Fs {
        self.inner.fs.snapshot()
    }

    /// Replaces the filesystem with `fs` (a snapshot taken earlier, say). Commands
    /// running now see the change at their next file operation.
    pub fn restore(&self, fs: Fs) {
        *self.inner.fs.lock() = fs;
    }

    /// Saves the session (filesystem, id, read stamps, environment) to `store` as
    /// `name`, writing only blobs the store lacks. Blocks on disk I/O; see
    /// [`Sandbox::save`] for async callers.
    pub fn save_blocking(&self, store: &Store, name: &str) -> Result<SaveReport, SandboxError> {
        let meta = SessionMeta {
            id: self.inner.id.clone(),
            env: self.inner.env.clone(),
            read_stamps: self.inner.stamps.to_map(),
            next_pid: Some(self.inner.procs.next_pid()),
        };
        let meta = serde_json::to_value(meta).map_err(|e| {
            SandboxError::new(
                SandboxErrorKind::Store,
                format!("encoding the session: {e}"),
            )
        })?;
        let snapshot = Snapshot {
            fs: self.snapshot(),
            meta,
        };
        let key = (store.root().to_path_buf(), name.to_owned());
        let base = self.inner.lock_bases().get(&key).copied();
        let report = store
            .save_after(name, &snapshot, base)
            .map_err(SandboxError::store)?;
        self.inner.lock_bases().insert(key, report.seq);
        Ok(report)
    }

    /// Remembers that this sandbox's files derive from manifest `seq` of session
    /// `name` in `store`.
    fn note_base(&self, store: &Store, name: &str, seq: u64) {
        self.inner
            .lock_bases()
            .insert((store.root().to_path_buf(), name.to_owned()), seq);
    }

    /// [`Sandbox::save_blocking`] on the blocking pool.
    ///
    /// Cancel safety: dropping the future does not stop the save; it completes (or
    /// fails) atomically in the background.
    pub async fn save(&self, store: &Store, name: &str) -> Result<SaveReport, SandboxError> {
        let (sb, store, name) = (self.clone(), store.clone(), name.to_owned());
        tokio::task::spawn_blocking(move || sb.save_blocking(&store, &name))
            .await
            .unwrap_or_else(|e| {
                Err(SandboxError::new(
                    SandboxErrorKind::Store,
                    format!("the save failed: {e}"),
                ))
            })
    }

    /// The session's read stamps, by path.
    pub fn read_stamps(&self) -> BTreeMap<String, ReadStamp> {
        self.inner.stamps.to_map()
    }

    /// The exported variables every command starts with (beyond the shell's defaults).
    pub fn env(&self) -> &[(String, String)] {
        &self.inner.env
    }
}

/// A background process started by [`Sandbox::spawn`].
#[derive(Debug)]
pub struct SandboxProcess {
    proc: Proc,
    /// What the process writes to stdout, in chunks.
    pub stdout: ByteStream,
    /// What the process writes to stderr, in chunks.
    pub stderr: ByteStream,
    /// The process's stdin, when it was spawned with [`RunOptions::stdin_pipe`].
    pub stdin: Option<ProcessStdin>,
}

/// The write end of a spawned process's stdin: a bounded pipe (64 KiB), so a write
/// waits while the process has not read what came before. The process sees end of
/// file once this is closed or dropped.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use shellbox::session::{RunOptions, Sandbox};
/// let sb = Sandbox::new();
/// let mut p = sb.spawn(RunOptions::new("tr a-z A-Z").stdin_pipe()).await?;
/// let stdin = p.stdin.take().unwrap();
/// stdin.write(b"hello\n")?;
/// stdin.close();
/// assert_eq!(p.stdout.read_to_end().await, b"HELLO\n");
/// assert_eq!(p.wait().await, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct ProcessStdin {
    writer: Mutex<Option<PipeWriter>>,
    cancel: Arc<AtomicBool>,
}

impl ProcessStdin {
    /// Writes all of `data`, waiting while the pipe is full. Blocks: async callers
    /// run it on a blocking thread. Fails with `BrokenPipe` once the process has
    /// stopped reading (ended) or after [`close`](Self::close).
    pub fn write(&self, data: &[u8]) -> std::io::Result<()> {
        let guard = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        match guard.as_ref() {
            Some(w) => w.write_all(data, &self.cancel).map_err(|e| {
                // A killed process's pipe reads as closed, not as a limit.
                if crate::commands::as_fatal(&e).is_some() {
                    std::io::Error::from(std::io::ErrorKind::BrokenPipe)
                } else {
                    e
                }
            }),
            None => Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe)),
        }
    }

    /// Closes the pipe: the process reads end of file after what was written.
    /// Closing again does nothing.
    pub fn close(&self) {
        self.writer.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}

impl SandboxProcess {
    /// The process id (also the job directory name of `bash` tool jobs).
    pub fn pid(&self) -> u32 {
        self.proc.pid
    }

    /// The exit status, if the process has ended.
    pub fn try_status(&self) -> Option<i32> {
        self.proc.exit.get()
    }

    /// Why the process ended early (a limit, a kill, a bug in shellbox), once it has
    /// ended; `None` while it runs or when its script ran to the end.
    pub fn stopped(&self) -> Option<crate::interp::Stopped> {
        self.proc.exit.get()?;
        self.proc.exit.outcome().stopped
    }

    /// Waits for the process to end and returns its exit status (143 if it was killed).
    ///
    /// Cancel safety: dropping the future only stops waiting.
    pub async fn wait(&self) -> i32 {
        self.proc.exit.wait().await
    }

    /// Stops the process and waits until it has ended; killing an ended process does
    /// nothing.
    ///
    /// Cancel safety: the process is told to stop before the first await.
    pub async fn kill(&self) {
        if self.proc.exit.get().is_none() {
            self.proc.cancel();
        }
        self.proc.exit.wait().await;
    }
}

/// A stream of output bytes from a [`SandboxProcess`], ending when the process does.
#[derive(Debug)]
pub struct ByteStream(mpsc::UnboundedReceiver<Vec<u8>>);

impl ByteStream {
    /// A stream that has already ended (to put in a stream's place when taking it).
    pub fn empty() -> ByteStream {
        ByteStream(mpsc::unbounded_channel().1)
    }

    /// The next chunk, or `None` once the process has ended and everything was read.
    ///
    /// Cancel safety: safe; a chunk is never lost by dropping the future.
    pub async fn next_chunk(&mut self) -> Option<Vec<u8>> {
        self.0.recv().await
    }

    /// Everything left, until the process ends.
    pub async fn read_to_end(&mut self) -> Vec<u8> {
        let mut all = Vec::new();
        while let Some(chunk) = self.0.recv().await {
            all.extend_from_slice(&chunk);
        }
        all
    }
}
