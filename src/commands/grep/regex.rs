//! Translates POSIX basic and extended regular expressions (with GNU extensions:
//! `\+ \? \|` in BRE, `\< \> \b \B \w \W \s \S`) into `regex` crate syntax, with GNU
//! grep's error messages. Back-references are reported as [`Translated::backrefs`] so
//! the caller can fall back to a backtracking matcher.

/// A translated pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Translated {
    pub pattern: String,
    /// Whether the pattern uses `\1`..`\9`.
    pub backrefs: bool,
}

fn push_literal(out: &mut String, c: char) {
    if "\\.+*?()|[]{}^$#&-~".contains(c) {
        out.push('\\');
    }
    out.push(c);
}

/// Copies a bracket expression starting after `[`; returns the index after `]`.
fn bracket(chars: &[char], mut i: usize, out: &mut String) -> Result<usize, String> {
    let unmatched = || "Unmatched [, [^, [:, [., or [=".to_owned();
    out.push('[');
    if chars.get(i) == Some(&'^') {
        out.push('^');
        i += 1;
    }
    // GNU's matcher words a pattern that ends at `[` or `[^` differently.
    if i >= chars.len() {
        return Err("Invalid regular expression".to_owned());
    }
    let mut first = true;
    loop {
        let c = *chars.get(i).ok_or_else(unmatched)?;
        if c == ']' && !first {
            out.push(']');
            return Ok(i + 1);
        }
        first = false;
        if c == '[' {
            match chars.get(i + 1) {
                Some(&kind @ (':' | '=' | '.')) => {
                    let mut j = i + 2;
                    while j + 1 < chars.len() && !(chars[j] == kind && chars[j + 1] == ']') {
                        j += 1;
                    }
                    if j + 1 >= chars.len() {
                        return Err(unmatched());
                    }
                    let body: String = chars[i + 2..j].iter().collect();
                    if kind == ':' {
                        const CLASSES: &[&str] = &[
                            "alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct",
                            "print", "graph", "cntrl", "xdigit",
                        ];
                        if !CLASSES.contains(&body.as_str()) {
                            return Err("Invalid character class name".to_owned());
                        }
                        out.push_str(&format!("[:{body}:]"));
                    } else {
                        for ch in body.chars() {
                            push_literal(out, ch);
                        }
                    }
                    i = j + 2;
                    continue;
                }
                _ => {
                    out.push_str("\\[");
                    i += 1;
                    continue;
                }
            }
        }
        if c == '-' && !out.ends_with('[') && !out.ends_with("[^") && chars.get(i + 1) != Some(&']')
        {
            out.push('-');
        } else if "\\&~-^[]".contains(c) {
            out.push('\\');
            out.push(c);
        } else {
            out.push(c);
        }
        i += 1;
    }
}

/// Translates one pattern; `ere` selects extended syntax.
pub fn translate(pat: &str, ere: bool) -> Result<String, String> {
    translate_full(pat, ere).map(|t| t.pattern)
}

