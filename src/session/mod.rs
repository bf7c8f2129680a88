//! The public embedding API. [`Shell`] is a persistent shell session over an in-memory
//! filesystem: variables, functions and the working directory carry across
//! [`Shell::exec`] calls. [`Sandbox`] is an agent's session in eve's shape (a fresh shell
//! per `run`, a shared filesystem, background processes, the agent tools), and
//! [`Template`] bootstraps one once and forks it per session.
//!
//! ```
//! use shellbox::Shell;
//! let mut sh = Shell::new();
//! let out = sh.exec("x=41; echo $((x + 1)) > /tmp/n; cat /tmp/n");
//! assert_eq!(out.stdout, b"42\n");
//! assert_eq!(sh.exec("echo $x").stdout, b"41\n");
//! ```

mod files;
mod process;
mod sandbox;
mod seed;
mod template;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::commands::Registry;
use crate::expand::{Attrs, Value, Var};
use crate::fs::{Clock, Fs, SharedFs};
use crate::interp::io::{Capture, OpenFile};
use crate::interp::{ExecOutput, Interp, Stopped, procs};
use crate::limits::{Budget, Limits};

pub use crate::interp::pool::linger;
pub use files::{NewFile, RemoveOptions, copy_in, provision, provision_files, remove_in};
pub use process::{INTERNAL_ERROR, TERMINATED};
pub use sandbox::{
    ByteStream, DEFAULT_BASH_WAIT, HOME, JOBS_DIR, NetworkPolicy, ProcessStdin, RunOptions,
    Sandbox, SandboxBuilder, SandboxError, SandboxErrorKind, SandboxProcess,
};
pub use seed::{SeedReport, copy_host_dir, digest_host_dir};
pub use template::{Template, TemplateBuilder};

/// Virtual time at which a new session's clock starts (2026-01-01T00:00:00Z).
pub const DEFAULT_EPOCH: i64 = 1_767_225_600;

/// Builds a [`Shell`] with files, environment, working directory and limits.
#[derive(Clone, Debug, Default)]
pub struct ShellBuilder {
    files: Vec<(String, Vec<u8>)>,
    env: Vec<(String, String)>,
    cwd: Option<String>,
    limits: Option<Limits>,
    registry: Option<Registry>,
    fs: Option<Fs>,
}

impl ShellBuilder {
    /// Adds a file (parents are created).
    pub fn file(mut self, path: impl Into<String>, content: impl Into<Vec<u8>>) -> Self {
        self.files.push((path.into(), content.into()));
        self
    }
    /// Sets an exported environment variable.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }
    /// Sets the working directory (created if missing).
    pub fn cwd(mut self, dir: impl Into<String>) -> Self {
        self.cwd = Some(dir.into());
        self
    }
    /// Sets the resource limits.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = Some(limits);
        self
    }
    /// Uses a custom command registry (e.g. with host-provided commands).
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
    /// Starts from an existing filesystem (e.g. a template's snapshot).
    pub fn filesystem(mut self, fs: Fs) -> Self {
        self.fs = Some(fs);
        self
    }

    /// Builds the shell.
    pub fn build(self) -> Shell {
        let (registry, mut fs) = registry_and_fs(self.registry, self.fs);
        add_files(&mut fs, &self.files);
        if let Some(l) = &self.limits {
            let fl = l.fs_limits(fs.limits());
            fs = fs.with_limits(fl);
        }
        let limits = self.limits.unwrap_or_default();
        let cwd = crate::fs::path::join("/workspace", self.cwd.as_deref().unwrap_or("."));
        let _ = fs.mkdir_all(&cwd, 0o755);
        let shared = SharedFs::new(fs);
        let budget = Budget::new(limits.clone(), Arc::new(AtomicBool::new(false)));
        let start = shared.lock().clock().now().secs;
        let proc = procs::top_level_shell(&procs::ProcTable::new(), start, "bash");
        let interp = new_interp(shared.clone(), registry, budget, &cwd, &self.env, proc);
        Shell {
            interp,
            fs: shared,
            limits,
        }
    }
}

