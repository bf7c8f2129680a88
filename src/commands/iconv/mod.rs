//! `iconv`: converts text between UTF-8, UTF-16, UTF-32, Latin-1, Latin-9 and ASCII as
//! glibc's `iconv` does, with `//TRANSLIT` (glibc's C.UTF-8 table), `//IGNORE`, `-c`,
//! `-o FILE` and `-l`. The encodings are small enough to do by hand, which keeps glibc's
//! exact error positions (a library decoder replaces bad input instead of stopping).

mod translit;

use super::about::{HELP, VERSION, write_version};
use super::args::{HasArg, LongOpt, Spec, long};
use super::util::OpenError;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("from-code", HasArg::Required, "f"),
    long("to-code", HasArg::Required, "t"),
    long("list", HasArg::No, "l"),
    long("output", HasArg::Required, "o"),
    long("silent", HasArg::No, "s"),
    long("verbose", HasArg::No, "verbose"),
    long("usage", HasArg::No, "usage"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: iconv [OPTION...] [FILE...]
Convert encoding of given files from one encoding to another.

 Input/Output format specification:
  -f, --from-code=NAME       encoding of original text
  -t, --to-code=NAME         encoding for output

 Information:
  -l, --list                 list all known coded character sets

 Output control:
  -c                         omit invalid characters from output
  -o, --output=FILE          output file
  -s, --silent               suppress warnings
      --verbose              print progress information

  -?, --help                 Give this help list
      --usage                Give a short usage message
  -V, --version              Print program version

Mandatory or optional arguments to long options are also mandatory or optional
for any corresponding short options.
";

const SHORT_USAGE: &str = "\
Usage: iconv [-cls?V] [-f NAME] [-t NAME] [-o FILE] [--from-code=NAME]
            [--to-code=NAME] [--list] [--output=FILE] [--silent] [--verbose]
            [--help] [--usage] [--version] [FILE...]
";

/// The largest input read at once (glibc maps whole files too).
const MAX_INPUT: usize = 256 << 20;

/// A character set shellbox converts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Charset {
    Utf8,
    Latin1,
    Latin9,
    Ascii,
    /// UTF-16 with a byte order mark (read: detected, little-endian without; written:
    /// `FF FE` and little-endian, as glibc on x86 does).
    Utf16,
    Utf16Le,
    Utf16Be,
    Utf32,
    Utf32Le,
    Utf32Be,
}

/// Every name `-f`/`-t` accept (case-insensitively), and what it names.
const NAMES: &[(&str, Charset)] = &[
    ("646", Charset::Ascii),
    ("ANSI_X3.4-1968", Charset::Ascii),
    ("ANSI_X3.4-1986", Charset::Ascii),
    ("ASCII", Charset::Ascii),
    ("CP367", Charset::Ascii),
    ("CP819", Charset::Latin1),
    ("CSASCII", Charset::Ascii),
    ("CSISOLATIN1", Charset::Latin1),
    ("IBM367", Charset::Ascii),
    ("IBM819", Charset::Latin1),
    ("ISO-10646/UTF-8", Charset::Utf8),
    ("ISO-10646/UTF8", Charset::Utf8),
    ("ISO-8859-1", Charset::Latin1),
    ("ISO-8859-15", Charset::Latin9),
    ("ISO-IR-100", Charset::Latin1),
    ("ISO-IR-6", Charset::Ascii),
    ("ISO646-US", Charset::Ascii),
    ("ISO8859-1", Charset::Latin1),
    ("ISO8859-15", Charset::Latin9),
    ("ISO88591", Charset::Latin1),
    ("ISO885915", Charset::Latin9),
    ("ISO_646.IRV:1991", Charset::Ascii),
    ("ISO_8859-1", Charset::Latin1),
    ("ISO_8859-1:1987", Charset::Latin1),
    ("ISO_8859-15", Charset::Latin9),
    ("ISO_8859-15:1998", Charset::Latin9),
    ("L1", Charset::Latin1),
    ("LATIN-9", Charset::Latin9),
    ("LATIN1", Charset::Latin1),
    ("LATIN9", Charset::Latin9),
    ("US", Charset::Ascii),
    ("US-ASCII", Charset::Ascii),
    ("UTF-16", Charset::Utf16),
    ("UTF-16BE", Charset::Utf16Be),
    ("UTF-16LE", Charset::Utf16Le),
    ("UTF-32", Charset::Utf32),
    ("UTF-32BE", Charset::Utf32Be),
    ("UTF-32LE", Charset::Utf32Le),
    ("UTF-8", Charset::Utf8),
    ("UTF8", Charset::Utf8),
];

/// A charset name with its `//` suffixes: what it names and the error handling they ask for.
struct Named {
    charset: Option<Charset>,
    translit: bool,
    ignore: bool,
}

