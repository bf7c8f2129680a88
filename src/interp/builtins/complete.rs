//! Programmable completion builtins (bash manual, "Programmable Completion Builtins"):
//! `complete` stores a completion specification per command, `compgen` generates the
//! words a specification yields for a word, `compopt` changes a stored specification's
//! options. The shell is never interactive, so no completion function is ever running.

use std::sync::Arc;

use super::super::{Interp, R, SET_OPTIONS, SHOPT_OPTIONS};
use crate::expand::pattern::{MatchOpts, Pattern};
use crate::expand::{Attrs, Host, Value};

/// Names bash stores the `-D`, `-E` and `-I` specifications under.
const DEFAULT_CMD: &str = "_DefaultCmD_";
const EMPTY_CMD: &str = "_EmptycmD_";
const INITIAL_WORD: &str = "_InitialWorD_";

const COMPLETE_USAGE: &str = "complete: usage: complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]";
const COMPGEN_USAGE: &str = "compgen: usage: compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]";
const COMPOPT_USAGE: &str = "compopt: usage: compopt [-o|+o option] [-DEI] [name ...]";

/// Actions (`-A name`), in the order bash generates them; the letter is the short
/// option, if any. The bit of an action is `1 << index`.
const ACTIONS: &[(&str, Option<char>)] = &[
    ("alias", Some('a')),
    ("arrayvar", None),
    ("binding", None),
    ("builtin", Some('b')),
    ("disabled", None),
    ("enabled", None),
    ("export", Some('e')),
    ("function", None),
    ("helptopic", None),
    ("hostname", None),
    ("job", Some('j')),
    ("keyword", Some('k')),
    ("running", None),
    ("setopt", None),
    ("shopt", None),
    ("signal", None),
    ("stopped", None),
    ("variable", Some('v')),
    ("command", Some('c')),
    ("file", Some('f')),
    ("user", Some('u')),
    ("group", Some('g')),
    ("service", Some('s')),
    ("directory", Some('d')),
];

/// The short action flags in the order `complete -p` prints them.
const PRINT_FLAGS: &str = "abcdefgjksuv";

/// The `-A` actions without a letter, in the order `complete -p` prints them.
const PRINT_ACTIONS: &[&str] = &[
    "arrayvar",
    "binding",
    "disabled",
    "enabled",
    "function",
    "helptopic",
    "hostname",
    "running",
    "setopt",
    "shopt",
    "signal",
    "stopped",
];

/// `-o` options, in bash's order; bit i is `1 << i`.
const COMP_OPTIONS: &[&str] = &[
    "bashdefault",
    "default",
    "dirnames",
    "filenames",
    "noquote",
    "nosort",
    "nospace",
    "plusdirs",
];

const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do",
    "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc",
];

/// Readline's bindable function names, as `compgen -A binding` lists them.
const BINDINGS: &[&str] = &[
    "abort",
    "accept-line",
    "arrow-key-prefix",
    "backward-byte",
    "backward-char",
    "backward-delete-char",
    "backward-kill-line",
    "backward-kill-word",
    "backward-word",
    "beginning-of-history",
    "beginning-of-line",
    "bracketed-paste-begin",
    "call-last-kbd-macro",
    "capitalize-word",
    "character-search",
    "character-search-backward",
    "clear-display",
    "clear-screen",
    "complete",
    "copy-backward-word",
    "copy-forward-word",
    "copy-region-as-kill",
    "delete-char",
    "delete-char-or-list",
    "delete-horizontal-space",
    "digit-argument",
    "do-lowercase-version",
    "downcase-word",
    "dump-functions",
    "dump-macros",
    "dump-variables",
    "emacs-editing-mode",
    "end-kbd-macro",
    "end-of-history",
    "end-of-line",
    "exchange-point-and-mark",
    "fetch-history",
    "forward-backward-delete-char",
    "forward-byte",
    "forward-char",
    "forward-search-history",
    "forward-word",
    "history-search-backward",
    "history-search-forward",
    "history-substring-search-backward",
    "history-substring-search-forward",
    "insert-comment",
    "insert-completions",
    "kill-line",
    "kill-region",
    "kill-whole-line",
    "kill-word",
    "menu-complete",
    "menu-complete-backward",
    "next-history",
    "next-screen-line",
    "non-incremental-forward-search-history",
    "non-incremental-forward-search-history-again",
    "non-incremental-reverse-search-history",
    "non-incremental-reverse-search-history-again",
    "old-menu-complete",
    "operate-and-get-next",
    "overwrite-mode",
    "possible-completions",
    "previous-history",
    "previous-screen-line",
    "print-last-kbd-macro",
    "quoted-insert",
    "re-read-init-file",
    "redraw-current-line",
    "reverse-search-history",
    "revert-line",
    "self-insert",
    "set-mark",
    "skip-csi-sequence",
    "start-kbd-macro",
    "tab-insert",
    "tilde-expand",
    "transpose-chars",
    "transpose-words",
    "tty-status",
    "undo",
    "universal-argument",
    "unix-filename-rubout",
    "unix-line-discard",
    "unix-word-rubout",
    "upcase-word",
    "vi-append-eol",
    "vi-append-mode",
    "vi-arg-digit",
    "vi-bWord",
    "vi-back-to-indent",
    "vi-backward-bigword",
    "vi-backward-word",
    "vi-bword",
    "vi-change-case",
    "vi-change-char",
    "vi-change-to",
    "vi-char-search",
    "vi-column",
    "vi-complete",
    "vi-delete",
    "vi-delete-to",
    "vi-eWord",
    "vi-editing-mode",
    "vi-end-bigword",
    "vi-end-word",
    "vi-eof-maybe",
    "vi-eword",
    "vi-fWord",
    "vi-fetch-history",
    "vi-first-print",
    "vi-forward-bigword",
    "vi-forward-word",
    "vi-fword",
    "vi-goto-mark",
    "vi-insert-beg",
    "vi-insertion-mode",
    "vi-match",
    "vi-movement-mode",
    "vi-next-word",
    "vi-overstrike",
    "vi-overstrike-delete",
    "vi-prev-word",
    "vi-put",
    "vi-redo",
    "vi-replace",
    "vi-rubout",
    "vi-search",
    "vi-search-again",
    "vi-set-mark",
    "vi-subst",
    "vi-tilde-expand",
    "vi-undo",
    "vi-unix-word-rubout",
    "vi-yank-arg",
    "vi-yank-pop",
    "vi-yank-to",
    "yank",
    "yank-last-arg",
    "yank-nth-arg",
    "yank-pop",
];

