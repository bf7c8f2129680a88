//! Resource limits: every resource a script can consume is bounded. Exceeding a limit
//! stops the whole run (every subshell, pipeline stage and background job of it) with a
//! message naming the limit and exit status 126; nothing is silently truncated.
//!
//! | limit | default | [`Limits::hardened`] |
//! |---|---|---|
//! | `max_commands` | 50 000 000 | 1 000 000 |
//! | `max_loop_iterations` | 50 000 000 | 1 000 000 |
//! | `max_call_depth` | 2 000 | 200 |
//! | `max_subshell_depth` | 200 | 50 |
//! | `max_output_bytes` | 256 MiB | 16 MiB |
//! | `max_string_len` | 256 MiB | 16 MiB |
//! | `max_words` | 2 000 000 | 200 000 |
//! | `max_array_len` | 4 000 000 | 200 000 |
//! | `max_brace_words` | 1 048 576 | 100 000 |
//! | `max_glob_reads` | 100 000 | 10 000 |
//! | `max_parse_depth` | 1 000 | 200 |
//! | `max_source_bytes` | 64 MiB | 4 MiB |
//! | `max_heredoc_bytes` | 64 MiB | 4 MiB |
//! | `max_threads` | 512 | 64 |
//! | `max_background_jobs` | 256 | 32 |
//! | `max_file_bytes` | 256 MiB | 16 MiB |
//! | `max_fs_bytes` | 1 GiB | 64 MiB |
//! | `max_files` | 1 000 000 | 10 000 |
//! | `max_memory_bytes` | 512 MiB | 64 MiB |
//! | `max_io_bytes` | 16 GiB | 1 GiB |
//! | `timeout` | 600 s | 30 s |

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::fs::FsLimits;

/// Bounds on what one script run may consume.
///
/// ```
/// let mut limits = shellbox::Limits::hardened();
/// limits.max_loop_iterations = 1_000;
/// let mut sh = shellbox::Shell::builder().limits(limits).build();
/// let out = sh.exec("while :; do :; done");
/// assert_eq!(out.exit_code, 126);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Limits {
    /// Simple commands executed (fuel).
    pub max_commands: u64,
    /// Loop iterations, across all loops.
    pub max_loop_iterations: u64,
    /// Nesting of function calls, `source`, `eval`.
    pub max_call_depth: usize,
    /// Nesting of subshells and command substitutions.
    pub max_subshell_depth: usize,
    /// Bytes written to captured output (stdout/stderr of `exec`, `$(...)`).
    pub max_output_bytes: u64,
    /// Length of a single string value (a variable, a `printf` field).
    pub max_string_len: usize,
    /// Words produced by one command's expansion.
    pub max_words: usize,
    /// Elements of one array.
    pub max_array_len: usize,
    /// Words produced by one brace expansion (`{1..N}`, `{a,b}{c,d}...`).
    pub max_brace_words: usize,
    /// Directory reads made by one pathname expansion.
    pub max_glob_reads: usize,
    /// Parser nesting depth (also bounds the host stack the parser and interpreter use).
    pub max_parse_depth: usize,
    /// Size of a script's source (also `eval` and `source` text).
    pub max_source_bytes: usize,
    /// Size of one here-document or here-string after expansion.
    pub max_heredoc_bytes: usize,
    /// Concurrently running background jobs and pipeline stages.
    pub max_threads: usize,
    /// Concurrently running background jobs (`&`, coprocesses).
    pub max_background_jobs: usize,
    /// Size of one file (applied to the session's filesystem).
    pub max_file_bytes: u64,
    /// Bytes held by all files of the session's filesystem.
    pub max_fs_bytes: u64,
    /// Inodes in the session's filesystem.
    pub max_files: u64,
    /// Bytes the run may make the engine hold at once: a value that would grow past
    /// it (a string or word being built, a brace expansion's words, a here-document,
    /// a command substitution's output) is checked against it together with what the
    /// shell's variables and the filesystem's files already hold.
    pub max_memory_bytes: u64,
    /// Bytes read from standard input and written to standard output and error by
    /// the run's utilities, all together (`cat /dev/zero > /dev/null` ends here).
    pub max_io_bytes: u64,
    /// Wall-clock time for one run.
    pub timeout: Option<Duration>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_commands: 50_000_000,
            max_loop_iterations: 50_000_000,
            max_call_depth: 2_000,
            max_subshell_depth: 200,
            max_output_bytes: 256 << 20,
            max_string_len: 256 << 20,
            max_words: 2_000_000,
            max_array_len: 4_000_000,
            max_brace_words: 1 << 20,
            max_glob_reads: 100_000,
            max_parse_depth: 1_000,
            max_source_bytes: 64 << 20,
            max_heredoc_bytes: 64 << 20,
            max_threads: 512,
            max_background_jobs: 256,
            max_file_bytes: 256 << 20,
            max_fs_bytes: 1 << 30,
            max_files: 1_000_000,
            max_memory_bytes: 512 << 20,
            max_io_bytes: 16 << 30,
            timeout: Some(Duration::from_secs(600)),
        }
    }
}

