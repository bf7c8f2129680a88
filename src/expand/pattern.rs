//! Bash pattern matching (bash manual, "Pattern Matching"): `*`, `?`, bracket
//! expressions with classes, and the five extglob operators. One matcher serves `case`,
//! `[[ == ]]`, `${x#pat}` and friends, and pathname expansion.
//!
//! A pattern is a string in which a backslash quotes the next character (expansion
//! escapes quoted text that way). Matching is memoised on (token, position) so hostile
//! patterns stay polynomial.

use std::collections::HashMap;

/// The memo table: keys are small integers, so a fast hasher (SipHash here was a fifth
/// of a `${s#*/}` loop).
/// Steps one match (or one search for a prefix or suffix) may take before it gives up.
const MATCH_BUDGET: u64 = 5_000_000;

type Memo = HashMap<(usize, usize, usize, usize), bool, foldhash::fast::FixedState>;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Char(char),
    Any,
    Star,
    Class {
        negated: bool,
        items: Vec<ClassItem>,
    },
    Group {
        kind: char,
        alts: Vec<Vec<Tok>>,
    },
    /// A bracket expression whose end depends on the character (see [`Bracket`]):
    /// the first arm whose items hold the character goes on with its rest of the
    /// pattern. It ends its token list.
    Fork(Vec<(Vec<ClassItem>, Vec<Tok>)>),
}

#[derive(Clone, Debug, PartialEq)]
enum ClassItem {
    Char(char),
    Range(char, char),
    Named(String),
}

/// Options that change matching.
#[derive(Clone, Copy, Debug, Default)]
pub struct MatchOpts {
    pub extglob: bool,
    pub nocase: bool,
    /// Pathname matching: `*`, `?` and brackets never match `/` (used for whole-path
    /// patterns such as `GLOBIGNORE`; globbing itself splits paths on `/`).
    pub dot_special: bool,
    /// A single-byte locale (`LC_ALL=C`): each byte is one character (see
    /// [`crate::text::byte_chars`]); subjects given as text are converted too, those
    /// given as characters must come from `byte_chars`.
    pub bytes: bool,
}

/// A compiled pattern.
#[derive(Clone, Debug)]
pub struct Pattern {
    toks: Vec<Tok>,
    nocase: bool,
    slash_literal: bool,
    /// The pattern is plain text (no special characters).
    literal: Option<String>,
    /// Number of top-level `*` (2 means two or more), and whether there is an extglob
    /// group: see [`Matcher::new`].
    stars: u8,
    groups: bool,
    /// Only characters, `?` and `*`, with `/` ordinary: matched by
    /// [`Pattern::wild_match`] rather than the general matcher.
    simple: bool,
    /// The length bash's `${x/pat/rep}` tries substrings of, when it counts one (see
    /// [`Pattern::substitutable`]).
    bash_len: Option<usize>,
    /// Compiled for a single-byte locale (see [`MatchOpts::bytes`]).
    bytes: bool,
    /// The pattern text begins with `*`: bash's `${x/pat/rep}` and `${x/#pat/rep}`
    /// find only such a pattern at an empty place (the end of the value).
    star_first: bool,
}

/// Bash's count of the characters pattern `cs` matches (its glob library's MATCHLEN);
/// `None` for any length (a `*` or a group). A bracket ends at the first `]` after its
/// first character, `[:`, `[.` and `[=` classes skipped; an unclosed one counts as text.
fn bash_match_len(cs: &[char]) -> Option<usize> {
    let mut len = 0;
    let mut i = 0;
    while let Some(&c) = cs.get(i) {
        i += 1;
        match c {
            '\\' => {
                len += 1;
                i += 1;
            }
            '*' => return None,
            '?' | '+' | '!' | '@' if cs.get(i) == Some(&'(') => return None,
            '[' => {
                let mut bracket = 1;
                let mut class: Option<char> = None;
                let mut closed = false;
                let mut c = cs.get(i).copied();
                i += 1;
                loop {
                    let Some(ch) = c else {
                        i -= 1;
                        break;
                    };
                    let next = cs.get(i).copied();
                    match (ch, next) {
                        ('\\', _) => {
                            bracket += 1;
                            i += 1;
                            if next.is_none() || cs.get(i).is_none() {
                                break;
                            }
                        }
                        ('[', Some(k @ (':' | '.' | '='))) => {
                            i += 1;
                            bracket += 1;
                            if k != ':' && cs.get(i) == Some(&']') {
                                i += 1;
                                bracket += 1;
                            }
                            class = Some(k);
                        }
                        (k, Some(']')) if class == Some(k) => {
                            i += 1;
                            bracket += 1;
                            class = None;
                        }
                        _ => bracket += 1,
                    }
                    c = cs.get(i).copied();
                    i += 1;
                    if c == Some(']') {
                        closed = true;
                        break;
                    }
                }
                len += if closed { 1 } else { bracket };
            }
            _ => len += 1,
        }
    }
    Some(len)
}

