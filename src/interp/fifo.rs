//! Named pipes (FIFOs) opened: as fifo(7) describes, opening one for reading waits
//! until a writer opens it and opening for writing waits for a reader; then the two
//! share a pipe, and the reader sees end of file once every writer has closed. Opening
//! for both (`<>`) never waits. The filesystem holds only the FIFO's inode; the pipe
//! its opens share lives in the shared filesystem's live table (keyed by inode) while
//! any end is open.

use std::io;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use super::io::{OpenFile, Pipe};
use crate::fs::{Ino, SharedFs};

/// How often an open waiting for its partner looks for cancellation, the run's
/// deadline and signals (a partner's open wakes it sooner).
const POLL: Duration = Duration::from_millis(10);

/// The state one FIFO's opens share.
#[derive(Default)]
struct Slot {
    state: Mutex<SlotState>,
    cv: Condvar,
}

#[derive(Default)]
struct SlotState {
    /// The pipe the open ends share, while any is open.
    pipe: Option<Arc<Pipe>>,
    /// Opens for reading and for writing so far (Linux's `r_counter`/`w_counter`): an
    /// open waits for the other count to move.
    reads: u64,
    writes: u64,
    /// The lanes of the threads waiting in an open, woken by the partner's open.
    wakers: Vec<crate::fs::Waker>,
}

impl Slot {
    fn lock(&self) -> MutexGuard<'_, SlotState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// Tells every waiting open that the other side moved.
    fn wake(&self, st: &mut SlotState) {
        for w in st.wakers.drain(..) {
            w.wake();
        }
        self.cv.notify_all();
    }
}

/// The slot of FIFO `ino` in `fs`'s live table (made on first use); slots of FIFOs no
/// end has open are dropped on the way, so the table stays as small as what is open.
fn slot(fs: &SharedFs, ino: Ino) -> Arc<Slot> {
    let mut table = fs.live().lock();
    table.retain(|&k, v| {
        k == ino
            || v.downcast_ref::<Slot>().is_none_or(|s| {
                let st = s.lock();
                st.pipe.as_ref().is_some_and(|p| p.ends() != (0, 0)) || !st.wakers.is_empty()
            })
    });
    if let Some(s) = table
        .get(&ino)
        .and_then(|v| Arc::clone(v).downcast::<Slot>().ok())
    {
        return s;
    }
    let s = Arc::new(Slot::default());
    table.insert(ino, s.clone());
    s
}

/// Opens FIFO `ino` of `fs` for reading, writing or both, waiting as open(2) does for
/// the other end. `check` is called while it waits and ends the wait with its error
/// (the run's cancellation and deadline, a signal that ends the opener).
pub(crate) fn open(
    fs: &SharedFs,
    ino: Ino,
    read: bool,
    write: bool,
    budget: &Arc<crate::limits::Budget>,
    check: &dyn Fn() -> io::Result<()>,
) -> io::Result<OpenFile> {
    let slot = slot(fs, ino);
    let mut st = slot.lock();
    let pipe = match &st.pipe {
        Some(p) if p.ends() != (0, 0) => Arc::clone(p),
        _ => {
            let p = Pipe::unopened(Some(Arc::clone(budget)));
            st.pipe = Some(Arc::clone(&p));
            p
        }
    };
    if read && write {
        let (r, w) = (pipe.add_reader(), pipe.add_writer());
        st.reads += 1;
        st.writes += 1;
        slot.wake(&mut st);
        return Ok(OpenFile::PipeRw(r, w));
    }
    let file = if read {
        st.reads += 1;
        OpenFile::PipeR(pipe.add_reader())
    } else {
        st.writes += 1;
        OpenFile::PipeW(pipe.add_writer())
    };
    slot.wake(&mut st);
    let (readers, writers) = pipe.ends();
    let partnered = if read { writers > 0 } else { readers > 0 };
    if partnered {
        return Ok(file);
    }
    let seen = if read { st.writes } else { st.reads };
    let waiting = crate::fs::blocked();
    let waker = waiting.as_ref().map(crate::fs::Blocked::waker);
    loop {
        let now = if read { st.writes } else { st.reads };
        if now != seen {
            return Ok(file);
        }
        if let Some(w) = &waker {
            st.wakers.push(w.clone());
        }
        drop(st);
        // The end opened so far is dropped with `file` if a check ends the wait.
        check()?;
        st = slot.lock();
        if let Some(w) = &waker {
            st.wakers.retain(|x| !x.same(w));
        }
        let now = if read { st.writes } else { st.reads };
        if now != seen {
            return Ok(file);
        }
        if let Some(w) = &waker {
            st.wakers.push(w.clone());
        }
        st = match slot.cv.wait_timeout(st, POLL) {
            Ok((g, _)) => g,
            Err(e) => e.into_inner().0,
        };
        if let Some(w) = &waker {
            st.wakers.retain(|x| !x.same(w));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    fn setup() -> (SharedFs, Ino, Arc<crate::limits::Budget>) {
        let mut fs = crate::fs::Fs::new(crate::fs::Clock::virtual_at(0));
        let made = fs.mkfifo("/tmp/p", 0o644).and_then(|()| fs.stat("/tmp/p"));
        let ino = made.map(|m| m.ino).unwrap_or(0);
        let budget = crate::limits::Budget::new(
            crate::limits::Limits::default(),
            Arc::new(AtomicBool::new(false)),
        );
        (SharedFs::new(fs), ino, budget)
    }

    /// A reader waits for a writer; what the writer writes reaches it, then end of file.
    #[test]
    fn a_reader_meets_a_writer() -> io::Result<()> {
        let (fs, ino, budget) = setup();
        let cancel = AtomicBool::new(false);
        std::thread::scope(|s| {
            let writer = s.spawn(|| -> io::Result<()> {
                let w = open(&fs, ino, false, true, &budget, &|| Ok(()))?;
                w.write_all(&fs, b"hi\n", &cancel)
            });
            let r = open(&fs, ino, true, false, &budget, &|| Ok(()))?;
            let mut got = Vec::new();
            let mut buf = [0u8; 16];
            loop {
                let n = r.read(&fs, &mut buf, &cancel)?;
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
            }
            assert_eq!(got, b"hi\n");
            writer.join().unwrap_or(Ok(()))
        })?;
        assert!(fs.live().lock().len() <= 1);
        Ok(())
    }

    /// An open with no partner ends when its check fails, leaving no end open.
    #[test]
    fn a_lonely_open_ends_at_its_check() {
        let (fs, ino, budget) = setup();
        let tries = std::sync::atomic::AtomicUsize::new(0);
        let check = || {
            if tries.fetch_add(1, std::sync::atomic::Ordering::Relaxed) > 3 {
                Err(io::Error::other("time limit exceeded"))
            } else {
                Ok(())
            }
        };
        assert!(open(&fs, ino, true, false, &budget, &check).is_err());
        let slot = slot(&fs, ino);
        let st = slot.lock();
        assert_eq!(st.pipe.as_ref().map(|p| p.ends()), Some((0, 0)));
    }

    /// `<>` never waits.
    #[test]
    fn read_write_does_not_wait() {
        let (fs, ino, budget) = setup();
        let opened = open(&fs, ino, true, true, &budget, &|| {
            Err(io::Error::other("would wait"))
        });
        assert!(matches!(opened, Ok(OpenFile::PipeRw(..))));
    }
}
