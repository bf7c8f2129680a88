//! `NativeSandbox` (a [`shellbox::Sandbox`]: every run a fresh shell over one
//! filesystem), `NativeShell` (a persistent [`shellbox::Shell`] over a sandbox's
//! filesystem), `NativeSnapshot` and `NativeCancel`. Every method that runs a script or
//! touches the filesystem returns a Promise and does its work on the engine's
//! threads; only path arithmetic and O(1) forks answer synchronously.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use napi::bindgen_prelude::{
    Buffer, Either, Float64Array, Function, Object, PromiseRaw, Uint32Array,
};
use napi::{Env, Status};
use napi_derive::napi;
use serde_json::Value;
use shellbox::Limits;
use shellbox::commands::Registry;
use shellbox::fs::{FileType, Fs, Metadata};
use shellbox::interp::{ExecOutput, Stopped};
use shellbox::session::{
    CancelToken, NewFile, RemoveOptions, RunOptions, Sandbox, SandboxError, copy_in, provision,
    provision_files, remove_in,
};
use shellbox::store::Store;

use crate::commands::{Bridge, CommandCall};
use crate::handoff::{self, Handoff};
use crate::process::NativeProcess;
use crate::{error, sandbox_error};

/// How to make a sandbox.
#[napi(object)]
pub struct SandboxInit {
    pub env: Option<HashMap<String, String>>,
    /// `Limits` fields by their Rust names, plus `profile: "hardened"` and
    /// `timeoutMs` (see `limits_from`).
    pub limits: Option<Value>,
    /// Names served by the custom-command dispatcher.
    pub commands: Option<Vec<String>>,
    pub id: Option<String>,
}

/// One run's options.
#[napi(object)]
pub struct RunInit {
    pub cwd: Option<String>,
    pub env: Option<HashMap<String, String>>,
    pub stdin: Option<Buffer>,
    pub args: Option<Vec<String>>,
    pub capture_env: Option<bool>,
    pub stdin_pipe: Option<bool>,
}

/// Why a run ended early.
#[napi(object)]
pub struct StopInfo {
    /// `limit`, `cancelled` or `internal`.
    pub kind: String,
    /// The `Limits` field, for `limit`.
    pub limit: Option<String>,
    pub message: Option<String>,
}

/// What a run produced.
#[napi(object)]
pub struct RunResult {
    pub stdout: Buffer,
    pub stderr: Buffer,
    pub exit_code: i32,
    /// The shell's variables at the end, when asked for: `NAME=value` entries, each
    /// ended by a NUL, sorted by name (one string crosses to JavaScript faster than
    /// an object, and is parsed only if read).
    pub env: Option<String>,
    pub stopped: Option<StopInfo>,
}

/// A file's metadata.
#[napi(object)]
pub struct StatInfo {
    /// `file`, `directory`, `symlink` or `device`.
    pub kind: String,
    pub mode: u32,
    pub size: f64,
    pub ino: f64,
    pub nlink: u32,
    pub uid: u32,
    pub gid: u32,
    /// Milliseconds since the epoch.
    pub mtime_ms: f64,
    pub atime_ms: f64,
    pub ctime_ms: f64,
}

/// One directory entry.
#[napi(object)]
pub struct DirEntryInfo {
    pub name: String,
    pub kind: String,
}

/// What a save wrote.
#[napi(object)]
pub struct SaveInfo {
    pub seq: f64,
    pub blobs_written: f64,
    pub bytes_written: f64,
}

/// A cancellation flag for runs: `cancel()` stops every run given it at its next
/// command or loop iteration.
#[napi]
pub struct NativeCancel {
    token: CancelToken,
}

#[napi]
impl NativeCancel {
    #[napi(constructor)]
    pub fn new() -> NativeCancel {
        NativeCancel {
            token: CancelToken::new(),
        }
    }

    #[napi]
    pub fn cancel(&self) {
        self.token.cancel();
    }

    #[napi(getter)]
    pub fn cancelled(&self) -> bool {
        self.token.is_cancelled()
    }
}

impl Default for NativeCancel {
    fn default() -> NativeCancel {
        NativeCancel::new()
    }
}

