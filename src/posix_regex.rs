//! Translation of POSIX regular expressions (ERE and BRE, as `[[ =~ ]]`, grep and sed
//! use them) into the syntax of the `regex` crate, which matches in linear time.

/// Translates a POSIX extended regular expression. Back-references are not supported
/// (an error names them).
pub fn ere_to_rust(re: &str) -> String {
    translate(re, true).unwrap_or_else(|_| regex_escape_all(re))
}

/// Translates a POSIX ERE or (with `extended` false) a BRE.
pub fn translate(re: &str, extended: bool) -> Result<String, String> {
    let cs: Vec<char> = re.chars().collect();
    let mut out = String::from("(?s)");
    let mut i = 0;
    // Whether the previous token can take a repetition operator.
    let mut can_repeat = false;
    while i < cs.len() {
        let c = cs[i];
        match c {
            '[' => {
                let (class, next) = bracket(&cs, i)?;
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
                if can_repeat && cs.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
                    let (q, next) = interval(&cs, i)?;
                    out.push_str(&q);
                    i = next;
                    continue;
                }
                out.push_str("\\{");
                can_repeat = true;
            }
            '(' | ')' | '|' if extended => {
                out.push(c);
                can_repeat = c == ')';
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
    if !body.chars().all(|c| c.is_ascii_digit() || c == ',') || body.is_empty() {
        return Err("invalid content of \\{\\}".to_owned());
    }
    Ok((format!("{{{body}}}"), j + 1))
}

/// A bracket expression starting at `cs[i] == '['`.
fn bracket(cs: &[char], i: usize) -> Result<(String, usize), String> {
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
                out.push_str(&format!("[:{name}:]"));
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
        let t = ere_to_rust(re);
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
