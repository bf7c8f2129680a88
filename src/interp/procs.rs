//! The processes of a session: every shell (a top-level shell, a subshell, a job, a
//! child `bash`) and every utility while it runs, over one filesystem, each with a pid,
//! a parent, a process group, a name and a mailbox of pending signals. `kill`, `wait`,
//! `ps`, `pgrep` and `pkill` look here, so a `kill` in one run reaches a shell another
//! run started (bash manual, "Job Control Basics" and "Signals"; kill(2)).
//!
//! Signals are delivered in-process: a signal sets a bit in the target's mailbox; a
//! shell acts on it at its next check point (every command and loop iteration, a
//! `wait`), and a sleep, a pipe or a `wait` that a fatal signal interrupts ends at
//! once. Standard signals do not queue: one sent twice before it is handled is
//! handled once.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI32, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// Pids go up to Linux's default `pid_max` on 64-bit machines, then start again here.
const PID_MAX: u32 = 4_194_304;
const PID_WRAP: u32 = 300;

/// The first pid of a session (its first shell's `$$`).
pub const FIRST_PID: u32 = 4242;

/// The parent pid of a session's top-level shells: the sandbox's own process, which
/// `ps` does not list.
pub const OUTSIDE_PID: u32 = 4241;

/// Processes a session may have at once.
pub const MAX_PROCS: usize = 65_536;

pub const SIGHUP: i32 = 1;
pub const SIGINT: i32 = 2;
pub const SIGQUIT: i32 = 3;
pub const SIGKILL: i32 = 9;
pub const SIGTERM: i32 = 15;

/// Signals whose default action is to do nothing (CHLD, CONT, URG, WINCH), and the
/// stop signals (STOP, TSTP, TTIN, TTOU): a sandbox has no terminal, so every process
/// group is orphaned and the kernel discards those for it.
const DEFAULT_IGNORED: u64 =
    bit(17) | bit(18) | bit(19) | bit(20) | bit(21) | bit(22) | bit(23) | bit(28);

