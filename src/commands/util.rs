//! Helpers the utilities share: GNU's shell-escape quoting of names in diagnostics,
//! opening an input operand (file, device or `-` for stdin) and line reading over bytes.

use std::io::{self, BufRead, Read};
use std::sync::Arc;

use super::Ctx;
use crate::fs::{Device, FileType, FsError};

/// Whether a name needs quoting under GNU's shell-escape style.
fn needs_quote(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    s.char_indices().any(|(i, c)| match c {
        '#' | '~' => i == 0,
        ' ' | '!' | '"' | '$' | '&' | '\'' | '(' | ')' | '*' | ';' | '<' | '=' | '>' | '?'
        | '[' | '\\' | '^' | '`' | '|' | ':' => true,
        c => c.is_control() || crate::text::raw_byte(c).is_some(),
    })
}

/// GNU `quote()`: always quoted (`'x'`), as `ls: cannot access 'x'` prints.
pub fn quote(s: &str) -> String {
    shell_quote(s)
}

/// GNU `quotef()`: quoted only when needed (`cat: x: ...`, `cat: 'a b': ...`).
pub fn quotef(s: &str) -> String {
    if needs_quote(s) {
        shell_quote(s)
    } else {
        s.to_owned()
    }
}

fn escape_char(c: char, out: &mut String) {
    match c {
        '\x07' => out.push_str("\\a"),
        '\x08' => out.push_str("\\b"),
        '\x0c' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\x0b' => out.push_str("\\v"),
        c => {
            let b = crate::text::raw_byte(c).unwrap_or(c as u32 as u8);
            out.push_str(&format!("\\{b:03o}"));
        }
    }
}

fn shell_quote(s: &str) -> String {
    let special = |c: char| c.is_control() || crate::text::raw_byte(c).is_some();
    if s.contains('\'') && !s.chars().any(|c| special(c) || "\"$`\\!".contains(c)) {
        return format!("\"{s}\"");
    }
    let mut out = String::from("'");
    let mut in_escape = false;
    for c in s.chars() {
        if special(c) {
            if !in_escape {
                out.push_str("'$'");
                in_escape = true;
            }
            escape_char(c, &mut out);
            continue;
        }
        if in_escape {
            out.push_str("''");
            in_escape = false;
        }
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}

/// An opened input: stdin, a file's bytes, or an endless device.
#[derive(Clone)]
pub enum Input {
    Stdin,
    Bytes(Arc<Vec<u8>>),
    Zero,
    Random,
}

/// A reader over an [`Input`].
pub enum Reader<'s> {
    Stdin(&'s mut dyn Read),
    Bytes(Arc<Vec<u8>>, usize),
    Zero,
    /// Deterministic pseudo-random bytes (xorshift).
    Random(u64),
}

impl Read for Reader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Reader::Stdin(r) => r.read(buf),
            Reader::Bytes(data, pos) => {
                let rest = data.get(*pos..).unwrap_or(&[]);
                let n = rest.len().min(buf.len());
                buf[..n].copy_from_slice(&rest[..n]);
                *pos += n;
                Ok(n)
            }
            Reader::Zero => {
                buf.fill(0);
                Ok(buf.len())
            }
            Reader::Random(state) => {
                for b in buf.iter_mut() {
                    *state ^= *state << 13;
                    *state ^= *state >> 7;
                    *state ^= *state << 17;
                    *b = (*state >> 24) as u8;
                }
                Ok(buf.len())
            }
        }
    }
}

impl Input {
    /// The whole content if it is already in memory.
    pub fn in_memory(&self) -> Option<&[u8]> {
        match self {
            Input::Bytes(d) => Some(d),
            _ => None,
        }
    }
    /// A reader, borrowing stdin if this input is stdin.
    pub fn reader(self, stdin: &mut dyn Read) -> Reader<'_> {
        match self {
            Input::Stdin => Reader::Stdin(stdin),
            Input::Bytes(d) => Reader::Bytes(d, 0),
            Input::Zero => Reader::Zero,
            Input::Random => Reader::Random(0x2545_F491_4F6C_DD1D),
        }
    }
    /// Reads everything (an endless device is an error rather than a hang).
    pub fn read_all(self, stdin: &mut dyn Read) -> io::Result<Arc<Vec<u8>>> {
        match self {
            Input::Bytes(d) => Ok(d),
            Input::Zero | Input::Random => Err(super::fatal("memory exhausted")),
            Input::Stdin => {
                let mut v = Vec::new();
                stdin.read_to_end(&mut v)?;
                Ok(Arc::new(v))
            }
        }
    }
}

/// Why an input could not be opened.
pub enum OpenError {
    Fs(FsError),
}

impl OpenError {
    /// Whether this is the given errno.
    pub fn is(&self, errno: crate::fs::Errno) -> bool {
        match self {
            OpenError::Fs(e) => e.errno == errno,
        }
    }
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Fs(e) => e.fmt(f),
        }
    }
}

