//! Executing commands: lists, pipelines (stages run concurrently over in-memory pipes),
//! compound commands, functions, and simple commands with their lookup order (function,
//! builtin, utility).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::io::{Capture, FdReader, FdWriter, OpenFile, pipe_in};
use super::vars::FrameKind;
use super::{CallFrame, ErrexitUnwind, Flow, Interp, Job, R};
use crate::commands::Stdio;
use crate::expand::{ErrorKind, ExpandError, Expander, Value};
use crate::syntax::*;

/// Which last command of a list that ends its process runs without another fork,
/// taking the process's place (a program run so gets SHLVL one lower, as bash lowers
/// it first): the last operand of `;`, `&&` or `||` (never one after `&`), a simple
/// command neither negated nor timed, with redirections as the context allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EndRule {
    /// A command alone in the list may carry redirections.
    pub lone_redirects: bool,
    /// The last of several may carry redirections.
    pub redirects: bool,
    /// Each line is a command of its own (a substitution's text, which bash runs
    /// as it runs `bash -c` text).
    pub lines_apart: bool,
    /// A `( )` alone in the list runs in place too, one level further down.
    pub subshells: bool,
}

impl EndRule {
    /// The text of `bash -c`, command by command.
    pub const TEXT: EndRule = EndRule {
        lone_redirects: false,
        redirects: false,
        lines_apart: false,
        subshells: false,
    };
    /// The body of `( )`.
    pub const PAREN: EndRule = EndRule {
        lone_redirects: true,
        redirects: false,
        lines_apart: false,
        subshells: true,
    };
    /// The body of `$( )`.
    pub const COMSUB: EndRule = EndRule {
        lone_redirects: false,
        redirects: false,
        lines_apart: true,
        subshells: false,
    };
    /// The body of `<( )` or `>( )`.
    pub const PROCSUB: EndRule = EndRule {
        lone_redirects: true,
        redirects: true,
        lines_apart: true,
        subshells: false,
    };

    /// Whether the last of `items` may take the process's place.
    fn admits(self, items: &[ListItem]) -> bool {
        let Some((last, before)) = items.split_last() else {
            return false;
        };
        if last.background || before.last().is_some_and(|i| i.background) {
            return false;
        }
        let a = &last.and_or;
        // `a; b && c` is `;` joining `a` to an and-or list, not to a command.
        let preceded = before
            .last()
            .is_some_and(|i| !(self.lines_apart && i.newline));
        if preceded && !a.rest.is_empty() {
            return false;
        }
        let p = a.rest.last().map_or(&a.first, |(_, p)| p);
        let [c] = p.commands.as_slice() else {
            return false;
        };
        let lone = !preceded && a.rest.is_empty();
        let redirects_ok = if lone {
            self.lone_redirects
        } else {
            self.redirects
        };
        let kind_ok = match c.kind {
            CommandKind::Simple(_) => true,
            CommandKind::Subshell(_) => self.subshells && lone,
            _ => false,
        };
        !p.negated && p.time.is_none() && kind_ok && (c.redirects.is_empty() || redirects_ok)
    }
}

/// Where a forked shell runs (see [`Interp::fork_process`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// On this thread, while this shell waits: killing this shell stops it too.
    Inline,
    /// On a thread of its own (a job, a pipeline stage, a process substitution).
    Detached,
    /// As this very process (a program it runs as its last command).
    Exec,
}

impl Interp {
    /// Charges one command against the budget; a check point for signals.
    pub(crate) fn charge(&self) -> Result<(), Flow> {
        self.budget.charge_command().map_err(Flow::Fatal)?;
        crate::fs::tick();
        super::procs::poll_alarms();
        self.signal_check()
    }

    pub(crate) fn charge_loop(&self) -> Result<(), Flow> {
        self.budget.charge_iteration().map_err(Flow::Fatal)?;
        crate::fs::tick();
        super::procs::poll_alarms();
        self.signal_check()
    }

    /// Turns an expansion error into flow: prints it and aborts, exits, or fails.
    /// The status a fatal expansion error leaves the shell with: bash leaves a `-c`
    /// shell with 127 for these, but a script read from a file or stdin, a forked
    /// subshell, or any shell under `set -e`, exits with plain failure.
    fn fatal_exit_status(&self, status: i32) -> i32 {
        let plain = self.set.errexit || !self.command_string_mode;
        if (self.in_subshell && !self.forked_simple) || (status == 127 && plain) {
            1
        } else {
            status
        }
    }

    /// What a failed assignment does when no command follows it (or a special
    /// builtin does, or it is a `for` loop's): the line is abandoned, and in POSIX
    /// mode a non-interactive shell ends as on a fatal expansion error.
    fn assignment_error_flow(&self) -> Flow {
        if self.set.posix && !self.interactive {
            Flow::Exit(self.fatal_exit_status(127))
        } else {
            Flow::Abort
        }
    }

    /// Whether an error bash raises through its `report_error` ends the shell: under
    /// `set -e`, in a shell that is not interactive, whatever the context.
    pub(crate) fn errexit_reports(&self) -> bool {
        self.set.errexit && !self.interactive
    }

    pub(crate) fn expand_error(&mut self, e: ExpandError) -> R {
        match e.kind {
            ErrorKind::Report => {
                self.error(&e.message);
                if self.errexit_reports() {
                    return Err(Flow::Exit(if self.status == 0 { 1 } else { self.status }));
                }
                Err(Flow::Abort)
            }
            ErrorKind::Abort => {
                self.error(&e.message);
                // Under `set -e` the abandoned line is a failure that ends the shell.
                if self.set.errexit && !self.interactive {
                    return Err(Flow::Exit(1));
                }
                Err(Flow::Abort)
            }
            ErrorKind::Fatal(status) => {
                if e.message.starts_with('\u{0}') {
                    return Err(Flow::Fatal(e.message[1..].to_owned()));
                }
                self.error(&e.message);
                // An interactive shell only abandons the current line.
                if self.interactive && !self.in_subshell {
                    return Err(Flow::Abort);
                }
                Err(Flow::Exit(self.fatal_exit_status(status)))
            }
            ErrorKind::Command => {
                self.error(&e.message);
                Ok(1)
            }
            ErrorKind::Discard => {
                self.error(&e.message);
                self.status = 1;
                Err(self.discard_flow())
            }
        }
    }

    pub fn exec_list(&mut self, l: &List) -> R {
        let mut status = self.status;
        // The list ends the process: its last command may become the process.
        let in_place = match self.list_ends.take() {
            Some(rule) if rule.admits(&l.items) => l.items.len(),
            _ => 0,
        };
        self.paren_in_place = in_place > 0
            && l.items.last().is_some_and(|i| {
                matches!(i.and_or.first.commands.as_slice(), [c] if matches!(c.kind, CommandKind::Subshell(_)))
            });
        for (i, item) in l.items.iter().enumerate() {
            if item.background {
                self.spawn_background(&item.and_or)?;
                status = 0;
                self.status = 0;
            } else {
                status = self.exec_and_or(&item.and_or, i + 1 == in_place)?;
                self.status = status;
            }
            self.run_pending_signals()?;
        }
        Ok(status)
    }

    /// Runs the lists of a body that ends its process (a substitution's), the last
    /// command as `rule` lets it take the process's place.
    pub(crate) fn exec_body_ending(&mut self, body: &Script, rule: EndRule) -> R {
        let mut r = Ok(0);
        let n = body.commands.len();
        for (i, l) in body.commands.iter().enumerate() {
            if i + 1 == n {
                // Lists before it joined to it by a newline: `a\nb` is `a; b`.
                let before = i
                    .checked_sub(1)
                    .and_then(|j| body.commands.get(j))
                    .and_then(|l| l.items.last());
                // Each line is a command of its own, as bash runs a substitution's
                // text: only one after `&` is not the last alone.
                self.list_ends = match before {
                    Some(item) if item.background => None,
                    _ => Some(rule),
                };
            }
            r = self.exec_list(l);
            if r.is_err() {
                break;
            }
        }
        self.list_ends = None;
        r
    }

    /// Runs an and-or list; with `in_place`, its last pipeline (a lone simple command,
    /// see [`EndRule`]) ends the process.
    fn exec_and_or(&mut self, a: &AndOr, in_place: bool) -> R {
        let last_index = a.rest.len();
        let mut status;
        // The ERR trap answers a failure only if it was set as the command began: one
        // a function or `eval` sets is not run for that call's own status.
        if last_index == 0 {
            self.exec_last |= in_place;
            let armed = self.trap_active("ERR");
            let negated = a.first.negated && !self.take_uninvert(a);
            status = self.exec_pipeline_as(&a.first, negated)?;
            if self.compound_status {
                return Ok(status);
            }
            return self.check_errexit_armed(status, negated, armed);
        }
        self.no_errexit += 1;
        let r = self.exec_pipeline(&a.first);
        self.no_errexit -= 1;
        status = r?;
        self.status = status;
        let mut ran_last = false;
        let mut negated = a.first.negated;
        let mut armed = false;
        for (i, (op, p)) in a.rest.iter().enumerate() {
            let run = match op {
                AndOrOp::And => status == 0,
                AndOrOp::Or => status != 0,
            };
            if !run {
                continue;
            }
            let last = i + 1 == last_index;
            if !last {
                self.no_errexit += 1;
            }
            self.exec_last |= last && in_place;
            armed = self.trap_active("ERR");
            let r = self.exec_pipeline(p);
            if !last {
                self.no_errexit -= 1;
            }
            status = r?;
            self.status = status;
            ran_last = last;
            negated = p.negated;
        }
        if ran_last && !self.compound_status {
            return self.check_errexit_armed(status, negated, armed);
        }
        Ok(status)
    }

    /// Whether `a` is the and-or list whose `!` the subshell around it drops (see
    /// [`Interp::uninvert`]); the mark is used once.
    fn take_uninvert(&mut self, a: &AndOr) -> bool {
        self.uninvert != 0 && std::mem::take(&mut self.uninvert) == std::ptr::from_ref(a) as usize
    }

    /// Runs a `( )` body in this (the subshell's) process. A body that is one `!`
    /// pipeline runs without its `!`, as bash's execute_in_subshell does: its failures
    /// meet the ERR trap and `set -e` inside, and the process's status is inverted
    /// instead, whether the pipeline finished, returned or `set -e` or an expansion
    /// error ended it; not when `exit`, `exec`, a signal or an integer assignment's
    /// arithmetic error did.
    fn exec_paren_body(&mut self, l: &List) -> R {
        let single = match l.items.as_slice() {
            [item]
                if !item.background && item.and_or.rest.is_empty() && item.and_or.first.negated =>
            {
                Some(&item.and_or)
            }
            _ => None,
        };
        let Some(a) = single else {
            return self.exec_list(l);
        };
        self.uninvert = std::ptr::from_ref(a) as usize;
        self.status_final = false;
        let r = self.exec_list(l);
        self.uninvert = 0;
        let inv = |s: i32| i32::from(s == 0);
        match r {
            Ok(s) | Err(Flow::Return(s)) => Ok(inv(s)),
            Err(Flow::Abort) => Ok(0),
            Err(Flow::Exit(s))
                if !self.status_final
                    && !self.replaced
                    && self.proc.mailbox().died_of().is_none() =>
            {
                Ok(inv(s))
            }
            other => other,
        }
    }

    /// Runs `cmd` as a stage of a pipeline (see [`Interp::stage_check`]).
    fn exec_stage(&mut self, cmd: &Command) -> R {
        let armed = self.trap_active("ERR");
        let r = self.exec_command(cmd);
        self.stage_check(cmd, armed, r)
    }

    /// A `[[ ]]` or `(( ))` checks its own failure against the ERR trap and `set -e`
    /// (bash's execute_cond_command and execute_arith_command do), which shows where
    /// nothing checks it after: as a pipeline stage (the shell's own under
    /// `lastpipe`, which the pipeline's check then follows) or a job by itself.
    fn stage_check(&mut self, cmd: &Command, armed: bool, r: R) -> R {
        match r {
            Ok(s) if matches!(cmd.kind, CommandKind::Cond(_) | CommandKind::Arith(_)) => {
                self.check_errexit_armed(s, false, armed)
            }
            r => r,
        }
    }

    /// `set -e`: exit on a failed command outside conditions.
    pub(crate) fn check_errexit(&mut self, status: i32, negated: bool) -> R {
        self.check_errexit_armed(status, negated, true)
    }

    /// [`Interp::check_errexit`] for a command that began with an ERR trap set
    /// (`armed`) or not.
    fn check_errexit_armed(&mut self, status: i32, negated: bool, armed: bool) -> R {
        if status == 0 || negated || self.no_errexit > 0 {
            return Ok(status);
        }
        // The ERR trap sees the failing status in `$?`.
        self.status = status;
        if armed {
            self.run_err_trap()?;
        }
        if self.set.errexit {
            if self.errexit_unwind == ErrexitUnwind::None {
                self.errexit_unwind = ErrexitUnwind::Raised;
            }
            return Err(Flow::Exit(status));
        }
        Ok(status)
    }

    /// Whether a trap on `name` fires now: it is set and its own handler is not running
    /// (an ERR trap still fires inside a DEBUG trap, a DEBUG trap inside a signal
    /// handler). Functions and sourced files that do not inherit ERR, DEBUG or RETURN
    /// run with them unset ([`Interp::hide_traps`]).
    pub(crate) fn trap_active(&self, name: &str) -> bool {
        // No trap set (the usual case): nothing to look up, on every command and call.
        if self.traps.is_empty() {
            return false;
        }
        self.traps.contains_key(name) && !self.running_traps.iter().any(|t| t == name)
    }

    /// Unsets the traps a function or sourced file does not inherit and gives them back
    /// for [`Interp::restore_hidden_traps`], as bash's execute_function and source do:
    /// a function without the trace attribute (and no `set -T`) runs without DEBUG and
    /// RETURN, one called from a DEBUG trap without RETURN, and without `set -E` without
    /// ERR; a sourced file runs without DEBUG unless `set -T`.
    pub(crate) fn hide_traps(&mut self, function: bool, traced: bool) -> Vec<(String, String)> {
        if self.traps.is_empty() {
            return Vec::new();
        }
        let untraced = !traced && !self.set.functrace;
        let in_debug = self.running_traps.iter().any(|t| t == "DEBUG");
        let mut hidden = Vec::new();
        for (name, hide) in [
            ("DEBUG", untraced),
            ("ERR", function && !self.set.errtrace),
            ("RETURN", function && (untraced || in_debug)),
        ] {
            if hide && let Some(action) = self.traps.remove(name) {
                hidden.push((name.to_owned(), action));
            }
        }
        hidden
    }

    /// Puts back the traps [`Interp::hide_traps`] took, each unless the function or file
    /// set that trap itself meanwhile (bash's maybe_set_debug_trap and friends): a trap
    /// set inside stays set after it returns.
    pub(crate) fn restore_hidden_traps(&mut self, hidden: Vec<(String, String)>) {
        for (name, action) in hidden {
            if !self.traps.contains_key(&name) {
                self.traps.insert(name, action);
            }
        }
    }

    /// Runs the RETURN trap as a function or sourced file finishes, if one is set and
    /// not already running, and gives what the call ends with. `$?` there is the
    /// status the body ended with, or, after `return N`, the one `return` saw (bash's
    /// return unwinds before it sets `$?`). `exit` in the handler ends the shell, and
    /// `return N` returns with N: from the function again, which runs the trap once
    /// more (so a handler that always returns never ends, as in bash), or, for a file,
    /// from the function or file that sourced it.
    pub(crate) fn run_return_trap(&mut self, ended: R, function: bool) -> R {
        let s = match ended {
            Ok(s) => s,
            Err(Flow::Return(_)) => self.status,
            Err(_) => return ended,
        };
        // A file's own `return` ends only the file.
        let mut ended = match ended {
            Err(Flow::Return(n)) if !function => Ok(n),
            other => other,
        };
        while self.trap_active("RETURN")
            && let Some(action) = self.traps.get("RETURN").cloned()
        {
            self.status = s;
            match self.run_trap_action("RETURN", "return trap", &action) {
                Err(Flow::Return(n)) if function => ended = Err(Flow::Return(n)),
                Err(f @ (Flow::Return(_) | Flow::Exit(_) | Flow::Fatal(_))) => return Err(f),
                _ => break,
            }
        }
        ended
    }

    /// Notes the command about to run as `$BASH_COMMAND`, as bash does: not while a
    /// trap's handler runs, and only once some text mentions the variable.
    #[inline]
    pub(crate) fn note_command(&mut self, text: impl FnOnce() -> String) {
        if self.track_command && self.running_traps.is_empty() {
            self.bash_command = printer::internal_quoting(text);
        }
    }

    /// A reader of `eval`, `.` or trap handler text ends with `r`: the exit `set -e`
    /// raised passes a reader here (see [`ErrexitUnwind`]).
    pub(crate) fn errexit_caught(&mut self, r: &R) {
        if !matches!(r, Err(Flow::Exit(_))) {
            return;
        }
        self.errexit_unwind = match self.errexit_unwind {
            ErrexitUnwind::None => ErrexitUnwind::None,
            ErrexitUnwind::Raised if self.in_function() => ErrexitUnwind::Reporting,
            _ => ErrexitUnwind::Done,
        };
    }

    /// Runs the text of `eval` or `.` as bash's parse_and_execute does: the
    /// `$BASH_COMMAND` noted before it (if any) is put back once the text is done, and
    /// an exit `set -e` raised inside is caught there ([`Interp::errexit_caught`]).
    pub(crate) fn parse_and_execute(&mut self, src: &str, label: Option<&str>) -> R {
        let noted = self.bash_command.clone();
        let r = self.run_source(src, label);
        if !noted.is_empty() {
            self.bash_command = noted;
        }
        self.errexit_caught(&r);
        r
    }

    /// Runs the DEBUG trap before a command ($? is kept) and gives its status, 0 when
    /// none ran. Under extdebug a status of 2 in a function or sourced file returns
    /// from it, as `return 2` would (bash's `run_debug_trap`).
    pub(crate) fn run_debug_trap(&mut self) -> Result<i32, Flow> {
        if !self.trap_active("DEBUG") {
            return Ok(0);
        }
        let Some(action) = self.traps.get("DEBUG").cloned() else {
            return Ok(0);
        };
        let saved = self.status;
        let r = self.run_trap_action("DEBUG", "debug trap", &action);
        self.status = saved;
        // `return` there returns from the function (or file) the command is in.
        let status = match r {
            Err(f @ (Flow::Exit(_) | Flow::Fatal(_) | Flow::Return(_))) => return Err(f),
            Ok(s) => s,
            Err(_) => 0,
        };
        if status == 2 && self.extdebug() && (self.in_function() || self.sourcing > 0) {
            return Err(Flow::Return(2));
        }
        Ok(status)
    }

    /// Runs the DEBUG trap; true when extdebug has it skip the command (bash manual,
    /// `extdebug` 2: a non-zero status skips the next command). Simple commands,
    /// `case`, `((`, `[[` and each `for` iteration honour it, as bash's do.
    pub(crate) fn debug_skip(&mut self) -> Result<bool, Flow> {
        let s = self.run_debug_trap()?;
        Ok(s != 0 && self.extdebug())
    }

    /// Runs the ERR trap. `exit` in it ends the shell and `return` in a function
    /// returns from it, as `trap 'echo failed; exit 1' ERR` relies on.
    fn run_err_trap(&mut self) -> Result<(), Flow> {
        if !self.trap_active("ERR") {
            return Ok(());
        }
        if let Some(action) = self.traps.get("ERR").cloned() {
            let saved = self.status;
            let r = self.run_trap_action("ERR", "error trap", &action);
            self.status = saved;
            if let Err(f @ (Flow::Exit(_) | Flow::Fatal(_) | Flow::Return(_))) = r {
                return Err(f);
            }
        }
        Ok(())
    }