/// An O(1) snapshot of a sandbox's filesystem.
#[napi]
pub struct NativeSnapshot {
    fs: Fs,
}

/// A sandbox session.
#[napi]
pub struct NativeSandbox {
    sb: Sandbox,
    /// Keeps the custom-command dispatcher alive as long as the sandbox.
    bridge: Option<Arc<Bridge>>,
}

/// Limits from a JavaScript object of `Limits` field names (unknown names and
/// values that are not whole non-negative numbers are a `TypeError`).
fn limits_from(v: Option<&Value>) -> napi::Result<Option<Limits>> {
    let Some(v) = v else { return Ok(None) };
    let Some(map) = v.as_object() else {
        return Err(error("TypeError", "limits must be an object"));
    };
    let mut l = match map.get("profile").and_then(Value::as_str) {
        Some("hardened") => Limits::hardened(),
        Some("default") | None => Limits::default(),
        Some(other) => {
            return Err(error(
                "TypeError",
                format!("unknown limits profile {other:?} (use \"default\" or \"hardened\")"),
            ));
        }
    };
    for (key, value) in map {
        if key == "profile" {
            continue;
        }
        if key == "timeoutMs" {
            l.timeout = match value {
                Value::Null => None,
                v => Some(std::time::Duration::from_millis(whole(key, v)?)),
            };
            continue;
        }
        let n = whole(key, value)?;
        let size = usize::try_from(n).unwrap_or(usize::MAX);
        match key.as_str() {
            "max_commands" => l.max_commands = n,
            "max_loop_iterations" => l.max_loop_iterations = n,
            "max_call_depth" => l.max_call_depth = size,
            "max_subshell_depth" => l.max_subshell_depth = size,
            "max_output_bytes" => l.max_output_bytes = n,
            "max_string_len" => l.max_string_len = size,
            "max_words" => l.max_words = size,
            "max_array_len" => l.max_array_len = size,
            "max_brace_words" => l.max_brace_words = size,
            "max_glob_reads" => l.max_glob_reads = size,
            "max_parse_depth" => l.max_parse_depth = size,
            "max_source_bytes" => l.max_source_bytes = size,
            "max_heredoc_bytes" => l.max_heredoc_bytes = size,
            "max_threads" => l.max_threads = size,
            "max_background_jobs" => l.max_background_jobs = size,
            "max_file_bytes" => l.max_file_bytes = n,
            "max_fs_bytes" => l.max_fs_bytes = n,
            "max_files" => l.max_files = n,
            "max_memory_bytes" => l.max_memory_bytes = n,
            "max_io_bytes" => l.max_io_bytes = n,
            _ => return Err(error("TypeError", format!("unknown limit {key:?}"))),
        }
    }
    Ok(Some(l))
}

/// A whole non-negative number (2^53 and up saturate).
fn whole(key: &str, v: &Value) -> napi::Result<u64> {
    match v.as_f64() {
        Some(f) if f >= 0.0 && f.fract() == 0.0 => Ok(if f >= 9.007_199_254_740_992e15 {
            u64::MAX
        } else {
            f as u64
        }),
        _ => Err(error(
            "TypeError",
            format!("limit {key:?} must be a whole number of 0 or more, not {v}"),
        )),
    }
}

fn run_options(
    command: String,
    init: Option<RunInit>,
    cancel: Option<&NativeCancel>,
) -> RunOptions {
    let mut opts = RunOptions::new(command);
    if let Some(init) = init {
        opts.cwd = init.cwd;
        opts.env = init
            .env
            .map(|e| e.into_iter().collect())
            .unwrap_or_default();
        opts.stdin = init.stdin.map(|b| b.to_vec()).unwrap_or_default();
        opts.args = init.args.unwrap_or_default();
        opts.capture_env = init.capture_env.unwrap_or(false);
        opts.stdin_pipe = init.stdin_pipe.unwrap_or(false);
    }
    opts.cancel = cancel.map(|c| c.token.clone());
    opts
}

