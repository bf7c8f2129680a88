//! Helpers the utilities share: GNU's shell-escape quoting of names in diagnostics,
//! opening an input operand (file, device or `-` for stdin) and line reading over bytes.

use std::io::{self, BufRead, Read};
use std::sync::Arc;

use super::{CmdResult, Ctx};
use crate::fs::{Device, FileType, FsError};

/// Whether a name needs quoting under GNU's shell-escape style.
fn needs_quote(s: &str, colon: bool) -> bool {
    if s.is_empty() {
        return true;
    }
    s.char_indices().any(|(i, c)| match c {
        '#' | '~' => i == 0,
        ' ' | '!' | '"' | '$' | '&' | '\'' | '(' | ')' | '*' | ';' | '<' | '=' | '>' | '?'
        | '[' | '\\' | '^' | '`' | '|' => true,
        ':' => colon,
        c => c.is_control() || crate::text::raw_byte(c).is_some(),
    })
}

/// GNU `quote()`: always quoted (`'x'`), as `ls: cannot access 'x'` prints.
pub fn quote(s: &str) -> String {
    shell_quote(s)
}

/// GNU `quotef()`: quoted only when needed (`cat: x: ...`, `cat: 'a b': ...`).
/// What a utility says of an input it could not read (a directory, a descriptor
/// closed or open only for writing), as strerror words; `None` for an error that is
/// not the input's (a limit hit, a signal), which ends the utility.
pub fn read_error_text(e: &io::Error) -> Option<String> {
    if e.raw_os_error() == Some(9) {
        return Some("Bad file descriptor".to_owned());
    }
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<crate::fs::FsError>())
        .map(ToString::to_string)
}

pub fn quotef(s: &str) -> String {
    if needs_quote(s, true) {
        shell_quote(s)
    } else {
        s.to_owned()
    }
}

/// Quoted only when needed, as `ls --quoting-style=shell` shows a name: the same as
/// [`quotef`] except that a `:` needs no quotes.
pub fn quote_name(s: &str) -> String {
    if needs_quote(s, false) {
        shell_quote(s)
    } else {
        s.to_owned()
    }
}

/// Whether the environment's character set (`LC_ALL`, else `LC_CTYPE`, else `LANG`) is
/// UTF-8, which makes GNU tools quote with `‘’` instead of `''`.
pub fn utf8_locale(env: &std::collections::BTreeMap<String, String>) -> bool {
    let name = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .filter_map(|k| env.get(*k))
        .find(|v| !v.is_empty())
        .map_or("", String::as_str);
    let lower = name.to_ascii_lowercase();
    lower.contains("utf-8") || lower.contains("utf8")
}

/// Marks that open and close a [`lq`] quotation until [`Ctx::err`] prints it.
const LQ_OPEN: char = '\u{F8F0}';
const LQ_CLOSE: char = '\u{F8F1}';

/// GNU `quote()` for a message built away from a [`Ctx`]: the quotation marks become
/// the locale's (see [`locale_quote`]) when [`Ctx::err`] prints the message.
pub fn lq(s: &str) -> String {
    let q = locale_quote(false, s);
    let inner = q.get(1..q.len() - 1).unwrap_or("");
    format!("{LQ_OPEN}{inner}{LQ_CLOSE}")
}

/// Turns [`lq`] marks into the locale's quotation marks.
pub fn resolve_quotes(msg: &str, utf8: bool) -> String {
    let (open, close) = if utf8 { ('‘', '’') } else { ('\'', '\'') };
    msg.replace(LQ_OPEN, &open.to_string())
        .replace(LQ_CLOSE, &close.to_string())
}

