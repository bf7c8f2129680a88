//! `od`: dumps files in octal, decimal, hex, floating point or character form, with
//! GNU's exact column layout (`-t` types `a c d o u x f` with sizes, the shorthands
//! `-b -c -d -o -s -x -i -l -f`, `-A`, `-j`, `-N`, `-w`, `-v`, `--endian`, and the
//! traditional `od FILE [+]OFFSET` form). Not supported: `-S` strings mode, long double
//! (`fL`), pseudo-start labels.

use std::io::{self, Read};

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long};
use super::util::{Input, Reader, lq, quote, quotef, strtoumax_prefix};
use super::{CmdResult, Ctx};
use crate::fs::Errno;

const LONG: &[LongOpt] = &[
    long("address-radix", HasArg::Required, "A"),
    long("endian", HasArg::Required, "endian"),
    long("skip-bytes", HasArg::Required, "j"),
    long("read-bytes", HasArg::Required, "N"),
    long("format", HasArg::Required, "t"),
    long("output-duplicates", HasArg::No, "v"),
    long("width", HasArg::Optional, "w"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: od [OPTION]... [FILE]...
  or:  od [-abcdfilosx]... [FILE] [[+]OFFSET[.][b]]
Write an unambiguous representation, octal bytes by default,
of FILE to standard output.  With more than one FILE argument,
concatenate them in the listed order to form the input.

With no FILE, or when FILE is -, read standard input.

  -A, --address-radix=RADIX   output format for file offsets; RADIX is one
                                of [doxn], for Decimal, Octal, Hex or None
      --endian={big|little}   swap input bytes according the specified order
  -j, --skip-bytes=BYTES      skip BYTES input bytes first
  -N, --read-bytes=BYTES      limit dump to BYTES input bytes
  -t, --format=TYPE           select output format or formats
  -v, --output-duplicates     do not use * to mark line suppression
  -w[BYTES], --width[=BYTES]  output BYTES bytes per output line;
                                32 is implied when BYTES is not specified
      --help        display this help and exit
      --version     output version information and exit

Traditional format specifications may be intermixed; they accumulate:
  -a   same as -t a,  select named characters, ignoring high-order bit
  -b   same as -t o1, select octal bytes
  -c   same as -t c,  select printable characters or backslash escapes
  -d   same as -t u2, select unsigned decimal 2-byte units
  -f   same as -t fF, select floats
  -i   same as -t dI, select decimal ints
  -l   same as -t dL, select decimal longs
  -o   same as -t o2, select octal 2-byte units
  -s   same as -t d2, select decimal 2-byte units
  -x   same as -t x2, select hexadecimal 2-byte units
";

/// How one `-t` type prints its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Signed,
    Unsigned,
    Octal,
    Hex,
    Float,
    /// `a`: named characters.
    Named,
    /// `c`: characters or backslash escapes.
    Char,
}

/// One output type: what it prints, its datum size, its minimum field width, the extra
/// padding its line gets to line up with the widest type, and the `z` trailer flag.
#[derive(Clone, Copy, Debug)]
struct Format {
    kind: Kind,
    size: usize,
    width: usize,
    pad: usize,
    trailer: bool,
}

fn field_width(kind: Kind, size: usize) -> usize {
    match (kind, size) {
        (Kind::Signed, 1) => 4,
        (Kind::Signed, 2) => 6,
        (Kind::Signed, 4) => 11,
        (Kind::Signed, _) => 20,
        (Kind::Unsigned, 1) => 3,
        (Kind::Unsigned, 2) => 5,
        (Kind::Unsigned, 4) => 10,
        (Kind::Unsigned, _) => 20,
        (Kind::Octal, 1) => 3,
        (Kind::Octal, 2) => 6,
        (Kind::Octal, 4) => 11,
        (Kind::Octal, _) => 22,
        (Kind::Hex, n) => n * 2,
        (Kind::Float, 4) => 15,
        (Kind::Float, _) => 24,
        (Kind::Named | Kind::Char, _) => 3,
    }
}

/// Parses a `-t` argument (one or more concatenated types) onto `out`; `Err` is the
/// diagnostic.
fn parse_types(spec: &str, out: &mut Vec<Format>) -> Result<(), String> {
    let bytes = spec.as_bytes();
    let mut i = 0;
    while let Some(&c) = bytes.get(i) {
        i += 1;
        let kind = match c {
            b'd' => Kind::Signed,
            b'u' => Kind::Unsigned,
            b'o' => Kind::Octal,
            b'x' => Kind::Hex,
            b'f' => Kind::Float,
            b'a' => Kind::Named,
            b'c' => Kind::Char,
            _ => {
                let ch = spec
                    .get(i - 1..)
                    .and_then(|s| s.chars().next())
                    .unwrap_or('?');
                return Err(format!(
                    "invalid character '{ch}' in type string {}",
                    lq(spec)
                ));
            }
        };
        let size = match kind {
            Kind::Named | Kind::Char => 1,
            Kind::Float => match bytes.get(i) {
                Some(b'F') => {
                    i += 1;
                    4
                }
                Some(b'D') => {
                    i += 1;
                    8
                }
                Some(b'L') => {
                    i += 1;
                    16
                }
                _ => size_digits(bytes, &mut i).unwrap_or(8),
            },
            _ => match bytes.get(i) {
                Some(b'C') => {
                    i += 1;
                    1
                }
                Some(b'S') => {
                    i += 1;
                    2
                }
                Some(b'I') => {
                    i += 1;
                    4
                }
                Some(b'L') => {
                    i += 1;
                    8
                }
                _ => size_digits(bytes, &mut i).unwrap_or(4),
            },
        };
        let valid = match kind {
            Kind::Float => matches!(size, 4 | 8),
            _ => matches!(size, 1 | 2 | 4 | 8),
        };
        if !valid {
            let what = if kind == Kind::Float {
                "floating point"
            } else {
                "integral"
            };
            return Err(format!(
                "invalid type string {};\nthis system doesn't provide a {size}-byte {what} type",
                lq(spec)
            ));
        }
        let trailer = bytes.get(i) == Some(&b'z');
        if trailer {
            i += 1;
        }
        out.push(Format {
            kind,
            size,
            width: field_width(kind, size),
            pad: 0,
            trailer,
        });
    }
    Ok(())
}

/// A decimal size after a type letter, if any digits follow.
fn size_digits(bytes: &[u8], i: &mut usize) -> Option<usize> {
    let start = *i;
    while bytes.get(*i).is_some_and(u8::is_ascii_digit) {
        *i += 1;
    }
    let digits = std::str::from_utf8(bytes.get(start..*i)?).ok()?;
    if digits.is_empty() {
        return None;
    }
    Some(digits.parse().unwrap_or(usize::MAX))
}

/// Why an `-j`/`-N`/`-w` argument was refused.
enum NumError {
    Invalid,
    Suffix,
    TooLarge,
}

/// gnulib `xstrtoumax` with `base` (0: C prefixes) and the suffix letters `suffixes`
/// (each a power of 1024, or 1000 with a `B` after it, `b` = 512).
fn parse_count(s: &str, base: u32, suffixes: &str) -> Result<u64, NumError> {
    let (value, used) = strtoumax_prefix(s.as_bytes(), base).ok_or(NumError::Invalid)?;
    let mut overflow = value.is_none();
    let mut n = value.unwrap_or(u64::MAX);
    let rest = s.get(used..).unwrap_or("");
    if !rest.is_empty() {
        let mut chars = rest.chars();
        let letter = chars.next().unwrap_or(' ');
        if !suffixes.contains(letter) {
            return Err(NumError::Suffix);
        }
        let tail = chars.as_str();
        let (kilo, tail) = match tail {
            t if !suffixes.contains('0') => (1024u64, t),
            t if t.starts_with("iB") => (1024, t.get(2..).unwrap_or("")),
            t if t.starts_with('B') || t.starts_with('D') => (1000, t.get(1..).unwrap_or("")),
            t => (1024, t),
        };
        let mult = match letter {
            'b' => Some(512),
            'B' => Some(1024),
            'k' | 'K' => kilo.checked_pow(1),
            'm' | 'M' => kilo.checked_pow(2),
            'G' => kilo.checked_pow(3),
            'T' => kilo.checked_pow(4),
            'P' => kilo.checked_pow(5),
            'E' => kilo.checked_pow(6),
            'Z' => kilo.checked_pow(7),
            'Y' => kilo.checked_pow(8),
            _ => None,
        };
        match mult.and_then(|m| n.checked_mul(m)) {
            Some(v) => n = v,
            None => overflow = true,
        }
        if !tail.is_empty() {
            return Err(NumError::Suffix);
        }
    }
    if overflow {
        return Err(NumError::TooLarge);
    }
    Ok(n)
}

/// The traditional `[+]OFFSET[b]` operand: octal, or hex with `0x`. (GNU documents a
/// trailing `.` for decimal, but coreutils 9 rejects it, so it names a file.)
fn parse_old_offset(s: &str) -> Option<u64> {
    let s = s.strip_prefix('+').unwrap_or(s);
    if !s.starts_with(|c: char| c.is_ascii_digit()) || s.contains('.') {
        return None;
    }
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => parse_count(hex, 16, "Bb").ok(),
        None => parse_count(s, 8, "Bb").ok(),
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The current input of the concatenated stream.
enum Cur {
    Stdin,
    Other(Reader<'static>),
}

/// The operands read one after another as one stream, opened as they are reached.
struct Stream<'n> {
    names: &'n [String],
    next: usize,
    cur: Option<Cur>,
    /// Whether any operand could be opened.
    opened: bool,
    status: i32,
}

impl Stream<'_> {
    /// Opens the next operand that can be opened; false when none is left.
    fn open_next(&mut self, ctx: &mut Ctx) -> io::Result<bool> {
        while let Some(name) = self.names.get(self.next) {
            self.next += 1;
            let reader = match ctx.open_input(name) {
                Ok(Input::Stdin) => Cur::Stdin,
                Ok(Input::Bytes(d)) => Cur::Other(Reader::Bytes(d, 0)),
                Ok(Input::Zero) => Cur::Other(Reader::Zero),
                Ok(Input::Random) => Cur::Other(Reader::Random(0x2545_F491_4F6C_DD1D)),
                Ok(Input::Stream(r)) => Cur::Other(Reader::Stream(r)),
                Err(e) => {
                    ctx.err(format!("{}: {e}", quotef(name)))?;
                    self.status = 1;
                    // A directory opens, then fails to read.
                    self.opened |= e.is(Errno::EISDIR);
                    continue;
                }
            };
            self.opened = true;
            self.cur = Some(reader);
            return Ok(true);
        }
        Ok(false)
    }

    /// Fills `buf` as far as the input goes; returns how much was read.
    fn read(&mut self, ctx: &mut Ctx, buf: &mut [u8]) -> io::Result<usize> {
        let mut got = 0;
        while let Some(rest) = buf.get_mut(got..).filter(|r| !r.is_empty()) {
            let n = match &mut self.cur {
                None => {
                    if self.open_next(ctx)? {
                        continue;
                    }
                    break;
                }
                Some(Cur::Stdin) => ctx.stdin.read(rest)?,
                Some(Cur::Other(r)) => r.read(rest)?,
            };
            if n == 0 {
                self.cur = None;
            }
            got += n;
        }
        Ok(got)
    }

    /// Skips `n` bytes; returns how many could not be skipped (input too short).
    fn skip(&mut self, ctx: &mut Ctx, mut n: u64) -> io::Result<u64> {
        let mut scratch = vec![0u8; 8192];
        while n > 0 {
            match &mut self.cur {
                None => {
                    if !self.open_next(ctx)? {
                        break;
                    }
                }
                Some(Cur::Other(Reader::Bytes(d, pos))) => {
                    let left = d.len().saturating_sub(*pos) as u64;
                    let step = left.min(n);
                    *pos += step as usize;
                    n -= step;
                    if n > 0 {
                        self.cur = None;
                    }
                }
                Some(Cur::Other(_)) => n = 0,
                Some(Cur::Stdin) => {
                    ctx.host.check()?;
                    let want = scratch.len().min(usize::try_from(n).unwrap_or(usize::MAX));
                    let got = ctx.stdin.read(scratch.get_mut(..want).unwrap_or(&mut []))?;
                    if got == 0 {
                        self.cur = None;
                    }
                    n -= got as u64;
                }
            }
        }
        scratch.clear();
        Ok(n)
    }
}

/// How offsets are printed.
#[derive(Clone, Copy)]
enum Radix {
    Octal,
    Decimal,
    Hex,
    None,
}

impl Radix {
    fn pad(self) -> usize {
        match self {
            Radix::Octal | Radix::Decimal => 7,
            Radix::Hex => 6,
            Radix::None => 0,
        }
    }
    fn write(self, out: &mut Vec<u8>, addr: u64) {
        let s = match self {
            Radix::Octal => format!("{addr:07o}"),
            Radix::Decimal => format!("{addr:07}"),
            Radix::Hex => format!("{addr:06x}"),
            Radix::None => String::new(),
        };
        out.extend_from_slice(s.as_bytes());
    }
}

const NAMES: [&str; 33] = [
    "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr",
    "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc",
    "fs", "gs", "rs", "us", "sp",
];

/// C's `%.{prec}g`.
fn fmt_g(x: f64, prec: usize) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan" } else { "nan" }.to_owned();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.to_owned();
    }
    let p = prec.max(1);
    let e = format!("{:.*e}", p - 1, x);
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i64 = exp.parse().unwrap_or(0);
    let strip = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            s.to_owned()
        }
    };
    if exp < -4 || exp >= p as i64 {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", strip(mant), exp.unsigned_abs())
    } else {
        let decimals = usize::try_from(p as i64 - 1 - exp).unwrap_or(0);
        strip(&format!("{x:.decimals$}"))
    }
}

