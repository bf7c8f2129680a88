//! The history list and its builtins (bash manual, "Bash History Builtins"): `history`,
//! `fc`, and `bind`, which in a shell without line editing only warns, lists readline's
//! default tables and remembers `bind -x` commands.
//!
//! A non-interactive shell records no command lines by itself; entries come from
//! `history -s`, `history -r`/`-n` and `fc -s`, or from [`Interp::history_add_line`]
//! when the reader calls it with `set -o history` on.

use std::sync::Arc;

use super::super::histexpand::{self, Outcome};
use super::super::{Interp, R};
use super::complete::{getopt, usage_status};
use crate::expand::pattern::{MatchOpts, Pattern};

const HISTORY_USAGE: &str = "history: usage: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]";
const FC_USAGE: &str =
    "fc: usage: fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]";
const BIND_USAGE: &str = "bind: usage: bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]";

/// One history entry.
#[derive(Clone, Debug)]
struct Entry {
    line: String,
    /// Seconds since the epoch when it was added (0: unknown).
    time: i64,
}

/// The history list with the bookkeeping `history -a` and `-n` need.
#[derive(Clone, Debug)]
pub struct History {
    entries: Arc<Vec<Entry>>,
    /// The number shown for the first entry (grows as `HISTSIZE` drops old ones).
    base: usize,
    /// The `HISTSIZE` the list was last kept to.
    limit: Option<usize>,
    /// Entries added since the file was last appended to (`history -a`).
    lines_this_session: usize,
    /// Lines of the history file already read or written.
    lines_in_file: usize,
    /// Whether the line being run was itself added (it is skipped by `fc`).
    last_line_added: bool,
    /// `set -o history` as last seen, to notice it being turned on.
    enabled: bool,
    /// Whether `history -s` has replaced the line being run already.
    last_line_pushed: bool,
    /// The emacs keymap once `bind` has changed it (`None`: readline's defaults).
    keymap: Option<Arc<Keymap>>,
    /// Readline variables set with `bind 'set name value'`.
    rl_vars: Arc<Vec<(String, String)>>,
    /// What history expansion remembers between lines (last search, last `:s`).
    expand_memory: histexpand::Memory,
    /// The expansion, quick substitution and comment characters, and the value of
    /// `histchars` they were last taken from.
    hist_chars: ([u8; 3], Option<String>),
}

impl Default for History {
    fn default() -> History {
        History {
            entries: Arc::new(Vec::new()),
            base: 1,
            limit: None,
            lines_this_session: 0,
            lines_in_file: 0,
            last_line_added: false,
            enabled: false,
            last_line_pushed: false,
            keymap: None,
            rl_vars: Arc::new(Vec::new()),
            expand_memory: histexpand::Memory::default(),
            hist_chars: (DEFAULT_HISTCHARS, None),
        }
    }
}

/// `histchars` when it is unset.
const DEFAULT_HISTCHARS: [u8; 3] = [b'!', b'^', b'#'];

impl History {
    /// Records whether history is on: true when it has just been turned on.
    pub(crate) fn turned_on(&mut self, on: bool) -> bool {
        !std::mem::replace(&mut self.enabled, on) && on
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    /// The number of the last entry (0 while the list is empty): `$HISTCMD` with
    /// history on.
    pub(crate) fn last_number(&self) -> usize {
        (self.base + self.len()).saturating_sub(1)
    }

    /// The number the prompt's `\!` shows: that of the line being run (the last one
    /// added), or of the first line to come while the list is empty.
    pub(crate) fn current_number(&self) -> usize {
        self.base + self.len().saturating_sub(1)
    }

    fn line(&self, i: usize) -> Option<&str> {
        self.entries.get(i).map(|e| e.line.as_str())
    }

    fn push(&mut self, line: String, time: i64) {
        Arc::make_mut(&mut self.entries).push(Entry { line, time });
        self.lines_this_session += 1;
    }

    fn remove(&mut self, i: usize) -> bool {
        if i >= self.len() {
            return false;
        }
        Arc::make_mut(&mut self.entries).remove(i);
        self.lines_this_session = self.lines_this_session.saturating_sub(1);
        true
    }

    fn clear(&mut self) {
        self.entries = Arc::new(Vec::new());
        self.lines_this_session = 0;
    }

    /// Keeps at most `max` entries (`None`: no limit). Entries dropped under the limit
    /// already in force move the numbering on, as readline's `add_history` does; a new
    /// limit numbers from the count it drops, as readline's `stifle_history` does (so
    /// the numbers bash shows after `HISTSIZE=n` restart low).
    fn stifle(&mut self, max: Option<usize>) {
        if let Some(max) = max {
            let n = self.len();
            if n > max {
                Arc::make_mut(&mut self.entries).drain(..n - max);
                if self.limit == Some(max) {
                    self.base += n - max;
                } else {
                    self.base = n - max;
                }
            }
            // bash's `sv_histsize`: a new limit keeps the count of this session's
            // lines within the list.
            if self.limit != Some(max) {
                self.lines_this_session = self.lines_this_session.min(self.len());
            }
        }
        self.limit = max;
    }
}

impl Interp {
    /// Adds a command line to the history the way the reader does with `set -o history`
    /// (obeying `HISTCONTROL` and `HISTIGNORE`). The reader calls this before running the
    /// line; it does nothing while history is off.
    pub fn history_add_line(&mut self, line: &str) {
        self.history.last_line_added = false;
        self.history.last_line_pushed = false;
        if !self.set.history {
            return;
        }
        let flag = |name| self.shopt.has(crate::interp::Shopts::flag(name));
        let (cmdhist, lithist) = (flag("cmdhist"), flag("lithist"));
        let line = line.strip_suffix('\n').unwrap_or(line);
        if line.trim().is_empty() {
            return;
        }
        if !cmdhist {
            // Without `cmdhist` every line read is an entry of its own.
            let mut added = false;
            for one in line.split('\n').filter(|l| !l.trim().is_empty()) {
                added = check_add(self, one);
            }
            self.history.last_line_added = added;
            return;
        }
        let joined = if lithist {
            line.to_owned()
        } else {
            join_command_lines(line)
        };
        self.history.last_line_added = check_add(self, &joined);
    }

    /// History expansion of the input lines from `*done` (the start of a line) on: at
    /// least one line, then more until `upto` (positions in the parser's text). A line
    /// that expands is shown on stderr and replaces the original; one whose expansion
    /// fails (or that `:p` only shows) is dropped, as bash drops it, and the line after
    /// it is read in its place. `start` and `line` are where the command being read
    /// began, to tell the quoting a line starts in and the line number of an error.
    pub(crate) fn hist_expand_lines(
        &mut self,
        parser: &mut crate::syntax::Parser,
        start: usize,
        line: u32,
        done: &mut usize,
        upto: usize,
    ) {
        let mut upto = upto;
        let mut first = true;
        while *done < parser.text_len() && (first || *done < upto) {
            let (text, end) = parser.line_from(*done);
            let before = parser.text_between(start, *done);
            let quoting = open_quote(&before);
            let next = (end + 1).min(parser.text_len());
            // A here-document's body is read without history expansion.
            let outcome = if heredoc_line_next(&before) {
                Outcome::Unchanged
            } else {
                self.history_expand(&text, quoting)
            };
            // With `histverify` bash hands an expanded line back to the editor instead
            // of running it: a shell reading no terminal drops it unseen.
            let verify = self
                .shopt
                .has(const { crate::interp::Shopts::flag("histverify") });
            match outcome {
                Outcome::Unchanged => {
                    *done = next;
                    first = false;
                }
                Outcome::Expanded(new) if !verify => {
                    self.errln(&new);
                    let grown = new.chars().count();
                    parser.replace_unread(*done..end, &new);
                    upto = (upto + grown).saturating_sub(end - *done);
                    *done = (*done + grown + 1).min(parser.text_len());
                    first = false;
                }
                outcome => {
                    match outcome {
                        Outcome::PrintOnly(shown) => {
                            self.errln(&shown);
                            self.history_add_line(&shown);
                        }
                        Outcome::Failed(msg) => {
                            let name = self.error_source_name();
                            let n = line + before.matches('\n').count() as u32;
                            self.errln(&format!("{name}: line {n}: {msg}"));
                        }
                        _ => {}
                    }
                    parser.replace_unread(*done..next, "");
                    upto = upto.saturating_sub(next - *done);
                }
            }
        }
    }

    /// History expansion of one line of input (or of a `history -p` argument), with
    /// `quoting` the quote (`'` or `"`) the line starts inside, if any.
    pub(crate) fn history_expand(&mut self, line: &str, quoting: u8) -> Outcome {
        let cfg = self.hist_expand_config(quoting);
        if !histexpand::may_expand(line, &cfg) {
            return Outcome::Unchanged;
        }
        let lines: Vec<&str> = self
            .history
            .entries
            .iter()
            .map(|e| e.line.as_str())
            .collect();
        let events = histexpand::Events {
            lines: &lines,
            base: self.history.base as i64,
        };
        let mut mem = std::mem::take(&mut self.history.expand_memory);
        let out = histexpand::expand(line, &events, &cfg, &mut mem);
        self.history.expand_memory = mem;
        out
    }