/// Signal names, as `compgen -A signal` lists them.
const SIGNAL_NAMES: &[&str] = &[
    "EXIT",
    "SIGHUP",
    "SIGINT",
    "SIGQUIT",
    "SIGILL",
    "SIGTRAP",
    "SIGABRT",
    "SIGBUS",
    "SIGFPE",
    "SIGKILL",
    "SIGUSR1",
    "SIGSEGV",
    "SIGUSR2",
    "SIGPIPE",
    "SIGALRM",
    "SIGTERM",
    "SIGSTKFLT",
    "SIGCHLD",
    "SIGCONT",
    "SIGSTOP",
    "SIGTSTP",
    "SIGTTIN",
    "SIGTTOU",
    "SIGURG",
    "SIGXCPU",
    "SIGXFSZ",
    "SIGVTALRM",
    "SIGPROF",
    "SIGWINCH",
    "SIGIO",
    "SIGPWR",
    "SIGSYS",
    "SIGJUNK(32)",
    "SIGJUNK(33)",
    "SIGRTMIN",
    "SIGRTMIN+1",
    "SIGRTMIN+2",
    "SIGRTMIN+3",
    "SIGRTMIN+4",
    "SIGRTMIN+5",
    "SIGRTMIN+6",
    "SIGRTMIN+7",
    "SIGRTMIN+8",
    "SIGRTMIN+9",
    "SIGRTMIN+10",
    "SIGRTMIN+11",
    "SIGRTMIN+12",
    "SIGRTMIN+13",
    "SIGRTMIN+14",
    "SIGRTMIN+15",
    "SIGRTMAX-14",
    "SIGRTMAX-13",
    "SIGRTMAX-12",
    "SIGRTMAX-11",
    "SIGRTMAX-10",
    "SIGRTMAX-9",
    "SIGRTMAX-8",
    "SIGRTMAX-7",
    "SIGRTMAX-6",
    "SIGRTMAX-5",
    "SIGRTMAX-4",
    "SIGRTMAX-3",
    "SIGRTMAX-2",
    "SIGRTMAX-1",
    "SIGRTMAX",
    "DEBUG",
    "ERR",
    "RETURN",
];

/// A completion specification: what `complete` stores for a command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompSpec {
    /// Bits of [`ACTIONS`].
    actions: u32,
    /// Bits of [`COMP_OPTIONS`].
    options: u32,
    globpat: Option<String>,
    words: Option<String>,
    prefix: Option<String>,
    suffix: Option<String>,
    funcname: Option<String>,
    command: Option<String>,
    filterpat: Option<String>,
}

/// The stored specifications, in insertion order (a replaced one keeps its place).
#[derive(Clone, Debug, Default)]
pub struct CompTable {
    specs: Arc<Vec<(String, CompSpec)>>,
    /// bash creates its table on the first insertion; removing from no table succeeds.
    created: bool,
}

impl CompTable {
    fn get(&self, name: &str) -> Option<&CompSpec> {
        self.specs.iter().find(|(n, _)| n == name).map(|(_, s)| s)
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut CompSpec> {
        Arc::make_mut(&mut self.specs)
            .iter_mut()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s)
    }

    fn insert(&mut self, name: &str, spec: CompSpec) {
        match self.get_mut(name) {
            Some(s) => *s = spec,
            None => Arc::make_mut(&mut self.specs).push((name.to_owned(), spec)),
        }
        self.created = true;
    }

    fn remove(&mut self, name: &str) -> bool {
        if !self.created {
            return true;
        }
        let before = self.specs.len();
        Arc::make_mut(&mut self.specs).retain(|(n, _)| n != name);
        self.specs.len() != before
    }

    fn clear(&mut self) {
        self.specs = Arc::new(Vec::new());
    }

    /// The specifications in the order bash's hash table (512 buckets, newest first
    /// within a bucket) walks them.
    fn listing(&self) -> Vec<(String, CompSpec)> {
        let mut v: Vec<(usize, &(String, CompSpec))> = self.specs.iter().enumerate().collect();
        v.sort_by_key(|(i, (n, _))| (hash_string(n) & 511, std::cmp::Reverse(*i)));
        v.into_iter().map(|(_, e)| e.clone()).collect()
    }
}

