//! Brace expansion (bash manual, "Brace Expansion"): `a{b,c}d`, `{1..10..2}`, `{a..z}`,
//! `{01..10}`. It works on a word's typed parts: only unquoted literal braces and commas
//! count, and the other parts ride along untouched.

use std::borrow::Cow;

use crate::syntax::{Word, WordPart};

/// The default bound on the words one brace expansion may produce.
pub const MAX_RESULTS: usize = 1 << 20;

/// A brace expansion would produce more than the allowed number of words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooMany(pub usize);

impl std::fmt::Display for TooMany {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "brace expansion limit exceeded ({} words)", self.0)
    }
}

#[derive(Clone, Debug)]
enum Tok {
    C(char),
    Part(WordPart),
}

/// Why a brace expansion failed.
#[derive(Debug)]
pub enum BraceError {
    /// More words than the limit allows.
    TooMany(TooMany),
    /// A result that reads back as a broken substitution (bash's message).
    Reread(String),
    /// The words would hold more than this many bytes (the run's memory budget).
    Memory(u64),
}

/// The bounds one expansion works under, and the bytes its results hold so far.
struct Bound {
    words: usize,
    bytes: usize,
    held: usize,
}

impl From<TooMany> for BraceError {
    fn from(t: TooMany) -> BraceError {
        BraceError::TooMany(t)
    }
}

/// Expands braces in `w`, returning the resulting words (just `w`, borrowed, if none),
/// or an error when they would number more than `max`.
///
/// bash expands braces on the text of the word, so the results are read again: a
/// `$name` runs on into letters that follow it (`{$a,b}_c` gives `$a_c`), a `~` that
/// begins a result is a tilde prefix, and a backquote produced by a character range
/// opens a command substitution that never closes.
pub fn expand(w: &Word, max: usize) -> Result<Cow<'_, [Word]>, BraceError> {
    expand_bounded(w, max, usize::MAX)
}

/// [`expand`], also failing with [`BraceError::Memory`] once the words made so far
/// would hold more than `max_bytes` (checked as they are made, so a runaway
/// `{a,b}{a,b}...` stops at the bound instead of first filling memory).
pub fn expand_bounded(
    w: &Word,
    max: usize,
    max_bytes: usize,
) -> Result<Cow<'_, [Word]>, BraceError> {
    let has_brace = w
        .parts
        .iter()
        .any(|p| matches!(p, WordPart::Lit(s) if s.contains('{')));
    if !has_brace {
        return Ok(Cow::Borrowed(std::slice::from_ref(w)));
    }
    let mut toks = Vec::new();
    for p in &w.parts {
        match p {
            WordPart::Lit(s) => toks.extend(s.chars().map(Tok::C)),
            // The text is read again after expanding, where a tilde prefix counts only
            // at the start of a result: `x=~/{a,b}` gives `x=~/a x=~/b`.
            WordPart::Tilde(u) => {
                toks.push(Tok::C('~'));
                toks.extend(u.chars().map(Tok::C));
            }
            other => toks.push(Tok::Part(other.clone())),
        }
    }
    let mut out = Vec::new();
    let mut bound = Bound {
        words: max,
        bytes: max_bytes,
        held: 0,
    };
    expand_toks(&toks, &mut out, &mut bound)?;
    if out.len() == 1 && out[0].len() == toks.len() {
        // No expression expanded (any expansion drops at least its braces).
        return Ok(Cow::Borrowed(std::slice::from_ref(w)));
    }
    out.into_iter()
        .map(|t| reread(to_word(t)).map_err(BraceError::Reread))
        .collect::<Result<_, _>>()
        .map(Cow::Owned)
}