    /// The settings expansion runs with: `histchars` as bash's `sv_histchars` reads it
    /// (a shorter value keeps the characters it does not give), `extglob`, posix mode.
    fn hist_expand_config(&mut self, quoting: u8) -> histexpand::Config {
        let value = self.get_str("histchars");
        if value != self.history.hist_chars.1 {
            let chars = &mut self.history.hist_chars.0;
            match value.as_deref().map(str::as_bytes) {
                None => *chars = DEFAULT_HISTCHARS,
                Some(v) => {
                    chars[0] = v.first().copied().unwrap_or(0);
                    if let (Some(&a), Some(&b)) = (v.first(), v.get(1))
                        && a != 0
                    {
                        chars[1] = b;
                        if let Some(&c) = v.get(2) {
                            chars[2] = c;
                        }
                    }
                }
            }
            self.history.hist_chars.1 = value;
        }
        let [expand_char, subst_char, comment_char] = self.history.hist_chars.0;
        histexpand::Config {
            expand_char,
            subst_char,
            comment_char,
            extglob: self
                .shopt
                .has(const { crate::interp::Shopts::flag("extglob") }),
            posix: self.set.posix,
            quoting,
            max_len: self.budget.limits.max_string_len,
        }
    }
}

/// The token a line of a command ends with, as `history_delimiting_chars` tells them
/// apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
enum LastToken {
    /// A newline: the line had no token.
    #[default]
    Newline,
    /// A token after which no `;` is added: an operator or a reserved word that a
    /// command follows (`{ ( ; & | && || ;; if then else do while until case in`).
    NoSemi,
    /// `)` closing `(` at once (a function definition), or a case pattern.
    CloseNoSemi,
    /// A word after the reserved word `function`.
    FunctionName,
    /// Any other word or `)`.
    Word,
}

/// bash's `cmdhist` entry for a command read over several lines (`bash_add_history`
/// with `history_delimiting_chars`): each line after the first joins the entry after
/// `"; "`, `" "`, nothing, or a newline (inside quotes, a command substitution or
/// a here-document, after a comment, before a line that starts a here-document), and a
/// backslash-newline is removed.
fn join_command_lines(text: &str) -> String {
    let text = remove_line_continuations(text);
    let mut lines = text.split('\n');
    let mut out = lines.next().unwrap_or_default().to_owned();
    let mut scan = LineScan::default();
    scan.feed(&out);
    for line in lines {
        let delim = if let Some(heredocs) = scan.in_heredoc(line) {
            let _ = heredocs;
            "\n"
        } else if scan.depth > 0 || scan.quote != 0 || scan.comment {
            "\n"
        } else if scan.compound_assign {
            " "
        } else if line.contains("<<") {
            "\n"
        } else {
            match scan.before {
                LastToken::NoSemi | LastToken::CloseNoSemi | LastToken::FunctionName => " ",
                _ if line.trim().is_empty() => {
                    if scan.before == LastToken::Newline {
                        ""
                    } else {
                        "; "
                    }
                }
                LastToken::Newline => " ",
                LastToken::Word => "; ",
            }
        };
        let delim = if out.ends_with('\n') && delim.starts_with(';') {
            &delim[1..]
        } else {
            delim
        };
        out.push_str(delim);
        out.push_str(line);
        if scan.heredoc_body {
            scan.feed_heredoc_line(line);
        } else {
            scan.feed(line);
        }
        if scan.heredoc_ended {
            out.push('\n');
            scan.heredoc_ended = false;
        }
    }
    out
}

/// Whether the line after `before` (the lines of a command read so far, each ending
/// in a newline) belongs to a here-document body.
fn heredoc_line_next(before: &str) -> bool {
    let Some(text) = before.strip_suffix('\n') else {
        return false;
    };
    let text = remove_line_continuations(text);
    let mut scan = LineScan::default();
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 && scan.in_heredoc(line).is_some() {
            scan.feed_heredoc_line(line);
        } else {
            scan.feed(line);
        }
        scan.heredoc_ended = false;
    }
    scan.in_heredoc("").is_some()
}

/// `text` without its backslash-newline pairs (outside single quotes).
fn remove_line_continuations(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut single = false;
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                single = !single;
                out.push(c);
            }
            '\\' if !single => match chars.next() {
                Some('\n') => {}
                Some(d) => {
                    out.push(c);
                    out.push(d);
                }
                None => out.push(c),
            },
            _ => out.push(c),
        }
    }
    out
}

/// What the lines of a command read so far leave open: quotes, command substitutions,
/// here-documents, and the last tokens.
#[derive(Default)]
struct LineScan {
    quote: u8,
    depth: usize,
    comment: bool,
    compound_assign: bool,
    before: LastToken,
    prev_word: String,
    command_position: bool,
    case_pattern: bool,
    pending_heredocs: Vec<String>,
    heredoc_body: bool,
    heredoc_ended: bool,
}

impl LineScan {
    /// Whether `line` belongs to a here-document body (Some), starting the body when
    /// the line before ended with pending here-documents.
    fn in_heredoc(&mut self, _line: &str) -> Option<bool> {
        if !self.heredoc_body && !self.pending_heredocs.is_empty() && self.quote == 0 {
            self.heredoc_body = true;
        }
        self.heredoc_body.then_some(true)
    }

    /// A line of a here-document body: the last one is the delimiter.
    fn feed_heredoc_line(&mut self, line: &str) {
        let Some(delim) = self.pending_heredocs.first() else {
            self.heredoc_body = false;
            return;
        };
        if line.trim_start_matches('\t') == delim.as_str() || line == delim.as_str() {
            self.pending_heredocs.remove(0);
            if self.pending_heredocs.is_empty() {
                self.heredoc_body = false;
                self.heredoc_ended = true;
            }
        }
    }

    /// Scans one line of shell text.
    fn feed(&mut self, line: &str) {
        self.comment = false;
        let had_token = self.quote != 0 || self.depth > 0;
        let mut any = had_token;
        let b = line.as_bytes();
        let mut i = 0;
        let mut word = String::new();
        let mut last = if had_token {
            self.before
        } else {
            LastToken::Newline
        };
        if !had_token && !self.compound_assign {
            self.command_position = true;
        }
        let mut two_ago_open = false;
        let mut heredoc_next = false;
        let finish_word = |word: &mut String,
                           last: &mut LastToken,
                           scan: &mut LineScan,
                           heredoc_next: &mut bool| {
            if word.is_empty() {
                return;
            }
            if *heredoc_next {
                let delim: String = word
                    .chars()
                    .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                    .collect();
                scan.pending_heredocs.push(delim);
                *heredoc_next = false;
                *last = LastToken::Word;
                scan.command_position = false;
                word.clear();
                return;
            }
            let reserved = matches!(
                word.as_str(),
                "if" | "then" | "else" | "do" | "while" | "until" | "case" | "{" | "!" | "elif"
            );
            if scan.prev_word == "function" && scan.command_position_was_function() {
                *last = LastToken::FunctionName;
                scan.command_position = false;
            } else if scan.command_position && reserved {
                *last = if word == "elif" || word == "!" {
                    LastToken::Word
                } else {
                    LastToken::NoSemi
                };
                if word == "elif" || word == "!" {
                    *last = LastToken::Word;
                }
                if word == "case" {
                    scan.case_pattern = false;
                }
                scan.command_position = true;
            } else if word == "in"
                && matches!(scan.prev_word.as_str(), "x-for-name" | "x-case-word")
            {
                *last = LastToken::NoSemi;
                scan.command_position = scan.prev_word == "x-for-name";
                if scan.prev_word == "x-case-word" {
                    scan.case_pattern = true;
                }
            } else {
                *last = LastToken::Word;
                scan.command_position = false;
            }
            let name = match (scan.prev_word.as_str(), word.as_str()) {
                ("for", _) => "x-for-name".to_owned(),
                ("case", _) => "x-case-word".to_owned(),
                _ => std::mem::take(word),
            };
            scan.prev_word = name;
            word.clear();
        };
        while i < b.len() {
            let c = b[i];
            if self.quote == b'\'' {
                if c == b'\'' {
                    self.quote = 0;
                }
                word.push(c as char);
                i += 1;
                continue;
            }
            if self.quote == b'"' {
                match c {
                    b'\\' => i += 1,
                    b'"' => self.quote = 0,
                    b'$' if b.get(i + 1) == Some(&b'(') => {
                        self.depth += 1;
                        i += 1;
                    }
                    _ => {}
                }
                word.push(c as char);
                i += 1;
                continue;
            }
            match c {
                b'\\' => {
                    word.push(c as char);
                    if let Some(&d) = b.get(i + 1) {
                        word.push(d as char);
                    }
                    i += 2;
                    continue;
                }
                b'\'' | b'"' | b'`' => {
                    any = true;
                    if c == b'`' {
                        self.depth = if self.depth > 0 && word.contains('`') {
                            self.depth - 1
                        } else {
                            self.depth + 1
                        };
                    } else {
                        self.quote = c;
                    }
                    word.push(c as char);
                }
                b'$' if b.get(i + 1) == Some(&b'(') => {
                    any = true;
                    self.depth += 1;
                    word.push_str("$(");
                    i += 2;
                    continue;
                }
                b')' if self.depth > 0 => {
                    self.depth -= 1;
                    word.push(')');
                }
                b'(' if self.depth > 0 => {
                    self.depth += 1;
                    word.push('(');
                }
                _ if self.depth > 0 => word.push(c as char),
                b'#' if word.is_empty() => {
                    self.comment = true;
                    break;
                }
                b' ' | b'\t' => finish_word(&mut word, &mut last, self, &mut heredoc_next),
                b'(' if word.ends_with('=') && !word.is_empty() => {
                    self.compound_assign = true;
                    word.push('(');
                }
                b')' if self.compound_assign => {
                    self.compound_assign = false;
                    word.push(')');
                }
                b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>' => {
                    any = true;
                    finish_word(&mut word, &mut last, self, &mut heredoc_next);
                    let mut op = vec![c];
                    while let Some(&d) = b.get(i + 1) {
                        if op.len() < 3
                            && matches!(
                                (op[0], d),
                                (b';', b';')
                                    | (b';', b'&')
                                    | (b'&', b'&')
                                    | (b'|', b'|')
                                    | (b'<', b'<')
                                    | (b'<', b'-')
                                    | (b'>', b'>')
                                    | (b'&', b'>')
                                    | (b'>', b'|')
                                    | (b'>', b'&')
                                    | (b'<', b'&')
                            )
                        {
                            op.push(d);
                            i += 1;
                        } else {
                            break;
                        }
                    }
                    match op.as_slice() {
                        b"<<" | b"<<-" => {
                            heredoc_next = true;
                        }
                        [b'<' | b'>', ..] | [b'&', b'>', ..] => {}
                        b"(" => {
                            last = LastToken::NoSemi;
                            two_ago_open = true;
                            self.command_position = true;
                            i += 1;
                            continue;
                        }
                        b")" => {
                            last = if two_ago_open || self.case_pattern {
                                LastToken::CloseNoSemi
                            } else {
                                LastToken::Word
                            };
                            self.case_pattern = false;
                            self.command_position = true;
                        }
                        b";;" | b";&" | b";;&" => {
                            last = LastToken::NoSemi;
                            self.case_pattern = true;
                            self.command_position = false;
                        }
                        _ => {
                            last = LastToken::NoSemi;
                            self.command_position = true;
                        }
                    }
                    two_ago_open = false;
                    self.prev_word.clear();
                    i += 1;
                    continue;
                }
                _ => word.push(c as char),
            }
            if !matches!(c, b' ' | b'\t') {
                any = true;
                two_ago_open = false;
            }
            i += 1;
        }
        if self.quote == 0 && self.depth == 0 {
            finish_word(&mut word, &mut last, self, &mut heredoc_next);
        }
        self.before = if any { last } else { LastToken::Newline };
        if self.case_pattern && self.before == LastToken::Word && self.quote == 0 {
            self.command_position = false;
        }
    }

    fn command_position_was_function(&self) -> bool {
        true
    }
}

