//! Custom commands written in JavaScript. A registered name runs, on the engine's
//! thread, a closure that hands the call (arguments, stdin, cwd, environment) to one
//! JavaScript dispatcher through a thread-safe function, then waits for the answer
//! while checking the run's cancellation and deadline. The JavaScript side answers
//! with [`command_done`] or [`command_failed`]; while it works it may run shell
//! commands of its own with [`command_exec`], which the waiting engine thread
//! executes through its command host (so they see the same filesystem, environment
//! and limits as the command that called them).

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;

use napi::bindgen_prelude::{Buffer, Function, PromiseRaw};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::{Env, Status};
use napi_derive::napi;
use shellbox::commands::{CmdResult, Ctx, Registry, Stdio};

/// One call of a custom command, as the JavaScript dispatcher receives it.
#[napi(object)]
pub struct CommandCall {
    /// Answer with this id.
    pub id: u32,
    pub name: String,
    pub args: Vec<String>,
    pub stdin: Buffer,
    pub cwd: String,
    /// The command's exported environment.
    pub env: HashMap<String, String>,
}

/// What a command run from a custom command (`ctx.exec`) produced.
#[napi(object)]
pub struct SubResult {
    pub stdout: Buffer,
    pub stderr: Buffer,
    pub exit_code: i32,
}

type Dispatcher = ThreadsafeFunction<CommandCall, (), CommandCall, Status, false, true>;

/// The dispatcher of one sandbox's custom commands.
pub(crate) struct Bridge {
    dispatcher: Dispatcher,
    /// The most stdin a command is handed (the run's string limit).
    max_stdin: usize,
}

impl Bridge {
    /// A bridge over `dispatcher`; it does not keep Node's event loop alive.
    pub(crate) fn new(
        dispatcher: &Function<'_, CommandCall, ()>,
        max_stdin: usize,
    ) -> napi::Result<Arc<Bridge>> {
        let dispatcher = dispatcher
            .build_threadsafe_function::<CommandCall>()
            .weak::<true>()
            .callee_handled::<false>()
            .build()?;
        Ok(Arc::new(Bridge {
            dispatcher,
            max_stdin,
        }))
    }

    /// Registers each of `names` in `registry` (replacing a built-in of that name).
    pub(crate) fn register(self: &Arc<Self>, registry: &mut Registry, names: &[String]) {
        for name in names {
            registry.register(name.clone(), self.command());
        }
    }

    /// The command that hands its calls to this bridge.
    pub(crate) fn command(
        self: &Arc<Self>,
    ) -> impl Fn(&mut Ctx) -> CmdResult + Send + Sync + 'static {
        let bridge = self.clone();
        move |ctx| bridge.run(ctx)
    }

    /// Runs one call: hands it to JavaScript and serves it until it answers.
    fn run(&self, ctx: &mut Ctx) -> CmdResult {
        let stdin = ctx.read_stdin_to_end(self.max_stdin)?;
        let id = NEXT_CALL.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::channel();
        lock_calls().insert(id, tx);
        IN_FLIGHT.fetch_add(1, Ordering::AcqRel);
        let _pending = Pending(id);
        let call = CommandCall {
            id,
            name: ctx.name.to_owned(),
            args: ctx.args.to_vec(),
            stdin: stdin.into(),
            cwd: ctx.cwd.to_owned(),
            env: ctx
                .env
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        };
        let status = self
            .dispatcher
            .call(call, ThreadsafeFunctionCallMode::NonBlocking);
        if status != Status::Ok {
            writeln!(
                ctx.stderr,
                "{}: the JavaScript host can no longer run commands ({status})",
                ctx.name
            )?;
            return Ok(126);
        }
        loop {
            match rx.recv_timeout(Duration::from_millis(20)) {
                Ok(Reply::Done {
                    exit_code,
                    stdout,
                    stderr,
                }) => {
                    ctx.stdout.write_all(&stdout)?;
                    ctx.stderr.write_all(&stderr)?;
                    return Ok(exit_code);
                }
                Ok(Reply::Failed(message)) => {
                    writeln!(ctx.stderr, "{}: {message}", ctx.name)?;
                    return Ok(1);
                }
                Ok(Reply::Exec(sub)) => {
                    let result = run_sub(ctx, &sub);
                    let _ = sub.reply.send(result);
                }
                // JavaScript is still working: the run may have been cancelled or
                // timed out meanwhile, which ends the wait (and the call's answer is
                // dropped when it comes).
                Err(mpsc::RecvTimeoutError::Timeout) => ctx.host.check()?,
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(1),
            }
        }
    }
}