pub(crate) fn run_result(out: ExecOutput) -> RunResult {
    RunResult {
        stdout: out.stdout.into(),
        stderr: out.stderr.into(),
        exit_code: out.exit_code,
        env: out.env.map(|vars| {
            let mut block = String::new();
            for (k, v) in vars {
                block.push_str(&k);
                block.push('=');
                block.push_str(&v);
                block.push('\0');
            }
            block
        }),
        stopped: out.stopped.map(stop_info),
    }
}

pub(crate) fn stop_info(s: Stopped) -> StopInfo {
    match s {
        Stopped::Limit { limit, message } => StopInfo {
            kind: "limit".into(),
            limit: Some(limit.into()),
            message: Some(message),
        },
        Stopped::Cancelled => StopInfo {
            kind: "cancelled".into(),
            limit: None,
            message: None,
        },
        Stopped::Internal(m) => StopInfo {
            kind: "internal".into(),
            limit: None,
            message: Some(m),
        },
        _ => StopInfo {
            kind: "other".into(),
            limit: None,
            message: None,
        },
    }
}

fn stat_info(m: &Metadata) -> StatInfo {
    let ms = |t: shellbox::fs::Timestamp| t.secs as f64 * 1000.0 + f64::from(t.nanos) / 1e6;
    StatInfo {
        kind: m.file_type.kind_name().into(),
        mode: m.mode,
        size: m.size as f64,
        ino: m.ino as f64,
        nlink: m.nlink,
        uid: m.uid,
        gid: m.gid,
        mtime_ms: ms(m.mtime),
        atime_ms: ms(m.atime),
        ctime_ms: ms(m.ctime),
    }
}

fn store_at(dir: &str) -> napi::Result<Store> {
    Store::open(dir).map_err(|e| error("ESTORE", e.message))
}

/// Builds the registry: the built-ins plus the dispatcher's names.
fn registry(
    names: &[String],
    dispatcher: Option<&Function<'_, CommandCall, ()>>,
    limits: &Limits,
) -> napi::Result<(Registry, Option<Arc<Bridge>>)> {
    let mut r = Registry::with_builtins();
    let bridge = match dispatcher {
        Some(d) => {
            let b = Bridge::new(d, limits.max_string_len)?;
            b.register(&mut r, names);
            Some(b)
        }
        None => None,
    };
    Ok((r, bridge))
}

/// Runs a filesystem operation off the JavaScript thread.
fn fs_task<'env, T, F>(env: &'env Env, sb: &Sandbox, f: F) -> napi::Result<PromiseRaw<'env, T>>
where
    T: 'static + Send + napi::bindgen_prelude::ToNapiValue,
    F: 'static + Send + FnOnce(&Sandbox) -> Result<T, SandboxError>,
{
    let sb = sb.clone();
    env.spawn_future(async move { f(&sb).map_err(|e| sandbox_error(&e)) })
}

/// One locked filesystem call on a resolved path, its error made in place. The host
/// acts as the machine's administrator (root); what it creates is given to the
/// sandbox user (`shellbox::session::provision`), so scripts can change it.
fn with_fs<T>(
    sb: &Sandbox,
    op: &str,
    path: &str,
    f: impl FnOnce(&mut Fs, &str) -> Result<T, shellbox::fs::FsError>,
) -> Result<T, SandboxError> {
    let p = sb.resolve_path(path);
    let mut fs = sb.fs();
    provision(&mut fs, &p, |fs| f(fs, &p)).map_err(|e| SandboxError::from_fs(op, &p, &e))
}

/// [`with_fs`] for operations that report their own errors.
fn host_op<T>(
    sb: &Sandbox,
    path: &str,
    f: impl FnOnce(&mut Fs, &str) -> Result<T, SandboxError>,
) -> Result<T, SandboxError> {
    let p = sb.resolve_path(path);
    let mut fs = sb.fs();
    provision(&mut fs, &p, |fs| f(fs, &p))
}