impl Limits {
    /// A tighter profile for untrusted scripts.
    pub fn hardened() -> Limits {
        Limits {
            max_commands: 1_000_000,
            max_loop_iterations: 1_000_000,
            max_call_depth: 200,
            max_subshell_depth: 50,
            max_output_bytes: 16 << 20,
            max_string_len: 16 << 20,
            max_words: 200_000,
            max_array_len: 200_000,
            max_brace_words: 100_000,
            max_glob_reads: 10_000,
            max_parse_depth: 200,
            max_source_bytes: 4 << 20,
            max_heredoc_bytes: 4 << 20,
            max_threads: 64,
            max_background_jobs: 32,
            max_file_bytes: 16 << 20,
            max_fs_bytes: 64 << 20,
            max_files: 10_000,
            max_memory_bytes: 64 << 20,
            max_io_bytes: 1 << 30,
            timeout: Some(Duration::from_secs(30)),
        }
    }

    /// The budget of an EXIT trap that runs after a limit ended the run: enough to
    /// clean up (remove a temporary file, print a line), too little to restart the
    /// runaway, and never more than the run's own limits.
    pub fn after_limit(&self) -> Limits {
        Limits {
            max_commands: self.max_commands.min(10_000),
            max_loop_iterations: self.max_loop_iterations.min(10_000),
            max_call_depth: self.max_call_depth.min(50),
            max_subshell_depth: self.max_subshell_depth.min(10),
            max_threads: self.max_threads.min(8),
            max_background_jobs: 0,
            max_memory_bytes: self.max_memory_bytes.min(16 << 20),
            max_io_bytes: self.max_io_bytes.min(1 << 20),
            timeout: Some(
                self.timeout
                    .map_or(AFTER_LIMIT_TIME, |t| t.min(AFTER_LIMIT_TIME)),
            ),
            ..self.clone()
        }
    }