/// bash's `hash_string` (FNV-1).
fn hash_string(s: &str) -> u32 {
    let mut h: u32 = 2_166_136_261;
    for b in s.bytes() {
        h = h.wrapping_mul(16_777_619);
        h ^= u32::from(b);
    }
    h
}

/// How an option parse ended badly.
pub(super) enum OptError {
    /// Message already printed; print the usage line too.
    Usage,
    /// Message already printed; no usage line.
    Plain,
    /// `--help` where an option could start (bash's `GETOPT_HELP`).
    Help,
}

/// One parsed option: the letter, whether it was given with `+`, and its argument.
pub(super) type ParsedOpt = (char, bool, Option<String>);

/// bash's `internal_getopt`: options in `spec` (a `:` after a letter takes an
/// argument), clustered or not, ending at `--`, `-` or the first non-option. With
/// `plus`, `+x` is accepted too. Returns the options and the index of the first operand.
pub(super) fn getopt(
    sh: &Interp,
    name: &str,
    args: &[String],
    spec: &str,
    plus: bool,
) -> Result<(Vec<ParsedOpt>, usize), OptError> {
    let mut out = Vec::new();
    let mut i = 1;
    while let Some(a) = args.get(i) {
        if a == "--" {
            i += 1;
            break;
        }
        if a == "--help" {
            return Err(OptError::Help);
        }
        let sign = match a.chars().next() {
            Some('-') => false,
            Some('+') if plus => true,
            _ => break,
        };
        if a.len() < 2 {
            break;
        }
        let lead = if sign { '+' } else { '-' };
        let cs: Vec<char> = a.chars().skip(1).collect();
        let mut j = 0;
        while let Some(&c) = cs.get(j) {
            j += 1;
            let pos = spec.find(c).filter(|_| c != ':');
            let Some(pos) = pos else {
                sh.builtin_error(name, &format!("{lead}{c}: invalid option"));
                return Err(OptError::Usage);
            };
            if spec[pos + c.len_utf8()..].starts_with(':') {
                let rest: String = cs[j..].iter().collect();
                let arg = if !rest.is_empty() {
                    rest
                } else if let Some(next) = args.get(i + 1) {
                    i += 1;
                    next.clone()
                } else {
                    sh.builtin_error(name, &format!("{lead}{c}: option requires an argument"));
                    return Err(OptError::Usage);
                };
                out.push((c, sign, Some(arg)));
                break;
            }
            out.push((c, sign, None));
        }
        i += 1;
    }
    Ok((out, i))
}

/// The options of `complete` and `compgen` once parsed.
#[derive(Default)]
struct Parsed {
    spec: CompSpec,
    print: bool,
    remove: bool,
    default_cmd: bool,
    empty_cmd: bool,
    initial_word: bool,
    given: bool,
}

fn action_bit(name: &str) -> Option<u32> {
    ACTIONS.iter().position(|(n, _)| *n == name).map(|i| 1 << i)
}

fn letter_bit(c: char) -> Option<u32> {
    ACTIONS
        .iter()
        .position(|(_, l)| *l == Some(c))
        .map(|i| 1 << i)
}

fn option_bit(name: &str) -> Option<u32> {
    COMP_OPTIONS.iter().position(|n| *n == name).map(|i| 1 << i)
}

/// bash's `build_actions`; `complete` also accepts `-p -r -D -E -I`.
fn build_actions(
    sh: &Interp,
    name: &str,
    args: &[String],
    complete: bool,
) -> Result<(Parsed, usize), OptError> {
    let (opts, end) = getopt(sh, name, args, "abcdefgjko:prsuvA:G:W:P:S:X:F:C:DEI", false)?;
    let mut p = Parsed::default();
    for (c, _, arg) in opts {
        p.given = true;
        let arg = arg.unwrap_or_default();
        match c {
            'p' | 'r' | 'D' | 'E' | 'I' if !complete => {
                sh.builtin_error(name, &format!("-{c}: invalid option"));
                return Err(OptError::Usage);
            }
            'p' => p.print = true,
            'r' => p.remove = true,
            'D' => p.default_cmd = true,
            'E' => p.empty_cmd = true,
            'I' => p.initial_word = true,
            'o' => match option_bit(&arg) {
                Some(b) => p.spec.options |= b,
                None => {
                    sh.builtin_error(name, &format!("{arg}: invalid option name"));
                    return Err(OptError::Plain);
                }
            },
            'A' => match action_bit(&arg) {
                Some(b) => p.spec.actions |= b,
                None => {
                    sh.builtin_error(name, &format!("{arg}: invalid action name"));
                    return Err(OptError::Plain);
                }
            },
            'F' => {
                if arg.is_empty()
                    || arg.contains(['(', ')', '<', '>', ';', '&', '|', ' ', '\t', '\n'])
                {
                    sh.builtin_error(name, &format!("`{arg}': not a valid identifier"));
                    return Err(OptError::Plain);
                }
                p.spec.funcname = Some(arg);
            }
            'C' => p.spec.command = Some(arg),
            'G' => p.spec.globpat = Some(arg),
            'W' => p.spec.words = Some(arg),
            'P' => p.spec.prefix = Some(arg),
            'S' => p.spec.suffix = Some(arg),
            'X' => p.spec.filterpat = Some(arg),
            c => {
                if let Some(b) = letter_bit(c) {
                    p.spec.actions |= b;
                }
            }
        }
    }
    Ok((p, end))
}

