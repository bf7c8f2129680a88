//! `tac`: concatenates files with their records in reverse order; records end with a
//! separator (`\n`, or a string given by `-s`; `-b` attaches it before). With `-r` the
//! separator is a regular expression in the syntax GNU `tac` compiles it with; one with
//! back-references (`\(.\)\1`) runs on the crate's backtracking matcher.

use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input, MatchKind};

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long};
use super::backtrack::{Backtrack, Exhausted};
use super::util::{OpenError, quotef};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("before", HasArg::No, "b"),
    long("regex", HasArg::No, "r"),
    long("separator", HasArg::Required, "s"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

  -b, --before             attach the separator before instead of after
  -r, --regex              interpret the separator as a regular expression
  -s, --separator=STRING   use STRING as the separator instead of newline
      --help     display this help and exit
      --version  output version information and exit
";

/// Splits `data` into records, each keeping its separator (after, or with `before`, in
/// front).
fn split<'a>(data: &'a [u8], sep: &[u8], before: bool) -> Vec<&'a [u8]> {
    let cuts = crate::text::occurrences(data, sep);
    let mut recs = Vec::new();
    let mut start = 0;
    for c in cuts {
        let end = if before { c } else { c + sep.len() };
        if end > start {
            recs.push(data.get(start..end).unwrap_or(&[]));
        }
        start = end;
    }
    if start < data.len() {
        recs.push(data.get(start..).unwrap_or(&[]));
    }
    recs
}

/// A `-r` separator translated out of GNU's syntax, and whether it refers back to a
/// group (`\1`), which the `regex` crate cannot run.
struct Translated {
    pattern: String,
    backrefs: bool,
}

/// A group being read: where it starts in the translation, its number, and glibc's
/// sets of groups closed when it opened and at the ends of its finished alternatives.
struct Frame {
    start: usize,
    number: u32,
    initial: u32,
    accumulated: u32,
}

/// glibc's record of which groups a back-reference may name: those closed before it
/// on its own path through the alternatives (`\(a\)\|\1` is invalid).
#[derive(Default)]
struct Groups {
    /// The open groups, innermost last; the whole pattern is the frame below them.
    open: Vec<Frame>,
    top: (u32, u32),
    opened: u32,
    completed: u32,
}

impl Groups {
    fn open(&mut self, start: usize) {
        self.opened += 1;
        self.open.push(Frame {
            start,
            number: self.opened,
            initial: self.completed,
            accumulated: 0,
        });
    }

    /// Closes the innermost group; where it starts, or `None` when none is open.
    fn close(&mut self) -> Option<usize> {
        let frame = self.open.pop()?;
        self.completed |= frame.accumulated;
        if frame.number <= 9 {
            self.completed |= 1 << frame.number;
        }
        Some(frame.start)
    }

    /// `\|`: the next alternative starts from the groups closed when this level began.
    fn alternative(&mut self) {
        let (initial, accumulated) = match self.open.last_mut() {
            Some(f) => (f.initial, &mut f.accumulated),
            None => (self.top.0, &mut self.top.1),
        };
        *accumulated |= self.completed;
        self.completed = initial;
    }

    fn completed(&self, n: u32) -> bool {
        n <= 9 && self.completed & (1 << n) != 0
    }

    fn any_open(&self) -> bool {
        !self.open.is_empty()
    }
}

