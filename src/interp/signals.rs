//! How a shell takes signals (bash manual, "Signals"): the dispositions its traps
//! give it, the check points where a pending signal runs its trap or ends the shell,
//! `wait`s that a trapped signal cuts short, and the messages bash prints for commands
//! that signals killed.

use std::sync::Arc;
use std::time::Duration;

use super::procs::{self, Kind};
use super::{Flow, Interp};

/// How a job that was waited for ended.
pub(crate) enum Joined {
    /// Its status (128+N when signal N killed it).
    Status(i32),
    /// A trapped signal arrived first: `wait` returns 128 + that signal.
    Interrupted(i32),
}

impl Interp {
    /// Tells the process table which signals this shell catches and ignores (after
    /// its traps change).
    pub(crate) fn sync_dispositions(&self) {
        let (mut caught, mut ignored) = (0u64, self.entry_ignored | self.os_ignored);
        for (name, action) in self.traps.iter() {
            let Some(sig) = name
                .strip_prefix("SIG")
                .and_then(|_| super::builtins::signal_number(name))
            else {
                continue;
            };
            if action.is_empty() {
                ignored |= procs::bit(sig);
            } else {
                caught |= procs::bit(sig);
            }
        }
        self.proc
            .mailbox()
            .set_dispositions(caught & !ignored, ignored);
    }

    /// At a check point (every command and loop iteration): a fatal signal sent to
    /// this shell, or to the shell it runs inside of, ends it.
    pub(crate) fn signal_check(&self) -> Result<(), Flow> {
        match self.proc.mailbox().interrupted() {
            Some((sig, _)) => Err(self.die_of(sig)),
            None => Ok(()),
        }
    }

    /// The flow that ends this shell because signal `sig` killed it.
    pub(crate) fn die_of(&self, sig: i32) -> Flow {
        if self.proc.mailbox().died_of().is_none() {
            self.status_at_death.set(Some(self.status));
        }
        self.proc.mailbox().set_died_of(sig);
        Flow::Exit(128 + sig)
    }

    /// Runs trap handlers for the signals pending for this shell (in signal order);
    /// a signal without a trap ends the shell.
    pub(crate) fn run_pending_signals(&mut self) -> Result<(), Flow> {
        if !self.proc.mailbox().any_pending() {
            return Ok(());
        }
        self.catch_up_with_signals();
        for sig in self.proc.mailbox().take_all() {
            let name = super::builtins::signal_name(sig);
            match self.traps.get(&name).cloned() {
                Some(action) if action.is_empty() => {}
                Some(action) => {
                    let saved = self.status;
                    // A signal handler counts its lines from 1, like a new script.
                    let saved_line = std::mem::replace(&mut self.line, 1);
                    let r = self.run_trap_action(&name, "trap", &action);
                    self.line = saved_line;
                    // `return` there returns from the function the shell is in.
                    if let Err(f @ (Flow::Exit(_) | Flow::Return(_))) = r {
                        return Err(f);
                    }
                    self.status = saved;
                }
                None => {
                    if self.proc.mailbox().is_fatal(sig) {
                        return Err(self.die_of(sig));
                    }
                }
            }
        }
        Ok(())
    }

    /// Waits for a job's thread, as `wait` does: a trapped signal for this shell ends
    /// the wait early (the handle goes back to the job), a fatal one ends the shell.
    pub(crate) fn join_interruptibly(
        &mut self,
        pid: u32,
        handle: std::thread::JoinHandle<i32>,
        lane: Option<&crate::fs::Lane>,
    ) -> Result<Result<i32, Joined>, Flow> {
        let _waiting = match lane {
            Some(l) => crate::fs::blocked_on(&[l]),
            None => crate::fs::blocked(),
        };
        let _cut_short = self.proc.mailbox().interruptible();
        loop {
            if handle.is_finished() {
                return Ok(Ok(handle.join().unwrap_or(1)));
            }
            self.signal_check()?;
            if let Some(sig) = self.proc.mailbox().caught_pending() {
                self.return_job_handle(pid, handle);
                self.catch_up_with_signals();
                return Ok(Err(Joined::Interrupted(sig)));
            }
            self.procs.wait_change(Duration::from_millis(10));
        }
    }

    /// Taking a signal moves this shell's time up to when it was sent.
    fn catch_up_with_signals(&self) {
        if let Some(at) = self.proc.mailbox().sent_at() {
            self.fs.lock().clock().catch_up_to(at);
        }
    }

    fn return_job_handle(&mut self, pid: u32, handle: std::thread::JoinHandle<i32>) {
        let mut jt = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(j) = jt.jobs.iter_mut().find(|j| j.pid == pid) {
            j.handle = Some(handle);
        }
    }

    /// After a foreground command that a signal killed (a subshell, a child shell, a
    /// utility): bash's report on stderr. A script says which signal and where
    /// (`bash: line 3: 4243 Killed  sleep 9`); SIGTERM only by name, SIGINT and
    /// SIGPIPE not at all, nor anything inside a command substitution.
    pub(crate) fn report_killed(&mut self, pid: u32, sig: i32, command: &str) {
        if matches!(sig, procs::SIGINT | 13) || self.cmdsub_depth > 0 || self.interactive {
            return;
        }
        let Some(desc) = super::builtins::misc::signal_description(sig) else {
            return;
        };
        let trapped = self
            .traps
            .get(&super::builtins::signal_name(sig))
            .is_some_and(|a| !a.is_empty());
        if sig == procs::SIGTERM || trapped {
            self.errln(&desc);
        } else {
            self.error(&format!("{pid:5} {desc:<24}{command}"));
        }
    }

