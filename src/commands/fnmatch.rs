//! fnmatch(3) without flags, as `find -name`/`-path` and `grep --include` use it: `*`,
//! `?`, bracket expressions with ranges, `!`/`^` negation and `[:class:]`, and `\`
//! escapes. `*` and `?` match `/` too (no FNM_PATHNAME) and leading dots (no FNM_PERIOD).

/// Whether `text` matches `pattern`; `fold` compares case-insensitively.
pub fn fnmatch(pattern: &str, text: &str, fold: bool) -> bool {
    if !fold && pattern.is_ascii() && text.is_ascii() {
        // The usual case, matched on the bytes (each one a char) without copying.
        return matches(pattern.as_bytes(), text.as_bytes());
    }
    let norm = |s: &str| -> Vec<char> {
        if fold {
            s.chars().flat_map(char::to_lowercase).collect()
        } else {
            s.chars().collect()
        }
    };
    let p = norm(pattern);
    let t = norm(text);
    matches(&p, &t)
}

/// The symbol at `i`, as a char.
fn at<T: Copy + Into<char>>(s: &[T], i: usize) -> Option<char> {
    s.get(i).map(|&c| c.into())
}

fn matches<T: Copy + Into<char>>(p: &[T], t: &[T]) -> bool {
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while let Some(tc) = at(t, ti) {
        match at(p, pi) {
            Some('*') => {
                while at(p, pi) == Some('*') {
                    pi += 1;
                }
                star = Some((pi, ti));
                continue;
            }
            Some(c) => {
                let step = match c {
                    '?' => Some(1),
                    '[' => match bracket(p, pi, tc) {
                        Some((true, len)) => Some(len),
                        Some((false, _)) => None,
                        None => (tc == '[').then_some(1),
                    },
                    '\\' => match at(p, pi + 1) {
                        Some(e) if e == tc => Some(2),
                        Some(_) => None,
                        None => (tc == '\\').then_some(1),
                    },
                    c => (c == tc).then_some(1),
                };
                if let Some(len) = step {
                    pi += len;
                    ti += 1;
                    continue;
                }
            }
            None => {}
        }
        match star {
            Some((sp, st)) => {
                pi = sp;
                ti = st + 1;
                star = Some((sp, st + 1));
            }
            None => return false,
        }
    }
    while at(p, pi) == Some('*') {
        pi += 1;
    }
    pi == p.len()
}

fn class_match(name: &str, c: char) -> bool {
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
        "graph" => !c.is_control() && c != ' ',
        "cntrl" => c.is_control(),
        "xdigit" => c.is_ascii_hexdigit(),
        _ => false,
    }
}

/// Matches a bracket expression starting at `p[start] == '['`: (matched, pattern
/// length), or None if the bracket is not closed (then `[` is literal).
fn bracket<T: Copy + Into<char>>(p: &[T], start: usize, c: char) -> Option<(bool, usize)> {
    let mut i = start + 1;
    let negate = matches!(at(p, i), Some('!' | '^'));
    if negate {
        i += 1;
    }
    let mut matched = false;
    let mut first = true;
    loop {
        let ch = at(p, i)?;
        if ch == ']' && !first {
            return Some((matched != negate, i + 1 - start));
        }
        first = false;
        if ch == '[' && at(p, i + 1) == Some(':') {
            let rest: String = p.get(i + 2..)?.iter().map(|&c| c.into()).collect();
            if let Some(end) = rest.find(":]") {
                let name = &rest[..end];
                matched |= class_match(name, c);
                i += 2 + name.chars().count() + 2;
                continue;
            }
        }
        let lo = if ch == '\\' {
            i += 1;
            at(p, i)?
        } else {
            ch
        };
        if at(p, i + 1) == Some('-') && at(p, i + 2).is_some_and(|h| h != ']') {
            let mut hi = at(p, i + 2)?;
            let mut skip = 3;
            if hi == '\\' {
                hi = at(p, i + 3)?;
                skip = 4;
            }
            matched |= lo <= c && c <= hi;
            i += skip;
        } else {
            matched |= lo == c;
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fnmatch;

    #[test]
    fn globbing() {
        for (p, t, want) in [
            ("*.rs", "main.rs", true),
            ("*.rs", "main.rc", false),
            ("*", ".hidden", true),
            ("a?c", "abc", true),
            ("[a-c]x", "bx", true),
            ("[!a-c]x", "bx", false),
            ("[^a]x", "bx", true),
            ("[]]", "]", true),
            ("[[:digit:]]*", "1a", true),
            ("\\*", "*", true),
            ("\\*", "a", false),
            ("[", "[", true),
            ("*/b", "a/x/b", true),
            ("a*b*c", "aXbYbZc", true),
            ("", "", true),
            ("a", "", false),
        ] {
            assert_eq!(fnmatch(p, t, false), want, "{p} {t}");
        }
        assert!(fnmatch("*.TXT", "a.txt", true));
        // Byte and char matching agree across the ASCII line.
        assert!(fnmatch("?.txt", "é.txt", false));
        assert!(fnmatch("[[:alpha:]]*", "éa", false));
        assert!(!fnmatch("[[:digit:]]*", "éa", false));
        assert!(fnmatch("*é", "aé", false));
    }
}
