//! Processes without processes: a command runs as a fresh interpreter on its own thread
//! over the session's shared filesystem, with a cancellation flag (the run's `Budget`
//! checks it at every command and loop iteration) and an exit cell that both blocking
//! and async callers can wait on. Output goes to sinks: an in-memory capture, a channel
//! (for `spawn`'s streams), or a buffer that can move to files (for the `bash` tool).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::{Notify, mpsc};

use crate::commands::Registry;
use crate::fs::SharedFs;
use crate::interp::Stopped;
use crate::interp::io::{Cap, Capped, OpenFile};
use crate::limits::{Budget, Limits};

/// The status of a command ended by cancellation (as if by SIGTERM).
pub const TERMINATED: i32 = 143;

/// The status of a command abandoned because shellbox itself failed (a bug; the
/// message is on the command's stderr). 70 is `EX_SOFTWARE` of `sysexits.h`.
pub const INTERNAL_ERROR: i32 = 70;

/// First pid a sandbox hands its processes (a [`crate::Shell`]'s start at 4242).
/// Each sandbox counts from here in its own process table.
pub(crate) const FIRST_PID: u32 = 7000;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Where a finished command's status appears, with what else the run left: its
/// variables (when asked for) and why it was stopped, if it was.
#[derive(Debug, Default)]
pub(crate) struct ExitCell {
    status: Mutex<Option<i32>>,
    outcome: Mutex<Outcome>,
    cv: Condvar,
    notify: Notify,
}

/// What a finished run leaves besides its status.
#[derive(Clone, Debug, Default)]
pub(crate) struct Outcome {
    pub(crate) env: Option<BTreeMap<String, String>>,
    pub(crate) stopped: Option<Stopped>,
}

impl ExitCell {
    /// Publishes the status (the first one set stays).
    fn set(&self, code: i32, outcome: Outcome) {
        let mut status = lock(&self.status);
        if status.is_some() {
            return;
        }
        *lock(&self.outcome) = outcome;
        *status = Some(code);
        drop(status);
        self.cv.notify_all();
        self.notify.notify_waiters();
    }

    /// What the run left besides its status (empty until it has ended).
    pub(crate) fn outcome(&self) -> Outcome {
        lock(&self.outcome).clone()
    }

    /// The status, if the command has ended.
    pub(crate) fn get(&self) -> Option<i32> {
        *lock(&self.status)
    }

    /// Blocks until the command ends or `timeout` passes (`None`: no timeout).
    pub(crate) fn wait_timeout(&self, timeout: Option<Duration>) -> Option<i32> {
        let mut g = lock(&self.status);
        let deadline = timeout.map(|t| std::time::Instant::now() + t);
        loop {
            if let Some(code) = *g {
                return Some(code);
            }
            g = match deadline {
                None => self.cv.wait(g).unwrap_or_else(|e| e.into_inner()),
                Some(d) => {
                    let left = d.checked_duration_since(std::time::Instant::now())?;
                    self.cv
                        .wait_timeout(g, left)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
            };
        }
    }

    /// Waits for the command to end.
    ///
    /// Cancel safety: dropping the future only stops waiting.
    pub(crate) async fn wait(&self) -> i32 {
        loop {
            let mut notified = std::pin::pin!(self.notify.notified());
            notified.as_mut().enable();
            if let Some(code) = self.get() {
                return code;
            }
            notified.await;
        }
    }
}

/// A running (or finished) command: its pid, cancellation flag and exit cell, and
/// the cell set once the jobs it left running have ended too.
#[derive(Clone, Debug)]
pub(crate) struct Proc {
    pub(crate) pid: u32,
    pub(crate) cancel: Arc<AtomicBool>,
    pub(crate) exit: Arc<ExitCell>,
    pub(crate) finished: Arc<ExitCell>,
}

impl Proc {
    pub(crate) fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// Sets a cancellation flag when dropped, unless disarmed: ties a command's life to a
/// future, so dropping or aborting the future stops the command.
pub(crate) struct CancelOnDrop(Option<Arc<AtomicBool>>);

impl CancelOnDrop {
    pub(crate) fn new(flag: Arc<AtomicBool>) -> CancelOnDrop {
        CancelOnDrop(Some(flag))
    }
    pub(crate) fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(flag) = &self.0 {
            flag.store(true, Ordering::Relaxed);
        }
    }
}

/// Everything a command needs to start.
pub(crate) struct Launch {
    pub(crate) fs: SharedFs,
    pub(crate) registry: Arc<Registry>,
    pub(crate) limits: Limits,
    pub(crate) cwd: String,
    pub(crate) env: Vec<(String, String)>,
    pub(crate) command: String,
    pub(crate) args: Vec<String>,
    pub(crate) capture_env: bool,
    pub(crate) cancel: Arc<AtomicBool>,
    pub(crate) stdin: Arc<OpenFile>,
    pub(crate) stdout: Arc<OpenFile>,
    pub(crate) stderr: Arc<OpenFile>,
    /// Called on the command's thread once its status is published.
    pub(crate) on_exit: Option<Box<dyn FnOnce() + Send>>,
    /// The shell's process, already in the session's table.
    pub(crate) process: crate::interp::procs::Process,
    /// The status is known as soon as the shell exits, while jobs it left running go
    /// on writing to its streams (a spawned process); otherwise the run ends when they
    /// do too.
    pub(crate) status_first: bool,
}

/// Starts a command on a thread of the interpreter's pool. The interpreter (and with it
/// the output sinks) is dropped before the exit status is published, so streams end
/// before `wait` returns. A panic in shellbox ends the command with
/// [`INTERNAL_ERROR`] and a message on its stderr instead of taking the host down.
pub(crate) fn launch(l: Launch) -> io::Result<Proc> {
    let cancel = l.cancel.clone();
    let exit = Arc::new(ExitCell::default());
    let finished = Arc::new(ExitCell::default());
    let proc = Proc {
        pid: l.process.pid(),
        cancel: cancel.clone(),
        exit: exit.clone(),
        finished: finished.clone(),
    };
    let (fs, stderr) = (l.fs.clone(), l.stderr.clone());
    let mut l = l;
    let on_exit = l.on_exit.take();
    let published = exit.clone();
    crate::interp::pool::spawn(move || {
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(l, &published)));
        let (code, outcome) = ran.unwrap_or_else(|panic| {
            let msg = super::panic_message(panic.as_ref());
            let line = format!("shellbox: internal error: {msg}\n");
            let _ = stderr.write_all(&fs, line.as_bytes(), &AtomicBool::new(false));
            let stopped = Some(Stopped::Internal(msg));
            let outcome = Outcome { env: None, stopped };
            (INTERNAL_ERROR, outcome)
        });
        drop(stderr);
        exit.set(code, outcome.clone());
        finished.set(code, outcome);
        if let Some(f) = on_exit {
            f();
        }
    })?;
    Ok(proc)
}

