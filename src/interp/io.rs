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

#[derive(Debug, Default)]
struct PipeState {
    buf: VecDeque<u8>,
    readers: usize,
    writers: usize,
    /// Bytes written after the last reader left. Writes still succeed until a pipe's
    /// worth has been written, which is what a writer usually sees in real life when
    /// the reader exits first (the data sat in the kernel buffer).
    orphaned: usize,
    /// Threads blocked in `read` / `write_all`: a wake-up is only sent when someone
    /// waits (a futex call per line written was most of a `sed | wc` pipeline).
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

/// Waits on a pipe's condition variable, with the calling thread's lane marked
/// blocked meanwhile (and findable by whoever wakes it).
fn wait_on_pipe<'a>(
    pipe: &'a Pipe,
    mut st: std::sync::MutexGuard<'a, PipeState>,
) -> std::sync::MutexGuard<'a, PipeState> {
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
    drop(waiting);
    st
}

/// A bounded pipe shared by a reader end and a writer end.
#[derive(Debug, Default)]
pub struct Pipe {
    state: Mutex<PipeState>,
    cv: Condvar,
    /// The run whose memory budget counts the bytes waiting in the buffer.
    budget: Option<Arc<crate::limits::Budget>>,
}

impl Pipe {
    fn held(&self, n: usize, more: bool) {
        if let Some(b) = &self.budget {
            b.buffered(n, more);
        }
    }
}

impl Drop for Pipe {
    fn drop(&mut self) {
        let st = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        let left = st.buf.len();
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
    let p = Arc::new(Pipe {
        state: Mutex::default(),
        cv: Condvar::new(),
        budget,
    });
    {
        let mut st = p.state.lock().unwrap_or_else(|e| e.into_inner());
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
            budget,
        })
    }
    /// One more read end.
    pub(crate) fn add_reader(self: &Arc<Pipe>) -> PipeReader {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.readers += 1;
        st.wake_lanes();
        self.cv.notify_all();
        PipeReader(Arc::clone(self))
    }
    /// One more write end (a reader waiting for data sees end of file only after it
    /// and every other writer have gone).
    pub(crate) fn add_writer(self: &Arc<Pipe>) -> PipeWriter {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        st.writers += 1;
        st.orphaned = 0;
        st.wake_lanes();
        self.cv.notify_all();
        PipeWriter(Arc::clone(self))
    }
    /// How many read and write ends are open.
    pub(crate) fn ends(&self) -> (usize, usize) {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        (st.readers, st.writers)
    }
}

impl Drop for PipeReader {
    fn drop(&mut self) {
        let mut st = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        st.readers -= 1;
        if st.readers == 0 {
            self.0.held(st.buf.len(), false);
            st.buf.clear();
        }
        st.wake_lanes();
        self.0.cv.notify_all();
    }
}

impl Drop for PipeWriter {
    fn drop(&mut self) {
        let mut st = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        st.writers -= 1;
        st.wake_lanes();
        self.0.cv.notify_all();
    }
}

impl PipeReader {
    pub fn read(&self, out: &mut [u8], cancel: &AtomicBool) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        let mut st = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if !st.buf.is_empty() {
                let n = out.len().min(st.buf.len());
                let (a, b) = st.buf.as_slices();
                let na = n.min(a.len());
                out[..na].copy_from_slice(&a[..na]);
                out[na..n].copy_from_slice(&b[..n - na]);
                st.buf.drain(..n);
                self.0.held(n, false);
                if st.waiting_writers > 0 {
                    st.wake_lanes();
                    self.0.cv.notify_all();
                }
                return Ok(n);
            }
            if st.writers == 0 {
                return Ok(0);
            }
            if cancel.load(Ordering::Relaxed) {
                return Err(crate::commands::fatal("cancelled"));
            }
            super::procs::check_utility()?;
            st.waiting_readers += 1;
            st = wait_on_pipe(&self.0, st);
            st.waiting_readers -= 1;
        }
    }
}

impl PipeWriter {
    pub fn write_all(&self, mut data: &[u8], cancel: &AtomicBool) -> io::Result<()> {
        crate::fs::tick();
        let mut st = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        while !data.is_empty() {
            if st.readers == 0 {
                let held = st.buf.len() + st.orphaned;
                if held + data.len() <= PIPE_CAPACITY {
                    st.orphaned += data.len();
                    return Ok(());
                }
                return Err(io::Error::from(io::ErrorKind::BrokenPipe));
            }
            let room = PIPE_CAPACITY.saturating_sub(st.buf.len());
            if room > 0 {
                let n = room.min(data.len());
                st.buf.extend(&data[..n]);
                self.0.held(n, true);
                data = &data[n..];
                if st.waiting_readers > 0 {
                    st.wake_lanes();
                    self.0.cv.notify_all();
                }
                continue;
            }
            if cancel.load(Ordering::Relaxed) {
                return Err(crate::commands::fatal("cancelled"));
            }
            super::procs::check_utility()?;
            st.waiting_writers += 1;
            st = wait_on_pipe(&self.0, st);
            st.waiting_writers -= 1;
        }
        Ok(())
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

    /// Reads up to `out.len()` bytes; 0 at end of file.
    pub fn read(&self, fs: &SharedFs, out: &mut [u8], cancel: &AtomicBool) -> io::Result<usize> {
        match self {
            OpenFile::File { ino, pos, read, .. } => {
                if !*read {
                    return Err(io::Error::from_raw_os_error(9));
                }
                let mut pos = pos.lock().unwrap_or_else(|e| e.into_inner());
                let g = fs.lock();
                let content = g
                    .content(*ino)
                    .map_err(|e| io::Error::other(e.to_string()))?;
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

    /// Bytes waiting in a run's pipe count against its memory budget until they are
    /// read, or dropped with the last reader or the pipe.
    #[test]
    fn bytes_waiting_in_a_pipe_count_as_held() -> io::Result<()> {
        let budget = crate::limits::Budget::new(
            crate::limits::Limits::default(),
            Arc::new(AtomicBool::new(false)),
        );
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