/// The mask bit of signal `sig` (0 for a number out of range).
pub const fn bit(sig: i32) -> u64 {
    if sig >= 1 && sig <= 64 {
        1 << (sig - 1)
    } else {
        0
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What a process is, for how it takes signals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A shell started as a program (a run's shell, `bash -c`, a script): it ignores
    /// SIGQUIT, as bash does.
    Shell,
    /// A forked copy of a shell (`( )`, a job, a pipeline stage, `$( )`).
    Subshell,
    /// A utility while it runs (`sleep`, `cat`): default dispositions, except what it
    /// inherited ignored.
    Utility,
}

/// A process's pending signals and how it takes them.
#[derive(Debug)]
pub struct Mailbox {
    kind: Mutex<Kind>,
    pending: AtomicU64,
    /// Virtual time (nanoseconds) the latest pending signal was sent at.
    sent_at: AtomicI64,
    /// Signals with a trap action.
    caught: AtomicU64,
    /// Signals ignored (`trap ''`, or inherited ignored).
    ignored: AtomicU64,
    /// The process this one runs inside of on the same thread (a `( )` subshell's
    /// shell, a utility's shell): while that one is being killed, so is this one.
    host: Option<Arc<Mailbox>>,
    /// The signal that ended the process, once one did.
    died_of: AtomicI32,
    /// The lane the process runs on, so a signal can cut a wait or sleep short
    /// in the order of sleeps at once (see `crate::fs::Waker`).
    lane: Mutex<Option<crate::fs::Waker>>,
    /// In a wait that a trapped signal ends (`wait`).
    interruptible: std::sync::atomic::AtomicBool,
}

impl Mailbox {
    fn new(kind: Kind, host: Option<Arc<Mailbox>>, ignored: u64) -> Mailbox {
        Mailbox {
            kind: Mutex::new(kind),
            pending: AtomicU64::new(0),
            sent_at: AtomicI64::new(i64::MIN),
            caught: AtomicU64::new(0),
            ignored: AtomicU64::new(ignored),
            host,
            died_of: AtomicI32::new(0),
            lane: Mutex::new(crate::fs::current_waker()),
            interruptible: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// The process becomes a program of `kind` (a subshell that runs `bash`).
    pub fn set_kind(&self, kind: Kind) {
        *lock(&self.kind) = kind;
    }

    /// The process runs on the calling thread's lane from now on (a job's thread).
    pub fn run_here(&self) {
        *lock(&self.lane) = crate::fs::current_waker();
    }

    /// Marks the process as in a wait that trapped signals end, until the guard drops.
    pub fn interruptible(self: &Arc<Self>) -> Interruptible {
        self.interruptible.store(true, Ordering::SeqCst);
        Interruptible(self.clone())
    }

    /// After a signal was posted: wakes the process's lane if the signal cuts short
    /// what it waits for.
    fn wake_for(&self, sig: i32, at: i64) {
        let fatal = self.is_fatal(sig);
        let caught = self.caught.load(Ordering::SeqCst) & bit(sig) != 0;
        if (fatal || (caught && self.interruptible.load(Ordering::SeqCst)))
            && let Some(w) = lock(&self.lane).as_ref()
        {
            w.interrupt(at);
        }
    }

    /// Signals that would end the process by their default action.
    fn fatal_mask(&self) -> u64 {
        let mut spared = DEFAULT_IGNORED
            | self.caught.load(Ordering::SeqCst)
            | self.ignored.load(Ordering::SeqCst);
        if *lock(&self.kind) == Kind::Shell {
            spared |= bit(SIGQUIT);
        }
        !spared
    }

    /// Whether `sig`, untrapped, ends this process.
    pub fn is_fatal(&self, sig: i32) -> bool {
        self.fatal_mask() & bit(sig) != 0
    }

    /// Whether sending `sig` would do anything at all (a fatal or caught signal).
    fn takes(&self, sig: i32) -> bool {
        (self.caught.load(Ordering::SeqCst) | self.fatal_mask()) & bit(sig) != 0
    }

    fn post(&self, sig: i32, at: i64) {
        self.sent_at.fetch_max(at, Ordering::SeqCst);
        self.pending.fetch_or(bit(sig), Ordering::SeqCst);
    }

    /// The lowest pending signal that ends this process, if any.
    pub fn fatal_pending(&self) -> Option<i32> {
        // Nothing pending is the usual answer, and the mask takes a lock: utilities
        // ask this every few hundred lines.
        let pending = self.pending.load(Ordering::SeqCst);
        if pending == 0 {
            return None;
        }
        lowest(pending & self.fatal_mask())
    }

    /// The fatal signal pending for this process or one it runs inside of, with the
    /// virtual time it was sent at: what ends a sleep, a pipe wait or a command early.
    pub fn interrupted(&self) -> Option<(i32, i64)> {
        let mut m = Some(self);
        while let Some(mb) = m {
            if let Some(sig) = mb.fatal_pending() {
                return Some((sig, mb.sent_at.load(Ordering::SeqCst)));
            }
            m = mb.host.as_deref();
        }
        None
    }

    /// When the latest signal was sent (virtual nanoseconds), if one was.
    pub fn sent_at(&self) -> Option<i64> {
        Some(self.sent_at.load(Ordering::SeqCst)).filter(|&t| t != i64::MIN)
    }

    /// Whether any signal is pending.
    pub fn any_pending(&self) -> bool {
        self.pending.load(Ordering::Relaxed) != 0
    }

    /// Caught signals pending (a `wait` they interrupt returns early).
    pub fn caught_pending(&self) -> Option<i32> {
        lowest(self.pending.load(Ordering::SeqCst) & self.caught.load(Ordering::SeqCst))
    }

    /// Takes every pending signal, lowest number first.
    pub fn take_all(&self) -> Vec<i32> {
        let p = self.pending.swap(0, Ordering::SeqCst);
        (1..=64).filter(|&s| p & bit(s) != 0).collect()
    }

    /// Sets the signals this process catches and ignores (after `trap`).
    pub fn set_dispositions(&self, caught: u64, ignored: u64) {
        self.caught.store(caught, Ordering::SeqCst);
        self.ignored.store(ignored, Ordering::SeqCst);
    }

    /// The signals this process ignores.
    pub fn ignored(&self) -> u64 {
        self.ignored.load(Ordering::SeqCst)
    }

    /// Records that the process is ending because of `sig`.
    pub fn set_died_of(&self, sig: i32) {
        let _ = self
            .died_of
            .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// The signal that ended the process, if one did.
    pub fn died_of(&self) -> Option<i32> {
        match self.died_of.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s),
        }
    }
}

/// A process in a wait that trapped signals end (see [`Mailbox::interruptible`]).
#[must_use]
pub struct Interruptible(Arc<Mailbox>);

impl Drop for Interruptible {
    fn drop(&mut self) {
        self.0.interruptible.store(false, Ordering::SeqCst);
    }
}

fn lowest(mask: u64) -> Option<i32> {
    (mask != 0).then(|| mask.trailing_zeros() as i32 + 1)
}

/// One row of the process table, as `ps` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcInfo {
    pub pid: u32,
    pub ppid: u32,
    pub pgid: u32,
    pub sid: u32,
    /// The command name (`bash`, `sleep`).
    pub comm: String,
    /// The command line.
    pub args: String,
    /// Virtual time it started, in seconds.
    pub start: i64,
}

#[derive(Debug)]
struct Entry {
    info: ProcInfo,
    mailbox: Arc<Mailbox>,
}

#[derive(Debug)]
struct TableState {
    procs: BTreeMap<u32, Entry>,
    next: u32,
}

/// The processes of one session (see the module docs). Shared by every shell of a
/// [`crate::Shell`] or [`crate::Sandbox`].
#[derive(Debug)]
pub struct ProcTable {
    state: Mutex<TableState>,
    /// Notified when a process ends or a signal is sent.
    changed: Condvar,
    /// Threads in [`ProcTable::wait_change`]: a notification is a system call even
    /// with nobody waiting, and every pipeline stage's end would pay it.
    watchers: std::sync::atomic::AtomicUsize,
}

/// Where a signal goes: a pid, or every process of a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Pid(u32),
    Group(u32),
    /// Every process but the sender (`kill -1`).
    All,
}

impl Default for ProcTable {
    fn default() -> ProcTable {
        ProcTable {
            state: Mutex::new(TableState {
                procs: BTreeMap::new(),
                next: FIRST_PID,
            }),
            changed: Condvar::new(),
            watchers: std::sync::atomic::AtomicUsize::new(0),
        }
    }
}

/// How a new process starts.
#[derive(Clone, Debug)]
pub struct Spawn {
    pub ppid: u32,
    /// `None`: a group of its own.
    pub pgid: Option<u32>,
    pub sid: Option<u32>,
    pub kind: Kind,
    pub comm: String,
    pub args: String,
    pub start: i64,
    /// The mailbox of the process this one runs inside of on the same thread.
    pub host: Option<Arc<Mailbox>>,
    pub ignored: u64,
}

impl ProcTable {
    pub fn new() -> Arc<ProcTable> {
        Arc::new(ProcTable::default())
    }

    /// A table whose first process gets pid `first` (a sandbox's go on from where
    /// the stored session's left off).
    pub fn starting_at(first: u32) -> Arc<ProcTable> {
        let table = ProcTable::default();
        lock(&table.state).next = first.clamp(2, PID_MAX - 1);
        Arc::new(table)
    }

    /// The pid the next process would get if it is free.
    pub fn next_pid(&self) -> u32 {
        lock(&self.state).next
    }

    /// Adds a process; it leaves the table when the handle is dropped. `None` when the
    /// table is full.
    pub fn spawn(self: &Arc<Self>, s: Spawn) -> Option<Process> {
        if lock(&self.state).procs.len() >= MAX_PROCS {
            return None;
        }
        Some(self.spawn_top(s))
    }

    /// Adds a top-level process (a run's shell), whatever the table holds: the limit
    /// is for what scripts start.
    pub fn spawn_top(self: &Arc<Self>, s: Spawn) -> Process {
        let mut st = lock(&self.state);
        let mut pid = st.next;
        while st.procs.contains_key(&pid) {
            pid = if pid + 1 >= PID_MAX {
                PID_WRAP
            } else {
                pid + 1
            };
        }
        st.next = if pid + 1 >= PID_MAX {
            PID_WRAP
        } else {
            pid + 1
        };
        let mailbox = Arc::new(Mailbox::new(s.kind, s.host, s.ignored));
        let info = ProcInfo {
            pid,
            ppid: s.ppid,
            pgid: s.pgid.unwrap_or(pid),
            sid: s.sid.unwrap_or(pid),
            comm: s.comm,
            args: s.args,
            start: s.start,
        };
        st.procs.insert(
            pid,
            Entry {
                info,
                mailbox: mailbox.clone(),
            },
        );
        Process {
            table: self.clone(),
            pid,
            mailbox,
            listed: std::sync::atomic::AtomicBool::new(true),
        }
    }

    /// The processes running now, by pid.
    pub fn list(&self) -> Vec<ProcInfo> {
        lock(&self.state)
            .procs
            .values()
            .map(|e| e.info.clone())
            .collect()
    }

    /// The row of `pid`, if it runs.
    pub fn get(&self, pid: u32) -> Option<ProcInfo> {
        lock(&self.state).procs.get(&pid).map(|e| e.info.clone())
    }

    /// Sends `sig` (0: only check) from `sender` at virtual time `at`. `None` when
    /// nothing matched (ESRCH).
    pub fn signal(&self, target: Target, sig: i32, sender: u32, at: i64) -> Option<()> {
        let st = lock(&self.state);
        let matched: Vec<(&u32, &Entry)> = st
            .procs
            .iter()
            .filter(|(pid, e)| match target {
                Target::Pid(p) => **pid == p,
                Target::Group(g) => e.info.pgid == g,
                Target::All => **pid != sender,
            })
            .collect();
        if matched.is_empty() {
            return None;
        }
        if sig == 0 {
            return Some(());
        }
        for (_, e) in matched {
            if e.mailbox.takes(sig) {
                e.mailbox.post(sig, at);
                e.mailbox.wake_for(sig, at);
            }
        }
        drop(st);
        self.notify();
        Some(())
    }

    /// Wakes the threads in [`ProcTable::wait_change`], if there are any. (A watcher
    /// counts itself under the table's lock before it waits, and a change is made
    /// under that lock before this looks, so none is missed.)
    fn notify(&self) {
        if self.watchers.load(Ordering::SeqCst) > 0 {
            self.changed.notify_all();
        }
    }

    /// Waits at most `timeout` for a process to end or a signal to be sent.
    pub fn wait_change(&self, timeout: Duration) {
        let st = lock(&self.state);
        self.watchers.fetch_add(1, Ordering::SeqCst);
        let _ = self.changed.wait_timeout(st, timeout);
        self.watchers.fetch_sub(1, Ordering::SeqCst);
    }

    /// Takes `pid` out of the table; its children are left to the sandbox's init
    /// (pid 1), as orphans are.
    fn remove(&self, pid: u32) {
        let mut st = lock(&self.state);
        st.procs.remove(&pid);
        for e in st.procs.values_mut() {
            if e.info.ppid == pid {
                e.info.ppid = 1;
            }
        }
        drop(st);
        self.notify();
    }

    fn update(&self, pid: u32, f: impl FnOnce(&mut ProcInfo)) {
        if let Some(e) = lock(&self.state).procs.get_mut(&pid) {
            f(&mut e.info);
        }
    }
}

/// A new top-level shell in `table` (a run's shell: its own group and session, its
/// parent outside the sandbox), started at virtual time `start` (seconds), running
/// `args`.
pub fn top_level_shell(table: &Arc<ProcTable>, start: i64, args: &str) -> Process {
    table.spawn_top(Spawn {
        ppid: OUTSIDE_PID,
        pgid: None,
        sid: None,
        kind: Kind::Shell,
        comm: "bash".to_owned(),
        args: args.to_owned(),
        start,
        host: None,
        ignored: 0,
    })
}

/// A process in the table: it runs while this lives.
#[derive(Debug)]
pub struct Process {
    table: Arc<ProcTable>,
    pid: u32,
    mailbox: Arc<Mailbox>,
    /// Still in the table.
    listed: std::sync::atomic::AtomicBool,
}

impl Process {
    pub fn pid(&self) -> u32 {
        self.pid
    }
    pub fn mailbox(&self) -> &Arc<Mailbox> {
        &self.mailbox
    }
    pub fn table(&self) -> &Arc<ProcTable> {
        &self.table
    }
    /// Puts the process in group `pgid` (`set -m` jobs lead their own).
    pub fn set_pgid(&self, pgid: u32) {
        self.table.update(self.pid, |i| i.pgid = pgid);
    }
    /// Renames the process (a subshell that becomes the utility it runs).
    pub fn set_command(&self, comm: &str, args: &str) {
        self.table.update(self.pid, |i| {
            i.comm = comm.to_owned();
            i.args = args.to_owned();
        });
    }
    /// Its row in the table.
    pub fn info(&self) -> Option<ProcInfo> {
        self.table.get(self.pid)
    }
    /// Leaves the table now (the process has exited, though its shell object lives
    /// on while it waits for what it left running).
    pub fn leave(&self) {
        if self.listed.swap(false, Ordering::SeqCst) {
            self.table.remove(self.pid);
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.leave();
    }
}

thread_local! {
    /// The mailbox of the utility running on this thread, if one is.
    static UTILITY: std::cell::RefCell<Option<Arc<Mailbox>>> = const { std::cell::RefCell::new(None) };
}

/// Marks `mailbox` as the running utility's on this thread until dropped.
#[must_use]
pub struct UtilityGuard(Option<Arc<Mailbox>>);

impl Drop for UtilityGuard {
    fn drop(&mut self) {
        let prev = self.0.take();
        UTILITY.with(|u| *u.borrow_mut() = prev);
    }
}

/// Runs the calling thread as a utility with this mailbox until the guard drops.
pub fn enter_utility(mailbox: Arc<Mailbox>) -> UtilityGuard {
    UtilityGuard(UTILITY.with(|u| u.borrow_mut().replace(mailbox)))
}

/// The fatal signal the running utility got (its own, or its shell's), with the
/// virtual time it was sent at: blocking reads and writes and sleeps end on it.
pub fn utility_interrupted() -> Option<(i32, i64)> {
    UTILITY.with(|u| u.borrow().as_ref().and_then(|m| m.interrupted()))
}

/// What `timeout` asks of the command it runs (see [`arm`]).
#[derive(Clone, Copy, Debug)]
pub struct AlarmSpec {
    /// Time the command has, in nanoseconds (virtual time in its sleeps, real time
    /// while it computes).
    pub limit: i64,
    /// The signal sent when it is up.
    pub signal: i32,
    /// Sends KILL this long after the first signal if the command still runs.
    pub kill_after: Option<i64>,
    /// Signal the command's whole process group (timeout's default), not only the
    /// command (`--foreground`).
    pub whole_group: bool,
}

/// An armed alarm: where its signal goes and when it is due.
#[derive(Debug)]
struct Alarm {
    table: Arc<ProcTable>,
    sender: u32,
    target: Target,
    /// Virtual time (nanoseconds) the next signal is due at; `i64::MAX` once spent.
    at: i64,
    real: Option<std::time::Instant>,
    signal: i32,
    kill_after: Option<i64>,
    /// The signals sent so far.
    sent: Vec<i32>,
}

impl Alarm {
    /// Sends the due signal (at virtual time `at`) and sets up the KILL that may follow.
    fn fire(&mut self) {
        let at = self.at;
        let _ = self.table.signal(self.target, self.signal, self.sender, at);
        self.sent.push(self.signal);
        match self.kill_after.take() {
            Some(k) if k > 0 => {
                self.at = at.saturating_add(k);
                self.real =
                    std::time::Instant::now().checked_add(Duration::from_nanos(k.unsigned_abs()));
                self.signal = SIGKILL;
            }
            _ => {
                self.at = i64::MAX;
                self.real = None;
            }
        }
    }
}

thread_local! {
    /// Alarms armed by `timeout`s running on this thread, innermost last.
    static ALARMS: std::cell::RefCell<Vec<std::rc::Rc<std::cell::RefCell<Alarm>>>> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// Whether any alarm is armed on this thread (checked on every command).
    static ARMED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// An alarm armed on this thread until dropped; tells whether it went off.
#[must_use]
pub struct AlarmGuard(std::rc::Rc<std::cell::RefCell<Alarm>>);

impl AlarmGuard {
    /// The signals the alarm sent (its signal, then KILL if `kill_after` came).
    pub fn sent(&self) -> Vec<i32> {
        self.0.borrow().sent.clone()
    }
}

impl Drop for AlarmGuard {
    fn drop(&mut self) {
        ALARMS.with(|a| {
            let mut v = a.borrow_mut();
            v.retain(|x| !std::rc::Rc::ptr_eq(x, &self.0));
            ARMED.with(|f| f.set(!v.is_empty()));
        });
    }
}

/// Arms `spec` on the calling thread from virtual time `now` (nanoseconds): its
/// signal goes from `sender` to `target` when a sleep on this thread reaches
/// `now + limit`, or when a check point finds `limit` of real time gone.
pub fn arm(
    table: &Arc<ProcTable>,
    sender: u32,
    target: Target,
    now: i64,
    spec: &AlarmSpec,
) -> AlarmGuard {
    let alarm = std::rc::Rc::new(std::cell::RefCell::new(Alarm {
        table: table.clone(),
        sender,
        target,
        at: now.saturating_add(spec.limit),
        real: std::time::Instant::now()
            .checked_add(Duration::from_nanos(spec.limit.unsigned_abs())),
        signal: spec.signal,
        kill_after: spec.kill_after,
        sent: Vec::new(),
    }));
    ALARMS.with(|a| a.borrow_mut().push(alarm.clone()));
    ARMED.with(|f| f.set(true));
    AlarmGuard(alarm)
}

/// The earliest virtual time an alarm armed on this thread is due at, if it comes
/// before `until`.
pub fn next_alarm(until: i64) -> Option<i64> {
    if !ARMED.with(|f| f.get()) {
        return None;
    }
    ALARMS.with(|a| {
        a.borrow()
            .iter()
            .map(|x| x.borrow().at)
            .filter(|at| *at < until)
            .min()
    })
}

/// Sends the signals of the alarms due by virtual time `now` (a sleep got there).
pub fn fire_alarms_at(now: i64) {
    fire_alarms(|a| a.at <= now);
}

/// A check point: sends the signals of the alarms whose real time is up (a command
/// that computes rather than sleeps). Costs one thread-local read when none is armed.
pub fn poll_alarms() {
    if !ARMED.with(|f| f.get()) {
        return;
    }
    let now = std::time::Instant::now();
    fire_alarms(|a| a.real.is_some_and(|r| r <= now));
}

fn fire_alarms(due: impl Fn(&Alarm) -> bool) {
    let alarms: Vec<_> = ALARMS.with(|a| a.borrow().clone());
    for alarm in alarms {
        let mut a = alarm.borrow_mut();
        if due(&a) {
            a.fire();
        }
    }
}

/// The error a utility's I/O fails with once a signal ends it.
pub fn killed_error(sig: i32) -> std::io::Error {
    std::io::Error::other(Killed(sig))
}

/// The payload of [`killed_error`].
#[derive(Debug)]
pub struct Killed(pub i32);

impl std::fmt::Display for Killed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "killed by signal {}", self.0)
    }
}

