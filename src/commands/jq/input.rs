//! jq 1.6's JSON input parser (`jv_parse.c`), byte for byte in what it accepts and in
//! its error texts: `Invalid numeric literal at line 2, column 0`, `Unfinished JSON term
//! at EOF at line N, column M`, ... jq feeds every input file through one parser, so
//! values may span files and line numbers run on across them. Numbers are doubles, as
//! in jq 1.6: an integral one below 1e17 becomes an integer, any other keeps jq 1.6's
//! printed form (so `-0`, `1e+17` and `0.1` print and `tostring` as jq prints them).

use jaq_json::{Map, Num, Val};

/// jq 1.6's `MAX_PARSING_DEPTH`: an array or object opened deeper is an error.
const MAX_DEPTH: usize = 256;

enum Frame {
    Arr(Vec<Val>),
    Obj(Map),
    /// A key waiting for its value (jq pushes the key on the stack after `:`).
    Key(Val),
}

/// The parser state of `jv_parser`: a value stack, the value just completed (`next`),
/// the token being collected and the position for messages.
pub struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
    stack: Vec<Frame>,
    next: Option<Val>,
    token: Vec<u8>,
    /// `None`: between tokens; `Some(escaped)`: inside a string.
    in_string: Option<bool>,
    line: usize,
    column: usize,
    done: bool,
}

impl<'a> Parser<'a> {
    pub fn new(text: &'a [u8]) -> Self {
        // jq skips a UTF-8 byte order mark at the start of its input.
        let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
        Self {
            text,
            pos: 0,
            stack: Vec::new(),
            next: None,
            token: Vec::new(),
            in_string: None,
            line: 1,
            column: 0,
            done: false,
        }
    }

    fn value(&mut self, v: Val) -> Result<(), &'static str> {
        if self.next.is_some() {
            return Err("Expected separator between values");
        }
        self.next = Some(v);
        Ok(())
    }

    /// A bare word ended: `true`, `false`, `null` or a number for `strtod`.
    fn literal(&mut self) -> Result<(), &'static str> {
        if self.token.is_empty() {
            return Ok(());
        }
        let word = std::mem::take(&mut self.token);
        let pattern: Option<(&[u8], Val)> = match word.first() {
            Some(b't') => Some((b"true", Val::Bool(true))),
            Some(b'f') => Some((b"false", Val::Bool(false))),
            Some(b'n') => Some((b"null", Val::Null)),
            _ => None,
        };
        match pattern {
            Some((p, v)) if word == p => self.value(v),
            Some(_) => Err("Invalid literal"),
            None => {
                let d = std::str::from_utf8(&word)
                    .ok()
                    .and_then(strtod)
                    .ok_or("Invalid numeric literal")?;
                self.value(number(d))
            }
        }
    }

    fn string(&mut self) -> Result<(), &'static str> {
        let raw = std::mem::take(&mut self.token);
        let s = unescape(&raw)?;
        self.value(Val::utf8_str(String::from_utf8_lossy(&s).into_owned()))
    }

    fn structure(&mut self, ch: u8) -> Result<(), &'static str> {
        match ch {
            b'[' | b'{' => {
                if self.next.is_some() {
                    return Err("Expected separator between values");
                }
                if self.stack.len() >= MAX_DEPTH {
                    return Err("Exceeds depth limit for parsing");
                }
                self.stack.push(if ch == b'[' {
                    Frame::Arr(Vec::new())
                } else {
                    Frame::Obj(Map::default())
                });
            }
            b':' => {
                let Some(key) = self.next.take() else {
                    return Err("Expected string key before ':'");
                };
                if !matches!(self.stack.last(), Some(Frame::Obj(_))) {
                    self.next = Some(key);
                    return Err("':' not as part of an object");
                }
                if !matches!(key, Val::TStr(_)) {
                    return Err("Object keys must be strings");
                }
                self.stack.push(Frame::Key(key));
            }
            b',' => {
                let Some(v) = self.next.take() else {
                    return Err("Expected value before ','");
                };
                match self.stack.last_mut() {
                    None => return Err("',' not as part of an object or array"),
                    Some(Frame::Arr(a)) => a.push(v),
                    Some(Frame::Key(_)) => self.set_key(v),
                    Some(Frame::Obj(_)) => return Err("Objects must consist of key:value pairs"),
                }
            }
            b']' => {
                let Some(Frame::Arr(a)) = self.stack.last_mut() else {
                    return Err("Unmatched ']'");
                };
                match self.next.take() {
                    Some(v) => a.push(v),
                    None if !a.is_empty() => return Err("Expected another array element"),
                    None => {}
                }
                if let Some(Frame::Arr(a)) = self.stack.pop() {
                    self.next = Some(Val::Arr(a.into()));
                }
            }
            _ => {
                if self.stack.is_empty() {
                    return Err("Unmatched '}'");
                }
                match self.next.take() {
                    Some(v) => {
                        if !matches!(self.stack.last(), Some(Frame::Key(_))) {
                            return Err("Objects must consist of key:value pairs");
                        }
                        self.set_key(v);
                    }
                    None => match self.stack.last() {
                        Some(Frame::Obj(o)) if !o.is_empty() => {
                            return Err("Expected another key-value pair");
                        }
                        Some(Frame::Obj(_)) => {}
                        _ => return Err("Unmatched '}'"),
                    },
                }
                if let Some(Frame::Obj(o)) = self.stack.pop() {
                    self.next = Some(Val::obj(o));
                }
            }
        }
        Ok(())
    }

    /// Stores `v` under the key on top of the stack, into the object below it.
    fn set_key(&mut self, v: Val) {
        if let Some(Frame::Key(k)) = self.stack.pop()
            && let Some(Frame::Obj(o)) = self.stack.last_mut()
        {
            o.insert(k, v);
        }
    }

    fn complete(&mut self) -> Option<Val> {
        if self.stack.is_empty() {
            self.next.take()
        } else {
            None
        }
    }

    /// One byte through jq's `scan`: `Ok(Some(v))` when a top-level value completes.
    fn scan(&mut self, ch: u8) -> Result<Option<Val>, &'static str> {
        self.column += 1;
        if ch == b'\n' {
            self.line += 1;
            self.column = 0;
        }
        match self.in_string {
            None => {
                let ws = matches!(ch, b' ' | b'\t' | b'\r' | b'\n');
                if matches!(ch, b'"' | b'[' | b',' | b']' | b'{' | b':' | b'}') || ws {
                    self.literal()?;
                    if ch == b'"' {
                        self.in_string = Some(false);
                    } else if !ws {
                        self.structure(ch)?;
                    }
                    Ok(self.complete())
                } else {
                    self.token.push(ch);
                    Ok(None)
                }
            }
            Some(false) if ch == b'"' => {
                self.string()?;
                self.in_string = None;
                Ok(self.complete())
            }
            Some(escaped) => {
                self.token.push(ch);
                self.in_string = Some(!escaped && ch == b'\\');
                Ok(None)
            }
        }
    }

    fn at_eof(&mut self) -> Result<Option<Val>, String> {
        let at =
            |msg: &str, p: &Self| format!("{msg} at EOF at line {}, column {}", p.line, p.column);
        if self.in_string.is_some() {
            return Err(at("Unfinished string", self));
        }
        if let Err(msg) = self.literal() {
            return Err(at(msg, self));
        }
        if !self.stack.is_empty() {
            return Err(at("Unfinished JSON term", self));
        }
        Ok(self.next.take())
    }
}