    /// Every limit by its field name, with what it bounds: the names [`Limits::set`]
    /// takes (and the CLI's `--limit NAME=VALUE`).
    pub const FIELDS: &'static [(&'static str, &'static str)] = &[
        ("max_commands", "simple commands executed"),
        ("max_loop_iterations", "loop iterations, across all loops"),
        (
            "max_call_depth",
            "nesting of function calls, source and eval",
        ),
        (
            "max_subshell_depth",
            "nesting of subshells and command substitutions",
        ),
        (
            "max_output_bytes",
            "bytes written to captured stdout or stderr",
        ),
        ("max_string_len", "bytes in one string value"),
        ("max_words", "words one command's expansion makes"),
        ("max_array_len", "elements of one array"),
        ("max_brace_words", "words one brace expansion makes"),
        (
            "max_glob_reads",
            "directory reads of one pathname expansion",
        ),
        ("max_parse_depth", "parser nesting depth"),
        (
            "max_source_bytes",
            "bytes of a script's source (also eval and source)",
        ),
        (
            "max_heredoc_bytes",
            "bytes of one here-document after expansion",
        ),
        (
            "max_threads",
            "pipeline stages and background jobs running at once",
        ),
        ("max_background_jobs", "background jobs running at once"),
        ("max_file_bytes", "bytes in one file"),
        ("max_fs_bytes", "bytes in all files"),
        ("max_files", "inodes in the filesystem"),
        (
            "max_memory_bytes",
            "bytes held at once by values, words and files",
        ),
        (
            "max_io_bytes",
            "bytes utilities read and write, all together",
        ),
        ("timeout", "wall-clock seconds for one run (0: none)"),
    ];

    /// Sets limit `name` (a [`Limits::FIELDS`] name) to `value`: a whole number, with
    /// an optional binary suffix `K`, `M` or `G` (`64M`); `timeout` takes seconds, `0`
    /// meaning none. The error says what was wrong.
    ///
    /// ```
    /// let mut l = shellbox::Limits::default();
    /// l.set("max_fs_bytes", "64M").unwrap();
    /// assert_eq!(l.max_fs_bytes, 64 << 20);
    /// l.set("timeout", "2.5").unwrap();
    /// assert_eq!(l.timeout, Some(std::time::Duration::from_millis(2500)));
    /// assert!(l.set("max_nothing", "1").is_err());
    /// assert!(l.set("max_files", "lots").is_err());
    /// ```
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name == "timeout" {
            let secs = value
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("timeout must be seconds (0 or more), not {value:?}"))?;
            self.timeout = (secs > 0.0).then(|| Duration::from_secs_f64(secs));
            return Ok(());
        }
        let (digits, scale) = match value.char_indices().last() {
            Some((at, 'K' | 'k')) => (value.get(..at).unwrap_or_default(), 1u64 << 10),
            Some((at, 'M' | 'm')) => (value.get(..at).unwrap_or_default(), 1 << 20),
            Some((at, 'G' | 'g')) => (value.get(..at).unwrap_or_default(), 1 << 30),
            _ => (value, 1),
        };
        let n = digits
            .parse::<u64>()
            .ok()
            .and_then(|n| n.checked_mul(scale))
            .ok_or_else(|| {
                format!("{name} must be a whole number (64, 64K, 64M, 1G), not {value:?}")
            })?;
        let size = usize::try_from(n).unwrap_or(usize::MAX);
        match name {
            "max_commands" => self.max_commands = n,
            "max_loop_iterations" => self.max_loop_iterations = n,
            "max_call_depth" => self.max_call_depth = size,
            "max_subshell_depth" => self.max_subshell_depth = size,
            "max_output_bytes" => self.max_output_bytes = n,
            "max_string_len" => self.max_string_len = size,
            "max_words" => self.max_words = size,
            "max_array_len" => self.max_array_len = size,
            "max_brace_words" => self.max_brace_words = size,
            "max_glob_reads" => self.max_glob_reads = size,
            "max_parse_depth" => self.max_parse_depth = size,
            "max_source_bytes" => self.max_source_bytes = size,
            "max_heredoc_bytes" => self.max_heredoc_bytes = size,
            "max_threads" => self.max_threads = size,
            "max_background_jobs" => self.max_background_jobs = size,
            "max_file_bytes" => self.max_file_bytes = n,
            "max_fs_bytes" => self.max_fs_bytes = n,
            "max_files" => self.max_files = n,
            "max_memory_bytes" => self.max_memory_bytes = n,
            "max_io_bytes" => self.max_io_bytes = n,
            _ => {
                let names: Vec<&str> = Self::FIELDS.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "no limit is called {name:?}; the limits are {}",
                    names.join(", ")
                ));
            }
        }
        Ok(())
    }

    /// `base` (path depth and name length kept) with these file, byte and inode limits.
    pub fn fs_limits(&self, base: FsLimits) -> FsLimits {
        FsLimits {
            max_total_bytes: self.max_fs_bytes,
            max_file_bytes: self.max_file_bytes,
            max_files: self.max_files,
            ..base
        }
    }
}

/// The [`Limits`] field a limit message names (`"command limit exceeded (5
/// commands)"` is `max_commands`), for embedders that report which limit stopped a
/// run. Messages may carry a prefix (`"x: string length limit exceeded ..."`).
///
/// ```
/// assert_eq!(shellbox::limits::limit_named_in("loop iteration limit exceeded (9 iterations)"), Some("max_loop_iterations"));
/// assert_eq!(shellbox::limits::limit_named_in("cancelled"), None);
/// ```
pub fn limit_named_in(message: &str) -> Option<&'static str> {
    const NAMES: &[(&str, &str)] = &[
        ("command limit exceeded", "max_commands"),
        ("loop iteration limit exceeded", "max_loop_iterations"),
        ("function call depth limit exceeded", "max_call_depth"),
        ("eval nesting limit exceeded", "max_call_depth"),
        ("source nesting limit exceeded", "max_call_depth"),
        ("subshell nesting limit exceeded", "max_subshell_depth"),
        ("output limit exceeded", "max_output_bytes"),
        ("string length limit exceeded", "max_string_len"),
        ("word limit exceeded", "max_words"),
        ("array size limit exceeded", "max_array_len"),
        ("brace expansion limit exceeded", "max_brace_words"),
        ("glob limit exceeded", "max_glob_reads"),
        ("parser nesting limit exceeded", "max_parse_depth"),
        ("source size limit exceeded", "max_source_bytes"),
        ("here-document size limit exceeded", "max_heredoc_bytes"),
        (
            "concurrent pipeline stage and job limit exceeded",
            "max_threads",
        ),
        ("background job limit exceeded", "max_background_jobs"),
        ("filesystem size limit exceeded", "max_fs_bytes"),
        ("file size limit exceeded", "max_file_bytes"),
        ("file count limit exceeded", "max_files"),
        ("memory limit exceeded", "max_memory_bytes"),
        ("I/O limit exceeded", "max_io_bytes"),
        ("time limit exceeded", "timeout"),
    ];
    NAMES
        .iter()
        .find(|(text, _)| message.contains(text))
        .map(|&(_, name)| name)
}

