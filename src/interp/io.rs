//! File descriptors without a kernel: open file descriptions (virtual files, bounded
//! in-memory pipes, capture buffers, host streams) and the per-shell fd table, plus
//! `Read`/`Write` adapters handed to commands.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::fs::{Device, FileType, Ino, SharedFs};

/// Capacity of an in-memory pipe, like Linux's default.
pub const PIPE_CAPACITY: usize = 64 * 1024;

/// How often a blocked pipe end looks for cancellation and signals (its other end
/// wakes it sooner).
const PIPE_POLL: Duration = Duration::from_millis(10);

/// Bytes held in shared immutable buffers: a window of an `Arc`'d buffer, handed from
/// one stage to the next without copying (a file's own contents, say).
#[derive(Clone, Debug)]
pub struct SharedBytes {
    pub data: Arc<Vec<u8>>,
    pub start: usize,
    pub end: usize,
}

impl SharedBytes {
    /// All of `data`.
    pub fn whole(data: Arc<Vec<u8>>) -> SharedBytes {
        let end = data.len();
        SharedBytes {
            data,
            start: 0,
            end,
        }
    }
    pub fn as_slice(&self) -> &[u8] {
        self.data.get(self.start..self.end).unwrap_or_default()
    }
    pub fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One block waiting in a pipe: bytes copied in by a writer (`owned`, counted against
/// the run's memory budget), or a window of a buffer that already exists (shared).
#[derive(Debug)]
struct Chunk {
    bytes: SharedBytes,
    owned: bool,
}

/// What a pipe holds, as blocks in order.
#[derive(Debug, Default)]
struct Chunks {
    q: VecDeque<Chunk>,
    /// Unread bytes in all.
    len: usize,
    /// Unread bytes in owned blocks.
    owned: usize,
}

/// Copied writes smaller than this share one block.
const MIN_BLOCK: usize = 4096;

impl Chunks {
    fn len(&self) -> usize {
        self.len
    }
    fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Drops everything; returns the owned bytes dropped.
    fn clear(&mut self) -> usize {
        self.q.clear();
        self.len = 0;
        std::mem::take(&mut self.owned)
    }
    fn push_copy(&mut self, data: &[u8]) {
        if data.is_empty() {
            return;
        }
        self.len += data.len();
        self.owned += data.len();
        // Into the last block when it is ours alone and has room.
        if let Some(last) = self.q.back_mut()
            && last.owned
            && last.bytes.end == last.bytes.data.len()
            && let Some(v) = Arc::get_mut(&mut last.bytes.data)
            && v.capacity() - v.len() >= data.len()
        {
            v.extend_from_slice(data);
            last.bytes.end = v.len();
            return;
        }
        let mut v = Vec::with_capacity(data.len().max(MIN_BLOCK));
        v.extend_from_slice(data);
        self.q.push_back(Chunk {
            bytes: SharedBytes::whole(Arc::new(v)),
            owned: true,
        });
    }
    fn push_shared(&mut self, bytes: SharedBytes) {
        if bytes.is_empty() {
            return;
        }
        self.len += bytes.len();
        self.q.push_back(Chunk {
            bytes,
            owned: false,
        });
    }
    /// Copies out up to `out.len()` bytes; returns how many and how many of them were
    /// owned.
    fn read_into(&mut self, out: &mut [u8]) -> (usize, usize) {
        let (mut n, mut owned) = (0, 0);
        while n < out.len() {
            let Some(front) = self.q.front_mut() else {
                break;
            };
            let src = front.bytes.as_slice();
            let k = src.len().min(out.len() - n);
            if let (Some(dst), Some(src)) = (out.get_mut(n..n + k), src.get(..k)) {
                dst.copy_from_slice(src);
            }
            n += k;
            if front.owned {
                owned += k;
            }
            front.bytes.start += k;
            if front.bytes.is_empty() {
                self.q.pop_front();
            }
        }
        self.len -= n;
        self.owned -= owned;
        (n, owned)
    }
    /// Takes up to `max` bytes of the first block (a window of it, not a copy); with
    /// the owned bytes taken.
    fn pop(&mut self, max: usize) -> Option<(SharedBytes, usize)> {
        let front = self.q.front_mut()?;
        let n = front.bytes.len().min(max);
        let owned = if front.owned { n } else { 0 };
        let taken = SharedBytes {
            data: Arc::clone(&front.bytes.data),
            start: front.bytes.start,
            end: front.bytes.start + n,
        };
        front.bytes.start += n;
        if front.bytes.is_empty() {
            self.q.pop_front();
        }
        self.len -= n;
        self.owned -= owned;
        Some((taken, owned))
    }
}

#[derive(Debug, Default)]
struct PipeState {
    buf: Chunks,
    readers: usize,
    writers: usize,
    /// Bytes written after the last reader left. Writes still succeed until a pipe's
    /// worth has been written, which is what a writer usually sees in real life when
    /// the reader exits first (the data sat in the kernel buffer).
    orphaned: usize,
    /// Unread bytes the last reader left behind when it went.
    unread_at_close: usize,
    /// Threads asleep on the condition variable in `read` / `write_all`: a wake-up
    /// (a system call, whether anyone sleeps or not) is only sent when someone does.
    waiting_readers: usize,
    waiting_writers: usize,
    /// The lanes of the threads blocked on this pipe: what wakes them marks them
    /// running at once (see `crate::fs::Waker`).
    wakers: Vec<crate::fs::Waker>,
}

impl PipeState {
    /// Marks every thread blocked here as running (something they wait for happened).
    fn wake_lanes(&mut self) {
        for w in self.wakers.drain(..) {
            w.wake();
        }
    }
}

/// How long a pipe end that has to wait watches for the other end before it goes to
/// sleep. Stages hand blocks to each other far more often than that (a 64 KiB window
/// every few microseconds, a short pipeline's one line soon after it starts): putting
/// the thread to sleep and waking it costs a system call on each side and the
/// scheduler's latency, several times the wait itself.
const PIPE_LINGER: Duration = Duration::from_micros(30);

/// Which of a pipe's sleeper counts a waiting end is in.
type Sleepers = fn(&mut PipeState) -> &mut usize;

/// Whether a writer may wait for room: cancellation and the utility's limits come
/// first.
fn writer_may_wait(cancel: &AtomicBool) -> io::Result<()> {
    if cancel.load(Ordering::Relaxed) {
        return Err(crate::commands::fatal("cancelled"));
    }
    super::procs::check_utility()
}

/// Waits for a change on `pipe` (see [`Pipe::changed`]): first without sleeping, for
/// [`PIPE_LINGER`], then on its condition variable, with the calling thread counted in
/// `sleepers` and its lane marked blocked (and findable by whoever wakes it). Wakes the
/// sleepers first if `wake` says a change of the caller's own calls for it.
fn wait_on_pipe<'a>(
    pipe: &'a Pipe,
    st: std::sync::MutexGuard<'a, PipeState>,
    sleepers: Sleepers,
    wake: &mut bool,
) -> std::sync::MutexGuard<'a, PipeState> {
    let seen = pipe.seq.load(Ordering::Acquire);
    drop(st);
    pipe.notify(std::mem::take(wake));
    let moved = super::pool::linger(PIPE_LINGER, || pipe.seq.load(Ordering::Acquire) != seen);
    let mut st = pipe.lock();
    // Changes are made under the lock: one made since the look above is seen here,
    // and one made after this sleeper has counted itself will wake it.
    if moved || pipe.seq.load(Ordering::Acquire) != seen {
        return st;
    }
    *sleepers(&mut st) += 1;
    let waiting = crate::fs::blocked();
    let waker = waiting.as_ref().map(crate::fs::Blocked::waker);
    if let Some(w) = &waker {
        st.wakers.push(w.clone());
    }
    st = match pipe.cv.wait_timeout(st, PIPE_POLL) {
        Ok((g, _)) => g,
        Err(e) => e.into_inner().0,
    };
    if let Some(w) = &waker {
        st.wakers.retain(|x| !x.same(w));
    }
    *sleepers(&mut st) -= 1;
    drop(waiting);
    st
}