/// A sandbox builder with `init`'s commands, limits and environment.
fn builder(
    init: &SandboxInit,
    dispatcher: Option<&Function<'_, CommandCall, ()>>,
) -> napi::Result<(shellbox::session::SandboxBuilder, Option<Arc<Bridge>>)> {
    let limits = limits_from(init.limits.as_ref())?;
    let names = init.commands.clone().unwrap_or_default();
    let used = limits.clone().unwrap_or_default();
    let (registry, bridge) = registry(&names, dispatcher, &used)?;
    let mut b = Sandbox::builder().registry(registry);
    if let Some(l) = limits {
        b = b.limits(l);
    }
    for (k, v) in init.env.clone().unwrap_or_default() {
        b = b.env(k, v);
    }
    Ok((b, bridge))
}

/// Session `name` of the store in `storeDir` (files, id, environment, read
/// stamps), run with `init`'s commands and limits; loads off the JavaScript thread.
#[napi]
pub fn load_sandbox<'env>(
    env: &'env Env,
    store_dir: String,
    name: String,
    init: SandboxInit,
    dispatcher: Option<Function<'_, CommandCall, ()>>,
) -> napi::Result<PromiseRaw<'env, NativeSandbox>> {
    let (b, bridge) = builder(&init, dispatcher.as_ref())?;
    blocking(env, move || {
        let store = store_at(&store_dir)?;
        let (sb, _report) = b.load(&store, &name).map_err(|e| sandbox_error(&e))?;
        Ok(NativeSandbox { sb, bridge })
    })
}

/// A promise of `f`'s result, computed on a blocking thread (disk I/O).
fn blocking<'env, T>(
    env: &'env Env,
    f: impl FnOnce() -> napi::Result<T> + Send + 'static,
) -> napi::Result<PromiseRaw<'env, T>>
where
    T: 'static + Send + napi::bindgen_prelude::ToNapiValue,
{
    env.spawn_future(async move {
        tokio::task::spawn_blocking(f)
            .await
            .map_err(|e| error("EINTERNAL", e))?
    })
}

/// Whether the store in `storeDir` has session `name`.
#[napi]
pub fn store_has_session<'env>(
    env: &'env Env,
    store_dir: String,
    name: String,
) -> napi::Result<PromiseRaw<'env, bool>> {
    blocking(env, move || {
        let sessions = store_at(&store_dir)?
            .sessions()
            .map_err(|e| error("ESTORE", e.message))?;
        Ok(sessions.contains(&name))
    })
}

/// Removes session `name` from the store in `storeDir`; resolves to whether it was
/// there.
#[napi]
pub fn store_delete_session<'env>(
    env: &'env Env,
    store_dir: String,
    name: String,
) -> napi::Result<PromiseRaw<'env, bool>> {
    blocking(env, move || {
        store_at(&store_dir)?
            .delete(&name)
            .map_err(|e| error("ESTORE", e.message))
    })
}

#[napi]
impl NativeSandbox {
    /// A sandbox with `init`'s environment and limits (files come with [`seed`]);
    /// `dispatcher` serves the names in `init.commands`.
    ///
    /// [`seed`]: NativeSandbox::seed
    #[napi(constructor)]
    pub fn new(
        init: SandboxInit,
        dispatcher: Option<Function<'_, CommandCall, ()>>,
    ) -> napi::Result<NativeSandbox> {
        let (b, bridge) = builder(&init, dispatcher.as_ref())?;
        let b = match init.id.clone() {
            Some(id) => b.id(id),
            None => b,
        };
        Ok(NativeSandbox {
            sb: b.build(),
            bridge,
        })
    }

    /// Adds (or replaces) commands served by the dispatcher the sandbox was made
    /// with, for runs started from now on (`registerCommand`).
    #[napi]
    pub fn register_commands(&self, names: Vec<String>) -> napi::Result<()> {
        let Some(bridge) = &self.bridge else {
            return Err(error(
                "EINVAL",
                "this sandbox was made without a command dispatcher",
            ));
        };
        for name in names {
            self.sb.register(name, bridge.command());
        }
        Ok(())
    }

