//! The virtual clock, and the lanes that keep background jobs deterministic.
//!
//! A shell's foreground moves its clock only by its own `sleep`s. A background job (an
//! asynchronous list, a coprocess, a process substitution) runs on a [`Lane`]: a time
//! of its own that starts at the moment the job starts and that only the job's
//! `sleep`s move, so what the job sees (`date`, `$SECONDS`, the mtimes of the files it
//! writes) does not depend on how the host happens to schedule its thread, and its
//! sleeps do not leak into the foreground. Waiting for the job catches the waiter up
//! with the job's time, as a real wait would have taken that long.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

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
pub struct Clock(Arc<AtomicI64>);

/// The time of one background job on one clock (see the module docs).
#[derive(Clone, Debug)]
pub struct Lane {
    clock: Arc<AtomicI64>,
    time: Arc<AtomicI64>,
}

thread_local! {
    /// The lane this thread runs on, if it works for a background job.
    static LANE: RefCell<Option<Lane>> = const { RefCell::new(None) };
}

/// Puts the thread back on the lane it had when dropped (see [`Lane::enter`]).
#[must_use]
pub struct LaneGuard(Option<Lane>);

impl Drop for LaneGuard {
    fn drop(&mut self) {
        let prev = self.0.take();
        LANE.with(|l| *l.borrow_mut() = prev);
    }
}

impl Lane {
    /// The lane of the calling thread, for work it hands to another thread.
    pub fn current() -> Option<Lane> {
        LANE.with(|l| l.borrow().clone())
    }
    /// Runs the calling thread on this lane until the guard is dropped.
    pub fn enter(&self) -> LaneGuard {
        LaneGuard(LANE.with(|l| l.borrow_mut().replace(self.clone())))
    }
    /// Where the lane's time stands.
    pub fn now(&self) -> Timestamp {
        Timestamp::from_nanos(self.time.load(Ordering::Relaxed))
    }
}

impl Clock {
    /// A virtual clock starting at `secs` since the epoch.
    pub fn virtual_at(secs: i64) -> Clock {
        Clock(Arc::new(AtomicI64::new(secs.saturating_mul(NANOS_PER_SEC))))
    }
    /// The time cell the calling thread reads and moves: its lane's on this clock, or
    /// the clock's own.
    fn with_cell<T>(&self, f: impl FnOnce(&AtomicI64) -> T) -> T {
        LANE.with(|l| match l.borrow().as_ref() {
            Some(lane) if Arc::ptr_eq(&lane.clock, &self.0) => f(&lane.time),
            _ => f(&self.0),
        })
    }
    /// The current virtual time (for the calling thread: see the module docs).
    pub fn now(&self) -> Timestamp {
        Timestamp::from_nanos(self.with_cell(|c| c.load(Ordering::Relaxed)))
    }
    /// Moves the clock forward by `nanos` (sleep).
    pub fn advance(&self, nanos: i64) {
        self.with_cell(|c| {
            // The closure always returns Some, so the update cannot fail.
            let _ = c.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| {
                Some(t.saturating_add(nanos))
            });
        });
    }
    /// Sets the clock.
    pub fn set(&self, t: Timestamp) {
        self.with_cell(|c| c.store(t.as_nanos(), Ordering::Relaxed));
    }
    /// A new lane for a background job starting now.
    pub fn fork_lane(&self) -> Lane {
        Lane {
            clock: self.0.clone(),
            time: Arc::new(AtomicI64::new(self.now().as_nanos())),
        }
    }
    /// Brings the calling thread's time up to where `lane` ended, if that is later
    /// (waiting for a job takes as long as the job).
    pub fn catch_up(&self, lane: &Lane) {
        let end = lane.time.load(Ordering::Relaxed);
        self.with_cell(|c| c.fetch_max(end, Ordering::Relaxed));
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