/// The built-in registry and the default filesystem for it. Both are built once per
/// process and shared or copied after (the filesystem in O(1), with a clock of its own): building
/// them was most of the cost of a fresh `Shell`.
fn defaults() -> (Arc<Registry>, Fs) {
    static DEFAULTS: std::sync::OnceLock<(Arc<Registry>, Fs)> = std::sync::OnceLock::new();
    let (r, fs) = DEFAULTS.get_or_init(|| {
        let r = Registry::with_builtins();
        let fs = default_fs(&r);
        (Arc::new(r), fs)
    });
    let mut fs = fs.clone();
    fs.set_clock(Clock::virtual_at(DEFAULT_EPOCH));
    (r.clone(), fs)
}

/// The registry and filesystem a session starts from: the given ones, or the shared
/// defaults (a filesystem for a custom registry lists that registry's commands).
pub(crate) fn registry_and_fs(registry: Option<Registry>, fs: Option<Fs>) -> (Arc<Registry>, Fs) {
    match (registry, fs) {
        (Some(r), Some(mut fs)) => {
            // A filesystem made elsewhere lists the built-ins; the host's own
            // commands may be new to it.
            let names: Vec<&str> = r.registered_names().collect();
            if !names.is_empty() {
                fs.install_commands(&names);
            }
            (Arc::new(r), fs)
        }
        (Some(r), None) => {
            let fs = default_fs(&r);
            (Arc::new(r), fs)
        }
        (None, fs) => {
            let (r, default) = defaults();
            (r, fs.unwrap_or(default))
        }
    }
}

/// `registry` with command `name` added (or replaced), and `name` listed in `fs`'s
/// `/bin` and `/usr/bin` as the built-ins are.
pub(crate) fn with_command(
    registry: &Registry,
    fs: &SharedFs,
    name: String,
    f: impl Fn(&mut crate::commands::Ctx) -> crate::commands::CmdResult + Send + Sync + 'static,
) -> Arc<Registry> {
    fs.lock().install_commands(&[name.as_str()]);
    let mut r = registry.clone();
    r.register(name, f);
    Arc::new(r)
}

/// The filesystem a new session starts from: the default layout, with `/bin` and
/// `/usr/bin` listing the registry's commands and the shell's own.
pub(crate) fn default_fs(registry: &Registry) -> Fs {
    let mut fs = Fs::new(Clock::virtual_at(DEFAULT_EPOCH));
    let mut names: Vec<&str> = registry.names().collect();
    for b in [
        "echo", "printf", "test", "[", "true", "false", "pwd", "kill", "bash", "sh", "rbash",
    ] {
        names.push(b);
    }
    fs.install_commands(&names);
    fs
}

/// Writes `files` (paths relative to `/workspace`), creating parents.
pub(crate) fn add_files(fs: &mut Fs, files: &[(String, Vec<u8>)]) {
    for (path, content) in files {
        let p = crate::fs::path::join("/workspace", path);
        let _ = fs.mkdir_all(crate::fs::path::parent(&p), 0o755);
        let _ = fs.write_file(&p, content);
    }
}

/// A fresh shell over `fs`, in `cwd`, with `env` exported, running as `proc`.
pub(crate) fn new_interp(
    fs: SharedFs,
    registry: Arc<Registry>,
    budget: Arc<Budget>,
    cwd: &str,
    env: &[(String, String)],
    proc: crate::interp::procs::Process,
) -> Interp {
    let mut interp = Interp::as_process(fs, registry, budget, proc);
    // A new shell's PWD is already /workspace (and writing a variable copies the
    // shared table of defaults).
    if interp.cwd != cwd {
        interp.cwd = cwd.to_owned();
        interp.define(
            "PWD",
            Var {
                value: Some(Value::Str(cwd.to_owned())),
                attrs: Attrs(Attrs::EXPORT),
            },
        );
    }
    for (k, v) in env {
        interp.define(
            k,
            Var {
                value: Some(Value::Str(v.clone())),
                attrs: Attrs(Attrs::EXPORT),
            },
        );
    }
    interp
}