/// GNU `quote()` (locale quoting style), used for option values in diagnostics:
/// `‘x’` in a UTF-8 locale, `'x'` otherwise; control characters and backslashes are
/// escaped.
pub fn locale_quote(utf8: bool, s: &str) -> String {
    let (open, close) = if utf8 { ('‘', '’') } else { ('\'', '\'') };
    let mut out = String::new();
    out.push(open);
    for c in s.chars() {
        if c == '\\' {
            out.push_str("\\\\");
        } else if c.is_control() || crate::text::raw_byte(c).is_some() {
            escape_char(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out.push(close);
    out
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

/// Columns a character occupies on a terminal: East Asian wide characters two,
/// combining marks and control characters none, others one.
pub fn char_width(c: char) -> usize {
    let u = c as u32;
    if c.is_control() || crate::text::raw_byte(c).is_some() {
        return 0;
    }
    if (0x300..=0x36f).contains(&u) || (0x200b..=0x200f).contains(&u) || u == 0xfe0f {
        return 0;
    }
    let wide = (0x1100..=0x115f).contains(&u)
        || (0x2e80..=0xa4cf).contains(&u)
        || (0xac00..=0xd7a3).contains(&u)
        || (0xf900..=0xfaff).contains(&u)
        || (0xfe30..=0xfe4f).contains(&u)
        || (0xff00..=0xff60).contains(&u)
        || (0xffe0..=0xffe6).contains(&u)
        || (0x1f300..=0x1f64f).contains(&u)
        || (0x1f900..=0x1f9ff).contains(&u)
        || (0x20000..=0x3fffd).contains(&u);
    if wide { 2 } else { 1 }
}

/// Terminal columns a string occupies (see [`char_width`]).
pub fn display_width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

/// The major and minor numbers Linux gives each device of the default layout.
pub fn device_numbers(d: Device) -> (u32, u32) {
    match d {
        Device::Null => (1, 3),
        Device::Zero => (1, 5),
        Device::Full => (1, 7),
        Device::Random => (1, 8),
        Device::Urandom => (1, 9),
        Device::Tty => (5, 0),
        Device::Stdin | Device::Stdout | Device::Stderr => (136, 0),
    }
}

/// An opened input: stdin, a file's bytes, an endless device, or a FIFO's stream.
pub enum Input {
    Stdin,
    Bytes(Arc<Vec<u8>>),
    Zero,
    Random,
    /// A stream the host opened (a FIFO): read as it comes.
    Stream(Box<dyn Read + Send>),
}

/// A reader over an [`Input`].
pub enum Reader<'s> {
    Stdin(&'s mut dyn Read),
    Bytes(Arc<Vec<u8>>, usize),
    Zero,
    /// Deterministic pseudo-random bytes (xorshift).
    Random(u64),
    Stream(Box<dyn Read + Send>),
}

impl Read for Reader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Reader::Stdin(r) => r.read(buf),
            Reader::Stream(r) => r.read(buf),
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
            Input::Stream(r) => Reader::Stream(r),
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
            Input::Stream(mut r) => {
                let mut v = Vec::new();
                r.read_to_end(&mut v)?;
                Ok(Arc::new(v))
            }
        }
    }
}

/// Why an input could not be opened.
pub enum OpenError {
    Fs(FsError),
    /// Reading it passed the run's I/O budget (the run is stopping).
    Limit(io::Error),
}

impl OpenError {
    /// Whether this is the given errno.
    pub fn is(&self, errno: crate::fs::Errno) -> bool {
        match self {
            OpenError::Fs(e) => e.errno == errno,
            OpenError::Limit(_) => false,
        }
    }
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Fs(e) => e.fmt(f),
            OpenError::Limit(e) => e.fmt(f),
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
        // open("") fails with ENOENT; resolving it would name the working directory.
        if operand.is_empty() {
            return Err(OpenError::Fs(crate::fs::Errno::ENOENT.into()));
        }
        let path = self.path(operand);
        let fs = self.fs.lock();
        let meta = match fs.stat(&path) {
            Ok(m) => m,
            // A process substitution `<(...)` the shell did not stage as a file
            // (`dd if=<(...)`) is read from its descriptor as it comes.
            Err(e) if path.starts_with("/dev/fd/") => {
                drop(fs);
                return match self.host.open_read(&path) {
                    Some(Ok(r)) => Ok(Input::Stream(r)),
                    Some(Err(e)) => Err(OpenError::Limit(e)),
                    None => Err(OpenError::Fs(e)),
                };
            }
            Err(e) => return Err(OpenError::Fs(e)),
        };
        match meta.file_type {
            FileType::Device(Device::Stdin) => Ok(Input::Stdin),
            FileType::Device(Device::Zero) => Ok(Input::Zero),
            FileType::Device(Device::Random | Device::Urandom) => Ok(Input::Random),
            // No controlling terminal (see Fs::open).
            FileType::Device(Device::Tty) => Err(OpenError::Fs(crate::fs::Errno::ENXIO.into())),
            FileType::Device(_) => Ok(Input::Bytes(Arc::new(Vec::new()))),
            FileType::Fifo => {
                drop(fs);
                match self.host.open_read(&path) {
                    Some(Ok(r)) => Ok(Input::Stream(r)),
                    Some(Err(e)) => Err(OpenError::Limit(e)),
                    // A host that joins no FIFO ends leaves it without a writer.
                    None => Ok(Input::Bytes(Arc::new(Vec::new()))),
                }
            }
            _ => {
                let data = fs.read_file(&path).map_err(OpenError::Fs)?;
                drop(fs);
                // Files are read whole: `while :; do cat big; done > /dev/null`
                // moves bytes as `cat < big` does and is charged the same.
                self.host.charge_io(data.len()).map_err(OpenError::Limit)?;
                Ok(Input::Bytes(data))
            }
        }
    }

    /// Whether `name` names a program the way `execvp` finds one: a path to a file, or
    /// a file of that name in a `$PATH` directory (shell builtins are not programs).
    pub fn find_program(&self, name: &str) -> bool {
        let fs = self.fs.lock();
        let is_file = |p: &str| fs.stat(p).is_ok_and(|m| !m.is_dir());
        if name.contains('/') {
            return is_file(&self.path(name));
        }
        let path = self.env.get("PATH").map_or("/usr/bin:/bin", String::as_str);
        path.split(':')
            .any(|dir| is_file(&crate::fs::path::join(&self.path(dir), name)))
    }

    /// GNU `quote()` for this command's environment (see [`locale_quote`]).
    pub fn lquote(&self, s: &str) -> String {
        locale_quote(utf8_locale(self.env), s)
    }

    /// Reads the whole of `path` (absolute) with [`read_named`]: a FIFO or a process
    /// substitution's `/dev/fd/N` as it comes, anything else from the filesystem.
    pub fn read_named(&self, path: &str) -> io::Result<Result<Arc<Vec<u8>>, FsError>> {
        read_named(&*self.host, self.fs, path)
    }

    /// Reads a whole operand (see [`Ctx::open_input`]).
    pub fn read_input(&mut self, operand: &str) -> io::Result<Result<Arc<Vec<u8>>, OpenError>> {
        match self.open_input(operand) {
            Ok(input) => Ok(Ok(input.read_all(&mut *self.stdin)?)),
            Err(OpenError::Limit(e)) => Err(e),
            Err(e) => Ok(Err(e)),
        }
    }

    /// Asks `NAME: QUESTION? ` on stderr and reads the answer line from standard input,
    /// as GNU `yesno()` does for `-i`: yes when it starts with `y` or `Y`.
    pub fn confirm(&mut self, question: &str) -> io::Result<bool> {
        let question = resolve_quotes(question, utf8_locale(self.env));
        write!(self.stderr, "{}: {question}? ", self.name)?;
        self.stderr.flush()?;
        let mut answer = Vec::new();
        let mut byte = [0u8; 1];
        while self.stdin.read(&mut byte)? == 1 {
            let [b] = byte;
            if b == b'\n' {
                break;
            }
            answer.push(b);
        }
        Ok(matches!(answer.first(), Some(b'y' | b'Y')))
    }

    /// Reads each operand whole (standard input when there are none) and hands it,
    /// with its name, to `each`; one that cannot be read is reported as `NAME: ERROR` (the form of
    /// `expand`, `nl`, `fold`, ...) and makes the status 1.
    pub fn each_input(
        &mut self,
        operands: &[String],
        each: impl FnMut(&mut Self, &str, &[u8]) -> io::Result<()>,
    ) -> CmdResult {
        self.each_input_or(operands, |name, e| format!("{}: {e}", quotef(name)), each)
    }

    /// [`Ctx::each_input`] with `describe` wording a read failure.
    pub fn each_input_or(
        &mut self,
        operands: &[String],
        describe: impl Fn(&str, &OpenError) -> String,
        mut each: impl FnMut(&mut Self, &str, &[u8]) -> io::Result<()>,
    ) -> CmdResult {
        let stdin = ["-".to_owned()];
        let names = if operands.is_empty() {
            &stdin[..]
        } else {
            operands
        };
        let mut status = 0;
        for name in names {
            match self.read_input(name)? {
                Ok(data) => {
                    self.host.check()?;
                    each(self, name, &data)?;
                }
                Err(e) => {
                    self.err(describe(name, &e))?;
                    status = 1;
                }
            }
        }
        Ok(status)
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
        let end = memchr::memchr(delim, rest).map_or(rest.len(), |p| p + 1);
        let (rec, tail) = rest.split_at(end);
        rest = tail;
        Some(rec)
    })
}