/// Whether this check should read the clock: one in [`CLOCK_STRIDE`] per thread. Hot
/// loops (a utility's per-line check) would otherwise spend a tenth of their time in
/// `clock_gettime`; a deadline is still noticed within a few microseconds of work.
fn clock_due() -> bool {
    thread_local! {
        static TICKS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    }
    TICKS.with(|t| {
        let n = t.get();
        t.set(n.wrapping_add(1));
        n % CLOCK_STRIDE == 0
    })
}

const CLOCK_STRIDE: u32 = 32;

/// How long an EXIT trap may run after a limit ended the run.
const AFTER_LIMIT_TIME: Duration = Duration::from_secs(1);

/// Assigned bytes between two walks of the variables at least (see [`Budget::grew`]).
const GROWTH_WALK_MIN: u64 = 1 << 20;

/// Counters shared by every fork of one run, and the cancellation flag.
#[derive(Debug)]
pub struct Budget {
    pub limits: Limits,
    pub commands: AtomicU64,
    pub iterations: AtomicU64,
    pub threads: AtomicU64,
    /// Bytes utilities moved through their standard streams.
    pub io: AtomicU64,
    /// Background jobs running now.
    pub background: AtomicU64,
    /// Bytes waiting in the run's pipes (see [`Budget::buffered`]).
    in_pipes: AtomicU64,
    /// Bytes (with each element's overhead) assigned to variables since the memory
    /// budget last walked them, and how many more may be assigned before the next
    /// walk: small values are not checked one by one, but their sum is.
    grown: AtomicU64,
    walk_at: AtomicU64,
    pub cancel: Arc<AtomicBool>,
    pub deadline: Option<Instant>,
    /// The first limit hit anywhere in the run: once set, every fork stops at its next
    /// check with this message.
    tripped: Mutex<Option<String>>,
}

impl Budget {
    pub fn new(limits: Limits, cancel: Arc<AtomicBool>) -> Arc<Budget> {
        let deadline = limits.timeout.map(|t| Instant::now() + t);
        Arc::new(Budget {
            limits,
            commands: AtomicU64::new(0),
            iterations: AtomicU64::new(0),
            threads: AtomicU64::new(0),
            io: AtomicU64::new(0),
            background: AtomicU64::new(0),
            in_pipes: AtomicU64::new(0),
            grown: AtomicU64::new(0),
            walk_at: AtomicU64::new(GROWTH_WALK_MIN),
            cancel,
            deadline,
            tripped: Mutex::new(None),
        })
    }