    /// bash's notify_and_cleanup, run after it has waited for a process it started (a
    /// utility, a subshell, a pipeline, `wait`): the jobs that have ended since are
    /// reported on stderr and leave the table (`wait PID` still finds their status).
    /// A job a signal ended is reported as `bash: line 3: 4243 Killed  sleep 9` (not
    /// for INT, TERM or PIPE, nor a trapped signal); with job control the rest as
    /// `[1]+  Done  true`. A shell reading a script rather than `-c` text leaves jobs
    /// that simply ended for `jobs` to report; a command substitution, and a POSIX
    /// shell, report none (keeping the last one started until it is waited for).
    pub(crate) fn notify_jobs(&mut self) {
        if self.interactive {
            return;
        }
        let now = self.fs.lock().clock().now();
        let monitor = self.set.monitor && !self.in_subshell;
        let quiet = self.command_string_mode && (self.cmdsub_depth > 0 || self.set.posix);
        let mut notices = Vec::new();
        let mut gone = Vec::new();
        let mut jt = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        for j in jt.listed() {
            if j.foreign || !j.ended_before(now) {
                continue;
            }
            let sig = j.end_signal();
            if !self.command_string_mode && sig.is_none() {
                continue;
            }
            if quiet {
                if Some(j.pid) != self.last_bg {
                    gone.push(j.pid);
                }
                continue;
            }
            let trapped = |s: i32| {
                self.traps
                    .get(&super::builtins::signal_name(s))
                    .is_some_and(|a| !a.is_empty())
            };
            match sig {
                Some(s) if !matches!(s, procs::SIGINT | 13 | procs::SIGTERM) && !trapped(s) => {
                    let desc = j.end_text(self.set.posix);
                    notices.push((true, format!("{:5} {desc:<24}{}", j.pid, j.command)));
                }
                _ if monitor => {
                    let mut line = format!(
                        "[{}]{}  {:<24}{}",
                        j.id,
                        jt.mark(j.pid),
                        j.end_text(self.set.posix),
                        j.command
                    );
                    if j.wd != self.cwd {
                        line.push_str(&format!("  (wd: {})", self.polite_dir(&j.wd)));
                        line.push_str(&format!("\n(wd now: {})", self.polite_dir(&self.cwd)));
                    }
                    notices.push((false, line));
                }
                _ => {}
            }
            gone.push(j.pid);
        }
        for pid in gone {
            jt.forget(pid, now);
        }
        drop(jt);
        for (located, line) in notices {
            if located {
                self.error(&line);
            } else {
                self.errln(&line);
            }
        }
    }

    /// A directory as bash shows it in job listings and prompts: `~` for `$HOME`.
    pub(crate) fn polite_dir(&self, dir: &str) -> String {
        let home = self.get_str("HOME").unwrap_or_default();
        match dir.strip_prefix(home.as_str()) {
            Some(rest)
                if !home.is_empty()
                    && home != "/"
                    && (rest.is_empty() || rest.starts_with('/')) =>
            {
                format!("~{rest}")
            }
            _ => dir.to_owned(),
        }
    }

    /// After a command that waited for a process it started: the job notices.
    pub(crate) fn notify_if_reaped(&mut self) {
        if std::mem::take(&mut self.reaped) {
            self.notify_jobs();
        }
    }

    /// Whether this shell may become the program its last command runs: no EXIT or
    /// ERR trap is set (not even an empty one) and no signal is caught (ignored
    /// signals stay ignored across exec); DEBUG and RETURN traps do not stop it.
    pub(crate) fn can_exec(&self) -> bool {
        self.traps.iter().all(|(name, action)| match name.as_str() {
            "EXIT" | "ERR" => false,
            "DEBUG" | "RETURN" => true,
            _ => action.is_empty(),
        })
    }

    /// A new process for a utility this shell runs: its own pid in the shell's group,
    /// unless the shell was going to end with it (then the shell becomes it, as bash
    /// runs such a command without forking).
    pub(crate) fn utility_process(&mut self, words: &[String]) -> Option<Arc<procs::Process>> {
        let comm = words
            .first()
            .map(|w| w.rsplit('/').next().unwrap_or(w).to_owned())
            .unwrap_or_default();
        let args = words.join(" ");
        if self.take_no_fork() {
            self.proc.set_command(&comm, &args);
            return Some(self.proc.clone());
        }
        let now = self.fs.lock().clock().now();
        self.procs
            .spawn(procs::Spawn {
                ppid: self.bashpid,
                pgid: Some(self.pgid),
                sid: Some(self.sid),
                kind: Kind::Utility,
                comm,
                args,
                start: now.secs,
                host: Some(self.proc.mailbox().clone()),
                ignored: self.proc.mailbox().ignored(),
            })
            .map(Arc::new)
    }
}