/// Translates a separator from the syntax GNU `tac` compiles it in (glibc's default,
/// `RE_SYNTAX_EMACS`: `\( \) \|` group and alternate, `* + ?` repeat, `\1`..`\9`
/// back-references, no intervals and no `[:class:]`, a backslash is literal inside
/// brackets, `.` stops at newlines, `^` and `$` also anchor at newlines) into `regex`
/// crate syntax, which the backtracking matcher reads too. Errors carry glibc's
/// wording.
fn emacs_to_rust(re: &str) -> Result<Translated, String> {
    let cs: Vec<char> = re.chars().collect();
    let mut out = String::from("(?m)");
    let mut backrefs = false;
    // Where the last repeatable atom starts in `out` (`None`: nothing to repeat, so
    // `*`, `+` and `?` are literal, as at the start or after an anchor).
    let mut atom: Option<usize> = None;
    let mut repeated = false;
    let mut groups = Groups::default();
    // Whether `^` here is an anchor: at the start, after `\(` or after `\|`.
    let mut next_at_start = true;
    let mut i = 0;
    while let Some(&c) = cs.get(i) {
        i += 1;
        let at_start = std::mem::replace(&mut next_at_start, false);
        let here = out.len();
        if matches!(c, '*' | '+' | '?')
            && let Some(start) = atom
        {
            if repeated {
                out.insert_str(start, "(?:");
                out.push(')');
            }
            out.push(c);
            repeated = true;
            continue;
        }
        repeated = false;
        atom = Some(here);
        match c {
            '\\' => {
                let Some(&e) = cs.get(i) else {
                    return Err("Trailing backslash".to_owned());
                };
                i += 1;
                match e {
                    '(' => {
                        groups.open(here);
                        out.push('(');
                        atom = None;
                        next_at_start = true;
                    }
                    ')' => {
                        let Some(start) = groups.close() else {
                            return Err("Unmatched ) or \\)".to_owned());
                        };
                        out.push(')');
                        atom = Some(start);
                    }
                    '|' => {
                        groups.alternative();
                        out.push('|');
                        atom = None;
                        next_at_start = true;
                    }
                    '1'..='9' => {
                        if !e.to_digit(10).is_some_and(|n| groups.completed(n)) {
                            return Err("Invalid back reference".to_owned());
                        }
                        out.push('\\');
                        out.push(e);
                        backrefs = true;
                    }
                    'w' | 'W' | 's' | 'S' => {
                        out.push('\\');
                        out.push(e);
                    }
                    'b' | 'B' | '<' | '>' | '`' | '\'' => {
                        out.push_str(match e {
                            'b' => "\\b",
                            'B' => "\\B",
                            '<' => "\\b{start}",
                            '>' => "\\b{end}",
                            '`' => "\\A",
                            _ => "\\z",
                        });
                        atom = None;
                    }
                    _ => out.push_str(&regex::escape(e.encode_utf8(&mut [0; 4]))),
                }
            }
            '^' if at_start => {
                out.push('^');
                atom = None;
            }
            '$' if i == cs.len()
                || (cs.get(i) == Some(&'\\') && matches!(cs.get(i + 1), Some(')' | '|'))) =>
            {
                out.push('$');
                atom = None;
            }
            '.' => out.push_str("[^\n]"),
            '[' => i = emacs_bracket(&cs, i, &mut out)?,
            _ => out.push_str(&regex::escape(c.encode_utf8(&mut [0; 4]))),
        }
    }
    if groups.any_open() {
        return Err("Unmatched ( or \\(".to_owned());
    }
    Ok(Translated {
        pattern: out,
        backrefs,
    })
}

/// Copies the bracket expression that starts after the `[` at `cs[i - 1]`; returns the
/// index after its `]`. Every character inside is literal but `^` first, `]` first and
/// `-` between two others; `[.c.]` and `[=c=]` name one character.
fn emacs_bracket(cs: &[char], mut i: usize, out: &mut String) -> Result<usize, String> {
    let negated = cs.get(i) == Some(&'^');
    if negated {
        i += 1;
    }
    if i >= cs.len() {
        return Err("Invalid regular expression".to_owned());
    }
    let unmatched = || "Unmatched [, [^, [:, [., or [=".to_owned();
    let mut items = String::new();
    let mut first = true;
    loop {
        let mut c = *cs.get(i).ok_or_else(unmatched)?;
        if c == ']' && !first {
            break;
        }
        first = false;
        i += 1;
        if c == '[' && matches!(cs.get(i), Some('.' | '=')) {
            let kind = cs.get(i).copied().unwrap_or('.');
            let body = cs.get(i + 1).copied().ok_or_else(unmatched)?;
            if cs.get(i + 2) != Some(&kind) || cs.get(i + 3) != Some(&']') {
                return Err(unmatched());
            }
            c = body;
            i += 4;
        }
        let hi = match (cs.get(i), cs.get(i + 1)) {
            (Some('-'), Some(&hi)) if hi != ']' => hi,
            _ => {
                items.push_str(&regex::escape(c.encode_utf8(&mut [0; 4])));
                continue;
            }
        };
        i += 2;
        // glibc accepts a range that runs backwards; it matches nothing.
        if c <= hi {
            items.push_str(&regex::escape(c.encode_utf8(&mut [0; 4])));
            items.push('-');
            items.push_str(&regex::escape(hi.encode_utf8(&mut [0; 4])));
        }
    }
    out.push_str(match (items.is_empty(), negated) {
        (true, false) => "[^\\s\\S]",
        (true, true) => "(?s:.)",
        (false, true) => "[^",
        (false, false) => "[",
    });
    if !items.is_empty() {
        out.push_str(&items);
        out.push(']');
    }
    Ok(i + 1)
}

/// A compiled `-r` separator: the `regex` crate's automata, or the backtracking
/// matcher when it has back-references.
enum Separator {
    Fast(Regex),
    Back(Backtrack),
}

impl Separator {
    /// Compiles a `-r` separator to match the longest text at a given start.
    fn new(sep: &str) -> Result<Separator, String> {
        let t = emacs_to_rust(sep)?;
        if t.backrefs {
            return Backtrack::new(&t.pattern, false).map(Separator::Back);
        }
        Regex::builder()
            .configure(Regex::config().match_kind(MatchKind::All))
            .syntax(regex_automata::util::syntax::Config::new().utf8(false))
            .build(&t.pattern)
            .map(Separator::Fast)
            .map_err(|e| format!("invalid regular expression: {e}"))
    }