/// Ends builtin `name` after a failed option parse: the usage line when the error
/// asks for it, the help for `--help` (except in `bind`, whose option loop has no
/// case for it and so shows the usage), status 2.
pub(super) fn usage_status(sh: &mut Interp, name: &str, e: OptError, usage: &str) -> R {
    match e {
        OptError::Help if name != "bind" => return super::help::answer(sh, name),
        OptError::Usage | OptError::Help => sh.errln(usage),
        OptError::Plain => {}
    }
    Ok(2)
}

/// One `complete` line for `complete -p`.
fn spec_line(name: &str, cs: &CompSpec) -> String {
    let mut out = String::from("complete ");
    for (i, o) in COMP_OPTIONS.iter().enumerate() {
        if cs.options & (1 << i) != 0 {
            out.push_str(&format!("-o {o} "));
        }
    }
    for c in PRINT_FLAGS.chars() {
        if letter_bit(c).is_some_and(|b| cs.actions & b != 0) {
            out.push_str(&format!("-{c} "));
        }
    }
    for a in PRINT_ACTIONS {
        if action_bit(a).is_some_and(|b| cs.actions & b != 0) {
            out.push_str(&format!("-A {a} "));
        }
    }
    for (flag, v) in [
        ("-G", &cs.globpat),
        ("-W", &cs.words),
        ("-P", &cs.prefix),
        ("-S", &cs.suffix),
        ("-X", &cs.filterpat),
        ("-C", &cs.command),
    ] {
        if let Some(v) = v {
            out.push_str(&format!("{flag} {} ", super::single_quote(v)));
        }
    }
    if let Some(f) = &cs.funcname {
        out.push_str(&format!("-F {f} "));
    }
    out.push_str(&display_name(name));
    out.push('\n');
    out
}

/// How a stored name is shown: `-D`, `-E`, `-I` or the (quoted) command name.
fn display_name(name: &str) -> String {
    match name {
        DEFAULT_CMD => "-D".to_owned(),
        EMPTY_CMD => "-E".to_owned(),
        INITIAL_WORD => "-I".to_owned(),
        _ => crate::interp::exec::xtrace_quote(name),
    }
}

/// `complete`: define, print or remove completion specifications.
pub fn complete(sh: &mut Interp, args: &[String]) -> R {
    if args.len() < 2 {
        return print_all(sh);
    }
    let (p, end) = match build_actions(sh, "complete", args, true) {
        Ok(v) => v,
        Err(e) => return usage_status(sh, "complete", e, COMPLETE_USAGE),
    };
    let names: Vec<String> = args.get(end..).unwrap_or_default().to_vec();
    let special = if p.default_cmd {
        Some(DEFAULT_CMD)
    } else if p.empty_cmd {
        Some(EMPTY_CMD)
    } else if p.initial_word {
        Some(INITIAL_WORD)
    } else {
        None
    };
    let targets: Vec<String> = match special {
        Some(s) => vec![s.to_owned()],
        None => names.clone(),
    };
    if p.print || (names.is_empty() && !p.given) {
        if special.is_none() && names.is_empty() {
            return print_all(sh);
        }
        let mut out = String::new();
        let mut status = 0;
        for n in &targets {
            match sh.completions.get(n) {
                Some(cs) => out.push_str(&spec_line(n, cs)),
                None => {
                    sh.out(out.as_bytes())?;
                    out.clear();
                    sh.builtin_error("complete", &format!("{n}: no completion specification"));
                    status = 1;
                }
            }
        }
        sh.out(out.as_bytes())?;
        return Ok(status);
    }
    if p.remove {
        if special.is_none() && names.is_empty() {
            sh.completions.clear();
            return Ok(0);
        }
        let mut status = 0;
        for n in &targets {
            if !sh.completions.remove(n) {
                sh.builtin_error("complete", &format!("{n}: no completion specification"));
                status = 1;
            }
        }
        return Ok(status);
    }
    if targets.is_empty() {
        sh.errln(COMPLETE_USAGE);
        return Ok(2);
    }
    for n in &targets {
        sh.completions.insert(n, p.spec.clone());
    }
    Ok(0)
}

fn print_all(sh: &mut Interp) -> R {
    let mut out = String::new();
    for (n, cs) in sh.completions.listing() {
        out.push_str(&spec_line(&n, &cs));
    }
    sh.out_status("complete", out.as_bytes())
}