    /// Runs a trap handler, marking the trap as running meanwhile.
    /// `label` names the handler in syntax-error messages (`bash: debug trap: line 1:`).
    /// The handler's commands are parsed afresh, so a condition the trapped command
    /// sits in (`false || ...`, `if`, `!`) does not exempt them from `set -e` or ERR.
    pub(crate) fn run_trap_action(&mut self, name: &str, label: &str, action: &str) -> R {
        self.running_traps.push(name.to_owned());
        self.xtrace_level += 1;
        let exempt = std::mem::take(&mut self.no_errexit);
        // In a DEBUG handler `return` takes the status of the handler's last command.
        let status = (name != "DEBUG").then_some(self.status);
        let saved_status = std::mem::replace(&mut self.trap_status, status);
        let r = self.run_source(action, Some(label));
        self.trap_status = saved_status;
        self.no_errexit = exempt;
        self.errexit_caught(&r);
        if matches!(r, Err(Flow::Exit(_))) && self.exited_in_traps.is_none() {
            self.exited_in_traps = Some(self.running_traps.clone());
        }
        self.xtrace_level -= 1;
        self.running_traps.pop();
        r
    }

    fn exec_pipeline(&mut self, p: &Pipeline) -> R {
        self.exec_pipeline_as(p, p.negated)
    }

    /// Runs pipeline `p`, with its `!` or (`negated` false) without it.
    fn exec_pipeline_as(&mut self, p: &Pipeline, negated: bool) -> R {
        if self.coproc.is_some() {
            self.reap_coprocs();
        }
        self.line_before = self.line;
        self.line = self.at_line(p.line);
        let start = if p.time.is_some() {
            Some(std::time::Instant::now())
        } else {
            None
        };
        // `!` exempts its pipeline from `set -e` only when errexit is already on: a
        // `set -e` run inside it (say in a function) takes effect at once, and with
        // errexit off the ERR trap still fires for failures inside the pipeline.
        let exempt = negated && self.set.errexit;
        if exempt {
            self.no_errexit += 1;
        }
        self.negating += u32::from(negated);
        self.compound_status = false;
        let r = if p.commands.is_empty() {
            Ok(0)
        } else if p.commands.len() == 1 {
            let r = self.exec_command(&p.commands[0]);
            // A compound command (other than a subshell, `((` or `[[`) and a function
            // definition leave PIPESTATUS as the last pipeline inside them set it.
            let sets = matches!(
                p.commands[0].kind,
                CommandKind::Simple(_)
                    | CommandKind::Subshell(_)
                    | CommandKind::Arith(_)
                    | CommandKind::Cond(_)
                    | CommandKind::Coproc(_)
            );
            if let Err(Flow::Break(_) | Flow::Continue(_)) = r
                && sets
            {
                self.pipestatus.clear();
                self.pipestatus.push(self.break_status);
            }
            if let Ok(s) = r
                && sets
            {
                // The buffer is kept: one allocation less per command.
                self.pipestatus.clear();
                self.pipestatus.push(s);
            }
            r
        } else {
            let r = self.exec_multi(p);
            self.compound_status = false;
            self.reaped = false;
            self.notify_jobs();
            r
        };
        if exempt {
            self.no_errexit -= 1;
        }
        self.negating -= u32::from(negated);
        // `! break` and `! continue` still negate: the loop they leave (or go on
        // with) sees the negated status.
        if negated && matches!(r, Err(Flow::Break(_) | Flow::Continue(_))) {
            self.break_status = (self.break_status == 0) as i32;
        }
        let mut status = r?;
        if negated {
            status = (status == 0) as i32;
        }
        if let Some(start) = start {
            let format = if p.time == Some(TimeFlag::Posix) {
                Some("real %2R\nuser %2U\nsys %2S".to_owned())
            } else {
                self.get_str("TIMEFORMAT")
                    .or_else(|| Some("\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS".to_owned()))
            };
            match format.filter(|f| !f.is_empty()) {
                None => {}
                Some(f) => match time_report(&f, start.elapsed()) {
                    Ok(text) => {
                        let _ = self.write_fd(2, text.as_bytes());
                    }
                    Err(c) => {
                        let msg = format!(
                            "{}TIMEFORMAT: `{c}': invalid format character\n",
                            self.err_prefix()
                        );
                        let _ = self.write_fd(2, msg.as_bytes());
                    }
                },
            }
        }
        Ok(status)
    }

    /// A copy of this shell for a subshell that runs on this thread while this shell
    /// waits for it: same state, its own pid.
    pub(crate) fn fork_subshell(&self) -> Result<Interp, Flow> {
        self.fork_process(super::procs::Kind::Subshell, Placement::Inline)
    }

    /// Whether `cmd`, forked from this shell as a pipeline stage, is a simple command
    /// that keeps this shell's status for fatal expansion errors.
    fn forks_simple(&self, cmd: &Command) -> bool {
        matches!(cmd.kind, CommandKind::Simple(_)) && (!self.in_subshell || self.forked_simple)
    }

    /// A copy of this shell for a subshell on a thread of its own (a job, a pipeline
    /// stage, a process substitution): killing this shell does not stop it.
    pub(crate) fn fork_detached(&self) -> Result<Interp, Flow> {
        self.fork_process(super::procs::Kind::Subshell, Placement::Detached)
    }

    /// A copy of this shell as a process of `kind`, placed as `at` says.
    pub(crate) fn fork_process(
        &self,
        kind: super::procs::Kind,
        at: Placement,
    ) -> Result<Interp, Flow> {
        if self.subshell as usize >= self.budget.limits.max_subshell_depth {
            return Err(Flow::Fatal(format!(
                "subshell nesting limit exceeded ({})",
                self.budget.limits.max_subshell_depth
            )));
        }
        let mut c = self.clone();
        // What the parent's redirections replaced is the parent's to put back: the
        // child keeps only the descriptors themselves (the copies at 10 and up too).
        c.redirected = Vec::new();
        c.subshell += 1;
        c.in_subshell = true;
        c.forked_simple = false;
        c.reports_lost_scopes = false;
        c.exec_last = false;
        c.no_fork = false;
        c.paren_in_place = false;
        c.pipeline_job = false;
        c.exec_builtin = false;
        c.list_ends = None;
        c.functions_end = false;
        c.stage_process = false;
        c.coproc = None;
        let now = self.fs.lock().clock().now();
        let info = self.proc.info();
        let (comm, args) = info
            .map(|i| (i.comm, i.args))
            .unwrap_or_else(|| ("bash".to_owned(), "bash".to_owned()));
        if at == Placement::Exec {
            self.proc.mailbox().set_kind(kind);
        }
        let proc = if at == Placement::Exec {
            self.proc.clone()
        } else {
            Arc::new(
                self.procs
                    .spawn(super::procs::Spawn {
                        ppid: self.bashpid,
                        pgid: Some(self.pgid),
                        sid: Some(self.sid),
                        kind,
                        comm,
                        args,
                        start: now.secs,
                        host: (at == Placement::Inline).then(|| self.proc.mailbox().clone()),
                        ignored: self.proc.mailbox().ignored(),
                    })
                    .ok_or_else(|| {
                        Flow::Fatal(format!(
                            "process limit exceeded ({} processes)",
                            super::procs::MAX_PROCS
                        ))
                    })?,
            )
        };
        c.bashpid = proc.pid();
        c.proc = proc;
        // Traps other than ignored ones are reset in subshells (ERR survives with
        // `set -E`, DEBUG and RETURN with `set -T`); `trap -p` still lists the parent's.
        let keep = |k: &str, v: &str| {
            v.is_empty()
                || (k == "ERR" && self.set.errtrace)
                || (matches!(k, "DEBUG" | "RETURN") && self.set.functrace)
        };
        c.traps = self
            .traps
            .iter()
            .filter(|(k, v)| keep(k, v))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        c.parent_traps = self.traps.clone();
        c.sync_dispositions();
        // A subshell has its own jobs; it still lists the parent's (without owning them).
        let listed = {
            let jt = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
            let jobs = jt
                .listed()
                .map(|j| {
                    let done = j.finished_by(now);
                    Job {
                        id: j.id,
                        pid: j.pid,
                        command: j.command.clone(),
                        stages: j.stages.clone(),
                        handle: None,
                        status: j
                            .status
                            .or_else(|| done.then(|| j.ended.get().copied().unwrap_or(0))),
                        foreign: true,
                        killed_by: j.end_signal().filter(|_| done),
                        lane: None,
                        mailbox: None,
                        ended: Default::default(),
                        wd: j.wd.clone(),
                    }
                })
                .collect();
            super::JobTable {
                jobs,
                current: jt.current,
                previous: jt.previous,
            }
        };
        c.jobs = Arc::new(std::sync::Mutex::new(listed));
        Ok(c)
    }

    /// Enters a job just started (its thread, lane and process) in the table as the
    /// current job; `$!` is its pid.
    fn add_job(
        &mut self,
        pid: u32,
        command: String,
        handle: std::thread::JoinHandle<i32>,
        lane: crate::fs::Lane,
        mailbox: Arc<super::procs::Mailbox>,
        ended: Arc<std::sync::OnceLock<i32>>,
    ) {
        let now = self.fs.lock().clock().now();
        let job = Job::started(pid, command, handle, lane, mailbox, ended, self.cwd.clone());
        self.jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .add(job, now);
        self.last_bg = Some(pid);
    }

    /// A new process, or a subshell bash starts without job control: it lists none of
    /// the shell's jobs.
    pub(crate) fn without_parent_jobs(&mut self) {
        self.jobs = Arc::new(std::sync::Mutex::new(super::JobTable::default()));
    }

    /// Whether `c` is a plain call of the `jobs` builtin (which keeps the job list in a
    /// pipeline, where bash forks it).
    fn is_jobs_builtin(&self, c: &Command) -> bool {
        matches!(&c.kind, CommandKind::Simple(sc)
            if sc.words.first().and_then(|w| w.as_literal()).is_some_and(|w| w == "jobs"))
            && !self.funcs.contains_key("jobs")
            && self.builtin("jobs").is_some()
    }

    /// Runs a forked shell's command to completion: its exit status.
    pub(crate) fn finish_subshell(&mut self, r: R) -> Result<i32, Flow> {
        let status = match r {
            Ok(s) => s,
            Err(Flow::Exit(s)) | Err(Flow::Return(s)) => s,
            Err(Flow::Break(_)) | Err(Flow::Continue(_)) => self.status,
            Err(Flow::Abort) => 1,
            Err(Flow::Fatal(m)) => return Err(Flow::Fatal(m)),
        };
        self.status = status;
        Ok(self.run_exit_trap())
    }

    pub(crate) fn reserve_thread(&self) -> Result<(), Flow> {
        let n = self.budget.threads.fetch_add(1, Ordering::Relaxed);
        if n as usize >= self.budget.limits.max_threads {
            self.budget.threads.fetch_sub(1, Ordering::Relaxed);
            return Err(Flow::Fatal(format!(
                "concurrent pipeline stage and job limit exceeded ({} threads)",
                self.budget.limits.max_threads
            )));
        }
        Ok(())
    }

    fn exec_multi(&mut self, p: &Pipeline) -> R {
        let n = p.commands.len();
        // bash notes each simple stage (and runs the DEBUG trap for it) in the parent
        // before it forks the stage, so the last one is what the parent shows after;
        // with an ERR trap set it notes a `( )` stage too, as it does a lone `( )`.
        let debug = self.trap_active("DEBUG");
        if debug || self.track_command {
            let err = self.traps.contains_key("ERR");
            for c in &p.commands {
                match c.kind {
                    CommandKind::Simple(_) => {
                        self.note_command(|| printer::command_with_docs(c));
                        if debug {
                            self.line = self.at_line(c.line);
                            self.run_debug_trap()?;
                        }
                    }
                    CommandKind::Subshell(_) if err => {
                        self.note_command(|| printer::command_layout(c));
                    }
                    _ => {}
                }
            }
        }
        let mut handles = Vec::new();
        // Each stage but the last runs on a lane of its own (see below).
        let clock = self.fs.lock().clock().clone();
        let mut lanes = Vec::new();
        let mut prev = None;
        let mut last_status = Ok(0);
        let lastpipe = self
            .shopt
            .has(const { crate::interp::Shopts::flag("lastpipe") })
            && !self.set.monitor;
        // Words for the run's first command go to the first stage (in source order,
        // whichever stage starts first), and stay for later commands if it takes none.
        let extra_args = self.extra_args.take();
        for (i, cmd) in p.commands.iter().enumerate() {
            let (next_r, w) = if i + 1 < n {
                let (r, w) = pipe_in(&self.budget);
                (Some(r), Some(Arc::new(OpenFile::PipeW(w))))
            } else {
                (None, None)
            };
            let is_last = i + 1 == n;
            let simple = debug && matches!(cmd.kind, CommandKind::Simple(_));
            if is_last && lastpipe {
                let saved = self.fds.clone();
                if let Some(r) = prev.take() {
                    self.fds.set(0, Some(Arc::new(OpenFile::PipeR(r))));
                }
                self.stage_debugged = simple;
                last_status = self.exec_stage(cmd);
                self.stage_debugged = false;
                self.fds = saved;
                break;
            }
            let mut child = if is_last {
                self.fork_subshell()?
            } else {
                self.fork_detached()?
            };
            // Only `jobs` itself, run as a stage, still lists the shell's jobs.
            if !self.is_jobs_builtin(cmd) {
                child.without_parent_jobs();
            }
            child.exec_last = true;
            child.stage_process = true;
            child.forked_simple = self.forks_simple(cmd);
            // A compound stage is a subshell that starts outside any loop; a simple
            // command one still sees the loops around the pipeline.
            if !matches!(cmd.kind, CommandKind::Simple(_)) {
                child.loop_depth = 0;
            }
            child.stage_debugged = simple;
            if i == 0 {
                child.extra_args = extra_args.clone();
            }
            if let Some(r) = prev.take() {
                child.fds.set(0, Some(Arc::new(OpenFile::PipeR(r))));
            }
            if let Some(w) = w {
                child.fds.set(1, Some(w));
            }
            prev = next_r;
            if is_last {
                let r = child.exec_stage(cmd);
                last_status = child.finish_subshell(r);
                // bash waits for a final `( )` stage as it would for a lone subshell,
                // so its failure meets the ERR trap and `set -e` once more before the
                // pipeline's own check.
                // (Nothing waits for a background pipeline's stages.)
                if let (Ok(s), CommandKind::Subshell(_)) = (&last_status, &cmd.kind)
                    && *s != 0
                    && !self.pipeline_job
                {
                    self.check_errexit(*s, false)?;
                }
            } else {
                self.reserve_thread()?;
                let cmd = cmd.clone();
                let budget = self.budget.clone();
                // Stages run side by side: each keeps its own time, and the pipeline
                // takes as long as the slowest (`sleep 2 | sleep 1` takes two seconds).
                let lane = clock.fork_lane();
                lanes.push(lane.clone());
                let held = lane.hold();
                let spawned = super::pool::spawn(move || {
                    let _held = held;
                    let _on = lane.enter();
                    child.proc.mailbox().run_here();
                    let r = child.exec_stage(&cmd);
                    let s = child.finish_subshell(r);
                    drop(child);
                    budget.threads.fetch_sub(1, Ordering::Relaxed);
                    s
                });
                match spawned {
                    Ok(h) => handles.push(h),
                    Err(e) => {
                        self.budget.threads.fetch_sub(1, Ordering::Relaxed);
                        return Err(Flow::Fatal(super::pool::refused(
                            "a pipeline stage",
                            self.budget.limits.max_threads,
                            &e,
                        )));
                    }
                }
            }
        }
        drop(prev);
        self.extra_args = extra_args;
        let mut statuses = Vec::with_capacity(n);
        let mut fatal = None;
        for (h, lane) in handles.into_iter().zip(&lanes) {
            let waiting = crate::fs::blocked_on(&[lane]);
            let joined = h.join();
            drop(waiting);
            clock.catch_up(lane);
            match joined {
                Ok(Ok(s)) => statuses.push(s),
                Ok(Err(Flow::Fatal(m))) => {
                    fatal.get_or_insert(m);
                    statuses.push(126);
                }
                Ok(Err(_)) => statuses.push(1),
                Err(_) => statuses.push(1),
            }
        }
        let last = match last_status {
            Ok(s) => s,
            Err(Flow::Fatal(m)) => {
                return Err(Flow::Fatal(m));
            }
            // A `break` or `continue` in a last stage the shell runs itself ends the
            // pipeline first: PIPESTATUS has it, and the loop it leaves ends with the
            // pipeline's status (under pipefail, an earlier stage's failure).
            Err(e @ (Flow::Break(_) | Flow::Continue(_))) if lastpipe && fatal.is_none() => {
                statuses.push(self.break_status);
                self.break_status = self.pipeline_status(&statuses, self.break_status);
                self.pipestatus = statuses;
                return Err(e);
            }
            Err(e) if lastpipe => return Err(e),
            Err(_) => 1,
        };
        if let Some(m) = fatal {
            return Err(Flow::Fatal(m));
        }
        statuses.push(last);
        let status = self.pipeline_status(&statuses, last);
        self.pipestatus = statuses;
        Ok(status)
    }

    /// A pipeline's status from its stages': the last one's, or under pipefail the
    /// last failure's.
    fn pipeline_status(&self, statuses: &[i32], last: i32) -> i32 {
        if self.set.pipefail {
            statuses
                .iter()
                .rev()
                .find(|&&s| s != 0)
                .copied()
                .unwrap_or(0)
        } else {
            last
        }
    }

