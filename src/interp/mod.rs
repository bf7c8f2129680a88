//! The interpreter: shell state and the execution of parsed commands (bash manual,
//! "Executing Commands", "Shell Functions", "Shell Variables"). State lives in persistent
//! structures, so a subshell or pipeline stage forks it in O(1).

pub mod builtins;
mod child;
mod exec;
pub(crate) use exec::io_error_text;
pub(crate) mod fifo;
mod histexpand;
mod host;
pub mod io;
pub(crate) mod pool;
pub mod procs;
mod redirect;
mod restricted;
mod signals;
mod specials;
pub mod vars;

use std::collections::HashMap;
use std::sync::Arc;

use crate::commands::Registry;
use crate::expand::{Attrs, Value, Var};
use crate::fs::SharedFs;
use crate::limits::Budget;
use crate::syntax::parser::Recovery;
use crate::syntax::{FunctionDef, ParseErrorKind, ParseOptions, Parser};
use io::{FdTable, OpenFile};
use vars::Scopes;

/// Non-local control flow and fatal conditions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Break(u32),
    Continue(u32),
    Return(i32),
    /// Leave the shell (or subshell) with this status.
    Exit(i32),
    /// Abandon the current complete command (bash's expansion errors); status 1.
    Abort,
    /// A limit was hit or the run was cancelled: the message, status 126.
    Fatal(String),
}

pub type R = Result<i32, Flow>;

/// `set -o` options.
#[derive(Clone, Copy, Debug, Default)]
pub struct SetOpts {
    pub allexport: bool,
    pub braceexpand: bool,
    pub errexit: bool,
    pub errtrace: bool,
    pub functrace: bool,
    pub hashall: bool,
    pub histexpand: bool,
    pub history: bool,
    pub ignoreeof: bool,
    pub interactive_comments: bool,
    pub keyword: bool,
    pub monitor: bool,
    pub noclobber: bool,
    pub noexec: bool,
    pub noglob: bool,
    pub nolog: bool,
    pub notify: bool,
    pub nounset: bool,
    pub onecmd: bool,
    pub physical: bool,
    pub pipefail: bool,
    pub posix: bool,
    pub privileged: bool,
    pub verbose: bool,
    pub vi: bool,
    pub emacs: bool,
    pub xtrace: bool,
}

/// Names of `set -o` options, in bash's listing order, with their single-letter flag.
pub const SET_OPTIONS: &[(&str, Option<char>)] = &[
    ("allexport", Some('a')),
    ("braceexpand", Some('B')),
    ("emacs", None),
    ("errexit", Some('e')),
    ("errtrace", Some('E')),
    ("functrace", Some('T')),
    ("hashall", Some('h')),
    ("histexpand", Some('H')),
    ("history", None),
    ("ignoreeof", None),
    ("interactive-comments", None),
    ("keyword", Some('k')),
    ("monitor", Some('m')),
    ("noclobber", Some('C')),
    ("noexec", Some('n')),
    ("noglob", Some('f')),
    ("nolog", None),
    ("notify", Some('b')),
    ("nounset", Some('u')),
    ("onecmd", Some('t')),
    ("physical", Some('P')),
    ("pipefail", None),
    ("posix", None),
    ("privileged", Some('p')),
    ("verbose", Some('v')),
    ("vi", None),
    ("xtrace", Some('x')),
];

impl SetOpts {
    pub fn get_mut(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "allexport" => &mut self.allexport,
            "braceexpand" => &mut self.braceexpand,
            "emacs" => &mut self.emacs,
            "errexit" => &mut self.errexit,
            "errtrace" => &mut self.errtrace,
            "functrace" => &mut self.functrace,
            "hashall" => &mut self.hashall,
            "histexpand" => &mut self.histexpand,
            "history" => &mut self.history,
            "ignoreeof" => &mut self.ignoreeof,
            "interactive-comments" => &mut self.interactive_comments,
            "keyword" => &mut self.keyword,
            "monitor" => &mut self.monitor,
            "noclobber" => &mut self.noclobber,
            "noexec" => &mut self.noexec,
            "noglob" => &mut self.noglob,
            "nolog" => &mut self.nolog,
            "notify" => &mut self.notify,
            "nounset" => &mut self.nounset,
            "onecmd" => &mut self.onecmd,
            "physical" => &mut self.physical,
            "pipefail" => &mut self.pipefail,
            "posix" => &mut self.posix,
            "privileged" => &mut self.privileged,
            "verbose" => &mut self.verbose,
            "vi" => &mut self.vi,
            "xtrace" => &mut self.xtrace,
            _ => return None,
        })
    }

    /// Turns a named option on or off (false for an unknown name). The line-editing
    /// modes exclude each other: turning one on turns the other off.
    pub fn set_named(&mut self, name: &str, on: bool) -> bool {
        let Some(b) = self.get_mut(name) else {
            return false;
        };
        *b = on;
        match name {
            "vi" if on => self.emacs = false,
            "emacs" if on => self.vi = false,
            _ => {}
        }
        true
    }

    pub fn get(&self, name: &str) -> Option<bool> {
        let mut c = *self;
        c.get_mut(name).map(|b| *b)
    }

    pub fn by_letter(&mut self, l: char) -> Option<&mut bool> {
        let name = SET_OPTIONS.iter().find(|(_, c)| *c == Some(l))?.0;
        self.get_mut(name)
    }
}

/// `shopt` options: name and default, in bash's listing order.
pub const SHOPT_OPTIONS: &[(&str, bool)] = &[
    ("autocd", false),
    ("assoc_expand_once", false),
    ("cdable_vars", false),
    ("cdspell", false),
    ("checkhash", false),
    ("checkjobs", false),
    ("checkwinsize", true),
    ("cmdhist", true),
    ("compat31", false),
    ("compat32", false),
    ("compat40", false),
    ("compat41", false),
    ("compat42", false),
    ("compat43", false),
    ("compat44", false),
    ("complete_fullquote", true),
    ("direxpand", false),
    ("dirspell", false),
    ("dotglob", false),
    ("execfail", false),
    ("expand_aliases", false),
    ("extdebug", false),
    ("extglob", false),
    ("extquote", true),
    ("failglob", false),
    ("force_fignore", true),
    ("globasciiranges", true),
    ("globskipdots", true),
    ("globstar", false),
    ("gnu_errfmt", false),
    ("histappend", false),
    ("histreedit", false),
    ("histverify", false),
    ("hostcomplete", true),
    ("huponexit", false),
    ("inherit_errexit", false),
    ("interactive_comments", true),
    ("lastpipe", false),
    ("lithist", false),
    ("localvar_inherit", false),
    ("localvar_unset", false),
    ("login_shell", false),
    ("mailwarn", false),
    ("no_empty_cmd_completion", false),
    ("nocaseglob", false),
    ("nocasematch", false),
    ("noexpand_translation", false),
    ("nullglob", false),
    ("patsub_replacement", true),
    ("progcomp", true),
    ("progcomp_alias", false),
    ("promptvars", true),
    ("restricted_shell", false),
    ("shift_verbose", false),
    ("sourcepath", true),
    ("varredir_close", false),
    ("xpg_echo", false),
];

/// The state of `shopt` options (bit i = `SHOPT_OPTIONS[i]`).
#[derive(Clone, Copy, Debug)]
pub struct Shopts(u64);

/// A command location remembered by the `hash` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hashed {
    /// The path as found: a PATH entry joined with the name (maybe relative).
    pub path: String,
    /// Times the command was run from here.
    pub hits: u32,
    /// Insertion order, for listing in bash's order.
    pub seq: u64,
}

impl Default for Shopts {
    fn default() -> Shopts {
        let mut bits = 0u64;
        for (i, (_, on)) in SHOPT_OPTIONS.iter().enumerate() {
            if *on {
                bits |= 1 << i;
            }
        }
        Shopts(bits)
    }
}

impl Shopts {
    /// The bit of option `name`, computed at compile time for the options read on
    /// every word expansion (a name lookup there was a tenth of an expansion loop).
    /// Zero for an unknown name.
    pub const fn bit(name: &str) -> u64 {
        let mut i = 0;
        while i < SHOPT_OPTIONS.len() {
            let (a, b) = (name.as_bytes(), SHOPT_OPTIONS[i].0.as_bytes());
            if a.len() == b.len() {
                let mut j = 0;
                while j < a.len() && a[j] == b[j] {
                    j += 1;
                }
                if j == a.len() {
                    return 1 << i;
                }
            }
            i += 1;
        }
        0
    }
    /// The bit of an option the code names, checked when compiling: use it as
    /// `shopt.has(const { Shopts::flag("lastpipe") })` on paths run for every command.
    pub const fn flag(name: &str) -> u64 {
        let bit = Self::bit(name);
        assert!(bit != 0, "no such shopt option");
        bit
    }
    /// Whether the option with bit `bit` (from [`Shopts::bit`]) is on.
    pub const fn has(&self, bit: u64) -> bool {
        self.0 & bit != 0
    }
    pub fn index(name: &str) -> Option<usize> {
        SHOPT_OPTIONS.iter().position(|(n, _)| *n == name)
    }
    pub fn get(&self, name: &str) -> bool {
        Self::index(name).is_some_and(|i| self.0 & (1 << i) != 0)
    }
    pub fn set(&mut self, name: &str, on: bool) -> bool {
        match Self::index(name) {
            Some(i) => {
                if on {
                    self.0 |= 1 << i;
                } else {
                    self.0 &= !(1 << i);
                }
                true
            }
            None => false,
        }
    }
}

/// A background job.
#[derive(Debug)]
pub struct Job {
    pub id: usize,
    pub pid: u32,
    pub command: String,
    /// The command of each process of a background pipeline (empty for a job of one
    /// process, whose command is `command`).
    pub stages: Vec<String>,
    pub handle: Option<std::thread::JoinHandle<i32>>,
    pub status: Option<i32>,
    /// Listed from a parent shell: not waitable here.
    pub foreign: bool,
    /// The signal `kill` ended it with, reported when it is waited for.
    pub killed_by: Option<i32>,
    /// The job's own virtual time (see [`crate::fs::Lane`]).
    pub lane: Option<crate::fs::Lane>,
    /// The job's process's mailbox: whether a signal ended it.
    pub mailbox: Option<Arc<procs::Mailbox>>,
    /// Set by the job's thread as it ends, before its lane stops counting in the order
    /// of sleeps: once a sleep past the job's time has ended, this is set.
    pub ended: Arc<std::sync::OnceLock<i32>>,
    /// The directory the job started in, shown by `jobs` when the shell has left it.
    pub wd: String,
}

impl Job {
    /// A job just started on its own thread, lane and process, not yet numbered.
    pub(crate) fn started(
        pid: u32,
        command: String,
        handle: std::thread::JoinHandle<i32>,
        lane: crate::fs::Lane,
        mailbox: Arc<procs::Mailbox>,
        ended: Arc<std::sync::OnceLock<i32>>,
        wd: String,
    ) -> Job {
        Job {
            id: 0,
            pid,
            command,
            stages: Vec::new(),
            handle: Some(handle),
            status: None,
            foreign: false,
            killed_by: None,
            lane: Some(lane),
            mailbox: Some(mailbox),
            ended,
            wd,
        }
    }