/// `compopt`: change the options of stored specifications. No completion is ever in
/// progress, so without names it fails.
pub fn compopt(sh: &mut Interp, args: &[String]) -> R {
    let (opts, end) = match getopt(sh, "compopt", args, "o:DEI", true) {
        Ok(v) => v,
        Err(e) => return usage_status(sh, "compopt", e, COMPOPT_USAGE),
    };
    let mut on = 0u32;
    let mut off = 0u32;
    let mut special = None;
    for (c, plus, arg) in opts {
        match c {
            'o' => {
                let arg = arg.unwrap_or_default();
                let Some(b) = option_bit(&arg) else {
                    sh.builtin_error("compopt", &format!("{arg}: invalid option name"));
                    return Ok(2);
                };
                if plus {
                    off |= b;
                } else {
                    on |= b;
                }
            }
            'D' => special = special.or(Some(DEFAULT_CMD)),
            'E' => special = special.or(Some(EMPTY_CMD)),
            _ => special = special.or(Some(INITIAL_WORD)),
        }
    }
    let names: Vec<String> = match special {
        Some(s) => vec![s.to_owned()],
        None => args.get(end..).unwrap_or_default().to_vec(),
    };
    if names.is_empty() {
        sh.builtin_error("compopt", "not currently executing completion function");
        return Ok(1);
    }
    let mut status = 0;
    for n in &names {
        let Some(cs) = sh.completions.get_mut(n) else {
            sh.builtin_error("compopt", &format!("{n}: no completion specification"));
            status = 1;
            continue;
        };
        if on == 0 && off == 0 {
            let mut line = String::from("compopt ");
            for (i, o) in COMP_OPTIONS.iter().enumerate() {
                let sign = if cs.options & (1 << i) != 0 { '-' } else { '+' };
                line.push_str(&format!("{sign}o {o} "));
            }
            line.push_str(&display_name(n));
            line.push('\n');
            sh.out(line.as_bytes())?;
        } else {
            cs.options = (cs.options | on) & !off;
        }
    }
    Ok(status)
}

/// `compgen`: print the completions a specification built from the options generates
/// for the word.
pub fn compgen(sh: &mut Interp, args: &[String]) -> R {
    if args.len() < 2 {
        return Ok(0);
    }
    let (p, end) = match build_actions(sh, "compgen", args, false) {
        Ok(v) => v,
        Err(e) => return usage_status(sh, "compgen", e, COMPGEN_USAGE),
    };
    if !p.given {
        return Ok(0);
    }
    let word = args.get(end).cloned().unwrap_or_default();
    if p.spec.funcname.is_some() {
        sh.builtin_error("compgen", "warning: -F option may not work as you expect");
    }
    if p.spec.command.is_some() {
        sh.builtin_error("compgen", "warning: -C option may not work as you expect");
    }
    let mut list = generate(sh, &p.spec, "compgen", &word)?;
    if list.is_empty() && p.spec.options & option_bit("default").unwrap_or(0) != 0 {
        list = file_matches(sh, &word, false);
    }
    if list.is_empty() {
        return Ok(1);
    }
    let mut out = String::new();
    for w in list {
        out.push_str(&w);
        out.push('\n');
    }
    sh.out_status("compgen", out.as_bytes())
}

fn has_action(cs: &CompSpec, name: &str) -> bool {
    action_bit(name).is_some_and(|b| cs.actions & b != 0)
}

/// bash's `gen_compspec_completions` for `cmd` and the word being completed.
fn generate(
    sh: &mut Interp,
    cs: &CompSpec,
    cmd: &str,
    word: &str,
) -> Result<Vec<String>, crate::interp::Flow> {
    let mut ret = action_matches(sh, cs, word);
    if let Some(g) = &cs.globpat {
        let opts = sh.opts();
        ret.extend(crate::expand::glob::glob(sh, g, opts));
    }
    if let Some(w) = &cs.words {
        ret.extend(wordlist(sh, w)?.into_iter().filter(|x| x.starts_with(word)));
    }
    if let Some(f) = &cs.funcname {
        ret.extend(function_matches(sh, f, cmd, word)?);
    }
    if let Some(c) = &cs.command {
        ret.extend(command_matches(sh, c, cmd, word)?);
    }
    if let Some(x) = &cs.filterpat {
        ret = filter(sh, ret, x, word);
    }
    if cs.prefix.is_some() || cs.suffix.is_some() {
        let pre = cs.prefix.clone().unwrap_or_default();
        let suf = cs.suffix.clone().unwrap_or_default();
        ret = ret.into_iter().map(|w| format!("{pre}{w}{suf}")).collect();
    }
    let dirs_only = CompSpec {
        actions: action_bit("directory").unwrap_or(0),
        ..CompSpec::default()
    };
    if ret.is_empty() && cs.options & option_bit("dirnames").unwrap_or(0) != 0 {
        ret = action_matches(sh, &dirs_only, word);
    } else if cs.options & option_bit("plusdirs").unwrap_or(0) != 0 {
        ret.extend(action_matches(sh, &dirs_only, word));
    }
    Ok(ret)
}

/// `-X`: drops the words matching the pattern (`!pat` keeps them instead); `&` stands
/// for the word being completed.
fn filter(sh: &Interp, list: Vec<String>, pat: &str, word: &str) -> Vec<String> {
    let extglob = sh
        .shopt
        .has(const { crate::interp::Shopts::flag("extglob") });
    let (not, body) = match pat.strip_prefix('!') {
        Some(rest) if !(extglob && rest.starts_with('(')) => (true, rest),
        _ => (false, pat),
    };
    let mut p = String::new();
    let mut cs = body.chars();
    while let Some(c) = cs.next() {
        match c {
            '\\' => {
                if let Some(n) = cs.next() {
                    if n != '&' {
                        p.push('\\');
                    }
                    p.push(n);
                }
            }
            '&' => {
                for w in word.chars() {
                    if "*?[]\\()|!@+".contains(w) {
                        p.push('\\');
                    }
                    p.push(w);
                }
            }
            c => p.push(c),
        }
    }
    let pattern = Pattern::new(
        &p,
        MatchOpts {
            extglob,
            nocase: false,
            dot_special: false,
            bytes: false,
        },
    );
    list.into_iter()
        .filter(|w| pattern.matches(w) == not)
        .collect()
}

