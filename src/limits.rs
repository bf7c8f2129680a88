//! Resource limits: every resource a script can consume is bounded. Exceeding a limit
//! stops the script with a message naming the limit and exit status 126.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Bounds on what one script run may consume.
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
    /// Length of a single string value.
    pub max_string_len: usize,
    /// Words produced by one expansion (brace expansion, globs, arrays).
    pub max_words: usize,
    /// Parser nesting depth.
    pub max_parse_depth: usize,
    /// Size of a script's source.
    pub max_source_bytes: usize,
    /// Concurrently running background jobs and pipeline stages.
    pub max_threads: usize,
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
            max_parse_depth: 1_000,
            max_source_bytes: 64 << 20,
            max_threads: 512,
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
            max_parse_depth: 200,
            max_source_bytes: 4 << 20,
            max_threads: 64,
            timeout: Some(Duration::from_secs(30)),
        }
    }
}

/// Counters shared by every fork of one run, and the cancellation flag.
#[derive(Debug)]
pub struct Budget {
    pub limits: Limits,
    pub commands: AtomicU64,
    pub iterations: AtomicU64,
    pub threads: AtomicU64,
    pub cancel: Arc<AtomicBool>,
    pub deadline: Option<Instant>,
}

impl Budget {
    pub fn new(limits: Limits, cancel: Arc<AtomicBool>) -> Arc<Budget> {
        let deadline = limits.timeout.map(|t| Instant::now() + t);
        Arc::new(Budget {
            limits,
            commands: AtomicU64::new(0),
            iterations: AtomicU64::new(0),
            threads: AtomicU64::new(0),
            cancel,
            deadline,
        })
    }

    /// Charges one command; `Err` names the limit that was hit.
    pub fn charge_command(&self) -> Result<(), String> {
        let n = self.commands.fetch_add(1, Ordering::Relaxed);
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

    /// Checks cancellation and the deadline.
    pub fn check(&self) -> Result<(), String> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err("cancelled".to_owned());
        }
        if let Some(d) = self.deadline
            && Instant::now() > d
        {
            return Err("time limit exceeded".to_owned());
        }
        Ok(())
    }
}
