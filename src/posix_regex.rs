//! Translation of POSIX regular expressions (ERE and BRE, as `[[ =~ ]]`, grep and sed
//! use them) into the syntax of the `regex` crate, which matches in linear time.

/// Translates a POSIX extended regular expression. Back-references are not supported
/// (an error names them). With `unicode`, the letter and space classes (`[:alpha:]`,
/// `[:lower:]`, ...) take in every character a UTF-8 locale counts, as glibc's do.
pub fn ere_to_rust(re: &str, unicode: bool) -> String {
    translate_classes(re, true, unicode).unwrap_or_else(|_| regex_escape_all(re))
}

/// Translates a POSIX ERE or (with `extended` false) a BRE.
pub fn translate(re: &str, extended: bool) -> Result<String, String> {
    translate_classes(re, extended, false)
}

fn translate_classes(re: &str, extended: bool, unicode: bool) -> Result<String, String> {
    let cs: Vec<char> = re.chars().collect();
    let mut out = String::from("(?s)");
    let mut i = 0;
    // Whether the previous token can take a repetition operator.
    let mut can_repeat = false;
    // ERE groups open.
    let mut depth = 0usize;
    while i < cs.len() {
        let c = cs[i];
        match c {
            '[' => {
                let (class, next) = bracket(&cs, i, unicode)?;
                out.push_str(&class);
                i = next;
                can_repeat = true;
                continue;
            }
            '\\' => {
                i += 1;
                let Some(&e) = cs.get(i) else {
                    out.push_str("\\\\");
                    break;
                };
                match e {
                    '<' | '>' => {
                        out.push_str("\\b");
                        can_repeat = false;
                    }
                    'b' | 'B' | 'w' | 'W' | 's' | 'S' => {
                        out.push('\\');
                        out.push(e);
                        can_repeat = e != 'b' && e != 'B';
                    }
                    '1'..='9' => return Err(format!("back-reference \\{e} is not supported")),
                    '(' | ')' | '{' | '}' | '|' | '+' | '?' if !extended => {
                        // BRE: escaped metacharacters are special.
                        match e {
                            '{' => {
                                let (q, next) = interval(&cs, i)?;
                                out.push_str(&q);
                                i = next;
                                continue;
                            }
                            '}' => out.push_str("\\}"),
                            _ => out.push(e),
                        }
                        can_repeat = e == ')';
                    }
                    'n' => {
                        out.push_str("\\n");
                        can_repeat = true;
                    }
                    't' => {
                        out.push_str("\\t");
                        can_repeat = true;
                    }
                    _ => {
                        out.push_str(&regex::escape(&e.to_string()));
                        can_repeat = true;
                    }
                }
                i += 1;
                continue;
            }
            '*' | '+' | '?' if extended || c == '*' => {
                if can_repeat {
                    out.push(c);
                } else {
                    out.push('\\');
                    out.push(c);
                    can_repeat = true;
                }
            }
            '{' if extended => {
                let opens_interval = cs
                    .get(i + 1)
                    .is_some_and(|d| d.is_ascii_digit() || *d == ',');
                if can_repeat && opens_interval {
                    let (q, next) = interval(&cs, i)?;
                    out.push_str(&q);
                    i = next;
                    continue;
                }
                out.push_str("\\{");
                can_repeat = true;
            }
            '(' | '|' if extended => {
                if c == '(' {
                    depth += 1;
                }
                out.push(c);
                can_repeat = false;
            }
            // A `)` that closes nothing is literal (glibc, GNU grep, awk).
            ')' if extended => {
                if depth > 0 {
                    depth -= 1;
                    out.push(')');
                } else {
                    out.push_str("\\)");
                }
                can_repeat = true;
            }
            '^' => {
                if extended || out == "(?s)" || out.ends_with('(') || out.ends_with('|') {
                    out.push('^');
                } else {
                    out.push_str("\\^");
                }
                can_repeat = false;
            }
            '$' => {
                let at_end = i + 1 == cs.len()
                    || (!extended
                        && cs.get(i + 1) == Some(&'\\')
                        && matches!(cs.get(i + 2), Some(')' | '|')));
                if extended || at_end {
                    out.push('$');
                } else {
                    out.push_str("\\$");
                }
                can_repeat = false;
            }
            '.' => {
                out.push('.');
                can_repeat = true;
            }
            _ => {
                out.push_str(&regex::escape(&c.to_string()));
                can_repeat = true;
            }
        }
        i += 1;
    }
    Ok(out)
}

