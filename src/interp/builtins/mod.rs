//! Shell builtins (bash manual, "Shell Builtin Commands"): commands that act on the
//! shell's own state, registered in one table. Each takes the shell and its words
//! (`args[0]` is the name) and returns an exit status or control flow.

pub mod complete;
pub mod declare;
pub mod describe;
pub mod hash;
pub mod help;
pub mod history;
pub mod longdouble;
pub mod misc;
pub mod printf;
pub mod prompt;
pub mod read;
pub mod test;
pub mod ulimit;

use super::{Flow, Interp, R};

pub type Builtin = fn(&mut Interp, &[String]) -> R;

/// The builtin table, sorted by name.
const TABLE: &[(&str, Builtin)] = &[
    (".", misc::source),
    (":", misc::colon),
    ("[", test::bracket),
    ("alias", misc::alias),
    ("bg", misc::bg),
    ("bind", history::bind),
    ("break", misc::break_),
    ("builtin", misc::builtin),
    ("caller", misc::caller),
    ("cd", misc::cd),
    ("command", misc::command),
    ("compgen", complete::compgen),
    ("complete", complete::complete),
    ("compopt", complete::compopt),
    ("continue", misc::continue_),
    ("declare", declare::declare),
    ("dirs", misc::dirs),
    ("disown", misc::disown),
    ("echo", misc::echo),
    ("enable", misc::enable),
    ("eval", misc::eval),
    ("exec", misc::exec),
    ("exit", misc::exit),
    ("export", declare::export),
    ("false", misc::false_),
    ("fc", history::fc),
    ("fg", misc::fg),
    ("getopts", misc::getopts),
    ("hash", hash::hash),
    ("help", help::help),
    ("history", history::history),
    ("jobs", misc::jobs),
    ("kill", misc::kill),
    ("let", misc::let_),
    ("local", declare::local),
    ("logout", misc::logout),
    ("mapfile", read::mapfile),
    ("popd", misc::popd),
    ("printf", printf::printf),
    ("pushd", misc::pushd),
    ("pwd", misc::pwd),
    ("read", read::read),
    ("readarray", read::mapfile),
    ("readonly", declare::readonly),
    ("return", misc::return_),
    ("set", misc::set),
    ("shift", misc::shift),
    ("shopt", misc::shopt),
    ("source", misc::source),
    ("suspend", misc::suspend),
    ("test", test::test),
    ("times", misc::times),
    ("trap", misc::trap),
    ("true", misc::true_),
    ("type", describe::type_),
    ("typeset", declare::declare),
    ("ulimit", ulimit::ulimit),
    ("umask", misc::umask),
    ("unalias", misc::unalias),
    ("unset", declare::unset),
    ("wait", misc::wait),
];

/// POSIX special builtins.
const SPECIAL: &[&str] = &[
    "break", ":", ".", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set",
    "shift", "times", "trap", "unset", "source",
];

/// Finds a builtin by name.
pub fn lookup(name: &str) -> Option<Builtin> {
    // Hashed: every simple command asks, and a binary search's string comparisons
    // were a tenth of an empty loop's time.
    static INDEX: std::sync::LazyLock<
        std::collections::HashMap<&'static str, Builtin, foldhash::fast::FixedState>,
    > = std::sync::LazyLock::new(|| TABLE.iter().copied().collect());
    INDEX.get(name).copied()
}

impl Interp {
    /// The builtin `name` runs, unless `enable -n` turned it off.
    pub(crate) fn builtin(&self, name: &str) -> Option<Builtin> {
        if !self.disabled_builtins.is_empty() && self.disabled_builtins.contains(name) {
            return None;
        }
        lookup(name)
    }
}

/// Runs builtin `b` under `name` with `args` (`args[0]` is the name), answering a
/// `--help` first argument with the builtin's help as bash's `CASE_HELPOPT` does.
pub fn call(sh: &mut Interp, name: &str, b: Builtin, args: &[String]) -> R {
    // `local` outside a function fails before its options are read, except for a
    // `--help` first argument.
    let outside_function = name == "local" && (sh.call_depth == 0 || !sh.in_function());
    let helps = if outside_function {
        args.get(1).is_some_and(|a| a == "--help")
    } else {
        help::asks_for_help(name, args)
    };
    sh.text_builtin_last = matches!(name, "eval" | "source" | ".");
    if helps {
        return help::answer(sh, name);
    }
    b(sh, args)
}

/// Parses the leading options of a builtin whose options are single letters taking no
/// argument (`-ds`, `-d -s`; `--` ends them): the letters given and the index of the
/// first operand. An unknown letter prints bash's message and the usage line, and
/// gives the status 2 to return.
pub fn letter_options(
    sh: &Interp,
    name: &str,
    args: &[String],
    letters: &str,
    usage: &str,
) -> Result<(String, usize), i32> {
    let (given, i) = options(sh, name, args, letters, usage)?;
    Ok((given.into_iter().map(|(c, _)| c).collect(), i))
}