/// A record without its trailing delimiter.
pub fn chomp(rec: &[u8], delim: u8) -> &[u8] {
    rec.strip_suffix(&[delim]).unwrap_or(rec)
}

/// C `strtoumax` on the start of `s`, as gnulib's `xstrtoumax` calls it: white space,
/// an optional `+` (a `-` is refused), then digits in `base` (0: `0x` hex, a leading
/// `0` octal, else decimal). Returns the value (`None` when it overflows) and how many
/// bytes were read, or `None` when no digits follow.
pub fn strtoumax_prefix(s: &[u8], base: u32) -> Option<(Option<u64>, usize)> {
    let is_space = |b: &&u8| matches!(**b, b' ' | b'\t'..=b'\r');
    let mut i = s.iter().take_while(is_space).count();
    match s.get(i) {
        Some(b'-') => return None,
        Some(b'+') => i += 1,
        _ => {}
    }
    let hex_prefix = matches!(s.get(i..i + 2), Some(b"0x" | b"0X"))
        && s.get(i + 2).is_some_and(u8::is_ascii_hexdigit);
    let radix = match base {
        0 if hex_prefix => {
            i += 2;
            16
        }
        0 if s.get(i) == Some(&b'0') => 8,
        0 => 10,
        b => b,
    };
    let digits = s
        .get(i..)?
        .iter()
        .take_while(|&&b| char::from(b).is_digit(radix))
        .count();
    if digits == 0 {
        return None;
    }
    let value = s.get(i..i + digits)?.iter().try_fold(0u64, |n, &b| {
        let d = char::from(b).to_digit(radix)?;
        n.checked_mul(u64::from(radix))?.checked_add(u64::from(d))
    });
    Some((value, i + digits))
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
        _ => power_suffix(suffix, true)?,
    };
    Some(n.saturating_mul(mult))
}