    fn spawn_background(&mut self, a: &AndOr) -> Result<(), Flow> {
        let running = self.budget.background.fetch_add(1, Ordering::Relaxed);
        if running as usize >= self.budget.limits.max_background_jobs {
            self.budget.background.fetch_sub(1, Ordering::Relaxed);
            return Err(Flow::Fatal(format!(
                "background job limit exceeded ({} jobs)",
                self.budget.limits.max_background_jobs
            )));
        }
        if let Err(e) = self.reserve_thread() {
            self.budget.background.fetch_sub(1, Ordering::Relaxed);
            return Err(e);
        }
        let mut child = match self.fork_detached() {
            Ok(c) => c,
            Err(e) => {
                self.budget.background.fetch_sub(1, Ordering::Relaxed);
                self.budget.threads.fetch_sub(1, Ordering::Relaxed);
                return Err(e);
            }
        };
        child.without_parent_jobs();
        let pid = child.bashpid;
        // Job control is the top-level shell's: a subshell's jobs stay in its group.
        if self.set.monitor && !self.in_subshell {
            // With job control a job is a process group of its own.
            child.pgid = pid;
            child.proc.set_pgid(pid);
        } else {
            // Without it, an asynchronous list ignores SIGINT (which `trap -p` shows)
            // and SIGQUIT, and reads /dev/null.
            child.traps.insert("SIGINT".to_owned(), String::new());
            child.os_ignored |= super::procs::bit(super::procs::SIGQUIT);
            child.sync_dispositions();
            child
                .fds
                .set(0, Some(Arc::new(OpenFile::Device(crate::fs::Device::Null))));
        }
        let a = a.clone();
        let budget = self.budget.clone();
        let text = crate::syntax::printer::job_to_string(&a);
        let stages: Vec<String> = if a.rest.is_empty() {
            a.first
                .commands
                .iter()
                .map(crate::syntax::printer::command_to_string)
                .collect()
        } else {
            Vec::new()
        };
        // A lone pipeline in the background is the job itself: its status is not
        // checked for the ERR trap or `set -e` in the job; commands nested deeper
        // still are.
        let pipeline_job = a.rest.is_empty();
        let lone = pipeline_job && a.first.commands.len() == 1;
        if pipeline_job && a.first.commands.len() > 1 {
            // bash forks each stage of a background pipeline from the shell itself,
            // one level down, not from a job shell between them.
            child.subshell = child.subshell.saturating_sub(1);
            child.pipeline_job = true;
        }
        let lone_simple = lone
            && matches!(a.first.commands.as_slice(), [c] if matches!(c.kind, CommandKind::Simple(_)));
        // bash runs a lone background pipeline without its `!`: the job's status is
        // the pipeline's own.
        child.exec_last = lone;
        child.forked_simple = lone_simple && (!self.in_subshell || self.forked_simple);
        // `sleep 9 &` is `sleep` from the start, as bash's child execs it at once.
        if lone_simple
            && let Some(CommandKind::Simple(sc)) = a.first.commands.first().map(|c| &c.kind)
            && let Some(name) = sc
                .words
                .first()
                .and_then(|w| w.as_literal())
                .map(str::to_owned)
            && !self.funcs.contains_key(&name)
            && self.builtin(&name).is_none()
            && self.registry.get(&name).is_some()
        {
            child.proc.set_command(&name, &text);
        }
        let mailbox = child.proc.mailbox().clone();
        let ended: Arc<std::sync::OnceLock<i32>> = Default::default();
        let job_ended = ended.clone();
        let lane = self.fs.lock().clock().fork_lane();
        let job_lane = lane.clone();
        let held = lane.hold();
        let handle = std::thread::Builder::new()
            .stack_size(super::pool::STACK)
            .spawn(move || {
                let _held = held;
                let _on = job_lane.enter();
                child.proc.mailbox().run_here();
                let r = if pipeline_job {
                    let armed = child.trap_active("ERR");
                    let r = child.exec_pipeline_as(&a.first, false);
                    match a.first.commands.as_slice() {
                        [c] => child.stage_check(c, armed, r),
                        _ => r,
                    }
                } else {
                    child.exec_and_or(&a, false)
                };
                // A limit hit in the job ends the whole run, not just the job.
                let s = match child.finish_subshell(r) {
                    Ok(s) => s,
                    Err(Flow::Fatal(m)) => {
                        budget.trip(&m);
                        126
                    }
                    Err(_) => 126,
                };
                drop(child);
                budget.threads.fetch_sub(1, Ordering::Relaxed);
                budget.background.fetch_sub(1, Ordering::Relaxed);
                let _ = job_ended.set(s);
                s
            });
        let handle = match handle {
            Ok(h) => h,
            Err(e) => {
                self.budget.threads.fetch_sub(1, Ordering::Relaxed);
                self.budget.background.fetch_sub(1, Ordering::Relaxed);
                return Err(Flow::Fatal(super::pool::refused(
                    "a background job",
                    self.budget.limits.max_threads,
                    &e,
                )));
            }
        };
        self.add_job(pid, text, handle, lane, mailbox, ended);
        if stages.len() > 1 {
            let mut jt = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(j) = jt.jobs.iter_mut().find(|j| j.pid == pid) {
                j.stages = stages;
            }
        }
        Ok(())
    }

    pub fn exec_command(&mut self, c: &Command) -> R {
        stacker::maybe_grow(256 * 1024, 4 << 20, || self.exec_command_inner(c))
    }

    fn exec_command_inner(&mut self, c: &Command) -> R {
        let r = self.exec_command_unchecked(c);
        if std::mem::take(&mut self.int_assign_failed) && matches!(r, Ok(_) | Err(Flow::Abort)) {
            self.status = 1;
            self.status_final = true;
            return Err(self.discard_flow());
        }
        // A filesystem size limit refused a write: the command saw EFBIG/ENOSPC, and
        // the run ends here rather than carrying on with a truncated file.
        if let Some(hit) = crate::fs::take_limit_hit() {
            let m = hit.to_string();
            self.budget.trip(&m);
            return Err(Flow::Fatal(m));
        }
        r
    }

    fn exec_command_unchecked(&mut self, c: &Command) -> R {
        // Only the command itself is the last one, not what it runs inside.
        let last = std::mem::take(&mut self.exec_last);
        // `set -n` (bash's read_but_dont_execute): from here on commands are read
        // and parsed but none runs, not even a later `set +n` or the EXIT trap.
        if self.set.noexec {
            return Ok(0);
        }
        if let CommandKind::Simple(s) = &c.kind {
            let r = self.exec_simple(c, s, last);
            self.compound_status = false;
            return r;
        }
        self.compound_status = false;
        if let CommandKind::FunctionDef(f) = &c.kind {
            self.line = self.at_line(c.line);
            if f.name.contains(['$', '`']) {
                self.error(&format!("`{}': not a valid identifier", f.name));
                return Ok(1);
            }
            // Fatal errors for a POSIX shell: a function name must be an identifier,
            // and no special builtin's.
            let bad = if !self.set.posix {
                None
            } else if !crate::syntax::parser::is_name(&f.name) {
                Some("not a valid identifier")
            } else if super::builtins::is_special_name(&f.name) {
                Some("is a special builtin")
            } else {
                None
            };
            if let Some(why) = bad {
                self.error(&format!("`{}': {why}", f.name));
                if !self.interactive {
                    return Err(Flow::Exit(2));
                }
                return Ok(2);
            }
            if self.readonly_funcs.contains(&f.name) {
                self.error(&format!("{}: readonly function", f.name));
                return Ok(1);
            }
            let mut f = f.clone();
            // Functions defined by `bash -c` text report `environment` as their file.
            let file = match (self.frames.last(), &self.script_name) {
                (Some(frame), _) => frame.source.clone(),
                (_, Some(name)) => name.as_str().into(),
                _ => "environment".into(),
            };
            f.source = Some(file);
            f.line = self.at_line(c.line);
            f.line_shift = self.line_shift;
            self.funcs.insert(f.name.clone(), Arc::new(f));
            return Ok(0);
        }
        let before = self.line_before;
        if c.redirects.is_empty() {
            // `{ }` itself never sets `$LINENO` (a function's body keeps the call's
            // line until a command inside runs).
            if !matches!(c.kind, CommandKind::BraceGroup(_)) {
                self.line = self.at_line(c.line);
            }
            let r = self.exec_compound_body(c, last);
            self.report_fg_death(c);
            return r;
        }
        // A process that ends with this command keeps nothing to put back: what it
        // redirected away is closed, as it would be after a fork.
        self.line = self.at_line(c.line);
        let saved = (!last).then(|| self.fds.clone());
        let mark = self.redirected.len();
        // A subshell applies its redirections as it starts, at its own line; other
        // compound commands at the line what encloses them set (`redir_line`).
        let own = self.line;
        let subshell = matches!(c.kind, CommandKind::Subshell(_));
        if !subshell && self.redir_line > 0 {
            self.line = self.redir_line;
        }
        self.redirecting_utility = subshell || saved.is_none();
        // A subshell's `{var}` redirections, as a program's, assign and open in its
        // own process only.
        let var_redirs = if subshell {
            self.var_redirs(&c.redirects)
        } else {
            Vec::new()
        };
        let applied = self.apply_redirects(&c.redirects);
        self.redirecting_utility = false;
        if saved.is_none() {
            self.release_undo(mark);
        }
        if subshell {
            self.close_var_redirs(mark);
        }
        let r = match applied {
            Ok(true) => {
                self.line = own;
                self.exec_compound_body(c, last)
            }
            // A compound command whose redirections fail never started: `$LINENO`
            // (in the ERR trap) stays the last command's. A subshell started, and
            // is the command the trap names.
            Ok(false) if subshell => {
                self.line = own;
                if self.traps.contains_key("ERR") {
                    self.note_command(|| printer::command_layout(c));
                }
                Ok(1)
            }
            Ok(false) => {
                self.line = before;
                Ok(1)
            }
            // A subshell expands its redirections in its own process: an expansion
            // error that ends the shell (`${u?}`) or the command ends only that.
            Err(Flow::Exit(s)) if subshell => Ok(s),
            Err(Flow::Abort) if subshell => Ok(1),
            Err(e) => Err(e),
        };
        // A subshell's redirections were made in its own process: all of them go.
        match saved {
            Some(saved) => self.restore_redirected(mark, &saved, !subshell),
            None => self.forget_redirected(mark),
        }
        self.restore_var_redirs(var_redirs);
        // The subshell's redirections were its own: the report goes where the
        // shell's stderr goes.
        self.report_fg_death(c);
        r
    }

    /// bash's report of the foreground process command `c` started that a signal
    /// killed, if one did.
    fn report_fg_death(&mut self, c: &Command) {
        self.notify_if_reaped();
        if let Some((pid, sig)) = self.fg_death.take() {
            self.report_killed(pid, sig, &crate::syntax::printer::command_to_string(c));
        }
    }

    /// Runs a compound command, noting whether its status is its body's (see
    /// [`Interp::compound_status`]).
    fn exec_compound_body(&mut self, c: &Command, last: bool) -> R {
        let in_place = last && self.in_subshell;
        let r = self.exec_compound(c, last);
        // (A `( )` run in place ends the process with its body's status: nothing
        // checks it again.)
        self.compound_status = matches!(
            c.kind,
            CommandKind::Subshell(_) if in_place
        ) || matches!(
            c.kind,
            CommandKind::BraceGroup(_)
                | CommandKind::If(_)
                | CommandKind::While(_)
                | CommandKind::For(_)
                | CommandKind::ArithFor(_)
                | CommandKind::Select(_)
                | CommandKind::Case(_)
        );
        r
    }

    /// Runs a compound command; `last` when the process ends with it (a `( )` then
    /// runs in this process, as bash forks only once for `( list ) &`).
    fn exec_compound(&mut self, c: &Command, last: bool) -> R {
        match &c.kind {
            CommandKind::Simple(_) | CommandKind::FunctionDef(_) => Ok(0),
            CommandKind::BraceGroup(l) => self.exec_list(l),
            CommandKind::Subshell(l) if last && self.in_subshell => {
                // A `( )` that ends a `( )`'s body is the next level down in the same
                // process (a pipeline stage's or a job's is the level it was forked at).
                if std::mem::take(&mut self.paren_in_place) {
                    if self.subshell as usize >= self.budget.limits.max_subshell_depth {
                        return Err(Flow::Fatal(format!(
                            "subshell nesting limit exceeded ({})",
                            self.budget.limits.max_subshell_depth
                        )));
                    }
                    self.subshell += 1;
                }
                self.loop_depth = 0;
                self.redir_line = self.at_line(c.line);
                self.stage_process = false;
                self.paren_subshell = true;
                self.list_ends = Some(EndRule::PAREN);
                self.exec_paren_body(l)
            }
            CommandKind::Subshell(l) => {
                // With an ERR trap set bash notes the subshell itself, the command
                // the trap reports if it fails.
                if self.traps.contains_key("ERR") {
                    self.note_command(|| printer::command_layout(c));
                }
                let mut child = self.fork_subshell()?;
                child.without_parent_jobs();
                // `( )` is outside any loop: break/continue inside it only complain.
                child.loop_depth = 0;
                child.redir_line = child.at_line(c.line);
                child.paren_subshell = true;
                child.list_ends = Some(EndRule::PAREN);
                let r = child.exec_paren_body(l);
                let s = child.finish_subshell(r)?;
                self.reaped = true;
                if let Some(sig) = child.proc.mailbox().died_of() {
                    self.fg_death = Some((child.bashpid, sig));
                }
                Ok(s)
            }
            CommandKind::If(i) => {
                if self.cond_list(&i.cond)? == 0 {
                    return self.exec_list(&i.then);
                }
                for (c, b) in &i.elifs {
                    if self.cond_list(c)? == 0 {
                        return self.exec_list(b);
                    }
                }
                match &i.else_ {
                    Some(e) => self.exec_list(e),
                    None => Ok(0),
                }
            }
            CommandKind::While(w) => {
                let mut status = 0;
                self.loop_depth += 1;
                let r = loop {
                    if let Err(e) = self.charge_loop() {
                        break Err(e);
                    }
                    let c = match self.cond_list(&w.cond) {
                        Ok(c) => c,
                        // The condition still decides with the status `break` or
                        // `continue` left (`while ! break` ends as a false condition
                        // ends it); the loop goes on only as they say.
                        Err(Flow::Break(n)) => {
                            if n > 1 {
                                break Err(Flow::Break(n - 1));
                            }
                            let s = std::mem::take(&mut self.break_status);
                            if (s == 0) == w.until {
                                break Ok(status);
                            }
                            break Ok(s);
                        }
                        Err(Flow::Continue(n)) => {
                            if n > 1 {
                                break Err(Flow::Continue(n - 1));
                            }
                            let s = std::mem::take(&mut self.break_status);
                            if (s == 0) == w.until {
                                break Ok(status);
                            }
                            status = s;
                            continue;
                        }
                        Err(e) => break Err(e),
                    };
                    if (c == 0) == w.until {
                        break Ok(status);
                    }
                    match self.exec_list(&w.body) {
                        Ok(s) => status = s,
                        Err(Flow::Break(n)) => {
                            if n > 1 {
                                break Err(Flow::Break(n - 1));
                            }
                            break Ok(std::mem::take(&mut self.break_status));
                        }
                        Err(Flow::Continue(n)) => {
                            if n > 1 {
                                break Err(Flow::Continue(n - 1));
                            }
                            status = std::mem::take(&mut self.break_status);
                        }
                        Err(e) => break Err(e),
                    }
                };
                self.loop_depth -= 1;
                r
            }
            CommandKind::For(f) => {
                let line = self.at_line(c.line);
                if !crate::syntax::is_name(&f.var) {
                    self.error(&format!("`{}': not a valid identifier", f.var));
                    return self.check_errexit(1, false);
                }
                let items = match &f.words {
                    Some(ws) => match self.expand_words(ws) {
                        Ok(v) => v,
                        Err(e) => {
                            // The failed word list is the loop's own failure.
                            let status = self.expand_error(e)?;
                            return self.check_errexit(status, false);
                        }
                    },
                    None => self.positional.as_ref().clone(),
                };
                let mut status = 0;
                self.loop_depth += 1;
                let saved_redir = std::mem::replace(&mut self.redir_line, line);
                let r = (|| {
                    for it in items {
                        self.charge_loop()?;
                        self.line = line;
                        self.note_command(|| printer::loop_head("for", f));
                        // Traced before the DEBUG trap runs, as bash does.
                        if self.set.xtrace {
                            self.xtrace_line(&printer::internal_quoting(|| {
                                printer::loop_head("for", f)
                            }));
                        }
                        if self.debug_skip()? {
                            continue;
                        }
                        if let Err(e) = self.assign_loop_var(&f.var, it) {
                            self.report_assign_error(&e);
                            if self.set.posix {
                                return Err(self.assignment_error_flow());
                            }
                            return Ok(1);
                        }
                        match self.exec_list(&f.body) {
                            Ok(s) => status = s,
                            Err(Flow::Break(n)) => {
                                if n > 1 {
                                    return Err(Flow::Break(n - 1));
                                }
                                return Ok(std::mem::take(&mut self.break_status));
                            }
                            Err(Flow::Continue(n)) => {
                                if n > 1 {
                                    return Err(Flow::Continue(n - 1));
                                }
                                status = std::mem::take(&mut self.break_status);
                            }
                            Err(e) => return Err(e),
                        }
                    }
                    Ok(status)
                })();
                self.loop_depth -= 1;
                self.redir_line = saved_redir;
                r
            }
            CommandKind::ArithFor(f) => {
                let line = self.at_line(c.line);
                if let Err(e) = self.arith_for_clause(f.init.as_ref())? {
                    return self.arith_for_error(e);
                }
                let mut status = 0;
                self.loop_depth += 1;
                let r = (|| {
                    loop {
                        self.charge_loop()?;
                        self.line = line;
                        match self.arith_for_clause(f.cond.as_ref())? {
                            Ok(0) => break,
                            Ok(_) => {}
                            Err(e) => return self.arith_for_error(e),
                        }
                        match self.exec_list(&f.body) {
                            Ok(s) => status = s,
                            Err(Flow::Break(n)) => {
                                if n > 1 {
                                    return Err(Flow::Break(n - 1));
                                }
                                return Ok(std::mem::take(&mut self.break_status));
                            }
                            Err(Flow::Continue(n)) => {
                                if n > 1 {
                                    return Err(Flow::Continue(n - 1));
                                }
                                status = std::mem::take(&mut self.break_status);
                            }
                            Err(e) => return Err(e),
                        }
                        self.line = line;
                        if let Err(e) = self.arith_for_clause(f.step.as_ref())? {
                            return self.arith_for_error(e);
                        }
                    }
                    Ok(status)
                })();
                self.loop_depth -= 1;
                r
            }
            CommandKind::Select(f) => self.exec_select(f),
            CommandKind::Case(cc) => {
                let head = self.at_line(c.line);
                let saved_redir = std::mem::replace(&mut self.redir_line, head);
                let r = self.exec_case(cc);
                self.redir_line = saved_redir;
                r
            }
            CommandKind::Arith(a) => {
                self.note_command(|| printer::test_command_to_string(c));
                if self.debug_skip()? {
                    return Ok(0);
                }
                // Traced, the word is expanded once, shown, then evaluated.
                let detailed = if self.set.xtrace {
                    match self.expander_arith_text(&a.word) {
                        Ok(text) => {
                            self.xtrace_line(&format!("(( {text} ))"));
                            Ok(Expander::new(self).arith_expanded(a, &text))
                        }
                        Err(e) => Err(e),
                    }
                } else {
                    Expander::new(self).arith_detailed(a)
                };
                let r = match detailed {
                    Ok(Err(f)) if f.discard => return self.expand_error(f.into()),
                    Ok(r) => r.map_err(ExpandError::from),
                    Err(e) => Err(e),
                };
                match r {
                    Ok(v) => Ok((v == 0) as i32),
                    Err(mut e) => {
                        if e.kind == ErrorKind::Abort {
                            e.message = format!("((: {}", e.message);
                        }
                        // An unbound variable ends the shell with the status it gives.
                        if matches!(e.kind, ErrorKind::Fatal(_))
                            || (e.kind == ErrorKind::Report && self.errexit_reports())
                        {
                            return self.expand_error(e);
                        }
                        let _ = self.expand_error(e.clone());
                        if matches!(e.kind, ErrorKind::Abort | ErrorKind::Report) {
                            // An error inside (( )) fails the command without aborting.
                            return Ok(1);
                        }
                        Err(Flow::Exit(1))
                    }
                }
            }
            CommandKind::Cond(e) => {
                self.note_command(|| printer::test_command_to_string(c));
                if self.debug_skip()? {
                    return Ok(0);
                }
                match super::builtins::test::eval_cond(self, e) {
                    Ok(status) => Ok(status),
                    Err(e) => self.expand_error(e),
                }
            }
            CommandKind::Coproc(cp) => self.exec_coproc(cp),
        }
    }

    /// Runs a condition list with `set -e` suspended.
    fn cond_list(&mut self, l: &List) -> R {
        self.no_errexit += 1;
        let r = self.exec_list(l);
        self.no_errexit -= 1;
        r
    }