/// gnulib `ftoastr`: the shortest `%g` that reads back as the same value.
fn float_text(x: f64, single: bool) -> String {
    let (min, dig, bound) = if single {
        (f64::from(f32::MIN_POSITIVE), 6, 9)
    } else {
        (f64::MIN_POSITIVE, 15, 17)
    };
    let mut prec = if x.abs() < min { 1 } else { dig };
    loop {
        let s = fmt_g(x, prec);
        let same = if single {
            s.parse::<f32>().is_ok_and(|v| f64::from(v) == x)
        } else {
            s.parse::<f64>().is_ok_and(|v| v == x)
        };
        if same || prec >= bound {
            return s;
        }
        prec += 1;
    }
}

/// The text of one field (before right-alignment).
fn field_text(f: &Format, datum: &[u8], big_endian: bool) -> String {
    let mut v: u64 = 0;
    let mut push = |b: &u8| v = (v << 8) | u64::from(*b);
    if big_endian {
        datum.iter().for_each(&mut push);
    } else {
        datum.iter().rev().for_each(&mut push);
    }
    let bits = (f.size * 8) as u32;
    let w = f.width;
    match f.kind {
        Kind::Unsigned => v.to_string(),
        Kind::Signed => {
            let shift = 64 - bits;
            (((v << shift) as i64) >> shift).to_string()
        }
        Kind::Octal => format!("{v:0w$o}"),
        Kind::Hex => format!("{v:0w$x}"),
        Kind::Float if f.size == 4 => float_text(f64::from(f32::from_bits(v as u32)), true),
        Kind::Float => float_text(f64::from_bits(v), false),
        Kind::Named => {
            let c = (v & 0x7f) as u8;
            match NAMES.get(usize::from(c)) {
                Some(name) => (*name).to_owned(),
                None if c == 0x7f => "del".to_owned(),
                None => char::from(c).to_string(),
            }
        }
        Kind::Char => {
            let c = v as u8;
            match c {
                0 => "\\0".to_owned(),
                0x07 => "\\a".to_owned(),
                0x08 => "\\b".to_owned(),
                0x0c => "\\f".to_owned(),
                b'\n' => "\\n".to_owned(),
                b'\r' => "\\r".to_owned(),
                b'\t' => "\\t".to_owned(),
                0x0b => "\\v".to_owned(),
                0x20..=0x7e => char::from(c).to_string(),
                _ => format!("{c:03o}"),
            }
        }
    }
}