/// Runs a launched command to its end on this thread (publishing its status on
/// `exit` early when it is to come first).
fn run(l: Launch, exit: &ExitCell) -> (i32, Outcome) {
    let budget = Budget::new(l.limits, l.cancel.clone());
    let mut interp = super::new_interp(l.fs, l.registry, budget.clone(), &l.cwd, &l.env, l.process);
    interp.set_stdio(l.stdin, l.stdout, l.stderr);
    if !l.args.is_empty() {
        interp.extra_args = Some(Arc::new(Mutex::new(Some(l.args))));
    }
    let mut code = interp.run_script(&l.command);
    let env = l.capture_env.then(|| super::shell_vars(&interp));
    let outcome = |code: &mut i32, env| {
        let stopped = super::stopped_by(&budget);
        // A limit also raises the cancel flag (to stop every fork); only a real
        // cancellation is a termination.
        if stopped == Some(Stopped::Cancelled) && *code == 126 {
            *code = TERMINATED;
        }
        Outcome { env, stopped }
    };
    if l.status_first {
        let out = outcome(&mut code, env.clone());
        // The shell's process has exited: it leaves the table, and its descriptors
        // close (its streams end once the jobs still writing to them are done).
        interp.proc.leave();
        interp.fds = Default::default();
        exit.set(code, out);
    }
    code = interp.finish_run(code);
    drop(interp);
    let out = outcome(&mut code, env);
    (code, out)
}

/// A sink that forwards output to a channel (a spawned process's stdout or stderr), up
/// to `limit` bytes in all. Output nobody reads any more is dropped.
pub(crate) struct ChannelSink {
    tx: mpsc::UnboundedSender<Vec<u8>>,
}

impl ChannelSink {
    /// A sink and the receiving end of its channel.
    pub(crate) fn pair(limit: u64) -> (OpenFile, mpsc::UnboundedReceiver<Vec<u8>>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let sink = Capped::new(ChannelSink { tx }, limit);
        (OpenFile::HostOut(Mutex::new(Box::new(sink))), rx)
    }
}

impl Write for ChannelSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // A closed receiver means nobody reads the stream any more.
        let _ = self.tx.send(buf.to_vec());
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Output of a `bash` tool command: kept in memory (up to `limit` bytes) until the
/// command is moved to the background, then appended to a file in the filesystem.
#[derive(Debug)]
pub(crate) struct JobOutput {
    state: Mutex<JobState>,
}

#[derive(Debug)]
struct JobState {
    buf: Vec<u8>,
    /// The cap on `buf`; a file takes the filesystem's limits instead.
    cap: Cap,
    file: Option<(SharedFs, String)>,
}

impl JobOutput {
    pub(crate) fn new(limit: u64) -> Arc<JobOutput> {
        Arc::new(JobOutput {
            state: Mutex::new(JobState {
                buf: Vec::new(),
                cap: Cap::new(limit),
                file: None,
            }),
        })
    }

    /// The sink the interpreter writes to.
    pub(crate) fn sink(self: &Arc<Self>) -> Arc<OpenFile> {
        Arc::new(OpenFile::HostOut(Mutex::new(Box::new(JobWriter(
            self.clone(),
        )))))
    }

    /// What was written so far (while in memory).
    pub(crate) fn take(&self) -> Vec<u8> {
        std::mem::take(&mut lock(&self.state).buf)
    }

    /// Moves the output to file `path` (created with what was written so far) and
    /// returns a copy of what was written so far.
    pub(crate) fn move_to_file(&self, fs: &SharedFs, path: &str) -> Vec<u8> {
        let mut st = lock(&self.state);
        let so_far = std::mem::take(&mut st.buf);
        // A failure (the directory is gone, the filesystem is full) loses the output,
        // not the command.
        let _ = fs.lock().write_file(path, &so_far);
        st.file = Some((fs.clone(), path.to_owned()));
        so_far
    }
}

struct JobWriter(Arc<JobOutput>);

impl Write for JobWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut st = lock(&self.0.state);
        match &st.file {
            Some((fs, path)) => {
                // A removed file takes the output nowhere, as an unlinked file would; a
                // refusal (a limit, a full filesystem) is the command's write error.
                match fs.lock().append_file(path, buf) {
                    Err(e) if e.errno != crate::fs::Errno::ENOENT => return Err(e.into()),
                    _ => {}
                }
            }
            None => {
                st.cap.admit(buf.len())?;
                st.buf.extend_from_slice(buf);
            }
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