/// The quote a command's text leaves open at its end (`'`, `"` or 0): the quoting the
/// next line of the command starts in, for history expansion.
fn open_quote(text: &str) -> u8 {
    let mut quote = 0u8;
    let mut chars = text.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        match (quote, c) {
            (0, '\\') | (b'"', '\\') => {
                chars.next();
            }
            (0, '\'') => quote = b'\'',
            (0, '"') => quote = b'"',
            (0, '#') if prev.is_whitespace() || matches!(prev, ';' | '&' | '|' | '(' | ')') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            (b'\'', '\'') | (b'"', '"') => quote = 0,
            _ => {}
        }
        prev = c;
    }
    quote
}

/// Applies `HISTSIZE`: a number limits the list; unset, empty or negative does not.
/// bash's `sv_histsize`: unset or empty lifts the limit, as a negative number does;
/// a value that is not a number keeps the limit there was.
fn apply_histsize(sh: &mut Interp) {
    let max = match sh.get_str("HISTSIZE").filter(|s| !s.is_empty()) {
        None => None,
        Some(s) => match s.trim().parse::<i64>() {
            Ok(n) if n >= 0 => Some(usize::try_from(n).unwrap_or(usize::MAX)),
            Ok(_) => None,
            Err(_) => sh.history.limit,
        },
    };
    sh.history.stifle(max);
}

fn now(sh: &Interp) -> i64 {
    sh.fs.lock().clock().now().secs
}

/// bash's `check_add_history`: adds `line` unless `HISTCONTROL` or `HISTIGNORE` say
/// not to. Returns whether it was added.
fn check_add(sh: &mut Interp, line: &str) -> bool {
    let control = sh.get_str("HISTCONTROL").unwrap_or_default();
    let opts: Vec<&str> = control.split(':').collect();
    let has = |o: &str| opts.contains(&o) || (opts.contains(&"ignoreboth") && o != "erasedups");
    if has("ignorespace") && line.starts_with(' ') {
        return false;
    }
    let last = sh
        .history
        .len()
        .checked_sub(1)
        .and_then(|i| sh.history.line(i))
        .map(str::to_owned);
    if has("ignoredups") && last.as_deref() == Some(line) {
        return false;
    }
    if let Some(ignore) = sh.get_str("HISTIGNORE") {
        for pat in ignore.split(':').filter(|p| !p.is_empty()) {
            let pat = pat.replace('&', &last.clone().unwrap_or_default());
            let p = Pattern::new(
                &pat,
                MatchOpts {
                    extglob: sh
                        .shopt
                        .has(const { crate::interp::Shopts::flag("extglob") }),
                    ..MatchOpts::default()
                },
            );
            if p.matches(line) {
                return false;
            }
        }
    }
    if opts.contains(&"erasedups") {
        let keep: Vec<Entry> = sh
            .history
            .entries
            .iter()
            .filter(|e| e.line != line)
            .cloned()
            .collect();
        sh.history.entries = Arc::new(keep);
    }
    // A new HISTSIZE takes effect before the line goes in, as bash applies it when
    // the variable is assigned.
    apply_histsize(sh);
    let t = now(sh);
    sh.history.push(line.to_owned(), t);
    sh.history.last_line_added = true;
    apply_histsize(sh);
    true
}

/// `history`: list, edit, read and write the history list.
pub fn history(sh: &mut Interp, args: &[String]) -> R {
    let (opts, end) = match getopt(sh, "history", args, "acd:npsrw", false) {
        Ok(v) => v,
        Err(e) => return usage_status(sh, "history", e, HISTORY_USAGE),
    };
    apply_histsize(sh);
    let rest: Vec<String> = args.get(end..).unwrap_or_default().to_vec();
    let has = |c: char| opts.iter().any(|(o, _, _)| *o == c);
    let delete = opts
        .iter()
        .rev()
        .find(|(o, _, _)| *o == 'd')
        .and_then(|(_, _, a)| a.clone());
    let files = ['a', 'n', 'r', 'w'].iter().filter(|c| has(**c)).count();
    if files > 1 {
        sh.builtin_error("history", "cannot use more than one of -anrw");
        return Ok(1);
    }
    if has('c') {
        sh.history.clear();
        if rest.is_empty() {
            return Ok(0);
        }
    }
    if has('s') {
        if !rest.is_empty() {
            // The `history -s` line itself gives way to the words (once a line), while
            // history is on.
            if !sh.history.last_line_pushed && sh.history.last_line_added && sh.set.history {
                let last = sh.history.len().saturating_sub(1);
                sh.history.remove(last);
            }
            check_add(sh, &rest.join(" "));
            sh.history.last_line_pushed = true;
        }
        return Ok(0);
    }
    if has('p') {
        // bash drops the `history -p` line from the list (at each call on the line)
        // when there are words to expand.
        if !rest.is_empty() && !sh.history.last_line_pushed && sh.history.last_line_added {
            let last = sh.history.len().saturating_sub(1);
            sh.history.remove(last);
        }
        let mut status = 0;
        let mut out = String::new();
        for w in &rest {
            match sh.history_expand(w, 0) {
                Outcome::Unchanged => {
                    out.push_str(w);
                    out.push('\n');
                }
                Outcome::Expanded(s) | Outcome::PrintOnly(s) => {
                    out.push_str(&s);
                    out.push('\n');
                }
                Outcome::Failed(_) => {
                    sh.out(out.as_bytes())?;
                    out.clear();
                    sh.builtin_error("history", &format!("{w}: history expansion failed"));
                    status = 1;
                }
            }
        }
        sh.out(out.as_bytes())?;
        return Ok(status);
    }
    if let Some(d) = delete {
        return delete_entries(sh, &d);
    }
    if files == 0 && !has('c') {
        return display(sh, &rest);
    }
    let filename = match rest.first() {
        Some(f) if sh.restricted && f.contains('/') => {
            sh.builtin_error("history", &format!("{f}: restricted"));
            return Ok(1);
        }
        Some(f) => f.clone(),
        None => match sh.get_str("HISTFILE") {
            Some(f) => f,
            None => format!("{}/.history", sh.get_str("HOME").unwrap_or_default()),
        },
    };
    if filename.is_empty() {
        return Ok(1);
    }
    let path = crate::fs::path::join(&sh.cwd, &filename);
    if has('a') {
        return append_file(sh, &path, &filename);
    }
    if has('w') {
        let data = file_text(sh, 0);
        let mode = history_file_mode(sh);
        return Ok(i32::from(
            sh.fs
                .lock()
                .write_file_mode(&path, data.as_bytes(), mode)
                .is_err(),
        ));
    }
    if (has('r') || has('n')) && !read_into_list(sh, &path, has('n')) {
        return Ok(1);
    }
    Ok(0)
}

/// `history -r` (`new_only`: `-n`, the lines not read yet) of the file at `path`, kept
/// to HISTSIZE; false when it cannot be read. Lines `-n` reads count as this session's.
fn read_into_list(sh: &mut Interp, path: &str, new_only: bool) -> bool {
    let from = if new_only {
        sh.history.lines_in_file
    } else {
        0
    };
    let Some(lines) = read_file(sh, path) else {
        return false;
    };
    let total = lines.len();
    let old_len = sh.history.len();
    let old_base = sh.history.base;
    let session = sh.history.lines_this_session;
    for (line, time) in lines.into_iter().skip(from) {
        let t = time.unwrap_or(0);
        sh.history.push(line, t);
    }
    apply_histsize(sh);
    let added = (sh.history.len() + sh.history.base) - (old_len + old_base);
    sh.history.lines_this_session = if new_only { session + added } else { session };
    sh.history.lines_in_file = total;
    true
}