/// The dump settings.
struct Layout {
    formats: Vec<Format>,
    bytes_per_block: usize,
    radix: Radix,
    big_endian: bool,
}

impl Layout {
    /// Formats one block: `block` is `bytes_per_block` long, its first `n` bytes real and
    /// the rest zero.
    fn write_block(&self, out: &mut Vec<u8>, addr: u64, block: &[u8], n: usize) {
        let bpb = self.bytes_per_block;
        for (i, f) in self.formats.iter().enumerate() {
            if i == 0 {
                self.radix.write(out, addr);
            } else {
                out.resize(out.len() + self.radix.pad(), b' ');
            }
            let fields = bpb / f.size;
            let blank = (bpb - n) / f.size;
            let mut pad_remaining = f.pad;
            for (k, datum) in block.chunks(f.size).take(fields - blank).enumerate() {
                let next_pad = f.pad * (fields - k - 1) / fields;
                let width = pad_remaining - next_pad + f.width;
                let text = field_text(f, datum, self.big_endian);
                out.extend_from_slice(format!("{text:>width$}").as_bytes());
                pad_remaining = next_pad;
            }
            if f.trailer {
                let fill = blank * f.width + f.pad * blank / fields;
                out.resize(out.len() + fill, b' ');
                out.extend_from_slice(b"  >");
                for &b in block.get(..n).unwrap_or(block) {
                    out.push(if (0x20..0x7f).contains(&b) { b } else { b'.' });
                }
                out.push(b'<');
            }
            out.push(b'\n');
        }
    }
}