/// A flag that stops a run at its next check point (every command and loop
/// iteration) once cancelled. Clones share the flag.
///
/// ```
/// use shellbox::session::{CancelToken, RunOptions};
/// let token = CancelToken::new();
/// token.cancel();
/// let mut sh = shellbox::Shell::new();
/// let out = sh.run(RunOptions::new("echo never").cancel(token));
/// assert_eq!(out.exit_code, shellbox::session::TERMINATED);
/// assert_eq!(out.stopped, Some(shellbox::interp::Stopped::Cancelled));
/// ```
#[derive(Clone, Debug, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token not yet cancelled.
    pub fn new() -> CancelToken {
        CancelToken::default()
    }
    /// Stops every run that holds this token (at its next check point).
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
    /// Whether [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

/// Why a run's budget stopped it: the limit it tripped, or cancellation.
pub(crate) fn stopped_by(budget: &Budget) -> Option<Stopped> {
    match budget.tripped() {
        Some(message) => Some(Stopped::Limit {
            limit: crate::limits::limit_named_in(&message).unwrap_or("limit"),
            message,
        }),
        None => budget
            .cancel
            .load(Ordering::Relaxed)
            .then_some(Stopped::Cancelled),
    }
}

/// The shell's scalar variables (what a run reports with `capture_env`).
pub(crate) fn shell_vars(interp: &Interp) -> std::collections::BTreeMap<String, String> {
    interp.vars.scalars()
}

/// The text of a panic's payload.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_owned()
    }
}

/// A persistent shell session.
pub struct Shell {
    interp: Interp,
    fs: SharedFs,
    limits: Limits,
}

impl Default for Shell {
    fn default() -> Shell {
        Shell::new()
    }
}

impl Shell {
    /// A shell of these parts (for sessions that share a filesystem).
    pub(crate) fn from_parts(interp: Interp, fs: SharedFs, limits: Limits) -> Shell {
        Shell { interp, fs, limits }
    }

    /// A shell with the default filesystem layout, cwd `/workspace`.
    pub fn new() -> Shell {
        ShellBuilder::default().build()
    }

    /// A builder for a customised shell.
    pub fn builder() -> ShellBuilder {
        ShellBuilder::default()
    }

    /// Runs a script to completion, capturing stdout and stderr. Stdin is empty.
    pub fn exec(&mut self, script: &str) -> ExecOutput {
        self.exec_with_stdin(script, Vec::new())
    }

    /// Runs a script with the given bytes on stdin.
    pub fn exec_with_stdin(&mut self, script: &str, stdin: Vec<u8>) -> ExecOutput {
        self.run(RunOptions::new(script).stdin(stdin))
    }