impl Ctx<'_> {
    /// Opens an input operand: `-` is stdin; `/dev/stdin`, `/dev/null`, `/dev/zero` and
    /// `/dev/urandom` behave like those devices; anything else is read from the fs
    /// (a directory gives EISDIR).
    pub fn open_input(&self, operand: &str) -> Result<Input, OpenError> {
        if operand == "-" {
            return Ok(Input::Stdin);
        }
        let path = self.path(operand);
        let fs = self.fs.lock();
        let meta = fs.stat(&path).map_err(OpenError::Fs)?;
        match meta.file_type {
            FileType::Device(Device::Stdin) => Ok(Input::Stdin),
            FileType::Device(Device::Zero) => Ok(Input::Zero),
            FileType::Device(Device::Random | Device::Urandom) => Ok(Input::Random),
            FileType::Device(_) => Ok(Input::Bytes(Arc::new(Vec::new()))),
            _ => {
                let data = fs.read_file(&path).map_err(OpenError::Fs)?;
                Ok(Input::Bytes(data))
            }
        }
    }

    /// Reads a whole operand (see [`Ctx::open_input`]).
    pub fn read_input(&mut self, operand: &str) -> io::Result<Result<Arc<Vec<u8>>, OpenError>> {
        match self.open_input(operand) {
            Ok(input) => Ok(Ok(input.read_all(&mut *self.stdin)?)),
            Err(e) => Ok(Err(e)),
        }
    }
}

/// Reads one record ending in `delim` (kept) into `buf`, which is cleared first;
/// returns false at end of input.
pub fn read_record(r: &mut dyn BufRead, delim: u8, buf: &mut Vec<u8>) -> io::Result<bool> {
    buf.clear();
    Ok(r.read_until(delim, buf)? > 0)
}

/// Splits bytes into records ending in `delim`; the last may lack it.
pub fn records(data: &[u8], delim: u8) -> impl Iterator<Item = &[u8]> {
    let mut rest = data;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest
            .iter()
            .position(|&b| b == delim)
            .map_or(rest.len(), |p| p + 1);
        let (rec, tail) = rest.split_at(end);
        rest = tail;
        Some(rec)
    })
}

/// A record without its trailing delimiter.
pub fn chomp(rec: &[u8], delim: u8) -> &[u8] {
    rec.strip_suffix(&[delim]).unwrap_or(rec)
}

/// Parses a GNU size/count with an optional multiplier suffix (`b` 512, `kB` 1000,
/// `K`/`KiB` 1024, `M`, `G`, ... as head and tail accept them). Returns None when
/// invalid; saturates on overflow.
pub fn parse_size(s: &str) -> Option<u64> {
    let digits_end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let (num, suffix) = s.split_at(digits_end);
    if num.is_empty() {
        return None;
    }
    let n: u64 = num.parse().unwrap_or(u64::MAX);
    let mult: u64 = match suffix {
        "" => 1,
        "b" => 512,
        _ => {
            let mut chars = suffix.chars();
            let pow: u32 = match chars.next()? {
                'k' | 'K' => 1,
                'm' | 'M' => 2,
                'G' => 3,
                'T' => 4,
                'P' => 5,
                'E' => 6,
                'Z' => 7,
                'Y' => 8,
                'R' => 9,
                'Q' => 10,
                _ => return None,
            };
            let base: u64 = match chars.as_str() {
                "" | "iB" => 1024,
                "B" => 1000,
                _ => return None,
            };
            base.checked_pow(pow).unwrap_or(u64::MAX)
        }
    };
    Some(n.saturating_mul(mult))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_like_gnu() {
        for (name, f, q) in [
            ("a", "a", "'a'"),
            ("a b", "'a b'", "'a b'"),
            ("a'b", "\"a'b\"", "\"a'b\""),
            ("a'b$", "'a'\\''b$'", "'a'\\''b$'"),
            ("a\nb", "'a'$'\\n''b'", "'a'$'\\n''b'"),
            ("", "''", "''"),
            ("a~", "a~", "'a~'"),
            ("~a", "'~a'", "'~a'"),
            ("a:b", "'a:b'", "'a:b'"),
        ] {
            assert_eq!(quotef(name), f, "{name:?}");
            assert_eq!(quote(name), q, "{name:?}");
        }
        assert_eq!(quotef(&crate::text::decode(b"\xff")), "''$'\\377'");
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("10"), Some(10));
        assert_eq!(parse_size("1K"), Some(1024));
        assert_eq!(parse_size("1kB"), Some(1000));
        assert_eq!(parse_size("2b"), Some(1024));
        assert_eq!(parse_size("1KiB"), Some(1024));
        assert_eq!(parse_size("1x"), None);
        assert_eq!(parse_size("k"), None);
        assert_eq!(parse_size("1g"), None);
        assert_eq!(parse_size("1m"), Some(1 << 20));
    }
}