pub fn od(ctx: &mut Ctx) -> CmdResult {
    let spec = Spec::new("A:aBbcDdeFfHhIij:LlN:OoS:st:vw::Xx", LONG);
    let parsed = match parse_std(ctx, &spec, 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mut formats = Vec::new();
    let mut radix = Radix::Octal;
    let mut skip = 0u64;
    let mut limit: Option<u64> = None;
    let mut width: Option<u64> = None;
    let mut verbose = false;
    let mut big_endian = false;
    let mut modern = false;
    for (k, v) in &parsed.opts {
        let val = v.as_deref().unwrap_or("");
        let count = |opt: &str, base: u32, suffixes: &str| match parse_count(val, base, suffixes) {
            Ok(n) => Ok(n),
            Err(NumError::Invalid) => Err(format!("invalid {opt} argument {}", quote(val))),
            Err(NumError::Suffix) => {
                Err(format!("invalid suffix in {opt} argument {}", quote(val)))
            }
            Err(NumError::TooLarge) => Err(format!("{opt} argument {} too large", quote(val))),
        };
        let shorthand = match k.as_str() {
            "a" => Some("a"),
            "b" => Some("o1"),
            "c" => Some("c"),
            "D" => Some("u4"),
            "d" => Some("u2"),
            "e" | "F" => Some("fD"),
            "f" => Some("fF"),
            "H" | "X" => Some("x4"),
            "h" | "x" => Some("x2"),
            "I" | "L" | "l" => Some("dL"),
            "i" => Some("dI"),
            "O" => Some("o4"),
            "B" | "o" => Some("o2"),
            "s" => Some("d2"),
            _ => None,
        };
        let result = match (k.as_str(), shorthand) {
            (_, Some(t)) => parse_types(t, &mut formats),
            ("t", _) => {
                modern = true;
                parse_types(val, &mut formats)
            }
            ("A", _) => {
                modern = true;
                radix = match val.chars().next() {
                    Some('o') => Radix::Octal,
                    Some('d') => Radix::Decimal,
                    Some('x') => Radix::Hex,
                    Some('n') => Radix::None,
                    _ => {
                        ctx.err(format!(
                            "invalid output address radix '{val}'; it must be one character from [doxn]"
                        ))?;
                        return Ok(1);
                    }
                };
                Ok(())
            }
            ("j", _) => {
                modern = true;
                count("-j", 0, "bEGKkMmPTYZ0").map(|n| skip = n)
            }
            ("N", _) => {
                modern = true;
                count("-N", 0, "bEGKkMmPTYZ0").map(|n| limit = Some(n))
            }
            ("w", _) => {
                modern = true;
                match v {
                    None => {
                        width = Some(32);
                        Ok(())
                    }
                    Some(_) => count("-w", 10, "").map(|n| width = Some(n)),
                }
            }
            ("v", _) => {
                modern = true;
                verbose = true;
                Ok(())
            }
            ("endian", _) => {
                let table = [("little", false), ("big", true)];
                match super::args::argmatch(ctx, "--endian", val, &table)? {
                    Ok(b) => big_endian = b,
                    Err(s) => return Ok(s),
                }
                Ok(())
            }
            ("S", _) => Err("-S (strings mode) is not supported".to_owned()),
            _ => Ok(()),
        };
        if let Err(msg) = result {
            ctx.err(msg)?;
            return Ok(1);
        }
    }
    if formats.is_empty() {
        let _ = parse_types("o2", &mut formats);
    }
    let mut operands: Vec<String> = parsed.operands.clone();
    if !modern {
        match operands.as_slice() {
            [one] if one.starts_with('+') => {
                if let Some(off) = parse_old_offset(one) {
                    skip = off;
                    operands.clear();
                }
            }
            [_, second] => {
                if let Some(off) = parse_old_offset(second) {
                    skip = off;
                    operands.pop();
                }
            }
            _ => {}
        }
    }
    if operands.is_empty() {
        operands.push("-".to_owned());
    }

    let lcm = formats
        .iter()
        .fold(1, |acc, f| acc / gcd(acc, f.size) * f.size);
    let bytes_per_block = match width {
        Some(w) if w != 0 && w % lcm as u64 == 0 => usize::try_from(w).unwrap_or(lcm),
        Some(w) => {
            ctx.err(format!("warning: invalid width {w}; using {lcm} instead"))?;
            lcm
        }
        None if lcm < 16 => lcm * (16 / lcm),
        None => lcm,
    };
    let block_width = |f: &Format, extra: usize| (f.width + extra) * (bytes_per_block / f.size);
    let line_width = formats.iter().map(|f| block_width(f, 1)).max().unwrap_or(0);
    for f in &mut formats {
        f.pad = line_width - block_width(f, 0);
    }
    let layout = Layout {
        formats,
        bytes_per_block,
        radix,
        big_endian,
    };

    let mut stream = Stream {
        names: &operands,
        next: 0,
        cur: None,
        opened: false,
        status: 0,
    };
    if !stream.open_next(ctx)? && !stream.opened {
        return Ok(1);
    }
    if stream.skip(ctx, skip)? > 0 {
        ctx.err("cannot skip past end of combined input")?;
        return Ok(1);
    }
    let mut offset = skip;
    let mut remaining = limit;
    let mut block = vec![0u8; bytes_per_block];
    let mut prev: Option<Vec<u8>> = None;
    let mut starred = false;
    let mut out = Vec::new();
    loop {
        let want = match remaining {
            Some(r) => usize::try_from(r)
                .unwrap_or(usize::MAX)
                .min(bytes_per_block),
            None => bytes_per_block,
        };
        if want == 0 {
            break;
        }
        let n = stream.read(ctx, block.get_mut(..want).unwrap_or(&mut []))?;
        if n == 0 {
            break;
        }
        if let Some(r) = &mut remaining {
            *r -= n as u64;
        }
        if n < bytes_per_block {
            block.get_mut(n..).unwrap_or(&mut []).fill(0);
        }
        let duplicate = !verbose && n == bytes_per_block && prev.as_deref() == Some(&block[..]);
        if duplicate {
            if !starred {
                out.extend_from_slice(b"*\n");
                starred = true;
            }
        } else {
            starred = false;
            layout.write_block(&mut out, offset, &block, n);
            match &mut prev {
                Some(p) => p.copy_from_slice(&block),
                None => prev = Some(block.clone()),
            }
        }
        offset += n as u64;
        if out.len() >= 8192 {
            ctx.host.check()?;
            ctx.stdout.write_all(&out)?;
            out.clear();
        }
        if n < want {
            break;
        }
    }
    if !matches!(layout.radix, Radix::None) {
        layout.radix.write(&mut out, offset);
        out.push(b'\n');
    }
    ctx.stdout.write_all(&out)?;
    Ok(stream.status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, fs_with, run_in};

    #[test]
    fn od_formats() {
        let data = "hello world\0\x01\x03\x7f\t\n";
        for (line, out) in [
            (
                "od",
                "0000000 062550 066154 020157 067567 066162 000144 001401 004577\n\
                 0000020 000012\n0000021\n",
            ),
            (
                "od -c",
                "0000000   h   e   l   l   o       w   o   r   l   d  \\0 001 003 177  \\t\n\
                 0000020  \\n\n0000021\n",
            ),
            (
                "od -A n -t a",
                "   h   e   l   l   o  sp   w   o   r   l   d nul soh etx del  ht\n  nl\n",
            ),
            (
                "od -A d -t x1z -w4 -N 6",
                "0000000 68 65 6c 6c  >hell<\n0000004 6f 20        >o <\n0000006\n",
            ),
            (
                "od -A x -t d1 -t u1 -t o1 -N 3 -j 9",
                "000009  108  100    0\n        108  100    0\n        154  144  000\n00000c\n",
            ),
            (
                "od -t d2 -t u2 -t o2 -t x2 -j 12 -w4",
                "0000014    769   2431\n           769   2431\n        001401 004577\n\
                 \x20         0301   097f\n0000020     10\n            10\n        000012\n\
                 \x20         000a\n0000021\n",
            ),
            (
                "od -t d4 -t x4 -N 8",
                "0000000  1819043176  1870078063\n           6c6c6568    6f77206f\n0000010\n",
            ),
            (
                "od -t d8 -t o8 -t u8 -N 8",
                "0000000    8031924123371070824\n        0675671006755433062550\n\
                 \x20          8031924123371070824\n0000010\n",
            ),
            ("od -t x8 -N 3", "0000000 00000000006c6568\n0000003\n"),
            (
                "od -i -N 4 -d",
                "0000000  1819043176\n        25960 27756\n0000004\n",
            ),
            (
                "od -s -l -N 8",
                "0000000  25960  27756   8303  28535\n                8031924123371070824\n0000010\n",
            ),
            (
                "od -x -b -N 2",
                "0000000    6568\n        150 145\n0000002\n",
            ),
            ("od --endian=big -tx2 -N 4", "0000000 6865 6c6c\n0000004\n"),
            ("od -t c -t x1 -A n -N 2", "   h   e\n  68  65\n"),
        ] {
            check(&[("f", data)], &format!("{line} f"), "", (out, "", 0));
        }
    }

    #[test]
    fn od_floats() {
        let data = "hello world\0\x01\x03\x7f\t\n";
        for (line, out) in [
            (
                "od -t f4 -N 16",
                "0000000   1.1431415e+27   7.6482007e+28    9.222452e-39   3.0695921e-33\n0000020\n",
            ),
            (
                "od -t f8 -N 16",
                "0000000   8.765776478827897e+228   6.155308849140229e-263\n0000020\n",
            ),
            ("od -f -N 12 -j 16", "0000020         1.4e-44\n0000021\n"),
        ] {
            check(&[("f", data)], &format!("{line} f"), "", (out, "", 0));
        }
        let fs = fs_with(&[]);
        let (out, _, _) = run_in(
            &fs,
            "od -A n -t f4 -t f8",
            b"\0\0\x80\x3f\0\0\xc0\xff\0\0\0\0\0\0\xf0\x7f",
        );
        assert_eq!(
            String::from_utf8_lossy(&out),
            "               1            -nan               0             nan\n\
             \x20        -2.247116950146618e+307                             inf\n"
        );
    }

    #[test]
    fn od_stdin_duplicates_and_offsets() {
        let zeros = "\0".repeat(40);
        for (line, out) in [
            (
                "od",
                "0000000 000000 000000 000000 000000 000000 000000 000000 000000\n*\n\
                 0000040 000000 000000 000000 000000\n0000050\n",
            ),
            (
                "od -v -w8 -N 20",
                "0000000 000000 000000 000000 000000\n0000010 000000 000000 000000 000000\n\
                 0000020 000000 000000\n0000024\n",
            ),
            ("od -N 0", "0000000\n"),
            ("od -j 40", "0000050\n"),
            ("od -j 0x24 -c", "0000044  \\0  \\0  \\0  \\0\n0000050\n"),
        ] {
            check(&[], line, &zeros, (out, "", 0));
        }
        check(
            &[],
            "od -c",
            "é\n",
            ("0000000 303 251  \\n\n0000003\n", "", 0),
        );
        check(
            &[],
            "od -A n -t c -t x1",
            "\0-\n",
            ("  \\0   -  \\n\n  00  2d  0a\n", "", 0),
        );
        check(&[], "od", "", ("0000000\n", "", 0));
        check(&[], "od -A n", "", ("", "", 0));
    }

    #[test]
    fn od_files_and_traditional_offsets() {
        let files = [("a", "ab"), ("b", "cd"), ("d/", "")];
        check(
            &files,
            "od -c a - b",
            "XY",
            ("0000000   a   b   X   Y   c   d\n0000006\n", "", 0),
        );
        check(&files, "od -c a +1", "", ("0000001   b\n0000002\n", "", 0));
        check(
            &files,
            "od -c +1",
            "xyz",
            ("0000001   y   z\n0000003\n", "", 0),
        );
        check(
            &files,
            "od -c a 1b",
            "",
            ("", "od: cannot skip past end of combined input\n", 1),
        );
        check(
            &files,
            "od -c a 1.",
            "",
            (
                "0000000   a   b\n0000002\n",
                "od: 1.: No such file or directory\n",
                1,
            ),
        );
        check(
            &files,
            "od -c nofile a",
            "",
            (
                "0000000   a   b\n0000002\n",
                "od: nofile: No such file or directory\n",
                1,
            ),
        );
        check(
            &files,
            "od nofile",
            "",
            ("", "od: nofile: No such file or directory\n", 1),
        );
        check(
            &files,
            "od d",
            "",
            ("0000000\n", "od: d: Is a directory\n", 1),
        );
        check(
            &files,
            "od -j 5 a b",
            "",
            ("", "od: cannot skip past end of combined input\n", 1),
        );
    }

    #[test]
    fn od_errors() {
        for (line, err) in [
            ("od -t q", "od: invalid character 'q' in type string 'q'\n"),
            (
                "od -t d3",
                "od: invalid type string 'd3';\nthis system doesn't provide a 3-byte integral type\n",
            ),
            (
                "od -t f2",
                "od: invalid type string 'f2';\nthis system doesn't provide a 2-byte floating point type\n",
            ),
            ("od -N 5x", "od: invalid suffix in -N argument '5x'\n"),
            ("od -N x", "od: invalid -N argument 'x'\n"),
            (
                "od -j 99999999999999999999999",
                "od: -j argument '99999999999999999999999' too large\n",
            ),
            ("od -w0x10", "od: invalid suffix in -w argument '0x10'\n"),
            (
                "od -A q",
                "od: invalid output address radix 'q'; it must be one character from [doxn]\n",
            ),
            (
                "od --endian=foo",
                "od: invalid argument 'foo' for '--endian'\nValid arguments are:\n  - 'little'\n  - 'big'\nTry 'od --help' for more information.\n",
            ),
            (
                "od -y",
                "od: invalid option -- 'y'\nTry 'od --help' for more information.\n",
            ),
        ] {
            check(&[], line, "", ("", err, 1));
        }
        check(
            &[],
            "od -w3 -x",
            "abc",
            (
                "0000000 6261\n0000002 0063\n0000003\n",
                "od: warning: invalid width 3; using 2 instead\n",
                0,
            ),
        );
    }
}