    fn exec_case(&mut self, cc: &CaseClause) -> R {
        self.note_command(|| printer::case_head(cc));
        // bash traces the word as written, before the DEBUG trap and the expansion.
        if self.set.xtrace {
            let word = printer::internal_quoting(|| printer::word_to_string(&cc.word));
            self.xtrace_line(&format!("case {word} in"));
        }
        if self.debug_skip()? {
            return Ok(0);
        }
        let word = match Expander::new(self).string(&cc.word) {
            Ok(w) => w,
            Err(e) => return self.expand_error(e),
        };
        let mut i = 0;
        let mut status = 0;
        let mut fall = false;
        while i < cc.items.len() {
            let item = &cc.items[i];
            let mut matched = fall;
            if !matched {
                for p in &item.patterns {
                    let pat = match Expander::new(self).pattern(p) {
                        Ok(p) => p,
                        Err(e) => return self.expand_error(e),
                    };
                    let m = crate::expand::pattern::Pattern::cached(
                        &pat,
                        crate::expand::pattern::MatchOpts {
                            // As bash: the option when the case runs (the parser took the
                            // syntax when it read it).
                            extglob: self
                                .shopt
                                .has(const { crate::interp::Shopts::flag("extglob") }),
                            nocase: self
                                .shopt
                                .has(const { crate::interp::Shopts::flag("nocasematch") }),
                            dot_special: false,
                            bytes: self.byte_locale(),
                        },
                    );
                    if m.matches(&word) {
                        matched = true;
                        break;
                    }
                }
            }
            if matched {
                // An arm with no commands sets the status to 0.
                status = if item.body.items.is_empty() {
                    0
                } else {
                    self.exec_list(&item.body)?
                };
                match item.terminator {
                    CaseTerminator::Break => return Ok(status),
                    CaseTerminator::FallThrough => {
                        fall = true;
                    }
                    CaseTerminator::Continue => {
                        fall = false;
                    }
                }
            }
            i += 1;
        }
        Ok(status)
    }

    fn exec_select(&mut self, f: &ForClause) -> R {
        if !crate::syntax::is_name(&f.var) {
            self.error(&format!("`{}': not a valid identifier", f.var));
            return Ok(1);
        }
        // Once before the menu, not per choice.
        self.note_command(|| printer::loop_head("select", f));
        if self.set.xtrace {
            self.xtrace_line(&printer::internal_quoting(|| {
                printer::loop_head("select", f)
            }));
        }
        self.run_debug_trap()?;
        let items = match &f.words {
            Some(ws) => match self.expand_words(ws) {
                Ok(v) => v,
                Err(e) => return self.expand_error(e),
            },
            None => self.positional.as_ref().clone(),
        };
        if items.is_empty() {
            return Ok(0);
        }
        // `break` and `continue` see a loop, as in `for`.
        self.loop_depth += 1;
        let r = self.select_loop(f, &items);
        self.loop_depth -= 1;
        r
    }

    /// The menu loop of `select` over `items` (bash's `execute_select_command`): the
    /// menu shows before the first prompt, after an empty reply and after a body that
    /// leaves `REPLY` empty; a reply that is no item's number runs the body with the
    /// variable empty; end of input prints a newline on stdout and ends with status 1.
    fn select_loop(&mut self, f: &ForClause, items: &[String]) -> R {
        let mut show_menu = true;
        loop {
            self.charge_loop()?;
            let ps3 = self.get_str("PS3").unwrap_or_else(|| "#? ".to_owned());
            let Some(value) = self.select_query(items, &ps3, show_menu)? else {
                return Ok(1);
            };
            if let Err(e) = self.assign_scalar(&f.var, value, false) {
                self.report_assign_error(&e);
                return Ok(1);
            }
            match self.exec_list(&f.body) {
                Ok(_) => {}
                Err(Flow::Break(n)) => {
                    if n > 1 {
                        return Err(Flow::Break(n - 1));
                    }
                    return Ok(std::mem::take(&mut self.break_status));
                }
                Err(Flow::Continue(n)) => {
                    if n > 1 {
                        return Err(Flow::Continue(n - 1));
                    }
                    self.break_status = 0;
                }
                Err(e) => return Err(e),
            }
            show_menu = self.get_str("REPLY").is_some_and(|r| r.is_empty());
        }
    }

