//! Tokens of the awk language: the lexer decides between `/` as division and `/` as the
//! start of a regex literal from the token before it, as awk's grammar requires.

use super::parser::Builtin;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Num(f64),
    Str(String),
    Regex(String),
    /// A name directly followed by `(` (a user function call).
    FuncName(String),
    Name(String),
    Builtin(Builtin),
    Kw(&'static str),
    /// Punctuation and operators, spelled as in the source.
    Op(&'static str),
    Newline,
    Eof,
}

const KEYWORDS: &[&str] = &[
    "BEGIN", "END", "function", "func", "if", "else", "while", "for", "do", "break", "continue",
    "next", "nextfile", "exit", "return", "delete", "in", "getline", "print", "printf",
];

/// Operators, longest first.
const OPS: &[&str] = &[
    "**=", "&&", "||", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "%=", "^=", "**", "++",
    "--", ">>", "!~", "{", "}", "(", ")", "[", "]", ";", ",", "+", "-", "*", "/", "%", "^", "!",
    ">", "<", "|", "?", ":", "~", "$", "=",
];

/// A token and the line it starts on.
pub type Spanned = (Tok, usize);

fn regex_allowed(prev: Option<&Tok>) -> bool {
    match prev {
        None => true,
        Some(Tok::Num(_) | Tok::Str(_) | Tok::Name(_) | Tok::Regex(_)) => false,
        Some(Tok::Builtin(_)) => false,
        Some(Tok::Op(o)) => !matches!(*o, ")" | "]" | "$" | "++" | "--"),
        Some(Tok::Kw(k)) => *k != "getline",
        _ => true,
    }
}

pub fn lex(src: &str) -> Result<Vec<Spanned>, String> {
    let cs: Vec<char> = src.chars().collect();
    let mut out: Vec<Spanned> = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while let Some(&c) = cs.get(i) {
        match c {
            ' ' | '\t' | '\r' => {
                i += 1;
            }
            '\\' if cs.get(i + 1) == Some(&'\n') => {
                i += 2;
                line += 1;
            }
            '\\' if cs.get(i + 1) == Some(&'\r') && cs.get(i + 2) == Some(&'\n') => {
                i += 3;
                line += 1;
            }
            '\n' => {
                out.push((Tok::Newline, line));
                line += 1;
                i += 1;
            }
            '#' => {
                while cs.get(i).is_some_and(|&c| c != '\n') {
                    i += 1;
                }
            }
            '"' => {
                i += 1;
                let mut s = String::new();
                loop {
                    let Some(&c) = cs.get(i) else {
                        return Err(format!("line {line}: unterminated string"));
                    };
                    i += 1;
                    match c {
                        '"' => break,
                        '\n' => return Err(format!("line {line}: unterminated string")),
                        '\\' => {
                            let Some(&e) = cs.get(i) else {
                                s.push('\\');
                                break;
                            };
                            i += 1;
                            match e {
                                'n' => s.push('\n'),
                                't' => s.push('\t'),
                                'r' => s.push('\r'),
                                'a' => s.push('\x07'),
                                'b' => s.push('\x08'),
                                'f' => s.push('\x0c'),
                                'v' => s.push('\x0b'),
                                '\\' => s.push('\\'),
                                '"' => s.push('"'),
                                '/' => s.push('/'),
                                '\n' => line += 1,
                                '0'..='7' => {
                                    let mut v = e.to_digit(8).unwrap_or(0);
                                    for _ in 0..2 {
                                        match cs.get(i).and_then(|d| d.to_digit(8)) {
                                            Some(d) => {
                                                v = v * 8 + d;
                                                i += 1;
                                            }
                                            None => break,
                                        }
                                    }
                                    s.push(crate::text::raw_char((v & 0xff) as u8));
                                }
                                other => {
                                    s.push('\\');
                                    s.push(other);
                                }
                            }
                        }
                        c => s.push(c),
                    }
                }
                out.push((Tok::Str(s), line));
            }
            '/' if regex_allowed(out.last().map(|(t, _)| t)) => {
                i += 1;
                let mut s = String::new();
                let mut in_bracket = false;
                loop {
                    let Some(&c) = cs.get(i) else {
                        return Err(format!("line {line}: unterminated regexp"));
                    };
                    i += 1;
                    match c {
                        '\n' => return Err(format!("line {line}: unterminated regexp")),
                        '/' if !in_bracket => break,
                        '[' if !in_bracket => {
                            in_bracket = true;
                            s.push(c);
                            if cs.get(i) == Some(&'^') {
                                s.push('^');
                                i += 1;
                            }
                            if cs.get(i) == Some(&']') {
                                s.push(']');
                                i += 1;
                            }
                        }
                        ']' if in_bracket => {
                            in_bracket = false;
                            s.push(c);
                        }
                        '\\' => {
                            if let Some(&e) = cs.get(i) {
                                i += 1;
                                if e == '/' {
                                    s.push('/');
                                } else {
                                    s.push('\\');
                                    s.push(e);
                                }
                            }
                        }
                        c => s.push(c),
                    }
                }
                out.push((Tok::Regex(s), line));
            }
            c if c.is_ascii_digit()
                || (c == '.' && cs.get(i + 1).is_some_and(|d| d.is_ascii_digit())) =>
            {
                let start = i;
                if c == '0'
                    && matches!(cs.get(i + 1), Some('x' | 'X'))
                    && cs.get(i + 2).is_some_and(|d| d.is_ascii_hexdigit())
                {
                    i += 2;
                    while cs.get(i).is_some_and(|d| d.is_ascii_hexdigit()) {
                        i += 1;
                    }
                    let s: String = cs.get(start + 2..i).unwrap_or(&[]).iter().collect();
                    let v = u64::from_str_radix(&s, 16).map(|v| v as f64).unwrap_or(0.0);
                    out.push((Tok::Num(v), line));
                    continue;
                }
                while cs.get(i).is_some_and(|d| d.is_ascii_digit()) {
                    i += 1;
                }
                if cs.get(i) == Some(&'.') {
                    i += 1;
                    while cs.get(i).is_some_and(|d| d.is_ascii_digit()) {
                        i += 1;
                    }
                }
                if matches!(cs.get(i), Some('e' | 'E')) {
                    let save = i;
                    i += 1;
                    if matches!(cs.get(i), Some('+' | '-')) {
                        i += 1;
                    }
                    if cs.get(i).is_some_and(|d| d.is_ascii_digit()) {
                        while cs.get(i).is_some_and(|d| d.is_ascii_digit()) {
                            i += 1;
                        }
                    } else {
                        i = save;
                    }
                }
                let s: String = cs.get(start..i).unwrap_or(&[]).iter().collect();
                out.push((Tok::Num(s.parse().unwrap_or(0.0)), line));
            }
            c if c.is_alphabetic() || c == '_' => {
                let start = i;
                while cs.get(i).is_some_and(|&d| d.is_alphanumeric() || d == '_') {
                    i += 1;
                }
                let word: String = cs.get(start..i).unwrap_or(&[]).iter().collect();
                let tok = if let Some(k) = KEYWORDS.iter().find(|k| **k == word) {
                    Tok::Kw(if *k == "func" { "function" } else { k })
                } else if let Some(b) = Builtin::of(&word) {
                    Tok::Builtin(b)
                } else if cs.get(i) == Some(&'(') {
                    Tok::FuncName(word)
                } else {
                    Tok::Name(word)
                };
                out.push((tok, line));
            }
            _ => {
                let rest: String = cs
                    .get(i..i + 3)
                    .unwrap_or(cs.get(i..).unwrap_or(&[]))
                    .iter()
                    .collect();
                let Some(op) = OPS.iter().find(|o| rest.starts_with(**o)) else {
                    return Err(format!("line {line}: invalid char '{c}' in expression"));
                };
                i += op.chars().count();
                out.push((Tok::Op(op), line));
            }
        }
    }
    out.push((Tok::Eof, line));
    Ok(out)
}