    /// The commands of the job's processes, as `%name` job specs match them.
    pub fn procs(&self) -> Vec<&str> {
        if self.stages.is_empty() {
            vec![self.command.as_str()]
        } else {
            self.stages.iter().map(String::as_str).collect()
        }
    }

    /// Whether the job has ended by the virtual time `now`: its thread is done and its
    /// time is not ahead of `now` (`sleep 10 &` still runs until ten seconds pass).
    pub fn finished_by(&self, now: crate::fs::Timestamp) -> bool {
        self.status.is_some()
            || ((self.ended.get().is_some()
                || self.handle.as_ref().is_some_and(|h| h.is_finished()))
                && self.lane.as_ref().is_none_or(|l| l.now() <= now))
    }

    /// Whether the job had ended before the virtual time `now`. What ends at the very
    /// time the shell looks counts as still running (as a job just started does under
    /// bash, which has not reaped it yet), so the answer does not hang on which thread
    /// the host ran first.
    pub fn ended_before(&self, now: crate::fs::Timestamp) -> bool {
        self.status.is_some()
            || (self.ended.get().is_some() && self.lane.as_ref().is_none_or(|l| l.now() < now))
    }

    /// The signal that ended the job, if one did.
    pub fn end_signal(&self) -> Option<i32> {
        self.killed_by
            .or_else(|| self.mailbox.as_ref().and_then(|m| m.died_of()))
    }

    /// How `jobs` and the job notices describe an ended job: `Done`, `Exit N` (a
    /// POSIX shell's `Done(N)`), or the signal (`Terminated`).
    pub fn end_text(&self, posix: bool) -> String {
        if let Some(d) = self
            .end_signal()
            .and_then(builtins::misc::signal_description)
        {
            return d.into_owned();
        }
        match self.status.or_else(|| self.ended.get().copied()) {
            Some(0) | None => "Done".to_owned(),
            Some(n) if posix => format!("Done({n})"),
            Some(n) => format!("Exit {n}"),
        }
    }
}

/// The coprocess a shell keeps track of (bash's `sh_coproc`): its pid and name, and
/// the descriptors of its pipes that the shell still holds (`None` once closed).
#[derive(Clone, Debug)]
pub struct CoprocSlot {
    pub pid: u32,
    pub name: String,
    pub rfd: Option<i32>,
    pub wfd: Option<i32>,
}

/// Jobs shared by a shell and its forks.
#[derive(Debug, Default)]
pub struct JobTable {
    pub jobs: Vec<Job>,
    /// The current job (`%+`) and the previous one (`%-`), by pid, kept as bash's
    /// set_current_job and reset_current keep them.
    pub current: Option<u32>,
    pub previous: Option<u32>,
}

impl JobTable {
    /// Adds a job started at virtual time `now` under the next free number; it
    /// becomes the current job.
    pub fn add(&mut self, mut job: Job, now: crate::fs::Timestamp) {
        job.id = self.listed().map(|j| j.id).max().unwrap_or(0) + 1;
        let pid = job.pid;
        self.jobs.push(job);
        self.set_current(pid, now);
    }

    /// The jobs still in the table (those `jobs` lists).
    pub fn listed(&self) -> impl Iterator<Item = &Job> {
        self.jobs.iter().filter(|j| j.id > 0)
    }

    fn is_listed(&self, pid: Option<u32>) -> bool {
        pid.is_some_and(|p| self.listed().any(|j| j.pid == p))
    }

    /// The newest job still running at `now` that is older than the job `before`
    /// (any job when `None`).
    fn newest_running(&self, before: Option<u32>, now: crate::fs::Timestamp) -> Option<u32> {
        let end = before
            .and_then(|p| self.jobs.iter().position(|j| j.pid == p))
            .unwrap_or(self.jobs.len());
        self.jobs[..end]
            .iter()
            .rev()
            .find(|j| j.id > 0 && !j.ended_before(now))
            .map(|j| j.pid)
    }

    fn set_current(&mut self, pid: u32, now: crate::fs::Timestamp) {
        if self.current != Some(pid) {
            self.previous = self.current;
            self.current = Some(pid);
        }
        let running = self
            .jobs
            .iter()
            .any(|j| j.pid == pid && !j.ended_before(now));
        let candidate = self.newest_running(running.then_some(pid), now);
        self.previous = candidate.or(self.current);
    }

    /// Takes the job out of the table (its status stays known by pid); a new current
    /// or previous job is chosen if it was one.
    pub fn forget(&mut self, pid: u32, now: crate::fs::Timestamp) {
        if let Some(j) = self.jobs.iter_mut().find(|j| j.pid == pid) {
            j.id = 0;
        }
        if self.current == Some(pid) || self.previous == Some(pid) {
            self.reset_current(now);
        }
    }

    fn reset_current(&mut self, now: crate::fs::Timestamp) {
        if !self.is_listed(self.current) {
            self.current = None;
        }
        if !self.is_listed(self.previous) {
            self.previous = None;
        }
        match self.newest_running(None, now) {
            Some(pid) => self.set_current(pid, now),
            None => {
                self.current = None;
                self.previous = None;
            }
        }
    }

    /// The mark `jobs` shows beside a job: `+` current, `-` previous.
    pub fn mark(&self, pid: u32) -> char {
        if self.current == Some(pid) {
            '+'
        } else if self.previous == Some(pid) {
            '-'
        } else {
            ' '
        }
    }
}

/// Frame information for `FUNCNAME`, `BASH_SOURCE`, `BASH_LINENO` and `caller`.
#[derive(Clone, Debug)]
pub struct CallFrame {
    /// The function's name, or `source` for a sourced file.
    pub func: String,
    /// The file the running code came from (shared with the function's definition:
    /// a call copies no text).
    pub source: Arc<str>,
    pub call_line: u32,
    /// A function call, not a `source`.
    pub function: bool,
    /// The call pushed its arguments on `BASH_ARGV` (extdebug was on), so its return
    /// pops them.
    pub args_pushed: bool,
    /// The `set` options as `local -` found them, put back when the function returns.
    pub saved_opts: Option<SetOpts>,
}

/// `BASH_ARGC` and `BASH_ARGV`, bash's debugger stacks: each call's argument count and
/// its arguments, outermost first (the variables show them innermost first).
#[derive(Clone, Debug, Default)]
pub struct ArgStack {
    pub counts: Vec<usize>,
    pub args: Vec<String>,
    /// bash's `bash_argv_initialized`: the bottom entry, the shell's own positional
    /// parameters, has been pushed (by extdebug or a read outside any function).
    pub started: bool,
}

/// The defined functions by name. Every command looks its name up here first, so the
/// hasher is foldhash rather than SipHash.
pub type FuncTable = imbl::GenericHashMap<
    String,
    Arc<FunctionDef>,
    foldhash::fast::RandomState,
    imbl::shared_ptr::DefaultSharedPtr,
>;

/// How far the exit that `set -e` raised has unwound. bash's parse_and_execute (the
/// reader of `eval`, `.` and trap handler text) catches it and, inside a function,
/// drops every local scope before passing it on; each function the exit then leaves,
/// up to the next such reader, finds its scope gone and says so.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ErrexitUnwind {
    None,
    /// Raised, not yet caught by a reader.
    Raised,
    /// Caught inside a function: each function left reports its lost scope.
    Reporting,
    /// Past the reporting stretch.
    Done,
}

/// Why an assignment failed, and so how it is reported. Assignment functions
/// return this instead of message text, so that no caller has to read a message
/// back to learn what kind of failure it was.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AssignError {
    /// bash's message (`x: readonly variable`), reported under the name of the
    /// builtin that met it.
    Message(String),
    /// The variable (named as written) is readonly: the shell's own error, which
    /// only the declaration builtins (`declare`, `typeset`, `local`) report under
    /// their name.
    Readonly(String),
    /// An indexed array subscript's arithmetic failure: bash reports it as the
    /// subscript's own, without a builtin's name (its `array_expand_index` clears
    /// the command's name), wherever the assignment came from (`declare a[1+]=x`,
    /// `printf -v 'a[1+]'`).
    Subscript(String),
    /// A negative subscript reaching before the first element of indexed array
    /// `name`; `key` is the subscript as it was evaluated.
    BadSubscript { name: String, key: String },
    /// Refused with nothing to print (a nameref that could not take its value).
    Silent,
}

impl std::fmt::Display for AssignError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AssignError::Message(m) | AssignError::Subscript(m) => f.write_str(m),
            AssignError::Readonly(name) => write!(f, "{name}: readonly variable"),
            AssignError::BadSubscript { name, key } => {
                write!(f, "{name}[{key}]: bad array subscript")
            }
            AssignError::Silent => Ok(()),
        }
    }
}

impl std::error::Error for AssignError {}

impl From<String> for AssignError {
    fn from(m: String) -> AssignError {
        AssignError::Message(m)
    }
}

