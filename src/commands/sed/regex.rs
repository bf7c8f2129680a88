//! sed's regular expressions: GNU escapes (`\t`, `\xHH`, `\o`, `\d`, `\cX`) resolved,
//! then the shared POSIX translation; `.` also matches the newlines a multi-line pattern
//! space holds. Patterns with back-references run on the backtracking matcher.
//!
//! The `regex` crate matches leftmost-first where POSIX asks for leftmost-longest, so
//! an alternation whose earlier branch is a prefix of a later one (`a|ab`) can match
//! less than GNU sed does.

use ::regex::bytes::{Regex, RegexBuilder};

use crate::commands::backtrack::{Backtrack, Exhausted};
use crate::commands::grep::regex::translate_full;

/// Byte spans of the groups of one match (group 0 is the whole match).
pub type Spans = Vec<Option<(usize, usize)>>;

pub enum Engine {
    /// A pattern that is only ordinary ASCII characters: found with `memmem`, which
    /// costs a few nanoseconds a call where the regex engine's search costs tens (a
    /// `s/a/b/g` calls it once per match).
    Literal(Box<memchr::memmem::Finder<'static>>),
    Fast(Regex),
    Back(Backtrack),
}

pub struct Rx {
    engine: Engine,
    groups: usize,
}

/// A literal character in the syntax of the pattern (escaped when special).
fn literal(c: char, ere: bool, out: &mut String) {
    let special = if ere { ".[]\\*^$+?(){}|" } else { ".[]\\*^$" };
    if special.contains(c) {
        out.push('\\');
    }
    out.push(c);
}

/// Resolves GNU sed's character escapes outside bracket expressions.
fn resolve_escapes(src: &str, ere: bool) -> String {
    let cs: Vec<char> = src.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut in_bracket = false;
    while let Some(&c) = cs.get(i) {
        i += 1;
        if in_bracket {
            // GNU sed reads `\t`, `\n` and friends inside a bracket expression too.
            let escaped = match (c, cs.get(i)) {
                ('\\', Some('t')) => Some('\t'),
                ('\\', Some('n')) => Some('\n'),
                ('\\', Some('f')) => Some('\x0c'),
                ('\\', Some('v')) => Some('\x0b'),
                ('\\', Some('a')) => Some('\x07'),
                ('\\', Some('r')) => Some('\r'),
                ('\\', Some('\\')) => Some('\\'),
                _ => None,
            };
            if let Some(ch) = escaped {
                i += 1;
                if ch == '\\' {
                    // `\\` stays a pair: the bracket holds a backslash.
                    out.push('\\');
                }
                out.push(ch);
                continue;
            }
            out.push(c);
            if c == ']' && !out.ends_with("[]") && !out.ends_with("[^]") {
                in_bracket = false;
            }
            continue;
        }
        if c == '[' {
            in_bracket = true;
            out.push(c);
            continue;
        }
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(&e) = cs.get(i) else {
            out.push('\\');
            break;
        };
        i += 1;
        let simple = match e {
            't' => Some('\t'),
            'f' => Some('\x0c'),
            'v' => Some('\x0b'),
            'a' => Some('\x07'),
            'r' => Some('\r'),
            _ => None,
        };
        if let Some(ch) = simple {
            literal(ch, ere, &mut out);
            continue;
        }
        match e {
            'c' if cs.get(i).is_some() => {
                let x = cs.get(i).copied().unwrap_or('@');
                i += 1;
                literal(
                    char::from((x.to_ascii_uppercase() as u8) ^ 0x40),
                    ere,
                    &mut out,
                );
            }
            'o' | 'd' | 'x' => {
                let (radix, max) = match e {
                    'o' => (8, 3),
                    'd' => (10, 3),
                    _ => (16, 2),
                };
                let mut v: u32 = 0;
                let mut n = 0;
                while n < max {
                    match cs.get(i).and_then(|d| d.to_digit(radix)) {
                        Some(d) => {
                            v = v * radix + d;
                            i += 1;
                            n += 1;
                        }
                        None => break,
                    }
                }
                if n == 0 {
                    out.push('\\');
                    out.push(e);
                } else {
                    literal(crate::text::raw_char((v & 0xff) as u8), ere, &mut out);
                }
            }
            _ => {
                out.push('\\');
                out.push(e);
            }
        }
    }
    out
}

/// Whether a pattern (escapes resolved) matches only its own bytes, in BRE and ERE
/// alike: printable ASCII with none of either syntax's special characters.
fn is_plain_literal(p: &str) -> bool {
    !p.is_empty()
        && p.bytes()
            .all(|b| (b' '..=b'~').contains(&b) && !b".[]\\*^$+?(){}|".contains(&b))
}

impl Rx {
    /// Compiles a sed regex (BRE, or ERE with `ere`).
    pub fn new(src: &str, ere: bool, icase: bool, multi_line: bool) -> Result<Rx, String> {
        let resolved = resolve_escapes(src, ere);
        if !icase && is_plain_literal(&resolved) {
            return Ok(Rx {
                engine: Engine::Literal(Box::new(
                    memchr::memmem::Finder::new(resolved.as_bytes()).into_owned(),
                )),
                groups: 0,
            });
        }
        let t = translate_full(&resolved, ere)?;
        // In sed, `.` matches any character of the pattern space, newlines included.
        let mut pattern = t.pattern.replace("(?-s:.)", "(?s:.)");
        if multi_line {
            pattern = format!("(?m){pattern}");
        }
        if t.backrefs {
            let b = Backtrack::new(&pattern, icase)?;
            let groups = b.groups();
            return Ok(Rx {
                engine: Engine::Back(b),
                groups,
            });
        }
        let re = RegexBuilder::new(&pattern)
            .case_insensitive(icase)
            .size_limit(64 << 20)
            .build()
            .map_err(|e| {
                let msg = e.to_string();
                msg.lines()
                    .last()
                    .unwrap_or("invalid regular expression")
                    .trim()
                    .trim_start_matches("error: ")
                    .to_owned()
            })?;
        let groups = re.captures_len().saturating_sub(1);
        Ok(Rx {
            engine: Engine::Fast(re),
            groups,
        })
    }