/// A bounded pipe shared by a reader end and a writer end.
#[derive(Debug, Default)]
pub struct Pipe {
    state: Mutex<PipeState>,
    cv: Condvar,
    /// Moves (under the state's lock) on every change a blocked end may wait for:
    /// bytes in or out, an end opened or closed. A lingering end watches it without
    /// taking the lock.
    seq: AtomicU64,
    /// The run whose memory budget counts the bytes waiting in the buffer.
    budget: Option<Arc<crate::limits::Budget>>,
}

impl Pipe {
    fn held(&self, n: usize, more: bool) {
        if let Some(b) = &self.budget {
            b.buffered(n, more);
        }
    }
    fn lock(&self) -> std::sync::MutexGuard<'_, PipeState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
    /// Records a change made under the lock, and marks the lanes of the sleepers
    /// running if `wake` (someone sleeps whom the change concerns). Returns `wake`:
    /// whether [`Pipe::notify`] must wake them once the lock is released (a thread
    /// woken while it is still held would only block again on the lock).
    fn changed(&self, st: &mut PipeState, wake: bool) -> bool {
        self.seq.fetch_add(1, Ordering::Release);
        if wake {
            st.wake_lanes();
        }
        wake
    }
    fn notify(&self, wake: bool) {
        if wake {
            self.cv.notify_all();
        }
    }
    /// Whether any thread sleeps on this pipe.
    fn any_sleeper(st: &PipeState) -> bool {
        st.waiting_readers + st.waiting_writers > 0
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        let st = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        let left = st.buf.owned;
        self.held(left, false);
    }
}

/// The read end of a pipe; dropping the last one makes writes fail with EPIPE.
#[derive(Debug)]
pub struct PipeReader(Arc<Pipe>);
/// The write end of a pipe; dropping the last one gives readers end-of-file.
#[derive(Debug)]
pub struct PipeWriter(Arc<Pipe>);

/// Creates a pipe.
pub fn pipe() -> (PipeReader, PipeWriter) {
    new_pipe(None)
}

/// Creates a pipe whose buffered bytes count against `budget`'s memory budget while
/// they wait to be read.
pub fn pipe_in(budget: &Arc<crate::limits::Budget>) -> (PipeReader, PipeWriter) {
    new_pipe(Some(Arc::clone(budget)))
}