impl std::error::Error for Killed {}

/// The signal inside an error from [`killed_error`], if it is one.
pub fn as_killed(e: &std::io::Error) -> Option<i32> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<Killed>())
        .map(|k| k.0)
}

/// Fails with [`killed_error`] if the running utility has been killed.
pub fn check_utility() -> std::io::Result<()> {
    poll_alarms();
    match utility_interrupted() {
        Some((sig, _)) => Err(killed_error(sig)),
        None => Ok(()),
    }
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;

    fn spawn(t: &Arc<ProcTable>, kind: Kind, pgid: Option<u32>) -> Process {
        t.spawn(Spawn {
            ppid: OUTSIDE_PID,
            pgid,
            sid: None,
            kind,
            comm: "bash".into(),
            args: "bash".into(),
            start: 0,
            host: None,
            ignored: 0,
        })
        .expect("room")
    }

    #[test]
    fn pids_count_up_and_leave_with_their_process() {
        let t = ProcTable::new();
        let a = spawn(&t, Kind::Shell, None);
        let b = spawn(&t, Kind::Subshell, Some(a.pid()));
        assert_eq!((a.pid(), b.pid()), (FIRST_PID, FIRST_PID + 1));
        assert_eq!(t.get(b.pid()).map(|i| i.pgid), Some(a.pid()));
        drop(b);
        assert!(t.get(FIRST_PID + 1).is_none());
        assert_eq!(spawn(&t, Kind::Shell, None).pid(), FIRST_PID + 2);
    }

    #[test]
    fn signals_follow_dispositions_and_do_not_queue() {
        let t = ProcTable::new();
        let sh = spawn(&t, Kind::Shell, None);
        let sub = spawn(&t, Kind::Subshell, Some(sh.pid()));
        // A shell ignores QUIT; a subshell dies of it.
        assert!(t.signal(Target::Group(sh.pid()), SIGQUIT, 0, 0).is_some());
        assert_eq!(sub.mailbox().fatal_pending(), Some(SIGQUIT));
        assert_eq!(sh.mailbox().fatal_pending(), None);
        sub.mailbox().take_all();
        sub.mailbox().set_dispositions(bit(10), 0);
        for _ in 0..2 {
            assert!(t.signal(Target::Pid(sub.pid()), 10, 0, 5).is_some());
        }
        assert_eq!(sub.mailbox().caught_pending(), Some(10));
        assert_eq!(sub.mailbox().take_all(), vec![10]);
        assert!(t.signal(Target::Pid(1), 0, 0, 0).is_none());
        assert!(t.signal(Target::Group(99), SIGTERM, 0, 0).is_none());
    }
}