    /// Writes files packed as one batch: `paths` NUL-separated, their contents one
    /// after another in `data` with byte lengths `lens` (modes and mtimes, in
    /// milliseconds, optional and parallel to them), after making directory `cwd`;
    /// off the JavaScript thread. One string and one buffer cross instead of an
    /// object per file.
    #[napi]
    #[allow(clippy::too_many_arguments)]
    pub fn seed<'env>(
        &self,
        env: &'env Env,
        paths: String,
        data: Buffer,
        lens: Uint32Array,
        modes: Option<Uint32Array>,
        mtimes: Option<Float64Array>,
        cwd: Option<String>,
    ) -> napi::Result<PromiseRaw<'env, ()>> {
        // Typed arrays cross as one copy each, not one N-API call per element.
        let data = data.to_vec();
        let lens = lens.to_vec();
        let modes = modes.map(|m| m.to_vec());
        let mtimes = mtimes.map(|m| m.to_vec());
        fs_task(env, &self.sb, move |sb| {
            if let Some(dir) = cwd {
                with_fs(sb, "mkdir", &dir, |fs, p| fs.mkdir_all(p, 0o755))?;
            }
            let names: Vec<String> = if paths.is_empty() {
                Vec::new()
            } else {
                paths.split('\0').map(|p| sb.resolve_path(p)).collect()
            };
            if names.len() != lens.len() {
                return Err(SandboxError::new(
                    shellbox::session::SandboxErrorKind::InvalidArgument,
                    "seed: as many lengths as paths are needed",
                ));
            }
            let mut files = Vec::with_capacity(names.len());
            let mut at = 0usize;
            for (i, (path, len)) in names.into_iter().zip(&lens).enumerate() {
                let end = at.saturating_add(*len as usize);
                let Some(content) = data.get(at..end) else {
                    return Err(SandboxError::new(
                        shellbox::session::SandboxErrorKind::InvalidArgument,
                        "seed: the lengths run past the data",
                    ));
                };
                at = end;
                let mut f = NewFile::new(path, content);
                f.mode = modes
                    .as_ref()
                    .and_then(|m| m.get(i))
                    .copied()
                    .filter(|m| *m != u32::MAX);
                f.mtime = mtimes
                    .as_ref()
                    .and_then(|m| m.get(i))
                    .filter(|t| t.is_finite())
                    .map(|t| shellbox::fs::Timestamp::from_secs((t / 1000.0).floor() as i64));
                files.push(f);
            }
            provision_files(&mut sb.fs(), files)
        })
    }

    #[napi(getter)]
    pub fn id(&self) -> String {
        self.sb.id().to_owned()
    }

    /// Runs `command` in a fresh shell on the engine's thread: its result, or a
    /// promise of it when it takes longer than a moment (see `crate::handoff`).
    #[napi(ts_return_type = "RunResult | Promise<RunResult>")]
    pub fn run<'env>(
        &self,
        env: &'env Env,
        command: String,
        init: Option<RunInit>,
        cancel: Option<&NativeCancel>,
    ) -> napi::Result<Either<RunResult, Object<'env>>> {
        let opts = run_options(command, init, cancel);
        let handoff = Handoff::new();
        let done = handoff.clone();
        match self.sb.run_then(opts, move |out| done.finish(out)) {
            Ok(()) => handoff.result(env, crate::commands::js_busy),
            Err(e) => handoff::rejected(env, sandbox_error(&e)),
        }
    }

    /// Starts `command` in the background; resolves at once with its handle.
    #[napi]
    pub fn spawn<'env>(
        &self,
        env: &'env Env,
        command: String,
        init: Option<RunInit>,
        cancel: Option<&NativeCancel>,
    ) -> napi::Result<PromiseRaw<'env, NativeProcess>> {
        let opts = run_options(command, init, cancel);
        let sb = self.sb.clone();
        env.spawn_future(async move {
            let p = sb.spawn(opts).await.map_err(|e| sandbox_error(&e))?;
            Ok(NativeProcess::new(p))
        })
    }

    /// A persistent shell over this sandbox's filesystem, in `cwd` (made if missing)
    /// with `env` exported.
    #[napi]
    pub fn shell(
        &self,
        cwd: Option<String>,
        env: Option<HashMap<String, String>>,
    ) -> napi::Result<NativeShell> {
        let mut sh = self.sb.shell();
        for (k, v) in env.unwrap_or_default() {
            sh.export(&k, &v);
        }
        if let Some(dir) = cwd {
            let dir = self.sb.resolve_path(&dir);
            with_fs(&self.sb, "mkdir", &dir, |fs, p| fs.mkdir_all(p, 0o755))
                .map_err(|e| sandbox_error(&e))?;
            sh.chdir(&dir).map_err(|m| error("ENOENT", m))?;
        }
        Ok(NativeShell {
            shell: Arc::new(Mutex::new(sh)),
            bridge: self.bridge.clone(),
        })
    }

    /// An O(1) copy of this session (a fresh id, the same commands).
    #[napi]
    pub fn fork(&self) -> NativeSandbox {
        NativeSandbox {
            sb: self.sb.fork(),
            bridge: self.bridge.clone(),
        }
    }

    #[napi]
    pub fn snapshot(&self) -> NativeSnapshot {
        NativeSnapshot {
            fs: self.sb.snapshot(),
        }
    }

    #[napi]
    pub fn restore(&self, snapshot: &NativeSnapshot) {
        self.sb.restore(snapshot.fs.clone());
    }

    /// Saves the session to the store in `storeDir` as `name`.
    #[napi]
    pub fn save<'env>(
        &self,
        env: &'env Env,
        store_dir: String,
        name: String,
    ) -> napi::Result<PromiseRaw<'env, SaveInfo>> {
        let sb = self.sb.clone();
        env.spawn_future(async move {
            let store = store_at(&store_dir)?;
            let r = sb
                .save(&store, &name)
                .await
                .map_err(|e| sandbox_error(&e))?;
            Ok(SaveInfo {
                seq: r.seq as f64,
                blobs_written: r.blobs_written as f64,
                bytes_written: r.blob_bytes_written as f64,
            })
        })
    }

    /// Calls an agent tool with JSON input; resolves with its JSON output.
    #[napi]
    pub fn call_tool<'env>(
        &self,
        env: &'env Env,
        name: String,
        input: String,
    ) -> napi::Result<PromiseRaw<'env, String>> {
        let sb = self.sb.clone();
        env.spawn_future(async move {
            let input: Value = serde_json::from_str(&input)
                .map_err(|e| error("TypeError", format!("tool input is not JSON: {e}")))?;
            let out = sb
                .call_tool(&name, input)
                .await
                .map_err(|e| crate::tool_error(&e))?;
            serde_json::to_string(&out).map_err(|e| error("EIO", e))
        })
    }

    /// The session's read stamps as JSON (`{path: {sha256, len}}`).
    #[napi]
    pub fn read_stamps(&self) -> napi::Result<String> {
        serde_json::to_string(&self.sb.read_stamps()).map_err(|e| error("EIO", e))
    }

    /// Stops every running command of the session.
    #[napi]
    pub fn stop<'env>(&self, env: &'env Env) -> napi::Result<PromiseRaw<'env, ()>> {
        let sb = self.sb.clone();
        env.spawn_future(async move {
            sb.stop().await;
            Ok(())
        })
    }

    #[napi]
    pub fn resolve_path(&self, path: String) -> String {
        self.sb.resolve_path(&path)
    }

    #[napi]
    pub fn read_file<'env>(
        &self,
        env: &'env Env,
        path: String,
    ) -> napi::Result<PromiseRaw<'env, Buffer>> {
        fs_task(env, &self.sb, move |sb| {
            with_fs(sb, "read", &path, |fs, p| fs.read_file(p)).map(|d| d.to_vec().into())
        })
    }

    /// Writes (or with `append`, appends to) a file; `parents` creates missing
    /// directories first.
    #[napi]
    pub fn write_file<'env>(
        &self,
        env: &'env Env,
        path: String,
        content: Buffer,
        append: bool,
        parents: bool,
    ) -> napi::Result<PromiseRaw<'env, ()>> {
        let content = content.to_vec();
        fs_task(env, &self.sb, move |sb| {
            with_fs(sb, "write", &path, |fs, p| {
                if parents {
                    fs.mkdir_all(shellbox::fs::path::parent(p), 0o755)?;
                }
                if append {
                    fs.append_file(p, &content)
                } else {
                    fs.write_file(p, &content)
                }
            })
        })
    }

    /// Metadata of a path (`follow`: of what a symlink points to).
    #[napi]
    pub fn stat<'env>(
        &self,
        env: &'env Env,
        path: String,
        follow: bool,
    ) -> napi::Result<PromiseRaw<'env, Option<StatInfo>>> {
        fs_task(env, &self.sb, move |sb| {
            let p = sb.resolve_path(&path);
            let fs = sb.fs();
            let m = if follow { fs.stat(&p) } else { fs.lstat(&p) };
            match m {
                Ok(m) => Ok(Some(stat_info(&m))),
                Err(e) if e.is(shellbox::fs::Errno::ENOENT) => Ok(None),
                Err(e) => Err(SandboxError::from_fs("stat", &p, &e)),
            }
        })
    }

    #[napi]
    pub fn read_dir<'env>(
        &self,
        env: &'env Env,
        path: String,
    ) -> napi::Result<PromiseRaw<'env, Vec<DirEntryInfo>>> {
        fs_task(env, &self.sb, move |sb| {
            let entries = with_fs(sb, "readdir", &path, |fs, p| fs.read_dir(p))?;
            Ok(entries
                .into_iter()
                .map(|e| DirEntryInfo {
                    name: e.name,
                    kind: e.file_type.kind_name().into(),
                })
                .collect())
        })
    }

    #[napi]
    pub fn mkdir<'env>(
        &self,
        env: &'env Env,
        path: String,
        recursive: bool,
        mode: Option<u32>,
    ) -> napi::Result<PromiseRaw<'env, ()>> {
        let mode = mode.unwrap_or(0o755);
        fs_task(env, &self.sb, move |sb| {
            with_fs(sb, "mkdir", &path, |fs, p| {
                if recursive {
                    fs.mkdir_all(p, mode)
                } else {
                    fs.mkdir(p, mode)
                }
            })
        })
    }

    #[napi]
    pub fn remove<'env>(
        &self,
        env: &'env Env,
        path: String,
        recursive: bool,
        force: bool,
    ) -> napi::Result<PromiseRaw<'env, ()>> {
        fs_task(env, &self.sb, move |sb| {
            host_op(sb, &path, |fs, p| {
                remove_in(fs, p, RemoveOptions::new(recursive, force))
            })
        })
    }

    #[napi]
    pub fn copy<'env>(
        &self,
        env: &'env Env,
        src: String,
        dst: String,
        recursive: bool,
    ) -> napi::Result<PromiseRaw<'env, ()>> {
        fs_task(env, &self.sb, move |sb| {
            let src = sb.resolve_path(&src);
            host_op(sb, &dst, |fs, dst| copy_in(fs, &src, dst, recursive))
        })
    }

    #[napi]
    pub fn rename<'env>(
        &self,
        env: &'env Env,
        src: String,
        dst: String,
    ) -> napi::Result<PromiseRaw<'env, ()>> {
        fs_task(env, &self.sb, move |sb| {
            let src = sb.resolve_path(&src);
            host_op(sb, &dst, |fs, dst| {
                fs.rename(&src, dst)
                    .map_err(|e| SandboxError::from_fs("rename", &src, &e))
            })
        })
    }

    #[napi]
    pub fn symlink<'env>(
        &self,
        env: &'env Env,
        target: String,
        link: String,
    ) -> napi::Result<PromiseRaw<'env, ()>> {
        fs_task(env, &self.sb, move |sb| {
            with_fs(sb, "symlink", &link, |fs, p| fs.symlink(&target, p))
        })
    }

    #[napi]
    pub fn link<'env>(
        &self,
        env: &'env Env,
        existing: String,
        new_path: String,
    ) -> napi::Result<PromiseRaw<'env, ()>> {
        fs_task(env, &self.sb, move |sb| {
            let existing = sb.resolve_path(&existing);
            with_fs(sb, "link", &new_path, |fs, p| fs.link(&existing, p))
        })
    }

    #[napi]
    pub fn readlink<'env>(
        &self,
        env: &'env Env,
        path: String,
    ) -> napi::Result<PromiseRaw<'env, String>> {
        fs_task(env, &self.sb, move |sb| {
            with_fs(sb, "readlink", &path, |fs, p| fs.readlink(p))
        })
    }

    #[napi]
    pub fn realpath<'env>(
        &self,
        env: &'env Env,
        path: String,
    ) -> napi::Result<PromiseRaw<'env, String>> {
        fs_task(env, &self.sb, move |sb| {
            with_fs(sb, "realpath", &path, |fs, p| fs.canonicalize(p))
        })
    }

    #[napi]
    pub fn chmod<'env>(
        &self,
        env: &'env Env,
        path: String,
        mode: u32,
    ) -> napi::Result<PromiseRaw<'env, ()>> {
        fs_task(env, &self.sb, move |sb| {
            with_fs(sb, "chmod", &path, |fs, p| fs.chmod(p, mode & 0o7777))
        })
    }

    /// Sets access and modification times (milliseconds since the epoch).
    #[napi]
    pub fn utimes<'env>(
        &self,
        env: &'env Env,
        path: String,
        atime_ms: f64,
        mtime_ms: f64,
    ) -> napi::Result<PromiseRaw<'env, ()>> {
        let ts = |ms: f64| {
            let secs = (ms / 1000.0).floor();
            let nanos = ((ms - secs * 1000.0) * 1e6).clamp(0.0, 999_999_999.0) as u32;
            shellbox::fs::Timestamp {
                secs: secs as i64,
                nanos,
            }
        };
        let (a, m) = (ts(atime_ms), ts(mtime_ms));
        fs_task(env, &self.sb, move |sb| {
            with_fs(sb, "utimes", &path, |fs, p| {
                fs.set_times(p, Some(a), Some(m))
            })
        })
    }

    /// Every path in the filesystem, sorted (just-bash's `getAllPaths`).
    #[napi]
    pub fn all_paths(&self) -> Vec<String> {
        let fs = self.sb.fs();
        let mut out = Vec::new();
        let mut stack = vec!["/".to_owned()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = fs.read_dir(&dir) else {
                continue;
            };
            for e in entries {
                let p = shellbox::fs::path::join(&dir, &e.name);
                if e.file_type == FileType::Dir {
                    stack.push(p.clone());
                }
                out.push(p);
            }
        }
        out.sort();
        out
    }
}