fn new_pipe(budget: Option<Arc<crate::limits::Budget>>) -> (PipeReader, PipeWriter) {
    let p = Pipe::unopened(budget);
    {
        let mut st = p.lock();
        st.readers = 1;
        st.writers = 1;
    }
    (PipeReader(p.clone()), PipeWriter(p))
}

impl Pipe {
    /// A pipe with no ends yet: a FIFO's, before the opens that join it.
    pub(crate) fn unopened(budget: Option<Arc<crate::limits::Budget>>) -> Arc<Pipe> {
        Arc::new(Pipe {
            state: Mutex::default(),
            cv: Condvar::new(),
            seq: AtomicU64::new(0),
            budget,
        })
    }
    /// One more read end.
    pub(crate) fn add_reader(self: &Arc<Pipe>) -> PipeReader {
        let mut st = self.lock();
        st.readers += 1;
        let sleepers = Pipe::any_sleeper(&st);
        let wake = self.changed(&mut st, sleepers);
        drop(st);
        self.notify(wake);
        PipeReader(Arc::clone(self))
    }
    /// One more write end (a reader waiting for data sees end of file only after it
    /// and every other writer have gone).
    pub(crate) fn add_writer(self: &Arc<Pipe>) -> PipeWriter {
        let mut st = self.lock();
        st.writers += 1;
        st.orphaned = 0;
        let sleepers = Pipe::any_sleeper(&st);
        let wake = self.changed(&mut st, sleepers);
        drop(st);
        self.notify(wake);
        PipeWriter(Arc::clone(self))
    }
    /// How many read and write ends are open.
    pub(crate) fn ends(&self) -> (usize, usize) {
        let st = self.lock();
        (st.readers, st.writers)
    }
}

impl Drop for PipeReader {
    fn drop(&mut self) {
        let p = &*self.0;
        let mut st = p.lock();
        st.readers -= 1;
        if st.readers == 0 {
            st.unread_at_close = st.buf.len();
            let owned = st.buf.clear();
            p.held(owned, false);
        }
        let sleepers = Pipe::any_sleeper(&st);
        let wake = p.changed(&mut st, sleepers);
        drop(st);
        p.notify(wake);
    }
}

impl Drop for PipeWriter {
    fn drop(&mut self) {
        let p = &*self.0;
        let mut st = p.lock();
        st.writers -= 1;
        let sleepers = Pipe::any_sleeper(&st);
        let wake = p.changed(&mut st, sleepers);
        drop(st);
        p.notify(wake);
    }
}

impl PipeReader {
    pub fn read(&self, out: &mut [u8], cancel: &AtomicBool) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        let p = &*self.0;
        let mut st = p.lock();
        loop {
            if !st.buf.is_empty() {
                let (n, owned) = st.buf.read_into(out);
                p.held(owned, false);
                let room = st.waiting_writers > 0 && st.buf.len() <= PIPE_CAPACITY;
                let wake = p.changed(&mut st, room);
                drop(st);
                p.notify(wake);
                return Ok(n);
            }
            if st.writers == 0 {
                return Ok(0);
            }
            st = self.wait(st, cancel)?;
        }
    }

    /// The next block as it sits in the pipe, without copying it; `None` at end of
    /// file. Like a `read`, it takes at most a pipe's capacity, so a writer whose
    /// reader stops early still meets EPIPE where it would have.
    pub fn read_shared(&self, cancel: &AtomicBool) -> io::Result<Option<SharedBytes>> {
        let p = &*self.0;
        let mut st = p.lock();
        loop {
            if let Some((bytes, owned)) = st.buf.pop(PIPE_CAPACITY) {
                p.held(owned, false);
                // A writer waits for room: none of it is made while more than a pipe's
                // worth of a shared block remains.
                let room = st.waiting_writers > 0 && st.buf.len() <= PIPE_CAPACITY;
                let wake = p.changed(&mut st, room);
                drop(st);
                p.notify(wake);
                return Ok(Some(bytes));
            }
            if st.writers == 0 {
                return Ok(None);
            }
            st = self.wait(st, cancel)?;
        }
    }

    /// Waits for a writer (after checking for cancellation and signals).
    fn wait<'a>(
        &'a self,
        st: std::sync::MutexGuard<'a, PipeState>,
        cancel: &AtomicBool,
    ) -> io::Result<std::sync::MutexGuard<'a, PipeState>> {
        if cancel.load(Ordering::Relaxed) {
            return Err(crate::commands::fatal("cancelled"));
        }
        super::procs::check_utility()?;
        Ok(wait_on_pipe(
            &self.0,
            st,
            |st| &mut st.waiting_readers,
            &mut false,
        ))
    }
}

