//! The virtual clock, and the lanes that keep background jobs deterministic.
//!
//! A shell's foreground moves its clock only by its own `sleep`s. A background job (an
//! asynchronous list, a coprocess, a process substitution) runs on a [`Lane`]: a time
//! of its own that starts at the moment the job starts and that only the job's
//! `sleep`s move, so what the job sees (`date`, `$SECONDS`, the mtimes of the files it
//! writes) does not depend on how the host happens to schedule its thread, and its
//! sleeps do not leak into the foreground. Waiting for the job catches the waiter up
//! with the job's time, as a real wait would have taken that long. Sleeps on the
//! lanes of one clock end in virtual-time order ([`super::sched`]), so what jobs do
//! between sleeps happens in the order bash's would.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use super::sched::{Blocked, Part, Sched};
use super::{NANOS_PER_SEC, Timestamp};

/// The clock that stamps mtimes; shared by every clone of a filesystem and by the shell.
///
/// ```
/// use shellbox::fs::{Clock, Timestamp};
/// let clock = Clock::virtual_at(100);
/// clock.advance(1_500_000_000);
/// assert_eq!(clock.now(), Timestamp { secs: 101, nanos: 500_000_000 });
/// ```
#[derive(Clone, Debug)]
pub struct Clock {
    base: Arc<AtomicI64>,
    sched: Arc<Sched>,
}

/// The time of one background job on one clock (see the module docs), and its place
/// in the order sleeps end in (see [`super::sched`]).
#[derive(Clone, Debug)]
pub struct Lane {
    clock: Arc<AtomicI64>,
    sched: Arc<Sched>,
    part: Arc<Part>,
}

thread_local! {
    /// The lane this thread runs on, if it works for a background job.
    static LANE: RefCell<Option<Lane>> = const { RefCell::new(None) };
}

/// Puts the thread back on the lane it had when dropped (see [`Lane::enter`]).
#[must_use]
pub struct LaneGuard {
    prev: Option<Lane>,
    entered: Lane,
}

impl Drop for LaneGuard {
    fn drop(&mut self) {
        let prev = self.prev.take();
        LANE.with(|l| *l.borrow_mut() = prev);
        self.entered.sched.exit(&self.entered.part);
    }
}

/// A lane held in the order of sleeps (see [`Lane::hold`]); it can move to the thread
/// that will run on the lane.
#[must_use]
pub struct Hold(Lane);

impl Drop for Hold {
    fn drop(&mut self) {
        self.0.sched.leave(&self.0.part);
    }
}

impl Lane {
    /// The lane of the calling thread, for work it hands to another thread.
    pub fn current() -> Option<Lane> {
        LANE.with(|l| l.borrow().clone())
    }
    /// Runs the calling thread on this lane until the guard is dropped; meanwhile the
    /// thread takes part in the order of sleeps.
    pub fn enter(&self) -> LaneGuard {
        self.sched.enter(&self.part);
        LaneGuard {
            prev: LANE.with(|l| l.borrow_mut().replace(self.clone())),
            entered: self.clone(),
        }
    }
    /// Counts the lane in the order of sleeps from now until the guard drops, before
    /// any thread enters it: the code that starts a job holds its lane for the job's
    /// thread, so no sleep elsewhere ends before the job has begun.
    pub fn hold(&self) -> Hold {
        self.sched.join(&self.part);
        Hold(self.clone())
    }
    /// Where the lane's time stands.
    pub fn now(&self) -> Timestamp {
        Timestamp::from_nanos(self.part.time.load(Ordering::Relaxed))
    }
}

/// Marks the calling thread's lane as blocked (waiting for a pipe, a job or the host)
/// until the guard is dropped, so that sleepers elsewhere need not wait for it. A
/// thread on no lane gets a guard that does nothing.
pub fn blocked() -> Option<Blocked> {
    LANE.with(|l| {
        l.borrow()
            .as_ref()
            .map(|lane| lane.sched.block(&lane.part, Vec::new()))
    })
}

/// Marks the calling thread's lane as blocked until the guard drops, waiting for the
/// threads of `lanes` to end (a `wait` for jobs): once one has, it counts as running
/// again, so no sleep elsewhere ends before it has taken the news.
pub fn blocked_on(lanes: &[&Lane]) -> Option<Blocked> {
    LANE.with(|l| {
        l.borrow().as_ref().map(|lane| {
            let on = lanes.iter().map(|x| x.part.clone()).collect();
            lane.sched.block(&lane.part, on)
        })
    })
}

/// A handle on the calling thread's lane for what may interrupt its waits (a
/// signal), if it runs on one.
pub fn current_waker() -> Option<super::sched::Waker> {
    LANE.with(|l| {
        l.borrow()
            .as_ref()
            .map(|lane| super::sched::Waker::of(&lane.part))
    })
}

/// Records progress on the calling thread's lane (a command run, a pipe written).
pub fn tick() {
    LANE.with(|l| {
        if let Some(lane) = l.borrow().as_ref() {
            lane.part.tick();
        }
    });
}