/// Whether `pat` contains an unescaped special character (`*`, `?`, `[`, or an extglob
/// group when `extglob` is set).
pub fn has_meta(pat: &str, extglob: bool) -> bool {
    // Plain text, the usual case, is told without copying it as characters.
    if !pat
        .bytes()
        .any(|b| matches!(b, b'*' | b'?' | b'[' | b'+' | b'@' | b'!'))
    {
        return false;
    }
    let cs = crate::text::char_vec(pat);
    let mut i = 0;
    while i < cs.len() {
        match cs[i] {
            '\\' => i += 1,
            '*' | '?' => return true,
            // As bash, a `[` with an unquoted `]` anywhere after it makes a pattern
            // (`x[]` is one, though no bracket expression closes there).
            '[' if closing_bracket_after(&cs, i) => {
                return true;
            }
            '+' | '@' | '!' if extglob && cs.get(i + 1) == Some(&'(') => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// Removes pattern escapes, giving the literal text.
pub fn unescape(pat: &str) -> String {
    let mut out = String::with_capacity(pat.len());
    let mut cs = pat.chars();
    while let Some(c) = cs.next() {
        if c == '\\' {
            if let Some(d) = cs.next() {
                out.push(d);
            } else {
                out.push('\\');
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Escapes every pattern-special character of `s`.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '*' | '?' | '[' | ']' | '(' | ')' | '|' | '!' | '@' | '+' | '-' | '^'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `spec` split at each `sep` outside bracket expressions and not after a backslash,
/// as bash splits `GLOBIGNORE` on `:` (`[[:alnum:]]*` stays one pattern).
pub fn split_outside_brackets(spec: &str, sep: char) -> Vec<String> {
    let cs = crate::text::char_vec(spec);
    let mut parts = Vec::new();
    let (mut start, mut i) = (0, 0);
    while let Some(&c) = cs.get(i) {
        if c == sep {
            parts.push(cs.get(start..i).unwrap_or_default().iter().collect());
            start = i + 1;
        } else if c == '\\' {
            i += 1;
        } else if c == '['
            && let Some(end) = class_end(&cs, i)
        {
            i = end;
        }
        i += 1;
    }
    parts.push(cs.get(start..).unwrap_or_default().iter().collect());
    parts
}

/// Whether an unescaped `]` follows index `start`.
fn closing_bracket_after(cs: &[char], start: usize) -> bool {
    let mut i = start + 1;
    while let Some(&c) = cs.get(i) {
        match c {
            ']' => return true,
            '\\' => i += 2,
            _ => i += 1,
        }
    }
    false
}

/// Finds the index of the `]` closing a bracket expression opened at `start`.
fn class_end(cs: &[char], start: usize) -> Option<usize> {
    let mut i = start + 1;
    if matches!(cs.get(i), Some('!' | '^')) {
        i += 1;
    }
    if cs.get(i) == Some(&']') {
        i += 1;
    }
    while i < cs.len() {
        match cs[i] {
            ']' => return Some(i),
            '\\' => i += 1,
            '[' if matches!(cs.get(i + 1), Some(':' | '.' | '=')) => {
                let kind = cs[i + 1];
                let mut j = i + 2;
                while j + 1 < cs.len() && !(cs[j] == kind && cs[j + 1] == ']') {
                    j += 1;
                }
                if j + 1 < cs.len() {
                    i = j + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

impl Pattern {
    /// `Pattern::new`, kept per thread for short patterns used again: a loop's
    /// `${x#*/}` compiles its pattern once, not once a pass.
    pub fn cached(pat: &str, opts: MatchOpts) -> std::rc::Rc<Pattern> {
        use std::cell::RefCell;
        use std::collections::HashMap;
        use std::rc::Rc;
        /// Patterns kept per set of options, and the longest kept.
        const KEPT: usize = 256;
        const LONGEST: usize = 256;
        /// One map of kept patterns per set of options.
        type Kept = [HashMap<String, Rc<Pattern>>; 16];
        thread_local! {
            // Boxed: a library loaded into another process (the Node addon) gets a
            // small static TLS block, and sixteen maps inline took most of it.
            static CACHE: RefCell<Box<Kept>> = RefCell::default();
        }
        let which = usize::from(opts.extglob)
            | usize::from(opts.nocase) << 1
            | usize::from(opts.dot_special) << 2
            | usize::from(opts.bytes) << 3;
        let fresh = || Rc::new(Pattern::new(pat, opts));
        if pat.len() > LONGEST {
            return fresh();
        }
        CACHE.with(|cache| {
            let mut cache = cache.try_borrow_mut().ok();
            let Some(kept) = cache.as_mut().and_then(|c| c.get_mut(which)) else {
                return fresh();
            };
            if let Some(p) = kept.get(pat) {
                return p.clone();
            }
            if kept.len() >= KEPT {
                kept.clear();
            }
            let p = fresh();
            kept.insert(pat.to_owned(), p.clone());
            p
        })
    }

    /// Compiles a pattern.
    pub fn new(pat: &str, opts: MatchOpts) -> Pattern {
        let viewed = if opts.bytes {
            crate::text::byte_chars(pat)
        } else {
            std::borrow::Cow::Borrowed(pat)
        };
        let pat = viewed.as_ref();
        let cs = crate::text::char_vec(pat);
        let literal = if has_meta(pat, opts.extglob) {
            None
        } else {
            Some(unescape(pat))
        };
        let mut i = 0;
        let closes = group_closes(&cs, opts.extglob);
        let toks = parse_seq(&cs, &mut i, opts.extglob, &closes, false);
        Pattern {
            stars: toks
                .iter()
                .filter(|t| matches!(t, Tok::Star))
                .take(2)
                .count() as u8,
            groups: toks
                .iter()
                .any(|t| matches!(t, Tok::Group { .. } | Tok::Fork(_))),
            simple: !opts.dot_special
                && toks
                    .iter()
                    .all(|t| matches!(t, Tok::Char(_) | Tok::Any | Tok::Star)),
            toks,
            nocase: opts.nocase,
            slash_literal: opts.dot_special,
            literal,
            bash_len: bash_match_len(&cs),
            bytes: opts.bytes,
            star_first: cs.first() == Some(&'*'),
        }
    }

    /// Whether `${x/pat/rep}` can find this pattern. Bash tries only substrings as long
    /// as its count of the characters a pattern without `*` or a group matches, and that
    /// count closes a bracket at a `]` right after `!` or `^` (`[!]]` counts 2): such a
    /// pattern is never found there, though `#`, `%`, `case` and `[[` match it.
    pub fn substitutable(&self) -> bool {
        let fixed: Option<usize> = self.toks.iter().try_fold(0, |n, t| match t {
            Tok::Char(_) | Tok::Any | Tok::Class { .. } => Some(n + 1),
            Tok::Star | Tok::Group { .. } | Tok::Fork(_) => None,
        });
        match (self.bash_len, fixed) {
            (Some(counted), Some(fixed)) => counted == fixed,
            _ => true,
        }
    }

    /// The text that alone matches: the literal text, unless matching ignores case.
    pub fn exact_text(&self) -> Option<&str> {
        self.literal.as_deref().filter(|_| !self.nocase)
    }

    /// The literal text if the pattern has no special characters.
    pub fn literal(&self) -> Option<&str> {
        self.literal.as_deref()
    }

    /// Whether the whole of `s` matches.
    pub fn matches(&self, s: &str) -> bool {
        let viewed = if self.bytes {
            crate::text::byte_chars(s)
        } else {
            std::borrow::Cow::Borrowed(s)
        };
        let s = viewed.as_ref();
        if let Some(l) = self.exact_text() {
            return l == s;
        }
        let chars = crate::text::char_vec(s);
        if self.simple {
            let mut budget = MATCH_BUDGET;
            return self.wild_match(&chars, &mut budget);
        }
        let mut m = Matcher::new(self, &chars, MATCH_BUDGET, false);
        m.seq(&self.toks, 0, 0, chars.len())
    }

    /// Whether the file name `name` matches; with `period`, a leading `.` must be
    /// matched by a `.` in the pattern (see [`dot_first`]).
    pub fn matches_name(&self, name: &str, period: bool) -> bool {
        if !period || !name.starts_with('.') || self.exact_text().is_some() {
            return self.matches(name);
        }
        let viewed = if self.bytes {
            crate::text::byte_chars(name)
        } else {
            std::borrow::Cow::Borrowed(name)
        };
        let chars = crate::text::char_vec(viewed.as_ref());
        let mut m = Matcher::new(self, &chars, MATCH_BUDGET, false);
        m.period = true;
        m.seq(&self.toks, 0, 0, chars.len())
    }

    /// Whether a [`Pattern::simple`] pattern matches all of `s`: the two-pointer
    /// wildcard match (a mismatch goes back to the last `*`, which takes one more
    /// character), each step charged to `budget`; false once it runs out, as the
    /// general matcher gives up.
    fn wild_match(&self, s: &[char], budget: &mut u64) -> bool {
        let toks = self.toks.as_slice();
        let (mut ti, mut si) = (0, 0);
        // The token after the last `*` seen, and where in `s` that `*` stops now.
        let mut star: Option<(usize, usize)> = None;
        while si < s.len() {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            match (toks.get(ti), s.get(si)) {
                (Some(Tok::Star), _) => {
                    ti += 1;
                    star = Some((ti, si));
                    continue;
                }
                (Some(Tok::Any), _) => {
                    ti += 1;
                    si += 1;
                    continue;
                }
                (Some(Tok::Char(c)), Some(&x))
                    if *c == x || (self.nocase && c.to_lowercase().eq(x.to_lowercase())) =>
                {
                    ti += 1;
                    si += 1;
                    continue;
                }
                _ => {}
            }
            match star {
                Some((after, at)) => {
                    ti = after;
                    si = at + 1;
                    star = Some((after, at + 1));
                }
                None => return false,
            }
        }
        toks.get(ti..)
            .unwrap_or_default()
            .iter()
            .all(|t| matches!(t, Tok::Star))
    }

    /// Match against a char slice between `from` and `to` (exclusive), reusing a memo.
    fn match_range(&self, m: &mut Matcher, from: usize, to: usize) -> bool {
        m.seq(&self.toks, 0, from, to)
    }

    /// The first of `bounds` (from, to) whose stretch of `s` the pattern matches, all
    /// of them searched under one budget.
    fn first_match(
        &self,
        s: &[char],
        many_starts: bool,
        mut bounds: impl Iterator<Item = (usize, usize)>,
    ) -> Option<(usize, usize)> {
        if self.simple {
            let mut budget = MATCH_BUDGET;
            return bounds.find(|&(from, to)| {
                s.get(from..to)
                    .is_some_and(|t| self.wild_match(t, &mut budget))
            });
        }
        let mut m = Matcher::new(self, s, MATCH_BUDGET, many_starts);
        bounds.find(|&(from, to)| self.match_range(&mut m, from, to))
    }

    /// The end (in chars) of the shortest or longest match of a prefix of `s[start..]`.
    pub fn match_prefix(&self, s: &[char], start: usize, longest: bool) -> Option<usize> {
        let ends = start..=s.len();
        let bounds = |end| (start, end);
        let hit = if longest {
            self.first_match(s, false, ends.rev().map(bounds))
        } else {
            self.first_match(s, false, ends.map(bounds))
        };
        hit.map(|(_, end)| end)
    }

    /// The start of the shortest or longest match of a suffix of `s[..end]`.
    pub fn match_suffix(&self, s: &[char], end: usize, longest: bool) -> Option<usize> {
        let starts = 0..=end;
        let bounds = |st| (st, end);
        let hit = if longest {
            self.first_match(s, true, starts.map(bounds))
        } else {
            self.first_match(s, true, starts.rev().map(bounds))
        };
        hit.map(|(st, _)| st)
    }

    /// Every match for `${x/pat/rep}` (`all`: `${x//pat/rep}`): (start, end) pairs,
    /// each the longest at the leftmost place it matches. As in bash's pat_subst, an
    /// empty match replaces and the character after it is kept; the search for the
    /// next match starts only while characters remain (a value's end is searched only
    /// by the first), and there a pattern matches only if its text begins with `*`
    /// (bash's match_pattern_char). An empty pattern never matches.
    pub fn find_all(&self, s: &[char], all: bool) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if let Some(l) = self.exact_text() {
            let lc = crate::text::char_vec(l);
            if lc.is_empty() {
                return out;
            }
            let mut i = 0;
            while i + lc.len() <= s.len() {
                if s[i..i + lc.len()] == lc[..] {
                    out.push((i, i + lc.len()));
                    if !all {
                        return out;
                    }
                    i += lc.len();
                } else {
                    i += 1;
                }
            }
            return out;
        }
        let mut m = Matcher::new(self, s, 20_000_000, true);
        let mut i = 0;
        loop {
            let found = (i..=s.len())
                .take_while(|&p| p < s.len() || self.star_first)
                .find_map(|p| {
                    (p..=s.len())
                        .rev()
                        .find(|&end| self.match_range(&mut m, p, end))
                        .map(|end| (p, end))
                });
            let Some((st, end)) = found else {
                break;
            };
            out.push((st, end));
            i = if st == end { end + 1 } else { end };
            if !all || i >= s.len() {
                break;
            }
        }
        out
    }

    /// Whether bash's `${x/pat/rep}` looks for the pattern in `s` at all: it first
    /// matches the whole of `s` against the pattern with a `*` before it (`lead`:
    /// all but `/#`) and after it (`trail`: all but `/%`), and a `*` before a group
    /// can fail there where a part of `s` would match (`${x/%@()/X}` and
    /// `${x/*!(*)/X}` replace nothing).
    pub fn reachable(&self, s: &[char], lead: bool, trail: bool) -> bool {
        if !self.groups {
            return true;
        }
        let mut toks = Vec::with_capacity(self.toks.len() + 2);
        if lead && self.toks.first() != Some(&Tok::Star) {
            toks.push(Tok::Star);
        }
        toks.extend(self.toks.iter().cloned());
        if trail && toks.last() != Some(&Tok::Star) {
            toks.push(Tok::Star);
        }
        let mut m = Matcher::new(self, s, MATCH_BUDGET, false);
        m.memo.get_or_insert_with(Memo::default);
        m.seq(&toks, 0, 0, s.len())
    }

    /// Whether `${x/#pat/rep}` can match at the start of an empty value: bash tries
    /// there only a pattern whose text begins with `*`.
    pub fn matches_empty_start(&self) -> bool {
        self.star_first
    }
}

/// For each extglob group opener (`@(` and the like) in `cs`, whether a `)` closes it:
/// found in one pass, as brackets are matched, so that an unclosed group is known
/// before it is parsed (trying each of many nested unclosed groups and reading them
/// again as literal text took time exponential in their number).
fn group_closes(cs: &[char], extglob: bool) -> Vec<bool> {
    let mut closes = vec![false; cs.len()];
    if !extglob {
        return closes;
    }
    let mut open = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        match cs[i] {
            '\\' => i += 1,
            '?' | '*' | '+' | '@' | '!' if cs.get(i + 1) == Some(&'(') => {
                open.push(i);
                i += 1;
            }
            ')' => {
                if let Some(k) = open.pop()
                    && let Some(c) = closes.get_mut(k)
                {
                    *c = true;
                }
            }
            '[' => {
                if let Some(end) = class_end(cs, i) {
                    i = end;
                }
            }
            _ => {}
        }
        i += 1;
    }
    closes
}

fn parse_seq(
    cs: &[char],
    i: &mut usize,
    extglob: bool,
    closes: &[bool],
    in_group: bool,
) -> Vec<Tok> {
    let mut toks = Vec::new();
    while *i < cs.len() {
        let c = cs[*i];
        if in_group && (c == '|' || c == ')') {
            return toks;
        }
        match c {
            '\\' => {
                *i += 1;
                match cs.get(*i) {
                    Some(&d) => toks.push(Tok::Char(d)),
                    None => toks.push(Tok::Char('\\')),
                }
                *i += 1;
            }
            '*' if !(extglob && cs.get(*i + 1) == Some(&'(')) => {
                // Collapse runs of stars.
                if toks.last() != Some(&Tok::Star) {
                    toks.push(Tok::Star);
                }
                *i += 1;
            }
            '?' if !(extglob && cs.get(*i + 1) == Some(&'(')) => {
                toks.push(Tok::Any);
                *i += 1;
            }
            '?' | '*' | '+' | '@' | '!'
                if extglob
                    && cs.get(*i + 1) == Some(&'(')
                    && !closes.get(*i).copied().unwrap_or(false) =>
            {
                // Unclosed group: the text is literal.
                toks.push(Tok::Char(c));
                *i += 1;
            }
            '?' | '*' | '+' | '@' | '!' if extglob && cs.get(*i + 1) == Some(&'(') => {
                let save = *i;
                *i += 2;
                let mut alts = Vec::new();
                loop {
                    let alt = parse_seq(cs, i, extglob, closes, true);
                    alts.push(alt);
                    match cs.get(*i) {
                        Some('|') => *i += 1,
                        Some(')') => {
                            *i += 1;
                            break;
                        }
                        _ => {
                            // Unclosed group: the text is literal.
                            *i = save + 1;
                            toks.push(Tok::Char(c));
                            alts.clear();
                            break;
                        }
                    }
                }
                if !alts.is_empty() {
                    toks.push(Tok::Group { kind: c, alts });
                }
            }
            '[' => {
                let Bracket { negated, mut runs } = scan_bracket(cs, *i);
                let close = runs.last().and_then(|r| r.1);
                if runs.len() == 1 || negated {
                    // One way to read it: a character no item matches ends a negated
                    // bracket at its last `]`.
                    match close {
                        Some(end) => {
                            let items = runs.drain(..).flat_map(|r| r.0).collect();
                            toks.push(Tok::Class { negated, items });
                            *i = end + 1;
                        }
                        None => {
                            toks.push(Tok::Char('['));
                            *i += 1;
                        }
                    }
                    continue;
                }
                // The reading depends on the character: each run is one arm, with
                // the rest of the pattern after its `]`; with no final `]`, a
                // character no run matched meets the `[` as text.
                let mut arms = Vec::new();
                let mut after = None;
                let open = *i;
                for (items, end) in runs {
                    let (items, from) = match end {
                        Some(e) => (items, e + 1),
                        None => (vec![ClassItem::Char('[')], open + 1),
                    };
                    let mut j = from;
                    let rest = parse_seq(cs, &mut j, extglob, closes, in_group);
                    after.get_or_insert(j);
                    arms.push((items, rest));
                }
                *i = after.unwrap_or(cs.len());
                toks.push(Tok::Fork(arms));
                return toks;
            }
            _ => {
                toks.push(Tok::Char(c));
                *i += 1;
            }
        }
    }
    toks
}

/// A bracket expression read from its `[`: whether it is negated, and its items in
/// runs, each with the index of the `]` that ends it (`None`: no `]` does, and the `[`
/// is an ordinary character). As in bash, a `]` right after an equivalence class
/// (`[[=a=]]`) ends the bracket only for a character one of the items so far matched;
/// for any other character it is one more item and the bracket reads on.
struct Bracket {
    negated: bool,
    runs: Vec<(Vec<ClassItem>, Option<usize>)>,
}

fn scan_bracket(cs: &[char], start: usize) -> Bracket {
    let mut i = start + 1;
    let negated = matches!(cs.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut runs = Vec::new();
    let mut items = Vec::new();
    // A `]` first in the bracket (or first after a run) is an item.
    let mut first = true;
    loop {
        let Some(&c) = cs.get(i) else {
            runs.push((items, None));
            break;
        };
        if c == ']' && !first {
            runs.push((items, Some(i)));
            break;
        }
        first = false;
        if c == '[' && matches!(cs.get(i + 1), Some(':' | '.' | '=')) {
            let kind = cs[i + 1];
            let mut j = i + 2;
            while j + 1 < cs.len() && !(cs[j] == kind && cs[j + 1] == ']') {
                j += 1;
            }
            if j + 1 >= cs.len() {
                match kind {
                    // An unclosed `[.` spoils the bracket: its `[` is text.
                    '.' => {
                        runs.push((items, None));
                        break;
                    }
                    // An unclosed `[:` loses its `[`; the `:` and what follows are
                    // items.
                    ':' => {
                        i += 1;
                        continue;
                    }
                    _ => {}
                }
            } else {
                let name: String = cs[i + 2..j].iter().collect();
                match kind {
                    ':' => items.push(ClassItem::Named(name)),
                    '.' => match collating_symbol(&name) {
                        Some(ch) => items.push(ClassItem::Char(ch)),
                        // An unknown collating element matches no character.
                        None => items.push(ClassItem::Named(String::new())),
                    },
                    _ => items.extend(name.chars().map(ClassItem::Char)),
                }
                i = j + 2;
                if kind == '=' && cs.get(i) == Some(&']') {
                    runs.push((std::mem::take(&mut items), Some(i)));
                    first = true;
                }
                continue;
            }
        }
        let lo = if c == '\\' && i + 1 < cs.len() {
            i += 1;
            cs[i]
        } else {
            c
        };
        if cs.get(i + 1) == Some(&'-') && cs.get(i + 2).is_some_and(|&h| h != ']') {
            let mut hi_i = i + 2;
            if cs[hi_i] == '\\' && hi_i + 1 < cs.len() {
                hi_i += 1;
            }
            items.push(ClassItem::Range(lo, cs[hi_i]));
            i = hi_i + 1;
        } else {
            items.push(ClassItem::Char(lo));
            i += 1;
        }
    }
    Bracket { negated, runs }
}

/// The character a collating symbol (`[.hyphen.]`) names: itself when it is one
/// character, else its name in the POSIX portable character set.
fn collating_symbol(name: &str) -> Option<char> {
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return Some(c);
    }
    const CONTROLS: [&str; 32] = [
        "NUL",
        "SOH",
        "STX",
        "ETX",
        "EOT",
        "ENQ",
        "ACK",
        "alert",
        "backspace",
        "tab",
        "newline",
        "vertical-tab",
        "form-feed",
        "carriage-return",
        "SO",
        "SI",
        "DLE",
        "DC1",
        "DC2",
        "DC3",
        "DC4",
        "NAK",
        "SYN",
        "ETB",
        "CAN",
        "EM",
        "SUB",
        "ESC",
        "IS4",
        "IS3",
        "IS2",
        "IS1",
    ];
    if let Some(n) = CONTROLS.iter().position(|&c| c == name) {
        return char::from_u32(n as u32);
    }
    const DIGITS: [&str; 10] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    if let Some(n) = DIGITS.iter().position(|&c| c == name) {
        return char::from_u32('0' as u32 + n as u32);
    }
    Some(match name {
        "BS" => '\u{8}',
        "HT" => '\t',
        "LF" => '\n',
        "VT" => '\u{b}',
        "FF" => '\u{c}',
        "CR" => '\r',
        "FS" => '\u{1c}',
        "GS" => '\u{1d}',
        "RS" => '\u{1e}',
        "US" => '\u{1f}',
        "space" => ' ',
        "exclamation-mark" => '!',
        "quotation-mark" => '"',
        "number-sign" => '#',
        "dollar-sign" => '$',
        "percent-sign" => '%',
        "ampersand" => '&',
        "apostrophe" => '\'',
        "left-parenthesis" => '(',
        "right-parenthesis" => ')',
        "asterisk" => '*',
        "plus-sign" => '+',
        "comma" => ',',
        "hyphen" | "hyphen-minus" => '-',
        "period" | "full-stop" => '.',
        "slash" | "solidus" => '/',
        "colon" => ':',
        "semicolon" => ';',
        "less-than-sign" => '<',
        "equals-sign" => '=',
        "greater-than-sign" => '>',
        "question-mark" => '?',
        "commercial-at" => '@',
        "left-square-bracket" => '[',
        "backslash" | "reverse-solidus" => '\\',
        "right-square-bracket" => ']',
        "circumflex" | "circumflex-accent" => '^',
        "underscore" => '_',
        "grave-accent" => '`',
        "left-brace" | "left-curly-bracket" => '{',
        "vertical-line" => '|',
        "right-brace" | "right-curly-bracket" => '}',
        "tilde" => '~',
        "DEL" => '\u{7f}',
        _ => return None,
    })
}

fn class_has(name: &str, c: char) -> bool {
    match name {
        "alpha" => c.is_alphabetic(),
        "digit" => c.is_ascii_digit(),
        "alnum" => c.is_alphanumeric(),
        "upper" => c.is_uppercase(),
        "lower" => c.is_lowercase(),
        "space" => c.is_whitespace(),
        "blank" => c == ' ' || c == '\t',
        "punct" => c.is_ascii_punctuation(),
        "print" => !c.is_control(),
        "graph" => !c.is_control() && !c.is_whitespace(),
        "cntrl" => c.is_control(),
        "xdigit" => c.is_ascii_hexdigit(),
        "word" => c.is_alphanumeric() || c == '_',
        _ => false,
    }
}

/// Whether `toks[ti..]` begins with a `.` that can meet a file name's leading dot:
/// as bash, through `?(...)` and `*(...)` (which may match nothing) to what follows
/// them, and into the patterns of those and of `@(...)` and `+(...)`, whose every
/// pattern must then begin with its own `.` to match there; never `!(...)`, a
/// wildcard or a bracket.
fn dot_first(toks: &[Tok], ti: usize) -> bool {
    match toks.get(ti) {
        Some(Tok::Char('.')) => true,
        Some(Tok::Group { kind, alts }) => {
            let inside = *kind != '!' && alts.iter().any(|a| dot_first(a, 0));
            inside || (matches!(kind, '?' | '*') && dot_first(toks, ti + 1))
        }
        _ => false,
    }
}

struct Matcher<'s> {
    s: &'s [char],
    /// `*`, `?` and brackets do not match `/`.
    slash_literal: bool,
    nocase: bool,
    /// A leading `.` of the subject must be matched by a `.` in the pattern (a file
    /// name without `dotglob`): see [`dot_first`].
    period: bool,
    /// (token list address, token index, from, to) -> result; `None` when the pattern
    /// needs none.
    memo: Option<Memo>,
    budget: u64,
}

impl<'s> Matcher<'s> {
    /// A matcher for `p` over `s`. The memo is left out where it can never hit: with
    /// no extglob group and at most one `*`, matching from one start position visits
    /// each state once (`many_starts` says whether several starts share the matcher,
    /// which lets a `*` reach the same state again).
    fn new(p: &Pattern, s: &'s [char], budget: u64, many_starts: bool) -> Matcher<'s> {
        let memo = p.groups || p.stars > 1 || (many_starts && p.stars > 0);
        Matcher {
            s,
            slash_literal: p.slash_literal,
            period: false,
            nocase: p.nocase,
            memo: memo.then(Memo::default),
            budget,
        }
    }

    fn eq(&self, a: char, b: char) -> bool {
        a == b || (self.nocase && a.to_lowercase().eq(b.to_lowercase()))
    }

    fn class_match(&self, negated: bool, items: &[ClassItem], c: char) -> bool {
        let test = |c: char| {
            items.iter().any(|it| match it {
                ClassItem::Char(x) => *x == c,
                ClassItem::Range(lo, hi) => *lo <= c && c <= *hi,
                ClassItem::Named(n) => class_has(n, c),
            })
        };
        let mut hit = test(c);
        if !hit && self.nocase {
            // Case is folded for characters and ranges, not classes: `[[:upper:]]`
            // still takes only capitals.
            let folded = |c: char| {
                items.iter().any(|it| match it {
                    ClassItem::Char(x) => *x == c,
                    ClassItem::Range(lo, hi) => *lo <= c && c <= *hi,
                    ClassItem::Named(_) => false,
                })
            };
            hit = c.to_lowercase().any(folded) || c.to_uppercase().any(folded);
        }
        hit != negated
    }

    /// Whether `toks[ti..]` matches exactly `s[si..end]`.
    fn seq(&mut self, toks: &[Tok], ti: usize, si: usize, end: usize) -> bool {
        if self.budget == 0 {
            return false;
        }
        if self.period && si == 0 && self.s.first() == Some(&'.') && !dot_first(toks, ti) {
            return false;
        }
        self.budget -= 1;
        let Some(memo) = &self.memo else {
            return self.seq_inner(toks, ti, si, end);
        };
        let key = (toks.as_ptr() as usize, ti, si, end);
        if let Some(&r) = memo.get(&key) {
            return r;
        }
        let r = self.seq_inner(toks, ti, si, end);
        if let Some(memo) = &mut self.memo {
            memo.insert(key, r);
        }
        r
    }

    fn seq_inner(&mut self, toks: &[Tok], ti: usize, si: usize, end: usize) -> bool {
        let Some(t) = toks.get(ti) else {
            return si == end;
        };
        match t {
            Tok::Char(c) => {
                si < end && self.eq(*c, self.s[si]) && self.seq(toks, ti + 1, si + 1, end)
            }
            Tok::Any => {
                si < end
                    && !(self.slash_literal && self.s[si] == '/')
                    && self.seq(toks, ti + 1, si + 1, end)
            }
            Tok::Star => {
                // As bash's matcher, a `*` right before an `@(`, `+(` or `!(` group
                // leaves the group at least one character; with none left at all,
                // `!(` matches and the others fail (`*@()` matches nothing, `*!(c)`
                // matches the empty string and not `c`).
                let group_next = match toks.get(ti + 1) {
                    Some(Tok::Group { kind, .. }) if matches!(kind, '@' | '+' | '!') => Some(*kind),
                    _ => None,
                };
                if let Some(kind) = group_next
                    && si == end
                {
                    return kind == '!';
                }
                let stop = if self.slash_literal {
                    (si..end).find(|&k| self.s[k] == '/').unwrap_or(end)
                } else if ti + 1 == toks.len() {
                    return true;
                } else {
                    end
                };
                let last = if group_next.is_some() && stop == end {
                    stop - 1
                } else {
                    stop
                };
                (si..=last).any(|k| self.seq(toks, ti + 1, k, end))
            }
            Tok::Class { negated, items } => {
                si < end
                    && !(self.slash_literal && self.s[si] == '/')
                    && self.class_match(*negated, items, self.s[si])
                    && self.seq(toks, ti + 1, si + 1, end)
            }
            Tok::Fork(arms) => {
                let Some(&c) = self.s.get(si).filter(|_| si < end) else {
                    return false;
                };
                if self.slash_literal && c == '/' {
                    return false;
                }
                match arms
                    .iter()
                    .find(|(items, _)| self.class_match(false, items, c))
                {
                    Some((_, rest)) => self.seq(rest, 0, si + 1, end),
                    None => false,
                }
            }
            Tok::Group { kind, alts } => {
                let kind = *kind;
                match kind {
                    '@' | '?' => {
                        if kind == '?' && self.seq(toks, ti + 1, si, end) {
                            return true;
                        }
                        (si..=end).any(|k| {
                            alts.iter().any(|a| self.seq(a, 0, si, k))
                                && self.seq(toks, ti + 1, k, end)
                        })
                    }
                    '*' | '+' => {
                        // `+(...)` matches nothing at all when one of its patterns
                        // does (`+(|a)` matches the empty string).
                        let none = kind == '*' || alts.iter().any(|a| self.seq(a, 0, si, si));
                        if none && self.seq(toks, ti + 1, si, end) {
                            return true;
                        }
                        // One or more repetitions, each non-empty.
                        (si + 1..=end).any(|k| {
                            alts.iter().any(|a| self.seq(a, 0, si, k))
                                && (self.seq(toks, ti + 1, k, end)
                                    || self.repeat(alts, toks, ti, k, end))
                        })
                    }
                    '!' => (si..=end).any(|k| {
                        !alts.iter().any(|a| self.seq(a, 0, si, k))
                            && self.seq(toks, ti + 1, k, end)
                    }),
                    _ => false,
                }
            }
        }
    }

    /// More repetitions of a `*(...)`/`+(...)` group from `si`, then the rest.
    fn repeat(
        &mut self,
        alts: &[Vec<Tok>],
        toks: &[Tok],
        ti: usize,
        si: usize,
        end: usize,
    ) -> bool {
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        (si + 1..=end).any(|k| {
            alts.iter().any(|a| self.seq(a, 0, si, k))
                && (self.seq(toks, ti + 1, k, end) || self.repeat(alts, toks, ti, k, end))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(pat: &str, s: &str, want: bool) {
        let p = Pattern::new(
            pat,
            MatchOpts {
                extglob: true,
                ..MatchOpts::default()
            },
        );
        assert_eq!(p.matches(s), want, "{pat} vs {s}");
    }

    #[test]
    fn basic_patterns() {
        check("*.rs", "main.rs", true);
        check("*.rs", "main.rc", false);
        check("a?c", "abc", true);
        check("[a-c]x", "bx", true);
        check("[!a-c]x", "bx", false);
        check("[[:digit:]]*", "9lives", true);
        check("\\*", "*", true);
        check("\\*", "a", false);
        check("[]]", "]", true);
    }

    /// The two-pointer matcher of simple patterns answers as the general one does:
    /// whole matches, and shortest and longest prefixes and suffixes.
    #[test]
    fn simple_patterns_match_as_the_general_matcher() {
        let pats = [
            "*", "", "a", "*/", "/*", "a*b", "*a*b*", "?", "??*", "*?a", "a*", "*a", "\\*x",
            "*.txt", "a?c*", "**b", "A*",
        ];
        let texts = [
            "",
            "a",
            "b",
            "ab",
            "aab",
            "abab",
            "alpha/beta/gamma.txt",
            "/",
            "a/b/",
            "*x",
            "abcabc",
            "xyz",
            "AaBb",
            "\u{e9}t\u{e9}a",
        ];
        for nocase in [false, true] {
            let opts = MatchOpts {
                nocase,
                ..MatchOpts::default()
            };
            for pat in pats {
                let fast = Pattern::new(pat, opts);
                assert!(fast.simple, "{pat}");
                let mut general = fast.clone();
                general.simple = false;
                for text in texts {
                    let cs = crate::text::char_vec(text);
                    let what = format!("{pat} vs {text} (nocase {nocase})");
                    assert_eq!(fast.matches(text), general.matches(text), "{what}");
                    for longest in [false, true] {
                        assert_eq!(
                            fast.match_prefix(&cs, 0, longest),
                            general.match_prefix(&cs, 0, longest),
                            "prefix {what}"
                        );
                        assert_eq!(
                            fast.match_suffix(&cs, cs.len(), longest),
                            general.match_suffix(&cs, cs.len(), longest),
                            "suffix {what}"
                        );
                    }
                }
            }
        }
        let opts = MatchOpts::default();
        assert!(!Pattern::new("[ab]*", opts).simple);
        let slash = MatchOpts {
            dot_special: true,
            bytes: false,
            ..opts
        };
        assert!(!Pattern::new("*", slash).simple);
    }

    #[test]
    fn extglob_groups() {
        check("@(a|b)c", "bc", true);
        check("!(a|b)", "c", true);
        check("!(a|b)", "a", false);
        check("+(ab)", "ababab", true);
        check("*(ab)x", "x", true);
        check("?(a)b", "b", true);
        check("!(*.txt)", "a.txt", false);
        check("!(*.txt)", "a.rs", true);
    }

    #[test]
    fn hostile_pattern_terminates() {
        let p = Pattern::new(
            "*(*(a))b",
            MatchOpts {
                extglob: true,
                ..MatchOpts::default()
            },
        );
        assert!(!p.matches(&"a".repeat(40)));
    }

    /// Unclosed groups are literal text, and many of them nested read in linear time
    /// (each used to be tried as a group and then read again, twice per level).
    #[test]
    fn unclosed_groups_are_literal_and_cheap() {
        let opts = MatchOpts {
            extglob: true,
            ..MatchOpts::default()
        };
        check("@(a", "@(a", true);
        check("@(a", "a", false);
        let nested = "+(a|*(b".repeat(200);
        let p = Pattern::new(&nested, opts);
        assert!(p.matches(&nested));
        assert!(!p.matches("ab"));
    }
}