impl PipeWriter {
    pub fn write_all(&self, mut data: &[u8], cancel: &AtomicBool) -> io::Result<()> {
        crate::fs::tick();
        let p = &*self.0;
        let mut st = p.lock();
        // Whether readers sleep that bytes written here concern (woken once the lock
        // is released).
        let mut wake = false;
        let r = loop {
            if data.is_empty() {
                break Ok(());
            }
            if st.readers == 0 {
                let held = st.buf.len() + st.orphaned;
                if held + data.len() <= PIPE_CAPACITY {
                    st.orphaned += data.len();
                    break Ok(());
                }
                break Err(io::Error::from(io::ErrorKind::BrokenPipe));
            }
            let room = PIPE_CAPACITY.saturating_sub(st.buf.len());
            if room > 0 {
                let n = room.min(data.len());
                st.buf.push_copy(data.get(..n).unwrap_or_default());
                p.held(n, true);
                data = data.get(n..).unwrap_or_default();
                let readers = st.waiting_readers > 0;
                wake |= p.changed(&mut st, readers);
                continue;
            }
            if let Err(e) = writer_may_wait(cancel) {
                break Err(e);
            }
            st = wait_on_pipe(p, st, |st| &mut st.waiting_writers, &mut wake);
        };
        drop(st);
        p.notify(wake);
        r
    }

    /// Writes `bytes` without copying them: the block goes into the pipe whole, and,
    /// as a `write` of that many bytes would, this returns once no more than a pipe's
    /// capacity of the pipe's contents is left unread (so a reader that leaves early
    /// still makes it fail with EPIPE). The block costs no memory of its own (its
    /// buffer already exists), so it is not counted as held.
    pub fn write_shared(&self, bytes: SharedBytes, cancel: &AtomicBool) -> io::Result<()> {
        if bytes.len() <= MIN_BLOCK {
            return self.write_all(bytes.as_slice(), cancel);
        }
        crate::fs::tick();
        let p = &*self.0;
        let mut st = p.lock();
        let mut pushed = false;
        let mut wake = false;
        let r = loop {
            if st.readers == 0 {
                if pushed {
                    // What the reader left unread when it went (dropped with it).
                    break if st.unread_at_close > PIPE_CAPACITY {
                        Err(io::Error::from(io::ErrorKind::BrokenPipe))
                    } else {
                        Ok(())
                    };
                }
                let held = st.buf.len() + st.orphaned;
                if held + bytes.len() <= PIPE_CAPACITY {
                    st.orphaned += bytes.len();
                    break Ok(());
                }
                break Err(io::Error::from(io::ErrorKind::BrokenPipe));
            }
            if !pushed && st.buf.len() < PIPE_CAPACITY {
                st.buf.push_shared(bytes.clone());
                pushed = true;
                let readers = st.waiting_readers > 0;
                wake |= p.changed(&mut st, readers);
            }
            if pushed && st.buf.len() <= PIPE_CAPACITY {
                break Ok(());
            }
            if let Err(e) = writer_may_wait(cancel) {
                break Err(e);
            }
            st = wait_on_pipe(p, st, |st| &mut st.waiting_writers, &mut wake);
        };
        drop(st);
        p.notify(wake);
        r
    }
}

/// The byte budget of one output stream. Once a write would pass `limit`, that write
/// fails with [`output_limit_exceeded`] and the stream is spent; after that only
/// [`REPORT_GRACE`] more bytes are let through, so the shell's report of the limit
/// still reaches the reader.
#[derive(Debug)]
pub(crate) struct Cap {
    limit: u64,
    used: u64,
    spent: bool,
}

/// Room left on a spent stream for the shell's closing message about the limit.
pub const REPORT_GRACE: u64 = 1 << 10;

impl Cap {
    pub(crate) fn new(limit: u64) -> Cap {
        Cap {
            limit,
            used: 0,
            spent: false,
        }
    }
    pub(crate) fn admit(&mut self, n: usize) -> io::Result<()> {
        let n = n as u64;
        let room = if self.spent {
            self.limit.saturating_add(REPORT_GRACE)
        } else {
            self.limit
        };
        if self.used.saturating_add(n) > room {
            self.spent = true;
            return Err(output_limit_exceeded(self.limit));
        }
        self.used += n;
        Ok(())
    }
}

/// A growable capture buffer (command substitution, `Shell::exec` output) with a cap.
#[derive(Debug)]
pub struct Capture(Mutex<Capped<Vec<u8>>>);

impl Capture {
    pub fn new(limit: u64) -> Arc<Capture> {
        Arc::new(Capture(Mutex::new(Capped::new(Vec::new(), limit))))
    }
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut self.0.lock().unwrap_or_else(|e| e.into_inner()).inner)
    }
    fn write(&self, d: &[u8]) -> io::Result<()> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .write_all(d)
    }
}

/// The error that ends a script whose output passed `max_output_bytes`.
pub fn output_limit_exceeded(limit: u64) -> io::Error {
    crate::commands::fatal(format!("output limit exceeded ({limit} bytes)"))
}

/// A writer that passes at most `limit` bytes in all to `inner` (and the limit's
/// report after that, see [`Cap`]), then fails with [`output_limit_exceeded`]: the
/// CLI's real stdout and stderr, a process's stream, a [`Capture`].
#[derive(Debug)]
pub struct Capped<W> {
    inner: W,
    cap: Cap,
}

impl<W: Write> Capped<W> {
    pub fn new(inner: W, limit: u64) -> Capped<W> {
        Capped {
            inner,
            cap: Cap::new(limit),
        }
    }
}