/// A sub-command's status, stdout and stderr, or why it could not run.
type SubOutcome = Result<(i32, Vec<u8>, Vec<u8>), String>;

/// A shell command a custom command asked for, with where to send its result.
struct SubCall {
    command: String,
    stdin: Vec<u8>,
    cwd: Option<String>,
    env: Vec<(String, String)>,
    reply: tokio::sync::oneshot::Sender<SubOutcome>,
}

enum Reply {
    Done {
        exit_code: i32,
        stdout: Vec<u8>,
        stderr: Vec<u8>,
    },
    Failed(String),
    Exec(SubCall),
}

static NEXT_CALL: AtomicU32 = AtomicU32::new(1);

/// Calls handed to JavaScript and not yet answered.
static IN_FLIGHT: AtomicU32 = AtomicU32::new(0);

/// Whether some engine thread is waiting for JavaScript to answer a call (so the
/// JavaScript thread must not wait for that run, see `crate::handoff`).
pub(crate) fn js_busy() -> bool {
    IN_FLIGHT.load(Ordering::Acquire) > 0
}

/// Calls waiting for JavaScript, by id.
static CALLS: LazyLock<Mutex<HashMap<u32, mpsc::Sender<Reply>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

fn lock_calls() -> std::sync::MutexGuard<'static, HashMap<u32, mpsc::Sender<Reply>>> {
    CALLS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Forgets a call when its command returns, however it returns.
struct Pending(u32);

impl Drop for Pending {
    fn drop(&mut self) {
        lock_calls().remove(&self.0);
        IN_FLIGHT.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Sends `reply` to call `id`; false if the call is over (cancelled, timed out).
fn send(id: u32, reply: Reply) -> bool {
    let tx = lock_calls().get(&id).cloned();
    tx.is_some_and(|tx| tx.send(reply).is_ok())
}

/// Runs a custom command's `ctx.exec` through the calling command's host.
fn run_sub(ctx: &mut Ctx, sub: &SubCall) -> SubOutcome {
    let argv = ["bash", "-c", sub.command.as_str()].map(str::to_owned);
    let mut env: BTreeMap<String, String> = ctx.env.clone();
    env.extend(sub.env.iter().cloned());
    let cwd = sub.cwd.clone().unwrap_or_else(|| ctx.cwd.to_owned());
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut input = sub.stdin.as_slice();
    let status = ctx.host.run_env_in(
        &argv,
        &env,
        &cwd,
        Stdio::Given(&mut input),
        Stdio::Given(&mut out),
        Stdio::Given(&mut err),
    );
    match status {
        Ok(code) => Ok((code, out, err)),
        Err(e) => Err(e.to_string()),
    }
}

/// Answers call `id`: the command ends with `exitCode` after writing its output.
/// Returns false when the call is no longer waiting.
#[napi]
pub fn command_done(id: u32, exit_code: i32, stdout: Buffer, stderr: Buffer) -> bool {
    send(
        id,
        Reply::Done {
            exit_code,
            stdout: stdout.to_vec(),
            stderr: stderr.to_vec(),
        },
    )
}

/// Answers call `id` with a failure: the command prints `message` and ends with 1.
#[napi]
pub fn command_failed(id: u32, message: String) -> bool {
    send(id, Reply::Failed(message))
}

/// Runs `command` (a shell command line) for call `id`, while it waits.
#[napi]
pub fn command_exec<'env>(
    env: &'env Env,
    id: u32,
    command: String,
    stdin: Buffer,
    cwd: Option<String>,
    vars: Option<HashMap<String, String>>,
) -> napi::Result<PromiseRaw<'env, SubResult>> {
    let (reply, answer) = tokio::sync::oneshot::channel();
    let sub = SubCall {
        command,
        stdin: stdin.to_vec(),
        cwd,
        env: vars.map(|v| v.into_iter().collect()).unwrap_or_default(),
        reply,
    };
    let sent = send(id, Reply::Exec(sub));
    env.spawn_future(async move {
        if !sent {
            return Err(crate::error("ECANCELED", "the command has already ended"));
        }
        match answer.await {
            Ok(Ok((exit_code, stdout, stderr))) => Ok(SubResult {
                stdout: stdout.into(),
                stderr: stderr.into(),
                exit_code,
            }),
            Ok(Err(message)) => Err(crate::error("EEXEC", message)),
            Err(_) => Err(crate::error("ECANCELED", "the command has already ended")),
        }
    })
}