    /// One question of `select` (bash's `select_query`): the menu when asked for or
    /// after an empty reply, the prompt, and a line read as plain `read` reads it into
    /// `REPLY`. `None` at end of input; otherwise the chosen item, empty when the reply
    /// is not the number of one.
    fn select_query(
        &mut self,
        items: &[String],
        prompt: &str,
        mut show_menu: bool,
    ) -> Result<Option<String>, Flow> {
        loop {
            self.charge_loop()?;
            let mut text = String::new();
            if show_menu {
                text = select_menu(items, self.select_columns());
            }
            text.push_str(prompt);
            let _ = self.write_fd(2, &crate::text::encode(&text));
            let r = super::builtins::read::read(self, &["read".to_owned()])?;
            if r != 0 {
                // A stdout that cannot be written (closed, full) goes unreported.
                match self.out(b"\n") {
                    Ok(()) | Err(Flow::Return(-1)) => {}
                    Err(e) => return Err(e),
                }
                return Ok(None);
            }
            let Some(reply) = self.get_str("REPLY") else {
                return Ok(None);
            };
            if reply.is_empty() {
                show_menu = true;
                continue;
            }
            // bash's legal_number: leading blanks and a sign, digits, trailing blanks.
            let n = reply
                .trim_start_matches([' ', '\t', '\n'])
                .trim_end_matches([' ', '\t'])
                .parse::<i64>()
                .ok();
            let chosen = n
                .and_then(|n| usize::try_from(n).ok())
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| items.get(i));
            return Ok(Some(chosen.cloned().unwrap_or_default()));
        }
    }

    /// The width `select` lays its menu out in: `COLUMNS` when a positive number,
    /// else 80.
    fn select_columns(&mut self) -> usize {
        self.get_str("COLUMNS")
            .and_then(|c| atoi(&c))
            .filter(|&c| c > 0)
            .unwrap_or(80)
    }

    fn exec_coproc(&mut self, cp: &Coproc) -> R {
        self.replace_coproc();
        let name = cp.name.clone().unwrap_or_else(|| "COPROC".to_owned());
        let (in_r, in_w) = pipe_in(&self.budget);
        let (out_r, out_w) = pipe_in(&self.budget);
        let mut child = self.fork_detached()?;
        child.without_parent_jobs();
        // The process ends with its command (bash execs a simple one).
        child.exec_last = true;
        child.fds.set(0, Some(Arc::new(OpenFile::PipeR(in_r))));
        child.fds.set(1, Some(Arc::new(OpenFile::PipeW(out_w))));
        let rfd = self.fds.free_from(60);
        self.fds.set(rfd, Some(Arc::new(OpenFile::PipeR(out_r))));
        let wfd = self.fds.free_from(rfd + 1);
        self.fds.set(wfd, Some(Arc::new(OpenFile::PipeW(in_w))));
        let mut arr = imbl::OrdMap::new();
        arr.insert(0, rfd.to_string());
        arr.insert(1, wfd.to_string());
        self.vars.entry(&name, false).value = Some(Value::Indexed(arr));
        let pid = child.bashpid;
        let mailbox = child.proc.mailbox().clone();
        let _ = self.assign_scalar(&format!("{name}_PID"), pid.to_string(), false);
        self.reserve_thread()?;
        let body = (*cp.body).clone();
        let text = format!(
            "coproc {name} {}",
            crate::syntax::printer::command_to_string(&body)
        );
        let budget = self.budget.clone();
        let ended: Arc<std::sync::OnceLock<i32>> = Default::default();
        let job_ended = ended.clone();
        let lane = self.fs.lock().clock().fork_lane();
        let job_lane = lane.clone();
        let held = lane.hold();
        let handle = std::thread::Builder::new()
            .stack_size(super::pool::STACK)
            .spawn(move || {
                let _held = held;
                let _on = job_lane.enter();
                child.proc.mailbox().run_here();
                let r = child.exec_command(&body);
                let s = child.finish_subshell(r).unwrap_or(126);
                drop(child);
                budget.threads.fetch_sub(1, Ordering::Relaxed);
                let _ = job_ended.set(s);
                s
            })
            .map_err(|e| {
                self.budget.threads.fetch_sub(1, Ordering::Relaxed);
                Flow::Fatal(super::pool::refused(
                    "a coprocess",
                    self.budget.limits.max_threads,
                    &e,
                ))
            })?;
        self.add_job(pid, text, handle, lane, mailbox, ended);
        self.coproc = Some(super::CoprocSlot {
            pid,
            name,
            rfd: Some(rfd),
            wfd: Some(wfd),
        });
        Ok(0)
    }

    /// Before a coprocess starts: the one the shell knows is reaped if it has ended;
    /// if it is still there with a descriptor open, bash warns that it still exists
    /// (and then forgets it).
    fn replace_coproc(&mut self) {
        self.reap_coprocs();
        if let Some(old) = self.coproc.take()
            && (old.rfd.is_some() || old.wfd.is_some())
        {
            self.error(&format!(
                "warning: execute_coproc: coproc [{}:{}] still exists",
                old.pid, old.name
            ));
        }
    }

    /// A redirection closed descriptor `fd`: if it is one of the coprocess's, the shell
    /// no longer holds it, and the coprocess's array shows -1 in its place.
    pub(crate) fn coproc_fd_closed(&mut self, fd: i32) {
        let Some(cp) = self.coproc.as_mut() else {
            return;
        };
        let index = if cp.rfd == Some(fd) {
            cp.rfd = None;
            0
        } else if cp.wfd == Some(fd) {
            cp.wfd = None;
            1
        } else {
            return;
        };
        let name = cp.name.clone();
        let _ = self.assign_element(&name, &index.to_string(), "-1".to_owned(), false);
    }

    /// Unsets the variables of each coprocess that has ended (or was waited for), as
    /// bash does when it reaps one: `NAME`, and `NAME_PID` while it still names it.
    pub(crate) fn reap_coprocs(&mut self) {
        let Some(cp) = &self.coproc else {
            return;
        };
        let now = self.fs.lock().clock().now();
        let ended = {
            let jt = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
            jt.jobs
                .iter()
                .find(|j| j.pid == cp.pid)
                .is_none_or(|j| j.ended_before(now))
        };
        if !ended {
            return;
        }
        let Some(cp) = self.coproc.take() else {
            return;
        };
        let pid_var = format!("{}_PID", cp.name);
        if self
            .get_str(&pid_var)
            .is_some_and(|v| v == cp.pid.to_string())
        {
            let _ = self.vars.unset(&pid_var);
            let _ = self.vars.unset(&cp.name);
        }
        for fd in [cp.rfd, cp.wfd].into_iter().flatten() {
            self.fds.set(fd, None);
        }
    }

    fn expander_arith_text(&mut self, w: &Word) -> Result<String, ExpandError> {
        Expander::new(self).arith_text(w)
    }

    /// One clause of an arithmetic `for`, as bash's `eval_arith_for_expr` runs it: the
    /// clause (its leading blanks dropped; `1` when empty) is expanded once, traced,
    /// shown in `$BASH_COMMAND` to the DEBUG trap, then evaluated. A clause the DEBUG
    /// trap skips (extdebug) is 0.
    /// A failed `for (( ))` clause reports as `(( ))` does and ends the loop with
    /// status 1; only expansion errors and fatal ones go further.
    fn arith_for_error(&mut self, mut e: ExpandError) -> R {
        if e.kind == ErrorKind::Report && !self.errexit_reports() {
            let _ = self.expand_error(e);
            return Ok(1);
        }
        if e.kind != ErrorKind::Abort {
            return self.expand_error(e);
        }
        e.message = format!("((: {}", e.message);
        let _ = self.expand_error(e);
        Ok(1)
    }

    fn arith_for_clause(&mut self, a: Option<&Arith>) -> Result<Result<i64, ExpandError>, Flow> {
        let text = match a {
            Some(a) => match self.expander_arith_text(&a.word) {
                Ok(t) => t,
                Err(e) => return Ok(Err(e)),
            },
            None => "1".to_owned(),
        };
        let blanks = match a.and_then(|a| a.word.parts.first()) {
            Some(WordPart::Lit(s)) => s.len() - s.trim_start_matches([' ', '\t']).len(),
            _ => 0,
        };
        let shown = text.get(blanks..).unwrap_or(&text);
        if self.set.xtrace {
            self.xtrace_line(&format!("(( {shown} ))"));
        }
        self.note_command(|| format!("(({shown}))"));
        if self.debug_skip()? {
            return Ok(Ok(0));
        }
        Ok(match a {
            Some(a) => Expander::new(self)
                .arith_expanded(a, &text)
                .map_err(ExpandError::from),
            None => Ok(1),
        })
    }

    /// Expands command words (honouring `set -f` and the brace setting).
    pub(crate) fn expand_words(&mut self, words: &[Word]) -> Result<Vec<String>, ExpandError> {
        let r = Expander::new(self).words(words)?;
        if r.len() > self.budget.limits.max_words {
            return Err(ExpandError::passthrough(
                format!(
                    "\u{0}word limit exceeded ({} words)",
                    self.budget.limits.max_words
                ),
                ErrorKind::Fatal(126),
            ));
        }
        Ok(r)
    }

    /// Expands a simple command's words. A declaration builtin's `name=value` argument
    /// is expanded as an assignment (no splitting or globbing) into one word; one with
    /// a subscript or an array value is passed through as a marker (see
    /// `declare::ASSIGN_MARK`).
    fn expand_command_words(&mut self, words: &[Word]) -> Result<Vec<String>, ExpandError> {
        let has_decl = words.iter().any(|w| {
            matches!(w.parts.as_slice(), [WordPart::Param(p)] if matches!(p.op, ParamOp::AssignWord(_)))
        });
        if !has_decl {
            return self.expand_words(words);
        }
        self.decl_assigns.clear();
        let mut out = Vec::with_capacity(words.len());
        for w in words {
            if let [WordPart::Param(p)] = w.parts.as_slice()
                && let ParamOp::AssignWord(a) = &p.op
            {
                let op = if a.append { "+=" } else { "=" };
                match (&a.value, &a.index) {
                    // Braces expand in the argument as in any word, making one
                    // assignment of each result: `declare x={a,b}` is `x=a x=b`.
                    (AssignValue::Scalar(v), None) => {
                        let values = Expander::new(self).braces(v)?;
                        let braced = matches!(values, std::borrow::Cow::Owned(_));
                        for v in values.iter() {
                            // A result is no longer an assignment's value to bash, so
                            // no tilde in it expands: `declare x={a,~}` sets `~`.
                            let value = if braced {
                                Expander::new(self).assign_value(&untilde(v))?
                            } else {
                                Expander::new(self).assign_value(v)?
                            };
                            // Built by hand: `format!` cost a tenth of a `local n=$1`.
                            let mut word =
                                String::with_capacity(a.name.len() + op.len() + value.len());
                            word.push_str(&a.name);
                            word.push_str(op);
                            word.push_str(&value);
                            out.push(word);
                        }
                    }
                    // `let` and `eval` get an array argument as text, its elements
                    // expanded: `x=(1 + 2)`.
                    (AssignValue::Array(_), index)
                        if matches!(out.first().map(String::as_str), Some("let" | "eval")) =>
                    {
                        let value = self.eval_binding_value(a)?.concat();
                        let sub = index
                            .as_ref()
                            .map(|w| format!("[{}]", crate::syntax::printer::word_to_string(w)))
                            .unwrap_or_default();
                        out.push(format!("{}{sub}{op}{value}", a.name));
                    }
                    _ => {
                        let assoc = out
                            .iter()
                            .skip(1)
                            .any(|w| w.starts_with('-') && w.contains('A'));
                        out.push(self.stash_decl_assign(a, assoc)?);
                    }
                }
                continue;
            }
            let mut v = self.expand_words(std::slice::from_ref(w))?;
            out.append(&mut v);
        }
        if out.len() > self.budget.limits.max_words {
            return Err(ExpandError::passthrough(
                format!(
                    "\u{0}word limit exceeded ({} words)",
                    self.budget.limits.max_words
                ),
                ErrorKind::Fatal(126),
            ));
        }
        Ok(out)
    }

    /// Traces a simple command the way bash does (a declaration builtin's array
    /// arguments were traced as they were expanded): the command; returns the lines of
    /// the assignments `export`/`readonly` make, which come after it, as the builtin
    /// runs. (Its prefix assignments were traced as they were made.)
    fn xtrace_command(&mut self, words: &[String]) -> Vec<String> {
        let mut parts: Vec<String> = Vec::new();
        let mut after = Vec::new();
        let assigning = matches!(
            words.first().map(String::as_str),
            Some("export" | "readonly")
        );
        for w in words {
            let stashed = self.stashed_decl_assign(w).cloned();
            match stashed {
                // Its array value was traced as it was expanded.
                Some((a, _)) => parts.push(a.name.clone()),
                None => {
                    parts.push(xtrace_quote(w));
                    if assigning
                        && let Some((n, v)) = w.split_once('=')
                        && crate::syntax::is_name(n.trim_end_matches('+'))
                    {
                        after.push(format!("{n}={}", xtrace_quote(v)));
                    }
                }
            }
        }
        self.xtrace_line(&parts.join(" "));
        after
    }

    /// Prints a `set -x` line with PS4.
    pub(crate) fn xtrace_line(&mut self, text: &str) {
        // An unset PS4 traces with no prefix at all.
        let ps4 = self.get_str("PS4").unwrap_or_default();
        let ps4 = self.expand_prompt_string(&ps4);
        let (first, rest) = match ps4.chars().next() {
            Some(c) => (c.to_string(), ps4[c.len_utf8()..].to_owned()),
            None => (String::new(), String::new()),
        };
        let depth = self.xtrace_level as usize + 1;
        let prefix = format!("{}{}", first.repeat(depth), rest);
        let mut line = crate::text::encode(&format!("{prefix}{text}"));
        line.push(b'\n');
        // BASH_XTRACEFD's descriptor while it is open, else stderr.
        let fd = self
            .xtrace_fd
            .filter(|fd| self.fds.get(*fd).is_some())
            .unwrap_or(2);
        let _ = self.write_fd(fd, &line);
    }

    /// Expands a prompt-like string's parameters (for PS4).
    pub(crate) fn expand_prompt_string(&mut self, s: &str) -> String {
        if !s.contains(['$', '`', '\\']) {
            return s.to_owned();
        }
        match crate::syntax::parser::parse_template(s, self.parse_options()) {
            Ok(w) => {
                let saved = self.set.xtrace;
                self.set.xtrace = false;
                let r = Expander::new(self)
                    .string(&w)
                    .unwrap_or_else(|_| s.to_owned());
                self.set.xtrace = saved;
                r
            }
            Err(_) => s.to_owned(),
        }
    }

    fn exec_simple(&mut self, c: &Command, s: &SimpleCommand, last: bool) -> R {
        self.line = self.at_line(c.line);
        self.charge()?;
        self.note_command(|| printer::command_with_docs(c));
        if !std::mem::take(&mut self.stage_debugged)
            && !self.traps.is_empty()
            && self.debug_skip()?
        {
            return Ok(0);
        }
        // A command with no words left takes the status of its last substitution,
        // whether it sat in an assignment or in a word that expanded to nothing.
        self.last_subst_status = None;
        let procsubs = self.procsub_fds.clone();
        let keyword = if self.set.keyword {
            keyword_assigns(s)
        } else {
            None
        };
        let s = keyword.as_ref().unwrap_or(s);
        let words = match self.expand_command_words(&s.words) {
            Ok(w) => w,
            Err(e) => return self.expand_error(e),
        };
        if words.is_empty() {
            return self.exec_assignments_only(c, s);
        }
        let mut words = words;
        if let Some(extra) = &self.extra_args {
            // Taken once: the first command of the run gets them, no later one.
            if let Some(args) = extra.lock().unwrap_or_else(|e| e.into_inner()).take() {
                words.extend(args);
            }
        }
        let r = self.run_words(c, words, &s.assigns, last);
        // As bash does once the command is done, the shell lets go of the descriptors
        // of the process substitutions in its words, so `sort -o >(cat) x; wait` ends.
        self.close_procsubs_except(&procsubs);
        r
    }

    /// Runs expanded words with redirections and prefix assignments. The assignments
    /// are evaluated after the words, each seeing the ones before it, in a scope of their
    /// own around the command; only a special builtin in POSIX mode keeps them.
    fn run_words(&mut self, c: &Command, words: Vec<String>, assigns: &[Assign], last: bool) -> R {
        let name = words[0].as_str();
        let posix_special = self.set.posix && super::builtins::is_special_name(name);
        let base = self.vars.frame_count();
        let kind = match name {
            "eval" | "source" | "." | "unset" | "mapfile" | "readarray" => FrameKind::BuiltinEnv,
            _ => FrameKind::Temp,
        };
        if !assigns.is_empty() {
            self.vars.push_bindings(kind);
        }
        for a in assigns {
            // A subscripted prefix assignment (`b[0]=2 cmd`) binds nothing.
            if let Some(i) = &a.index {
                let i = crate::syntax::printer::word_to_string(i);
                self.error(&format!("`{}[{i}]': not a valid identifier", a.name));
                continue;
            }
            let value = match self.eval_binding_value(a) {
                Ok(v) => v,
                Err(e) => {
                    self.vars.truncate(base);
                    return self.expand_error(e);
                }
            };
            let name = self.temp_binding_name(&a.name);
            if let Err(m) = self.bind_temp(&name, value.join(" "), a.append) {
                // A readonly variable reached through a nameref is reported under the
                // name written (bash's assign_in_env).
                let m = match m.strip_prefix(name.as_str()) {
                    Some(tail) if name != a.name && tail == ": readonly variable" => {
                        format!("{}{tail}", a.name)
                    }
                    _ => m,
                };
                self.error(&m);
                let readonly = self
                    .vars
                    .get(&name)
                    .is_some_and(|v| v.attrs.has(crate::expand::Attrs::READONLY));
                if readonly && !self.set.posix {
                    // The command still runs, seeing the readonly value.
                    continue;
                }
                self.vars.truncate(base);
                // POSIX mode runs no command after such an error: before a special
                // builtin it ends the shell, before any other the line.
                if readonly && posix_special {
                    return Err(self.assignment_error_flow());
                }
                if readonly {
                    return Err(Flow::Abort);
                }
                return Ok(1);
            }
            if posix_special {
                // What the builtin leaves of them outlives it.
                self.vars.keep_binding(&name);
            }
            // Traced as it is made, with the value it took (`x+=b` shows `x=ab`).
            if self.set.xtrace {
                let shown = self.get_str(&name).unwrap_or_default();
                self.xtrace_line(&format!("{}={}", a.name, assign_trace_quote(&shown)));
            }
        }
        // A function called with bindings takes them into its own frame.
        self.adopt_bindings = self.vars.frame_count() > base && kind == FrameKind::Temp;
        if self.set.xtrace {
            // bash traces the command before its bindings come into view: a PS4
            // naming one of them shows the value it had. A subshell traces it
            // with them in place.
            let after = if self.in_subshell {
                self.xtrace_command(&words)
            } else {
                let hidden = self.vars.hide_from(base);
                let after = self.xtrace_command(&words);
                self.vars.restore(hidden);
                after
            };
            for line in after {
                self.xtrace_line(&line);
            }
        }
        // Without redirections there is nothing to put back (and what the command
        // does to descriptors, `exec 3>f` in a function, stays); nor when the process
        // ends with this command.
        // `exec` whose redirections fail puts back those it made, which an EXIT trap
        // after a last command still sees.
        let keep_fds = name == "exec" && words[1..].iter().all(|w| w == "--");
        let saved_fds = (!c.redirects.is_empty() && (!last || keep_fds)).then(|| self.fds.clone());
        let mark = self.redirected.len();
        // A program runs in a child process: its `{var}` redirections assign the
        // variables there, and the descriptors they open close with it.
        // (Looked up only when there are redirections: no cost to plain commands.)
        let utility = !c.redirects.is_empty()
            && !self.funcs.contains_key(name)
            && self.builtin(name).is_none();
        let var_redirs = if utility {
            self.var_redirs(&c.redirects)
        } else {
            Vec::new()
        };
        self.redirecting_utility = utility || saved_fds.is_none();
        // The redirections are expanded without the command's temporary bindings
        // (`x=1 cat <<<$x` reads the outer `x`).
        let redir_ok = if self.vars.frame_count() > base && !c.redirects.is_empty() {
            let hidden = self.vars.hide_from(base);
            let r = self.apply_redirects(&c.redirects);
            self.vars.restore(hidden);
            r
        } else {
            self.apply_redirects(&c.redirects)
        };
        self.redirecting_utility = false;
        if saved_fds.is_none() {
            self.release_undo(mark);
        }
        // A utility's redirections are expanded in its own process: an expansion
        // error that ends the shell (`${u?}`) or the command ends only that process.
        let mut failed_status = 1;
        let redir_ok = match redir_ok {
            Ok(ok) => ok,
            Err(Flow::Exit(s)) if utility => {
                failed_status = s;
                false
            }
            Err(Flow::Abort) if utility => false,
            Err(e) => {
                if let Some(saved) = saved_fds {
                    self.fds = saved;
                }
                self.redirected.truncate(mark);
                self.adopt_bindings = false;
                self.vars.truncate(base);
                return Err(e);
            }
        };
        if utility {
            self.close_var_redirs(mark);
        }
        let moved = self.redirected[mark..]
            .iter()
            .any(|(_, u)| matches!(u, super::redirect::Undo::MovedAway { .. }));
        let in_shell = moved && !utility;
        let r = if redir_ok {
            self.no_fork = last;
            self.lower_on_exec = !self.stage_process;
            let r = self.dispatch(c, &words);
            self.no_fork = false;
            r
        } else if self.posix_special_fails(name) && !self.funcs.contains_key(name) {
            Err(Flow::Exit(1))
        } else {
            Ok(failed_status)
        };
        self.adopt_bindings = false;
        // `exec` with only redirections keeps them, when they all succeed.
        match saved_fds {
            Some(saved) if !keep_fds || !redir_ok => {
                self.restore_redirected(mark, &saved, in_shell)
            }
            Some(saved) => {
                // bash closes the process substitutions' own descriptors even then:
                // `exec 3> >(cat)` leaves only 3 writing to `cat`.
                self.close_new_procsubs(&saved);
                self.forget_redirected(mark)
            }
            None => self.forget_redirected(mark),
        }
        self.restore_var_redirs(var_redirs);
        self.report_fg_death(c);
        self.vars.truncate(base);
        if assigns.iter().any(|a| a.name == "GLOBIGNORE") {
            self.sync_globignore();
        }
        if let Some(last) = words.last() {
            // A declaration's array argument shows as its name.
            self.last_arg = match self.stashed_decl_assign(last) {
                Some((a, _)) => a.name.clone(),
                None => last.clone(),
            };
        }
        r
    }

    /// Finds and runs the command `words[0]`.
    pub(crate) fn dispatch(&mut self, c: &Command, words: &[String]) -> R {
        let name = words[0].as_str();
        // Only a utility run by this very command may become the process.
        let no_fork = std::mem::take(&mut self.no_fork);
        // Only a function run by this very command adopts its bindings.
        let adopt = std::mem::take(&mut self.adopt_bindings);
        // In POSIX mode special builtins come before functions.
        let posix_special = self.set.posix && super::builtins::is_special_name(name);
        // A command that starts with `%` is a job to resume (bash's shorthand for
        // `fg %job`), before any function or builtin is looked for.
        if name.starts_with('%')
            && let Some(b) = self.builtin("fg")
        {
            let mut args = vec!["fg".to_owned()];
            args.extend(words.iter().cloned());
            return self.call_builtin("fg", b, &args);
        }
        if let Some(f) = self.funcs.get(name).cloned().filter(|_| !posix_special) {
            self.adopt_bindings = adopt;
            // In a substitution's process, a function its last command calls ends
            // the process with its own last command, as bash runs it.
            if no_fork && self.functions_end {
                self.list_ends = Some(EndRule::TEXT);
            }
            return self.call_function(&f, words);
        }
        if let Some(b) = self.builtin(name) {
            // `command NAME` runs NAME as this command would have run it.
            self.no_fork = no_fork && name == "command";
            let r = self.call_builtin(name, b, words);
            self.no_fork = false;
            return r;
        }
        self.no_fork = no_fork;
        let r = self.run_external(c, words);
        self.no_fork = false;
        r
    }

    /// Runs builtin `b` as `name`, a failed write to its output reported as bash does.
    pub(crate) fn call_builtin(
        &mut self,
        name: &str,
        b: super::builtins::Builtin,
        words: &[String],
    ) -> R {
        match super::builtins::call(self, name, b, words) {
            Err(flow) => self.builtin_write_failed(name, flow),
            // A usage error (status 2) of a special builtin whose status is its own.
            Ok(2) if self.posix_special_fails(name) && !matches!(name, "eval" | "source" | ".") => {
                Err(Flow::Exit(2))
            }
            ok => ok,
        }
    }

    /// Whether an error of special builtin `name` ends the shell: in POSIX mode a
    /// non-interactive shell exits, unless `command` ran the builtin or the status is
    /// tested (as `set -e` spares it).
    fn posix_special_fails(&self, name: &str) -> bool {
        self.set.posix
            && !self.interactive
            && !self.under_command
            && self.no_errexit == 0
            && self.negating == 0
            && super::builtins::is_special_name(name)
    }

    /// Calls a shell function.
    pub(crate) fn call_function(&mut self, f: &FunctionDef, words: &[String]) -> R {
        let adopt = std::mem::take(&mut self.adopt_bindings);
        let ends = self.list_ends.take();
        if self.call_depth >= self.budget.limits.max_call_depth {
            return Err(Flow::Fatal(format!(
                "function call depth limit exceeded ({})",
                self.budget.limits.max_call_depth
            )));
        }
        if let Some(max) = self
            .get_str("FUNCNEST")
            .and_then(|s| s.parse::<usize>().ok())
            && max > 0
            && self.call_depth >= max
        {
            self.error(&format!(
                "{}: maximum function nesting level exceeded ({max})",
                f.name
            ));
            return Err(Flow::Abort);
        }
        let args_pushed = self.push_args(&words[1..]);
        let saved_pos = std::mem::replace(&mut self.positional, Arc::new(words[1..].to_vec()));
        self.vars.push_function_frame(adopt);
        self.call_depth += 1;
        self.frames.push(CallFrame {
            func: f.name.clone(),
            source: f.source.clone().unwrap_or_else(|| "environment".into()),
            call_line: self.line,
            function: true,
            args_pushed,
            saved_opts: None,
        });
        let saved_line = self.line;
        let saved_shift = std::mem::replace(&mut self.line_shift, f.line_shift);
        let body_line = self.at_line(f.body.line);
        let saved_redir = std::mem::replace(&mut self.redir_line, body_line);
        let saved_loops = std::mem::replace(&mut self.loop_depth, 0);
        let hidden = self.hide_traps(true, self.traced_funcs.contains(&f.name));
        // bash runs the DEBUG trap once more as the function starts (traced functions
        // and `set -T` only).
        // Under extdebug a failing trap there skips the body, with its status.
        // That trap sees `$LINENO` at the line of the body's `{`.
        if matches!(f.body.kind, CommandKind::BraceGroup(_)) {
            self.line = body_line;
        }
        let entry = self.run_debug_trap();
        self.line = saved_line;
        let r = match entry {
            Ok(s) if s != 0 && self.extdebug() => Ok(s),
            Ok(_) => {
                self.list_ends = ends;
                let r = self.exec_command(&f.body);
                // A body other than `{ }` (`f() ( ... )`, `f() [[ ... ]]`) is a
                // command of its own inside the function: its failure meets `set -e`
                // and an inherited ERR trap there, before the call's own.
                match r {
                    Ok(s) if !self.compound_status => self.check_errexit(s, false),
                    r => r,
                }
            }
            Err(e) => Err(e),
        };
        self.loop_depth = saved_loops;
        // A body that ends without `return` leaves the line where bash's RETURN trap
        // counts from at the body's own: a `{` group's first line, 0 for any other.
        if r.is_ok() {
            self.line = match f.body.kind {
                CommandKind::BraceGroup(_) => body_line,
                _ => 0,
            };
        }
        let r = self.run_return_trap(r, true);
        self.restore_hidden_traps(hidden);
        let r = match r {
            Err(Flow::Return(s)) => Ok(s),
            other => other,
        };
        let frame = self.frames.pop();
        if frame.as_ref().is_some_and(|f| f.args_pushed) {
            self.pop_args();
        }
        if let Some(opts) = frame.and_then(|f| f.saved_opts) {
            self.set = opts;
            self.update_shellopts();
        }
        self.call_depth -= 1;
        let local_xtracefd = self.vars.is_local_here("BASH_XTRACEFD");
        let local_globignore = self.vars.is_local_here("GLOBIGNORE");
        self.vars.pop_frame();
        if local_globignore {
            self.sync_globignore();
        }
        self.positional = saved_pos;
        // bash's pop_dollar_vars: see `dollar_vars_set`.
        self.dollar_vars_set = false;
        self.line = saved_line;
        self.line_shift = saved_shift;
        self.redir_line = saved_redir;
        // bash 5.2 complains from the function's caller.
        if self.errexit_unwind == ErrexitUnwind::Reporting
            && self.reports_lost_scopes
            && matches!(r, Err(Flow::Exit(_)))
        {
            self.error("pop_var_context: head of shell_variables not a function context");
        }
        if local_xtracefd {
            // The local goes: what shows through now takes effect (bash's sv_xtracefd).
            self.sync_xtrace_fd();
        }
        if let Ok(s) = r {
            self.status = s;
        }
        r
    }

    /// Runs a utility from the registry (found on PATH) or a script file.
    pub(crate) fn run_external(&mut self, _c: &Command, words: &[String]) -> R {
        self.text_builtin_last = false;
        self.run_program(words, 0)
    }

    /// Runs the file `words[0]` names (a path, or a name looked up in PATH); `depth`
    /// counts the `#!` interpreters already followed to reach it.
    fn run_program(&mut self, words: &[String], depth: usize) -> R {
        let name = words[0].as_str();
        if self.restricted && name.contains('/') {
            self.restricted_command(name);
            return Ok(1);
        }
        let execvp = std::mem::take(&mut self.execvp_path);
        let found = if name.contains('/') {
            Some((name.to_owned(), crate::fs::path::join(&self.cwd, name)))
        } else if execvp && self.get_str("PATH").is_none() {
            ["/bin", "/usr/bin"]
                .iter()
                .map(|dir| format!("{dir}/{name}"))
                .find(|full| super::builtins::describe::executable(self, full))
                .map(|full| (name.to_owned(), full))
        } else {
            self.command_location(name)
        };
        let Some((shown, path)) = found else {
            // Without a PATH (unset or empty) bash looks only in the current directory and
            // reports the failed exec itself, without command_not_found_handle.
            if self.get_str("PATH").is_none_or(|p| p.is_empty()) {
                self.error(&format!("{name}: No such file or directory"));
                return Ok(127);
            }
            if let Some(file) = super::builtins::describe::path_non_executable(self, name) {
                self.error(&format!("{file}: Permission denied"));
                return Ok(126);
            }
            return self.command_not_found(name, words);
        };
        // bash puts the path it runs in the program's environment as `_`; a utility
        // running a program (`env`, `xargs`) passes on its own, and the `exec` builtin
        // the one the shell itself was given.
        let outer = (!execvp && depth == 0 && !self.exec_builtin).then(|| {
            let run_as = if name.contains('/') { name } else { &path };
            self.exec_path.replace(run_as.to_owned())
        });
        let r = self.run_found(name, &shown, &path, words, depth);
        if let Some(outer) = outer {
            self.exec_path = outer;
        }
        r
    }

    /// Runs the program at `path`, found for the command `words`.
    fn run_found(
        &mut self,
        name: &str,
        shown: &str,
        path: &str,
        words: &[String],
        depth: usize,
    ) -> R {
        let path = path.to_owned();
        // A stub for a built-in utility runs it in-process.
        let meta = self.fs.lock().stat(&path);
        match meta {
            Err(e) => {
                let msg = e.to_string();
                self.error(&format!("{shown}: {msg}"));
                return Ok(if e.errno == crate::fs::Errno::ENOENT {
                    127
                } else {
                    126
                });
            }
            Ok(m) if m.file_type == crate::fs::FileType::Dir => {
                self.error(&format!("{name}: Is a directory"));
                return Ok(126);
            }
            Ok(_) => {}
        }
        if self.fs.lock().access(&path, false, false, true).is_err() {
            self.error(&format!("{name}: Permission denied"));
            return Ok(126);
        }
        let content = self
            .fs
            .lock()
            .read_file(&path)
            .map(|c| c.to_vec())
            .unwrap_or_default();
        if let Some(util) = stub_name(&content) {
            return self.run_utility(&util, words);
        }
        if let Some((interp, arg)) = shebang(&content) {
            // The kernel runs the interpreter with the script's path after its argument.
            let script = if name.contains('/') { name } else { &path };
            let mut argv = vec![interp.clone()];
            argv.extend(arg);
            argv.push(script.to_owned());
            argv.extend(words.iter().skip(1).cloned());
            return self.run_interpreter(name, &interp, &argv, &path, &content, words, depth);
        }
        // bash hands the script the path it ran (PATH's spelling for a name found there).
        let mut argv = words.to_vec();
        if !name.contains('/')
            && let Some(first) = argv.first_mut()
        {
            *first = path.clone();
        }
        self.run_script_file(&path, &content, &argv, false)
    }

    /// Runs a script under the interpreter its `#!` line names, with bash's errors when
    /// that cannot be run. A script for bash or sh with no option on that line runs here
    /// as any script does.
    #[allow(clippy::too_many_arguments)]
    fn run_interpreter(
        &mut self,
        name: &str,
        interp: &str,
        argv: &[String],
        path: &str,
        content: &[u8],
        words: &[String],
        depth: usize,
    ) -> R {
        /// Interpreters that are themselves scripts the kernel follows this deep.
        const MAX_DEPTH: usize = 4;
        let full = crate::fs::path::join(&self.cwd, interp);
        let meta = self.fs.lock().stat(&full);
        let refused = match meta {
            Err(e) if e.errno == crate::fs::Errno::ENOENT => {
                self.error(&format!("{name}: cannot execute: required file not found"));
                return Ok(127);
            }
            Err(e) => Some(e.to_string()),
            Ok(m) if m.file_type == crate::fs::FileType::Dir => {
                Some("Permission denied".to_owned())
            }
            Ok(_) if self.fs.lock().access(&full, false, false, true).is_err() => {
                Some("Permission denied".to_owned())
            }
            Ok(_) if depth >= MAX_DEPTH => Some("Too many levels of symbolic links".to_owned()),
            Ok(_) => None,
        };
        if let Some(why) = refused {
            // Reported by the forked child, which prints no line number.
            let shell = self.error_source_name();
            self.errln(&format!(
                "{shell}: {name}: {interp}: bad interpreter: {why}"
            ));
            return Ok(126);
        }
        let base = interp.rsplit('/').next().unwrap_or(interp);
        if matches!(base, "bash" | "sh") && argv.len() == words.len() + 1 {
            return self.run_script_file(path, content, words, base == "sh");
        }
        self.run_program(argv, depth + 1)
    }

    fn command_not_found(&mut self, name: &str, words: &[String]) -> R {
        if let Some(f) = self.funcs.get("command_not_found_handle").cloned() {
            let mut w = vec!["command_not_found_handle".to_owned()];
            w.extend(words.iter().cloned());
            let mut child = self.fork_subshell()?;
            child.without_parent_jobs();
            let r = child.call_function(&f, &w);
            self.reaped = true;
            return child.finish_subshell(r);
        }
        self.error(&format!(
            "{}: command not found",
            crate::expand::param::printable_name(name)
        ));
        Ok(127)
    }

    /// Searches PATH for an executable `name`, ignoring the hash table; the path as
    /// PATH spells it (`dir/name`, maybe relative).
    pub(crate) fn path_search(&self, name: &str) -> Option<String> {
        super::builtins::describe::path_executable(self, name)
    }

    /// Finds a command to run: a remembered location first (even one that has since
    /// gone, as bash does), else a PATH search that is remembered under `set -h`.
    /// Gives the path to show in errors and the absolute path.
    fn command_location(&mut self, name: &str) -> Option<(String, String)> {
        if let Some(h) = self.hash.get(name).cloned() {
            let full = crate::fs::path::join(&self.cwd, &h.path);
            // `checkhash` (and POSIX mode) looks the name up again when what the
            // table remembers is no longer an executable file.
            let check = self.set.posix
                || self
                    .shopt
                    .has(const { crate::interp::Shopts::flag("checkhash") });
            if check && !super::builtins::describe::executable(self, &full) {
                self.hash.remove(name);
                return self.command_location(name);
            }
            self.hash.insert(
                name.to_owned(),
                super::Hashed {
                    hits: h.hits.saturating_add(1),
                    ..h.clone()
                },
            );
            return Some((h.path, full));
        }
        let spelled = self.path_search(name)?;
        if self.set.hashall {
            let seq = self.hash.values().map(|h| h.seq + 1).max().unwrap_or(0);
            self.hash.insert(
                name.to_owned(),
                super::Hashed {
                    path: spelled.clone(),
                    hits: 1,
                    seq,
                },
            );
        }
        let full = crate::fs::path::join(&self.cwd, &spelled);
        Some((name.to_owned(), full))
    }

    /// Runs a script file in a child shell (a new bash process in real life; `sh`, in
    /// POSIX mode, for a `#!/bin/sh` line).
    fn run_script_file(&mut self, path: &str, content: &[u8], words: &[String], sh: bool) -> R {
        let mut child = self.fork_subshell()?;
        child.without_parent_jobs();
        self.reaped = true;
        // A new process: the caller's `if`/`||` does not suspend the script's `set -e`.
        child.no_errexit = 0;
        child.positional = Arc::new(words[1..].to_vec());
        child.arg0 = words[0].clone();
        child.script_name = Some(words[0].clone());
        child.funcs = super::FuncTable::default();
        child.exported_funcs = imbl::OrdSet::new();
        child.traps = imbl::OrdMap::new();
        // Only exported variables and functions reach a new process.
        let mut env = self.env();
        if self.take_no_fork() && self.lower_on_exec {
            self.lower_shlvl(&mut env);
        }
        child.adopt_env(&env);
        child.init_vars_keep();
        child.enter_shell_level(env.get("SHLVL").map(String::as_str));
        // A script file, not `-c` text.
        child.command_string_mode = false;
        child.set = super::SetOpts {
            braceexpand: true,
            hashall: true,
            interactive_comments: true,
            posix: sh,
            ..Default::default()
        };
        child.status = 0;
        child.report_bad_imports("bash");
        child.reads_stdin = false;
        let _ = path;
        // Like bash, refuse a file whose first line holds a NUL byte.
        if crate::text::looks_binary(content) {
            self.error(&format!(
                "{}: cannot execute binary file: Exec format error",
                words[0]
            ));
            return Ok(126);
        }
        let src = crate::text::decode(content);
        let src = src
            .strip_prefix("#!")
            .map(|rest| match rest.find('\n') {
                Some(i) => format!("\n{}", &rest[i + 1..]),
                None => String::new(),
            })
            .unwrap_or(src);
        if let Err(e) = child.run_bash_env() {
            return child.finish_subshell(Err(e));
        }
        let r = child.run_source(&src, None);
        child.finish_subshell(r)
    }

    /// Runs a registered utility with the current fds.
    pub(crate) fn run_utility(&mut self, name: &str, words: &[String]) -> R {
        if matches!(name, "bash" | "sh" | "rbash") {
            return self.run_bash(words);
        }
        let Some(f) = self.registry.get(name) else {
            // Builtins that also exist as programs (`env echo`, `/bin/true`).
            if let Some(b) = super::builtins::lookup(name) {
                let mut child = self.fork_subshell()?;
                child.without_parent_jobs();
                let r = super::builtins::call(&mut child, name, b, words);
                self.reaped = true;
                return child.finish_subshell(r);
            }
            return self.command_not_found(name, words);
        };
        let staged = self.stage_fd_operands(&words[1..]);
        let r = self.run_registered(name, f, words);
        self.fs.lock().as_root(|fs| {
            for path in staged {
                let _ = fs.remove_file(&path);
            }
        });
        r
    }

    /// Utilities open files through the filesystem, so a `/dev/fd/N` operand naming one of
    /// the shell's own descriptors (a process substitution `<(...)`) is given to them as
    /// a FIFO there for the command's duration: `stat` sees a pipe, as it does on Linux,
    /// and an open of the name reaches the descriptor itself through the host
    /// ([`crate::commands::Host::open_read`]), so the utility reads while the
    /// substitution writes, through the bounded pipe between them.
    fn stage_fd_operands(&mut self, args: &[String]) -> Vec<String> {
        let mut staged = Vec::new();
        for a in args {
            let Some(fd) = a
                .strip_prefix("/dev/fd/")
                .and_then(|n| n.parse::<i32>().ok())
                .filter(|&n| n > 2)
            else {
                continue;
            };
            if self.fds.get(fd).is_none() || staged.contains(a) {
                continue;
            }
            // `/dev/fd` belongs to root; the pipe is the user's, as pipe(2)'s ends are.
            let mut fs = self.fs.lock();
            let (uid, gid) = fs.user();
            let made = fs.as_root(|fs| {
                fs.mkfifo(a, 0o600)
                    .and_then(|()| fs.chown(a, Some(uid), Some(gid)))
            });
            drop(fs);
            if made.is_ok() {
                staged.push(a.clone());
            }
        }
        staged
    }

    fn run_registered(
        &mut self,
        name: &str,
        f: crate::commands::DynCommand,
        words: &[String],
    ) -> R {
        let mut env = self.env();
        let mut stdin = FdReader {
            file: self.fds.get(0).cloned(),
            fs: self.fs.clone(),
            budget: self.budget.clone(),
        };
        let mut stdout = FdWriter {
            file: self.fds.get(1).cloned(),
            fs: self.fs.clone(),
            budget: self.budget.clone(),
        };
        let mut stderr = FdWriter {
            file: self.fds.get(2).cloned(),
            fs: self.fs.clone(),
            budget: self.budget.clone(),
        };
        let cwd = self.cwd.clone();
        let fs = self.fs.clone();
        let staging = stdout.is_private_pipe(&stderr).then(|| {
            let out = FdWriter {
                file: stdout.file.clone(),
                fs: fs.clone(),
                budget: self.budget.clone(),
            };
            super::io::Staging::new(out)
        });
        let (mut staged_out, mut staged_in);
        let (out, input): (&mut dyn std::io::Write, &mut dyn std::io::Read) = match &staging {
            Some(st) => {
                staged_out = super::io::StagedOut(st);
                staged_in = super::io::StagedIn {
                    input: stdin,
                    staging: st,
                };
                (&mut staged_out, &mut staged_in)
            }
            None => (&mut stdout, &mut stdin),
        };
        let umask = self.umask;
        let shared_io = super::io::SharedStreams {
            stdin: FdReader {
                file: self.fds.get(0).cloned(),
                fs: fs.clone(),
                budget: self.budget.clone(),
            },
            stdout: FdWriter {
                file: self.fds.get(1).cloned(),
                fs: fs.clone(),
                budget: self.budget.clone(),
            },
            staging: staging.as_ref(),
        };
        // The utility is a process while it runs: `kill`, `ps` and `pgrep` see it.
        let process = self.utility_process(words);
        let shared = process.as_ref().is_some_and(|p| Arc::ptr_eq(p, &self.proc));
        if shared && self.lower_on_exec {
            self.lower_shlvl(&mut env);
        }
        self.reaped |= !shared;
        let _running = process
            .as_ref()
            .map(|p| super::procs::enter_utility(p.mailbox().clone()));
        let pid = process.as_ref().map_or(self.bashpid, |p| p.pid());
        let mut host = UtilHost { sh: self, pid };
        let mut ctx = crate::commands::Ctx {
            name,
            args: &words[1..],
            stdin: input,
            stdout: out,
            stderr: &mut stderr,
            env: &env,
            cwd: &cwd,
            fs: &fs,
            host: &mut host,
            umask,
            shared: Some(&shared_io),
        };
        let mut r = f(&mut ctx);
        if let Some(st) = &staging {
            let flushed = st.flush();
            if r.is_ok()
                && let Err(e) = flushed
            {
                r = Err(e);
            }
        }
        drop(_running);
        // A signal for the utility itself ends it (and bash reports it); one for the
        // shell it runs in ends the shell at its next check point.
        let killed = r
            .as_ref()
            .err()
            .and_then(super::procs::as_killed)
            .or_else(|| {
                process
                    .as_ref()
                    .filter(|_| !shared)
                    .and_then(|p| p.mailbox().fatal_pending())
            });
        if let Some(sig) = killed {
            // A fatal signal for the shell ends it before it takes the utility's status.
            if !shared && self.proc.mailbox().fatal_pending().is_some() {
                self.run_pending_signals()?;
            }
            // When the shell dies of it too, it is gone before it could report.
            if let Some(p) = process.as_ref().filter(|_| !shared)
                && p.mailbox().fatal_pending() == Some(sig)
                && self.proc.mailbox().interrupted().is_none()
            {
                p.mailbox().set_died_of(sig);
                self.fg_death = Some((p.pid(), sig));
            }
            if shared {
                // The utility was this process: the signal ended the process.
                return Err(self.die_of(sig));
            }
            return Ok(128 + sig);
        }
        drop(process);
        match r {
            Ok(s) => Ok(s),
            Err(e) => {
                if let Some(fatal) = crate::commands::as_fatal(&e) {
                    return Err(Flow::Fatal(fatal.0.clone()));
                }
                if e.kind() == std::io::ErrorKind::BrokenPipe {
                    return Ok(141);
                }
                if e.raw_os_error() == Some(9)
                    && let Some((lines, status)) = crate::commands::closed_std_report(
                        name,
                        self.fds.get(1).is_none(),
                        self.fds.get(0).is_none(),
                    )
                {
                    for l in lines {
                        self.errln(&format!("{name}: {l}"));
                    }
                    return Ok(status);
                }
                self.errln(&format!("{name}: write error: {}", io_error_text(&e)));
                Ok(1)
            }
        }
    }

    /// Runs a command substitution body, returning its captured output.
    pub(crate) fn command_subst(&mut self, body: &Script) -> Result<String, ExpandError> {
        let shift = self.subst_line_shift(body);
        self.command_subst_shifted(body, shift)
    }

    /// Runs a command substitution body with its lines moved on by `shift`.
    pub(crate) fn command_subst_shifted(
        &mut self,
        body: &Script,
        shift: i64,
    ) -> Result<String, ExpandError> {
        self.command_subst_with(|child| {
            child.line_shift = shift;
            if let Some(c) = lone_input_redirect(body) {
                return child.cat_redirected_input(c);
            }
            child.functions_end = true;
            child.exec_body_ending(body, EndRule::COMSUB)
        })
    }

    /// The line shift for a substitution's body run from the current command: bash
    /// runs the body's text anew, so its first command counts as the line of the
    /// command expanding it, and the others on from there.
    pub(crate) fn subst_line_shift(&self, body: &Script) -> i64 {
        let first = body
            .commands
            .first()
            .and_then(|l| l.items.first())
            .map_or(0, |i| i.and_or.first.line);
        i64::from(self.line) - i64::from(first)
    }

    /// Runs a command substitution given as source text (a backquoted body that did
    /// not parse: parsing it again reports the error, as the substitution's).
    pub(crate) fn command_subst_source(&mut self, text: &str) -> Result<String, ExpandError> {
        self.command_subst_with(|child| child.run_source(text, Some("command substitution")))
    }

    /// Runs `run` in a subshell whose standard output is captured, and returns what it
    /// wrote.
    fn command_subst_with(
        &mut self,
        run: impl FnOnce(&mut Interp) -> R,
    ) -> Result<String, ExpandError> {
        let cap = Capture::new(self.budget.limits.max_output_bytes);
        let mut child = self.fork_subshell().map_err(flow_to_expand)?;
        child
            .fds
            .set(1, Some(Arc::new(OpenFile::Capture(cap.clone()))));
        child.cmdsub_depth += 1;
        child.reports_lost_scopes = true;
        child.xtrace_level += 1;
        if !self
            .shopt
            .has(const { crate::interp::Shopts::flag("inherit_errexit") })
        {
            child.set.errexit = false;
        }
        let r = run(&mut child);
        child.errexit_caught(&r);
        let status = child.finish_subshell(r).map_err(flow_to_expand)?;
        drop(child);
        self.status = status;
        self.last_subst_status = Some(status);
        let bytes = cap.take();
        let mut bytes = bytes;
        if bytes.contains(&0) {
            self.error("warning: command substitution: ignored null byte in input");
            bytes.retain(|&b| b != 0);
        }
        Ok(crate::text::decode(&bytes))
    }

    /// `$(< file)`: opens the redirection and copies standard input to the output.
    fn cat_redirected_input(&mut self, c: &Command) -> R {
        if !self.apply_redirects(&c.redirects)? {
            return Ok(1);
        }
        let Some(input) = self.fds.get(0).cloned() else {
            return Ok(1);
        };
        let mut chunk = [0u8; 8192];
        loop {
            match input.read(&self.fs, &mut chunk, &self.budget.cancel) {
                Ok(0) => return Ok(0),
                Ok(n) => self.out(chunk.get(..n).unwrap_or_default())?,
                Err(e) => {
                    if let Some(f) = crate::commands::as_fatal(&e) {
                        return Err(Flow::Fatal(f.0.clone()));
                    }
                    // bash stops at a read error without a word: a directory reads as
                    // nothing.
                    return Ok(0);
                }
            }
        }
    }

    fn exec_assignments_only(&mut self, c: &Command, s: &SimpleCommand) -> R {
        self.last_arg.clear();
        for a in &s.assigns {
            let v = match self.eval_assign_value(a) {
                Ok(v) => v,
                Err(e) => return self.expand_error(e),
            };
            if self.set.xtrace {
                let shown = match &a.value {
                    AssignValue::Array(elems) => array_literal_trace(a, elems),
                    AssignValue::Scalar(_) => {
                        let mut t = a.name.clone();
                        if let Some(i) = &a.index {
                            t.push('[');
                            t.push_str(&crate::syntax::printer::word_to_string(i));
                            t.push(']');
                        }
                        format!(
                            "{t}{}={}",
                            if a.append { "+" } else { "" },
                            assign_trace_quote(&v.join(" "))
                        )
                    }
                };
                self.xtrace_line(&shown);
            }
            if let Err(flow) = self.apply_assign(a, v) {
                return Err(flow.unwrap_or_else(|| self.assignment_error_flow()));
            }
        }
        let status = self.last_subst_status.unwrap_or(0);
        // With a redirection reading into (or duplicated onto) descriptor 0, bash
        // performs the redirections in a child: what expanding them does (an
        // assignment, a `${u?}` error) stays there, and the status is the child's.
        let reads_stdin = c.redirects.iter().any(|r| {
            matches!(
                r.op,
                RedirOp::Read | RedirOp::ReadWrite | RedirOp::DupRead | RedirOp::DupWrite
            ) && matches!(r.target, RedirTarget::Word(_))
                && match &r.fd {
                    None => r.op != RedirOp::DupWrite,
                    Some(RedirFd::Number(n)) => *n == 0,
                    Some(RedirFd::Var(_)) => false,
                }
        });
        if reads_stdin {
            let mut child = self.fork_subshell()?;
            child.without_parent_jobs();
            // A fatal expansion error leaves the child with the status the shell
            // itself would have left with (127 from a `-c` string).
            child.in_subshell = self.in_subshell;
            let r = child.apply_redirects(&c.redirects).map(|ok| i32::from(!ok));
            child.in_subshell = true;
            let s = child.finish_subshell(r)?;
            self.reaped = true;
            return Ok(s);
        }
        if !c.redirects.is_empty() {
            // Undone as a builtin's are, `{var}` ones as a program's.
            let saved = self.fds.clone();
            let mark = self.redirected.len();
            let var_redirs = self.var_redirs(&c.redirects);
            let ok = self.apply_redirects(&c.redirects);
            self.close_var_redirs(mark);
            self.restore_redirected(mark, &saved, true);
            self.restore_var_redirs(var_redirs);
            let ok = ok?;
            if !ok {
                return Ok(1);
            }
        }
        // A substitution in a redirection's word counts too.
        Ok(self.last_subst_status.unwrap_or(status))
    }

    /// The variables `{var}` redirections among `rs` assign, with what they hold now.
    fn var_redirs(&self, rs: &[Redirect]) -> Vec<(String, Option<crate::expand::Var>)> {
        rs.iter()
            .filter_map(|r| match &r.fd {
                Some(RedirFd::Var(v)) => {
                    // An element's array is what is put back.
                    let v = super::host::split_element_ref(v).map_or(v.as_str(), |(b, _)| b);
                    Some((v.to_owned(), self.vars.get_raw(v).cloned()))
                }
                _ => None,
            })
            .collect()
    }

    /// Puts back variables [`Interp::var_redirs`] noted (what a nameref names stays
    /// as assigned).
    fn restore_var_redirs(&mut self, saved: Vec<(String, Option<crate::expand::Var>)>) {
        for (v, old) in saved.into_iter().rev() {
            match old {
                Some(o) if o.attrs.has(crate::expand::Attrs::NAMEREF) => {}
                Some(o) => *self.vars.entry(&v, false) = o,
                None => {
                    let _ = self.vars.unset(&v);
                }
            }
        }
    }

    /// Makes the descriptors `{var}` redirections opened since `mark` close with the
    /// command instead of staying open.
    fn close_var_redirs(&mut self, mark: usize) {
        for (_, u) in self.redirected[mark..].iter_mut() {
            if matches!(u, super::redirect::Undo::KeepOpen) {
                *u = super::redirect::Undo::Restore(None);
            }
        }
    }

    /// Sets a `for` loop's variable. A nameref control variable is pointed at each
    /// word in turn rather than assigned through (bash manual, "Shell Parameters").
    fn assign_loop_var(&mut self, var: &str, word: String) -> Result<(), super::AssignError> {
        if self
            .vars
            .get_raw(var)
            .is_some_and(|v| v.attrs.has(crate::expand::Attrs::NAMEREF))
        {
            if self
                .vars
                .get_raw(var)
                .is_some_and(|v| v.attrs.has(crate::expand::Attrs::READONLY))
            {
                return Err(format!("{var}: readonly variable").into());
            }
            if !super::vars::valid_ref(&word) {
                return Err(format!("`{word}': not a valid identifier").into());
            }
            let local = self.vars.is_local_here(var);
            self.vars.entry(var, local).value = Some(crate::expand::Value::Str(word));
            return Ok(());
        }
        self.assign_scalar(var, word, false)
    }

    /// The variable a prefix assignment `name=v cmd` binds: a nameref's final target
    /// when that is a plain name, else `name` itself (bash's `assign_in_env`).
    fn temp_binding_name(&self, name: &str) -> String {
        match self.vars.resolve_name_checked(name) {
            Ok(t) if crate::syntax::is_name(&t) => t,
            _ => name.to_owned(),
        }
    }

    /// Binds `name` for one command. `+=` appends to the visible value under its
    /// attributes (integer addition, case conversion); the binding itself is a plain
    /// exported variable.
    fn bind_temp(&mut self, name: &str, value: String, append: bool) -> Result<(), String> {
        let old = self.vars.get_raw(name).map(|v| (v.attrs, v.as_scalar()));
        if let Some((attrs, _)) = &old
            && attrs.has(crate::expand::Attrs::READONLY)
        {
            return Err(format!("{name}: readonly variable"));
        }
        let value = match old {
            Some((attrs, text)) if append => {
                let text = text.unwrap_or_default();
                if attrs.has(crate::expand::Attrs::INTEGER) {
                    let a = self.eval_int_value(&text).map_err(|e| e.render())?;
                    let b = self.eval_int_value(&value).map_err(|e| e.render())?;
                    a.wrapping_add(b).to_string()
                } else {
                    super::vars::apply_case(attrs, text + &value)
                }
            }
            _ => value,
        };
        self.vars.bind_here(name);
        self.assign_scalar(name, value, false)
            .map_err(|e| e.to_string())
    }

    /// The value of a prefix assignment. An array value is bound as its text, `(b c)`,
    /// with its elements expanded.
    fn eval_binding_value(&mut self, a: &Assign) -> Result<Vec<String>, ExpandError> {
        let AssignValue::Array(elems) = &a.value else {
            return self.eval_assign_value(a);
        };
        let mut items = Vec::new();
        for e in elems {
            match &e.key {
                Some(k) => {
                    let key = Expander::new(self).assign_value(k)?;
                    let value = Expander::new(self).assign_value(&e.value)?;
                    let op = if e.append { "+=" } else { "=" };
                    items.push(format!("[{key}]{op}{value}"));
                }
                None => items.extend(self.expand_words(std::slice::from_ref(&e.value))?),
            }
        }
        Ok(vec![format!("({})", items.join(" "))])
    }

    /// Expands an assignment's value: one string, or the elements of an array literal
    /// (as "key\0value" pairs when keyed).
    pub(crate) fn eval_assign_value(&mut self, a: &Assign) -> Result<Vec<String>, ExpandError> {
        match &a.value {
            AssignValue::Scalar(w) => Ok(vec![Expander::new(self).assign_value(w)?]),
            AssignValue::Array(_) => Ok(Vec::new()),
        }
    }

    /// Performs an assignment; on failure prints the error. An expansion error's own
    /// flow (a fatal `${u?}` or unbound variable ends the shell) comes back with it;
    /// `None` is an assignment error.
    pub(crate) fn apply_assign(&mut self, a: &Assign, v: Vec<String>) -> Result<(), Option<Flow>> {
        let r = match &a.value {
            AssignValue::Scalar(_) => {
                let value = v.into_iter().next().unwrap_or_default();
                match &a.index {
                    Some(iw) => {
                        let key = match self.subscript_key(&a.name, iw) {
                            Ok(k) => k,
                            Err(e) => return Err(self.expand_error(e).err()),
                        };
                        self.assign_element(&a.name, &key, value, a.append)
                    }
                    None => self.assign_scalar(&a.name, value, a.append),
                }
            }
            AssignValue::Array(_) if a.index.is_some() => {
                Err(super::AssignError::Message(format!(
                    "{}[{}]: cannot assign list to array member",
                    a.name,
                    a.index
                        .as_ref()
                        .map(crate::syntax::printer::word_to_string)
                        .unwrap_or_default()
                )))
            }
            AssignValue::Array(elems) => match self.assign_array(&a.name, elems, a.append) {
                Ok(r) => r,
                Err(e) => return Err(self.expand_error(e).err()),
            },
        };
        match r {
            Ok(()) => Ok(()),
            Err(e) => {
                self.report_assign_error(&e);
                Err(None)
            }
        }
    }

    /// The expanded key of a subscript for `name` (a string for associative arrays, the
    /// expanded text for indexed ones, evaluated later as arithmetic).
    pub(crate) fn subscript_key(&mut self, name: &str, w: &Word) -> Result<String, ExpandError> {
        if w.parts.is_empty() {
            return Err(ExpandError::abort(format!("{name}[]: bad array subscript")));
        }
        let assoc = self.vars.get(name).is_some_and(|v| v.is_assoc());
        if assoc {
            let key = Expander::new(self).string(w)?;
            // An associative array has no empty key.
            if key.is_empty() {
                return Err(ExpandError::abort(format!(
                    "{name}[{}]: bad array subscript",
                    printer::word_to_string(w)
                )));
            }
            Ok(key)
        } else if matches!(w.parts.as_slice(), [WordPart::Lit(l)] if l == "@" || l == "*") {
            // `a[@]=x`: an indexed array has no element `@` to assign.
            Err(ExpandError::abort(format!(
                "{name}[{}]: bad array subscript",
                printer::word_to_string(w)
            )))
        } else {
            Expander::new(self).index_text(w)
        }
    }

    /// The key of `declare name[w]=v` (and `local`, `export`, ...): the builtin sees
    /// its argument expanded, and then reads the subscript in it as text, expanding it
    /// again by the array's kind ([`Interp::expand_subscript_for`]).
    pub(crate) fn decl_subscript_key(
        &mut self,
        name: &str,
        w: &Word,
    ) -> Result<String, ExpandError> {
        let text = Expander::new(self).string(w)?;
        if text.is_empty() {
            return Err(ExpandError::abort(format!("{name}[]: bad array subscript")));
        }
        let assoc = self.vars.get(name).is_some_and(|v| v.is_assoc());
        let key = self.expand_subscript_for(assoc, &text)?;
        if assoc && key.is_empty() {
            return Err(ExpandError::abort(format!(
                "{name}[{text}]: bad array subscript"
            )));
        }
        Ok(key)
    }

    /// `name=(...)` / `name+=(...)`. Values are expanded first, in order; then each
    /// element is stored, its subscript evaluated against the array as it is being
    /// built (bash's order). A declaration builtin's list comes here already
    /// expanded, as quoted words (see `Interp::stash_decl_assign`).
    pub(crate) fn assign_array(
        &mut self,
        name: &str,
        elems: &[ArrayElem],
        append: bool,
    ) -> Result<Result<(), super::AssignError>, ExpandError> {
        let written = name;
        let name = match self.vars.resolve_name_checked(name) {
            Ok(n) => n,
            Err(m) => return Ok(Err(m.into())),
        };
        if name.contains('[') {
            return Ok(Err(format!("`{name}': not a valid identifier").into()));
        }
        if let Some(v) = self.vars.get_raw(&name)
            && v.attrs.has(crate::expand::Attrs::NAMEREF)
        {
            // A nameref with nothing to refer to becomes the array itself.
            self.error(&format!("warning: {name}: removing nameref attribute"));
            self.vars
                .entry(&name, false)
                .attrs
                .set(crate::expand::Attrs::NAMEREF, false);
        }
        let existing = self.vars.get(&name).cloned().unwrap_or_default();
        if existing.attrs.has(crate::expand::Attrs::READONLY) {
            return Ok(Err(format!("{written}: readonly variable").into()));
        }
        let assoc = existing.is_assoc();
        let integer = existing.attrs.has(crate::expand::Attrs::INTEGER);
        // An associative array's list is `[k]=v` pairs, or (bash 5.2) words taken as
        // keys and values in turn: so it is when the first has no subscript, and a
        // `[k]=v` after it is a word like the others.
        let all_plain = elems.first().is_none_or(|e| e.key.is_none());
        if assoc && !all_plain {
            return self.assign_assoc_keyed(&name, &existing, elems, append);
        }
        // 1. Expand every value (and, for associative arrays, every key).
        let mut items: Vec<ExpandedElem> = Vec::new();
        for e in elems {
            match &e.key {
                // bash expands braces in `[k]=v` of an indexed array, and what comes
                // out are plain values: `([1]={a,b})` is `('[1]=a' '[1]=b')`.
                Some(k)
                    if !assoc
                        && self.set.braceexpand
                        && let Some(word) =
                            keyed_with_braces(k, e, self.budget.limits.max_brace_words) =>
                {
                    let vals = Expander::new(self).words(std::slice::from_ref(&word))?;
                    items.push((None, None, false, vals));
                }
                Some(k) if assoc => {
                    let mut parts = vec![WordPart::Lit("[".to_owned())];
                    parts.extend(k.parts.iter().cloned());
                    let op = if e.append { "]+=" } else { "]=" };
                    parts.push(WordPart::Lit(op.to_owned()));
                    parts.extend(e.value.parts.iter().cloned());
                    let vals = Expander::new(self).words(&[Word { parts }])?;
                    items.push((None, None, false, vals));
                }
                Some(k) => {
                    let value = Expander::new(self).assign_value(&e.value)?;
                    items.push((Some(k), None, e.append, vec![value]));
                }
                None => {
                    let vals = Expander::new(self).words(std::slice::from_ref(&e.value))?;
                    items.push((None, None, false, vals));
                }
            }
        }
        if assoc {
            // bash 5.2: `(k1 v1 k2 v2 ...)`; each value keeps the text it came from.
            let mut map = match &existing.value {
                Some(Value::Assoc(a)) if append => a.clone(),
                _ => crate::expand::Assoc::default(),
            };
            let mut grown = 0usize;
            let flat: Vec<(String, &Word)> = items
                .into_iter()
                .zip(elems)
                .flat_map(|((.., v), e)| v.into_iter().map(move |x| (x, &e.value)))
                .collect();
            let mut it = flat.into_iter();
            while let Some((k, kw)) = it.next() {
                let mut v = it.next().map(|x| x.0).unwrap_or_default();
                if integer {
                    v = self.eval_int_value(&v)?.to_string();
                }
                if k.is_empty() {
                    let text = printer::word_to_string(kw);
                    self.error(&format!("{text}: bad array subscript"));
                    continue;
                }
                let v = super::vars::apply_case(existing.attrs, v);
                grown += crate::expand::element_cost(Some(&k), &v);
                map.insert(k, v);
            }
            let attrs = existing.attrs;
            let var = self.vars.entry(&name, false);
            var.value = Some(Value::Assoc(map));
            var.attrs = attrs;
            return Ok(self
                .note_growth(grown)
                .map_err(|m| format!("{name}: {m}").into()));
        }
        // Indexed: store element by element into the live array.
        {
            let attrs = existing.attrs;
            let var = self.vars.entry(&name, false);
            let start = match (&existing.value, append) {
                (Some(Value::Indexed(a)), true) => a.clone(),
                (Some(Value::Str(s)), true) => {
                    let mut m = imbl::OrdMap::new();
                    m.insert(0, s.clone());
                    m
                }
                _ => imbl::OrdMap::new(),
            };
            var.value = Some(Value::Indexed(start));
            var.attrs = attrs;
        }
        let current = |sh: &Interp| -> imbl::OrdMap<i64, String> {
            match sh.vars.get(&name).and_then(|v| v.value.clone()) {
                Some(Value::Indexed(a)) => a,
                _ => imbl::OrdMap::new(),
            }
        };
        let mut next = current(self).keys().next_back().map(|k| k + 1).unwrap_or(0);
        let mut grown = 0usize;
        for (k, _, app, vals) in items {
            match k {
                Some(kw) => {
                    // The element's word is expanded first, and its subscript then
                    // read again as an index (bash expands the list's words before
                    // it looks for subscripts).
                    let word = Expander::new(self).string(kw)?;
                    let text = self.expand_subscript_for(false, &word)?;
                    // A subscript that is no valid expression ends a `-c` shell, as
                    // `a[1+]=x` does.
                    let mut idx =
                        crate::expand::arith::eval_str(&text, self).map_err(|mut f| {
                            f.discard = true;
                            f
                        })?;
                    let arr = current(self);
                    if idx < 0 {
                        let max = arr.keys().next_back().copied().unwrap_or(-1);
                        idx += max + 1;
                        if idx < 0 {
                            self.error(&format!("{name}[{text}]: bad array subscript"));
                            continue;
                        }
                    }
                    let mut v = vals.into_iter().next().unwrap_or_default();
                    if app {
                        v = arr.get(&idx).cloned().unwrap_or_default() + &v;
                    }
                    if integer {
                        v = self.eval_int_value(&v)?.to_string();
                    }
                    let v = super::vars::apply_case(existing.attrs, v);
                    grown += crate::expand::element_cost(None, &v);
                    super::vars::set_indexed(self.vars.entry(&name, false), idx, v);
                    next = idx + 1;
                }
                None => {
                    for mut v in vals {
                        if integer {
                            v = self.eval_int_value(&v)?.to_string();
                        }
                        let v = super::vars::apply_case(existing.attrs, v);
                        grown += crate::expand::element_cost(None, &v);
                        super::vars::set_indexed(self.vars.entry(&name, false), next, v);
                        next += 1;
                    }
                }
            }
        }
        if current(self).len() > self.budget.limits.max_array_len {
            let m = format!(
                "array size limit exceeded ({} elements)",
                self.budget.limits.max_array_len
            );
            self.budget.trip(&m);
            return Err(ExpandError::passthrough(
                format!("\u{0}{m}"),
                ErrorKind::Fatal(126),
            ));
        }
        Ok(self
            .note_growth(grown)
            .map_err(|m| format!("{name}: {m}").into()))
    }

    /// An associative array's `[k]=v` list: each element is expanded, checked and
    /// stored before the next is looked at, so a plain word is refused, and an
    /// integer array's value evaluated, in its turn (a failing value ends the list
    /// before later elements are expanded).
    fn assign_assoc_keyed(
        &mut self,
        name: &str,
        existing: &crate::expand::Var,
        elems: &[ArrayElem],
        append: bool,
    ) -> Result<Result<(), super::AssignError>, ExpandError> {
        let integer = existing.attrs.has(crate::expand::Attrs::INTEGER);
        let old = match &existing.value {
            Some(Value::Assoc(a)) => a.clone(),
            _ => crate::expand::Assoc::default(),
        };
        let mut map = if append {
            old.clone()
        } else {
            crate::expand::Assoc::default()
        };
        let mut grown = 0usize;
        for e in elems {
            let Some(k) = &e.key else {
                // A declaration's list was quoted as it was expanded, so its words
                // show quoted.
                let w = printer::word_to_string(&e.value);
                self.error(&format!(
                    "{name}: {w}: must use subscript when assigning associative array"
                ));
                continue;
            };
            let mut v = Expander::new(self).assign_value(&untilde(&e.value))?;
            let key = Expander::new(self).string(k)?;
            if key.is_empty() {
                let op = if e.append { "+=" } else { "=" };
                self.error(&format!(
                    "[{}]{op}{}: bad array subscript",
                    printer::word_to_string(k),
                    printer::word_to_string(&e.value)
                ));
                continue;
            }
            if e.append {
                let base = if append { map.get(&key) } else { old.get(&key) };
                v = base.cloned().unwrap_or_default() + &v;
            }
            if integer {
                v = self.eval_int_value(&v)?.to_string();
            }
            let v = super::vars::apply_case(existing.attrs, v);
            grown += crate::expand::element_cost(Some(&key), &v);
            map.insert(key, v);
        }
        let attrs = existing.attrs;
        let var = self.vars.entry(name, false);
        var.value = Some(Value::Assoc(map));
        var.attrs = attrs;
        Ok(self
            .note_growth(grown)
            .map_err(|m| format!("{name}: {m}").into()))
    }
}