impl<W: Write> Write for Capped<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.cap.admit(buf.len())?;
        self.inner.write_all(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A host stream for the CLI (real stdout/stderr/stdin).
pub type HostWriter = Mutex<Box<dyn Write + Send>>;
pub type HostReader = Mutex<Box<dyn Read + Send>>;

/// An open file description, shared by duplicated descriptors.
pub enum OpenFile {
    File {
        ino: Ino,
        pos: Mutex<u64>,
        read: bool,
        write: bool,
        append: bool,
    },
    PipeR(PipeReader),
    PipeW(PipeWriter),
    /// A FIFO opened for reading and writing (`<>`): both ends of its pipe at once.
    PipeRw(PipeReader, PipeWriter),
    Capture(Arc<Capture>),
    /// Bytes to read (here-documents, here-strings, test input).
    Bytes(Mutex<(Arc<Vec<u8>>, usize)>),
    Device(Device),
    HostOut(HostWriter),
    HostIn(HostReader),
}

impl std::fmt::Debug for OpenFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenFile::File { ino, .. } => write!(f, "File({ino})"),
            OpenFile::PipeR(_) => f.write_str("PipeR"),
            OpenFile::PipeW(_) => f.write_str("PipeW"),
            OpenFile::PipeRw(..) => f.write_str("PipeRw"),
            OpenFile::Capture(_) => f.write_str("Capture"),
            OpenFile::Bytes(_) => f.write_str("Bytes"),
            OpenFile::Device(d) => write!(f, "Device({d:?})"),
            OpenFile::HostOut(_) => f.write_str("HostOut"),
            OpenFile::HostIn(_) => f.write_str("HostIn"),
        }
    }
}

impl OpenFile {
    pub fn bytes(data: Vec<u8>) -> Arc<OpenFile> {
        Arc::new(OpenFile::Bytes(Mutex::new((Arc::new(data), 0))))
    }

    /// How far a [`OpenFile::Bytes`] source has been read (None for other kinds).
    pub fn bytes_read(&self) -> Option<usize> {
        match self {
            OpenFile::Bytes(m) => Some(m.lock().map_or(0, |g| g.1)),
            _ => None,
        }
    }

    pub fn readable(&self) -> bool {
        match self {
            OpenFile::File { read, .. } => *read,
            OpenFile::PipeR(_)
            | OpenFile::PipeRw(..)
            | OpenFile::Bytes(_)
            | OpenFile::HostIn(_) => true,
            OpenFile::Device(d) => !matches!(d, Device::Stdout | Device::Stderr),
            _ => false,
        }
    }

    pub fn writable(&self) -> bool {
        match self {
            OpenFile::File { write, .. } => *write,
            OpenFile::PipeW(_)
            | OpenFile::PipeRw(..)
            | OpenFile::Capture(_)
            | OpenFile::HostOut(_) => true,
            OpenFile::Device(_) => true,
            _ => false,
        }
    }

    /// Writes all of `data`.
    pub fn write_all(&self, fs: &SharedFs, data: &[u8], cancel: &AtomicBool) -> io::Result<()> {
        match self {
            OpenFile::File {
                ino,
                pos,
                write,
                append,
                ..
            } => {
                if !*write {
                    return Err(io::Error::from_raw_os_error(9));
                }
                let mut pos = pos.lock().unwrap_or_else(|e| e.into_inner());
                let mut g = fs.lock();
                let at = if *append {
                    g.stat_ino(*ino).map(|m| m.size).unwrap_or(*pos)
                } else {
                    *pos
                };
                match g.write_at(*ino, at, data) {
                    Ok(end) => {
                        *pos = end;
                        Ok(())
                    }
                    Err(e) => Err(io::Error::other(e.to_string())),
                }
            }
            OpenFile::PipeW(w) | OpenFile::PipeRw(_, w) => w.write_all(data, cancel),
            OpenFile::Capture(c) => c.write(data),
            OpenFile::Device(Device::Null) | OpenFile::Device(Device::Zero) => Ok(()),
            OpenFile::Device(Device::Full) => Err(io::Error::other("No space left on device")),
            OpenFile::Device(_) => Ok(()),
            OpenFile::HostOut(w) => {
                let mut w = w.lock().unwrap_or_else(|e| e.into_inner());
                w.write_all(data)
            }
            _ => Err(io::Error::from_raw_os_error(9)),
        }
    }

    /// Writes shared bytes: a pipe takes the buffer itself, anything else a copy.
    pub fn write_shared(
        &self,
        fs: &SharedFs,
        bytes: SharedBytes,
        cancel: &AtomicBool,
    ) -> io::Result<()> {
        match self {
            OpenFile::PipeW(w) | OpenFile::PipeRw(_, w) => w.write_shared(bytes, cancel),
            _ => self.write_all(fs, bytes.as_slice(), cancel),
        }
    }

