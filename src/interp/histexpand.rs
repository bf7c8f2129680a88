//! History expansion (bash manual, "HISTORY EXPANSION"): `!` event designators, word
//! designators and modifiers, and the `^old^new^` quick substitution, done on a line of
//! input before the parser sees it, as readline's `history_expand` does with the
//! settings bash gives it (single quotes and backslashes quote `!`, a `!` inside `[...]`,
//! `${!...}`, `$!` or a command substitution's quoted text is left alone).
//!
//! The text is handled as bytes, as the C library does; bytes of multibyte characters
//! are never taken for the ASCII characters that delimit events, words and patterns.

/// `$` as a word number: readline keeps it as the character's code, so a word number
/// of 36 means the last word too.
const DOLLAR: i64 = b'$' as i64;

/// Characters that end a word when history lines are split into words.
const WORD_DELIMITERS: &[u8] = b" \t\n;&()|<>";
/// Characters that quote a word when history lines are split into words.
const QUOTE_CHARACTERS: &[u8] = b"\"'`";
/// Characters after which `!` starts no expansion.
const NO_EXPAND_CHARS: &[u8] = b" \t\n\r=";
/// Characters that end a `!string` event (besides blanks and `:`).
const EVENT_DELIMITERS: &[u8] = b"^$*%-";
/// bash's `history_search_delimiter_chars`: more characters that end `!string`.
const SEARCH_DELIMITERS: &[u8] = b";&()|<>";
/// Characters a backslash quotes inside double quotes (when splitting words).
const SLASHIFY_IN_QUOTES: &[u8] = b"\\`\"$";

/// The settings one expansion runs with.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Config {
    /// The history expansion character (`histchars[0]`, `!`); 0 turns expansion off.
    pub expand_char: u8,
    /// The quick substitution character (`histchars[1]`, `^`).
    pub subst_char: u8,
    /// The comment character (`histchars[2]`, `#`): the rest of a line after it at
    /// the start of a word is not expanded.
    pub comment_char: u8,
    /// `shopt -s extglob`: `!(...)` is a pattern, not an event.
    pub extglob: bool,
    /// `set -o posix`: double quotes quote `!` too.
    pub posix: bool,
    /// The quote the line starts inside (`'`, `"`, or 0), for a line that continues a
    /// quoted string of the one before.
    pub quoting: u8,
    /// The longest result allowed (the run's string limit).
    pub max_len: usize,
}

/// What a `!?string?` search and the `:s` modifier remember from one expansion to the
/// next (readline's static variables).
#[derive(Clone, Debug, Default)]
pub(crate) struct Memory {
    search_string: Option<Vec<u8>>,
    search_match: Option<Vec<u8>>,
    subst_lhs: Option<Vec<u8>>,
    subst_rhs: Vec<u8>,
}

/// The result of expanding a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Nothing to expand: the line stays as it is.
    Unchanged,
    /// The expanded line (bash shows it on stderr, then runs it).
    Expanded(String),
    /// The `:p` modifier was given: the line to show (and record), not to run.
    PrintOnly(String),
    /// The error text (`!x: event not found`); the line is dropped.
    Failed(String),
}

/// The history list as expansion sees it: its lines, oldest first, and the number of
/// the first.
pub(crate) struct Events<'a> {
    pub lines: &'a [&'a str],
    pub base: i64,
}

impl Events<'_> {
    fn get(&self, which: i64) -> Option<&[u8]> {
        let i = usize::try_from(which.checked_sub(self.base)?).ok()?;
        self.lines.get(i).map(|l| l.as_bytes())
    }
}

fn at(s: &[u8], i: usize) -> u8 {
    s.get(i).copied().unwrap_or(0)
}

/// C's `member`: a NUL is never a member.
fn member(c: u8, set: &[u8]) -> bool {
    c != 0 && set.contains(&c)
}