impl Iterator for Parser<'_> {
    /// A value, or jq's message for a parse error (after which parsing stops).
    type Item = Result<Val, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        while let Some(&ch) = self.text.get(self.pos) {
            self.pos += 1;
            match self.scan(ch) {
                Ok(Some(v)) => return Some(Ok(v)),
                Ok(None) => {}
                Err(msg) => {
                    self.done = true;
                    return Some(Err(format!(
                        "{msg} at line {}, column {}",
                        self.line, self.column
                    )));
                }
            }
        }
        self.done = true;
        self.at_eof().transpose()
    }
}

/// David Gay's `strtod` as jq 1.6 calls it: an optional sign, digits with an optional
/// point and exponent, or `inf`/`infinity`/`nan` in any case; the whole word must parse.
fn strtod(word: &str) -> Option<f64> {
    let body = word.strip_prefix(['+', '-']).unwrap_or(word);
    let special = ["inf", "infinity", "nan"]
        .iter()
        .any(|w| body.eq_ignore_ascii_case(w));
    let decimal = {
        let (mant, exp) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], Some(&body[i + 1..])),
            None => (body, None),
        };
        let mant_ok = mant.bytes().any(|b| b.is_ascii_digit())
            && mant.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && mant.bytes().filter(|&b| b == b'.').count() <= 1;
        let exp_ok = exp.is_none_or(|e| {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
        });
        mant_ok && exp_ok
    };
    if !(special || decimal) {
        return None;
    }
    word.parse::<f64>().ok()
}

/// A double as jq 1.6 holds it (the vendored jaq-json prints floats as jq 1.6 does).
pub fn number(d: f64) -> Val {
    if d.fract() == 0.0 && d.abs() < 1e17 && !(d == 0.0 && d.is_sign_negative()) {
        // Exact: the double is integral and well inside isize.
        return Val::Num(Num::Int(d as isize));
    }
    Val::Num(Num::Float(d))
}

/// jq's `found_string`: backslash escapes, `\uXXXX` with surrogate pairs, and the
/// control characters it refuses raw (U+0001..U+001E: jq's test is `c > 0 && c < 0x1f`).
fn unescape(raw: &[u8]) -> Result<Vec<u8>, &'static str> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&c) = raw.get(i) {
        i += 1;
        if c != b'\\' {
            if c > 0 && c < 0x1f {
                return Err(
                    "Invalid string: control characters from U+0000 through U+001F must be escaped",
                );
            }
            out.push(c);
            continue;
        }
        let Some(&e) = raw.get(i) else {
            return Err("Expected escape character at end of string");
        };
        i += 1;
        match e {
            b'\\' | b'"' | b'/' => out.push(e),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'u' => {
                let hex = raw.get(i..i + 4).ok_or("Invalid \\uXXXX escape")?;
                let mut cp = hex4(hex).ok_or("Invalid characters in \\uXXXX escape")?;
                i += 4;
                if (0xD800..=0xDBFF).contains(&cp) {
                    const PAIR: &str = "Invalid \\uXXXX\\uXXXX surrogate pair escape";
                    let low = match raw.get(i..i + 6) {
                        Some([b'\\', b'u', h @ ..]) => hex4(h).ok_or(PAIR)?,
                        _ => return Err(PAIR),
                    };
                    if !(0xDC00..=0xDFFF).contains(&low) {
                        return Err(PAIR);
                    }
                    i += 6;
                    cp = 0x10000 + (((cp - 0xD800) << 10) | (low - 0xDC00));
                }
                // A lone low surrogate is no scalar value: jq writes U+FFFD for it.
                let c = char::from_u32(cp).unwrap_or('\u{FFFD}');
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            }
            _ => return Err("Invalid escape"),
        }
    }
    Ok(out)
}

fn hex4(h: &[u8]) -> Option<u32> {
    let s = std::str::from_utf8(h).ok()?;
    if s.len() != 4 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(s, 16).ok()
}