/// The shell: all state of one bash process.
#[derive(Clone)]
pub struct Interp {
    pub vars: Scopes,
    pub funcs: FuncTable,
    pub positional: Arc<Vec<String>>,
    pub arg0: String,
    pub set: SetOpts,
    pub shopt: Shopts,
    pub cwd: String,
    pub status: i32,
    pub pipestatus: Vec<i32>,
    pub fds: FdTable,
    pub fs: SharedFs,
    pub registry: Arc<Registry>,
    pub aliases: Arc<HashMap<String, String>>,
    pub traps: imbl::OrdMap<String, String>,
    pub budget: Arc<Budget>,
    /// The line of the command before the current pipeline: a compound command
    /// whose redirections fail leaves `$LINENO` there.
    pub line_before: u32,
    pub line: u32,
    /// What is added to a parsed command's line to give `$LINENO`: text the shell parses
    /// on its own (`eval`, a trap, a command substitution) numbers its lines from 1, and
    /// bash counts them on from the line of the command that runs it.
    pub line_shift: i64,
    /// The line bash names in a compound command's redirection error: it is not the
    /// command's own, but the line its counter was last set to by what encloses the
    /// command (the end of the complete command read, a function's body, a `for` or
    /// `case` head, a subshell's `)`). 0 when nothing set it.
    pub redir_line: u32,
    pub call_depth: usize,
    pub frames: Vec<CallFrame>,
    /// `BASH_ARGC`/`BASH_ARGV`.
    pub arg_stack: ArgStack,
    pub subshell: u32,
    /// `$$`: the pid of the shell process (a subshell keeps its parent's).
    pub pid: u32,
    /// `$BASHPID`: this process's pid.
    pub bashpid: u32,
    /// The session's processes (shared by every shell over the same filesystem
    /// session, so pids never repeat among running processes and `kill` reaches any).
    pub procs: Arc<procs::ProcTable>,
    /// This process's entry in the table: it leaves it when the last copy drops.
    pub proc: Arc<procs::Process>,
    /// The process group new jobs and utilities join (a `set -m` job leads its own).
    pub pgid: u32,
    /// The session id (`ps`'s SID): the top-level shell's pid.
    pub sid: u32,
    /// Signals ignored when this shell started, which it may not trap (bash manual,
    /// "Signals": "Signals ignored upon entry to the shell cannot be trapped or reset").
    pub entry_ignored: u64,
    /// Signals ignored without a trap to show for it (SIGQUIT in an asynchronous list
    /// without job control).
    pub os_ignored: u64,
    /// The process ends after the command about to run (a job's only command, a
    /// pipeline stage): its redirections need not be undone and a utility it names
    /// runs as the process itself, as bash runs it without another fork.
    pub(crate) exec_last: bool,
    /// The utility the running command names may run as this process (see
    /// `exec_last`).
    pub(crate) no_fork: bool,
    /// A program that takes this process's place (`no_fork`) gets SHLVL one lower in
    /// its environment, as bash lowers it before such an exec: set with `no_fork`.
    pub(crate) lower_on_exec: bool,
    /// The `exec` builtin is running its command: the process is replaced whatever
    /// traps are set.
    pub(crate) exec_builtin: bool,
    /// The list about to run ends this process (see [`exec::EndRule`]).
    pub(crate) list_ends: Option<exec::EndRule>,
    /// A substitution's process: a function its last command calls ends it too.
    pub(crate) functions_end: bool,
    /// This process is a pipeline stage: the program its last command runs takes its
    /// place without lowering SHLVL (the stage's own fork was the program's).
    pub(crate) stage_process: bool,
    /// Inside `( )` (or something forked from it): `exec` leaves SHLVL alone there.
    pub(crate) paren_subshell: bool,
    /// The `( )` that ends this `( )`'s body runs in its place (see `EndRule::subshells`).
    pub(crate) paren_in_place: bool,
    /// This process is a background pipeline, the job its stages belong to.
    pub(crate) pipeline_job: bool,
    /// `exec` replaced this process with a program: it ends without its EXIT trap and
    /// without saving history.
    pub(crate) replaced: bool,
    /// The process is ending with a status a `( ! cmd )` body does not invert: the
    /// `exit` builtin's, or an integer assignment's arithmetic error's (bash's jumps
    /// that execute_in_subshell leaves alone).
    pub(crate) status_final: bool,
    /// The and-or list (by address) whose `!` a `( ! pipeline )` subshell drops: bash
    /// runs that pipeline as written without `!` and inverts the subshell's status
    /// instead ([`Interp::invert_paren_status`]).
    pub(crate) uninvert: usize,
    /// Whether the redirections being applied are a program's or a subshell's (run in
    /// its own process), or those of a command its process ends with: bash keeps no
    /// copies of the descriptors they replace to put back.
    pub(crate) redirecting_utility: bool,
    /// The process the running simple command started died of a signal: its pid
    /// and the signal, for bash's report once the command is done.
    pub(crate) fg_death: Option<(u32, i32)>,
    /// `$?` when a signal killed this shell: what its EXIT trap sees.
    pub(crate) status_at_death: std::cell::Cell<Option<i32>>,
    /// The DEBUG trap already ran for the next simple command: the shell ran it
    /// before it forked this pipeline stage (bash runs it once, in the parent).
    pub(crate) stage_debugged: bool,
    /// Where the exit that `set -e` raised has got to (see `errexit_caught`).
    pub(crate) errexit_unwind: ErrexitUnwind,
    /// Whether functions report their lost scopes here: not in a forked `( )`,
    /// pipeline stage or job, which ends before its functions unwind; a command
    /// substitution reads its text as `eval` does, so it reports.
    pub(crate) reports_lost_scopes: bool,
    /// The running command waited for a process it started (a utility, a subshell):
    /// bash then reports the jobs that have ended ([`Interp::notify_jobs`]).
    pub(crate) reaped: bool,
    pub last_bg: Option<u32>,
    /// The coprocess this shell keeps track of. Like bash (built without multiple
    /// coprocesses) it knows one: a newer one takes the place of the last, which is
    /// forgotten, its variables left as they are. Once the one it knows has ended, the
    /// shell unsets `NAME` and `NAME_PID` and closes its descriptors, as bash does
    /// when it reaps the process.
    pub coproc: Option<CoprocSlot>,
    pub jobs: Arc<std::sync::Mutex<JobTable>>,
    pub dir_stack: Vec<String>,
    pub umask: u32,
    /// The generators behind `$RANDOM` and `$SRANDOM`.
    pub rng: specials::Rng,
    pub loop_depth: u32,
    /// The status a loop left by `break` ends with: that of the `break` (or `continue`)
    /// that left it, 1 when its count was out of range.
    pub break_status: i32,
    /// Nesting of contexts where `set -e` does not apply (conditions, `&&` lists, `!`).
    pub no_errexit: u32,
    /// Pipelines under `!` being run (which spare a POSIX special builtin's error
    /// even when `set -e` is off).
    pub negating: u32,
    /// The last command was a compound (`{ }`, `if`, loops, `case`) whose status came
    /// from its body: bash checks `set -e` and the ERR trap on the inner commands, not
    /// again on the compound itself.
    pub compound_status: bool,
    /// The remembered command locations (`hash`).
    pub hash: imbl::OrdMap<String, Hashed>,
    /// The builtins `enable -n` turned off: the name then finds a function or a
    /// program, as if the builtin did not exist.
    pub disabled_builtins: imbl::OrdSet<String>,
    /// `$_`: the last argument of the previous command.
    pub last_arg: String,
    /// The path of the program being executed, which bash puts in its environment
    /// as `_` (a new shell starts with it as `$_`).
    pub exec_path: Option<String>,
    /// Whether this shell is a subshell (pipeline stage, `( )`, `$( )`).
    pub in_subshell: bool,
    /// Whether this subshell is a simple command forked as a pipeline stage or an
    /// asynchronous command of a shell that is not itself a subshell: a fatal
    /// expansion error leaves it with the status that shell would leave with.
    pub forked_simple: bool,
    /// An integer variable's value failed to evaluate ([`Interp::eval_int_value`]).
    pub(crate) int_assign_failed: bool,
    /// Name used in error messages (`bash`).
    pub shell_name: String,
    /// Traps whose handlers are running (innermost last).
    pub running_traps: Vec<String>,
    /// The traps whose handlers were running when one of them ended the shell
    /// (`exit`, `set -e`): bash runs the EXIT trap from inside them, so they stay
    /// running (not fired again) while it runs.
    pub(crate) exited_in_traps: Option<Vec<String>>,
    /// While a trap handler other than DEBUG runs: `$?` as it began, the status a
    /// `return` without a number gives there (or in a function the handler calls).
    pub(crate) trap_status: Option<i32>,
    /// `$BASH_COMMAND`: the command running, or the last one run outside a trap.
    pub bash_command: String,
    /// Whether `$BASH_COMMAND` is kept up to date: only once some text the shell read
    /// mentions it, so a script that never reads it prints no command.
    pub track_command: bool,
    /// Options that were given on the command line (`-c` string mode, etc.).
    pub command_string_mode: bool,
    /// Whether the shell reads its commands from standard input (`bash -s`, or no
    /// script named): `s` in `$-`.
    pub reads_stdin: bool,
    /// The next text run prints each command's lines on stderr as it reads them
    /// (bash's `echo_input_at_read`, which `fc` turns on for the commands it runs).
    pub echo_read: bool,
    /// Restricted mode (`set -r`, `bash -r`): no `cd`, no command names or `.` files
    /// with a slash, no output redirections, no `exec` of a program (see
    /// `builtins::restricted`). It cannot be turned off.
    pub restricted: bool,
    /// Whether the shopt options POSIX mode implies were last set for it on.
    pub posix_shopts: bool,
    /// What the first `shopt -s`/`-u restricted_shell` found the mode to be: bash
    /// keeps the option at that value from then on, whatever is asked.
    pub restricted_shopt_latch: Option<bool>,
    /// The prompt's `\#`: 1 plus the top-level commands read from a script or
    /// terminal so far (bash's `current_command_number`).
    pub command_number: u64,
    pub in_function_source: String,
    /// The script being read when running from a file (for `$0` and messages).
    pub script_name: Option<String>,
    /// Seconds since the epoch when the shell started (for `SECONDS`).
    pub start_time: i64,
    pub seconds_offset: i64,
    /// Whether `exit` was requested in a non-interactive way by `return` at top level.
    pub sourcing: u32,
    /// The `set` builtin replaced the positional parameters outside any function
    /// since the innermost `source FILE ARGS` began (bash's `ARGS_SETBLTIN`): that
    /// source then keeps them instead of restoring its caller's.
    pub(crate) dollar_vars_set: bool,
    pub errexit_checked: bool,
    /// Status of the last command substitution (for assignment-only commands).
    pub last_subst_status: Option<i32>,
    /// Descriptors process substitutions opened, newest last: a command closes those
    /// its redirections opened when it ends (`seq 3 > >(tac)` lets `tac` finish).
    pub procsub_fds: Vec<i32>,
    /// Descriptors the running commands' redirections touched, outermost first (see
    /// `restore_redirected`).
    pub(crate) redirected: Vec<(i32, redirect::Undo)>,
    /// ASTs of `declare name=(...)`-style arguments of the running command.
    /// Set while dispatching a command whose temporary bindings a function call
    /// takes into its frame.
    pub(crate) adopt_bindings: bool,
    pub decl_assigns: Vec<(crate::syntax::Assign, Option<String>)>,
    /// Functions marked with `export -f` (inherited by child shells).
    pub exported_funcs: imbl::OrdSet<String>,
    /// Functions with the trace attribute (`declare -ft`): they inherit the DEBUG and
    /// RETURN traps as all functions do under `set -T`.
    pub traced_funcs: imbl::OrdSet<String>,
    /// Functions made readonly (`readonly -f`, `declare -fr`): they can be neither
    /// redefined nor unset.
    pub readonly_funcs: imbl::OrdSet<String>,
    /// The parent's traps, which `trap -p` in a subshell still lists.
    pub parent_traps: imbl::OrdMap<String, String>,
    /// Nesting of command substitutions.
    pub cmdsub_depth: u32,
    /// bash's `indirection_level`: how many texts the shell is running on its own
    /// behalf (`eval`, `source`, trap actions, command and process substitutions)
    /// are open; `set -x` repeats PS4's first character once more for each.
    pub xtrace_level: u32,
    /// Where `set -x` writes: the descriptor `BASH_XTRACEFD` names, or stderr.
    pub(crate) xtrace_fd: Option<i32>,
    /// `ulimit` values: resource letter -> (soft, hard); `None` is unlimited.
    pub ulimits: std::collections::BTreeMap<char, (Option<u64>, Option<u64>)>,
    /// `exec -a NAME`: the `$0` of the next child shell.
    pub argv0_override: Option<String>,
    /// An interactive shell (`bash -i`): prompts, PROMPT_COMMAND, errors never exit.
    pub interactive: bool,
    /// A builtin is running under `command`, which keeps POSIX mode's fatal errors of
    /// special builtins (`. missing`) from exiting the shell.
    pub under_command: bool,
    /// The last command run was `eval`, `source` or `.` itself (no builtin or program
    /// has run since inside its text): in POSIX mode a syntax error in that text then
    /// exits a non-interactive shell, as bash's check of the running builtin does.
    pub text_builtin_last: bool,
    /// This shell stands for a process a utility execs (`env`, `xargs`, `find -exec`):
    /// with PATH unset its program is found as execvp finds it, in `/bin:/usr/bin`.
    pub execvp_path: bool,
    /// Completion specifications stored by `complete`.
    pub completions: builtins::complete::CompTable,
    /// The history list (`history`, `fc`) and `bind -x` bindings.
    pub history: builtins::history::History,
    /// Words an embedder appends to the first simple command the run executes
    /// (`RunOptions::args`), shared by every fork so only one command takes them.
    pub extra_args: Option<Arc<std::sync::Mutex<Option<Vec<String>>>>>,
}

