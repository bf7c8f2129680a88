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

use std::sync::atomic::{AtomicI64, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a running participant may show no progress before sleepers stop waiting
/// for it.
pub const STALLED: Duration = Duration::from_millis(400);

/// The longest a sleeper waits in real time for participants that run on.
pub const PATIENCE: Duration = Duration::from_secs(3);

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
        let mut parts = lock(&self.parts);
        self.cv.notify_all();
        let woke = loop {
            // An interrupted sleep ends at the signal's time, but still in turn: what
            // runs at that time goes first.
            let cut = interrupted().map(|t| t.clamp(start, until));
            let (ready, ticks) = may_wake(&parts, part, cut.unwrap_or(until));
            if ready {
                break cut;
            }
            let now = Instant::now();
            if ticks != seen {
                seen = ticks;
                progress = now;
            }
            if now.duration_since(progress) >= STALLED || now.duration_since(began) >= PATIENCE {
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

/// Whether a sleeper on `me` until `until` may wake now, and the work counters of the
/// running participants it waits for (summed, to notice when they stop moving).
fn may_wake(parts: &[Arc<Part>], me: &Arc<Part>, until: i64) -> (bool, u64) {
    let mut ready = true;
    let mut ticks = 0u64;
    for p in parts {
        if Arc::ptr_eq(p, me) {
            continue;
        }
        match p.state.load(Ordering::SeqCst) {
            RUNNING if p.time.load(Ordering::SeqCst) <= until => {
                ready = false;
                ticks = ticks
                    .wrapping_add(p.ticks.load(Ordering::Relaxed))
                    .wrapping_add(p.id);
            }
            SLEEPING => {
                let theirs = (p.until.load(Ordering::SeqCst), p.id);
                if theirs < (until, me.id) {
                    ready = false;
                }
            }
            BLOCKED if p.time.load(Ordering::SeqCst) <= until && woken(p) => {
                ready = false;
                ticks = ticks
                    .wrapping_add(p.ticks.load(Ordering::Relaxed))
                    .wrapping_add(p.id);
            }
            _ => {}
        }
    }
    (ready, ticks)
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