/// Applies to a brace expansion result what re-reading its text would change: a
/// backquote ends the word or opens a substitution that never closes, and a backslash
/// that ends the word quotes nothing and goes.
fn reread(mut w: Word) -> Result<Word, String> {
    let last = w.parts.len().saturating_sub(1);
    for (i, p) in w.parts.iter().enumerate() {
        if let WordPart::Lit(s) = p
            && let Some(at) = s.find('`')
            && !(i == last && at + 1 == s.len())
        {
            let mut rest = s[at..].to_owned();
            rest.push_str(&crate::syntax::printer::word_to_string(&Word {
                parts: w.parts[i + 1..].to_vec(),
            }));
            return Err(format!("bad substitution: no closing \"`\" in {rest}"));
        }
    }
    let mut i = 0;
    while i + 1 < w.parts.len() {
        let run = match (&w.parts[i], &w.parts[i + 1]) {
            (WordPart::Param(p), WordPart::Lit(s))
                if !p.braced
                    && !p.length
                    && !p.indirect
                    && p.index.is_none()
                    && matches!(p.op, crate::syntax::ParamOp::None)
                    && matches!(p.param, crate::syntax::Param::Name(_)) =>
            {
                s.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .map(char::len_utf8)
                    .sum::<usize>()
            }
            _ => 0,
        };
        if run > 0 {
            let WordPart::Lit(s) = &mut w.parts[i + 1] else {
                break;
            };
            let more: String = s.drain(..run).collect();
            let empty = s.is_empty();
            if let WordPart::Param(p) = &mut w.parts[i]
                && let crate::syntax::Param::Name(n) = &mut p.param
            {
                n.push_str(&more);
            }
            if empty {
                w.parts.remove(i + 1);
            }
        }
        i += 1;
    }
    if let Some(WordPart::Lit(s)) = w.parts.last_mut()
        && s.ends_with('\\')
    {
        s.pop();
        if s.is_empty() {
            w.parts.pop();
            if w.parts.is_empty() {
                w.parts.push(WordPart::Quoted(String::new()));
            }
        }
    }
    if let Some(WordPart::Lit(s)) = w.parts.first()
        && let Some(rest) = s.strip_prefix('~')
    {
        let end = rest.find('/');
        if end.is_some() || w.parts.len() == 1 {
            let user = rest[..end.unwrap_or(rest.len())].to_owned();
            let tail = rest[user.len()..].to_owned();
            if user.is_empty() || crate::syntax::is_name(&user) {
                w.parts.remove(0);
                if !tail.is_empty() {
                    w.parts.insert(0, WordPart::Lit(tail));
                }
                w.parts.insert(0, WordPart::Tilde(user));
            }
        }
    }
    Ok(w)
}

fn to_word(toks: Vec<Tok>) -> Word {
    let mut parts = Vec::new();
    let mut lit = String::new();
    for t in toks {
        match t {
            Tok::C(c) => lit.push(c),
            Tok::Part(p) => {
                if !lit.is_empty() {
                    parts.push(WordPart::Lit(std::mem::take(&mut lit)));
                }
                parts.push(p);
            }
        }
    }
    if !lit.is_empty() {
        parts.push(WordPart::Lit(lit));
    }
    Word { parts }
}

fn expand_toks(toks: &[Tok], out: &mut Vec<Vec<Tok>>, b: &mut Bound) -> Result<(), BraceError> {
    let max = b.words;
    if out.len() >= max {
        return Err(TooMany(max).into());
    }
    // Find the first `{` that opens a valid brace expression.
    let mut i = 0;
    while i < toks.len() {
        if let Tok::C('{') = toks[i] {
            // `${` is a parameter, never a brace expression (already parsed as a part);
            // a literal `$` before `{` still prevents it.
            let after_dollar = i > 0 && matches!(toks[i - 1], Tok::C('$'));
            if !after_dollar && let Some((close, commas)) = find_close(toks, i) {
                let prefix = &toks[..i];
                let suffix = &toks[close + 1..];
                let alts: Vec<Vec<Tok>> = if commas.is_empty() {
                    match sequence(&toks[i + 1..close], max) {
                        Some(items) => items?
                            .into_iter()
                            .map(|s| s.chars().map(Tok::C).collect())
                            .collect(),
                        None => {
                            i += 1;
                            continue;
                        }
                    }
                } else {
                    let mut alts = Vec::new();
                    let mut start = i + 1;
                    for &c in &commas {
                        alts.push(toks[start..c].to_vec());
                        start = c + 1;
                    }
                    alts.push(toks[start..close].to_vec());
                    alts
                };
                for alt in alts {
                    let mut combined = prefix.to_vec();
                    combined.extend(alt);
                    combined.extend_from_slice(suffix);
                    expand_toks(&combined, out, b)?;
                }
                return Ok(());
            }
        }
        i += 1;
    }
    // A result holds its tokens, and as a word and a field later about as much again.
    b.held = b
        .held
        .saturating_add(std::mem::size_of_val(toks).saturating_mul(2));
    if b.held > b.bytes {
        return Err(BraceError::Memory(b.bytes as u64));
    }
    out.push(toks.to_vec());
    Ok(())
}