/// A persistent shell: variables, functions and the directory carry across runs.
#[napi]
pub struct NativeShell {
    shell: Arc<Mutex<shellbox::Shell>>,
    bridge: Option<Arc<Bridge>>,
}

#[napi]
impl NativeShell {
    /// Adds (or replaces) dispatcher-served commands on this shell.
    #[napi]
    pub fn register_commands(&self, names: Vec<String>) -> napi::Result<()> {
        let Some(bridge) = &self.bridge else {
            return Err(error(
                "EINVAL",
                "this shell was made without a command dispatcher",
            ));
        };
        let mut sh = self.shell.lock().unwrap_or_else(|e| e.into_inner());
        for name in names {
            sh.register(name, bridge.command());
        }
        Ok(())
    }

    /// Runs `command` on this shell (runs on one shell take turns).
    #[napi]
    pub fn run<'env>(
        &self,
        env: &'env Env,
        command: String,
        init: Option<RunInit>,
        cancel: Option<&NativeCancel>,
    ) -> napi::Result<PromiseRaw<'env, RunResult>> {
        let opts = run_options(command, init, cancel);
        let shell = self.shell.clone();
        env.spawn_future(async move {
            let joined = tokio::task::spawn_blocking(move || {
                let mut sh = shell.lock().unwrap_or_else(|e| e.into_inner());
                sh.run(opts)
            })
            .await;
            match joined {
                Ok(out) => Ok(run_result(out)),
                Err(e) => Err(napi::Error::new(
                    Status::GenericFailure,
                    format!("[EINTERNAL] the shell's thread failed: {e}"),
                )),
            }
        })
    }
}