    pub fn groups(&self) -> usize {
        self.groups
    }

    /// The first match at or after `start`.
    pub fn captures_at(&self, hay: &[u8], start: usize) -> Result<Option<Spans>, Exhausted> {
        match &self.engine {
            Engine::Literal(_) => Ok(self.find_at(hay, start)?.map(|m| vec![Some(m)])),
            Engine::Fast(re) => Ok(re.captures_at(hay, start).map(|caps| {
                caps.iter()
                    .map(|m| m.map(|m| (m.start(), m.end())))
                    .collect()
            })),
            Engine::Back(b) => Ok(b.captures_at(hay, start)?.map(|caps| {
                caps.chunks(2)
                    .map(|pair| match pair {
                        [Some(s), Some(e)] => Some((*s, *e)),
                        _ => None,
                    })
                    .collect()
            })),
        }
    }

    /// Where the first match at or after `start` is, without its groups (no allocation
    /// with the fast engine).
    pub fn find_at(&self, hay: &[u8], start: usize) -> Result<Option<(usize, usize)>, Exhausted> {
        match &self.engine {
            Engine::Literal(f) => Ok(hay.get(start..).and_then(|rest| {
                f.find(rest)
                    .map(|p| (start + p, start + p + f.needle().len()))
            })),
            Engine::Fast(re) => Ok(re.find_at(hay, start).map(|m| (m.start(), m.end()))),
            Engine::Back(_) => Ok(self
                .captures_at(hay, start)?
                .and_then(|s| s.first().copied().flatten())),
        }
    }

    pub fn is_match(&self, hay: &[u8]) -> Result<bool, Exhausted> {
        match &self.engine {
            Engine::Literal(f) => Ok(f.find(hay).is_some()),
            Engine::Fast(re) => Ok(re.is_match(hay)),
            Engine::Back(b) => b.is_match(hay),
        }
    }
}