impl Clock {
    /// A virtual clock starting at `secs` since the epoch.
    pub fn virtual_at(secs: i64) -> Clock {
        Clock {
            base: Arc::new(AtomicI64::new(secs.saturating_mul(NANOS_PER_SEC))),
            sched: Arc::new(Sched::default()),
        }
    }
    /// The time cell the calling thread reads and moves: its lane's on this clock, or
    /// the clock's own.
    fn with_cell<T>(&self, f: impl FnOnce(&AtomicI64) -> T) -> T {
        LANE.with(|l| match l.borrow().as_ref() {
            Some(lane) if Arc::ptr_eq(&lane.clock, &self.base) => f(&lane.part.time),
            _ => f(&self.base),
        })
    }
    /// The calling thread's lane, if it is one of this clock's.
    fn own_lane(&self) -> Option<Lane> {
        LANE.with(|l| {
            l.borrow()
                .as_ref()
                .filter(|lane| Arc::ptr_eq(&lane.clock, &self.base))
                .cloned()
        })
    }
    /// Whether the calling thread runs on one of this clock's lanes.
    pub fn on_lane(&self) -> bool {
        self.own_lane().is_some()
    }
    /// The current virtual time (for the calling thread: see the module docs).
    pub fn now(&self) -> Timestamp {
        Timestamp::from_nanos(self.with_cell(|c| c.load(Ordering::Relaxed)))
    }
    /// Moves the clock forward by `nanos`, without waiting for anyone.
    pub fn advance(&self, nanos: i64) {
        self.with_cell(|c| {
            // The closure always returns Some, so the update cannot fail.
            let _ = c.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                Some(t.saturating_add(nanos))
            });
        });
    }
    /// Sleeps `nanos` of virtual time: on a lane, in the order of [`super::sched`]
    /// (which may take real time while other lanes catch up); elsewhere the clock just
    /// moves. `interrupted` ends the sleep early: it is asked while the sleep waits and
    /// gives the virtual time the sleep ends at (a signal's). Returns that time when it
    /// did.
    pub fn sleep(&self, nanos: i64, interrupted: &dyn Fn() -> Option<i64>) -> Option<Timestamp> {
        match self.own_lane() {
            Some(lane) => lane
                .sched
                .sleep(&lane.part, nanos, interrupted)
                .map(Timestamp::from_nanos),
            None => {
                if let Some(t) = interrupted() {
                    return Some(Timestamp::from_nanos(t));
                }
                self.advance(nanos);
                None
            }
        }
    }
    /// Lets sleepers on this clock look again at what they wait for (a signal was sent:
    /// a sleep it interrupts ends).
    pub fn wake_sleepers(&self) {
        self.sched.wake();
    }
    /// Sets the clock.
    pub fn set(&self, t: Timestamp) {
        self.with_cell(|c| c.store(t.as_nanos(), Ordering::Relaxed));
    }
    /// A new lane for a background job starting now.
    pub fn fork_lane(&self) -> Lane {
        Lane {
            clock: self.base.clone(),
            sched: self.sched.clone(),
            part: self.sched.part(self.now().as_nanos()),
        }
    }
    /// Brings the calling thread's time up to where `lane` ended, if that is later
    /// (waiting for a job takes as long as the job).
    pub fn catch_up(&self, lane: &Lane) {
        self.catch_up_to(lane.part.time.load(Ordering::Relaxed));
    }
    /// Brings the calling thread's time up to `nanos`, if that is later (what it waited
    /// for happened then).
    pub fn catch_up_to(&self, nanos: i64) {
        self.with_cell(|c| c.fetch_max(nanos, Ordering::Relaxed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_is_virtual_and_shared() {
        let clock = Clock::virtual_at(10);
        let other = clock.clone();
        assert_eq!(clock.now(), Timestamp::from_secs(10));
        other.advance(2_500_000_000);
        assert_eq!(
            clock.now(),
            Timestamp {
                secs: 12,
                nanos: 500_000_000
            }
        );
        clock.set(Timestamp::from_secs(-3));
        assert_eq!(other.now(), Timestamp::from_secs(-3));
        clock.set(Timestamp::from_secs(i64::MAX));
        clock.advance(i64::MAX);
        assert!(clock.now().secs > 0, "saturates instead of wrapping");
    }

    #[test]
    fn a_lane_keeps_its_own_time_until_caught_up() {
        let clock = Clock::virtual_at(100);
        let lane = clock.fork_lane();
        let job = {
            let (clock, lane) = (clock.clone(), lane.clone());
            std::thread::spawn(move || {
                let _on = lane.enter();
                assert_eq!(clock.now(), Timestamp::from_secs(100));
                clock.advance(5 * NANOS_PER_SEC);
                // A lane started inside the job starts at the job's time.
                let inner = clock.fork_lane();
                assert_eq!(inner.now(), Timestamp::from_secs(105));
                clock.now()
            })
        };
        assert_eq!(job.join().ok(), Some(Timestamp::from_secs(105)));
        // The job's sleep did not move the foreground...
        assert_eq!(clock.now(), Timestamp::from_secs(100));
        clock.advance(2 * NANOS_PER_SEC);
        // ...and waiting for it brings the foreground to where the job ended.
        clock.catch_up(&lane);
        assert_eq!(clock.now(), Timestamp::from_secs(105));
        // Catching up never goes back.
        clock.advance(NANOS_PER_SEC);
        clock.catch_up(&lane);
        assert_eq!(clock.now(), Timestamp::from_secs(106));
        // Another clock on a laned thread is not affected by the lane.
        let _on = lane.enter();
        let other = Clock::virtual_at(7);
        other.advance(NANOS_PER_SEC);
        assert_eq!(other.now(), Timestamp::from_secs(8));
    }
}