/// Like [`translate`], also reporting back-references.
pub fn translate_full(pat: &str, ere: bool) -> Result<Translated, String> {
    let chars: Vec<char> = pat.chars().collect();
    let mut out = String::new();
    let mut backrefs = false;
    let mut depth = 0usize;
    // Whether the next token starts an expression (where `*` is literal and `^` anchors).
    let mut at_start = true;
    // Whether the last token can take a quantifier (and has not just taken one).
    let mut quantifiable = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        // Normalise the token into (kind, char).
        enum Tok {
            Open,
            Close,
            Alt,
            Star,
            Plus,
            Quest,
            Brace,
            Lit(char),
            Raw(&'static str),
            Backref(u32),
            Caret,
            Dollar,
            Dot,
            Bracket,
        }
        let (tok, len) = if c == '\\' {
            match next {
                None => return Err("Trailing backslash".to_owned()),
                Some('(') if !ere => (Tok::Open, 2),
                Some(')') if !ere => (Tok::Close, 2),
                Some('|') if !ere => (Tok::Alt, 2),
                Some('+') if !ere => (Tok::Plus, 2),
                Some('?') if !ere => (Tok::Quest, 2),
                Some('{') if !ere => (Tok::Brace, 2),
                Some(d @ '1'..='9') => (Tok::Backref(d.to_digit(10).unwrap_or(1)), 2),
                Some('<') | Some('>') | Some('b') => (Tok::Raw("\\b"), 2),
                Some('B') => (Tok::Raw("\\B"), 2),
                Some('w') => (Tok::Raw("[_[:alnum:]]"), 2),
                Some('W') => (Tok::Raw("[^_[:alnum:]]"), 2),
                Some('s') => (Tok::Raw("[[:space:]]"), 2),
                Some('S') => (Tok::Raw("[^[:space:]]"), 2),
                Some('`') => (Tok::Raw("\\A"), 2),
                Some('\'') => (Tok::Raw("\\z"), 2),
                Some('n') => (Tok::Lit('\n'), 2),
                Some(o) => (Tok::Lit(o), 2),
            }
        } else {
            match c {
                '(' if ere => (Tok::Open, 1),
                ')' if ere && depth > 0 => (Tok::Close, 1),
                '|' if ere => (Tok::Alt, 1),
                '+' if ere => (Tok::Plus, 1),
                '?' if ere => (Tok::Quest, 1),
                '{' if ere => (Tok::Brace, 1),
                '*' => (Tok::Star, 1),
                '^' => (Tok::Caret, 1),
                '$' => (Tok::Dollar, 1),
                '.' => (Tok::Dot, 1),
                '[' => (Tok::Bracket, 1),
                o => (Tok::Lit(o), 1),
            }
        };
        i += len;
        match tok {
            Tok::Open => {
                out.push('(');
                depth += 1;
                at_start = true;
                quantifiable = false;
                continue;
            }
            Tok::Close => {
                if depth == 0 {
                    return Err("Unmatched ) or \\)".to_owned());
                }
                depth -= 1;
                out.push(')');
                quantifiable = true;
            }
            Tok::Alt => {
                out.push('|');
                at_start = true;
                quantifiable = false;
                continue;
            }
            Tok::Star | Tok::Plus | Tok::Quest => {
                let sym = match tok {
                    Tok::Star => '*',
                    Tok::Plus => '+',
                    _ => '?',
                };
                if at_start && (!ere || sym == '*') {
                    // A leading quantifier is literal.
                    push_literal(&mut out, sym);
                    quantifiable = true;
                } else if quantifiable {
                    out.push(sym);
                    quantifiable = false;
                } else if !at_start {
                    // `a**`: the extra quantifier changes nothing.
                } else {
                    push_literal(&mut out, sym);
                    quantifiable = true;
                }
            }
            Tok::Brace => {
                // An interval: digits[,digits] then `}` (ERE) or `\}` (BRE).
                let mut j = i;
                let mut body = String::new();
                while let Some(&d) = chars.get(j) {
                    if d.is_ascii_digit() || d == ',' {
                        body.push(d);
                        j += 1;
                    } else {
                        break;
                    }
                }
                let close = if ere {
                    (chars.get(j) == Some(&'}')).then_some(1)
                } else {
                    (chars.get(j) == Some(&'\\') && chars.get(j + 1) == Some(&'}')).then_some(2)
                };
                let valid = close.is_some()
                    && !body.is_empty()
                    && !body.starts_with(',')
                    && body.matches(',').count() <= 1;
                if !valid {
                    if ere {
                        // GNU treats an ERE `{` that starts no interval as literal.
                        push_literal(&mut out, '{');
                        quantifiable = true;
                        at_start = false;
                        continue;
                    }
                    return Err(if close.is_none() {
                        "Unmatched \\{".to_owned()
                    } else {
                        "Invalid content of \\{\\}".to_owned()
                    });
                }
                if let Some((lo, hi)) = body.split_once(',')
                    && !hi.is_empty()
                    && lo.parse::<u64>().ok() > hi.parse::<u64>().ok()
                {
                    return Err("Invalid content of \\{\\}".to_owned());
                }
                i = j + close.unwrap_or(1);
                if quantifiable {
                    out.push('{');
                    out.push_str(&body);
                    out.push('}');
                    quantifiable = false;
                } else if at_start {
                    let text = format!("{{{body}}}");
                    for ch in text.chars() {
                        push_literal(&mut out, ch);
                    }
                    quantifiable = true;
                }
            }
            Tok::Lit(ch) => {
                push_literal(&mut out, ch);
                quantifiable = true;
            }
            Tok::Raw(s) => {
                out.push_str(s);
                quantifiable = s.starts_with('[');
            }
            Tok::Backref(n) => {
                backrefs = true;
                out.push_str(&format!("\\{n}"));
                quantifiable = true;
            }
            Tok::Caret => {
                if ere || at_start {
                    out.push('^');
                    quantifiable = false;
                    continue;
                }
                push_literal(&mut out, '^');
                quantifiable = true;
            }
            Tok::Dollar => {
                let at_end = ere
                    || i >= chars.len()
                    || (chars.get(i) == Some(&'\\')
                        && matches!(chars.get(i + 1), Some(')') | Some('|')));
                if at_end {
                    out.push('$');
                    quantifiable = false;
                } else {
                    push_literal(&mut out, '$');
                    quantifiable = true;
                }
            }
            Tok::Dot => {
                out.push_str("(?-s:.)");
                quantifiable = true;
            }
            Tok::Bracket => {
                i = bracket(&chars, i, &mut out)?;
                quantifiable = true;
            }
        }
        at_start = false;
    }
    if depth > 0 {
        return Err("Unmatched ( or \\(".to_owned());
    }
    Ok(Translated {
        pattern: out,
        backrefs,
    })
}

#[cfg(test)]
mod tests {
    use super::translate;

    #[test]
    fn bre_and_ere() {
        for (pat, ere, want) in [
            ("a+b", false, "a\\+b"),
            ("a\\+b", false, "a+b"),
            ("\\(ab\\)*", false, "(ab)*"),
            ("*a", false, "\\*a"),
            ("a\\{2,3\\}", false, "a{2,3}"),
            ("a|b", false, "a\\|b"),
            ("a\\|b", false, "a|b"),
            ("(a|b)+", true, "(a|b)+"),
            ("a{1", true, "a\\{1"),
            ("^a$", false, "^a$"),
            ("a^b$c", false, "a\\^b\\$c"),
            ("[[:digit:]]x", false, "[[:digit:]]x"),
            ("[]a]", false, "[\\]a]"),
            ("[^]a]", false, "[^\\]a]"),
            ("[a\\]", false, "[a\\\\]"),
            ("\\<w\\>", false, "\\bw\\b"),
            (".", false, "(?-s:.)"),
        ] {
            assert_eq!(translate(pat, ere).as_deref(), Ok(want), "{pat}");
        }
        assert_eq!(
            translate("\\(", false),
            Err("Unmatched ( or \\(".to_owned())
        );
        assert_eq!(translate("(", true), Err("Unmatched ( or \\(".to_owned()));
        assert_eq!(translate("a\\{1", false), Err("Unmatched \\{".to_owned()));
        assert_eq!(
            translate("[a", false),
            Err("Unmatched [, [^, [:, [., or [=".to_owned())
        );
    }
}