/// An option letter and the value it took, if it takes one.
pub type GivenOption = (char, Option<String>);

/// [`letter_options`] where a letter followed by `:` in `spec` takes a value, attached
/// (`-pvar`) or the next argument (`-p var`): each option given with its value, and the
/// index of the first operand. A missing value is reported as bash does, status 2.
pub fn options(
    sh: &Interp,
    name: &str,
    args: &[String],
    spec: &str,
    usage: &str,
) -> Result<(Vec<GivenOption>, usize), i32> {
    let fail = |msg: String| {
        sh.builtin_error(name, &msg);
        sh.errln(usage);
        Err(2)
    };
    let mut given = Vec::new();
    let mut i = 1;
    while let Some(a) = args.get(i) {
        if a == "--" {
            i += 1;
            break;
        }
        let Some(flags) = a.strip_prefix('-').filter(|f| !f.is_empty()) else {
            break;
        };
        for (at, c) in flags.char_indices() {
            let Some(found) = spec.find(c).filter(|_| c != ':') else {
                return fail(format!("-{c}: invalid option"));
            };
            if !spec[found + c.len_utf8()..].starts_with(':') {
                given.push((c, None));
                continue;
            }
            let attached = &flags[at + c.len_utf8()..];
            let value = if attached.is_empty() {
                i += 1;
                args.get(i).cloned()
            } else {
                Some(attached.to_owned())
            };
            let Some(value) = value else {
                return fail(format!("-{c}: option requires an argument"));
            };
            given.push((c, Some(value)));
            break;
        }
        i += 1;
    }
    Ok((given, i))
}

/// Every builtin name, sorted.
pub fn names() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|(n, _)| *n)
}

pub fn is_special_name(name: &str) -> bool {
    SPECIAL.contains(&name)
}

/// Signal names and numbers as `kill -l` lists them.
pub const SIGNALS: &[(i32, &str)] = &[
    (1, "HUP"),
    (2, "INT"),
    (3, "QUIT"),
    (4, "ILL"),
    (5, "TRAP"),
    (6, "ABRT"),
    (7, "BUS"),
    (8, "FPE"),
    (9, "KILL"),
    (10, "USR1"),
    (11, "SEGV"),
    (12, "USR2"),
    (13, "PIPE"),
    (14, "ALRM"),
    (15, "TERM"),
    (16, "STKFLT"),
    (17, "CHLD"),
    (18, "CONT"),
    (19, "STOP"),
    (20, "TSTP"),
    (21, "TTIN"),
    (22, "TTOU"),
    (23, "URG"),
    (24, "XCPU"),
    (25, "XFSZ"),
    (26, "VTALRM"),
    (27, "PROF"),
    (28, "WINCH"),
    (29, "IO"),
    (30, "PWR"),
    (31, "SYS"),
];

/// Single quotes as `trap -p` and `complete -p` print their arguments.
pub use crate::expand::param::single_quote;

/// The realtime signals: Linux numbers them from 34 (`RTMIN`) to 64 (`RTMAX`), and bash
/// names the first half from `RTMIN` up and the rest from `RTMAX` down.
const SIGRTMIN: i32 = 34;
const SIGRTMAX: i32 = 64;

/// A signal's name without the `SIG` prefix (`TERM`, `RTMIN+3`); none for 0 and for
/// numbers Linux does not use.
pub fn signal_short_name(n: i32) -> Option<String> {
    if let Some((_, s)) = SIGNALS.iter().find(|(k, _)| *k == n) {
        return Some((*s).to_owned());
    }
    let mid = (SIGRTMIN + SIGRTMAX) / 2;
    match n {
        SIGRTMIN => Some("RTMIN".to_owned()),
        SIGRTMAX => Some("RTMAX".to_owned()),
        _ if (SIGRTMIN..=mid).contains(&n) => Some(format!("RTMIN+{}", n - SIGRTMIN)),
        _ if (mid..SIGRTMAX).contains(&n) => Some(format!("RTMAX-{}", SIGRTMAX - n)),
        _ => None,
    }
}

/// `SIGTERM`-style name of a signal number (`EXIT` for 0).
pub fn signal_name(n: i32) -> String {
    if n == 0 {
        return "EXIT".to_owned();
    }
    signal_short_name(n)
        .map(|s| format!("SIG{s}"))
        .unwrap_or_else(|| n.to_string())
}

/// Parses a signal given as a number, `TERM`, or `SIGTERM` (case-insensitive).
pub fn signal_number(s: &str) -> Option<i32> {
    if let Ok(n) = s.parse::<i32>() {
        return if (0..=SIGRTMAX).contains(&n) {
            Some(n)
        } else {
            None
        };
    }
    let up = s.to_ascii_uppercase();
    let name = up.strip_prefix("SIG").unwrap_or(&up);
    match name {
        "EXIT" => return Some(0),
        "ERR" | "DEBUG" | "RETURN" => return None,
        _ => {}
    }
    if let Some((k, _)) = SIGNALS.iter().find(|(_, n)| *n == name) {
        return Some(*k);
    }
    realtime_offset(name)
        .or_else(|| (SIGRTMIN..=SIGRTMAX).find(|&k| signal_short_name(k).as_deref() == Some(name)))
}