/// The multiplier of a GNU power suffix: `K`/`KiB` 1024, `KB` 1000, then `M G T P E Z
/// Y R Q` (and `k`; `m` too when `lower_m`). None for anything else; saturates.
pub fn power_suffix(suffix: &str, lower_m: bool) -> Option<u64> {
    let mut chars = suffix.chars();
    let pow: u32 = match chars.next()? {
        'k' | 'K' => 1,
        'm' if lower_m => 2,
        'M' => 2,
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
    Some(base.checked_pow(pow).unwrap_or(u64::MAX))
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

/// A UTC calendar time broken down from seconds since the epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Civil {
    pub year: i64,
    /// 1..=12
    pub month: u32,
    /// 1..=31
    pub day: u32,
    pub hour: u32,
    pub min: u32,
    pub sec: u32,
}

/// Breaks `secs` since the epoch into a UTC calendar time (proleptic Gregorian).
pub fn civil(secs: i64) -> Civil {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    Civil {
        year,
        month,
        day,
        hour: (rem / 3600) as u32,
        min: (rem % 3600 / 60) as u32,
        sec: (rem % 60) as u32,
    }
}

/// Seconds since the epoch of a UTC calendar time (fields may be out of range).
pub fn epoch(year: i64, month: u32, day: u32, hour: u32, min: u32, sec: u32) -> i64 {
    let (y, m) = if month <= 2 {
        (year - 1, i64::from(month) + 9)
    } else {
        (year, i64::from(month) - 3)
    };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let doy = (153 * m + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    days * 86_400 + i64::from(hour) * 3600 + i64::from(min) * 60 + i64::from(sec)
}

/// Abbreviated English month names.
pub const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// The user (or group) name for an id, as /etc/passwd of the default layout has them.
pub fn user_name(id: u32) -> String {
    match id {
        0 => "root".to_owned(),
        1000 => "user".to_owned(),
        n => n.to_string(),
    }
}

/// `ls -l`-style permission string (`drwxr-xr-x`) for a type letter and mode.
pub fn mode_string(type_char: char, mode: u32) -> String {
    let mut s = String::with_capacity(10);
    s.push(type_char);
    let bit = |m: u32, c: char| if mode & m != 0 { c } else { '-' };
    let special = |x: bool, set: bool, on: char, off: char| match (set, x) {
        (true, true) => on,
        (true, false) => off,
        (false, true) => 'x',
        (false, false) => '-',
    };
    s.push(bit(0o400, 'r'));
    s.push(bit(0o200, 'w'));
    s.push(special(mode & 0o100 != 0, mode & 0o4000 != 0, 's', 'S'));
    s.push(bit(0o040, 'r'));
    s.push(bit(0o020, 'w'));
    s.push(special(mode & 0o010 != 0, mode & 0o2000 != 0, 's', 'S'));
    s.push(bit(0o004, 'r'));
    s.push(bit(0o002, 'w'));
    s.push(special(mode & 0o001 != 0, mode & 0o1000 != 0, 't', 'T'));
    s
}

/// GNU `-h` size: bytes below 1024, else one decimal under 10 and whole numbers above,
/// always rounded up, with a K/M/G... suffix.
pub fn human_size(n: u64) -> String {
    if n < 1024 {
        return n.to_string();
    }
    const SUFFIX: &[u8] = b"KMGTPEZYRQ";
    let mut k = 0usize;
    let mut unit: u128 = 1024;
    while u128::from(n) >= unit * 1024 && k + 1 < SUFFIX.len() {
        unit *= 1024;
        k += 1;
    }
    let n = u128::from(n);
    let tenths = (n * 10).div_ceil(unit);
    let suffix = |k: usize| SUFFIX.get(k).map_or('?', |&c| c as char);
    if tenths < 100 {
        return format!("{}.{}{}", tenths / 10, tenths % 10, suffix(k));
    }
    let whole = n.div_ceil(unit);
    if whole >= 1024 && k + 1 < SUFFIX.len() {
        return format!("1.0{}", suffix(k + 1));
    }
    format!("{whole}{}", suffix(k))
}

#[cfg(test)]
mod time_tests {
    use super::*;

    #[test]
    fn calendar_round_trip() {
        let c = civil(1_700_000_000);
        assert_eq!(
            c,
            Civil {
                year: 2023,
                month: 11,
                day: 14,
                hour: 22,
                min: 13,
                sec: 20
            }
        );
        assert_eq!(epoch(2023, 11, 14, 22, 13, 20), 1_700_000_000);
        assert_eq!(civil(0).year, 1970);
        assert_eq!(epoch(2020, 1, 1, 0, 0, 0), 1_577_836_800);
    }

    #[test]
    fn human_sizes() {
        for (n, s) in [
            (5, "5"),
            (1024, "1.0K"),
            (1025, "1.1K"),
            (5000, "4.9K"),
            (4096, "4.0K"),
            (10240, "10K"),
            (12345, "13K"),
            (1_048_575, "1.0M"),
            (1_048_576, "1.0M"),
        ] {
            assert_eq!(human_size(n), s, "{n}");
        }
    }

    #[test]
    fn modes() {
        assert_eq!(mode_string('d', 0o755), "drwxr-xr-x");
        assert_eq!(mode_string('d', 0o1777), "drwxrwxrwt");
        assert_eq!(mode_string('-', 0o4644), "-rwSr--r--");
    }
}

/// The umask commands assume for new files and directories.
pub const UMASK: u32 = 0o022;

/// Applies a chmod-style mode (`755`, `u+x,go-w`, `a=rX`) to `base`; `None` if invalid.
/// Clauses without a who letter leave the bits set in `umask` untouched, as chmod does.
pub fn apply_mode(spec: &str, base: u32, is_dir: bool, umask: u32) -> Option<u32> {
    if !spec.is_empty() && spec.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
        let v = u32::from_str_radix(spec, 8).ok()?;
        if v > 0o7777 {
            return None;
        }
        // GNU keeps a directory's set-id bits unless an octal mode of 5+ digits clears them.
        let keep = if is_dir && spec.len() < 5 {
            base & 0o6000
        } else {
            0
        };
        return Some(v | keep);
    }
    let mut mode = base;
    for clause in spec.split(',') {
        let bytes = clause.as_bytes();
        let mut i = 0;
        let mut who = 0u32;
        while let Some(&c) = bytes.get(i) {
            match c {
                b'u' => who |= 0o4700,
                b'g' => who |= 0o2070,
                b'o' => who |= 0o1007,
                b'a' => who |= 0o7777,
                _ => break,
            }
            i += 1;
        }
        let implicit = who == 0;
        if implicit {
            who = 0o7777;
        }
        if i >= bytes.len() {
            return None;
        }
        while let Some(&op) = bytes.get(i) {
            if !matches!(op, b'+' | b'-' | b'=') {
                return None;
            }
            i += 1;
            let mut perm = 0u32;
            while let Some(&c) = bytes.get(i) {
                let add = match c {
                    b'r' => 0o444,
                    b'w' => 0o222,
                    b'x' => 0o111,
                    b'X' => {
                        if is_dir || mode & 0o111 != 0 {
                            0o111
                        } else {
                            0
                        }
                    }
                    b's' => 0o6000,
                    b't' => 0o1000,
                    b'u' => {
                        let u = (mode >> 6) & 7;
                        u * 0o111
                    }
                    b'g' => {
                        let g = (mode >> 3) & 7;
                        g * 0o111
                    }
                    b'o' => (mode & 7) * 0o111,
                    _ => break,
                };
                perm |= add;
                i += 1;
            }
            let mask = if implicit { who & !umask } else { who };
            match op {
                b'+' => mode |= perm & mask,
                b'-' => mode &= !(perm & mask),
                _ => mode = (mode & !who) | (perm & mask),
            }
        }
    }
    Some(mode)
}

#[cfg(test)]
mod mode_tests {
    use super::apply_mode;

    #[test]
    fn modes() {
        assert_eq!(apply_mode("700", 0o777, true, 0o022), Some(0o700));
        assert_eq!(apply_mode("u=rwx,g=rx", 0o777, true, 0o022), Some(0o757));
        assert_eq!(apply_mode("+x", 0o644, false, 0o022), Some(0o755));
        assert_eq!(apply_mode("go-w", 0o666, false, 0o022), Some(0o644));
        assert_eq!(apply_mode("a=r", 0o755, false, 0o022), Some(0o444));
        assert_eq!(apply_mode("u+s", 0o755, false, 0o022), Some(0o4755));
        assert_eq!(apply_mode("bad", 0o755, false, 0o022), None);
        assert_eq!(apply_mode("8", 0o755, false, 0o022), None);
    }
}

/// Parses `touch -t` stamps: `[[CC]YY]MMDDhhmm[.ss]`.
pub fn parse_touch_stamp(
    s: &str,
    now: crate::fs::Timestamp,
    zone: &crate::timefmt::Zone,
) -> Option<i64> {
    let (main, ss) = match s.split_once('.') {
        Some((m, ss)) if ss.len() == 2 => (m, ss.parse::<u32>().ok()?),
        Some(_) => return None,
        None => (s, 0),
    };
    if !main.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let num = |r: std::ops::Range<usize>| main.get(r).and_then(|x| x.parse::<u32>().ok());
    let (year, rest) = match main.len() {
        8 => (zone.local(now.secs).year, 0),
        10 => {
            let yy = i64::from(num(0..2)?);
            (if yy < 69 { 2000 + yy } else { 1900 + yy }, 2)
        }
        12 => (i64::from(num(0..4)?), 4),
        _ => return None,
    };
    let (mo, d, h, mi) = (
        num(rest..rest + 2)?,
        num(rest + 2..rest + 4)?,
        num(rest + 4..rest + 6)?,
        num(rest + 6..rest + 8)?,
    );
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || ss > 60 {
        return None;
    }
    zone.to_utc(epoch(year, mo, d, h, mi, ss))
}

#[cfg(test)]
mod date_tests {
    use super::*;
    use crate::fs::Timestamp;

    #[test]
    fn touch_stamps() {
        let now = Timestamp {
            secs: 1_700_000_000,
            nanos: 0,
        };
        let utc = crate::timefmt::Zone::utc();
        assert_eq!(
            parse_touch_stamp("202001020304.05", now, &utc),
            Some(1_577_934_245)
        );
        assert_eq!(
            parse_touch_stamp("01020304", now, &utc),
            Some(epoch(2023, 1, 2, 3, 4, 0))
        );
        assert_eq!(parse_touch_stamp("2x", now, &utc), None);
        // A stamp is local time: 03:04:05 in Tokyo is 18:04:05 UTC the day before.
        let tokyo = crate::timefmt::Zone::from_tz(Some("Asia/Tokyo"));
        assert_eq!(
            parse_touch_stamp("202001020304.05", now, &tokyo),
            Some(1_577_934_245 - 9 * 3600)
        );
    }
}

/// `name` inside directory `dir` as a listing walks it: one `/` between them unless
/// `dir` already ends with one.
pub fn child_path(dir: &str, name: &str) -> String {
    let mut path = String::with_capacity(dir.len() + 1 + name.len());
    path.push_str(dir);
    if !dir.ends_with('/') {
        path.push('/');
    }
    path.push_str(name);
    path
}

/// A named output opened as open(2) opens it with `O_WRONLY|O_CREAT` and `O_TRUNC` or
/// `O_APPEND`: a file of the filesystem written at an offset, or a stream the host
/// joined to the name (a FIFO's reader, a process substitution's `/dev/fd/N`,
/// `/dev/stdout`). Every utility that writes to a path it was given (`sort -o`, sed's
/// `w`, awk's `print >`, `dd of=`, `tee`) opens it through here, so a FIFO or `>(...)`
/// gets the bytes as it would from GNU's tools.
pub enum Output {
    File {
        ino: crate::fs::Ino,
        offset: u64,
        append: bool,
    },
    Stream(Box<dyn io::Write + Send>),
}

impl Output {
    /// Opens `path` (absolute), creating a file with `mode` (umask applied). The open
    /// of a FIFO waits for a reader. The outer error ends the run (a limit, a signal);
    /// the inner one is the open's failure, for the command to report.
    pub fn open(
        host: &dyn super::Host,
        fs: &crate::fs::SharedFs,
        path: &str,
        append: bool,
        mode: u32,
    ) -> io::Result<Result<Output, FsError>> {
        match host.open_write(path) {
            Some(Ok(w)) => return Ok(Ok(Output::Stream(w))),
            Some(Err(e)) => return Err(e),
            None => {}
        }
        let opts = if append {
            crate::fs::OpenOptions::append()
        } else {
            crate::fs::OpenOptions::write_truncate()
        };
        let opts = crate::fs::OpenOptions {
            mode: Some(mode),
            ..opts
        };
        let mut fs = fs.lock();
        Ok(fs.open(path, opts).and_then(|ino| {
            let offset = if append { fs.stat_ino(ino)?.size } else { 0 };
            Ok(Output::File {
                ino,
                offset,
                append,
            })
        }))
    }

    /// Whether the bytes go to a stream (which may need flushing, and whose write may
    /// block until its reader takes them).
    pub fn is_stream(&self) -> bool {
        matches!(self, Output::Stream(_))
    }

    /// Writes `data`: an error of the stream (its reader left: `BrokenPipe`; a limit)
    /// is the outer error, a filesystem error (no space, too big) the inner one. A
    /// stream is flushed, as GNU's tools flush what they write to a named file.
    pub fn write(
        &mut self,
        fs: &crate::fs::SharedFs,
        data: &[u8],
    ) -> io::Result<Result<(), FsError>> {
        match self {
            Output::Stream(w) => {
                w.write_all(data)?;
                w.flush()?;
                Ok(Ok(()))
            }
            Output::File {
                ino,
                offset,
                append,
            } => {
                let mut fs = fs.lock();
                if *append {
                    *offset = fs.stat_ino(*ino).map_or(*offset, |m| m.size);
                }
                Ok(fs.write_at(*ino, *offset, data).map(|end| *offset = end))
            }
        }
    }
}

impl Ctx<'_> {
    /// Opens an output operand with the usual creation mode (see [`Output::open`]).
    pub fn open_output(&self, operand: &str, append: bool) -> io::Result<Result<Output, FsError>> {
        self.open_output_mode(operand, append, self.file_mode())
    }

    /// [`Ctx::open_output`] giving a new file `mode` (umask already applied).
    pub fn open_output_mode(
        &self,
        operand: &str,
        append: bool,
        mode: u32,
    ) -> io::Result<Result<Output, FsError>> {
        Output::open(&*self.host, self.fs, &self.path(operand), append, mode)
    }

    /// Opens `operand`, writes `data` and closes it: `sort -o`, `uniq IN OUT`.
    pub fn write_output(
        &self,
        operand: &str,
        data: &[u8],
        append: bool,
        mode: u32,
    ) -> io::Result<Result<(), FsError>> {
        match self.open_output_mode(operand, append, mode)? {
            Ok(mut out) => out.write(self.fs, data),
            Err(e) => Ok(Err(e)),
        }
    }
}