/// What a run of a script produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExecOutput {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub exit_code: i32,
    /// The shell's scalar variables when the run ended, when the run asked for them
    /// (`RunOptions::capture_env`).
    pub env: Option<std::collections::BTreeMap<String, String>>,
    /// Why the run ended early, if something stopped it.
    pub stopped: Option<Stopped>,
}

/// What ended a run before its script did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stopped {
    /// A limit was hit: the `Limits` field it names (`max_commands`, ...) and the
    /// message the shell printed.
    Limit {
        limit: &'static str,
        message: String,
    },
    /// The run was cancelled (a cancellation token, a dropped future, a kill).
    Cancelled,
    /// shellbox itself failed (a bug): the run was abandoned with this message.
    Internal(String),
}

impl Interp {
    /// A fresh shell over `fs` with the default variables, the first process of a new
    /// session.
    pub fn new(fs: SharedFs, registry: Arc<Registry>, budget: Arc<Budget>) -> Interp {
        Interp::in_session(fs, registry, budget, procs::ProcTable::new())
    }

    /// A fresh shell over `fs` with the default variables, a new process among
    /// `procs` (a top-level shell: its own process group and session, its parent
    /// outside the sandbox).
    pub fn in_session(
        fs: SharedFs,
        registry: Arc<Registry>,
        budget: Arc<Budget>,
        procs: Arc<procs::ProcTable>,
    ) -> Interp {
        let start = fs.lock().clock().now().secs;
        let proc = procs::top_level_shell(&procs, start, "bash");
        Interp::as_process(fs, registry, budget, proc)
    }

    /// A fresh shell over `fs` with the default variables, running as `proc` (a
    /// top-level process of its table, made by [`procs::top_level_shell`]).
    pub fn as_process(
        fs: SharedFs,
        registry: Arc<Registry>,
        budget: Arc<Budget>,
        proc: procs::Process,
    ) -> Interp {
        let start = fs.lock().clock().now().secs;
        let procs = proc.table().clone();
        let proc = Arc::new(proc);
        let pid = proc.pid();
        let mut sh = Interp {
            vars: Scopes::new(),
            funcs: FuncTable::default(),
            positional: Arc::new(Vec::new()),
            arg0: "bash".to_owned(),
            set: SetOpts {
                braceexpand: true,
                hashall: true,
                interactive_comments: true,
                ..SetOpts::default()
            },
            shopt: Shopts::default(),
            cwd: "/workspace".to_owned(),
            status: 0,
            pipestatus: vec![0],
            fds: FdTable::default(),
            fs,
            registry,
            aliases: Arc::new(HashMap::new()),
            traps: imbl::OrdMap::new(),
            budget,
            line: 0,
            line_before: 0,
            line_shift: 0,
            redir_line: 0,
            call_depth: 0,
            frames: Vec::new(),
            subshell: 0,
            pid,
            bashpid: pid,
            procs,
            proc,
            pgid: pid,
            sid: pid,
            entry_ignored: 0,
            os_ignored: 0,
            exec_last: false,
            no_fork: false,
            lower_on_exec: false,
            exec_builtin: false,
            list_ends: None,
            functions_end: false,
            stage_process: false,
            paren_subshell: false,
            paren_in_place: false,
            pipeline_job: false,
            replaced: false,
            status_final: false,
            uninvert: 0,
            redirecting_utility: false,
            fg_death: None,
            status_at_death: std::cell::Cell::new(None),
            stage_debugged: false,
            errexit_unwind: ErrexitUnwind::None,
            reports_lost_scopes: true,
            reaped: false,
            last_bg: None,
            coproc: None,
            jobs: Arc::new(std::sync::Mutex::new(JobTable::default())),
            dir_stack: Vec::new(),
            umask: 0o022,
            rng: specials::Rng::default(),
            loop_depth: 0,
            break_status: 0,
            no_errexit: 0,
            negating: 0,
            compound_status: false,
            hash: imbl::OrdMap::new(),
            disabled_builtins: imbl::OrdSet::new(),
            // bash starts with `$_` holding the name it was invoked by.
            last_arg: "bash".to_owned(),
            exec_path: None,
            in_subshell: false,
            forked_simple: false,
            int_assign_failed: false,
            shell_name: "bash".to_owned(),
            running_traps: Vec::new(),
            exited_in_traps: None,
            trap_status: None,
            bash_command: String::new(),
            track_command: false,
            command_string_mode: true,
            reads_stdin: false,
            echo_read: false,
            restricted: false,
            posix_shopts: false,
            restricted_shopt_latch: None,
            command_number: 1,
            arg_stack: ArgStack::default(),
            in_function_source: String::new(),
            script_name: None,
            start_time: start,
            seconds_offset: 0,
            sourcing: 0,
            dollar_vars_set: false,
            errexit_checked: false,
            last_subst_status: None,
            procsub_fds: Vec::new(),
            redirected: Vec::new(),
            adopt_bindings: false,
            decl_assigns: Vec::new(),
            exported_funcs: imbl::OrdSet::new(),
            traced_funcs: imbl::OrdSet::new(),
            readonly_funcs: imbl::OrdSet::new(),
            parent_traps: imbl::OrdMap::new(),
            cmdsub_depth: 0,
            xtrace_level: 0,
            xtrace_fd: None,
            ulimits: std::collections::BTreeMap::new(),
            argv0_override: None,
            interactive: false,
            under_command: false,
            text_builtin_last: false,
            execvp_path: false,
            completions: Default::default(),
            history: Default::default(),
            extra_args: None,
        };
        sh.vars = Self::default_vars(&mut sh);
        sh
    }

    /// The variables a new shell starts with. They depend only on the defaults set in
    /// [`Interp::new`], so they are made once per process and shared after (a clone of
    /// the tables is O(1)): making them was most of the cost of a fresh `Shell`.
    fn default_vars(fresh: &mut Interp) -> Scopes {
        static DEFAULT_VARS: std::sync::OnceLock<Scopes> = std::sync::OnceLock::new();
        DEFAULT_VARS
            .get_or_init(|| {
                fresh.init_vars();
                fresh.vars.clone()
            })
            .clone()
    }

    fn init_vars(&mut self) {
        let defaults: [(&str, &str); 12] = [
            ("HOME", "/home/user"),
            ("PATH", "/usr/local/bin:/usr/bin:/bin"),
            ("IFS", " \t\n"),
            ("PS4", "+ "),
            ("OPTIND", "1"),
            ("HOSTNAME", "shellbox"),
            ("HOSTTYPE", "x86_64"),
            ("OSTYPE", "linux-gnu"),
            ("MACHTYPE", "x86_64-pc-linux-gnu"),
            ("BASH", "/bin/bash"),
            ("BASH_VERSION", "5.2.15(1)-release"),
            ("SHELLOPTS", ""),
        ];
        for (k, v) in defaults {
            self.vars.entry(k, false).value = Some(Value::Str(v.to_owned()));
        }
        self.vars
            .entry("OPTIND", false)
            .attrs
            .set(Attrs::INTEGER, true);
        for (k, v) in [
            ("SHLVL", "1"),
            ("PWD", "/workspace"),
            ("USER", "user"),
            ("LOGNAME", "user"),
            ("SHELL", "/bin/bash"),
            ("TERM", "dumb"),
            ("LANG", "C.UTF-8"),
        ] {
            let var = self.vars.entry(k, false);
            var.value = Some(Value::Str(v.to_owned()));
            var.attrs.set(Attrs::EXPORT, true);
        }
        for k in ["HOME", "PATH"] {
            self.vars.entry(k, false).attrs.set(Attrs::EXPORT, true);
        }
        // bash starts with OLDPWD exported but unset, so the first `cd` exports it.
        self.vars
            .entry("OLDPWD", false)
            .attrs
            .set(Attrs::EXPORT, true);
        for (k, v) in [("UID", "1000"), ("EUID", "1000"), ("PPID", "4241")] {
            let var = self.vars.entry(k, false);
            var.value = Some(Value::Str(v.to_owned()));
            var.attrs.set(Attrs::READONLY, true);
        }
        let mut info = imbl::OrdMap::new();
        for (i, v) in ["5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"]
            .iter()
            .enumerate()
        {
            info.insert(i as i64, (*v).to_owned());
        }
        let var = self.vars.entry("BASH_VERSINFO", false);
        var.value = Some(Value::Indexed(info));
        var.attrs.set(Attrs::READONLY, true);
        self.init_special_vars();
        self.update_shellopts();
    }

    /// Re-creates default variables in a new process's shell, keeping exported values.
    pub fn init_vars_keep(&mut self) {
        let env = self.vars.clone();
        self.init_vars();
        for (k, v) in env.all() {
            *self.vars.entry(&k, false) = v;
        }
    }