    /// The next block without copying it, where this description holds its bytes in
    /// memory already (a pipe's blocks; a file's or a here-document's contents, at most
    /// [`SHARED_READ`] at a time, as a `read` of that size would advance the offset);
    /// an inner `None` at end of file, an outer `None` when only [`OpenFile::read`]
    /// can read it.
    pub fn read_shared(
        &self,
        fs: &SharedFs,
        cancel: &AtomicBool,
    ) -> Option<io::Result<Option<SharedBytes>>> {
        let window = |data: Arc<Vec<u8>>, pos: &mut usize| {
            let start = (*pos).min(data.len());
            let end = data.len().min(start + SHARED_READ);
            *pos = end;
            (end > start).then_some(SharedBytes { data, start, end })
        };
        match self {
            OpenFile::PipeR(r) | OpenFile::PipeRw(r, _) => Some(r.read_shared(cancel)),
            OpenFile::File { ino, pos, read, .. } => {
                if !*read {
                    return Some(Err(io::Error::from_raw_os_error(9)));
                }
                let mut pos = pos.lock().unwrap_or_else(|e| e.into_inner());
                let content = match fs.lock().content(*ino) {
                    Ok(c) => c,
                    Err(e) => return Some(Err(e.into())),
                };
                let mut at = usize::try_from(*pos).unwrap_or(usize::MAX);
                let got = window(content, &mut at);
                *pos = at as u64;
                Some(Ok(got))
            }
            OpenFile::Bytes(b) => {
                let mut g = b.lock().unwrap_or_else(|e| e.into_inner());
                let (data, pos) = &mut *g;
                Some(Ok(window(Arc::clone(data), pos)))
            }
            _ => None,
        }
    }

    /// Reads up to `out.len()` bytes; 0 at end of file.
    pub fn read(&self, fs: &SharedFs, out: &mut [u8], cancel: &AtomicBool) -> io::Result<usize> {
        match self {
            OpenFile::File { ino, pos, read, .. } => {
                if !*read {
                    return Err(io::Error::from_raw_os_error(9));
                }
                let mut pos = pos.lock().unwrap_or_else(|e| e.into_inner());
                let g = fs.lock();
                // The filesystem's own error (a directory reads as EISDIR), so a
                // reader can tell a failed read from the run ending.
                let content = g.content(*ino).map_err(io::Error::from)?;
                let start = (*pos as usize).min(content.len());
                let n = out.len().min(content.len() - start);
                out[..n].copy_from_slice(&content[start..start + n]);
                *pos += n as u64;
                Ok(n)
            }
            OpenFile::PipeR(r) | OpenFile::PipeRw(r, _) => r.read(out, cancel),
            OpenFile::Bytes(b) => {
                let mut g = b.lock().unwrap_or_else(|e| e.into_inner());
                let (data, pos) = &mut *g;
                let start = (*pos).min(data.len());
                let n = out.len().min(data.len() - start);
                out[..n].copy_from_slice(&data[start..start + n]);
                *pos += n;
                Ok(n)
            }
            OpenFile::Device(Device::Zero) => {
                out.fill(0);
                Ok(out.len())
            }
            OpenFile::Device(Device::Random) | OpenFile::Device(Device::Urandom) => {
                static SEED: AtomicU64 = AtomicU64::new(0x9E37_79B9_7F4A_7C15);
                for b in out.iter_mut() {
                    let mut x = SEED.load(Ordering::Relaxed);
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    SEED.store(x, Ordering::Relaxed);
                    *b = x as u8;
                }
                Ok(out.len())
            }
            OpenFile::Device(_) => Ok(0),
            OpenFile::HostIn(r) => {
                // The host may take its time: this thread holds no sleeper back.
                let _waiting = crate::fs::blocked();
                r.lock().unwrap_or_else(|e| e.into_inner()).read(out)
            }
            _ => Err(io::Error::from_raw_os_error(9)),
        }
    }
}

/// The most [`OpenFile::read_shared`] takes of a file at once: GNU cat's read size.
pub const SHARED_READ: usize = 128 * 1024;

/// Descriptors never reach this number, whatever `ulimit -n` says.
pub const MAX_FDS: i32 = 1 << 16;

/// The fd table of one shell (cloned on fork; descriptions are shared).
#[derive(Clone, Debug, Default)]
pub struct FdTable {
    fds: Vec<Option<Arc<OpenFile>>>,
}

impl FdTable {
    pub fn get(&self, fd: i32) -> Option<&Arc<OpenFile>> {
        if fd < 0 {
            return None;
        }
        self.fds.get(fd as usize).and_then(|f| f.as_ref())
    }
    pub fn set(&mut self, fd: i32, f: Option<Arc<OpenFile>>) {
        // Redirections check `ulimit -n` first; this keeps the table small regardless.
        if !(0..MAX_FDS).contains(&fd) {
            return;
        }
        let i = fd as usize;
        if self.fds.len() <= i {
            self.fds.resize(i + 1, None);
        }
        self.fds[i] = f;
    }
    /// The lowest free descriptor at or above `min`.
    pub fn free_from(&self, min: i32) -> i32 {
        let mut fd = min.max(0);
        while self.get(fd).is_some() {
            fd += 1;
        }
        fd
    }
    /// The highest free descriptor at or below `max` (above 2), else the lowest free
    /// one above it: where bash puts a process substitution's end (63, then 62, ...).
    pub fn free_below(&self, max: i32) -> i32 {
        (3..=max)
            .rev()
            .find(|&fd| self.get(fd).is_none())
            .unwrap_or_else(|| self.free_from(max + 1))
    }
    /// Open descriptors, ascending.
    pub fn open_fds(&self) -> Vec<i32> {
        (0..self.fds.len() as i32)
            .filter(|&fd| self.get(fd).is_some())
            .collect()
    }
}