    /// The end of the longest match in `hay` that starts at `start`.
    fn longest_at(&self, hay: &[u8], start: usize) -> Result<Option<usize>, Exhausted> {
        match self {
            Separator::Fast(re) => {
                let input = Input::new(hay).range(start..).anchored(Anchored::Yes);
                Ok(re.search_half(&input).map(|m| m.offset()))
            }
            Separator::Back(b) => b.longest_at(hay, start),
        }
    }
}

/// Reverses `data` as GNU `tac -r` does: searching backward from the end for the
/// rightmost position where the separator matches inside the text not yet split off,
/// taking the longest match there, so `--` against `-+` is two separators. `check`
/// runs now and then, to let the run be cancelled.
fn reverse_by_regex(
    data: &[u8],
    sep: &Separator,
    before: bool,
    check: &mut dyn FnMut() -> std::io::Result<()>,
) -> std::io::Result<Result<Vec<u8>, Exhausted>> {
    let mut out = Vec::with_capacity(data.len());
    let mut past_end = data.len();
    let mut limit = data.len();
    loop {
        let hay = data.get(..limit).unwrap_or(&[]);
        // The match that starts last (before the end), longest at that start.
        let mut found = None;
        for start in (0..hay.len()).rev() {
            if start % 4096 == 0 {
                check()?;
            }
            match sep.longest_at(hay, start) {
                Ok(Some(end)) => {
                    found = Some((start, end));
                    break;
                }
                Ok(None) => {}
                Err(e) => return Ok(Err(e)),
            }
        }
        let Some((start, end)) = found else {
            break;
        };
        let cut = if before { start } else { end };
        out.extend_from_slice(data.get(cut..past_end).unwrap_or(&[]));
        past_end = cut;
        limit = start;
    }
    out.extend_from_slice(data.get(..past_end).unwrap_or(&[]));
    Ok(Ok(out))
}

pub fn tac(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("brs:", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let sep_text = parsed.last("s").unwrap_or("\n");
    let sep = crate::text::encode(sep_text);
    let before = parsed.has("b");
    let regex = if parsed.has("r") {
        if sep.is_empty() {
            ctx.err("separator cannot be empty")?;
            return Ok(1);
        }
        match Separator::new(sep_text) {
            Ok(re) => Some(re),
            Err(e) => {
                ctx.err(e)?;
                return Ok(1);
            }
        }
    } else {
        None
    };
    let describe = |name: &str, e: &OpenError| {
        if e.is(crate::fs::Errno::EISDIR) {
            format!("{}: read error: {e}", quotef(name))
        } else {
            format!(
                "failed to open {} for reading: {e}",
                super::util::quote(name)
            )
        }
    };
    let mut exhausted = false;
    let status = ctx.each_input_or(&parsed.operands, describe, |ctx, _, data| {
        if let Some(sep) = &regex {
            let mut check = || ctx.host.check();
            return match reverse_by_regex(data, sep, before, &mut check)? {
                Ok(out) => ctx.stdout.write_all(&out),
                Err(e) => {
                    exhausted = true;
                    ctx.err(e)
                }
            };
        }
        // coreutils 9.1 finds no record in an empty separator and copies the input.
        if sep.is_empty() {
            return ctx.stdout.write_all(data);
        }
        let mut out = Vec::with_capacity(data.len());
        for rec in split(data, &sep, before).into_iter().rev() {
            out.extend_from_slice(rec);
        }
        ctx.stdout.write_all(&out)
    })?;
    Ok(if exhausted { 1 } else { status })
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn tac_table() {
        for (line, stdin, out) in [
            ("tac", "a\nb\nc\n", "c\nb\na\n"),
            ("tac", "a\nb\nc", "cb\na\n"),
            ("tac -s -", "a-b-c-", "c-b-a-"),
            ("tac -b -s -", "a-b-c", "-c-ba"),
            ("tac -s ab", "1ab2ab3", "32ab1ab"),
            ("tac -r -s 'x\\|xy'", "axbxyc", "cbxyax"),
            ("tac -r -s 'a*'", "xaaay", "yaaxa"),
            ("tac -r -b -s -+", "a--b-c", "-c-b-a"),
            ("tac -r -s '\\(.\\)\\1'", "aXXbYYc", "cbYYaXX"),
            ("tac -r -s '\\(-\\)\\1*'", "q--w---e", "e--w--q-"),
        ] {
            check(&[], line, stdin, (out, "", 0));
        }
        check(
            &[],
            "tac nope",
            "",
            (
                "",
                "tac: failed to open 'nope' for reading: No such file or directory\n",
                1,
            ),
        );
    }
}