    /// Refreshes `SHELLOPTS` and `BASHOPTS` after a `set -o` or `shopt` change.
    pub fn update_shellopts(&mut self) {
        // An interactive shell ignores `set -n`.
        if self.interactive {
            self.set.noexec = false;
        }
        // Entering POSIX mode turns on the shopt options it implies; leaving it turns
        // off two of them again (inherit_errexit stays), as bash does.
        if self.set.posix != self.posix_shopts {
            self.posix_shopts = self.set.posix;
            let on = self.set.posix;
            self.shopt.set("expand_aliases", on || self.interactive);
            self.shopt.set("shift_verbose", on);
            if on {
                self.shopt.set("inherit_errexit", true);
            }
            // bash's `set_posix_mode` says so in POSIXLY_CORRECT (`y`, not exported),
            // and takes the variable away again on leaving.
            if on {
                let _ = self.assign_scalar("POSIXLY_CORRECT", "y".to_owned(), false);
            } else {
                let _ = self.vars.unset("POSIXLY_CORRECT");
            }
        }
        if self.history.turned_on(self.set.history) {
            builtins::history::history_enabled(self);
        }
        let on: Vec<&str> = SET_OPTIONS
            .iter()
            .filter(|(n, _)| self.set.get(n) == Some(true))
            .map(|(n, _)| *n)
            .collect();
        let v = self.vars.entry("SHELLOPTS", false);
        v.value = Some(Value::Str(on.join(":")));
        v.attrs.set(Attrs::READONLY, true);
        let mut on: Vec<&str> = SHOPT_OPTIONS
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| self.shopt.get(n))
            .collect();
        on.sort_unstable();
        let v = self.vars.entry("BASHOPTS", false);
        v.value = Some(Value::Str(on.join(":")));
        v.attrs.set(Attrs::READONLY, true);
    }

    /// Whether `bytes` more fit the run's memory budget beside what the shell holds:
    /// its variables' values, the filesystem's file contents and the bytes waiting in
    /// its pipes. Walks the
    /// variables, so callers ask only for large values.
    pub fn check_memory(&self, bytes: u64) -> Result<(), String> {
        let files = self.fs.lock().usage().0;
        let held = self
            .vars
            .held_bytes()
            .saturating_add(files)
            .saturating_add(self.budget.held_in_pipes());
        self.budget.check_memory(held, bytes)
    }

    /// Notes `bytes` just assigned to a variable and, once enough have been since the
    /// last walk, walks what the shell holds against the memory budget (ending the run
    /// past it). So a million small elements count as much as one large value.
    pub(crate) fn note_growth(&self, bytes: usize) -> Result<(), String> {
        if !self.budget.grew(bytes as u64) {
            return Ok(());
        }
        let files = self.fs.lock().usage().0;
        let held = self
            .vars
            .held_bytes()
            .saturating_add(files)
            .saturating_add(self.budget.held_in_pipes());
        self.budget.walked(held);
        self.budget
            .check_memory(held, 0)
            .inspect_err(|m| self.budget.trip(m))
    }

    /// Parse options reflecting the current shopt state and aliases.
    pub fn parse_options(&self) -> ParseOptions {
        // bash reads a whole line (or compound command) before running any of it, so a
        // `shopt -s extglob` takes effect from the next line on.
        let extglob = self
            .shopt
            .has(const { crate::interp::Shopts::flag("extglob") });
        ParseOptions {
            extglob,
            aliases: if self
                .shopt
                .has(const { crate::interp::Shopts::flag("expand_aliases") })
                && !self.aliases.is_empty()
            {
                Some(self.aliases.clone())
            } else {
                None
            },
            max_depth: self.budget.limits.max_parse_depth,
            extglob_shopt: extglob,
        }
    }

    /// Writes to a descriptor; errors are reported by the caller.
    pub fn write_fd(&self, fd: i32, data: &[u8]) -> std::io::Result<()> {
        match self.fds.get(fd) {
            Some(f) => f.write_all(&self.fs, data, &self.budget.cancel),
            None => Err(std::io::Error::from_raw_os_error(9)),
        }
    }

    /// Writes a diagnostic to stderr (fd 2), ignoring failures.
    pub fn errln(&self, msg: &str) {
        let mut b = crate::text::encode(msg);
        b.push(b'\n');
        let _ = self.write_fd(2, &b);
    }

    /// The `bash: line N: ` prefix of runtime errors.
    pub fn err_prefix(&self) -> String {
        format!("{}: line {}: ", self.error_source_name(), self.line)
    }

    /// The name bash puts before runtime errors: the file the running code came from
    /// (`BASH_SOURCE[0]`: a sourced file, or `environment` for functions defined under
    /// `bash -c`), else `$0`.
    pub fn error_source_name(&self) -> String {
        match (self.frames.last(), &self.script_name) {
            (Some(f), _) => f.source.to_string(),
            (None, Some(name)) => name.clone(),
            (None, None) => self.arg0.clone(),
        }
    }

    /// Whether the character set is single-byte, as `LC_ALL=C` makes it: the first
    /// of `LC_ALL`, `LC_CTYPE` and `LANG` that names a locale this system has decides
    /// (bash calls setlocale as each is assigned, exported or not); with none, the C
    /// locale.
    pub fn byte_locale(&self) -> bool {
        // Asked by every expansion; the variables rarely change.
        self.vars.locale_cache(|vars| {
            ["LC_ALL", "LC_CTYPE", "LANG"]
                .into_iter()
                .filter_map(|n| vars.get_raw(n).and_then(|v| v.as_scalar()))
                .filter(|v| !v.is_empty())
                .find_map(|v| locale_charset(&v))
                .is_none_or(|utf8| !utf8)
        })
    }

    /// bash's warning when a locale variable names a locale the system lacks:
    /// `LC_ALL`, or another `LC_` category while `LC_ALL` is unset or empty (then
    /// setlocale is called for it). `LANG` fails silently.
    pub(crate) fn check_locale_var(&self, name: &str, value: &str) {
        let applies = match name {
            "LC_ALL" => true,
            "LC_CTYPE" | "LC_COLLATE" | "LC_MESSAGES" | "LC_NUMERIC" | "LC_TIME" => self
                .vars
                .get_raw("LC_ALL")
                .and_then(|v| v.as_scalar())
                .is_none_or(|v| v.is_empty()),
            _ => false,
        };
        if !applies || value.is_empty() || locale_charset(value).is_some() {
            return;
        }
        self.error(&format!(
            "warning: setlocale: {name}: cannot change locale ({value}): No such file or directory"
        ));
    }

    /// Whether a function is executing (sourced files alone do not count).
    pub fn in_function(&self) -> bool {
        self.frames.iter().any(|f| f.function)
    }

    /// Prints a runtime error with bash's prefix.
    pub fn error(&self, msg: &str) {
        self.errln(&format!("{}{}", self.err_prefix(), msg));
    }

    /// Runs a whole script the way `bash -c` does: one complete command at a time.
    /// Returns the exit status (EXIT trap included).
    pub fn run_script(&mut self, src: &str) -> i32 {
        // A shell started by the host runs on a lane of its own, so that the order of
        // sleeps counts it in (see `crate::fs::Lane`); the clock catches up after.
        let clock = self.fs.lock().clock().clone();
        let lane = (!clock.on_lane()).then(|| clock.fork_lane());
        let on = lane.as_ref().map(crate::fs::Lane::enter);
        if on.is_some() {
            self.proc.mailbox().run_here();
        }
        // The run's last command may have become this process (see `exec::EndRule`);
        // the session's shell is itself again for the next run.
        let command = self.proc.info().map(|i| (i.comm, i.args));
        let status = self.run_script_here(src);
        if let Some((comm, args)) = command {
            self.proc.set_command(&comm, &args);
        }
        drop(on);
        if let Some(lane) = &lane {
            clock.catch_up(lane);
        }
        status
    }

    fn run_script_here(&mut self, src: &str) -> i32 {
        // A limit refusal left over from earlier work on this thread is not this run's.
        let _ = crate::fs::take_limit_hit();
        self.replaced = false;
        if self.command_string_mode {
            self.vars.entry("BASH_EXECUTION_STRING", false).value =
                Some(Value::Str(src.to_owned()));
        }
        let mut reported = false;
        let status = match self.run_source(src, None) {
            Ok(s) => s,
            Err(Flow::Exit(s)) => s,
            Err(Flow::Fatal(m)) => {
                self.budget.trip(&m);
                self.errln(&format!("{}: {}", self.shell_name, m));
                reported = true;
                126
            }
            Err(_) => self.status,
        };
        self.status = status;
        let Some(msg) = self.budget.tripped() else {
            let status = self.run_exit_trap();
            if !std::mem::take(&mut self.replaced) {
                builtins::history::save_at_exit(self);
            }
            return self.report_trip(status);
        };
        // A limit is final: the EXIT trap still runs (to clean up), on a small budget
        // of its own so that it cannot restart the runaway, and whatever it does the
        // run ends with 126 and the limit's message.
        let grace = Budget::new(
            self.budget.limits.after_limit(),
            Arc::new(std::sync::atomic::AtomicBool::new(false)),
        );
        let run_budget = std::mem::replace(&mut self.budget, grace);
        self.status = 126;
        let _ = self.run_exit_trap();
        self.budget = run_budget;
        if !reported && status != 126 {
            self.errln(&format!("{}: {}", self.shell_name, msg));
        }
        self.status = 126;
        126
    }

    /// The status a run ends with: 126, with the message, when a limit was hit where
    /// no one reported it (an assignment, a background job); else `status`.
    fn report_trip(&mut self, status: i32) -> i32 {
        match self.budget.tripped() {
            Some(m) if status != 126 => {
                self.errln(&format!("{}: {}", self.shell_name, m));
                self.status = 126;
                126
            }
            _ => status,
        }
    }

    /// Runs the EXIT trap (once) and returns the final status. A shell that a signal
    /// killed runs it too (not for SIGKILL), and ends with 128 + the signal whatever
    /// the trap does; one that `exec` replaced with a program does not.
    pub fn run_exit_trap(&mut self) -> i32 {
        let died_of = self.proc.mailbox().died_of();
        if died_of == Some(procs::SIGKILL) || self.replaced {
            self.traps.remove("EXIT");
        }
        self.errexit_unwind = ErrexitUnwind::None;
        let outer = self.exited_in_traps.take();
        if let Some(action) = self.traps.get("EXIT").cloned() {
            self.traps.remove("EXIT");
            // A signal ends the shell between commands: the trap sees the status of
            // the last one that finished, not the 128 + signal the shell ends with.
            if died_of.is_some()
                && let Some(s) = self.status_at_death.get()
            {
                self.status = s;
            }
            let saved = self.status;
            // bash counts the EXIT trap's lines from 1, wherever the shell exits.
            self.line = 1;
            let mark = self.running_traps.len();
            self.running_traps.extend(outer.unwrap_or_default());
            self.running_traps.push("EXIT".to_owned());
            self.xtrace_level += 1;
            let saved_status = self.trap_status.replace(saved);
            let r = self.run_source(&action, Some("exit trap"));
            self.trap_status = saved_status;
            self.xtrace_level -= 1;
            self.running_traps.truncate(mark);
            match r {
                Err(Flow::Exit(s)) => {
                    self.status = s;
                }
                Err(Flow::Fatal(m)) => {
                    self.errln(&format!("{}: {}", self.shell_name, m));
                    return 126;
                }
                _ => self.status = saved,
            }
        }
        if let Some(sig) = died_of.or_else(|| self.proc.mailbox().died_of()) {
            self.status = 128 + sig;
        }
        self.status
    }

    /// Waits until every job this run started has ended, jobs of jobs included (a
    /// shell does not wait for its jobs when it exits; what reads its output to the
    /// end, the CLI or a run's caller, does). Their time does not move this thread's.
    pub fn wait_for_orphans(&self) {
        let _waiting = crate::fs::blocked();
        let mut pause = std::time::Duration::from_micros(50);
        while self
            .budget
            .threads
            .load(std::sync::atomic::Ordering::SeqCst)
            > 0
        {
            self.procs.wait_change(pause);
            pause = (pause * 2).min(std::time::Duration::from_millis(10));
        }
    }

    /// Waits for the jobs the run left running ([`Interp::wait_for_orphans`]) and
    /// returns the run's status: `status`, or 126 with the message when one of them
    /// hit a limit.
    pub fn finish_run(&mut self, status: i32) -> i32 {
        self.wait_for_orphans();
        self.report_trip(status)
    }

    /// Parses and runs `src` command by command. Text the shell runs on its own behalf
    /// (`eval`, traps) is `nested`, named by its label in syntax errors
    /// (`bash: eval: line 1: ...`) instead of the `-c:` marker.
    pub fn run_source(&mut self, src: &str, nested: Option<&str>) -> R {
        // Nested text counts on from the line running it; a file from its own line 1.
        let shift = match nested {
            Some(_) => i64::from(self.line) - 1,
            None => 0,
        };
        let saved = std::mem::replace(&mut self.line_shift, shift);
        let saved_redir = self.redir_line;
        let r = self.run_source_text(src, nested);
        self.line_shift = saved;
        self.redir_line = saved_redir;
        r
    }

    fn run_source_text(&mut self, src: &str, nested: Option<&str>) -> R {
        let label = nested;
        let nested = label.is_some();
        if src.len() > self.budget.limits.max_source_bytes {
            return Err(Flow::Fatal(format!(
                "source size limit exceeded ({} bytes)",
                self.budget.limits.max_source_bytes
            )));
        }
        if !self.track_command && src.contains("BASH_COMMAND") {
            self.track_command = true;
        }
        let echo_read = std::mem::take(&mut self.echo_read);
        let mut parser = Parser::new(src, self.parse_options());
        parser.end_with_newline();
        let base_line = if nested {
            self.line.saturating_sub(1)
        } else {
            0
        };
        let mut status = self.status;
        let prompting = self.interactive && !nested && !self.command_string_mode;
        // Where the lines that history expansion has seen end.
        let mut hist_done = 0;
        loop {
            if prompting {
                self.prompt_cycle();
            }
            parser.set_options(self.parse_options());
            let start = parser.pos();
            let start_line = parser.line();
            // bash expands history on each line as it reads it: the command's first
            // line now, the lines it goes on to as the parse reaches them.
            let expanding =
                !nested && self.sourcing == 0 && self.set.history && self.set.histexpand;
            hist_done = hist_done.max(start);
            if expanding && hist_done == start {
                self.hist_expand_lines(&mut parser, start, start_line, &mut hist_done, start + 1);
            }
            let mut parsed = parser.next_command();
            while expanding && parser.pos() > hist_done && hist_done < parser.text_len() {
                let upto = parser.pos();
                parser.resume_at(start, start_line);
                let _ = parser.take_warnings();
                self.hist_expand_lines(&mut parser, start, start_line, &mut hist_done, upto);
                parsed = parser.next_command();
            }
            // Bash warns as it parses, so before the command runs (or fails to parse).
            for w in parser.take_warnings() {
                let line = w.line + base_line;
                let name = self.error_source_name();
                self.errln(&format!("{name}: line {line}: {}", w.message(base_line)));
            }
            let cmd = match parsed {
                Ok(Some(c)) => c,
                Ok(None) => {
                    if prompting {
                        self.errln("exit");
                    }
                    break;
                }
                Err(e) if e.kind == ParseErrorKind::TooDeep => {
                    let m = format!(
                        "parser nesting limit exceeded ({})",
                        self.budget.limits.max_parse_depth
                    );
                    self.budget.trip(&m);
                    return Err(Flow::Fatal(m));
                }
                Err(e) => {
                    // bash's reader has added the lines it read to the history before
                    // the parser fails on them.
                    if self.set.history && !nested && self.sourcing == 0 {
                        let last = parser.pos().max(start + 1) - 1;
                        let (_, end) = parser.line_from(last);
                        let text = parser.text_between(start, end);
                        self.history_add_line(text.trim_start_matches('\n'));
                    }
                    // bash reads a newline past the end of the text when it has none,
                    // so the end is a line further on.
                    let eof_line = || {
                        let lines = src.bytes().filter(|&b| b == b'\n').count() as u32;
                        let extra = u32::from(!src.ends_with('\n'));
                        base_line + 1 + lines + extra
                    };
                    let mut line = e.line + base_line;
                    if matches!(
                        e.kind,
                        ParseErrorKind::UnexpectedEof | ParseErrorKind::EofInSubstitution
                    ) {
                        line = eof_line();
                    }
                    let name = self.error_source_name();
                    let c_marker =
                        self.frames.is_empty() && self.script_name.is_none() && !self.reads_stdin;
                    let prefix_at = |line: u32| match label {
                        Some(label) => format!("{name}: {label}: line {line}: "),
                        None if c_marker => format!("{name}: -c: line {line}: "),
                        None => format!("{name}: line {line}: "),
                    };
                    let prefix = prefix_at(line);
                    // Under `set -e` bash's parser exits with status 2 as soon as it
                    // reports an error (error.c, parser_error), so only the first line
                    // of the report appears; an error it reports silently goes on below.
                    if self.set.errexit && self.no_errexit == 0 && !self.interactive {
                        let first = match &e.kind {
                            ParseErrorKind::Cond { messages, .. } => messages
                                .first()
                                .map(|(l, m)| format!("{}{m}", prefix_at(l + base_line))),
                            _ => Some(format!("{prefix}{e}")),
                        };
                        if let Some(first) = first {
                            self.errln(&first);
                            self.status = 2;
                            return Err(Flow::Exit(2));
                        }
                    }
                    if let ParseErrorKind::Cond { messages, eof } = &e.kind {
                        for (l, m) in messages {
                            self.errln(&format!("{}{m}", prefix_at(l + base_line)));
                        }
                        if !(e.in_substitution || nested || self.sourcing > 0 || self.interactive) {
                            // bash stops reading, as at the end of the input, with the
                            // status of the last command (2 for a clean end of file).
                            if *eof && self.status == 0 {
                                self.status = 2;
                            }
                            return Ok(self.status);
                        }
                    } else {
                        self.errln(&format!("{prefix}{e}"));
                        // Text ending inside a quote is the lexer's error, not the
                        // grammar's: bash ends as at the end of the input, with the
                        // last command's status (2 when that was 0).
                        if matches!(e.kind, ParseErrorKind::Unmatched(_))
                            && e.recovery.is_none()
                            && !(e.in_substitution
                                || nested
                                || self.sourcing > 0
                                || self.interactive)
                        {
                            if self.status == 0 {
                                self.status = 2;
                            }
                            return Ok(self.status);
                        }
                    }
                    if let (Some(src_line), ParseErrorKind::UnexpectedToken(_)) =
                        (&e.source_line, &e.kind)
                    {
                        self.errln(&format!("{prefix}`{src_line}'"));
                    }
                    if let ParseErrorKind::ForArith { text, .. } = &e.kind {
                        self.errln(&format!("{prefix}syntax error: `(({text}))'"));
                    }
                    if let (Some(recovery), false) = (e.recovery, e.in_substitution) {
                        status = 1;
                        self.status = 1;
                        match recovery {
                            Recovery::NextLine { pos, line } => {
                                parser.resume_at(pos, line);
                                continue;
                            }
                            Recovery::StopAtEof => {
                                let eof = "syntax error: unexpected end of file";
                                self.errln(&format!("{}{eof}", prefix_at(eof_line())));
                                return Ok(1);
                            }
                            _ => return Ok(1),
                        }
                    }
                    if e.in_substitution && !self.interactive {
                        // bash's status for this: 127 in the shell, 1 in a subshell.
                        let status = if self.subshell > 0 { 1 } else { 127 };
                        self.status = status;
                        return Err(Flow::Exit(status));
                    }
                    self.status = 2;
                    let grammar = matches!(
                        e.kind,
                        ParseErrorKind::UnexpectedToken(_) | ParseErrorKind::UnexpectedEof
                    );
                    if grammar
                        && self.text_builtin_last
                        && self.set.posix
                        && !self.under_command
                        && !self.interactive
                    {
                        return Err(Flow::Exit(2));
                    }
                    if nested || self.interactive || self.sourcing > 0 {
                        return Ok(2);
                    }
                    return Err(Flow::Exit(2));
                }
            };
            if self.set.history && !nested && self.sourcing == 0 {
                let text = parser.text_since(start);
                self.history_add_line(text.trim_start_matches('\n'));
            }
            if echo_read {
                let text = parser.text_since(start);
                self.errln(text.trim_start_matches('\n').trim_end_matches('\n'));
            }
            if self.set.verbose {
                // `set -v` echoes input lines as they are read.
                let text = crate::syntax::printer::list_to_string(&cmd);
                self.errln(&text);
            }
            if self.set.noexec {
                continue;
            }
            // bash's reader has counted the command's lines, here-documents and
            // ending newline included, when it runs it.
            let end = parser.line() - u32::from(parser.prev_char() == Some('\n'));
            self.redir_line = base_line + end.max(start_line);
            // The last command of `bash -c` text ends the shell: bash runs it in the
            // shell's own process.
            if !nested
                && self.command_string_mode
                && !self.interactive
                && self.sourcing == 0
                && parser.pos() >= parser.text_len()
            {
                self.list_ends = Some(exec::EndRule::TEXT);
            }
            // A script read from stdin (`bash -s`, `bash < file`): bash has read its
            // input up to the end of the command's line, so what the command reads
            // from stdin is the rest of the script, and the reading goes on after it.
            let feed = (!nested
                && self.reads_stdin
                && self.sourcing == 0
                && self.frames.is_empty())
            .then(|| {
                let len = parser.text_len();
                let pos = parser.pos();
                let at_line_end = pos >= len || parser.prev_char() == Some('\n');
                let line_end = if at_line_end {
                    pos
                } else {
                    (parser.line_from(pos).1 + 1).min(len)
                };
                let next_line = parser.line() + u32::from(!at_line_end);
                let rest = parser.text_between(line_end, (line_end + STDIN_FEED_CHARS).min(len));
                let bytes = crate::text::encode(&rest);
                let file = OpenFile::bytes(bytes.clone());
                let saved = self.fds.get(0).cloned();
                self.fds.set(0, Some(file.clone()));
                (file, saved, line_end, next_line, rest, bytes)
            });
            let ran = self.exec_list(&cmd);
            if let Some((file, saved, line_end, next_line, rest, bytes)) = feed {
                if self.fds.get(0).is_some_and(|f| Arc::ptr_eq(f, &file)) {
                    self.fds.set(0, saved);
                }
                let read = file.bytes_read().unwrap_or(0);
                if read > 0 {
                    let taken = crate::text::decode(bytes.get(..read).unwrap_or(&bytes));
                    let chars = taken.chars().count().min(rest.chars().count());
                    let lines = taken.matches('\n').count() as u32;
                    parser.resume_at(line_end + chars, next_line + lines);
                }
            }
            if !nested {
                self.command_number = self.command_number.saturating_add(1);
            }
            match ran {
                Ok(s) => status = s,
                Err(Flow::Abort) => {
                    status = 1;
                    self.status = 1;
                    if nested {
                        return Err(Flow::Abort);
                    }
                    // bash's line counter keeps the line of the command that failed to
                    // expand (the jump skips restoring it), and its reader counts the
                    // command's last newline only as it reads on: later lines are
                    // numbered from there.
                    let at_line_start = parser.pos() > start && parser.prev_char() == Some('\n');
                    parser.renumber(self.line + u32::from(at_line_start));
                    if self.set.errexit {
                        return Err(Flow::Exit(1));
                    }
                }
                Err(e) => return Err(e),
            }
        }
        Ok(status)
    }

    /// Makes this an interactive shell: default prompt strings (only interactive
    /// shells have them), history on, emacs editing mode, `$HISTFILE` in `$HOME`.
    pub fn become_interactive(&mut self) {
        self.interactive = true;
        for (k, v) in [("PS1", "\\s-\\v\\$ "), ("PS2", "> ")] {
            if self.get_str(k).is_none() {
                let _ = self.assign_scalar(k, v.to_owned(), false);
            }
        }
        self.set.history = true;
        self.set.set_named("emacs", true);
        if self.get_str("HISTFILE").is_none() {
            let home = self.get_str("HOME").unwrap_or_default();
            let _ = self.assign_scalar("HISTFILE", format!("{home}/.bash_history"), false);
        }
    }

    /// Before reading a command interactively: PROMPT_COMMAND, then PS1 on stderr.
    fn prompt_cycle(&mut self) {
        if let Some(pc) = self.get_str("PROMPT_COMMAND") {
            let saved = self.status;
            let _ = self.run_source(&pc, Some("PROMPT_COMMAND"));
            self.status = saved;
        }
        let ps1 = self.get_str("PS1").unwrap_or_default();
        let p = builtins::prompt::expand_prompt(self, &ps1);
        let _ = self.write_fd(2, crate::text::encode(&p).as_slice());
    }

    /// The line bash counts for a command parsed at `line` (see [`Interp::line_shift`]).
    pub(crate) fn at_line(&self, line: u32) -> u32 {
        u32::try_from((i64::from(line) + self.line_shift).max(0)).unwrap_or(u32::MAX)
    }

    /// Sets a scalar variable honouring attributes; prints bash's error on failure.
    pub fn set_var(&mut self, name: &str, value: String) -> Result<(), Flow> {
        match self.assign_scalar(name, value, false) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.report_assign_error(&e);
                Err(Flow::Abort)
            }
        }
    }

    /// After a builtin assigned `name` the way bash's bind_variable does (`printf -v`,
    /// `getopts`, arithmetic): when the running command binds the name itself
    /// (`x=1 let x=5`), the variable beneath that binding takes the value too.
    pub(crate) fn bind_through(&mut self, name: &str) {
        let Some(i) = self.vars.command_binding_frame(name) else {
            return;
        };
        let Some(value) = self.vars.get_raw(name).and_then(|v| v.as_scalar()) else {
            return;
        };
        let hidden = self.vars.hide_from(i);
        let _ = self.assign_scalar(name, value, false);
        self.vars.restore(hidden);
    }

    /// Assigns a scalar; returns bash's error text on failure (readonly, ...).
    pub fn assign_scalar(
        &mut self,
        name: &str,
        value: String,
        append: bool,
    ) -> Result<(), AssignError> {
        // A plain variable (the common case) is looked up once for its attributes; a
        // nameref is followed first.
        let plain = self
            .vars
            .get_raw(name)
            .map(|v| v.attrs)
            .filter(|a| !a.has(Attrs::NAMEREF));
        let target = match plain {
            Some(_) => std::borrow::Cow::Borrowed(name),
            None => self.vars.resolve_name_cow(name)?,
        };
        // A nameref with no name yet takes the value as its name, which must be one.
        if matches!(target, std::borrow::Cow::Owned(_))
            && let Some(raw) = self.vars.get_raw(&target)
            && raw.attrs.has(Attrs::NAMEREF)
            && !append
            && !vars::valid_ref(&value)
        {
            return Err(AssignError::Message(format!(
                "`{value}': not a valid identifier"
            )));
        }
        if let Some((base, sub)) = host::split_element_ref(&target) {
            let (base, sub) = (base.to_owned(), sub.to_owned());
            let assoc = self.vars.get(&base).is_some_and(|v| v.is_assoc());
            // `@` and `*` name the whole array, which one value cannot be.
            if matches!(sub.as_str(), "@" | "*") {
                return Err(AssignError::Subscript(format!(
                    "{base}[{sub}]: bad array subscript"
                )));
            }
            let key = self
                .expand_subscript_for(assoc, &sub)
                .map_err(|e| e.message)?;
            return self.assign_element(&base, &key, value, append);
        }
        let name: &str = &target;
        if self.special_assign(name, &value) {
            return Ok(());
        }
        let allexport = self.set.allexport;
        // Only the attributes, and the old text when appending: cloning the whole
        // variable here was measurable in assignment loops.
        let existing = match plain {
            Some(_) if !append => None,
            _ => self.vars.get(name),
        };
        let attrs = plain.or(existing.map(|v| v.attrs)).unwrap_or_default();
        if attrs.has(Attrs::READONLY) {
            return Err(AssignError::Readonly(name.to_owned()));
        }
        // `s+=x` on a plain string grows it where it is: copying the old text for
        // each append made a loop of appends quadratic.
        if append
            && !attrs.has(Attrs::INTEGER | Attrs::UPPER | Attrs::LOWER | Attrs::SPECIAL)
            && let Some(Var {
                value: Some(Value::Str(s)),
                ..
            }) = existing
        {
            return self.append_scalar(name, s.len(), &value, allexport);
        }
        let old = if append {
            existing.and_then(|v| v.as_scalar())
        } else {
            None
        };
        let mut value = if attrs.has(Attrs::INTEGER) {
            let base = old.unwrap_or_default();
            let n = self.eval_int_value(&value).map_err(|e| e.render())?;
            if append {
                let b = self.eval_int_value(&base).map_err(|e| e.render())?;
                b.wrapping_add(n).to_string()
            } else {
                n.to_string()
            }
        } else if append {
            let mut b = old.unwrap_or_default();
            b.push_str(&value);
            b
        } else {
            value
        };
        if attrs.has(Attrs::SPECIAL) && self.assign_special(name, &value) {
            return Ok(());
        }
        if value.len() > self.budget.limits.max_string_len {
            let max = self.budget.limits.max_string_len;
            self.budget
                .trip(&format!("string length limit exceeded ({max} bytes)"));
            return Err(AssignError::Message(format!(
                "{name}: string length limit exceeded ({max} bytes)"
            )));
        }
        if value.len() as u64 >= ASSIGN_CHECK_FROM {
            // Counted as held beside the value it replaces: the two coexist briefly.
            if let Err(m) = self.check_memory(value.len() as u64) {
                self.budget.trip(&m);
                return Err(AssignError::Message(format!("{name}: {m}")));
            }
        }
        value = vars::apply_case(attrs, value);
        self.note_growth(value.len())
            .map_err(|m| format!("{name}: {m}"))?;
        self.vars.with_entry(name, false, |var| {
            match &mut var.value {
                Some(Value::Indexed(a)) => {
                    a.insert(0, value);
                }
                Some(Value::Assoc(a)) => {
                    a.insert("0".to_owned(), value);
                }
                _ => var.value = Some(Value::Str(value)),
            }
            if allexport {
                var.attrs.set(Attrs::EXPORT, true);
            }
        });
        Ok(())
    }

    /// Appends `value` to string variable `name` (now `old_len` bytes long) in place,
    /// under the checks a whole new value gets.
    fn append_scalar(
        &mut self,
        name: &str,
        old_len: usize,
        value: &str,
        allexport: bool,
    ) -> Result<(), AssignError> {
        let len = old_len.saturating_add(value.len());
        if len > self.budget.limits.max_string_len {
            let max = self.budget.limits.max_string_len;
            self.budget
                .trip(&format!("string length limit exceeded ({max} bytes)"));
            return Err(AssignError::Message(format!(
                "{name}: string length limit exceeded ({max} bytes)"
            )));
        }
        if value.len() as u64 >= ASSIGN_CHECK_FROM
            && let Err(m) = self.check_memory(value.len() as u64)
        {
            self.budget.trip(&m);
            return Err(AssignError::Message(format!("{name}: {m}")));
        }
        self.note_growth(value.len())
            .map_err(|m| format!("{name}: {m}"))?;
        self.vars.with_entry(name, false, |var| {
            match &mut var.value {
                Some(Value::Str(s)) => s.push_str(value),
                other => *other = Some(Value::Str(value.to_owned())),
            }
            if allexport {
                var.attrs.set(Attrs::EXPORT, true);
            }
        });
        Ok(())
    }

    /// `BASH_XTRACEFD` set to `value` (bash's `sv_xtracefd`): empty sends the trace
    /// back to stderr, closing the descriptor it went to; an open descriptor takes
    /// it; anything else is an error that changes nothing.
    pub(crate) fn set_xtrace_fd(&mut self, value: &str) {
        if value.is_empty() {
            self.xtrace_reset();
            return;
        }
        match value.trim().parse::<i32>() {
            Ok(fd) if fd >= 0 && self.fds.get(fd).is_some() => self.xtrace_fd = Some(fd),
            _ => {
                let msg =
                    format!("BASH_XTRACEFD: {value}: invalid value for trace file descriptor");
                self.errln(&format!("{}{msg}", self.err_prefix()));
            }
        }
    }

    /// Applies the `BASH_XTRACEFD` visible now (after an unset, a function's local
    /// going away, or a new shell reading its environment).
    pub(crate) fn sync_xtrace_fd(&mut self) {
        let now = self.get_str("BASH_XTRACEFD").unwrap_or_default();
        self.set_xtrace_fd(&now);
    }

    /// dotglob follows the `GLOBIGNORE` visible now (after a prefix assignment or a
    /// function's local goes away): on for a non-null value, off when it is unset.
    pub(crate) fn sync_globignore(&mut self) {
        match self.get_str("GLOBIGNORE") {
            Some(v) if v.is_empty() => {}
            Some(_) => {
                self.shopt.set("dotglob", true);
            }
            None => {
                self.shopt.set("dotglob", false);
            }
        }
    }

    /// The trace goes back to stderr; the descriptor it went to is closed, as bash
    /// closes the stream it opened on it (`unset BASH_XTRACEFD`).
    pub(crate) fn xtrace_reset(&mut self) {
        if let Some(fd) = self.xtrace_fd.take() {
            self.fds.set(fd, None);
        }
    }

    /// Variables with side effects on assignment.
    fn special_assign(&mut self, name: &str, value: &str) -> bool {
        match name {
            // The locale is looked up when used (`byte_locale`); a name the system
            // lacks is reported as it is assigned, as bash's setlocale call does.
            "LC_ALL" | "LC_CTYPE" | "LC_COLLATE" | "LC_MESSAGES" | "LC_NUMERIC" | "LC_TIME" => {
                self.check_locale_var(name, value);
                false
            }
            "BASH_XTRACEFD" => {
                self.set_xtrace_fd(value);
                false
            }
            // A non-null GLOBIGNORE turns dotglob on (unsetting it turns it off).
            "GLOBIGNORE" => {
                if !value.is_empty() {
                    self.shopt.set("dotglob", true);
                }
                false
            }
            // A new PATH forgets the remembered command locations.
            "PATH" => {
                self.hash = imbl::OrdMap::new();
                false
            }
            // A new HISTFILESIZE trims the history file to that many last lines.
            "HISTFILESIZE" => {
                if let (Ok(n), Some(file)) = (
                    value.trim().parse::<usize>(),
                    self.get_str("HISTFILE").filter(|f| !f.is_empty()),
                ) {
                    let path = crate::fs::path::join(&self.cwd, &file);
                    let mut fs = self.fs.lock();
                    if let Ok(data) = fs.read_file(&path) {
                        let lines: Vec<&[u8]> = data.split_inclusive(|&b| b == b'\n').collect();
                        if lines.len() > n {
                            let kept = lines[lines.len() - n..].concat();
                            let _ = fs.write_file(&path, &kept);
                        }
                    }
                }
                false
            }
            _ => false,
        }
    }

    /// Assigns `name[key]` (key already expanded; evaluated as arithmetic for indexed
    /// arrays).
    pub fn assign_element(
        &mut self,
        name: &str,
        key: &str,
        value: String,
        append: bool,
    ) -> Result<(), AssignError> {
        let written = name;
        let name = self.vars.resolve_name_checked(name)?;
        if name.contains('[') {
            // A nameref to an element cannot be subscripted again.
            return Err(AssignError::Message(format!(
                "`{name}': not a valid identifier"
            )));
        }
        // Nor can one that names nothing yet.
        if let Some(raw) = self.vars.get_raw(&name)
            && raw.attrs.has(Attrs::NAMEREF)
        {
            let text = raw.as_scalar().unwrap_or_default();
            return Err(AssignError::Message(format!(
                "`{text}': not a valid identifier"
            )));
        }
        let existing = self.vars.get(&name).cloned();
        if let Some(v) = &existing
            && v.attrs.has(Attrs::READONLY)
        {
            // Named as written: through a nameref, bash reports the nameref.
            return Err(AssignError::Readonly(written.to_owned()));
        }
        if self.assign_special_element(&name, key, &value).is_some() {
            return Ok(());
        }
        let var = existing.unwrap_or_default();
        let attrs = var.attrs;
        if var.is_assoc() {
            let mut value = value;
            if attrs.has(Attrs::INTEGER) {
                value = self
                    .eval_int_value(&value)
                    .map_err(|e| e.render())?
                    .to_string();
            }
            if append {
                let old = match &var.value {
                    Some(Value::Assoc(a)) => a.get(key).cloned().unwrap_or_default(),
                    _ => String::new(),
                };
                value = old + &value;
            }
            let value = vars::apply_case(attrs, value);
            let grown = crate::expand::element_cost(Some(key), &value);
            vars::set_assoc(self.vars.entry(&name, false), key.to_owned(), value);
            self.note_growth(grown)
                .map_err(|m| format!("{name}[{key}]: {m}"))?;
            return self.check_array_len(&name);
        }
        // A subscript that is not a valid expression abandons everything, as an
        // integer variable's bad value does.
        let idx = self
            .eval_int_value(key)
            .map_err(|e| AssignError::Subscript(e.render()))?;
        // The subscript may have assigned to the array (`a[a[7]=-1]=x`): the element
        // and the end a negative index counts from are those after it.
        let var = self.vars.get(&name).cloned().unwrap_or_default();
        let attrs = var.attrs;
        let idx = if idx < 0 {
            let max = match &var.value {
                Some(Value::Indexed(a)) => a.keys().next_back().copied().unwrap_or(-1),
                Some(Value::Str(_)) => 0,
                _ => -1,
            };
            if max + 1 + idx < 0 {
                return Err(AssignError::BadSubscript {
                    name: name.clone(),
                    key: key.to_owned(),
                });
            }
            max + 1 + idx
        } else {
            idx
        };
        let mut value = value;
        if attrs.has(Attrs::INTEGER) {
            let n = self.eval_int_value(&value).map_err(|e| e.render())?;
            value = if append {
                let old = match &var.value {
                    Some(Value::Indexed(a)) => a.get(&idx).cloned().unwrap_or_default(),
                    _ => String::new(),
                };
                let o = self.eval_int_value(&old).map_err(|e| e.render())?;
                o.wrapping_add(n).to_string()
            } else {
                n.to_string()
            };
        } else if append {
            let old = match &var.value {
                Some(Value::Indexed(a)) => a.get(&idx).cloned().unwrap_or_default(),
                Some(Value::Str(s)) if idx == 0 => s.clone(),
                _ => String::new(),
            };
            value = old + &value;
        }
        let value = vars::apply_case(attrs, value);
        let grown = crate::expand::element_cost(None, &value);
        vars::set_indexed(self.vars.entry(&name, false), idx, value);
        self.note_growth(grown)
            .map_err(|m| format!("{name}[{key}]: {m}"))?;
        self.check_array_len(&name)
    }

    /// Fails (and ends the run) once array `name` holds more than `max_array_len`
    /// elements.
    pub(crate) fn check_array_len(&self, name: &str) -> Result<(), AssignError> {
        let len = match self.vars.get(name).and_then(|v| v.value.as_ref()) {
            Some(Value::Indexed(a)) => a.len(),
            Some(Value::Assoc(a)) => a.len(),
            _ => 0,
        };
        let max = self.budget.limits.max_array_len;
        if len > max {
            self.budget
                .trip(&format!("array size limit exceeded ({max} elements)"));
            return Err(AssignError::Message(format!(
                "{name}: array size limit exceeded ({max} elements)"
            )));
        }
        Ok(())
    }

    /// Evaluates arithmetic text against this shell's variables.
    pub fn eval_arith_str(&mut self, s: &str) -> Result<i64, crate::expand::ArithFail> {
        crate::expand::arith::eval_str(s, self)
    }

    /// Evaluates a value assigned to an integer variable. bash treats a failure as an
    /// assignment error that abandons everything (its `jump_to_top_level`): it is
    /// noted here and acted on when the command ends ([`Interp::discard_flow`]).
    pub(crate) fn eval_int_value(&mut self, s: &str) -> Result<i64, crate::expand::ArithFail> {
        let r = crate::expand::arith::eval_str(s, self);
        if r.is_err() {
            self.int_assign_failed = true;
        }
        r
    }

    /// Where an integer assignment's arithmetic error leads: a `bash -c` shell or a
    /// subshell exits with status 1; a script read from a file, or an interactive
    /// shell, abandons the command and goes on.
    pub(crate) fn discard_flow(&self) -> Flow {
        if self.in_subshell || (self.command_string_mode && !self.interactive) {
            Flow::Exit(1)
        } else {
            Flow::Abort
        }
    }

    /// The scalar value of a variable, if set.
    pub fn get_str(&self, name: &str) -> Option<String> {
        self.vars.get(name).and_then(|v| v.as_scalar())
    }

    /// The local time zone: what an exported `TZ` names (bash calls `tzset` only
    /// for an exported `TZ`), else UTC.
    pub fn zone(&self) -> crate::timefmt::Zone {
        let tz = self
            .vars
            .get_raw("TZ")
            .filter(|v| v.attrs.has(Attrs::EXPORT))
            .and_then(|v| match &v.value {
                Some(Value::Str(s)) => Some(s.as_str()),
                _ => None,
            });
        crate::timefmt::Zone::from_tz(tz)
    }

    /// Exported variables for commands, and exported functions as bash passes them
    /// (`BASH_FUNC_name%%=() {  body...}`).
    pub fn env(&self) -> std::collections::BTreeMap<String, String> {
        let mut env = self.vars.exported();
        if let Some(path) = &self.exec_path {
            env.insert("_".to_owned(), path.clone());
        }
        // A restricted shell passes no functions on.
        let funcs = self.exported_funcs.iter().filter(|_| !self.restricted);
        for name in funcs {
            if let Some(def) = self.funcs.get(name.as_str()) {
                env.insert(
                    format!("BASH_FUNC_{name}%%"),
                    crate::syntax::printer::function_env_value(def),
                );
            }
        }
        env
    }

    /// bash's import of `BASH_FUNC_name%%=() {...}` environment entries that are not
    /// one function definition: each is reported as the shell starts (and stays in the
    /// environment for its children), and the shell's `$?` starts at 1.
    pub(crate) fn report_bad_imports(&mut self, shell: &str) {
        let env = self.vars.exported();
        for (key, value) in &env {
            let Some(name) = key
                .strip_prefix("BASH_FUNC_")
                .and_then(|n| n.strip_suffix("%%"))
            else {
                continue;
            };
            if !value.starts_with("() {") || self.funcs.contains_key(name) {
                continue;
            }
            match crate::syntax::parse(&format!("{name} {value}")) {
                Err(e) => {
                    self.errln(&format!("{shell}: {name}: line {}: {e}", e.line));
                }
                Ok(_) => self.errln(&format!(
                    "{shell}: warning: {name}: ignoring function definition attempt"
                )),
            }
            self.errln(&format!(
                "{shell}: error importing function definition for `{name}'"
            ));
            self.status = 1;
        }
    }

    /// Takes every variable and function out of the environment (`exec -c`: the
    /// program this process becomes starts with none).
    pub(crate) fn clear_environment(&mut self) {
        for name in self.vars.exported().into_keys() {
            self.vars
                .entry(&name, false)
                .attrs
                .set(Attrs::EXPORT, false);
        }
        self.exported_funcs = imbl::OrdSet::new();
        self.exec_path = None;
    }

    /// Variables for a new shell process from its environment: every entry becomes an
    /// exported variable, except the `BASH_FUNC_name%%` entries holding a function
    /// definition, which become exported functions (bash's import of them).
    pub(crate) fn adopt_env(&mut self, env: &std::collections::BTreeMap<String, String>) {
        let mut fresh = vars::Scopes::new();
        self.exec_path = None;
        for (k, v) in env {
            // `_` is the path the process was run by: its `$_`, passed on unchanged
            // when it runs a program without a shell in between.
            if k == "_" {
                self.last_arg = v.clone();
                self.exec_path = Some(v.clone());
                continue;
            }
            // An entry that is no function definition stays in the environment as it
            // is (a shell started from here reports it: `report_bad_imports`).
            if let Some(name) = k
                .strip_prefix("BASH_FUNC_")
                .and_then(|n| n.strip_suffix("%%"))
                && v.starts_with("() {")
                && let Some(def) = imported_function(name, v)
            {
                self.funcs.insert(name.to_owned(), def);
                self.exported_funcs.insert(name.to_owned());
                continue;
            }
            let var = fresh.entry(k, false);
            var.value = Some(Value::Str(v.clone()));
            var.attrs.set(Attrs::EXPORT, true);
        }
        self.vars = fresh;
    }

    /// Replaces stdin/stdout/stderr.
    pub fn set_stdio(
        &mut self,
        stdin: Arc<OpenFile>,
        stdout: Arc<OpenFile>,
        stderr: Arc<OpenFile>,
    ) {
        self.fds.set(0, Some(stdin));
        self.fds.set(1, Some(stdout));
        self.fds.set(2, Some(stderr));
    }

    /// Defines a variable with an explicit value (for embedders).
    pub fn define(&mut self, name: &str, var: Var) {
        *self.vars.entry(name, false) = var;
    }
}