fn whitespace(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

fn fielddelim(c: u8) -> bool {
    whitespace(c) || c == b'\n'
}

/// The length of the UTF-8 sequence a byte starts (1 for ASCII and stray bytes).
fn char_len(s: &[u8], i: usize) -> usize {
    let n = match at(s, i) {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    };
    if (1..n).all(|k| (0x80..0xc0).contains(&at(s, i + k))) {
        n
    } else {
        1
    }
}

/// The line's history expansion (readline's `history_expand`).
pub(crate) fn expand(line: &str, events: &Events, cfg: &Config, mem: &mut Memory) -> Outcome {
    let mut ex = Expander { events, cfg, mem };
    ex.expand(line.as_bytes())
}

/// Whether a line holds anything history expansion could act on (bash's
/// `history_expansion_p`).
pub(crate) fn may_expand(line: &str, cfg: &Config) -> bool {
    line.bytes()
        .any(|b| b != 0 && (b == cfg.expand_char || b == cfg.subst_char))
}

struct Expander<'a, 'b> {
    events: &'a Events<'a>,
    cfg: &'a Config,
    mem: &'b mut Memory,
}

enum ErrKind {
    EventNotFound,
    BadWordSpec,
    SubstFailed,
    BadModifier,
    NoPrevSubst,
}

fn hist_error(s: &[u8], start: usize, current: usize, kind: ErrKind) -> String {
    let msg = match kind {
        ErrKind::EventNotFound => "event not found",
        ErrKind::BadWordSpec => "bad word specifier",
        ErrKind::SubstFailed => "substitution failed",
        ErrKind::BadModifier => "unrecognized history modifier",
        ErrKind::NoPrevSubst => "no previous substitution",
    };
    let text = if at(s, start) != 0 {
        s.get(start..current.min(s.len())).unwrap_or_default()
    } else {
        &[]
    };
    format!("{}: {msg}", String::from_utf8_lossy(text))
}

/// The index just past a single-quoted string's text, at its closing quote (or the
/// end); `backslash` lets a backslash quote the next character (`$'...'`).
fn extract_single_quoted(s: &[u8], mut i: usize, backslash: bool) -> usize {
    while at(s, i) != 0 && at(s, i) != b'\'' {
        if backslash && at(s, i) == b'\\' && at(s, i + 1) != 0 {
            i += 1;
        }
        i += 1;
    }
    i
}

/// bash's `skip_single_quoted`: the index past the closing quote.
fn skip_single_quoted(s: &[u8], mut i: usize) -> usize {
    while at(s, i) != 0 && at(s, i) != b'\'' {
        i += char_len(s, i);
    }
    if at(s, i) != 0 {
        i += 1;
    }
    i
}

/// bash's `skip_double_quoted` (posix mode only): the index past the closing quote.
fn skip_double_quoted(s: &[u8], mut i: usize) -> usize {
    let mut pass_next = false;
    while at(s, i) != 0 {
        let c = at(s, i);
        if pass_next {
            pass_next = false;
        } else if c == b'\\' {
            pass_next = true;
        } else if c == b'"' {
            return i + 1;
        }
        i += char_len(s, i);
    }
    i
}

impl Expander<'_, '_> {
    fn expand(&mut self, hstring: &[u8]) -> Outcome {
        let hx = self.cfg.expand_char;
        if hx == 0 {
            return Outcome::Unchanged;
        }
        let owned;
        let string: &[u8] = if self.cfg.subst_char != 0 && at(hstring, 0) == self.cfg.subst_char {
            let mut s = vec![hx, hx, b':', b's'];
            s.extend_from_slice(hstring);
            owned = s;
            &owned
        } else {
            if !self.first_expansion(hstring) {
                return Outcome::Unchanged;
            }
            hstring
        };
        let l = string.len();
        let mut dquote = self.cfg.quoting == b'"';
        let mut squote = self.cfg.quoting == b'\'';
        let mut result: Vec<u8> = Vec::new();
        let mut i = 0;
        if squote {
            i = extract_single_quoted(string, 0, false);
            squote = false;
            result.extend_from_slice(&string[..i.min(l)]);
            if at(string, i) != 0 {
                result.push(string[i]);
                i += 1;
            }
        }
        let (mut modified, mut only_printing) = (false, false);
        let mut passc = false;
        while i < l {
            if result.len() > self.cfg.max_len {
                return Outcome::Failed("history expansion: result too long".to_owned());
            }
            let tchar = string[i];
            if passc {
                passc = false;
                result.push(tchar);
                i += 1;
                continue;
            }
            let n = char_len(string, i);
            if n > 1 {
                result.extend_from_slice(&string[i..i + n]);
                i += n;
                continue;
            }
            if tchar == hx {
                let cc = at(string, i + 1);
                if cc == 0 || member(cc, NO_EXPAND_CHARS) || (dquote && cc == b'"') {
                    result.push(tchar);
                    i += 1;
                    continue;
                }
                let save = result.len();
                result.push(tchar);
                result.push(cc);
                let inhibit = self.inhibit(&result, save);
                if inhibit {
                    result.pop();
                    i += 1;
                    continue;
                }
                result.truncate(save);
                let qc = if squote {
                    b'\''
                } else if dquote {
                    b'"'
                } else {
                    0
                };
                match self.expand_internal(string, i, qc, &result) {
                    Err(msg) => return Outcome::Failed(msg),
                    Ok((text, end, print)) => {
                        modified = true;
                        result.extend_from_slice(&text);
                        only_printing |= print;
                        i = end;
                    }
                }
            } else if self.cfg.comment_char != 0 && tchar == self.cfg.comment_char {
                if !dquote && (i == 0 || member(string[i - 1], WORD_DELIMITERS)) {
                    result.extend_from_slice(&string[i..]);
                    i = l;
                } else {
                    result.push(tchar);
                }
            } else {
                match tchar {
                    b'\\' => {
                        passc = true;
                        result.push(tchar);
                    }
                    b'"' => {
                        dquote = !dquote;
                        result.push(tchar);
                    }
                    b'\'' if squote => {
                        squote = false;
                        result.push(tchar);
                    }
                    b'\'' if !dquote => {
                        let flag = i > 0 && string[i - 1] == b'$';
                        let quote = i;
                        i = extract_single_quoted(string, i + 1, flag);
                        let end = (i + 1).min(l);
                        result.extend_from_slice(&string[quote..end]);
                    }
                    _ => result.push(tchar),
                }
            }
            i += 1;
        }
        let text = String::from_utf8_lossy(&result).into_owned();
        if only_printing {
            Outcome::PrintOnly(text)
        } else if modified {
            Outcome::Expanded(text)
        } else {
            Outcome::Unchanged
        }
    }

    /// readline's first pass: whether some `!` in the line starts an expansion.
    fn first_expansion(&self, string: &[u8]) -> bool {
        let hx = self.cfg.expand_char;
        let l = string.len();
        let mut dquote = self.cfg.quoting == b'"';
        let squote = self.cfg.quoting == b'\'';
        let mut i = 0;
        if squote {
            i = extract_single_quoted(string, 0, false);
            if at(string, i) != 0 {
                i += 1;
            }
            i = i.min(l);
        }
        while at(string, i) != 0 {
            let n = char_len(string, i);
            if n > 1 {
                i += n;
                continue;
            }
            let c = string[i];
            let cc = at(string, i + 1);
            if self.cfg.comment_char != 0
                && c == self.cfg.comment_char
                && !dquote
                && (i == 0 || member(string[i - 1], WORD_DELIMITERS))
            {
                return false;
            } else if c == hx {
                let plain = cc == 0 || member(cc, NO_EXPAND_CHARS) || (dquote && cc == b'"');
                if !plain && !self.inhibit(string, i) {
                    return true;
                }
            } else if dquote && c == b'\\' && cc == b'"' {
                i += 1;
            } else if c == b'"' {
                dquote = !dquote;
            } else if !dquote && c == b'\'' {
                let flag = i > 0 && string[i - 1] == b'$';
                i = extract_single_quoted(string, i + 1, flag);
                if i >= l {
                    return false;
                }
            } else if c == b'\\' && (cc == b'\'' || cc == hx) {
                i += 1;
            }
            i += 1;
        }
        false
    }

    /// bash's `bash_history_inhibit_expansion`: whether the `!` at `i` is one the shell
    /// uses itself (`[!...]`, `${!name}`, `$!`, `!(...)`) or one that quoting or a
    /// command substitution hides.
    fn inhibit(&self, s: &[u8], i: usize) -> bool {
        let rest_has = |c: u8, from: usize| s.get(from..).is_some_and(|r| r.contains(&c));
        if i > 0 && s[i - 1] == b'[' && rest_has(b']', i + 1) {
            return true;
        }
        if i > 1 && s[i - 1] == b'{' && s[i - 2] == b'$' && rest_has(b'}', i + 1) {
            return true;
        }
        if i > 1 && s[i - 1] == b'$' {
            return true;
        }
        if self.cfg.extglob && i > 1 && at(s, i + 1) == b'(' && rest_has(b')', i + 2) {
            return true;
        }
        let mut si = 0;
        if self.cfg.quoting == b'\'' {
            si = s.iter().position(|&c| c == b'\'').unwrap_or(s.len());
            if si >= s.len() || si >= i {
                return true;
            }
            si += 1;
        }
        let mut t = self.skip_to_histexp(s, si);
        if t == 0 {
            return false;
        }
        while t < i {
            t = self.skip_to_histexp(s, t + 1);
            if t == 0 {
                return false;
            }
        }
        t > i
    }

    /// bash's `skip_to_histexp`: the index of the next `!` at or after `start` that
    /// quoting does not hide (command substitutions start their quoting afresh), or
    /// the end of the text.
    fn skip_to_histexp(&self, s: &[u8], start: usize) -> usize {
        let hx = self.cfg.expand_char;
        let (mut pass_next, mut backq, mut dquote) = (false, false, false);
        let (mut comsub, mut old_dquote) = (0usize, false);
        let mut i = start;
        while at(s, i) != 0 {
            let c = s[i];
            if pass_next {
                pass_next = false;
                i += char_len(s, i);
            } else if c == b'\\' {
                pass_next = true;
                i += 1;
            } else if backq && c == b'`' {
                backq = false;
                dquote = old_dquote;
                i += 1;
            } else if c == b'`' {
                backq = true;
                old_dquote = dquote;
                dquote = false;
                i += 1;
            } else if dquote && c == hx && at(s, i + 1) == b'"' {
                i += 1;
            } else if c == hx {
                break;
            } else if dquote && c == b'\'' {
                i += 1;
            } else if c == b'\'' {
                i = skip_single_quoted(s, i + 1);
            } else if !self.cfg.posix && c == b'"' {
                dquote = !dquote;
                i += 1;
            } else if c == b'"' {
                i = skip_double_quoted(s, i + 1);
            } else if matches!(c, b'$' | b'<' | b'>')
                && at(s, i + 1) == b'('
                && at(s, i + 2) != b'('
            {
                if at(s, i + 2) == 0 {
                    return i + 2;
                }
                i += 2;
                comsub += 1;
                old_dquote = dquote;
                dquote = false;
            } else if comsub > 0 && c == b')' {
                comsub -= 1;
                dquote = old_dquote;
                i += 1;
            } else {
                i += char_len(s, i);
            }
        }
        i
    }

    /// readline's `get_history_event`: the history line an event designator at `*idx`
    /// names, with `*idx` moved past it.
    fn get_event(&mut self, s: &[u8], idx: &mut usize, delimiting_quote: u8) -> Option<Vec<u8>> {
        let hx = self.cfg.expand_char;
        let mut i = *idx;
        if at(s, i) != hx {
            return None;
        }
        i += 1;
        let len = self.events.lines.len() as i64;
        let base = self.events.base;
        if at(s, i) == hx {
            *idx = i + 1;
            return self.events.get(base + len - 1).map(<[u8]>::to_vec);
        }
        let mut negative = false;
        if at(s, i) == b'-' && at(s, i + 1).is_ascii_digit() {
            negative = true;
            i += 1;
        }
        if at(s, i).is_ascii_digit() {
            let mut which: i64 = 0;
            while at(s, i).is_ascii_digit() {
                which = which
                    .saturating_mul(10)
                    .saturating_add(i64::from(at(s, i) - b'0'));
                i += 1;
            }
            *idx = i;
            if negative {
                which = (len + base).saturating_sub(which);
            }
            return self.events.get(which).map(<[u8]>::to_vec);
        }
        let mut substring = false;
        if at(s, i) == b'?' {
            substring = true;
            i += 1;
        }
        let local = i;
        loop {
            let c = at(s, i);
            if c == 0 {
                break;
            }
            let n = char_len(s, i);
            if n > 1 {
                i += n;
                continue;
            }
            if (!substring
                && (whitespace(c)
                    || c == b':'
                    || (i > local && c == b'-')
                    || (c != b'-' && member(c, EVENT_DELIMITERS))
                    || member(c, SEARCH_DELIMITERS)
                    || c == delimiting_quote))
                || c == b'\n'
                || (substring && c == b'?')
            {
                break;
            }
            i += 1;
        }
        let mut temp = s[local..i].to_vec();
        if substring && at(s, i) == b'?' {
            i += 1;
        }
        *idx = i;
        if temp.is_empty() && substring {
            temp = self.mem.search_string.clone()?;
        }
        if temp.is_empty() {
            return None;
        }
        for line in self.events.lines.iter().rev() {
            let line = line.as_bytes();
            if substring {
                if let Some(pos) = line.windows(temp.len()).rposition(|w| w == temp.as_slice()) {
                    self.mem.search_match = history_find_word(line, pos, self.cfg.comment_char);
                    self.mem.search_string = Some(temp);
                    return Some(line.to_vec());
                }
            } else if line.starts_with(&temp) {
                return Some(line.to_vec());
            }
        }
        None
    }

    /// readline's `history_expand_internal`: one `!` designator at `start` with its
    /// word designator and modifiers. Returns the text, the index of its last
    /// character, and whether `:p` was given.
    fn expand_internal(
        &mut self,
        string: &[u8],
        start: usize,
        qc: u8,
        current_line: &[u8],
    ) -> Result<(Vec<u8>, usize, bool), String> {
        let hx = self.cfg.expand_char;
        let mut i = start;
        let event = if member(at(string, i + 1), b":$*%^") {
            i += 1;
            let fake = [hx, hx];
            let mut fi = 0;
            self.get_event(&fake, &mut fi, 0)
        } else if at(string, i + 1) == b'#' {
            i += 2;
            Some(current_line.to_vec())
        } else {
            self.get_event(string, &mut i, qc)
        };
        let Some(event) = event else {
            return Err(hist_error(string, start, i, ErrKind::EventNotFound));
        };
        let starting_index = i;
        let mut temp = match self.word_specifier(string, &event, &mut i) {
            Err(()) => return Err(hist_error(string, starting_index, i, ErrKind::BadWordSpec)),
            Ok(Some(w)) => w,
            Ok(None) => event,
        };
        let (mut global, mut bywords, mut print_only) = (0u32, false, false);
        let mut want_quotes = 0u8;
        let starting_index = i;
        while at(string, i) == b':' {
            let mut c = at(string, i + 1);
            if c == b'g' || c == b'a' {
                global = 1;
                i += 1;
                c = at(string, i + 1);
            } else if c == b'G' {
                bywords = true;
                i += 1;
                c = at(string, i + 1);
            }
            match c {
                b'q' | b'x' => want_quotes = c,
                b'p' => print_only = true,
                b't' => {
                    if let Some(p) = temp.iter().rposition(|&b| b == b'/') {
                        temp.drain(..=p);
                    }
                }
                b'h' => {
                    if let Some(p) = temp.iter().rposition(|&b| b == b'/') {
                        temp.truncate(p);
                    }
                }
                b'r' => {
                    if let Some(p) = temp.iter().rposition(|&b| b == b'.') {
                        temp.truncate(p);
                    }
                }
                b'e' => {
                    if let Some(p) = temp.iter().rposition(|&b| b == b'.') {
                        temp.drain(..p);
                    }
                }
                b'&' | b's' => {
                    if c == b's' {
                        if i + 2 >= string.len() {
                            // No delimiter: the modifier does nothing.
                            i += 2;
                            continue;
                        }
                        let delimiter = if char_len(string, i + 2) > 1 {
                            0
                        } else {
                            string[i + 2]
                        };
                        i += 3;
                        if let Some(t) = get_subst_pattern(string, &mut i, delimiter, false) {
                            self.mem.subst_lhs = Some(t);
                        } else if self.mem.subst_lhs.is_none() {
                            self.mem.subst_lhs =
                                self.mem.search_string.clone().filter(|s| !s.is_empty());
                        }
                        let rhs =
                            get_subst_pattern(string, &mut i, delimiter, true).unwrap_or_default();
                        self.mem.subst_rhs = if rhs.contains(&b'&') {
                            postproc_subst_rhs(&rhs, self.mem.subst_lhs.as_deref().unwrap_or(&[]))
                        } else {
                            rhs
                        };
                    } else {
                        i += 2;
                    }
                    let lhs = self.mem.subst_lhs.clone().unwrap_or_default();
                    let rhs = self.mem.subst_rhs.clone();
                    if lhs.is_empty() {
                        return Err(hist_error(string, starting_index, i, ErrKind::NoPrevSubst));
                    }
                    if lhs.len() > temp.len() {
                        return Err(hist_error(string, starting_index, i, ErrKind::SubstFailed));
                    }
                    let failed = substitute(
                        &mut temp,
                        &lhs,
                        &rhs,
                        &mut global,
                        bywords,
                        self.cfg.max_len,
                    );
                    if global > 1 {
                        global = 0;
                        continue;
                    }
                    if !failed {
                        continue;
                    }
                    return Err(hist_error(string, starting_index, i, ErrKind::SubstFailed));
                }
                _ => return Err(hist_error(string, i + 1, i + 2, ErrKind::BadModifier)),
            }
            i += 2;
        }
        let temp = match want_quotes {
            b'q' => single_quote(&temp),
            b'x' => quote_breaks(&temp),
            _ => temp,
        };
        // The caller steps past the designator's last character.
        Ok((temp, i.saturating_sub(1), print_only))
    }

    /// readline's `get_history_word_specifier`: the words of `from` a word designator
    /// at `*idx` names; `Ok(None)` when there is none, `Err` when the words are not
    /// there.
    fn word_specifier(
        &self,
        spec: &[u8],
        from: &[u8],
        idx: &mut usize,
    ) -> Result<Option<Vec<u8>>, ()> {
        let mut i = *idx;
        let mut expecting = false;
        if at(spec, i) == b':' {
            i += 1;
            expecting = true;
        }
        match at(spec, i) {
            b'%' => {
                *idx = i + 1;
                return Ok(Some(self.mem.search_match.clone().unwrap_or_default()));
            }
            b'*' => {
                *idx = i + 1;
                return Ok(Some(
                    arg_extract(1, DOLLAR, from, self.cfg.comment_char).unwrap_or_default(),
                ));
            }
            b'$' => {
                *idx = i + 1;
                return Ok(arg_extract(DOLLAR, DOLLAR, from, self.cfg.comment_char));
            }
            _ => {}
        }
        let read_num = |i: &mut usize| {
            let mut n: i64 = 0;
            while at(spec, *i).is_ascii_digit() {
                n = n
                    .saturating_mul(10)
                    .saturating_add(i64::from(at(spec, *i) - b'0'));
                *i += 1;
            }
            n
        };
        let first = match at(spec, i) {
            b'-' => 0,
            b'^' => {
                i += 1;
                1
            }
            c if c.is_ascii_digit() && expecting => read_num(&mut i),
            _ => return Ok(None),
        };
        let last = match at(spec, i) {
            b'^' => {
                i += 1;
                1
            }
            b'*' => {
                i += 1;
                DOLLAR
            }
            b'-' => {
                i += 1;
                match at(spec, i) {
                    c if c.is_ascii_digit() => read_num(&mut i),
                    b'$' => {
                        i += 1;
                        DOLLAR
                    }
                    b'^' => {
                        i += 1;
                        1
                    }
                    _ => -1,
                }
            }
            _ => first,
        };
        *idx = i;
        let result = if last >= first || last == DOLLAR || last < 0 {
            arg_extract(first, last, from, self.cfg.comment_char)
        } else {
            None
        };
        result.map(Some).ok_or(())
    }
}

/// readline's `get_subst_pattern`: the text up to `delimiter` (a backslash quotes the
/// delimiter), `None` when it is empty and not the right-hand side.
fn get_subst_pattern(s: &[u8], iptr: &mut usize, delimiter: u8, is_rhs: bool) -> Option<Vec<u8>> {
    let i = *iptr;
    let mut si = i;
    while at(s, si) != 0 && at(s, si) != delimiter {
        let n = char_len(s, si);
        if n > 1 {
            si += n;
            continue;
        }
        if at(s, si) == b'\\' && at(s, si + 1) == delimiter {
            si += 1;
        }
        si += 1;
    }
    let si = si.min(s.len());
    let out = if si > i || is_rhs {
        let mut v = Vec::with_capacity(si.saturating_sub(i));
        let mut k = i;
        while k < si {
            if s[k] == b'\\' && at(s, k + 1) == delimiter {
                k += 1;
            }
            if let Some(&c) = s.get(k) {
                v.push(c);
            }
            k += 1;
        }
        Some(v)
    } else {
        None
    };
    *iptr = if at(s, si) != 0 { si + 1 } else { si };
    out
}

/// readline's `postproc_subst_rhs`: `&` in the replacement stands for the pattern
/// (`\&` for a `&`).
fn postproc_subst_rhs(rhs: &[u8], lhs: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < rhs.len() {
        if rhs[i] == b'&' {
            out.extend_from_slice(lhs);
        } else {
            if rhs[i] == b'\\' && at(rhs, i + 1) == b'&' {
                i += 1;
            }
            out.push(rhs[i]);
        }
        i += 1;
    }
    out
}

/// The `:s`, `:gs`, `:Gs` and `:&` substitution loop of `history_expand_internal`,
/// with its exact stepping. Returns whether it failed to substitute anything.
fn substitute(
    temp: &mut Vec<u8>,
    lhs: &[u8],
    rhs: &[u8],
    global: &mut u32,
    bywords: bool,
    max_len: usize,
) -> bool {
    let mut failed = true;
    let (mut si, mut we): (usize, usize) = (0, 0);
    let mut l_temp = temp.len();
    while si + lhs.len() <= l_temp {
        if bywords && si > we {
            while at(temp, si) != 0 && fielddelim(at(temp, si)) {
                si += 1;
            }
            we = tokenize_word(temp, si);
        }
        if temp.get(si..si + lhs.len()) == Some(lhs) {
            if temp.len() + rhs.len() > max_len {
                return true;
            }
            temp.splice(si..si + lhs.len(), rhs.iter().copied());
            failed = false;
            if *global > 0 {
                // readline steps to the replacement's last character, then one on.
                si += rhs.len();
                l_temp = temp.len();
                *global += 1;
                continue;
            } else if bywords {
                si = we + 1;
                l_temp = temp.len();
                continue;
            } else {
                break;
            }
        }
        si += 1;
    }
    failed
}

/// The `:q` modifier: the text in single quotes (bash's `sh_single_quote`).
fn single_quote(s: &[u8]) -> Vec<u8> {
    let mut out = vec![b'\''];
    for &c in s {
        if c == b'\'' {
            out.extend_from_slice(b"'\\''");
        } else {
            out.push(c);
        }
    }
    out.push(b'\'');
    out
}

/// The `:x` modifier: quoted as `:q` does, but broken into words at blanks and
/// newlines (readline's `quote_breaks`).
fn quote_breaks(s: &[u8]) -> Vec<u8> {
    let mut out = vec![b'\''];
    for &c in s {
        if c == b'\'' {
            out.extend_from_slice(b"'\\''");
        } else if fielddelim(c) {
            out.push(b'\'');
            out.push(c);
            out.push(b'\'');
        } else {
            out.push(c);
        }
    }
    out.push(b'\'');
    out
}

/// readline's `history_tokenize_word`: the index where the word starting at `ind`
/// ends, split as the shell would split it.
fn tokenize_word(s: &[u8], ind: usize) -> usize {
    let mut i = ind;
    let mut delimiter = 0u8;
    let mut nestdelim = 0usize;
    let mut delimopen = 0u8;
    if member(at(s, i), b"()\n") {
        return i + 1;
    }
    let mut get_word = false;
    if at(s, i).is_ascii_digit() {
        let mut j = i;
        while at(s, j).is_ascii_digit() {
            j += 1;
        }
        if at(s, j) == 0 {
            return j;
        }
        i = j;
        if at(s, j) != b'<' && at(s, j) != b'>' {
            get_word = true;
        }
    }
    if !get_word && member(at(s, i), b"<>;&|") {
        let c = at(s, i);
        let peek = at(s, i + 1);
        if peek == c {
            if peek == b'<' && (at(s, i + 2) == b'-' || at(s, i + 2) == b'<') {
                i += 1;
            }
            return i + 2;
        } else if peek == b'&' && (c == b'>' || c == b'<') {
            let mut j = i + 2;
            while at(s, j).is_ascii_digit() {
                j += 1;
            }
            if at(s, j) == b'-' {
                j += 1;
            }
            return j;
        } else if (peek == b'>' && c == b'&') || (peek == b'|' && c == b'>') {
            return i + 2;
        } else if peek == b'(' && (c == b'>' || c == b'<') {
            i += 2;
            delimopen = b'(';
            delimiter = b')';
            nestdelim = 1;
        } else {
            return i + 1;
        }
    }
    if delimiter == 0 && member(at(s, i), QUOTE_CHARACTERS) {
        delimiter = s[i];
        i += 1;
    }
    while at(s, i) != 0 {
        let c = s[i];
        if c == b'\\' && at(s, i + 1) == b'\n' {
            i += 2;
            continue;
        }
        if c == b'\\' && delimiter != b'\'' && (delimiter != b'"' || member(c, SLASHIFY_IN_QUOTES))
        {
            i += 1;
            if at(s, i) == 0 {
                break;
            }
            i += 1;
            continue;
        }
        if nestdelim > 0 && c == delimopen {
            nestdelim += 1;
            i += 1;
            continue;
        }
        if nestdelim > 0 && c == delimiter {
            nestdelim -= 1;
            if nestdelim == 0 {
                delimiter = 0;
            }
            i += 1;
            continue;
        }
        if delimiter != 0 && c == delimiter {
            delimiter = 0;
            i += 1;
            continue;
        }
        if nestdelim == 0 && delimiter == 0 && member(c, b"<>$!@?+*") && at(s, i + 1) == b'(' {
            // readline's loop steps once more past the `(`.
            i += 3;
            delimopen = b'(';
            delimiter = b')';
            nestdelim = 1;
            continue;
        }
        if delimiter == 0 && member(c, WORD_DELIMITERS) {
            break;
        }
        if delimiter == 0 && member(c, QUOTE_CHARACTERS) {
            delimiter = c;
        }
        i += 1;
    }
    i
}

/// readline's `history_tokenize_internal`: the words of a line, and which of them
/// holds byte `wind`.
fn tokenize(s: &[u8], wind: Option<usize>, comment: u8) -> (Vec<Vec<u8>>, Option<usize>) {
    let mut words = Vec::new();
    let mut found = None;
    let mut i = 0;
    while at(s, i) != 0 {
        while at(s, i) != 0 && fielddelim(at(s, i)) {
            i += 1;
        }
        if at(s, i) == 0 || (comment != 0 && at(s, i) == comment) {
            break;
        }
        let start = i;
        i = tokenize_word(s, start).min(s.len());
        if i == start {
            i += 1;
            while at(s, i) != 0 && member(at(s, i), WORD_DELIMITERS) {
                i += 1;
            }
        }
        let i2 = i.min(s.len());
        if let Some(w) = wind
            && w >= start
            && w < i2
        {
            found = Some(words.len());
        }
        words.push(s[start..i2].to_vec());
        i = i2;
    }
    (words, found)
}

/// readline's `history_find_word`: the word of `line` that holds byte `ind`.
fn history_find_word(line: &[u8], ind: usize, comment: u8) -> Option<Vec<u8>> {
    let (words, found) = tokenize(line, Some(ind), comment);
    found.and_then(|k| words.into_iter().nth(k))
}

/// readline's `history_arg_extract`: words `first` to `last` of `line` (negative
/// counts from the end, [`DOLLAR`] is the last word), joined by spaces.
fn arg_extract(first: i64, last: i64, line: &[u8], comment: u8) -> Option<Vec<u8>> {
    let (words, _) = tokenize(line, None, comment);
    if words.is_empty() {
        return None;
    }
    let len = words.len() as i64;
    let (mut first, mut last) = (first, last);
    if last < 0 {
        last = len + last - 1;
    }
    if first < 0 {
        first = len + first - 1;
    }
    if last == DOLLAR {
        last = len - 1;
    }
    if first == DOLLAR {
        first = len - 1;
    }
    last += 1;
    if first >= len || last > len || first < 0 || last < 0 || first > last {
        return None;
    }
    let picked: Vec<&[u8]> = words[first as usize..last as usize]
        .iter()
        .map(Vec::as_slice)
        .collect();
    Some(picked.join(&b' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(history: &[&str], line: &str, want: Outcome) {
        let cfg = Config {
            expand_char: b'!',
            subst_char: b'^',
            comment_char: b'#',
            extglob: false,
            posix: false,
            quoting: 0,
            max_len: 1 << 20,
        };
        let events = Events {
            lines: history,
            base: 1,
        };
        let got = expand(line, &events, &cfg, &mut Memory::default());
        assert_eq!(got, want, "expanding {line:?}");
    }

    #[test]
    fn designators() {
        let h = ["echo a b c", "ls -l /tmp/x.tar.gz"];
        let e = |s: &str| Outcome::Expanded(s.to_owned());
        check(&h, "!!", e("ls -l /tmp/x.tar.gz"));
        check(&h, "!1 !-1:0", e("echo a b c ls"));
        check(&h, "x !$:h !$:t:r !$:e", e("x /tmp x.tar .gz"));
        check(&h, "!e:2-", e("b"));
        check(&h, "!e:*", e("a b c"));
        check(&h, "!?a b?:0", e("echo"));
        check(
            &h,
            "!e:s/a/A/:p",
            Outcome::PrintOnly("echo A b c".to_owned()),
        );
        check(&h, "^-l^-a^", e("ls -a /tmp/x.tar.gz"));
        check(&h, "'!!' \\!! $! [!a]", Outcome::Unchanged);
        check(
            &h,
            "!zz",
            Outcome::Failed("!zz: event not found".to_owned()),
        );
        check(
            &h,
            "!!:9",
            Outcome::Failed(":9: bad word specifier".to_owned()),
        );
        check(&h, "!1:q", e("'echo a b c'"));
        check(&h, "!1:x", e("'echo' 'a' 'b' 'c'"));
        check(&h, "echo !#", e("echo echo "));
    }
}