/// `Write` over an open file description.
pub struct FdWriter {
    pub file: Option<Arc<OpenFile>>,
    pub fs: SharedFs,
    /// The run's budget: its cancellation flag, and the bytes moved (charged here).
    pub budget: Arc<crate::limits::Budget>,
}

impl Write for FdWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // A utility that only writes (`yes > /dev/null`) still ends when killed.
        super::procs::check_utility()?;
        match &self.file {
            Some(f) => {
                self.budget.charge_io(buf.len())?;
                f.write_all(&self.fs, buf, &self.budget.cancel)?;
                Ok(buf.len())
            }
            None => Err(io::Error::from_raw_os_error(9)),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl FdWriter {
    /// Writes all of `buf` (as [`Write::write`], through a shared reference).
    fn put(&self, buf: &[u8]) -> io::Result<()> {
        match &self.file {
            Some(f) => {
                self.budget.charge_io(buf.len())?;
                f.write_all(&self.fs, buf, &self.budget.cancel)
            }
            None => Err(io::Error::from_raw_os_error(9)),
        }
    }

    /// Whether this writes into a pipe that `other` does not also write into: output
    /// can then be gathered into blocks without reordering anything a reader sees.
    pub fn is_private_pipe(&self, other: &FdWriter) -> bool {
        let Some(f) = &self.file else { return false };
        let OpenFile::PipeW(w) = &**f else {
            return false;
        };
        match other.file.as_deref() {
            Some(OpenFile::PipeW(o)) => !Arc::ptr_eq(&w.0, &o.0),
            _ => true,
        }
    }
}

/// A utility's standard output into a pipe, gathered into blocks the way stdio
/// buffers a GNU tool's output (one pipe hand-off per line made `sed | wc` crawl).
/// The block is written out when full, at [`Staging::flush`], and before the utility
/// reads its standard input or runs another command, so nothing waits on output that
/// is still held here.
pub struct Staging {
    out: FdWriter,
    buf: std::cell::RefCell<Vec<u8>>,
}

/// Block size: glibc's stdio buffer for a pipe is 4 KiB, but each block handed over
/// can cost a thread switch here (a pipe's reader wakes for it), so blocks are larger;
/// what a reader sees is the same bytes, and held output still goes out before the
/// utility reads or runs anything.
const STAGING_BLOCK: usize = 32 * 1024;

impl Staging {
    pub fn new(out: FdWriter) -> Staging {
        Staging {
            out,
            buf: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// Writes out what is held.
    pub fn flush(&self) -> io::Result<()> {
        // The block's allocation stays for the next one.
        let mut data = self.buf.borrow_mut();
        if data.is_empty() {
            return Ok(());
        }
        let r = self.out.put(&data);
        data.clear();
        r
    }

    fn push(&self, data: &[u8]) -> io::Result<()> {
        let full = {
            let mut b = self.buf.borrow_mut();
            if b.is_empty() && data.len() >= STAGING_BLOCK {
                // A block already: copying it here first would only cost a pass.
                drop(b);
                return self.out.put(data);
            }
            b.extend_from_slice(data);
            b.len() >= STAGING_BLOCK
        };
        if full { self.flush() } else { Ok(()) }
    }
}

/// The `Write` end of a [`Staging`].
pub struct StagedOut<'a>(pub &'a Staging);

impl Write for StagedOut<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.push(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// Standard input of a utility whose output is staged: held output goes first.
pub struct StagedIn<'a> {
    pub input: FdReader,
    pub staging: &'a Staging,
}

impl Read for StagedIn<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.staging.flush()?;
        self.input.read(buf)
    }
}

/// `Read` over an open file description.
pub struct FdReader {
    pub file: Option<Arc<OpenFile>>,
    pub fs: SharedFs,
    /// The run's budget: its cancellation flag, and the bytes moved (charged here).
    pub budget: Arc<crate::limits::Budget>,
}

impl Read for FdReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &self.file {
            Some(f) => {
                let n = f.read(&self.fs, buf, &self.budget.cancel)?;
                self.budget.charge_io(n)?;
                Ok(n)
            }
            None => Err(io::Error::from_raw_os_error(9)),
        }
    }
}

/// A utility's standard input and output as shared buffers (see
/// [`crate::commands::SharedIo`]): the same descriptions as its `stdin` and `stdout`,
/// with the output it staged written first.
pub struct SharedStreams<'s> {
    pub stdin: FdReader,
    pub stdout: FdWriter,
    pub staging: Option<&'s Staging>,
}