/// Words of one action list that start with `word`.
fn prefixed<'a>(items: impl IntoIterator<Item = &'a str>, word: &str) -> Vec<String> {
    items
        .into_iter()
        .filter(|s| s.starts_with(word))
        .map(str::to_owned)
        .collect()
}

/// bash's `gen_action_completions`.
fn action_matches(sh: &mut Interp, cs: &CompSpec, word: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (name, _) in ACTIONS {
        if !has_action(cs, name) {
            continue;
        }
        let items: Vec<String> = match *name {
            "alias" => sorted(sh.aliases.keys().cloned()),
            "arrayvar" => sh
                .vars
                .all()
                .into_iter()
                .filter(|(_, v)| v.is_array() || v.is_assoc())
                .map(|(k, _)| k)
                .collect(),
            "binding" => own(BINDINGS),
            "builtin" => super::names().map(str::to_owned).collect(),
            "enabled" => super::names()
                .filter(|n| !sh.disabled_builtins.contains(*n))
                .map(str::to_owned)
                .collect(),
            "disabled" => super::names()
                .filter(|n| sh.disabled_builtins.contains(*n))
                .map(str::to_owned)
                .collect(),
            "hostname" | "service" | "stopped" => Vec::new(),
            "export" => sh
                .vars
                .all()
                .into_iter()
                .filter(|(_, v)| v.attrs.has(Attrs::EXPORT) && v.value.is_some())
                .map(|(k, _)| k)
                .collect(),
            "function" => sorted(sh.funcs.keys().cloned()),
            "helptopic" => super::help::TOPICS
                .iter()
                .map(|t| t.name.to_owned())
                .collect(),
            "job" | "running" => job_names(sh, *name == "running"),
            "keyword" => own(KEYWORDS),
            "setopt" => SET_OPTIONS.iter().map(|(n, _)| (*n).to_owned()).collect(),
            "shopt" => shopt_names(),
            "signal" => own(SIGNAL_NAMES),
            "variable" => variable_names(sh),
            "command" => command_names(sh),
            "file" => {
                out.extend(file_matches(sh, word, false));
                continue;
            }
            "directory" => {
                out.extend(file_matches(sh, word, true));
                continue;
            }
            "user" => db_names(sh, "/etc/passwd"),
            "group" => db_names(sh, "/etc/group"),
            _ => Vec::new(),
        };
        out.extend(prefixed(items.iter().map(String::as_str), word));
    }
    out
}

/// `shopt` option names in bash's table order, where `autocd` comes first.
fn shopt_names() -> Vec<String> {
    let mut v: Vec<String> = SHOPT_OPTIONS.iter().map(|(n, _)| (*n).to_owned()).collect();
    if let Some(i) = v.iter().position(|n| n == "autocd") {
        let a = v.remove(i);
        v.insert(0, a);
    }
    v
}

/// bash's dynamic variables, listed by `compgen -v` when the shell provides them.
const DYNAMIC_VARS: &[&str] = &[
    "BASHOPTS",
    "BASHPID",
    "BASH_ALIASES",
    "BASH_ARGC",
    "BASH_ARGV",
    "BASH_ARGV0",
    "BASH_CMDS",
    "BASH_COMMAND",
    "BASH_EXECUTION_STRING",
    "BASH_LINENO",
    "BASH_LOADABLES_PATH",
    "BASH_SOURCE",
    "BASH_SUBSHELL",
    "COMP_WORDBREAKS",
    "DIRSTACK",
    "EPOCHREALTIME",
    "EPOCHSECONDS",
    "FUNCNAME",
    "GROUPS",
    "HISTCMD",
    "LINENO",
    "OPTERR",
    "RANDOM",
    "SECONDS",
    "SRANDOM",
    "_",
];

/// Set variable names, with the dynamic ones the shell computes on demand, sorted.
fn variable_names(sh: &mut Interp) -> Vec<String> {
    let mut names: Vec<String> = sh
        .vars
        .all()
        .into_iter()
        .filter(|(_, v)| v.value.is_some() || v.attrs.has(Attrs::EXPORT))
        .map(|(k, _)| k)
        .collect();
    for d in DYNAMIC_VARS {
        if sh.var(d).is_some_and(|v| v.value.is_some()) {
            names.push((*d).to_owned());
        }
    }
    names.sort();
    names.dedup();
    names
}