/// Reads the whole of `path` (absolute) for a command that reads its inputs whole: a
/// FIFO (or a process substitution's `/dev/fd/N`) through the host, as it comes until
/// its writers close it; anything else from the filesystem. The outer error ends the
/// run (a limit, a signal).
pub fn read_named(
    host: &dyn super::Host,
    fs: &crate::fs::SharedFs,
    path: &str,
) -> io::Result<Result<Arc<Vec<u8>>, FsError>> {
    match open_named(host, fs, path)? {
        Ok(Input::Stream(mut r)) => {
            let mut v = Vec::new();
            r.read_to_end(&mut v)?;
            Ok(Ok(Arc::new(v)))
        }
        Ok(Input::Bytes(d)) => Ok(Ok(d)),
        Ok(_) => Ok(Ok(Arc::default())),
        Err(e) => Ok(Err(e)),
    }
}

/// Opens `path` (absolute) for a command that reads it a record at a time: a FIFO (or
/// a process substitution's `/dev/fd/N`) as a stream through the host, so a reader that
/// stops early (`sed 1q <(yes)`) never waits for the writer's end; anything else is the
/// file's bytes ([`Input::Bytes`]). The outer error ends the run (a limit, a signal).
pub fn open_named(
    host: &dyn super::Host,
    fs: &crate::fs::SharedFs,
    path: &str,
) -> io::Result<Result<Input, FsError>> {
    let streamed = match fs.lock().stat(path) {
        Ok(m) => m.file_type == FileType::Fifo,
        Err(_) => path.starts_with("/dev/fd/"),
    };
    if streamed && let Some(r) = host.open_read(path) {
        return Ok(Ok(Input::Stream(r?)));
    }
    Ok(fs.lock().read_file(path).map(Input::Bytes))
}

/// Size of a [`Scratch`] buffer: a pipe's capacity, so one read can empty a pipe.
pub const SCRATCH: usize = 64 * 1024;

std::thread_local! {
    /// A read buffer kept between utilities run on this thread (stage threads are
    /// reused: a fresh zeroed 64 KiB per `tr` or `cat` was a tenth of a short
    /// pipeline's own work).
    static SPARE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A zero-filled read buffer of [`SCRATCH`] bytes (its contents are whatever the last
/// user left), given back to the thread when dropped.
pub struct Scratch(Vec<u8>);

impl Scratch {
    pub fn new() -> Scratch {
        let mut v = SPARE.with(|s| std::mem::take(&mut *s.borrow_mut()));
        if v.len() != SCRATCH {
            v = vec![0; SCRATCH];
        }
        Scratch(v)
    }
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch::new()
    }
}

impl std::ops::Deref for Scratch {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl std::ops::DerefMut for Scratch {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let v = std::mem::take(&mut self.0);
        // A nested user's buffer may come back second; one is kept.
        SPARE.with(|s| {
            if let Ok(mut s) = s.try_borrow_mut()
                && s.is_empty()
            {
                *s = v;
            }
        });
    }
}