/// Whether glibc's regcomp (which bash's `=~` uses) refuses an ERE: a repetition
/// operator with nothing before it (`*a`, `a|+b`, `(*a)`, `^*`), a `{` that does not
/// open a complete interval (`a{`, `a{x}`, `a{2,1}`, `{1}`), an unclosed `[` or `(`, an
/// unknown class or a collating element of more than one character, a range whose
/// ends are out of order, or a trailing backslash. A `)` with no `(` is literal.
pub fn glibc_rejects_ere(re: &str) -> bool {
    let cs: Vec<char> = re.chars().collect();
    // Whether the previous token can be repeated.
    let mut operand = false;
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&c) = cs.get(i) {
        match c {
            '\\' => {
                if i + 1 >= cs.len() {
                    return true;
                }
                i += 1;
                operand = true;
            }
            '[' => {
                let Ok((_, next)) = bracket(&cs, i, false) else {
                    return true;
                };
                if bracket_rejected(&cs[i + 1..next - 1]) {
                    return true;
                }
                i = next;
                operand = true;
                continue;
            }
            '*' | '+' | '?' if !operand => return true,
            '{' => {
                let Some(len) = cs[i + 1..].iter().position(|&d| d == '}') else {
                    return true;
                };
                let body: String = cs[i + 1..i + 1 + len].iter().collect();
                if !operand || interval_bounds(&body).is_none() {
                    return true;
                }
                i += len + 1;
            }
            '(' => {
                depth += 1;
                operand = false;
            }
            ')' => {
                depth = depth.saturating_sub(1);
                operand = true;
            }
            '|' | '^' => operand = false,
            _ => operand = true,
        }
        i += 1;
    }
    depth > 0
}

/// The bounds of an interval's body (`m`, `m,`, `m,n`, `,n`, `,`), if it is one whose
/// bounds are in order.
fn interval_bounds(body: &str) -> Option<(u32, Option<u32>)> {
    let number = |s: &str| {
        if s.is_empty() || !s.chars().all(|d| d.is_ascii_digit()) {
            None
        } else {
            s.parse::<u32>().ok()
        }
    };
    let (lo, hi) = match body.split_once(',') {
        None => {
            let n = number(body)?;
            (n, Some(n))
        }
        Some((lo, hi)) => {
            let lo = if lo.is_empty() { 0 } else { number(lo)? };
            let hi = if hi.is_empty() {
                None
            } else {
                Some(number(hi)?)
            };
            (lo, hi)
        }
    };
    match hi {
        Some(h) if h < lo => None,
        _ => Some((lo, hi)),
    }
}

/// Whether glibc refuses the inside of a bracket expression (between `[` and `]`):
/// an unknown `[:class:]`, a `[.x.]` of other than one character, or a range `z-a`.
fn bracket_rejected(inner: &[char]) -> bool {
    const CLASSES: [&str; 12] = [
        "alpha", "upper", "lower", "digit", "xdigit", "space", "print", "punct", "graph", "cntrl",
        "blank", "alnum",
    ];
    let mut j = usize::from(inner.first() == Some(&'^'));
    // The previous element when it can start a range.
    let mut prev: Option<char> = None;
    while let Some(&c) = inner.get(j) {
        let (elem, next) = if c == '[' && matches!(inner.get(j + 1), Some(':' | '.' | '=')) {
            let kind = inner[j + 1];
            let mut k = j + 2;
            while k + 1 < inner.len() && !(inner[k] == kind && inner[k + 1] == ']') {
                k += 1;
            }
            let name: String = inner[j + 2..k.min(inner.len())].iter().collect();
            match kind {
                ':' if !CLASSES.contains(&name.as_str()) => return true,
                ':' => (None, k + 2),
                _ if name.chars().count() != 1 => return true,
                _ => (name.chars().next(), k + 2),
            }
        } else {
            (Some(c), j + 1)
        };
        if elem == Some('-')
            && let (Some(lo), Some(&hi)) = (prev, inner.get(next))
            && hi != '['
        {
            if hi < lo {
                return true;
            }
            prev = None;
            j = next + 1;
            continue;
        }
        prev = elem;
        j = next;
    }
    false
}

