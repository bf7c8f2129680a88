//! The order in which concurrent lanes sleep: a conservative discrete-event schedule
//! over virtual time.
//!
//! Every thread that runs shell code on a [`Lane`](super::Lane) is a participant while
//! it is inside the lane. A participant is running, blocked (waiting on a pipe, a job,
//! the host) or sleeping until a virtual time. A sleep ends only once no running
//! participant is at or before the time it sleeps until, and no other sleeper would
//! wake first (ties go to the older lane). So `sleep 1; kill $job` reaches a job that
//! is in `sleep 5` while it still sleeps, and `(sleep 1; echo a) & (sleep 2; echo b) &`
//! prints `a` first, whatever the host's scheduler does, while a sleep with nobody else
//! to wait for still costs no real time.
//!
//! A participant that neither blocks nor sleeps holds sleepers back only so long: one
//! that shows no progress (commands, pipe traffic) for [`STALLED`] is taken to be
//! waiting somewhere this schedule cannot see, and after [`PATIENCE`] a sleeper wakes
//! anyway, so a busy loop cannot starve a watchdog (`(sleep 9; kill $$) & while :; do
//! :; done`) forever.
//!
//! Those bounds must not mistake a loaded host for a stuck participant: a thread the
//! host has not given a CPU for a while shows no progress either, and a sleeper that
//! passed it would end out of order (the flakes of `pkill` and `wait` fixtures under a
//! loaded test run). So where the host lets threads be looked at (Linux's `/proc`), a
//! participant whose thread is runnable, waiting for a CPU or on one, is never
//! stalled, and [`PATIENCE`] counts the CPU time the participants held back by spend,
//! not time on the wall ([`WALL_PATIENCE`] is what is left of that, for a host that
//! starves a thread for so long). A lane held for a job whose thread has not entered
//! it yet, and a blocked participant whose wait is over (a lane it waits for ended), are about to run
//! by construction: they are not stalled either.