/// The history entries from `from` on, as `history -w` writes them (with `#time`
/// lines when `HISTTIMEFORMAT` is set).
fn file_text(sh: &Interp, from: usize) -> String {
    let stamps = sh.get_str("HISTTIMEFORMAT").is_some();
    let mut out = String::new();
    for e in sh.history.entries.iter().skip(from) {
        if stamps && e.time != 0 {
            out.push_str(&format!("#{}\n", e.time));
        }
        out.push_str(&e.line);
        out.push('\n');
    }
    out
}

/// The seconds a history file's `#seconds` line gives; None for a command line.
fn timestamp(line: &str) -> Option<i64> {
    line.strip_prefix('#').and_then(|s| s.parse::<i64>().ok())
}

/// Reads a history file: its lines with the `#seconds` timestamp before each, if any.
fn read_file(sh: &Interp, path: &str) -> Option<Vec<(String, Option<i64>)>> {
    let data = sh.fs.lock().read_file(path).ok()?;
    let text = crate::text::decode(&data);
    let mut out = Vec::new();
    let mut stamp = None;
    for line in text.lines() {
        if let Some(t) = timestamp(line) {
            stamp = Some(t);
            continue;
        }
        out.push((line.to_owned(), stamp.take()));
    }
    Some(out)
}

/// HISTFILE as a path, when it is set and not empty.
fn histfile_path(sh: &Interp) -> Option<String> {
    let file = sh.get_str("HISTFILE").filter(|f| !f.is_empty())?;
    Some(crate::fs::path::join(&sh.cwd, &file))
}

/// History being turned on (`set -o history`, `bash -o history`): HISTSIZE gets its
/// default of 500 and HISTFILESIZE the value of HISTSIZE when unset, and while this
/// session has added no line (since the start, `history -c` or `history -a`) the
/// history file is read into the list, as bash does for a non-interactive shell.
pub(crate) fn history_enabled(sh: &mut Interp) {
    if sh.get_str("HISTSIZE").is_none() {
        let _ = sh.assign_scalar("HISTSIZE", "500".to_owned(), false);
    }
    if sh.get_str("HISTFILESIZE").is_none() {
        let size = sh.get_str("HISTSIZE").unwrap_or_default();
        let _ = sh.assign_scalar("HISTFILESIZE", size, false);
    }
    if sh.history.lines_this_session != 0 {
        return;
    }
    if let Some(path) = histfile_path(sh) {
        read_into_list(sh, &path, false);
    }
}

/// A shell exiting with history on saves it: the lines this session added are
/// appended to HISTFILE (made 0600 when missing), then the file keeps only its last
/// HISTFILESIZE entries, from the first one's line on. Failures are silent.
pub(crate) fn save_at_exit(sh: &mut Interp) {
    if !sh.set.history {
        return;
    }
    apply_histsize(sh);
    if sh.history.lines_this_session == 0 {
        return;
    }
    let Some(path) = histfile_path(sh) else {
        return;
    };
    // bash's `maybe_save_shell_history`: the session's lines are appended while the
    // list still holds them all; once `HISTSIZE` has dropped some of them (or all,
    // with `HISTSIZE=0`), the list as it stands replaces the file.
    let histappend = sh
        .shopt
        .has(const { crate::interp::Shopts::flag("histappend") });
    if sh.history.lines_this_session > sh.history.len() && !histappend {
        let data = file_text(sh, 0);
        let mode = history_file_mode(sh);
        let written = sh.fs.lock().write_file_mode(&path, data.as_bytes(), mode);
        sh.history.lines_in_file = sh.history.len();
        sh.history.lines_this_session = 0;
        if written.is_err() {
            return;
        }
    } else if append_session(sh, &path) != Ok(true) {
        return;
    }
    let Some(max) = sh
        .get_str("HISTFILESIZE")
        .and_then(|s| s.trim().parse::<usize>().ok())
    else {
        return;
    };
    let mut fs = sh.fs.lock();
    let Ok(data) = fs.read_file(&path) else {
        return;
    };
    let text = crate::text::decode(&data);
    let lines: Vec<&str> = text.lines().collect();
    let entries: Vec<usize> = (0..lines.len())
        .filter(|&i| timestamp(lines[i]).is_none())
        .collect();
    // The cut falls on the first kept entry's own line, so its timestamp goes too.
    if entries.len() < max {
        return;
    }
    let from = entries
        .get(entries.len() - max)
        .copied()
        .unwrap_or(lines.len());
    let mut kept = lines[from..].join("\n");
    if !kept.is_empty() {
        kept.push('\n');
    }
    let _ = fs.write_file(&path, kept.as_bytes());
}

/// `history -a`: appends this session's new entries to the file.
/// The mode of a history file bash creates: readline opens it 0600, less the umask.
fn history_file_mode(sh: &Interp) -> u32 {
    0o600 & !sh.umask
}

fn append_file(sh: &mut Interp, path: &str, shown: &str) -> R {
    match append_session(sh, path) {
        Ok(appended) => Ok(i32::from(!appended)),
        Err(msg) => {
            sh.builtin_error("history", &format!("{shown}: cannot create: {msg}"));
            Ok(1)
        }
    }
}

/// Appends the entries this session added to the file at `path` (made when missing)
/// and counts them as written: whether the append worked, or why the file could not
/// be made.
fn append_session(sh: &mut Interp, path: &str) -> Result<bool, String> {
    let n = sh.history.lines_this_session.min(sh.history.len());
    if n == 0 {
        sh.history.lines_this_session = 0;
        return Ok(true);
    }
    let mode = history_file_mode(sh);
    if !sh.fs.lock().exists(path) {
        sh.fs
            .lock()
            .write_file_mode(path, b"", mode)
            .map_err(|e| e.to_string())?;
    }
    let data = file_text(sh, sh.history.len() - n);
    let r = sh.fs.lock().append_file(path, data.as_bytes());
    sh.history.lines_in_file += n;
    sh.history.lines_this_session = 0;
    Ok(r.is_ok())
}

/// `history -d offset` and `history -d start-end`.
fn delete_entries(sh: &mut Interp, arg: &str) -> R {
    let len = sh.history.len() as i64;
    let base = sh.history.base as i64;
    let range_at = arg
        .char_indices()
        .skip(usize::from(arg.starts_with('-')))
        .find(|(_, c)| *c == '-')
        .map(|(i, _)| i);
    let erange = |sh: &Interp, what: &str| {
        sh.builtin_error("history", &format!("{what}: history position out of range"));
        Ok(1)
    };
    if let Some(at) = range_at {
        let (a, b) = (&arg[..at], &arg[at + 1..]);
        let (Some(mut start), Some(mut end)) = (parse_num(a), parse_num(b)) else {
            return erange(sh, arg);
        };
        if a.starts_with('-') && start < 0 {
            start += len;
            if start < base {
                return erange(sh, a);
            }
        } else if start > 0 {
            start -= base;
        }
        if start < 0 || start >= len {
            return erange(sh, a);
        }
        if b.starts_with('-') && end < 0 {
            end += len;
            if end < base {
                return erange(sh, b);
            }
        } else if end > 0 {
            end -= base;
        }
        if end < 0 || end >= len {
            return erange(sh, b);
        }
        // readline's `remove_history_range` refuses a range that runs backwards.
        if start > end {
            return Ok(1);
        }
        let mut i = end;
        while i >= start {
            sh.history.remove(usize::try_from(i).unwrap_or(0));
            i -= 1;
        }
        return Ok(0);
    }
    let Some(off) = parse_num(arg) else {
        return erange(sh, arg);
    };
    let index = if arg.starts_with('-') && off < 0 {
        let ind = len + off;
        if ind < 0 {
            return erange(sh, arg);
        }
        ind
    } else if off < base || off >= base + len {
        return erange(sh, arg);
    } else {
        off - base
    };
    Ok(i32::from(
        !sh.history
            .remove(usize::try_from(index).unwrap_or(usize::MAX)),
    ))
}