/// An array literal element after expansion: its subscript word (evaluated later for
/// indexed arrays), its expanded key (associative arrays), `+=`, and its values.
type ExpandedElem<'a> = (Option<&'a Word>, Option<String>, bool, Vec<String>);

/// A word with its tilde prefixes turned back into literal text (associative array
/// values are not tilde-expanded).
/// The command of a substitution that is only `< file` (bash reads the file itself
/// instead of running a command).
fn lone_input_redirect(body: &Script) -> Option<&Command> {
    let [list] = body.commands.as_slice() else {
        return None;
    };
    let [item] = list.items.as_slice() else {
        return None;
    };
    if item.background || !item.and_or.rest.is_empty() || item.and_or.first.negated {
        return None;
    }
    let [c] = item.and_or.first.commands.as_slice() else {
        return None;
    };
    let CommandKind::Simple(s) = &c.kind else {
        return None;
    };
    let [r] = c.redirects.as_slice() else {
        return None;
    };
    let plain_input = r.op == crate::syntax::ast::RedirOp::Read
        && matches!(r.fd, None | Some(crate::syntax::ast::RedirFd::Number(0)));
    (s.words.is_empty() && s.assigns.is_empty() && plain_input).then_some(c)
}

/// Element `[k]=v` (or `[k]+=v`) spelled as one word, when braces in it expand.
pub(crate) fn keyed_with_braces(key: &Word, e: &ArrayElem, max: usize) -> Option<Word> {
    let op = if e.append { "]+=" } else { "]=" };
    let mut parts = vec![WordPart::Lit("[".to_owned())];
    parts.extend(key.parts.iter().cloned());
    parts.push(WordPart::Lit(op.to_owned()));
    parts.extend(untilde(&e.value).parts);
    let word = Word { parts };
    // Too many words counts too: expanding the word reports it.
    let expands = !matches!(
        crate::expand::brace::expand(&word, max),
        Ok(std::borrow::Cow::Borrowed(_))
    );
    expands.then_some(word)
}