fn own(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

fn sorted(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = items.collect();
    v.sort();
    v
}

fn job_names(sh: &Interp, running_only: bool) -> Vec<String> {
    let jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
    jt.jobs
        .iter()
        .filter(|j| !running_only || j.status.is_none())
        .filter_map(|j| j.command.split_whitespace().next().map(str::to_owned))
        .collect()
}

/// The first field of each line of `/etc/passwd` or `/etc/group`.
fn db_names(sh: &Interp, path: &str) -> Vec<String> {
    let data = sh.fs.lock().read_file(path).map(|d| d.to_vec());
    let Ok(data) = data else {
        return Vec::new();
    };
    crate::text::decode(&data)
        .lines()
        .filter_map(|l| l.split(':').next())
        .filter(|n| !n.is_empty() && !n.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// Command names: aliases, reserved words, functions, builtins, then the executables
/// in each `PATH` directory.
fn command_names(sh: &mut Interp) -> Vec<String> {
    let mut out = sorted(sh.aliases.keys().cloned());
    out.extend(own(KEYWORDS));
    out.extend(sorted(sh.funcs.keys().cloned()));
    out.extend(super::names().map(str::to_owned));
    let path = sh.get_str("PATH").unwrap_or_default();
    for dir in path.split(':') {
        let dir = if dir.is_empty() { "." } else { dir };
        let full = crate::fs::path::join(&sh.cwd, dir);
        let fs = sh.fs.lock();
        let Ok(entries) = fs.read_dir(&full) else {
            continue;
        };
        for e in entries {
            let p = format!("{}/{}", full.trim_end_matches('/'), e.name);
            let is_file = fs.stat(&p).map(|m| m.is_file()).unwrap_or(false);
            if is_file && fs.access(&p, false, false, true).is_ok() {
                out.push(e.name);
            }
        }
    }
    out
}

/// Readline's filename completion of `word` (directories only with `dirs_only`): the
/// entries of the word's directory that start with its last component, shown with the
/// directory part as typed. `.` and `..` match only a word that names them by prefix.
fn file_matches(sh: &mut Interp, word: &str, dirs_only: bool) -> Vec<String> {
    let (dir_part, base) = match word.rfind('/') {
        Some(i) => (&word[..=i], &word[i + 1..]),
        None => ("", word),
    };
    let lookup = if dir_part.is_empty() {
        sh.cwd.clone()
    } else {
        let expanded = match dir_part.strip_prefix('~') {
            Some(rest) if rest.starts_with('/') => {
                let home = sh.get_str("HOME").unwrap_or_default();
                format!("{home}{rest}")
            }
            _ => dir_part.to_owned(),
        };
        crate::fs::path::join(&sh.cwd, &expanded)
    };
    let Some(mut entries) = sh.read_dir(&lookup) else {
        return Vec::new();
    };
    if !base.is_empty() {
        entries.insert(0, ("..".to_owned(), true));
        entries.insert(0, (".".to_owned(), true));
    }
    entries
        .into_iter()
        .filter(|(n, is_dir)| n.starts_with(base) && (!dirs_only || *is_dir))
        .map(|(n, _)| format!("{dir_part}{n}"))
        .collect()
}

/// Splits a `-W` word list at `IFS` characters (quotes protect them) and expands each
/// word as bash does: brace, tilde, parameter, command and arithmetic expansion, word
/// splitting and quote removal, but no pathname expansion.
fn wordlist(sh: &mut Interp, list: &str) -> Result<Vec<String>, crate::interp::Flow> {
    let ifs = sh.get_str("IFS").unwrap_or_else(|| " \t\n".to_owned());
    let mut out = Vec::new();
    for w in split_words(list, &ifs) {
        let src = format!(": {}", escape_word(&w));
        // An unclosed quote is closed at the end of the word, as bash's splitter does.
        let parsed = crate::syntax::parser::parse_with(&src, sh.parse_options())
            .or_else(|_| crate::syntax::parser::parse_with(&format!("{src}'"), sh.parse_options()))
            .or_else(|_| {
                crate::syntax::parser::parse_with(&format!("{src}\""), sh.parse_options())
            });
        let Ok(script) = parsed else {
            if w.contains("${") {
                // An unterminated `${` is a bad substitution: like other expansion
                // errors of a builtin it abandons the current command line.
                sh.error(&format!("{w}: bad substitution"));
                return Err(crate::interp::Flow::Abort);
            }
            out.push(w);
            continue;
        };
        let words = simple_words(&script);
        let saved = sh.set.noglob;
        sh.set.noglob = true;
        let r = sh.expand_words(&words);
        sh.set.noglob = saved;
        match r {
            Ok(v) => out.extend(v.into_iter().skip(1)),
            Err(e) => {
                sh.expand_error(e)?;
                return Err(crate::interp::Flow::Abort);
            }
        }
    }
    Ok(out)
}

/// The words of the first simple command of a parsed script.
fn simple_words(script: &crate::syntax::Script) -> Vec<crate::syntax::Word> {
    let Some(list) = script.commands.first() else {
        return Vec::new();
    };
    let Some(item) = list.items.first() else {
        return Vec::new();
    };
    let Some(c) = item.and_or.first.commands.first() else {
        return Vec::new();
    };
    match &c.kind {
        crate::syntax::CommandKind::Simple(s) => s.words.clone(),
        _ => Vec::new(),
    }
}

/// Length in chars of the quoted or nested construct starting at `cs[i]`, if any.
fn construct_len(cs: &[char], i: usize) -> Option<usize> {
    let c = *cs.get(i)?;
    let close = |open: char, close: char, from: usize| -> usize {
        let mut depth = 0usize;
        let mut j = from;
        while let Some(&d) = cs.get(j) {
            match d {
                '\\' => j += 1,
                '\'' | '"' | '`' => {
                    if let Some(n) = construct_len(cs, j) {
                        j += n;
                        continue;
                    }
                }
                d if d == open => depth += 1,
                d if d == close => {
                    if depth <= 1 {
                        return j + 1 - i;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            j += 1;
        }
        cs.len() - i
    };
    match c {
        '\\' => Some(2.min(cs.len() - i)),
        '\'' => Some(
            cs[i + 1..]
                .iter()
                .position(|&d| d == '\'')
                .map_or(cs.len() - i, |p| p + 2),
        ),
        '`' => {
            let mut j = i + 1;
            while let Some(&d) = cs.get(j) {
                match d {
                    '\\' => j += 1,
                    '`' => return Some(j + 1 - i),
                    _ => {}
                }
                j += 1;
            }
            Some(cs.len() - i)
        }
        '"' => {
            let mut j = i + 1;
            while let Some(&d) = cs.get(j) {
                match d {
                    '\\' => j += 1,
                    '"' => return Some(j + 1 - i),
                    '$' | '`' => {
                        if let Some(n) = construct_len(cs, j) {
                            j += n;
                            continue;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            Some(cs.len() - i)
        }
        '$' => match cs.get(i + 1) {
            Some('(') => Some(close('(', ')', i + 1)),
            Some('{') => Some(close('{', '}', i + 1)),
            Some('[') => Some(close('[', ']', i + 1)),
            Some('\'') => construct_len(cs, i + 1).map(|n| n + 1),
            _ => None,
        },
        _ => None,
    }
}

/// Splits at `ifs` characters outside quotes and expansions (bash's `split_at_delims`).
fn split_words(s: &str, ifs: &str) -> Vec<String> {
    let cs: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut i = 0;
    while let Some(&c) = cs.get(i) {
        if let Some(n) = construct_len(&cs, i) {
            cur.extend(cs.iter().skip(i).take(n));
            in_word = true;
            i += n;
            continue;
        }
        if ifs.contains(c) {
            let white = c == ' ' || c == '\t' || c == '\n';
            if in_word || !white {
                out.push(std::mem::take(&mut cur));
            }
            in_word = false;
            i += 1;
            continue;
        }
        cur.push(c);
        in_word = true;
        i += 1;
    }
    if in_word {
        out.push(cur);
    }
    out
}

/// Escapes the characters of one split word that the parser would otherwise take as
/// operators or blanks, leaving quotes and expansions intact.
fn escape_word(w: &str) -> String {
    let cs: Vec<char> = w.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while let Some(&c) = cs.get(i) {
        if let Some(n) = construct_len(&cs, i) {
            out.extend(cs.iter().skip(i).take(n));
            i += n;
            continue;
        }
        if " \t\n;&|()<>".contains(c) || (c == '#' && i == 0) {
            out.push('\\');
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Names of the variables bash binds while a completion function or command runs.
const COMP_VARS: &[&str] = &[
    "COMP_LINE",
    "COMP_POINT",
    "COMP_TYPE",
    "COMP_KEY",
    "COMP_WORDS",
    "COMP_CWORD",
];

/// Binds `COMP_*` for a completion outside any command line (as `compgen` does).
fn bind_comp_vars(sh: &mut Interp, export: bool) {
    for (k, v) in [
        ("COMP_LINE", ""),
        ("COMP_POINT", "0"),
        ("COMP_TYPE", "0"),
        ("COMP_KEY", "0"),
        ("COMP_CWORD", "-1"),
    ] {
        let var = sh.vars.entry(k, false);
        var.value = Some(Value::Str(v.to_owned()));
        if export {
            var.attrs.set(Attrs::EXPORT, true);
        }
    }
    sh.vars.entry("COMP_WORDS", false).value = Some(Value::Indexed(imbl::OrdMap::new()));
}

fn unbind_comp_vars(sh: &mut Interp) {
    for k in COMP_VARS {
        let _ = sh.vars.unset(k);
    }
}

/// `-F`: runs the function with the command name, the word and the previous word, and
/// takes its `COMPREPLY`.
fn function_matches(
    sh: &mut Interp,
    fname: &str,
    cmd: &str,
    word: &str,
) -> Result<Vec<String>, crate::interp::Flow> {
    let Some(f) = sh.funcs.get(fname).cloned() else {
        sh.error(&format!("completion: function `{fname}' not found"));
        return Ok(Vec::new());
    };
    bind_comp_vars(sh, false);
    let words = vec![
        fname.to_owned(),
        cmd.to_owned(),
        word.to_owned(),
        String::new(),
    ];
    let saved_name = std::mem::replace(&mut sh.shell_name, "environment".to_owned());
    let r = sh.call_function(&f, &words);
    sh.shell_name = saved_name;
    unbind_comp_vars(sh);
    let reply = sh.vars.get("COMPREPLY").cloned();
    let _ = sh.vars.unset("COMPREPLY");
    r?;
    Ok(match reply.and_then(|v| v.value) {
        Some(Value::Str(s)) => vec![s],
        Some(Value::Indexed(a)) => a.values().cloned().collect(),
        _ => Vec::new(),
    })
}

/// `-C`: runs the command with the command name, the word and the previous word as
/// arguments and takes its output lines.
fn command_matches(
    sh: &mut Interp,
    command: &str,
    cmd: &str,
    word: &str,
) -> Result<Vec<String>, crate::interp::Flow> {
    let src = format!(
        "{command} {} {} ''",
        super::single_quote(cmd),
        super::single_quote(word)
    );
    let Ok(script) = crate::syntax::parser::parse_with(&src, sh.parse_options()) else {
        return Ok(Vec::new());
    };
    bind_comp_vars(sh, true);
    let r = sh.command_subst(&script);
    unbind_comp_vars(sh);
    match r {
        Ok(text) => Ok(text
            .trim_end_matches('\n')
            .split('\n')
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect()),
        Err(e) => {
            sh.expand_error(e)?;
            Ok(Vec::new())
        }
    }
}