fn lookup(name: &str) -> Named {
    let upper = name.to_ascii_uppercase();
    let mut parts = upper.split("//");
    let base = parts.next().unwrap_or("");
    let mut spec = Named {
        charset: None,
        translit: false,
        ignore: false,
    };
    for p in parts {
        for flag in p.split(',') {
            match flag {
                "TRANSLIT" => spec.translit = true,
                "IGNORE" => spec.ignore = true,
                _ => {}
            }
        }
    }
    // An empty name is the locale's charset, UTF-8 in the sandbox.
    spec.charset = if base.is_empty() {
        Some(Charset::Utf8)
    } else {
        NAMES.iter().find(|(n, _)| *n == base).map(|(_, c)| *c)
    };
    spec
}

/// Latin-9's eight code points that differ from Latin-1's.
const LATIN9: [(u8, u32); 8] = [
    (0xA4, 0x20AC),
    (0xA6, 0x0160),
    (0xA8, 0x0161),
    (0xB4, 0x017D),
    (0xB8, 0x017E),
    (0xBC, 0x0152),
    (0xBD, 0x0153),
    (0xBE, 0x0178),
];

/// One decoding step.
enum Step {
    /// A character and the bytes it took.
    Char(u32, usize),
    /// Bytes that are no character (glibc: illegal input sequence).
    Invalid,
    /// The input ends inside a character.
    Incomplete,
}

struct Decoder {
    charset: Charset,
    /// For UTF-16/UTF-32 without a fixed order: big-endian once a BOM said so.
    big_endian: bool,
}

impl Decoder {
    fn new(charset: Charset) -> Decoder {
        Decoder {
            charset,
            big_endian: matches!(charset, Charset::Utf16Be | Charset::Utf32Be),
        }
    }

    /// Consumes a byte order mark at the start of a UTF-16 or UTF-32 input; returns
    /// how many bytes it took.
    fn bom(&mut self, data: &[u8]) -> usize {
        match self.charset {
            Charset::Utf16 => match data {
                [0xFE, 0xFF, ..] => {
                    self.big_endian = true;
                    2
                }
                [0xFF, 0xFE, ..] => 2,
                _ => 0,
            },
            Charset::Utf32 => match data {
                [0, 0, 0xFE, 0xFF, ..] => {
                    self.big_endian = true;
                    4
                }
                [0xFF, 0xFE, 0, 0, ..] => 4,
                _ => 0,
            },
            _ => 0,
        }
    }

    fn step(&self, rest: &[u8]) -> Step {
        let Some(&b) = rest.first() else {
            return Step::Incomplete;
        };
        match self.charset {
            Charset::Latin1 => Step::Char(u32::from(b), 1),
            Charset::Latin9 => {
                let c = LATIN9
                    .iter()
                    .find(|(byte, _)| *byte == b)
                    .map_or(u32::from(b), |(_, c)| *c);
                Step::Char(c, 1)
            }
            Charset::Ascii if b < 0x80 => Step::Char(u32::from(b), 1),
            Charset::Ascii => Step::Invalid,
            Charset::Utf8 => utf8_step(rest),
            Charset::Utf16 | Charset::Utf16Le | Charset::Utf16Be => {
                let unit = |i: usize| -> Option<u32> {
                    let pair = rest.get(i..i + 2)?;
                    let (a, b) = (u32::from(*pair.first()?), u32::from(*pair.get(1)?));
                    Some(if self.big_endian {
                        a << 8 | b
                    } else {
                        b << 8 | a
                    })
                };
                let Some(u) = unit(0) else {
                    return Step::Incomplete;
                };
                match u {
                    0xD800..=0xDBFF => match unit(2) {
                        None => Step::Incomplete,
                        Some(l @ 0xDC00..=0xDFFF) => {
                            Step::Char(0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00), 4)
                        }
                        Some(_) => Step::Invalid,
                    },
                    0xDC00..=0xDFFF => Step::Invalid,
                    _ => Step::Char(u, 2),
                }
            }
            Charset::Utf32 | Charset::Utf32Le | Charset::Utf32Be => {
                let Some(q) = rest.get(..4) else {
                    return Step::Incomplete;
                };
                let mut bytes = [0u8; 4];
                bytes.copy_from_slice(q);
                let c = if self.big_endian {
                    u32::from_be_bytes(bytes)
                } else {
                    u32::from_le_bytes(bytes)
                };
                if c > 0x10FFFF || (0xD800..=0xDFFF).contains(&c) {
                    Step::Invalid
                } else {
                    Step::Char(c, 4)
                }
            }
        }
    }
}

