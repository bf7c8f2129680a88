//! Parked threads for pipeline stages. Every stage but the last runs on a thread of
//! its own (stages must run concurrently: `yes | head -n1`); starting a fresh OS
//! thread per stage cost a clone, an 8 MiB stack mapping and its release each time,
//! which dominated loops of short pipelines. A finished stage's thread parks here and
//! takes the next stage instead.

use std::panic::AssertUnwindSafe;
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

type Job = Box<dyn FnOnce() + Send + 'static>;

/// Idle workers, each reachable through the sender of its job queue.
static IDLE: Mutex<Vec<Sender<Job>>> = Mutex::new(Vec::new());

/// Parked threads kept at most; more finish when their stage does.
const MAX_IDLE: usize = 8;

/// Stack size of every thread a run starts (pipeline stages, background jobs,
/// coprocesses, process substitutions). Small, so that `max_threads` of them fit in
/// a modest address space (512 × 2 MiB = 1 GiB reserved, touched only as used): deep
/// recursion does not need it larger, because the interpreter grows its stack on the
/// heap as it nests (`stacker::maybe_grow` in `exec_command`, the parser and
/// arithmetic).
pub const STACK: usize = 2 << 20;

/// The limit error for a thread the host refused to start: the run is over as if
/// `max_threads` had been reached, never an abort.
pub fn refused(what: &str, max_threads: usize, e: &std::io::Error) -> String {
    format!(
        "concurrent pipeline stage and job limit exceeded ({max_threads} threads): cannot start {what}: {e}"
    )
}

/// The result of a stage started with [`spawn`].
pub struct StageHandle<T>(Receiver<std::thread::Result<T>>);

impl<T> StageHandle<T> {
    /// Waits for the stage; `Err` if it panicked. (The caller marks its lane blocked
    /// on the stage's, see `crate::fs::blocked_on`.)
    pub fn join(self) -> std::thread::Result<T> {
        match self.0.recv() {
            Ok(r) => r,
            Err(_) => Err(Box::new("pipeline stage lost") as Box<dyn std::any::Any + Send>),
        }
    }
}

/// Runs `f` on a parked stage thread, or on a new one if none is idle.
pub fn spawn<T, F>(f: F) -> std::io::Result<StageHandle<T>>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let (tx, rx) = mpsc::sync_channel(1);
    let mut job: Job = Box::new(move || {
        let r = std::panic::catch_unwind(AssertUnwindSafe(f));
        let _ = tx.send(r);
    });
    loop {
        let worker = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let Some(worker) = worker else { break };
        match worker.send(job) {
            Ok(()) => return Ok(StageHandle(rx)),
            // That worker has gone; try the next.
            Err(mpsc::SendError(j)) => job = j,
        }
    }
    let (wtx, wrx) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("shellbox-stage".into())
        .stack_size(STACK)
        .spawn(move || {
            job();
            worker(wtx, wrx)
        })?;
    Ok(StageHandle(rx))
}

/// A stage thread between stages: parks itself as idle, then runs what it is sent.
fn worker(me: Sender<Job>, jobs: Receiver<Job>) {
    loop {
        {
            let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
            if idle.len() >= MAX_IDLE {
                return;
            }
            idle.push(me.clone());
        }
        match next_job(&jobs) {
            Some(job) => job(),
            None => return,
        }
    }
}

/// How long a worker that just finished looks for its next job before it sleeps.
/// Waking a sleeping thread costs a futex call on each side and the scheduler's
/// latency, more than a short command takes; a caller that runs one command after
/// another (a loop of pipelines, an embedder's stream of short scripts) finds the
/// worker still awake.
const LINGER: Duration = Duration::from_micros(50);

/// The next job sent to a parked worker: looked for during [`LINGER`], then waited
/// for; `None` when the pool has let the worker go.
fn next_job(jobs: &Receiver<Job>) -> Option<Job> {
    let mut job = None;
    let mut gone = false;
    linger(LINGER, || match jobs.try_recv() {
        Ok(j) => {
            job = Some(j);
            true
        }
        Err(TryRecvError::Disconnected) => {
            gone = true;
            true
        }
        Err(TryRecvError::Empty) => false,
    });
    match job {
        Some(j) => Some(j),
        None if gone => None,
        None => jobs.recv().ok(),
    }
}

/// Calls `ready` until it says yes or `limit` has passed, without sleeping: for a
/// wait expected to be shorter than putting a thread to sleep and waking it again.
/// Every few turns it yields the processor, so on a busy machine the waiter does not
/// keep the thread it waits for (or anyone else) off the cores: spinning without
/// yielding made `exec('echo hi')` seven times slower with two builds running.
/// Whether `ready` said yes.
pub fn linger(limit: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    loop {
        for _ in 0..32 {
            if ready() {
                return true;
            }
            std::hint::spin_loop();
        }
        if start.elapsed() >= limit {
            return false;
        }
        std::thread::yield_now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linger_stops_when_ready_or_when_time_is_up() {
        let mut calls = 0;
        assert!(linger(Duration::from_secs(5), || {
            calls += 1;
            calls == 100
        }));
        assert_eq!(calls, 100);
        let start = Instant::now();
        assert!(!linger(Duration::from_millis(2), || false));
        assert!(start.elapsed() >= Duration::from_millis(2));
    }

    #[test]
    fn a_parked_worker_takes_the_next_stage() {
        for i in 0..50 {
            let got = spawn(move || i * 2)
                .and_then(|h| h.join().map_err(|_| std::io::Error::other("panicked")));
            assert_eq!(got.ok(), Some(i * 2));
        }
    }
}