/// `{m,n}` starting at `cs[i] == '{'` (BRE: after the backslash, ends at `\}`).
fn interval(cs: &[char], i: usize) -> Result<(String, usize), String> {
    let mut j = i + 1;
    let mut body = String::new();
    while j < cs.len() && cs[j] != '}' {
        if cs[j] != '\\' {
            body.push(cs[j]);
        }
        j += 1;
    }
    if j >= cs.len() {
        return Err("unmatched \\{".to_owned());
    }
    match interval_bounds(&body) {
        Some((lo, Some(hi))) if body.contains(',') => Ok((format!("{{{lo},{hi}}}"), j + 1)),
        Some((lo, Some(_))) => Ok((format!("{{{lo}}}"), j + 1)),
        Some((lo, None)) => Ok((format!("{{{lo},}}"), j + 1)),
        None => Err("invalid content of \\{\\}".to_owned()),
    }
}

/// A bracket expression starting at `cs[i] == '['`.
fn bracket(cs: &[char], i: usize, unicode: bool) -> Result<(String, usize), String> {
    let mut j = i + 1;
    let mut out = String::from("[");
    if cs.get(j) == Some(&'^') {
        out.push('^');
        j += 1;
    }
    let mut first = true;
    loop {
        let Some(&c) = cs.get(j) else {
            return Err("unmatched [".to_owned());
        };
        if c == ']' && !first {
            out.push(']');
            return Ok((out, j + 1));
        }
        first = false;
        if c == '[' && matches!(cs.get(j + 1), Some(':' | '.' | '=')) {
            let kind = cs[j + 1];
            let mut k = j + 2;
            while k + 1 < cs.len() && !(cs[k] == kind && cs[k + 1] == ']') {
                k += 1;
            }
            if k + 1 >= cs.len() {
                return Err("unmatched [".to_owned());
            }
            let name: String = cs[j + 2..k].iter().collect();
            if kind == ':' {
                let wide = match name.as_str() {
                    "alpha" => Some("\\p{Alphabetic}"),
                    "alnum" => Some("\\p{Alphabetic}\\p{N}"),
                    "upper" => Some("\\p{Uppercase}"),
                    "lower" => Some("\\p{Lowercase}"),
                    "space" => Some("\\p{White_Space}"),
                    _ => None,
                };
                match wide {
                    Some(w) if unicode => out.push_str(w),
                    _ => out.push_str(&format!("[:{name}:]")),
                }
            } else {
                out.push_str(&regex::escape(&name));
            }
            j = k + 2;
            continue;
        }
        match c {
            '\\' | '[' | '&' | '~' | '^' => {
                out.push('\\');
                out.push(c);
            }
            '-' if cs.get(j + 1) == Some(&'-') => out.push_str("\\-"),
            _ => out.push(c),
        }
        j += 1;
    }
}

fn regex_escape_all(s: &str) -> String {
    regex::escape(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(re: &str, s: &str, want: bool) {
        let t = ere_to_rust(re, true);
        let r = regex::Regex::new(&t).map(|r| r.is_match(s));
        assert_eq!(r.ok(), Some(want), "{re} -> {t}");
    }

    #[test]
    fn ere_basics() {
        ok("^a+b$", "aab", true);
        ok("[[:digit:]]{2}", "a12", true);
        ok("[]x]", "]", true);
        ok("a{", "a{", true);
        ok("\\.", "x", false);
        ok("(a|b)c", "bc", true);
        ok("^[[:alpha:]]+$", "é", true);
        ok("[^[:lower:]]", "é", false);
    }

    #[test]
    fn bre_basics() {
        let t = translate("a\\(b\\)*c\\{2\\}", false).unwrap_or_default();
        let r = regex::Regex::new(&t).map(|r| r.is_match("abbcc"));
        assert_eq!(r.ok(), Some(true), "{t}");
        let t = translate("a+b", false).unwrap_or_default();
        let r = regex::Regex::new(&t).map(|r| r.is_match("a+b"));
        assert_eq!(r.ok(), Some(true), "{t}");
    }
}