/// A real-time signal named by its distance from either end (`RTMIN+N`, `RTMAX-N`,
/// upper case): `RTMIN+N` reaches any of them from RTMIN itself, `RTMAX-N` only the
/// upper half below RTMAX, where the names count down (`RTMAX-0` names nothing).
fn realtime_offset(name: &str) -> Option<i32> {
    let (base, sign, count): (i32, i32, &str) = if let Some(c) = name.strip_prefix("RTMIN+") {
        (SIGRTMIN, 1, c)
    } else {
        (SIGRTMAX, -1, name.strip_prefix("RTMAX-")?)
    };
    // The count is read like strtol reads it: blanks before the digits.
    let digits = count.trim_start();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let k = digits.parse::<i32>().ok()?;
    let n = base.checked_add(sign.checked_mul(k)?)?;
    if sign < 0 && (k == 0 || n <= SIGRTMIN + 15) {
        return None;
    }
    (SIGRTMIN..=SIGRTMAX).contains(&n).then_some(n)
}

/// [`signal_number`] as `kill` reads it: in POSIX mode a name may not start with
/// `SIG`, unless it counts up from RTMIN.
pub fn kill_signal_number(s: &str, posix: bool) -> Option<i32> {
    let up = s.to_ascii_uppercase();
    if posix
        && let Some(bare) = up.strip_prefix("SIG")
        && !(bare.starts_with("RTMIN+") && realtime_offset(bare).is_some())
    {
        return None;
    }
    signal_number(s)
}

/// The `kill -l` / `trap -l` table: five `N) SIGNAME` cells a line, tab-separated.
pub fn signal_table() -> String {
    let mut out = String::new();
    let mut column = 0;
    for n in 1..=SIGRTMAX {
        let Some(name) = signal_short_name(n) else {
            continue;
        };
        out.push_str(&format!("{n:2}) SIG{name}"));
        column += 1;
        if column < 5 {
            out.push('\t');
        } else {
            out.push('\n');
            column = 0;
        }
    }
    if column != 0 {
        out.push('\n');
    }
    out
}

impl Interp {
    /// Writes to stdout for a builtin; a closed pipe ends a subshell like SIGPIPE.
    pub fn out(&mut self, data: &[u8]) -> Result<(), Flow> {
        match self.write_fd(1, data) {
            Ok(()) => Ok(()),
            Err(e) => {
                if let Some(f) = crate::commands::as_fatal(&e) {
                    return Err(Flow::Fatal(f.0.clone()));
                }
                if e.kind() == std::io::ErrorKind::BrokenPipe && self.in_subshell {
                    return Err(Flow::Exit(141));
                }
                Err(Flow::Return(-1))
            }
        }
    }

    /// Writes a builtin's output, turning a write failure into bash's message and
    /// status 1.
    pub fn out_status(&mut self, name: &str, data: &[u8]) -> R {
        match self.out(data) {
            Ok(()) => Ok(0),
            Err(e) => self.builtin_write_failed(name, e),
        }
    }

    /// Turns the failed write a builtin gave up on (see [`Interp::out`]) into bash's
    /// message and status 1; other outcomes pass through.
    pub(crate) fn builtin_write_failed(&mut self, name: &str, flow: Flow) -> R {
        if !matches!(flow, Flow::Return(-1)) {
            return Err(flow);
        }
        let e = self.write_fd(1, b"").err();
        let text = e
            .map(|e| super::exec::io_error_text(&e))
            .unwrap_or_else(|| "Bad file descriptor".to_owned());
        self.error(&format!("{name}: write error: {text}"));
        Ok(1)
    }

    /// Reports a failed assignment as bash does when builtin `name` met it: a bad
    /// subscript without the builtin's name (bash reports those where the element is
    /// bound), a silent refusal not at all.
    pub(crate) fn assign_error(&self, name: &str, e: &super::AssignError) {
        match e {
            super::AssignError::Silent => {}
            super::AssignError::Message(m) => self.builtin_error(name, m),
            e @ super::AssignError::Readonly(_)
                if matches!(name, "declare" | "typeset" | "local") =>
            {
                self.builtin_error(name, &e.to_string())
            }
            e => self.error(&e.to_string()),
        }
    }

    /// Reports a failed assignment that no builtin made (`x=1`, `$((a[i]=1))`).
    pub(crate) fn report_assign_error(&self, e: &super::AssignError) {
        if !matches!(e, super::AssignError::Silent) {
            self.error(&e.to_string());
        }
    }

    /// A builtin's error message: `bash: line N: name: msg`.
    pub fn builtin_error(&self, name: &str, msg: &str) {
        self.error(&format!("{name}: {msg}"));
    }
}