/// Strict UTF-8: no overlong forms, surrogates or code points past U+10FFFF.
fn utf8_step(rest: &[u8]) -> Step {
    let Some(&b) = rest.first() else {
        return Step::Incomplete;
    };
    let (len, min, init) = match b {
        0x00..=0x7F => return Step::Char(u32::from(b), 1),
        0xC2..=0xDF => (2, 0x80, u32::from(b & 0x1F)),
        0xE0..=0xEF => (3, 0x800, u32::from(b & 0x0F)),
        0xF0..=0xF4 => (4, 0x10000, u32::from(b & 0x07)),
        _ => return Step::Invalid,
    };
    let mut c = init;
    for i in 1..len {
        match rest.get(i) {
            None => return Step::Incomplete,
            Some(&cb) if cb & 0xC0 == 0x80 => {
                c = c << 6 | u32::from(cb & 0x3F);
                // Reject as soon as the prefix can only be overlong, a surrogate or
                // too big, so a truncated bad sequence is invalid, not incomplete.
                let shift = 6 * (len - 1 - i) as u32;
                let lo = c << shift;
                let hi = lo | ((1u32 << shift) - 1);
                if hi < min || lo > 0x10FFFF || (lo >= 0xD800 && hi <= 0xDFFF) {
                    return Step::Invalid;
                }
            }
            Some(_) => return Step::Invalid,
        }
    }
    if c < min || c > 0x10FFFF || (0xD800..=0xDFFF).contains(&c) {
        return Step::Invalid;
    }
    Step::Char(c, len)
}

/// Appends `c` in `charset`; false when the charset has no such character.
fn encode(charset: Charset, c: u32, out: &mut Vec<u8>) -> bool {
    match charset {
        Charset::Utf8 => match char::from_u32(c) {
            Some(ch) => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                true
            }
            None => false,
        },
        Charset::Latin1 => match u8::try_from(c) {
            Ok(b) => {
                out.push(b);
                true
            }
            Err(_) => false,
        },
        Charset::Latin9 => {
            if let Some((b, _)) = LATIN9.iter().find(|(_, cp)| *cp == c) {
                out.push(*b);
                return true;
            }
            match u8::try_from(c) {
                Ok(b) if !LATIN9.iter().any(|(byte, _)| *byte == b) => {
                    out.push(b);
                    true
                }
                _ => false,
            }
        }
        Charset::Ascii => match u8::try_from(c) {
            Ok(b) if b < 0x80 => {
                out.push(b);
                true
            }
            _ => false,
        },
        Charset::Utf16 | Charset::Utf16Le | Charset::Utf16Be => {
            let Some(ch) = char::from_u32(c) else {
                return false;
            };
            let mut units = [0u16; 2];
            for u in ch.encode_utf16(&mut units) {
                let bytes = if charset == Charset::Utf16Be {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                };
                out.extend_from_slice(&bytes);
            }
            true
        }
        Charset::Utf32 | Charset::Utf32Le | Charset::Utf32Be => {
            let bytes = if charset == Charset::Utf32Be {
                c.to_be_bytes()
            } else {
                c.to_le_bytes()
            };
            out.extend_from_slice(&bytes);
            true
        }
    }
}

/// glibc's transliteration of `c` into `to`: the table's replacement when every one of
/// its characters fits, else `?`.
fn transliterate(to: Charset, c: u32, out: &mut Vec<u8>) -> bool {
    if let Ok(i) = translit::TABLE.binary_search_by_key(&c, |(cp, _)| *cp)
        && let Some((_, repl)) = translit::TABLE.get(i)
    {
        let mut buf = Vec::new();
        if repl.chars().all(|ch| encode(to, u32::from(ch), &mut buf)) {
            out.extend_from_slice(&buf);
            return true;
        }
    }
    encode(to, u32::from('?'), out)
}

/// How a conversion of one input ended.
enum End {
    Done,
    /// Something was skipped under `//IGNORE` (reported at the end, status 1).
    Ignored,
    Illegal(usize),
    Incomplete,
}

struct Conversion {
    from: Charset,
    to: Charset,
    translit: bool,
    /// `-c` or `//IGNORE`: skip what cannot be converted.
    skip: bool,
    /// `-c`: skip without reporting it.
    silent_skip: bool,
    /// Whether the output's byte order mark has been written.
    bom_written: bool,
}

impl Conversion {
    fn run(&mut self, data: &[u8], out: &mut Vec<u8>) -> End {
        let mut dec = Decoder::new(self.from);
        let mut pos = dec.bom(data);
        let mut skipped = false;
        while let Some(rest) = data.get(pos..) {
            if rest.is_empty() {
                break;
            }
            match dec.step(rest) {
                Step::Char(c, len) => {
                    if !self.bom_written {
                        self.bom_written = true;
                        match self.to {
                            Charset::Utf16 => out.extend_from_slice(&[0xFF, 0xFE]),
                            Charset::Utf32 => out.extend_from_slice(&[0xFF, 0xFE, 0, 0]),
                            _ => {}
                        }
                    }
                    if !encode(self.to, c, out) {
                        if self.translit {
                            transliterate(self.to, c, out);
                        } else if self.skip {
                            skipped = true;
                        } else {
                            return End::Illegal(pos);
                        }
                    }
                    pos += len;
                }
                Step::Invalid if self.skip => {
                    skipped = true;
                    pos += 1;
                }
                Step::Invalid => return End::Illegal(pos),
                Step::Incomplete => return End::Incomplete,
            }
        }
        if skipped && !self.silent_skip {
            End::Ignored
        } else {
            End::Done
        }
    }
}