/// The matching `}` of the `{` at `open` and the top-level commas between them.
fn find_close(toks: &[Tok], open: usize) -> Option<(usize, Vec<usize>)> {
    let mut depth = 0usize;
    let mut commas = Vec::new();
    let mut i = open;
    while i < toks.len() {
        match toks[i] {
            Tok::C('{') => depth += 1,
            Tok::C('}') => {
                depth -= 1;
                if depth == 0 {
                    let body = &toks[open + 1..i];
                    if !commas.is_empty() || is_sequence(body) {
                        return Some((i, commas));
                    }
                    // Not a valid expression: the caller moves on to the next `{`.
                    return None;
                }
            }
            Tok::C(',') if depth == 1 => commas.push(i),
            _ => {}
        }
        i += 1;
    }
    None
}

fn is_sequence(body: &[Tok]) -> bool {
    // A zero bound answers "is it a sequence" without generating one.
    sequence(body, 0).is_some()
}

fn body_text(body: &[Tok]) -> Option<String> {
    let mut s = String::new();
    for t in body {
        match t {
            Tok::C(c) => s.push(*c),
            Tok::Part(_) => return None,
        }
    }
    Some(s)
}

/// `{x..y[..step]}` with integers or single characters; `Some(Err)` when it has more
/// than `max` items.
fn sequence(body: &[Tok], max: usize) -> Option<Result<Vec<String>, TooMany>> {
    let text = body_text(body)?;
    let parts: Vec<&str> = text.split("..").collect();
    if parts.len() != 2 && parts.len() != 3 {
        return None;
    }
    let step: i64 = if parts.len() == 3 {
        parts[2].parse().ok()?
    } else {
        1
    };
    let (a, b) = (parts[0], parts[1]);
    if let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) {
        let width = |s: &str| {
            let digits = s.trim_start_matches('-');
            if digits.len() > 1 && digits.starts_with('0') {
                s.len()
            } else {
                0
            }
        };
        let w = width(a).max(width(b));
        let step = step.checked_abs()?.max(1);
        let count = (x.abs_diff(y) / step as u64).saturating_add(1);
        if count > max as u64 {
            return Some(Err(TooMany(max)));
        }
        let count = count as usize;
        let mut out = Vec::with_capacity(count);
        let mut v = x;
        for _ in 0..count {
            out.push(if w > 0 {
                if v < 0 {
                    format!("-{:0>width$}", v.unsigned_abs(), width = w - 1)
                } else {
                    format!("{:0>width$}", v, width = w)
                }
            } else {
                v.to_string()
            });
            if x <= y {
                v = v.wrapping_add(step);
            } else {
                v = v.wrapping_sub(step);
            }
        }
        return Some(Ok(out));
    }
    let (mut ca, mut cb) = (a.chars(), b.chars());
    let (Some(x), None, Some(y), None) = (ca.next(), ca.next(), cb.next(), cb.next()) else {
        return None;
    };
    if !x.is_ascii_alphabetic() || !y.is_ascii_alphabetic() {
        return None;
    }
    let step = step.checked_abs()?.max(1) as u32;
    let (xi, yi) = (x as u32, y as u32);
    if (xi.abs_diff(yi) / step) as usize >= max {
        return Some(Err(TooMany(max)));
    }
    let mut out = Vec::new();
    let mut v = xi;
    loop {
        if let Some(c) = char::from_u32(v) {
            out.push(c.to_string());
        }
        if xi <= yi {
            v += step;
            if v > yi {
                break;
            }
        } else {
            if v < yi + step {
                break;
            }
            v -= step;
        }
    }
    Some(Ok(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(src: &str, want: &[&str]) {
        let w = Word::lit(src);
        let got: Vec<String> = expand(&w, MAX_RESULTS)
            .unwrap_or_default()
            .iter()
            .map(|w| w.as_literal().unwrap_or("?").to_owned())
            .collect();
        assert_eq!(got, want, "{src}");
    }

    #[test]
    fn lists_and_sequences() {
        check("a{b,c}d", &["abd", "acd"]);
        check("{1..3}", &["1", "2", "3"]);
        check("{3..1}", &["3", "2", "1"]);
        check("{1..10..4}", &["1", "5", "9"]);
        check("{01..03}", &["01", "02", "03"]);
        check("{a..c}", &["a", "b", "c"]);
        check("{a,b}{1,2}", &["a1", "a2", "b1", "b2"]);
        check("{a}", &["{a}"]);
        check("{a,{b,c}}", &["a", "b", "c"]);
        check("x{}y", &["x{}y"]);
    }
}