pub(crate) fn untilde(w: &Word) -> Word {
    Word {
        parts: w
            .parts
            .iter()
            .map(|p| match p {
                WordPart::Tilde(u) => WordPart::Lit(format!("~{u}")),
                other => other.clone(),
            })
            .collect(),
    }
}

/// bash's rendering of an I/O error (`Broken pipe`, `Bad file descriptor`).
pub(crate) fn io_error_text(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::BrokenPipe => "Broken pipe".to_owned(),
        _ => match e.raw_os_error() {
            Some(9) => "Bad file descriptor".to_owned(),
            _ => e.to_string(),
        },
    }
}

pub(crate) fn flow_to_expand(f: Flow) -> ExpandError {
    match f {
        Flow::Fatal(m) => ExpandError::passthrough(format!("\u{0}{m}"), ErrorKind::Fatal(126)),
        _ => ExpandError::abort("subshell failed"),
    }
}

/// The interpreter a `#!` line names and its one optional argument (the rest of the
/// line, blanks around it removed), as the kernel reads them. None when the file has
/// no `#!` or names nothing after it (bash then runs it as a shell script).
fn shebang(content: &[u8]) -> Option<(String, Option<String>)> {
    let rest = content.strip_prefix(b"#!")?;
    let line = rest.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = std::str::from_utf8(line).ok()?;
    // The kernel strips blanks only: a carriage return stays part of the line (a
    // script saved with CRLF line ends names an interpreter `/bin/bash\r`).
    let line = line.trim_matches([' ', '\t']);
    let (interp, arg) = match line.find([' ', '\t']) {
        Some(i) => (&line[..i], Some(line[i..].trim_matches([' ', '\t']))),
        None => (line, None),
    };
    if interp.is_empty() {
        return None;
    }
    Some((
        interp.to_owned(),
        arg.filter(|a| !a.is_empty()).map(str::to_owned),
    ))
}

/// The utility a `/bin` stub stands for.
fn stub_name(content: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(content).ok()?;
    let line = text.lines().nth(1)?;
    line.strip_prefix("# shellbox builtin: ")
        .map(|s| s.trim().to_owned())
}

/// `name=(...)` as `set -x` shows it: the words as bash's parser gives them back,
/// one blank apart, `$'...'` turned into `'...'`, in bash's internal quoting
/// ([`printer::internal_quoting`]).
pub(crate) fn array_literal_trace(a: &Assign, elems: &[ArrayElem]) -> String {
    printer::internal_quoting(|| {
        let mut out = a.name.clone();
        if let Some(i) = &a.index {
            out.push('[');
            out.push_str(&printer::word_to_string(i));
            out.push(']');
        }
        out.push_str(if a.append { "+=(" } else { "=(" });
        for (i, e) in elems.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            if let Some(k) = &e.key {
                out.push('[');
                out.push_str(&printer::word_to_string(k));
                out.push_str(if e.append { "]+=" } else { "]=" });
            }
            out.push_str(&printer::word_to_string(&e.value));
        }
        out.push(')');
        out
    })
}