/// A name split into text and numbers, so that numbers compare by value.
fn natural_key(s: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut text = String::new();
    let mut chars = s.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_ascii_digit() {
            let mut n: u64 = 0;
            while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(u64::from(d));
                chars.next();
            }
            key.push((std::mem::take(&mut text), n));
        } else {
            text.push(c);
            chars.next();
        }
    }
    key.push((text, 0));
    key
}

fn list(ctx: &mut Ctx) -> CmdResult {
    let mut names: Vec<&str> = NAMES.iter().map(|(n, _)| *n).collect();
    // glibc lists them in version order: UTF-8 before UTF-16.
    names.sort_by_key(|n| natural_key(n));
    let mut text = String::new();
    for n in names {
        text.push_str(n);
        // glibc ends a name that has a slash of its own with one more.
        text.push_str(if n.contains('/') { "/\n" } else { "//\n" });
    }
    ctx.stdout.write_all(text.as_bytes())?;
    Ok(0)
}

pub fn iconv(ctx: &mut Ctx) -> CmdResult {
    let args: Vec<String> = ctx
        .args
        .iter()
        .map(|a| {
            if a == "-?" {
                "--help".to_owned()
            } else {
                a.clone()
            }
        })
        .collect();
    let parsed = match super::args::parse(&Spec::new("f:t:lo:csV", LONG), &args) {
        Ok(p) => p,
        Err(msg) => {
            ctx.err(msg)?;
            writeln!(
                ctx.stderr,
                "Try `iconv --help' or `iconv --usage' for more information."
            )?;
            return Ok(64);
        }
    };
    for (k, _) in &parsed.opts {
        match k.as_str() {
            "help" => {
                ctx.stdout.write_all(USAGE.as_bytes())?;
                return Ok(0);
            }
            "usage" => {
                ctx.stdout.write_all(SHORT_USAGE.as_bytes())?;
                return Ok(0);
            }
            "version" | "V" => {
                write_version(ctx)?;
                return Ok(0);
            }
            _ => {}
        }
    }
    if parsed.has("l") {
        return list(ctx);
    }
    let from = lookup(parsed.last("f").unwrap_or(""));
    let to = lookup(parsed.last("t").unwrap_or(""));
    let (Some(from_cs), Some(to_cs)) = (from.charset, to.charset) else {
        ctx.err("failed to start conversion processing: No such file or directory")?;
        return Ok(1);
    };
    let silent_skip = parsed.has("c");
    let mut conv = Conversion {
        from: from_cs,
        to: to_cs,
        translit: to.translit,
        skip: silent_skip || to.ignore,
        silent_skip,
        bom_written: false,
    };
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    };
    let mut out = Vec::new();
    let mut status = 0;
    let mut failure: Option<String> = None;
    for name in &operands {
        let data = if name == "-" {
            ctx.read_stdin_to_end(MAX_INPUT)?
        } else {
            match ctx.open_input(name) {
                Ok(input) => input.read_all(&mut *ctx.stdin)?.to_vec(),
                Err(OpenError::Limit(e)) => return Err(e),
                Err(e) => {
                    ctx.err(format!("cannot open input file `{name}': {e}"))?;
                    status = 1;
                    continue;
                }
            }
        };
        ctx.host.check()?;
        match conv.run(&data, &mut out) {
            End::Done => {}
            End::Ignored => {
                failure = Some(format!("illegal input sequence at position {}", data.len()));
            }
            End::Illegal(pos) => {
                failure = Some(format!("illegal input sequence at position {pos}"));
            }
            End::Incomplete => {
                failure = Some("incomplete character or shift sequence at end of buffer".into());
            }
        }
        if failure.is_some() {
            break;
        }
    }
    match parsed.last("o") {
        Some(file) => {
            if let Err(e) = ctx.write_output(file, &out, false, ctx.file_mode())? {
                ctx.err(format!("cannot open output file: {e}"))?;
                return Ok(1);
            }
        }
        None => ctx.stdout.write_all(&out)?,
    }
    if let Some(msg) = failure {
        ctx.err(msg)?;
        status = 1;
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::translit::TABLE;

    #[test]
    fn table_is_sorted() {
        assert!(TABLE.windows(2).all(|w| matches!(w, [a, b] if a.0 < b.0)));
    }
}