/// bash's `legal_number`: optional blanks and sign, digits, optional blanks.
fn parse_num(s: &str) -> Option<i64> {
    let t = s.trim();
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// `history [n]`: the last `n` entries (all without `n`), numbered.
fn display(sh: &mut Interp, rest: &[String]) -> R {
    let limit = match rest {
        [] => None,
        [n] => match parse_num(n) {
            Some(v) => Some(v.unsigned_abs()),
            None => {
                sh.builtin_error("history", &format!("{n}: numeric argument required"));
                return Ok(1);
            }
        },
        // A count that is not a number is reported before the extra arguments.
        [n, ..] if parse_num(n).is_none() => {
            sh.builtin_error("history", &format!("{n}: numeric argument required"));
            return Ok(1);
        }
        _ => {
            // bash jumps to the top level (DISCARD): the rest of the command is
            // abandoned, and a `-c` shell or a subshell ends.
            sh.builtin_error("history", "too many arguments");
            sh.status = 1;
            return Err(sh.discard_flow());
        }
    };
    let len = sh.history.len();
    let start = match limit {
        Some(l) if (l as usize) < len => len - l as usize,
        _ => 0,
    };
    let fmt = sh.get_str("HISTTIMEFORMAT").filter(|f| !f.is_empty());
    let zone = sh.zone();
    let mut out = String::new();
    for (i, e) in sh.history.entries.iter().enumerate().skip(start) {
        let stamp = match &fmt {
            Some(f) if e.time != 0 => zone.strftime(f, e.time, 0),
            Some(_) => "??".to_owned(),
            None => String::new(),
        };
        out.push_str(&format!("{:5}  {stamp}{}\n", i + sh.history.base, e.line));
    }
    sh.out_status("history", out.as_bytes())
}

/// bash's `fc_gethnum`: the index a history specification names, or `Err(true)` when
/// no command matches (`Err(false)`: an invalid specification).
fn fc_gethnum(sh: &Interp, spec: Option<&str>, listing: bool, first: bool) -> Result<i64, bool> {
    let h = &sh.history;
    let count = h.len() as i64;
    let last = last_hist(sh);
    if last < 0 {
        return Ok(-1);
    }
    let i = last;
    let Some(spec) = spec else {
        return Ok(i);
    };
    let real_last = (count - 1).max(0);
    let (sign, digits) = match spec.strip_prefix('-') {
        Some(rest) => (-1i64, rest),
        None => (1, spec),
    };
    if digits.starts_with(|c: char| c.is_ascii_digit()) {
        let n: i64 = digits
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse::<i64>()
            .unwrap_or(i64::MAX)
            .saturating_mul(sign);
        if n < 0 {
            let n = n + i + 1;
            return Ok(n.max(0));
        }
        if n == 0 {
            return if sign == -1 {
                if listing { Ok(real_last) } else { Err(false) }
            } else {
                Ok(i)
            };
        }
        let n = n - h.base as i64;
        if n < 0 || n >= i {
            return Ok(if first { 0 } else { i });
        }
        return Ok(n);
    }
    let mut j = i;
    while j >= 0 {
        if h.line(usize::try_from(j).unwrap_or(0))
            .is_some_and(|l| l.starts_with(spec))
        {
            return Ok(j);
        }
        j -= 1;
    }
    Err(true)
}

/// The index of the last entry `fc` works on: the one before the `fc` line itself when
/// that line was recorded.
fn last_hist(sh: &Interp) -> i64 {
    let count = sh.history.len() as i64;
    let mut last = count - i64::from(sh.set.history) - i64::from(sh.history.last_line_added);
    if last == count {
        last = count - 1;
    }
    last
}

/// bash's `strsub` as `fc -s pat=rep` uses it: every occurrence of `pat` replaced, left
/// to right; an empty `pat` stands at each character, which `rep` replaces.
fn strsub(text: &str, pat: &str, rep: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with(pat) {
            out.push_str(rep);
            let skip = if pat.is_empty() {
                c.len_utf8()
            } else {
                pat.len()
            };
            rest = &rest[skip..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// `fc`: list history entries, or edit and re-run them (`-s` and `-e -` re-run without
/// an editor).
pub fn fc(sh: &mut Interp, args: &[String]) -> R {
    let mut numbering = true;
    let mut reverse = false;
    let mut listing = false;
    let mut execute = false;
    let mut ename: Option<String> = None;
    let mut i = 1;
    // Options stop at a number, so `fc -l -3` takes `-3` as a history offset.
    while let Some(a) = args.get(i) {
        if a == "--" {
            i += 1;
            break;
        }
        if !a.starts_with('-') || a.len() < 2 || parse_num(&a[1..]).is_some() {
            break;
        }
        let cs: Vec<char> = a.chars().skip(1).collect();
        let mut j = 0;
        while let Some(&c) = cs.get(j) {
            j += 1;
            match c {
                'n' => numbering = false,
                'l' => listing = true,
                'r' => reverse = true,
                's' => execute = true,
                'e' => {
                    let rest: String = cs[j..].iter().collect();
                    if !rest.is_empty() {
                        ename = Some(rest);
                    } else if let Some(n) = args.get(i + 1) {
                        i += 1;
                        ename = Some(n.clone());
                    } else {
                        sh.builtin_error("fc", "-e: option requires an argument");
                        sh.errln(FC_USAGE);
                        return Ok(2);
                    }
                    break;
                }
                c => {
                    sh.builtin_error("fc", &format!("-{c}: invalid option"));
                    sh.errln(FC_USAGE);
                    return Ok(2);
                }
            }
        }
        i += 1;
    }
    apply_histsize(sh);
    let mut rest: Vec<String> = args.get(i..).unwrap_or_default().to_vec();
    if ename.as_deref() == Some("-") {
        execute = true;
    }
    if execute {
        let mut subs = Vec::new();
        while let Some(w) = rest.first() {
            let Some((pat, rep)) = w.split_once('=') else {
                break;
            };
            subs.push((pat.to_owned(), rep.to_owned()));
            rest.remove(0);
        }
        let found = match fc_gethnum(sh, rest.first().map(String::as_str), false, false) {
            Ok(n) if n >= 0 => sh.history.line(usize::try_from(n).unwrap_or(0)),
            _ => None,
        };
        let Some(mut command) = found.map(str::to_owned) else {
            sh.builtin_error("fc", "no command found");
            return Ok(1);
        };
        for (pat, rep) in subs {
            command = strsub(&command, &pat, &rep);
        }
        sh.errln(&command);
        if !command.is_empty() {
            let n = sh.history.len();
            if n > 0 {
                sh.history.remove(n - 1);
            }
            check_add(sh, &command);
        }
        return sh.run_source(&command, Some("fc"));
    }
    if sh.history.len() == 0 {
        return Ok(0);
    }
    let last = last_hist(sh).max(0);
    let real_last = sh.history.len() as i64 - 1;
    let (beg, end) = if let Some(first) = rest.first().cloned() {
        let beg = fc_gethnum(sh, Some(&first), listing, true);
        let end = match rest.get(1) {
            Some(s) => fc_gethnum(sh, Some(s), listing, false),
            None => match beg {
                Ok(b) if b == real_last => Ok(if listing { real_last } else { b }),
                Ok(b) => Ok(if listing { last } else { b }),
                Err(e) => Err(e),
            },
        };
        (beg, end)
    } else if listing {
        (Ok((last - 15).max(0)), Ok(last))
    } else {
        (Ok(last), Ok(last))
    };
    let (mut beg, mut end) = match (beg, end) {
        (Ok(b), Ok(e)) => (b.max(0), e.max(0)),
        (Err(true), _) | (_, Err(true)) => {
            sh.builtin_error("fc", "no command found");
            return Ok(1);
        }
        _ => {
            sh.builtin_error("fc", "history specification out of range");
            return Ok(1);
        }
    };
    // The `fc` line itself is not kept when editing: bash drops the last entry added.
    if !listing && sh.history.last_line_added {
        let mut last_h = last;
        let n = sh.history.len();
        sh.history.remove(n.saturating_sub(1));
        let gone = |k: i64| k < 0 || k >= (n as i64 - 1);
        if beg == end && end == last_h && gone(last_h) {
            end -= 1;
            beg = end;
            last_h = end;
        }
        if gone(last_h) {
            last_h -= 1;
        }
        if end >= last_h {
            end = last_h;
        } else if beg >= last_h {
            beg = last_h;
        }
        beg = beg.max(0);
        end = end.max(0);
    }
    if end < beg {
        std::mem::swap(&mut beg, &mut end);
        reverse = true;
    }
    let mut idx: Vec<usize> = (usize::try_from(beg).unwrap_or(0)
        ..=usize::try_from(end).unwrap_or(0))
        .filter(|j| *j < sh.history.len())
        .collect();
    if reverse {
        idx.reverse();
    }
    if listing {
        let mut out = String::new();
        for j in idx {
            if numbering {
                out.push_str(&(j + sh.history.base).to_string());
            }
            out.push_str("\t ");
            out.push_str(sh.history.line(j).unwrap_or_default());
            out.push('\n');
        }
        return sh.out_status("fc", out.as_bytes());
    }
    fc_edit(sh, &idx, ename)
}

/// Writes the entries to a temporary file, runs the editor on it and then the edited
/// commands, echoing them as `set -v` would.
fn fc_edit(sh: &mut Interp, idx: &[usize], ename: Option<String>) -> R {
    let mut text = String::new();
    for j in idx {
        text.push_str(sh.history.line(*j).unwrap_or_default());
        text.push('\n');
    }
    let tmpdir = sh
        .get_str("TMPDIR")
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| "/tmp".to_owned());
    // The editor runs while the file exists, so the shell's own pid keeps it apart
    // from another shell's.
    let file = format!("{}/bash-fc.{}", tmpdir.trim_end_matches('/'), sh.bashpid);
    let written = sh.fs.lock().write_file(&file, text.as_bytes());
    if let Err(e) = written {
        sh.builtin_error("fc", &format!("{file}: cannot open temp file: {e}"));
        return Ok(1);
    }
    let editor = match ename {
        Some(e) => e,
        None => "${FCEDIT:-${EDITOR:-vi}}".to_owned(),
    };
    let status = sh.run_source(&format!("{editor} {file}"), Some("fc"))?;
    if status != 0 {
        let _ = sh.fs.lock().remove_file(&file);
        return Ok(1);
    }
    let edited = sh.fs.lock().read_file(&file).map(|d| d.to_vec());
    let Ok(edited) = edited else {
        return Ok(1);
    };
    let edited = crate::text::decode(&edited);
    // bash reads the file with history on, so each line read is recorded.
    for line in edited.lines() {
        if !line.trim().is_empty() {
            check_add(sh, line);
        }
    }
    // bash runs the file as `.` would (its errors name the file), echoing each
    // command as it reads it, and removes the file after.
    sh.echo_read = true;
    let r = super::misc::source(sh, &[".".to_owned(), file.clone()]);
    sh.echo_read = false;
    let _ = sh.fs.lock().remove_file(&file);
    r
}

/// Readline's default emacs key bindings, as `bind -p` prints them.
const BIND_P: &str = r##""\C-g": abort
"\C-x\C-g": abort
"\e\C-g": abort
"\C-j": accept-line
"\C-m": accept-line
# alias-expand-line (not bound)
# arrow-key-prefix (not bound)
# backward-byte (not bound)
"\C-b": backward-char
"\eOD": backward-char
"\e[D": backward-char
"\C-h": backward-delete-char
"\C-?": backward-delete-char
"\C-x\C-?": backward-kill-line
"\e\C-h": backward-kill-word
"\e\C-?": backward-kill-word
"\e\e[D": backward-word
"\e[1;3D": backward-word
"\e[1;5D": backward-word
"\e[5D": backward-word
"\eb": backward-word
"\e<": beginning-of-history
"\C-a": beginning-of-line
"\eOH": beginning-of-line
"\e[1~": beginning-of-line
"\e[H": beginning-of-line
"\e[200~": bracketed-paste-begin
"\C-xe": call-last-kbd-macro
"\ec": capitalize-word
"\C-]": character-search
"\e\C-]": character-search-backward
"\e\C-l": clear-display
"\C-l": clear-screen
"\C-i": complete
"\e\e\000": complete
"\e!": complete-command
"\e/": complete-filename
"\e@": complete-hostname
"\e{": complete-into-braces
"\e~": complete-username
"\e$": complete-variable
# copy-backward-word (not bound)
# copy-forward-word (not bound)
# copy-region-as-kill (not bound)
# dabbrev-expand (not bound)
"\C-d": delete-char
"\e[3~": delete-char
# delete-char-or-list (not bound)
"\e\\": delete-horizontal-space
"\e-": digit-argument
"\e0": digit-argument
"\e1": digit-argument
"\e2": digit-argument
"\e3": digit-argument
"\e4": digit-argument
"\e5": digit-argument
"\e6": digit-argument
"\e7": digit-argument
"\e8": digit-argument
"\e9": digit-argument
"\C-x\C-v": display-shell-version
"\C-xA": do-lowercase-version
"\C-xB": do-lowercase-version
"\C-xC": do-lowercase-version
"\C-xD": do-lowercase-version
"\C-xE": do-lowercase-version
"\C-xF": do-lowercase-version
"\C-xG": do-lowercase-version
"\C-xH": do-lowercase-version
"\C-xI": do-lowercase-version
"\C-xJ": do-lowercase-version
"\C-xK": do-lowercase-version
"\C-xL": do-lowercase-version
"\C-xM": do-lowercase-version
"\C-xN": do-lowercase-version
"\C-xO": do-lowercase-version
"\C-xP": do-lowercase-version
"\C-xQ": do-lowercase-version
"\C-xR": do-lowercase-version
"\C-xS": do-lowercase-version
"\C-xT": do-lowercase-version
"\C-xU": do-lowercase-version
"\C-xV": do-lowercase-version
"\C-xW": do-lowercase-version
"\C-xX": do-lowercase-version
"\C-xY": do-lowercase-version
"\C-xZ": do-lowercase-version
"\eA": do-lowercase-version
"\eB": do-lowercase-version
"\eC": do-lowercase-version
"\eD": do-lowercase-version
"\eE": do-lowercase-version
"\eF": do-lowercase-version
"\eG": do-lowercase-version
"\eH": do-lowercase-version
"\eI": do-lowercase-version
"\eJ": do-lowercase-version
"\eK": do-lowercase-version
"\eL": do-lowercase-version
"\eM": do-lowercase-version
"\eN": do-lowercase-version
"\eP": do-lowercase-version
"\eQ": do-lowercase-version
"\eR": do-lowercase-version
"\eS": do-lowercase-version
"\eT": do-lowercase-version
"\eU": do-lowercase-version
"\eV": do-lowercase-version
"\eW": do-lowercase-version
"\eX": do-lowercase-version
"\eY": do-lowercase-version
"\eZ": do-lowercase-version
"\el": downcase-word
# dump-functions (not bound)
# dump-macros (not bound)
# dump-variables (not bound)
"\e\C-i": dynamic-complete-history
"\C-x\C-e": edit-and-execute-command
# emacs-editing-mode (not bound)
"\C-x)": end-kbd-macro
"\e>": end-of-history
"\C-e": end-of-line
"\eOF": end-of-line
"\e[4~": end-of-line
"\e[F": end-of-line
"\C-x\C-x": exchange-point-and-mark
# fetch-history (not bound)
# forward-backward-delete-char (not bound)
# forward-byte (not bound)
"\C-f": forward-char
"\eOC": forward-char
"\e[C": forward-char
"\C-s": forward-search-history
"\e\e[C": forward-word
"\e[1;3C": forward-word
"\e[1;5C": forward-word
"\e[5C": forward-word
"\ef": forward-word
"\eg": glob-complete-word
"\C-x*": glob-expand-word
"\C-xg": glob-list-expansions
# history-and-alias-expand-line (not bound)
"\e^": history-expand-line
# history-search-backward (not bound)
# history-search-forward (not bound)
# history-substring-search-backward (not bound)
# history-substring-search-forward (not bound)
"\e#": insert-comment
"\e*": insert-completions
"\e.": insert-last-argument
"\e_": insert-last-argument
"\C-k": kill-line
# kill-region (not bound)
# kill-whole-line (not bound)
"\e[3;5~": kill-word
"\ed": kill-word
# magic-space (not bound)
# menu-complete (not bound)
# menu-complete-backward (not bound)
"\C-n": next-history
"\eOB": next-history
"\e[B": next-history
# next-screen-line (not bound)
"\en": non-incremental-forward-search-history
# non-incremental-forward-search-history-again (not bound)
"\ep": non-incremental-reverse-search-history
# non-incremental-reverse-search-history-again (not bound)
# old-menu-complete (not bound)
"\C-o": operate-and-get-next
# overwrite-mode (not bound)
"\C-x!": possible-command-completions
"\e=": possible-completions
"\e?": possible-completions
"\C-x/": possible-filename-completions
"\C-x@": possible-hostname-completions
"\C-x~": possible-username-completions
"\C-x$": possible-variable-completions
"\C-p": previous-history
"\eOA": previous-history
"\e[A": previous-history
# previous-screen-line (not bound)
# print-last-kbd-macro (not bound)
"\C-q": quoted-insert
"\C-v": quoted-insert
"\e[2~": quoted-insert
"\C-x\C-r": re-read-init-file
# redraw-current-line (not bound)
"\C-r": reverse-search-history
"\e\C-r": revert-line
"\er": revert-line
" ": self-insert
"!": self-insert
"\"": self-insert
"#": self-insert
"$": self-insert
"%": self-insert
"&": self-insert
"'": self-insert
"(": self-insert
")": self-insert
"*": self-insert
"+": self-insert
",": self-insert
"-": self-insert
".": self-insert
"/": self-insert
"0": self-insert
"1": self-insert
"2": self-insert
"3": self-insert
"4": self-insert
"5": self-insert
"6": self-insert
"7": self-insert
"8": self-insert
"9": self-insert
":": self-insert
";": self-insert
"<": self-insert
"=": self-insert
">": self-insert
"?": self-insert
"@": self-insert
"A": self-insert
"B": self-insert
"C": self-insert
"D": self-insert
"E": self-insert
"F": self-insert
"G": self-insert
"H": self-insert
"I": self-insert
"J": self-insert
"K": self-insert
"L": self-insert
"M": self-insert
"N": self-insert
"O": self-insert
"P": self-insert
"Q": self-insert
"R": self-insert
"S": self-insert
"T": self-insert
"U": self-insert
"V": self-insert
"W": self-insert
"X": self-insert
"Y": self-insert
"Z": self-insert
"[": self-insert
"\\": self-insert
"]": self-insert
"^": self-insert
"_": self-insert
"`": self-insert
"a": self-insert
"b": self-insert
"c": self-insert
"d": self-insert
"e": self-insert
"f": self-insert
"g": self-insert
"h": self-insert
"i": self-insert
"j": self-insert
"k": self-insert
"l": self-insert
"m": self-insert
"n": self-insert
"o": self-insert
"p": self-insert
"q": self-insert
"r": self-insert
"s": self-insert
"t": self-insert
"u": self-insert
"v": self-insert
"w": self-insert
"x": self-insert
"y": self-insert
"z": self-insert
"{": self-insert
"|": self-insert
"}": self-insert
"~": self-insert
"\200": self-insert
"\201": self-insert
"\202": self-insert
"\203": self-insert
"\204": self-insert
"\205": self-insert
"\206": self-insert
"\207": self-insert
"\210": self-insert
"\211": self-insert
"\212": self-insert
"\213": self-insert
"\214": self-insert
"\215": self-insert
"\216": self-insert
"\217": self-insert
"\220": self-insert
"\221": self-insert
"\222": self-insert
"\223": self-insert
"\224": self-insert
"\225": self-insert
"\226": self-insert
"\227": self-insert
"\230": self-insert
"\231": self-insert
"\232": self-insert
"\233": self-insert
"\234": self-insert
"\235": self-insert
"\236": self-insert
"\237": self-insert
"\240": self-insert
"\241": self-insert
"\242": self-insert
"\243": self-insert
"\244": self-insert
"\245": self-insert
"\246": self-insert
"\247": self-insert
"\250": self-insert
"\251": self-insert
"\252": self-insert
"\253": self-insert
"\254": self-insert
"\255": self-insert
"\256": self-insert
"\257": self-insert
"\260": self-insert
"\261": self-insert
"\262": self-insert
"\263": self-insert
"\264": self-insert
"\265": self-insert
"\266": self-insert
"\267": self-insert
"\270": self-insert
"\271": self-insert
"\272": self-insert
"\273": self-insert
"\274": self-insert
"\275": self-insert
"\276": self-insert
"\277": self-insert
"\300": self-insert
"\301": self-insert
"\302": self-insert
"\303": self-insert
"\304": self-insert
"\305": self-insert
"\306": self-insert
"\307": self-insert
"\310": self-insert
"\311": self-insert
"\312": self-insert
"\313": self-insert
"\314": self-insert
"\315": self-insert
"\316": self-insert
"\317": self-insert
"\320": self-insert
"\321": self-insert
"\322": self-insert
"\323": self-insert
"\324": self-insert
"\325": self-insert
"\326": self-insert
"\327": self-insert
"\330": self-insert
"\331": self-insert
"\332": self-insert
"\333": self-insert
"\334": self-insert
"\335": self-insert
"\336": self-insert
"\337": self-insert
"\340": self-insert
"\341": self-insert
"\342": self-insert
"\343": self-insert
"\344": self-insert
"\345": self-insert
"\346": self-insert
"\347": self-insert
"\350": self-insert
"\351": self-insert
"\352": self-insert
"\353": self-insert
"\354": self-insert
"\355": self-insert
"\356": self-insert
"\357": self-insert
"\360": self-insert
"\361": self-insert
"\362": self-insert
"\363": self-insert
"\364": self-insert
"\365": self-insert
"\366": self-insert
"\367": self-insert
"\370": self-insert
"\371": self-insert
"\372": self-insert
"\373": self-insert
"\374": self-insert
"\375": self-insert
"\376": self-insert
"\377": self-insert
"\C-@": set-mark
"\e ": set-mark
# shell-backward-kill-word (not bound)
"\e\C-b": shell-backward-word
"\e\C-e": shell-expand-line
"\e\C-f": shell-forward-word
"\e\C-d": shell-kill-word
"\e\C-t": shell-transpose-words
# skip-csi-sequence (not bound)
"\C-xs": spell-correct-word
"\C-x(": start-kbd-macro
# tab-insert (not bound)
"\e&": tilde-expand
"\C-t": transpose-chars
"\et": transpose-words
# tty-status (not bound)
"\C-x\C-u": undo
"\C-_": undo
# universal-argument (not bound)
# unix-filename-rubout (not bound)
"\C-u": unix-line-discard
"\C-w": unix-word-rubout
"\eu": upcase-word
# vi-append-eol (not bound)
# vi-append-mode (not bound)
# vi-arg-digit (not bound)
# vi-bWord (not bound)
# vi-back-to-indent (not bound)
# vi-backward-bigword (not bound)
# vi-backward-word (not bound)
# vi-bword (not bound)
# vi-change-case (not bound)
# vi-change-char (not bound)
# vi-change-to (not bound)
# vi-char-search (not bound)
# vi-column (not bound)
# vi-complete (not bound)
# vi-delete (not bound)
# vi-delete-to (not bound)
# vi-eWord (not bound)
# vi-edit-and-execute-command (not bound)
# vi-editing-mode (not bound)
# vi-end-bigword (not bound)
# vi-end-word (not bound)
# vi-eof-maybe (not bound)
# vi-eword (not bound)
# vi-fWord (not bound)
# vi-fetch-history (not bound)
# vi-first-print (not bound)
# vi-forward-bigword (not bound)
# vi-forward-word (not bound)
# vi-fword (not bound)
# vi-goto-mark (not bound)
# vi-insert-beg (not bound)
# vi-insertion-mode (not bound)
# vi-match (not bound)
# vi-movement-mode (not bound)
# vi-next-word (not bound)
# vi-overstrike (not bound)
# vi-overstrike-delete (not bound)
# vi-prev-word (not bound)
# vi-put (not bound)
# vi-redo (not bound)
# vi-replace (not bound)
# vi-rubout (not bound)
# vi-search (not bound)
# vi-search-again (not bound)
# vi-set-mark (not bound)
# vi-subst (not bound)
# vi-tilde-expand (not bound)
# vi-undo (not bound)
# vi-unix-word-rubout (not bound)
# vi-yank-arg (not bound)
# vi-yank-pop (not bound)
# vi-yank-to (not bound)
"\C-y": yank
"\e.": yank-last-arg
"\e_": yank-last-arg
"\e\C-y": yank-nth-arg
"\ey": yank-pop
"##;

/// Readline's variables, as `bind -v` prints them.
const BIND_V: &str = r##"set bind-tty-special-chars on
set blink-matching-paren off
set byte-oriented off
set colored-completion-prefix off
set colored-stats off
set completion-ignore-case off
set completion-map-case off
set convert-meta off
set disable-completion off
set echo-control-characters on
set enable-active-region off
set enable-bracketed-paste off
set enable-keypad off
set enable-meta-key on
set expand-tilde off
set history-preserve-point off
set horizontal-scroll-mode off
set input-meta on
set mark-directories on
set mark-modified-lines off
set mark-symlinked-directories off
set match-hidden-files on
set menu-complete-display-prefix off
set meta-flag on
set output-meta on
set page-completions on
set prefer-visible-bell on
set print-completions-horizontally off
set revert-all-at-newline off
set show-all-if-ambiguous off
set show-all-if-unmodified off
set show-mode-in-prompt off
set skip-completed-text off
set visible-stats off
set bell-style audible
set comment-begin #
set completion-display-width -1
set completion-prefix-display-length 0
set completion-query-items 100
set editing-mode emacs
set emacs-mode-string @
set history-size 0
set keymap emacs
set keyseq-timeout 500
set vi-cmd-mode-string (cmd)
set vi-ins-mode-string (ins)
"##;

const KEYMAPS: &[&str] = &[
    "emacs",
    "emacs-standard",
    "emacs-meta",
    "emacs-ctlx",
    "vi",
    "vi-move",
    "vi-command",
    "vi-insert",
];

/// What a key sequence runs.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Action {
    Func(String),
    Macro(String),
    Shell(String),
}

/// A keymap: decoded key sequence -> (its text as readline prints it, action).
type Keymap = std::collections::BTreeMap<Vec<u8>, (String, Action)>;

/// The functions in `bind -l` order.
fn function_names() -> Vec<&'static str> {
    let mut out: Vec<&str> = Vec::new();
    for line in BIND_P.lines() {
        let f = match line
            .strip_prefix("# ")
            .and_then(|s| s.strip_suffix(" (not bound)"))
        {
            Some(f) => f,
            None => match line.rfind("\": ") {
                Some(at) => &line[at + 3..],
                None => continue,
            },
        };
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

fn default_keymap() -> Keymap {
    let mut map = Keymap::new();
    for line in BIND_P.lines() {
        if let Some(at) = line.rfind("\": ") {
            let key = &line[1..at];
            let func = &line[at + 3..];
            // Two names for one function (`yank-last-arg`, `insert-last-argument`)
            // share their keys.
            let names = match map.get(&decode_key(key)) {
                Some((_, Action::Func(old))) => format!("{old} {func}"),
                _ => func.to_owned(),
            };
            map.insert(decode_key(key), (key.to_owned(), Action::Func(names)));
        }
    }
    map
}

/// Decodes readline's key sequence notation (`\C-x`, `\M-x`, `\e`, `\\`, octal...).
fn decode_key(k: &str) -> Vec<u8> {
    let cs: Vec<char> = k.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut ctrl = false;
    while let Some(&c) = cs.get(i) {
        i += 1;
        let b: u8 = if c == '\\' {
            let Some(&e) = cs.get(i) else {
                out.push(b'\\');
                break;
            };
            i += 1;
            match e {
                'C' | 'M' if cs.get(i) == Some(&'-') => {
                    i += 1;
                    if e == 'C' {
                        ctrl = true;
                    } else {
                        out.push(0x1b);
                    }
                    continue;
                }
                'e' => 0x1b,
                'a' => 7,
                'b' => 8,
                'd' => 0x7f,
                'f' => 12,
                'n' => 10,
                'r' => 13,
                't' => 9,
                'v' => 11,
                '0'..='7' => {
                    let mut v = e.to_digit(8).unwrap_or(0);
                    let mut n = 1;
                    while n < 3 {
                        match cs.get(i).and_then(|d| d.to_digit(8)) {
                            Some(d) => {
                                v = v * 8 + d;
                                i += 1;
                                n += 1;
                            }
                            None => break,
                        }
                    }
                    (v & 0xff) as u8
                }
                other => other as u32 as u8,
            }
        } else {
            c as u32 as u8
        };
        if ctrl {
            ctrl = false;
            out.push(if b == b'?' { 0x7f } else { b & 0x1f });
        } else {
            out.push(b);
        }
    }
    out
}

/// Readline's printed form of a decoded key sequence.
fn encode_key(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        match b {
            0x1b => out.push_str("\\e"),
            0x7f => out.push_str("\\C-?"),
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0..=0x1f => {
                out.push_str("\\C-");
                let c = (b | 0x60) as char;
                match b {
                    0 => out.push('@'),
                    0x1c => out.push_str("\\\\"),
                    0x1d => out.push(']'),
                    0x1e => out.push('^'),
                    0x1f => out.push('_'),
                    _ => out.push(c),
                }
            }
            0x80..=0xff => out.push_str(&format!("\\{b:03o}")),
            _ => out.push(b as char),
        }
    }
    out
}

fn keymap(sh: &Interp) -> Keymap {
    match &sh.history.keymap {
        Some(k) => (**k).clone(),
        None => default_keymap(),
    }
}

/// Whether an action runs `func` (under any of its names).
fn runs(a: &Action, func: &str) -> bool {
    matches!(a, Action::Func(names) if names.split(' ').any(|n| n == func))
}

/// The names a function is bound under: all of its aliases.
fn func_names(func: &str) -> String {
    default_keymap()
        .into_values()
        .find_map(|(_, a)| match a {
            Action::Func(n) if n.contains(' ') && n.split(' ').any(|x| x == func) => Some(n),
            _ => None,
        })
        .unwrap_or_else(|| func.to_owned())
}

fn keys_of(map: &Keymap, func: &str) -> Vec<String> {
    map.values()
        .filter(|(_, a)| runs(a, func))
        .map(|(k, _)| format!("\"{k}\""))
        .collect()
}

/// The first five keys, then `...`; a final `.` only when all are shown.
fn key_list(keys: &[String]) -> String {
    let mut s = keys.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
    if keys.len() > 5 {
        s.push_str(", ...");
    } else {
        s.push('.');
    }
    s
}

/// Strips one level of `"..."` or `'...'` quoting.
fn unquote(s: &str) -> &str {
    s.strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .or_else(|| s.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')))
        .unwrap_or(s)
}

/// Splits `"keyseq": rest` or `keyname: rest`; `None` without a `:`.
fn split_binding(line: &str) -> Option<(String, String)> {
    let t = line.trim_start();
    if let Some(r) = t.strip_prefix('"') {
        let cs: Vec<char> = r.chars().collect();
        let mut i = 0;
        while let Some(&c) = cs.get(i) {
            if c == '\\' {
                i += 2;
                continue;
            }
            if c == '"' {
                break;
            }
            i += 1;
        }
        let key: String = cs.iter().take(i).collect();
        let rest: String = cs.iter().skip(i + 1).collect();
        let rest = rest.trim_start().strip_prefix(':')?.trim();
        return Some((key, rest.to_owned()));
    }
    let (key, rest) = t.split_once(':')?;
    Some((key.trim().to_owned(), rest.trim().to_owned()))
}

/// readline's `rl_parse_and_bind` for one line: `set var value` or a binding.
fn parse_and_bind(sh: &mut Interp, line: &str) {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return;
    }
    if let Some(rest) = t.strip_prefix("set ") {
        let mut parts = rest.split_whitespace();
        let name = parts.next().unwrap_or_default().to_owned();
        let value = parts.next().unwrap_or_default().to_owned();
        let known = BIND_V
            .lines()
            .any(|l| l.split(' ').nth(1) == Some(name.as_str()));
        if !known {
            sh.errln(&format!("readline: {name}: unknown variable name"));
            return;
        }
        let v = Arc::make_mut(&mut sh.history.rl_vars);
        v.retain(|(n, _)| *n != name);
        v.push((name, value));
        return;
    }
    let Some((key, rest)) = split_binding(t) else {
        return;
    };
    let bytes = decode_key(&key);
    let mut map = keymap(sh);
    if rest.starts_with('"') || rest.starts_with('\'') {
        map.insert(
            bytes.clone(),
            (encode_key(&bytes), Action::Macro(unquote(&rest).to_owned())),
        );
    } else if function_names().contains(&rest.as_str()) {
        map.insert(
            bytes.clone(),
            (encode_key(&bytes), Action::Func(func_names(&rest))),
        );
    } else {
        map.remove(&bytes);
    }
    sh.history.keymap = Some(Arc::new(map));
}

/// `bind -v` lines with `set` changes applied.
fn rl_variables(sh: &Interp) -> Vec<(String, String)> {
    BIND_V
        .lines()
        .filter_map(|l| {
            let mut p = l.splitn(3, ' ');
            let (_, n, v) = (p.next(), p.next()?, p.next().unwrap_or_default());
            let v = sh
                .history
                .rl_vars
                .iter()
                .find(|(k, _)| k == n)
                .map_or(v.to_owned(), |(_, x)| x.clone());
            Some((n.to_owned(), v))
        })
        .collect()
}

/// `bind`: without line editing, warns, then lists and changes readline's emacs keymap
/// and variables as bash does.
pub fn bind(sh: &mut Interp, args: &[String]) -> R {
    sh.builtin_error("bind", "warning: line editing not enabled");
    let (opts, end) = match getopt(sh, "bind", args, "lvpVPsSXf:q:u:m:r:x:", false) {
        Ok(v) => v,
        Err(e) => return usage_status(sh, "bind", e, BIND_USAGE),
    };
    let get = |c: char| {
        opts.iter()
            .rev()
            .find(|(o, _, _)| *o == c)
            .map(|(_, _, a)| a.clone().unwrap_or_default())
    };
    let has = |c: char| opts.iter().any(|(o, _, _)| *o == c);
    if let Some(m) = get('m')
        && !KEYMAPS.contains(&m.as_str())
    {
        sh.builtin_error("bind", &format!("`{m}': invalid keymap name"));
        return Ok(1);
    }
    let funcs = function_names();
    let map = keymap(sh);
    let mut out = String::new();
    if has('l') {
        for f in &funcs {
            out.push_str(f);
            out.push('\n');
        }
    }
    if has('v') {
        for (n, v) in rl_variables(sh) {
            out.push_str(&format!("set {n} {v}\n"));
        }
    }
    if has('V') {
        for (n, v) in rl_variables(sh) {
            out.push_str(&format!("{n} is set to `{v}'\n"));
        }
    }
    if has('p') {
        out.push('\n');
        for f in &funcs {
            let keys = keys_of(&map, f);
            if keys.is_empty() {
                out.push_str(&format!("# {f} (not bound)\n"));
            }
            for k in keys {
                out.push_str(&format!("{k}: {f}\n"));
            }
        }
    }
    if has('P') {
        out.push('\n');
        for f in &funcs {
            let keys = keys_of(&map, f);
            if keys.is_empty() {
                out.push_str(&format!("{f} is not bound to any keys\n"));
            } else {
                out.push_str(&format!("{f} can be found on {}\n", key_list(&keys)));
            }
        }
    }
    for (flag, long) in [('s', false), ('S', true)] {
        if has(flag) {
            for (k, a) in map.values() {
                if let Action::Macro(m) = a {
                    if long {
                        out.push_str(&format!("{k} outputs {m}\n"));
                    } else {
                        out.push_str(&format!("\"{k}\": \"{m}\"\n"));
                    }
                }
            }
        }
    }
    if has('X') {
        for (k, a) in map.values() {
            if let Action::Shell(c) = a {
                out.push_str(&format!("\"{k}\": \"{c}\"\n"));
            }
        }
    }
    sh.out(out.as_bytes())?;
    if let Some(f) = get('f') {
        let path = crate::fs::path::join(&sh.cwd, &f);
        let data = sh.fs.lock().read_file(&path).map(|d| d.to_vec());
        match data {
            Ok(d) => {
                for line in crate::text::decode(&d).lines() {
                    parse_and_bind(sh, line);
                }
            }
            Err(e) => {
                sh.builtin_error("bind", &format!("{f}: cannot read: {e}"));
                return Ok(1);
            }
        }
    }
    let mut status = 0;
    if let Some(q) = get('q') {
        if !funcs.contains(&q.as_str()) {
            sh.builtin_error("bind", &format!("`{q}': unknown function name"));
            return Ok(1);
        }
        let keys = keys_of(&keymap(sh), &q);
        if keys.is_empty() {
            sh.out(format!("{q} is not bound to any keys.\n").as_bytes())?;
            status = 1;
        } else {
            sh.out(format!("{q} can be invoked via {}\n", key_list(&keys)).as_bytes())?;
        }
    }
    if let Some(u) = get('u') {
        if !funcs.contains(&u.as_str()) {
            sh.builtin_error("bind", &format!("`{u}': unknown function name"));
            return Ok(1);
        }
        let mut map = keymap(sh);
        map.retain(|_, (_, a)| !runs(a, &u));
        sh.history.keymap = Some(Arc::new(map));
    }
    if let Some(r) = get('r') {
        let mut map = keymap(sh);
        map.remove(&decode_key(&r));
        sh.history.keymap = Some(Arc::new(map));
    }
    if let Some(x) = get('x') {
        let parsed = if x.trim_start().starts_with('"') {
            split_binding(&x)
        } else {
            None
        };
        let Some((key, cmd)) = parsed else {
            sh.builtin_error(
                "bind",
                &format!("{x}: first non-whitespace character is not `\"'"),
            );
            return Ok(1);
        };
        let bytes = decode_key(&key);
        let mut map = keymap(sh);
        map.insert(
            bytes.clone(),
            (encode_key(&bytes), Action::Shell(unquote(&cmd).to_owned())),
        );
        sh.history.keymap = Some(Arc::new(map));
    }
    for a in args.get(end..).unwrap_or_default() {
        parse_and_bind(sh, a);
    }
    Ok(status)
}