/// Quotes an assignment's value for `set -x`: like a word, but empty shows as nothing.
fn assign_trace_quote(s: &str) -> String {
    if s.is_empty() {
        String::new()
    } else {
        xtrace_quote(s)
    }
}

/// Quotes a word for `set -x` output the way bash does: a word holding a character
/// the shell treats specially is single-quoted (whatever else it holds, so `'\e[0m'`
/// keeps its escape raw); failing that, one with a character that does not print is
/// `$'...'`-quoted.
pub(crate) fn xtrace_quote(s: &str) -> String {
    if s.is_empty() {
        return "''".to_owned();
    }
    if has_shell_metas(s) {
        return crate::expand::param::single_quote(s);
    }
    if crate::expand::param::needs_ansi_c(s) {
        return crate::expand::param::ansi_c_quote(s);
    }
    s.to_owned()
}

/// Whether `s` holds a character that means something to the shell where it stands:
/// a blank, a quote, an operator, a glob or expansion character, `#` starting the
/// word, `~` starting it or following `=` or `:`.
fn has_shell_metas(s: &str) -> bool {
    let mut prev = None;
    s.chars().any(|c| {
        let at_start = prev.is_none();
        let after_sep = matches!(prev, None | Some('=' | ':'));
        prev = Some(c);
        (c == '#' && at_start)
            || (c == '~' && after_sep)
            || matches!(
                c,
                ' ' | '\t'
                    | '\n'
                    | '\''
                    | '"'
                    | '\\'
                    | '$'
                    | '`'
                    | '*'
                    | '?'
                    | '['
                    | ']'
                    | '|'
                    | '&'
                    | ';'
                    | '<'
                    | '>'
                    | '('
                    | ')'
                    | '{'
                    | '}'
                    | '!'
                    | '^'
            )
    })
}

/// The services utilities call back into: running commands and checking limits.
struct UtilHost<'a> {
    sh: &'a mut Interp,
    /// The utility's own pid.
    pid: u32,
}

impl UtilHost<'_> {
    /// Runs `argv` as a new process would: no functions, the given environment (or the
    /// shell's exported variables), and the given streams: a utility's own stream is the
    /// descriptor the child inherits; other input is read to the end and becomes the
    /// child's stdin, other output is captured and written out when the child is done.
    #[allow(clippy::too_many_arguments)]
    fn run_in(
        &mut self,
        argv: &[String],
        env: Option<&std::collections::BTreeMap<String, String>>,
        cwd: Option<&str>,
        stdin: Stdio<'_, dyn std::io::Read>,
        mut stdout: Stdio<'_, dyn std::io::Write>,
        mut stderr: Stdio<'_, dyn std::io::Write>,
        alarm: Option<&super::procs::AlarmSpec>,
    ) -> std::io::Result<(i32, Vec<i32>)> {
        let Some(name) = argv.first() else {
            return Ok((0, Vec::new()));
        };
        // Output the utility has not written out yet goes before the command's.
        if let Stdio::Own(w) = &mut stdout {
            w.flush()?;
        }
        if let Stdio::Own(w) = &mut stderr {
            w.flush()?;
        }
        let input = match stdin {
            Stdio::Own(_) => None,
            Stdio::Given(r) => {
                let mut data = Vec::new();
                r.read_to_end(&mut data)?;
                Some(data)
            }
        };
        let mut child = match self.sh.fork_subshell() {
            Ok(c) => c,
            Err(Flow::Fatal(m)) => return Err(crate::commands::fatal(m)),
            Err(_) => return Ok((1, Vec::new())),
        };
        child.without_parent_jobs();
        // A utility's command is a process of its own, not the restricted shell.
        child.restricted = false;
        // timeout's command leads a process group of its own, which the alarm signals.
        let alarm = alarm.map(|spec| {
            let pid = child.proc.pid();
            let target = if spec.whole_group {
                child.pgid = pid;
                child.proc.set_pgid(pid);
                super::procs::Target::Group(pid)
            } else {
                super::procs::Target::Pid(pid)
            };
            let now = self.sh.fs.lock().clock().now().as_nanos();
            super::procs::arm(child.proc.table(), self.pid, target, now, spec)
        });
        if let Some(data) = input {
            child.fds.set(0, Some(OpenFile::bytes(data)));
        }
        if let Some(dir) = cwd {
            child.cwd = crate::fs::path::join(&child.cwd, dir);
        }
        let limit = self.sh.budget.limits.max_output_bytes;
        let mut capture = |fd: i32, given: bool| {
            given.then(|| {
                let cap = Capture::new(limit);
                child
                    .fds
                    .set(fd, Some(Arc::new(OpenFile::Capture(cap.clone()))));
                cap
            })
        };
        let out = capture(1, matches!(stdout, Stdio::Given(_)));
        let err = capture(2, matches!(stderr, Stdio::Given(_)));
        // A utility's child process gets the environment, exported functions included.
        match env {
            Some(env) => {
                child.funcs = super::FuncTable::default();
                child.exported_funcs = imbl::OrdSet::new();
                child.adopt_env(env);
            }
            None => {
                let exported = &child.exported_funcs;
                child.funcs = child
                    .funcs
                    .iter()
                    .filter(|(k, _)| exported.contains(*k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
            }
        }
        let cmd = Command {
            kind: CommandKind::Simple(SimpleCommand::default()),
            redirects: Vec::new(),
            line: child.line,
        };
        // A utility runs its program, as `env pwd` runs /bin/pwd rather than the
        // builtin; builtins stand in only for names with no utility (`echo`, `kill`).
        let r = match super::builtins::lookup(name) {
            Some(b) if !name.contains('/') && child.registry.get(name).is_none() => {
                super::builtins::call(&mut child, name, b, argv)
            }
            // The forked process becomes the program, as fork and exec make it.
            _ => {
                child.no_fork = true;
                child.lower_on_exec = false;
                child.execvp_path = true;
                child.run_external(&cmd, argv)
            }
        };
        let status = match child.finish_subshell(r) {
            Ok(s) => s,
            Err(Flow::Fatal(m)) => return Err(crate::commands::fatal(m)),
            Err(_) => 1,
        };
        let sent = alarm.map(|a| a.sent()).unwrap_or_default();
        if let Some(cap) = out {
            stdout.stream().write_all(&cap.take())?;
        }
        if let Some(cap) = err {
            stderr.stream().write_all(&cap.take())?;
        }
        Ok((status, sent))
    }
}

impl crate::commands::Host for UtilHost<'_> {
    /// Runs a command for a utility (`find -exec`, `env`, `xargs`, `timeout`, awk's
    /// pipes and `system`); see [`UtilHost::run_in`] for how the streams connect.
    fn run(
        &mut self,
        argv: &[String],
        stdin: Stdio<'_, dyn std::io::Read>,
        stdout: Stdio<'_, dyn std::io::Write>,
        stderr: Stdio<'_, dyn std::io::Write>,
    ) -> std::io::Result<i32> {
        Ok(self
            .run_in(argv, None, None, stdin, stdout, stderr, None)?
            .0)
    }

    fn run_timed(
        &mut self,
        argv: &[String],
        stdin: Stdio<'_, dyn std::io::Read>,
        stdout: Stdio<'_, dyn std::io::Write>,
        stderr: Stdio<'_, dyn std::io::Write>,
        alarm: &super::procs::AlarmSpec,
    ) -> std::io::Result<(i32, Vec<i32>)> {
        self.run_in(argv, None, None, stdin, stdout, stderr, Some(alarm))
    }

    fn run_env(
        &mut self,
        argv: &[String],
        env: &std::collections::BTreeMap<String, String>,
        stdin: Stdio<'_, dyn std::io::Read>,
        stdout: Stdio<'_, dyn std::io::Write>,
        stderr: Stdio<'_, dyn std::io::Write>,
    ) -> std::io::Result<i32> {
        Ok(self
            .run_in(argv, Some(env), None, stdin, stdout, stderr, None)?
            .0)
    }

    fn run_env_in(
        &mut self,
        argv: &[String],
        env: &std::collections::BTreeMap<String, String>,
        cwd: &str,
        stdin: Stdio<'_, dyn std::io::Read>,
        stdout: Stdio<'_, dyn std::io::Write>,
        stderr: Stdio<'_, dyn std::io::Write>,
    ) -> std::io::Result<i32> {
        Ok(self
            .run_in(argv, Some(env), Some(cwd), stdin, stdout, stderr, None)?
            .0)
    }

    fn command_exists(&mut self, name: &str) -> bool {
        if name.contains('/') {
            let path = crate::fs::path::join(&self.sh.cwd, name);
            return self.sh.fs.lock().stat(&path).is_ok_and(|m| !m.is_dir());
        }
        self.sh.builtin(name).is_some()
            || self.sh.command_location(name).is_some()
            || (self.sh.registry.get(name).is_some() && self.sh.get_str("PATH").is_none())
    }

    fn check(&mut self) -> std::io::Result<()> {
        self.sh.budget.check().map_err(crate::commands::fatal)?;
        crate::fs::tick();
        super::procs::check_utility()
    }
    fn charge_io(&self, n: usize) -> std::io::Result<()> {
        self.sh.budget.charge_io(n)
    }
    fn open_read(&self, path: &str) -> Option<std::io::Result<Box<dyn std::io::Read + Send>>> {
        // `/dev/fd/N` naming one of the shell's descriptors (a process substitution).
        let dup_of = path
            .strip_prefix("/dev/fd/")
            .and_then(|n| n.parse::<i32>().ok());
        let file = match dup_of {
            // A regular file is opened anew, from its start, as Linux opens it.
            Some(fd) => match self.sh.fds.get(fd).map(|f| &**f) {
                Some(OpenFile::File { ino, .. }) => {
                    let ino = *ino;
                    let fs = self.sh.fs.lock();
                    let ft = fs.stat_ino(ino).ok()?.file_type;
                    fs.access_ino(ino, true, false, false)
                        .map(|()| Arc::new(super::io::for_file_type(ft, ino, true, false, false)))
                        .map_err(Into::into)
                }
                _ => {
                    let f = self.sh.fds.get(fd).filter(|f| f.readable())?;
                    Ok(Arc::clone(f))
                }
            },
            None => self.sh.open_fifo_path(path, false)?.map(Arc::new),
        };
        Some(file.map(|f| {
            Box::new(FdReader {
                file: Some(f),
                fs: self.sh.fs.clone(),
                budget: self.sh.budget.clone(),
            }) as Box<dyn std::io::Read + Send>
        }))
    }
    fn open_write(&self, path: &str) -> Option<std::io::Result<Box<dyn std::io::Write + Send>>> {
        let dup_of = match path {
            "/dev/stdout" => Some(1),
            "/dev/stderr" => Some(2),
            p => p
                .strip_prefix("/dev/fd/")
                .and_then(|n| n.parse::<i32>().ok()),
        };
        let file = match dup_of {
            Some(fd) => {
                let f = self.sh.fds.get(fd).filter(|f| f.writable())?;
                Ok(Arc::clone(f))
            }
            None => self.sh.open_fifo_path(path, true)?.map(Arc::new),
        };
        Some(file.map(|f| {
            Box::new(FdWriter {
                file: Some(f),
                fs: self.sh.fs.clone(),
                budget: self.sh.budget.clone(),
            }) as Box<dyn std::io::Write + Send>
        }))
    }
    fn network(&mut self) -> Option<Arc<crate::net::NetworkPolicy>> {
        self.sh.registry.network()
    }
    fn fd_file(&self, fd: i32) -> Option<(crate::fs::Ino, u64)> {
        match self.sh.fds.get(fd).map(|f| &**f) {
            Some(OpenFile::File { ino, pos, .. }) => {
                Some((*ino, *pos.lock().unwrap_or_else(|e| e.into_inner())))
            }
            _ => None,
        }
    }
    fn memory_limit(&self) -> Option<u64> {
        Some(self.sh.budget.limits.max_memory_bytes)
    }
    fn probe(&mut self) -> crate::commands::Probe {
        let budget = Arc::clone(&self.sh.budget);
        Arc::new(move || {
            budget.check().map_err(crate::commands::fatal)?;
            super::procs::check_utility()
        })
    }
    fn sleep(&mut self, clock: &crate::fs::Clock, nanos: i64) -> std::io::Result<()> {
        let interrupted = || super::procs::utility_interrupted().map(|(_, at)| at);
        let mut left = nanos;
        // A `timeout` alarm due within the sleep goes off when the sleep reaches it.
        loop {
            let now = clock.now().as_nanos();
            let Some(at) = super::procs::next_alarm(now.saturating_add(left)) else {
                break;
            };
            let step = at.saturating_sub(now).max(0);
            if clock.sleep(step, &interrupted).is_some() {
                return super::procs::check_utility();
            }
            super::procs::fire_alarms_at(at);
            left = left.saturating_sub(step);
            super::procs::check_utility()?;
        }
        match clock.sleep(left, &interrupted) {
            Some(_) => super::procs::check_utility(),
            None => Ok(()),
        }
    }
    fn processes(&mut self) -> Vec<super::procs::ProcInfo> {
        self.sh.procs.list()
    }
    fn random(&mut self) -> u64 {
        (0..5).fold(0u64, |v, _| (v << 15) ^ u64::from(self.sh.next_random()))
    }
    fn pid(&mut self) -> u32 {
        self.pid
    }
    fn signal(&mut self, pid: u32, sig: i32) -> bool {
        self.sh.send_signal(super::procs::Target::Pid(pid), sig)
    }
}

/// C's `atoi` as bash's `default_columns` uses it: leading blanks, a sign, the digits
/// that follow; `None` when there are none or the value does not fit.
fn atoi(s: &str) -> Option<usize> {
    let t = s.trim_start_matches([' ', '\t', '\n']);
    let t = t.strip_prefix('+').unwrap_or(t);
    let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// `select`'s menu (bash's `print_select_list`): items numbered from 1, in as many
/// columns of the widest item's width as `cols` holds, filled down each column, padded
/// with tabs of width 8 as a terminal would show them.
fn select_menu(items: &[String], cols: usize) -> String {
    let len = items.len();
    let number_len = |n: usize| n.to_string().len();
    let indices_len = number_len(len);
    let widths: Vec<usize> = items
        .iter()
        .map(|i| crate::commands::util::display_width(i))
        .collect();
    let max_elem_len = widths.iter().copied().max().unwrap_or(0) + indices_len + 2 + 2;
    let mut ncols = (cols / max_elem_len).max(1);
    let mut rows = len.div_ceil(ncols);
    ncols = len.div_ceil(rows.max(1));
    if rows == 1 {
        rows = ncols;
    }
    let first_indices_len = number_len(rows);
    let mut out = String::new();
    for row in 0..rows {
        let mut ind = row;
        let mut pos = 0;
        loop {
            let ilen = if pos == 0 {
                first_indices_len
            } else {
                indices_len
            };
            let (Some(item), Some(w)) = (items.get(ind), widths.get(ind)) else {
                break;
            };
            out.push_str(&format!("{:>ilen$}) {item}", ind + 1));
            let elem_len = w + ilen + 2;
            ind += rows;
            if ind >= len {
                break;
            }
            let (mut from, to) = (pos + elem_len, pos + max_elem_len);
            while from < to {
                if to / 8 > from / 8 {
                    out.push('\t');
                    from += 8 - from % 8;
                } else {
                    out.push(' ');
                    from += 1;
                }
            }
            pos += max_elem_len;
        }
        out.push('\n');
    }
    out
}

/// The report of `time` under `format` (the manual's `TIMEFORMAT`): `%[p][l]R`, `U`, `S`
/// give the real, user and system times with `p` (0 to 3, default 3) fraction digits, in
/// minutes and seconds with `l`; `%P` the CPU share; `%%` a percent sign. The simulated
/// shell spends no CPU time. An unknown character after `%` is the error (`\0` when the
/// format ends inside a conversion); a `%` that ends the format is itself.
fn time_report(format: &str, real: std::time::Duration) -> Result<String, char> {
    let mut out = String::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut digits = 3u32;
        let mut long = false;
        let mut next = chars.next();
        if next.is_none() {
            // A `%` that ends the format is itself.
            out.push('%');
            break;
        }
        if let Some(d) = next.and_then(|d| d.to_digit(10)) {
            digits = d.min(3);
            next = chars.next();
        }
        if next == Some('l') {
            long = true;
            next = chars.next();
        }
        let value = match next {
            Some('%') if digits == 3 && !long => {
                out.push('%');
                continue;
            }
            Some('P') => {
                out.push_str("0.00");
                continue;
            }
            Some('R') => real,
            Some('U' | 'S') => std::time::Duration::ZERO,
            Some(other) => return Err(other),
            None => return Err('\0'),
        };
        let secs = value.as_secs();
        let frac = value.subsec_millis() / 10u32.pow(3 - digits);
        let frac = if digits == 0 {
            String::new()
        } else {
            format!(".{frac:0width$}", width = digits as usize)
        };
        if long {
            out.push_str(&format!("{}m{}{frac}s", secs / 60, secs % 60));
        } else {
            out.push_str(&format!("{secs}{frac}"));
        }
    }
    out.push('\n');
    Ok(out)
}

/// Under `set -k` the arguments written as assignments (`cmd a=1 b`) are bindings of
/// the command as those before its name are, taken out of its words; `None` when
/// there are none.
fn keyword_assigns(s: &SimpleCommand) -> Option<SimpleCommand> {
    let (first, rest) = s.words.split_first()?;
    if !rest.iter().any(|w| word_assign(w).is_some()) {
        return None;
    }
    let mut moved = SimpleCommand {
        assigns: s.assigns.clone(),
        words: vec![first.clone()],
    };
    for w in rest {
        match word_assign(w) {
            Some(a) => moved.assigns.push(a),
            None => moved.words.push(w.clone()),
        }
    }
    Some(moved)
}

/// The assignment an argument word spells: `name=value`, `name+=value` or
/// `name[sub]=value` with the name and `=` unquoted, or a declaration builtin's
/// assignment argument.
fn word_assign(w: &Word) -> Option<Assign> {
    let (head, tail) = w.parts.split_first()?;
    let text = match head {
        WordPart::Param(p) => {
            return match (&p.op, tail) {
                (ParamOp::AssignWord(a), []) => Some((**a).clone()),
                _ => None,
            };
        }
        WordPart::Lit(t) => t,
        _ => return None,
    };
    let name_end = text
        .char_indices()
        .find(|&(i, c)| !(c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit())))
        .map_or(text.len(), |(i, _)| i);
    if name_end == 0 {
        return None;
    }
    let mut at = name_end;
    let mut index = None;
    if text[at..].starts_with('[') {
        let close = at + text[at..].find(']')?;
        index = Some(Word {
            parts: vec![WordPart::Lit(text[at + 1..close].to_owned())],
        });
        at = close + 1;
    }
    let append = text[at..].starts_with("+=");
    let value_at = if append {
        at + 2
    } else if text[at..].starts_with('=') {
        at + 1
    } else {
        return None;
    };
    let mut parts = Vec::new();
    if value_at < text.len() {
        parts.push(WordPart::Lit(text[value_at..].to_owned()));
    }
    parts.extend(tail.iter().cloned());
    Some(Assign {
        name: text[..name_end].to_owned(),
        index,
        append,
        value: AssignValue::Scalar(Word { parts }),
        text: printer::word_to_string(w),
    })
}