use std::sync::atomic::{AtomicI64, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a running participant may show no progress before sleepers stop waiting
/// for it.
pub const STALLED: Duration = Duration::from_millis(400);

/// The longest a sleeper waits for participants that run on: CPU time they spend
/// where the host shows it, time on the wall elsewhere.
pub const PATIENCE: Duration = Duration::from_secs(3);

/// The longest a sleeper waits in real time when the host shows participants' CPU
/// time: what only a host that keeps a runnable thread off the CPUs that long reaches.
pub const WALL_PATIENCE: Duration = Duration::from_secs(60);

const RUNNING: u8 = 0;
const BLOCKED: u8 = 1;
const SLEEPING: u8 = 2;

/// One lane's place in the schedule.
#[derive(Debug)]
pub(crate) struct Part {
    /// Creation order: the older lane wakes first from sleeps that end together.
    id: u64,
    /// The lane's virtual time, in nanoseconds.
    pub(crate) time: AtomicI64,
    state: AtomicU8,
    /// While sleeping: the time the sleep ends.
    until: AtomicI64,
    /// Work done (commands run, bytes through pipes), for telling a busy participant
    /// from a stuck one.
    ticks: AtomicU64,
    /// Threads inside the lane; it takes part in the schedule while this is not zero.
    threads: AtomicUsize,
    /// Threads that entered the lane (not those that only hold it for a job about to
    /// start), and the host's ids of those whose state the host shows.
    entered: Mutex<(usize, Vec<u32>)>,
    /// While blocked waiting for other lanes' threads to end (a `wait`, a pipeline's
    /// stages): those lanes. Once one of them has ended this participant is about to
    /// run again, and counts as running.
    on: Mutex<Vec<Arc<Part>>>,
}

impl Part {
    pub(crate) fn tick(&self) {
        self.ticks.fetch_add(1, Ordering::Relaxed);
    }
}

/// The participants of one clock.
#[derive(Debug, Default)]
pub(crate) struct Sched {
    parts: Mutex<Vec<Arc<Part>>>,
    cv: Condvar,
    next_id: AtomicU64,
    /// Participants sleeping now: a change of state wakes them only when there are any.
    sleepers: AtomicUsize,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Sched {
    /// A new participant record starting at virtual time `nanos` (not yet taking part).
    pub(crate) fn part(&self, nanos: i64) -> Arc<Part> {
        Arc::new(Part {
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            time: AtomicI64::new(nanos),
            state: AtomicU8::new(RUNNING),
            until: AtomicI64::new(0),
            ticks: AtomicU64::new(0),
            threads: AtomicUsize::new(0),
            entered: Mutex::new((0, Vec::new())),
            on: Mutex::new(Vec::new()),
        })
    }

    /// A thread enters `part`'s lane.
    pub(crate) fn join(&self, part: &Arc<Part>) {
        if part.threads.fetch_add(1, Ordering::SeqCst) == 0 {
            part.state.store(RUNNING, Ordering::SeqCst);
            lock(&self.parts).push(part.clone());
        }
    }

    /// The calling thread enters `part`'s lane to run on it (see [`Sched::join`]).
    pub(crate) fn enter(&self, part: &Arc<Part>) {
        {
            let mut e = lock(&part.entered);
            e.0 += 1;
            if let Some(tid) = host_tid() {
                e.1.push(tid);
            }
        }
        self.join(part);
    }

    /// The calling thread leaves the lane it entered (see [`Sched::leave`]).
    pub(crate) fn exit(&self, part: &Arc<Part>) {
        {
            let mut e = lock(&part.entered);
            e.0 = e.0.saturating_sub(1);
            if let Some(tid) = host_tid()
                && let Some(i) = e.1.iter().position(|t| *t == tid)
            {
                e.1.swap_remove(i);
            }
        }
        self.leave(part);
    }

    /// A thread leaves `part`'s lane; the last one out takes it out of the schedule.
    pub(crate) fn leave(&self, part: &Arc<Part>) {
        if part.threads.fetch_sub(1, Ordering::SeqCst) == 1 {
            lock(&self.parts).retain(|p| !Arc::ptr_eq(p, part));
            self.wake();
        }
    }

    /// Wakes sleepers to look at the schedule again (a participant blocked or left, a
    /// signal was sent).
    pub(crate) fn wake(&self) {
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            let _g = lock(&self.parts);
            self.cv.notify_all();
        }
    }

    /// Marks `part` blocked until the guard is dropped; `on`: blocked until one of
    /// these lanes ends.
    pub(crate) fn block(self: &Arc<Self>, part: &Arc<Part>, on: Vec<Arc<Part>>) -> Blocked {
        *lock(&part.on) = on;
        let prev = part.state.swap(BLOCKED, Ordering::SeqCst);
        self.wake();
        Blocked {
            sched: self.clone(),
            part: part.clone(),
            prev,
        }
    }

    /// Sleeps `part` for `nanos` of virtual time (see the module docs). `interrupted`
    /// is asked on every look at the schedule; when it returns a virtual time the sleep
    /// ends there instead (not before the lane's own time, not after the sleep's end),
    /// in the same order as any sleep ending then, and that time is returned.
    pub(crate) fn sleep(
        &self,
        part: &Arc<Part>,
        nanos: i64,
        interrupted: &dyn Fn() -> Option<i64>,
    ) -> Option<i64> {
        let start = part.time.load(Ordering::SeqCst);
        let until = start.saturating_add(nanos.max(0));
        part.until.store(until, Ordering::SeqCst);
        part.state.store(SLEEPING, Ordering::SeqCst);
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        let began = Instant::now();
        let mut seen: u64 = u64::MAX;
        let mut progress = began;
        // The CPU time of the threads holding the sleep back, as first seen.
        let mut cpu_from: Vec<(u32, u64)> = Vec::new();
        let shown = host_tid().is_some();
        let mut parts = lock(&self.parts);
        self.cv.notify_all();
        let woke = loop {
            // An interrupted sleep ends at the signal's time, but still in turn: what
            // runs at that time goes first.
            let cut = interrupted().map(|t| t.clamp(start, until));
            let held = may_wake(&parts, part, cut.unwrap_or(until));
            let Some(held) = held else {
                break cut;
            };
            let now = Instant::now();
            if held.ticks != seen || held.live {
                seen = held.ticks;
                progress = now;
            }
            let out_of_patience = if shown {
                let mut spent = 0u64;
                for (tid, cpu) in held.cpu {
                    match cpu_from.iter().find(|(t, _)| *t == tid) {
                        Some((_, from)) => spent = spent.saturating_add(cpu.saturating_sub(*from)),
                        None => cpu_from.push((tid, cpu)),
                    }
                }
                spent >= cpu_ticks(PATIENCE) || now.duration_since(began) >= WALL_PATIENCE
            } else {
                now.duration_since(began) >= PATIENCE
            };
            if now.duration_since(progress) >= STALLED || out_of_patience {
                break cut;
            }
            parts = match self.cv.wait_timeout(parts, Duration::from_millis(20)) {
                Ok((g, _)) => g,
                Err(e) => e.into_inner().0,
            };
        };
        let end = woke.unwrap_or(until);
        part.time.fetch_max(end, Ordering::SeqCst);
        part.state.store(RUNNING, Ordering::SeqCst);
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
        self.cv.notify_all();
        drop(parts);
        woke
    }
}

/// What holds a sleeper back: the running participants it waits for.
struct Held {
    /// Their work counters, summed, to notice when they stop moving.
    ticks: u64,
    /// Whether one of them is sure to be moving (see the module docs).
    live: bool,
    /// The CPU time each of their threads has spent, in the host's clock ticks.
    cpu: Vec<(u32, u64)>,
}

/// What holds a sleeper on `me` until `until` back, or `None` when it may wake now.
fn may_wake(parts: &[Arc<Part>], me: &Arc<Part>, until: i64) -> Option<Held> {
    let mut ready = true;
    let mut held = Held {
        ticks: 0,
        live: false,
        cpu: Vec::new(),
    };
    let mut running = |p: &Arc<Part>, over: bool| {
        held.ticks = held
            .ticks
            .wrapping_add(p.ticks.load(Ordering::Relaxed))
            .wrapping_add(p.id);
        let entered = lock(&p.entered);
        held.live |= over || entered.0 == 0;
        for tid in &entered.1 {
            if let Some((runnable, cpu)) = host_thread(*tid) {
                held.live |= runnable;
                held.cpu.push((*tid, cpu));
            }
        }
    };
    for p in parts {
        if Arc::ptr_eq(p, me) {
            continue;
        }
        match p.state.load(Ordering::SeqCst) {
            RUNNING if p.time.load(Ordering::SeqCst) <= until => {
                ready = false;
                running(p, false);
            }
            SLEEPING => {
                let theirs = (p.until.load(Ordering::SeqCst), p.id);
                if theirs < (until, me.id) {
                    ready = false;
                }
            }
            BLOCKED if p.time.load(Ordering::SeqCst) <= until && woken(p) => {
                ready = false;
                running(p, true);
            }
            _ => {}
        }
    }
    (!ready).then_some(held)
}

/// The host's id of the calling thread, where the host shows threads' states.
fn host_tid() -> Option<u32> {
    thread_local! {
        static TID: Option<u32> = std::fs::read_link("/proc/thread-self")
            .ok()
            .and_then(|l| l.file_name()?.to_str()?.parse().ok());
    }
    TID.with(|t| *t)
}

/// Whether the host has thread `tid` of this process runnable (on a CPU or waiting
/// for one), and the CPU time it has spent in clock ticks; `None` where not shown.
fn host_thread(tid: u32) -> Option<(bool, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).ok()?;
    // The name in parentheses may hold anything; the fields after it are plain.
    let (_, rest) = stat.rsplit_once(')')?;
    let mut fields = rest.split_ascii_whitespace();
    let runnable = fields.next()? == "R";
    // Then ppid, pgrp, session, tty, tpgid, flags, minflt, cminflt, majflt, cmajflt,
    // and utime and stime.
    let mut times = fields.skip(10);
    let utime: u64 = times.next()?.parse().ok()?;
    let stime: u64 = times.next()?.parse().ok()?;
    Some((runnable, utime.saturating_add(stime)))
}