    /// Runs a script with options: stdin, a working directory and variables for this
    /// run only (both put back afterwards; what the script does to other state
    /// stays), words appended to its first command, a cancellation token, and the
    /// shell's variables in [`ExecOutput::env`] when `capture_env` is set.
    ///
    /// ```
    /// use shellbox::session::RunOptions;
    /// let mut sh = shellbox::Shell::new();
    /// let out = sh.run(RunOptions::new("cd /tmp; echo $GREETING").env("GREETING", "hi").capture_env());
    /// assert_eq!(out.stdout, b"hi\n");
    /// assert_eq!(out.env.unwrap()["PWD"], "/tmp");
    /// // The variable was for that run; the `cd` stays.
    /// assert_eq!(sh.exec("echo ${GREETING-unset} $PWD").stdout, b"unset /tmp\n");
    /// let out = sh.run(RunOptions::new("printf '%s|' a").args(["b c", "$d"]));
    /// assert_eq!(out.stdout, b"a|b c|$d|");
    /// ```
    pub fn run(&mut self, opts: RunOptions) -> ExecOutput {
        let out = Capture::new(self.limits.max_output_bytes);
        let err = Capture::new(self.limits.max_output_bytes);
        self.interp.set_stdio(
            OpenFile::bytes(opts.stdin),
            Arc::new(OpenFile::Capture(out.clone())),
            Arc::new(OpenFile::Capture(err.clone())),
        );
        let cancel = opts.cancel.map_or_else(Default::default, |t| t.flag());
        let budget = Budget::new(self.limits.clone(), cancel);
        self.interp.budget = budget.clone();
        let mut saved_cwd = None;
        if let Some(dir) = opts.cwd {
            let cwd = crate::fs::path::join(&self.interp.cwd, &dir);
            if !self.fs.lock().stat(&cwd).is_ok_and(|m| m.is_dir()) {
                return ExecOutput {
                    stderr: format!("shellbox: working directory {cwd} does not exist\n")
                        .into_bytes(),
                    exit_code: 1,
                    ..ExecOutput::default()
                };
            }
            saved_cwd = Some((self.interp.cwd.clone(), self.interp.get_str("PWD")));
            self.set_cwd(&cwd);
        }
        let saved_vars: Vec<(String, Option<Var>)> = opts
            .env
            .into_iter()
            .map(|(k, v)| {
                let old = self.interp.vars.get(&k).cloned();
                self.interp.define(
                    &k,
                    Var {
                        value: Some(Value::Str(v)),
                        attrs: Attrs(Attrs::EXPORT),
                    },
                );
                (k, old)
            })
            .collect();
        self.interp.extra_args =
            (!opts.args.is_empty()).then(|| Arc::new(std::sync::Mutex::new(Some(opts.args))));
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let code = self.interp.run_script(&opts.command);
            self.interp.finish_run(code)
        }));
        self.interp.extra_args = None;
        let (mut code, internal) = match ran {
            Ok(code) => (code, None),
            Err(panic) => {
                let msg = panic_message(panic.as_ref());
                let line = format!("shellbox: internal error: {msg}\n");
                let _ = OpenFile::Capture(err.clone()).write_all(
                    &self.fs,
                    line.as_bytes(),
                    &AtomicBool::new(false),
                );
                (INTERNAL_ERROR, Some(Stopped::Internal(msg)))
            }
        };
        let env = opts.capture_env.then(|| shell_vars(&self.interp));
        for (k, old) in saved_vars.into_iter().rev() {
            match old {
                Some(var) => self.interp.define(&k, var),
                None => {
                    let _ = self.interp.vars.unset(&k);
                }
            }
        }
        if let Some((cwd, pwd)) = saved_cwd {
            self.interp.cwd = cwd;
            if let Some(pwd) = pwd {
                let _ = self.interp.assign_scalar("PWD", pwd, false);
            }
        }
        let stopped = internal.or_else(|| stopped_by(&budget));
        if stopped == Some(Stopped::Cancelled) && code == 126 {
            code = TERMINATED;
        }
        ExecOutput {
            stdout: out.take(),
            stderr: err.take(),
            exit_code: code,
            env,
            stopped,
        }
    }

    /// Adds a command, or replaces one of the same name (built-in or not), for this
    /// shell's later runs, and lists it in `/usr/bin`. See [`Registry::register`] for
    /// what a command sees.
    ///
    /// ```
    /// use std::io::Write;
    /// let mut sh = shellbox::Shell::new();
    /// sh.register("greet", |ctx| {
    ///     writeln!(ctx.stdout, "hello, {}", ctx.args.join(" "))?;
    ///     Ok(0)
    /// });
    /// assert_eq!(sh.exec("greet you | tr a-z A-Z").stdout, b"HELLO, YOU\n");
    /// ```
    pub fn register(
        &mut self,
        name: impl Into<String>,
        f: impl Fn(&mut crate::commands::Ctx) -> crate::commands::CmdResult + Send + Sync + 'static,
    ) {
        self.interp.registry = with_command(&self.interp.registry, &self.fs, name.into(), f);
    }

    /// A copy of this shell (variables, functions, options, aliases, directory,
    /// commands, limits) running over `sandbox`'s filesystem instead of its own, with
    /// no jobs of its own. With `sandbox` a [`Sandbox::fork`] of the sandbox this shell
    /// works on, the pair is an O(1) fork of the whole session: the shell state is
    /// held in persistent maps, so nothing is copied until one side changes it.
    ///
    /// ```
    /// let sb = shellbox::Sandbox::new();
    /// let mut sh = sb.shell();
    /// sh.exec("x=1; echo a > f");
    /// let fork = sb.fork();
    /// let mut copy = sh.fork_onto(&fork);
    /// copy.exec("x=2; echo b > f");
    /// assert_eq!(sh.exec("echo $x; cat f").stdout, b"1\na\n");
    /// assert_eq!(copy.exec("echo $x; cat f").stdout, b"2\nb\n");
    /// ```
    pub fn fork_onto(&self, sandbox: &Sandbox) -> Shell {
        let fs = sandbox.shared_fs();
        let mut interp = self.interp.clone();
        interp.fs = fs.clone();
        // Processes, jobs and signals belong to one session; the copy starts a table
        // of its own, numbering on from where this one is, with its shell in it.
        let table = procs::ProcTable::starting_at(self.interp.procs.next_pid());
        let start = fs.lock().clock().now().secs;
        let proc = Arc::new(procs::top_level_shell(&table, start, "bash"));
        let pid = proc.pid();
        interp.procs = table;
        interp.proc = proc;
        (interp.pid, interp.bashpid, interp.pgid, interp.sid) = (pid, pid, pid, pid);
        interp.jobs = Arc::default();
        Shell {
            interp,
            fs,
            limits: self.limits.clone(),
        }
    }

    /// Moves the shell to `cwd` (absolute), as `cd` would.
    fn set_cwd(&mut self, cwd: &str) {
        self.interp.cwd = cwd.to_owned();
        let _ = self.interp.assign_scalar("PWD", cwd.to_owned(), false);
    }

    /// Changes the shell's directory for later runs, as `cd DIR` would (relative to
    /// the current one); the error names a directory that is not there.
    ///
    /// ```
    /// let mut sh = shellbox::Shell::new();
    /// sh.chdir("/tmp").unwrap();
    /// assert_eq!(sh.exec("pwd").stdout, b"/tmp\n");
    /// assert!(sh.chdir("/nowhere").is_err());
    /// ```
    pub fn chdir(&mut self, dir: &str) -> Result<(), String> {
        let cwd = crate::fs::path::join(&self.interp.cwd, dir);
        if !self.fs.lock().stat(&cwd).is_ok_and(|m| m.is_dir()) {
            return Err(format!("{cwd}: No such file or directory"));
        }
        let old = std::mem::replace(&mut self.interp.cwd, cwd.clone());
        let _ = self.interp.assign_scalar("OLDPWD", old, false);
        self.set_cwd(&cwd);
        Ok(())
    }

    /// Sets and exports a variable, as `export NAME=VALUE` would.
    ///
    /// ```
    /// let mut sh = shellbox::Shell::new();
    /// sh.export("GREETING", "hi");
    /// assert_eq!(sh.exec("printenv GREETING").stdout, b"hi\n");
    /// ```
    pub fn export(&mut self, name: &str, value: &str) {
        self.interp.define(
            name,
            Var {
                value: Some(Value::Str(value.to_owned())),
                attrs: Attrs(Attrs::EXPORT),
            },
        );
    }

    /// Runs a script on a blocking thread of the tokio runtime.
    ///
    /// Cancel safety: dropping the future does not stop the script; it runs to
    /// completion (bounded by the limits) on the blocking pool.
    pub async fn exec_async(mut self, script: String) -> (Shell, ExecOutput) {
        let r = tokio::task::spawn_blocking(move || {
            let out = self.exec(&script);
            (self, out)
        })
        .await;
        match r {
            Ok(x) => x,
            Err(e) => (
                Shell::new(),
                ExecOutput {
                    stdout: Vec::new(),
                    stderr: format!("shellbox: task failed: {e}\n").into_bytes(),
                    exit_code: INTERNAL_ERROR,
                    env: None,
                    stopped: Some(Stopped::Internal(e.to_string())),
                },
            ),
        }
    }

    /// The filesystem (locked for the guard's lifetime).
    pub fn fs(&self) -> std::sync::MutexGuard<'_, Fs> {
        self.fs.lock()
    }

    /// Mutable access to the filesystem.
    pub fn fs_mut(&mut self) -> std::sync::MutexGuard<'_, Fs> {
        self.fs.lock()
    }

    /// The interpreter (for advanced embedding: direct stdio, variables).
    pub fn interp_mut(&mut self) -> &mut Interp {
        &mut self.interp
    }

    /// The value of a shell variable.
    pub fn var(&self, name: &str) -> Option<String> {
        self.interp.get_str(name)
    }

    /// The working directory.
    pub fn cwd(&self) -> &str {
        &self.interp.cwd
    }
}