    /// Records that a limit was hit (the first message wins) and wakes every blocked
    /// fork of the run so it can stop.
    pub fn trip(&self, msg: &str) {
        let mut t = self.tripped.lock().unwrap_or_else(|e| e.into_inner());
        // A run that was cancelled first stops because of that, not a limit.
        if t.is_none() && !self.cancel.load(Ordering::Relaxed) {
            *t = Some(msg.to_owned());
        }
        drop(t);
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The limit that stopped the run, if one did.
    pub fn tripped(&self) -> Option<String> {
        self.tripped
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Charges one command; `Err` names the limit that was hit.
    pub fn charge_command(&self) -> Result<(), String> {
        let n = self.commands.fetch_add(1, Ordering::Relaxed);
        if self.cancel.load(Ordering::Relaxed) {
            return self.check();
        }
        if n >= self.limits.max_commands {
            return Err(format!(
                "command limit exceeded ({} commands)",
                self.limits.max_commands
            ));
        }
        if n.is_multiple_of(64) {
            self.check()?;
        }
        Ok(())
    }

    /// Charges one loop iteration.
    pub fn charge_iteration(&self) -> Result<(), String> {
        let n = self.iterations.fetch_add(1, Ordering::Relaxed);
        if self.cancel.load(Ordering::Relaxed) {
            return self.check();
        }
        if n >= self.limits.max_loop_iterations {
            return Err(format!(
                "loop iteration limit exceeded ({} iterations)",
                self.limits.max_loop_iterations
            ));
        }
        if n.is_multiple_of(64) {
            self.check()?;
        }
        Ok(())
    }

    /// Charges `n` bytes a utility read or wrote. Past [`Limits::max_io_bytes`] the
    /// run is stopped (the whole run, not only the utility, which might carry on past
    /// a failed write) and the error names the limit. One atomic add per call: callers
    /// move blocks, not bytes.
    pub fn charge_io(&self, n: usize) -> std::io::Result<()> {
        let before = self.io.fetch_add(n as u64, Ordering::Relaxed);
        if before.saturating_add(n as u64) > self.limits.max_io_bytes {
            let msg = format!("I/O limit exceeded ({} bytes)", self.limits.max_io_bytes);
            self.trip(&msg);
            return Err(crate::commands::fatal(msg));
        }
        Ok(())
    }

    /// Notes `n` bytes put into (`more`) or taken out of one of the run's pipes; they
    /// count as held while they wait (see [`Budget::held_in_pipes`]).
    pub fn buffered(&self, n: usize, more: bool) {
        if more {
            self.in_pipes.fetch_add(n as u64, Ordering::Relaxed);
        } else {
            self.in_pipes.fetch_sub(n as u64, Ordering::Relaxed);
        }
    }

    /// Bytes written to the run's pipes and not yet read.
    pub fn held_in_pipes(&self) -> u64 {
        self.in_pipes.load(Ordering::Relaxed)
    }

    /// Notes `n` bytes assigned to variables; `true` when they (with those noted
    /// before) are due a walk of what the shell holds, see [`Budget::walked`].
    pub fn grew(&self, n: u64) -> bool {
        let g = self.grown.fetch_add(n, Ordering::Relaxed).saturating_add(n);
        g >= self.walk_at.load(Ordering::Relaxed)
    }

    /// Records a walk that found `held` bytes: the next comes after an eighth of that
    /// again has been assigned, so walks cost a constant factor of the assignments
    /// however large the variables grow, and the budget is overshot by at most 1/8.
    pub fn walked(&self, held: u64) {
        self.grown.store(0, Ordering::Relaxed);
        self.walk_at
            .store((held / 8).max(GROWTH_WALK_MIN), Ordering::Relaxed);
    }

    /// The error for a value of `bytes` that, with `held` bytes already held, would
    /// pass [`Limits::max_memory_bytes`]; `Ok` when it fits.
    pub fn check_memory(&self, held: u64, bytes: u64) -> Result<(), String> {
        if held.saturating_add(bytes) > self.limits.max_memory_bytes {
            return Err(format!(
                "memory limit exceeded ({} bytes)",
                self.limits.max_memory_bytes
            ));
        }
        Ok(())
    }

    /// Checks cancellation and the deadline.
    pub fn check(&self) -> Result<(), String> {
        if self.cancel.load(Ordering::Relaxed) {
            if let Some(m) = self.tripped() {
                return Err(m);
            }
            return Err("cancelled".to_owned());
        }
        if let Some(d) = self.deadline
            && clock_due()
            && Instant::now() > d
        {
            let secs = self.limits.timeout.map_or(0, |t| t.as_secs());
            return Err(format!("time limit exceeded ({secs} s)"));
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::panic, clippy::unwrap_used)]
mod tests {
    use super::Limits;

    #[test]
    fn every_field_can_be_set_by_name() {
        let base = format!("{:?}", Limits::default());
        for (name, _) in Limits::FIELDS {
            let mut l = Limits::default();
            l.set(name, "7").unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_ne!(format!("{l:?}"), base, "{name} changed nothing");
        }
        // And the list names every field: Debug shows them all.
        let fields = base.matches(": ").count();
        assert_eq!(fields, Limits::FIELDS.len());
    }
}