/// `d` in the clock ticks of [`host_thread`]'s CPU times (100 a second on Linux).
fn cpu_ticks(d: Duration) -> u64 {
    u64::try_from(d.as_millis() / 10).unwrap_or(u64::MAX)
}

/// Whether blocked participant `p` is about to run again: a lane it waits for has
/// ended.
fn woken(p: &Part) -> bool {
    lock(&p.on)
        .iter()
        .any(|q| q.threads.load(Ordering::SeqCst) == 0)
}

/// A participant marked blocked (see [`Sched::block`]); dropping it marks it running
/// again.
#[must_use]
pub struct Blocked {
    sched: Arc<Sched>,
    part: Arc<Part>,
    prev: u8,
}

impl Blocked {
    /// What wakes the blocked participant marks it running at once (new data in the
    /// pipe it waits on), before its thread gets to run.
    pub fn waker(&self) -> Waker {
        Waker(self.part.clone())
    }
}

/// Marks a blocked participant running (see [`Blocked::waker`]).
#[derive(Clone, Debug)]
pub struct Waker(Arc<Part>);

impl Waker {
    /// A handle on `part`'s place in the schedule.
    pub(crate) fn of(part: &Arc<Part>) -> Waker {
        Waker(part.clone())
    }
    /// A signal sent at virtual time `at` interrupts what the participant waits for:
    /// a blocked one counts as running from now, a sleeping one as waking at `at`.
    pub fn interrupt(&self, at: i64) {
        self.wake();
        if self.0.state.load(Ordering::SeqCst) == SLEEPING {
            self.0
                .until
                .fetch_min(at.max(self.0.time.load(Ordering::SeqCst)), Ordering::SeqCst);
        }
    }
    pub fn wake(&self) {
        let _ = self
            .0
            .state
            .compare_exchange(BLOCKED, RUNNING, Ordering::SeqCst, Ordering::SeqCst);
    }
    /// Whether this wakes the same participant as `other`.
    pub fn same(&self, other: &Waker) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Drop for Blocked {
    fn drop(&mut self) {
        lock(&self.part.on).clear();
        self.part.state.store(self.prev, Ordering::SeqCst);
        // Going back to sleeping (a block inside a sleep's check) can free others.
        if self.prev != RUNNING {
            self.sched.wake();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::{Clock, Lane, blocked_on};

    type Log = Arc<Mutex<Vec<&'static str>>>;

    /// Longer than [`STALLED`]: what a loaded host may keep a thread waiting.
    const DELAY: Duration = Duration::from_millis(700);

    /// A job on its own lane that sleeps five virtual seconds, then logs `b`.
    fn sleeper(clock: &Clock, log: &Log) -> std::thread::JoinHandle<()> {
        let (clock, log, lane) = (clock.clone(), log.clone(), clock.fork_lane());
        let held = lane.hold();
        std::thread::spawn(move || {
            let _on = lane.enter();
            drop(held);
            clock.sleep(5 * crate::fs::NANOS_PER_SEC, &|| None);
            lock(&log).push("b");
        })
    }

    fn order(log: &Log, jobs: Vec<std::thread::JoinHandle<()>>) -> Vec<&'static str> {
        for j in jobs {
            assert!(j.join().is_ok());
        }
        lock(log).clone()
    }

    #[test]
    fn a_thread_kept_off_the_cpu_is_not_passed() {
        // A participant at virtual time 0 that shows no progress while its thread is
        // runnable (spinning here, as one waiting for a CPU does) keeps the sleep back.
        let clock = Clock::virtual_at(0);
        let log = Log::default();
        let lane = clock.fork_lane();
        let held = lane.hold();
        let busy = {
            let log = log.clone();
            std::thread::spawn(move || {
                let _on = lane.enter();
                drop(held);
                let start = Instant::now();
                while start.elapsed() < DELAY {
                    std::hint::spin_loop();
                }
                lock(&log).push("a");
            })
        };
        let b = sleeper(&clock, &log);
        assert_eq!(order(&log, vec![busy, b]), ["a", "b"]);
    }

    #[test]
    fn a_job_whose_thread_has_not_started_is_not_passed() {
        // Between a job's fork and its thread entering the lane, the lane is held and
        // keeps sleeps back however long the host takes to start the thread.
        let clock = Clock::virtual_at(0);
        let log = Log::default();
        let lane = clock.fork_lane();
        let held = lane.hold();
        let b = sleeper(&clock, &log);
        std::thread::sleep(DELAY);
        let job = {
            let log = log.clone();
            std::thread::spawn(move || {
                let _on = lane.enter();
                drop(held);
                lock(&log).push("a");
            })
        };
        assert_eq!(order(&log, vec![job, b]), ["a", "b"]);
    }

    #[test]
    fn a_wait_that_is_over_is_not_passed() {
        // A participant whose wait for a job is over runs at the job's end, however
        // long its thread takes to notice.
        let clock = Clock::virtual_at(0);
        let log = Log::default();
        let job: Lane = clock.fork_lane();
        let job_held = job.hold();
        let lane = clock.fork_lane();
        let held = lane.hold();
        let waiter = {
            let log = log.clone();
            std::thread::spawn(move || {
                let _on = lane.enter();
                drop(held);
                let waiting = blocked_on(&[&job]);
                drop(job_held);
                std::thread::sleep(DELAY);
                drop(waiting);
                lock(&log).push("a");
            })
        };
        let b = sleeper(&clock, &log);
        assert_eq!(order(&log, vec![waiter, b]), ["a", "b"]);
    }
}