/// The function an environment entry `BASH_FUNC_name%%=() {...}` defines, if its text
/// is exactly one function definition.
fn imported_function(name: &str, text: &str) -> Option<Arc<crate::syntax::FunctionDef>> {
    let script = crate::syntax::parse(&format!("{name} {text}")).ok()?;
    let [list] = script.commands.as_slice() else {
        return None;
    };
    let [item] = list.items.as_slice() else {
        return None;
    };
    let [cmd] = item.and_or.first.commands.as_slice() else {
        return None;
    };
    match &cmd.kind {
        crate::syntax::CommandKind::FunctionDef(f) if item.and_or.rest.is_empty() => {
            Some(Arc::new(f.clone()))
        }
        _ => None,
    }
}

/// How much of the rest of a script read from stdin a command can read in its turn.
const STDIN_FEED_CHARS: usize = 1 << 16;

/// A copy of a list with every line number moved by `by` (for eval'd text).
/// Values at least this long are checked against the memory budget when assigned.
const ASSIGN_CHECK_FROM: u64 = 1 << 20;

/// The locales this system has (`locale -a`: C, POSIX and C.UTF-8, as on a minimal
/// Linux box; no host locale is consulted): `Some(true)` for a UTF-8 one,
/// `Some(false)` for a single-byte one, `None` for a name it lacks.
fn locale_charset(name: &str) -> Option<bool> {
    match name {
        "C" | "POSIX" => Some(false),
        _ => {
            let (lang, codeset) = name.split_once('.')?;
            let codeset: String = codeset
                .chars()
                .filter(|c| c.is_ascii_alphanumeric())
                .map(|c| c.to_ascii_lowercase())
                .collect();
            (lang == "C" && codeset == "utf8").then_some(true)
        }
    }
}