impl crate::commands::SharedIo for SharedStreams<'_> {
    fn read_shared(&self) -> Option<io::Result<Option<SharedBytes>>> {
        let f = self.stdin.file.as_ref()?;
        if !matches!(
            **f,
            OpenFile::PipeR(_) | OpenFile::PipeRw(..) | OpenFile::File { .. } | OpenFile::Bytes(_)
        ) {
            return None;
        }
        // Held output goes out before any read, as with `StagedIn`.
        if let Some(st) = self.staging
            && let Err(e) = st.flush()
        {
            return Some(Err(e));
        }
        let got = f.read_shared(&self.stdin.fs, &self.stdin.budget.cancel)?;
        Some(got.and_then(|b| {
            if let Some(b) = &b {
                self.stdin.budget.charge_io(b.len())?;
            }
            Ok(b)
        }))
    }

    fn write_shared(&self, bytes: SharedBytes) -> io::Result<()> {
        super::procs::check_utility()?;
        if let Some(st) = self.staging {
            st.flush()?;
        }
        let Some(f) = &self.stdout.file else {
            return Err(io::Error::from_raw_os_error(9));
        };
        self.stdout.budget.charge_io(bytes.len())?;
        f.write_shared(&self.stdout.fs, bytes, &self.stdout.budget.cancel)
    }
}

/// Opens the file description for a path's device or inode.
pub fn for_file_type(ft: FileType, ino: Ino, read: bool, write: bool, append: bool) -> OpenFile {
    match ft {
        FileType::Device(d) => OpenFile::Device(d),
        _ => OpenFile::File {
            ino,
            pos: Mutex::new(0),
            read,
            write,
            append,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test_budget() -> Arc<crate::limits::Budget> {
        crate::limits::Budget::new(
            crate::limits::Limits::default(),
            Arc::new(AtomicBool::new(false)),
        )
    }

    /// Bytes waiting in a run's pipe count against its memory budget until they are
    /// read, or dropped with the last reader or the pipe.
    #[test]
    fn bytes_waiting_in_a_pipe_count_as_held() -> io::Result<()> {
        let budget = test_budget();
        let cancel = AtomicBool::new(false);
        let (reader, writer) = pipe_in(&budget);
        writer.write_all(&[b'x'; 1000], &cancel)?;
        assert_eq!(budget.held_in_pipes(), 1000);
        let mut out = [0; 400];
        assert_eq!(reader.read(&mut out, &cancel)?, 400);
        assert_eq!(budget.held_in_pipes(), 600);
        drop(reader);
        assert_eq!(budget.held_in_pipes(), 0);
        drop(writer);
        // Unread when both ends go.
        let (reader, writer) = pipe_in(&budget);
        writer.write_all(&[b'y'; 300], &cancel)?;
        drop(writer);
        assert_eq!(budget.held_in_pipes(), 300);
        drop(reader);
        assert_eq!(budget.held_in_pipes(), 0);
        Ok(())
    }

    /// A shared block crosses a pipe without being copied: the reader gets windows of
    /// the writer's own buffer, none larger than a pipe's capacity, and the block is
    /// not counted as memory the pipe holds.
    #[test]
    fn shared_blocks_cross_in_windows_of_the_same_buffer() -> io::Result<()> {
        let budget = test_budget();
        let cancel = AtomicBool::new(false);
        let (reader, writer) = pipe_in(&budget);
        let big = Arc::new(vec![b'x'; 4 * PIPE_CAPACITY + 5]);
        std::thread::scope(|s| {
            s.spawn(|| {
                let writer = writer;
                writer.write_shared(SharedBytes::whole(Arc::clone(&big)), &cancel)
            });
            let mut got = 0;
            while let Some(b) = reader.read_shared(&cancel)? {
                assert!(b.len() <= PIPE_CAPACITY);
                assert!(Arc::ptr_eq(&b.data, &big));
                assert_eq!(budget.held_in_pipes(), 0);
                got += b.len();
            }
            assert_eq!(got, big.len());
            Ok(())
        })
    }

    /// A reader that leaves with more than a pipe's worth of a shared block unread
    /// makes the write fail with EPIPE, as a plain write of those bytes would.
    #[test]
    fn a_shared_write_meets_epipe_when_the_reader_leaves() {
        let cancel = AtomicBool::new(false);
        let (reader, writer) = pipe();
        let big = Arc::new(vec![b'y'; 4 * PIPE_CAPACITY]);
        let r = std::thread::scope(|s| {
            s.spawn(|| {
                let reader = reader;
                let _ = reader.read_shared(&cancel);
            });
            writer.write_shared(SharedBytes::whole(Arc::clone(&big)), &cancel)
        });
        assert_eq!(r.map_err(|e| e.kind()), Err(io::ErrorKind::BrokenPipe));
    }

    /// A pipeline streams: whatever a stage writes, its pipe never holds more than
    /// `PIPE_CAPACITY` bytes (`cat big | grep x` does not hold `big` a second time).
    #[test]
    fn a_pipe_holds_at_most_its_capacity() -> io::Result<()> {
        let (reader, writer) = pipe();
        let cancel = AtomicBool::new(false);
        let big = vec![b'x'; 16 * PIPE_CAPACITY];
        std::thread::scope(|s| {
            s.spawn(|| {
                let writer = writer;
                writer.write_all(&big, &cancel)
            });
            let mut buf = vec![0; 4096];
            let (mut got, mut most) = (0, 0);
            loop {
                let held = reader.0.state.lock().map_or(0, |st| st.buf.len());
                most = most.max(held);
                let n = reader.read(&mut buf, &cancel)?;
                if n == 0 {
                    break;
                }
                got += n;
            }
            assert_eq!(got, big.len());
            assert!(most <= PIPE_CAPACITY, "held {most} bytes");
            Ok(())
        })
    }
}
