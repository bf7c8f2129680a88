//! `hexdump` and `hd` (util-linux 2.38): dumps files through format strings (`-e`,
//! `-f`) made of format units with iteration and byte counts, with the canned formats
//! `-b -c -C -d -o -x`, `-n`, `-s` (size suffixes), `-v`, `*` for repeated blocks, and
//! several files read as one stream. Colour (`-L`, `%_L`) is accepted and never shown,
//! as when output is not a terminal.

use std::io::{self, Read};

use super::about::{VERSION, write_help, write_version};
use super::args::{HasArg, LongOpt, Spec, long, parse_or_usage};
use super::awk::format::{fmt_e, fmt_f, fmt_g};
use super::util::{Input, Reader};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("one-byte-octal", HasArg::No, "b"),
    long("one-byte-char", HasArg::No, "c"),
    long("canonical", HasArg::No, "C"),
    long("two-bytes-decimal", HasArg::No, "d"),
    long("two-bytes-octal", HasArg::No, "o"),
    long("two-bytes-hex", HasArg::No, "x"),
    long("format", HasArg::Required, "e"),
    long("format-file", HasArg::Required, "f"),
    long("color", HasArg::Optional, "L"),
    long("length", HasArg::Required, "n"),
    long("skip", HasArg::Required, "s"),
    long("no-squeezing", HasArg::No, "v"),
    long("help", HasArg::No, "h"),
    VERSION,
];

const USAGE: &str = "
Usage:
 hexdump [options] <file>...

Display file contents in hexadecimal, decimal, octal, or ascii.

Options:
 -b, --one-byte-octal      one-byte octal display
 -c, --one-byte-char       one-byte character display
 -C, --canonical           canonical hex+ASCII display
 -d, --two-bytes-decimal   two-byte decimal display
 -o, --two-bytes-octal     two-byte octal display
 -x, --two-bytes-hex       two-byte hexadecimal display
 -L, --color[=<mode>]      interpret color formatting specifiers
                             colors are enabled by default
 -e, --format <format>     format string to be used for displaying data
 -f, --format-file <file>  file that contains format strings
 -n, --length <length>     interpret only length bytes of input
 -s, --skip <offset>       skip offset bytes from the beginning
 -v, --no-squeezing        output identical lines

 -h, --help                display this help
 -V, --version             display version

Arguments:
 <length> and <offset> arguments may be followed by the suffixes for
   GiB, TiB, PiB, EiB, ZiB, and YiB (the \"iB\" is optional)

For more details see hexdump(1).";

/// The canonical `-C` layout (also `hd`'s default).
const CANONICAL: [&str; 3] = [
    "\"%08.8_Ax\n\"",
    "\"%08.8_ax  \" 8/1 \"%02x \" \"  \" 8/1 \"%02x \" ",
    "\"  |\" 16/1 \"%_p\" \"|\\n\"",
];

/// The largest block a format may ask for: bigger ones are refused rather than
/// allocated.
const MAX_BLOCK: usize = 1 << 20;

/// The widest field and longest precision a conversion gets: wider ones are cut to
/// this, so a format cannot make one field allocate without bound.
const MAX_FIELD: usize = 1 << 16;

/// What one print unit prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Literal text only.
    Text,
    /// `%_a` / `%_A`: the offset, in `conv` (`d`, `o` or `x`).
    Address,
    /// `%c`: the byte itself.
    Char,
    /// `%d %i`.
    Int,
    /// `%o %u %x %X`.
    Uint,
    /// `%e %E %f %g %G`.
    Double,
    /// `%s`.
    Str,
    /// `%_c`: the byte, or a C escape or three octal digits.
    CharEsc,
    /// `%_p`: the byte if printable, else `.`.
    Printable,
    /// `%_u`: the byte, or its ASCII control name.
    Named,
    /// What a unit past the end of the data prints: blanks as wide as its field.
    Pad,
}

/// One conversion (or a run of text) of a format unit.
#[derive(Clone, Debug)]
struct Pr {
    /// Text before the `%` (all of it for [`Kind::Text`]).
    text: Vec<u8>,
    /// Flag, width and precision characters between `%` and the conversion.
    spec: String,
    kind: Kind,
    conv: u8,
    bcnt: usize,
    /// The last print unit of a repeated unit ends in white space that its last
    /// repetition leaves out.
    nospace: bool,
}

/// A format unit: `[iterations/][byte count] "format"`.
#[derive(Clone, Debug)]
struct Fu {
    reps: usize,
    set_rep: bool,
    bcnt: usize,
    fmt: Vec<u8>,
    prs: Vec<Pr>,
    /// Holds `%_A`: printed once at the end, skipped (with what follows) per block.
    ignore: bool,
}

/// One format string (one `-e`, or one line of a `-f` file).
#[derive(Clone, Debug)]
struct Fs {
    fus: Vec<Fu>,
    bcnt: usize,
}

/// The characters allowed between `%` and the conversion.
const SPEC: &[u8] = b".#-+ 0123456789";

fn bad_format(fmt: &str) -> String {
    format!("bad format {{{fmt}}}")
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

fn atoi(b: &[u8]) -> usize {
    b.iter()
        .take_while(|c| c.is_ascii_digit())
        .fold(0usize, |n, d| {
            n.saturating_mul(10).saturating_add(usize::from(d - b'0'))
        })
}

/// The C escapes of a format's text (`\n`, `\t`, ...; any other character stands for
/// itself after the backslash).
fn escape(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut it = raw.iter();
    while let Some(&c) = it.next() {
        if c != b'\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            None => out.push(b'\\'),
            Some(b'a') => out.push(7),
            Some(b'b') => out.push(8),
            Some(b'f') => out.push(12),
            Some(b'n') => out.push(b'\n'),
            Some(b'r') => out.push(b'\r'),
            Some(b't') => out.push(b'\t'),
            Some(b'v') => out.push(11),
            Some(&o) => out.push(o),
        }
    }
    out
}

/// Splits one format string into its units.
fn add_fmt(fmt: &str) -> Result<Fs, String> {
    let b = fmt.as_bytes();
    let mut fus = Vec::new();
    let mut p = 0;
    loop {
        p = skip_space(b, p);
        if p >= b.len() {
            break;
        }
        let mut fu = Fu {
            reps: 1,
            set_rep: false,
            bcnt: 0,
            fmt: Vec::new(),
            prs: Vec::new(),
            ignore: false,
        };
        if b.get(p).is_some_and(u8::is_ascii_digit) {
            let start = p;
            while b.get(p).is_some_and(u8::is_ascii_digit) {
                p += 1;
            }
            if !b
                .get(p)
                .is_some_and(|c| c.is_ascii_whitespace() || *c == b'/')
            {
                return Err(bad_format(fmt));
            }
            fu.reps = atoi(&b[start..]);
            fu.set_rep = true;
            p = skip_space(b, p + 1);
        }
        if b.get(p) == Some(&b'/') {
            p = skip_space(b, p + 1);
        }
        if b.get(p).is_some_and(u8::is_ascii_digit) {
            let start = p;
            while b.get(p).is_some_and(u8::is_ascii_digit) {
                p += 1;
            }
            if !b.get(p).is_some_and(u8::is_ascii_whitespace) {
                return Err(bad_format(fmt));
            }
            fu.bcnt = atoi(&b[start..]);
            p = skip_space(b, p + 1);
        }
        if b.get(p) != Some(&b'"') {
            return Err(bad_format(fmt));
        }
        p += 1;
        let start = p;
        while b.get(p) != Some(&b'"') {
            if p >= b.len() {
                return Err(bad_format(fmt));
            }
            p += 1;
        }
        fu.fmt = escape(&b[start..p]);
        p += 1;
        fus.push(fu);
    }
    Ok(Fs { fus, bcnt: 0 })
}

/// How many bytes one pass of a format string reads.
fn block_size(fs: &Fs) -> usize {
    let mut size = 0usize;
    for fu in &fs.fus {
        if fu.bcnt > 0 {
            size = size.saturating_add(fu.bcnt.saturating_mul(fu.reps));
            continue;
        }
        let f = &fu.fmt;
        let mut bcnt = 0usize;
        let mut i = 0;
        while let Some(&c) = f.get(i) {
            if c != b'%' {
                i += 1;
                continue;
            }
            i += 1;
            while f.get(i).is_some_and(|c| SPEC[1..].contains(c)) {
                i += 1;
            }
            let mut prec = 0;
            if f.get(i) == Some(&b'.') && f.get(i + 1).is_some_and(u8::is_ascii_digit) {
                i += 1;
                prec = atoi(&f[i..]);
                while f.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
            }
            match f.get(i) {
                Some(b'd' | b'i' | b'o' | b'u' | b'x' | b'X') => bcnt += 4,
                Some(b'e' | b'f' | b'g' | b'E' | b'G') => bcnt += 8,
                Some(b's') => bcnt += prec,
                Some(b'c') => bcnt += 1,
                Some(b'_') if matches!(f.get(i + 1), Some(b'c' | b'p' | b'u')) => {
                    i += 1;
                    bcnt += 1;
                }
                _ => {}
            }
            i += 1;
        }
        size = size.saturating_add(bcnt.saturating_mul(fu.reps));
    }
    size
}

fn bad_count(conv: &[u8]) -> String {
    format!(
        "bad byte count for conversion character {}",
        String::from_utf8_lossy(conv)
    )
}

fn bad_conv(conv: &[u8]) -> String {
    format!(
        "bad conversion character %{}",
        String::from_utf8_lossy(conv)
    )
}

/// Splits each unit's format into print units, checks conversions against byte counts,
/// and repeats the last unit to fill the block. Returns whether a unit holds `%_A`
/// (the last such unit is printed at the end).
fn rewrite(fs: &mut Fs, blocksize: usize) -> Result<(), String> {
    for fu in &mut fs.fus {
        let f = fu.fmt.clone();
        let mut pos = 0;
        let mut nconv = 0;
        while pos < f.len() {
            let Some(pct) = f[pos..].iter().position(|&c| c == b'%').map(|k| pos + k) else {
                fu.prs.push(Pr {
                    text: f[pos..].to_vec(),
                    spec: String::new(),
                    kind: Kind::Text,
                    conv: 0,
                    bcnt: 0,
                    nospace: false,
                });
                break;
            };
            let mut p1 = pct + 1;
            let mut prec: Option<usize> = None;
            if fu.bcnt > 0 {
                while f.get(p1).is_some_and(|c| SPEC.contains(c)) {
                    p1 += 1;
                }
            } else {
                while f.get(p1).is_some_and(|c| SPEC[1..].contains(c)) {
                    p1 += 1;
                }
                if f.get(p1) == Some(&b'.') && f.get(p1 + 1).is_some_and(u8::is_ascii_digit) {
                    p1 += 1;
                    prec = Some(atoi(&f[p1..]));
                    while f.get(p1).is_some_and(u8::is_ascii_digit) {
                        p1 += 1;
                    }
                } else if f.get(p1) == Some(&b'.') {
                    p1 += 1;
                }
            }
            let spec = String::from_utf8_lossy(&f[pct + 1..p1]).into_owned();
            let cs = f.get(p1).copied().unwrap_or(0);
            let mut p2 = if cs == 0 { p1 } else { p1 + 1 };
            let one = |n: usize| f.get(p1..(p1 + n).min(f.len())).unwrap_or(&[]);
            let int_count = |bcnt: usize| match bcnt {
                0 => Ok(4),
                1 | 2 | 4 | 8 => Ok(bcnt),
                _ => Err(bad_count(one(1))),
            };
            let byte_count = |bcnt: usize, n: usize| match bcnt {
                0 | 1 => Ok(1),
                _ => Err(bad_count(one(n))),
            };
            let (kind, conv, bcnt) = match cs {
                b'c' => (Kind::Char, b'c', byte_count(fu.bcnt, 1)?),
                b'd' | b'i' => (Kind::Int, cs, int_count(fu.bcnt)?),
                b'o' | b'u' | b'x' | b'X' => (Kind::Uint, cs, int_count(fu.bcnt)?),
                b'e' | b'E' | b'f' | b'g' | b'G' => {
                    let n = match fu.bcnt {
                        0 => 8,
                        4 | 8 => fu.bcnt,
                        _ => return Err(bad_count(one(1))),
                    };
                    (Kind::Double, cs, n)
                }
                b's' => {
                    let n = if fu.bcnt > 0 {
                        fu.bcnt
                    } else {
                        prec.ok_or("%s requires a precision or a byte count")?
                    };
                    (Kind::Str, b's', n)
                }
                b'_' => {
                    p2 += 1;
                    match f.get(p1 + 1) {
                        Some(&a @ (b'a' | b'A')) => {
                            if a == b'A' {
                                fu.ignore = true;
                            }
                            p2 += 1;
                            match f.get(p1 + 2) {
                                Some(&r @ (b'd' | b'o' | b'x')) => (Kind::Address, r, 0),
                                _ => return Err(bad_conv(one(3))),
                            }
                        }
                        Some(b'c') => (Kind::CharEsc, b'c', byte_count(fu.bcnt, 2)?),
                        Some(b'p') => (Kind::Printable, b'c', byte_count(fu.bcnt, 2)?),
                        Some(b'u') => (Kind::Named, b'c', byte_count(fu.bcnt, 2)?),
                        Some(b'L') => {
                            // A colour specification `%_L[...]`: nothing is printed
                            // when output is not a terminal.
                            let close = f[p1..].iter().position(|&c| c == b']');
                            p2 = close.map_or(f.len(), |k| p1 + k + 1);
                            (Kind::Text, 0, 0)
                        }
                        _ => return Err(bad_conv(one(2))),
                    }
                }
                _ => return Err(bad_conv(one(1))),
            };
            fu.prs.push(Pr {
                text: f[pos..pct].to_vec(),
                spec,
                kind,
                conv,
                bcnt,
                nospace: false,
            });
            if kind != Kind::Address && kind != Kind::Text && fu.bcnt > 0 {
                nconv += 1;
                if nconv > 1 {
                    return Err("byte count with multiple conversion characters".to_owned());
                }
            }
            pos = p2.min(f.len());
        }
        if fu.bcnt == 0 {
            fu.bcnt = fu.prs.iter().map(|p| p.bcnt).sum();
        }
    }
    let count = fs.fus.len();
    for (i, fu) in fs.fus.iter_mut().enumerate() {
        if i + 1 == count && fs.bcnt < blocksize && !fu.set_rep && fu.bcnt > 0 {
            fu.reps += (blocksize - fs.bcnt) / fu.bcnt;
        }
        if fu.reps > 1
            && let Some(pr) = fu.prs.last_mut()
        {
            let whole_ends_in_space = if pr.kind == Kind::Text {
                pr.text.last().is_some_and(u8::is_ascii_whitespace)
            } else {
                false
            };
            pr.nospace = whole_ends_in_space;
        }
    }
    Ok(())
}

/// A printf conversion's flags, width and precision.
#[derive(Default)]
struct Flags {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    prec: Option<usize>,
}

impl Flags {
    /// The precision of an integer conversion: at least that many digits (none for
    /// a zero value with precision 0).
    fn min_digits(&self, digits: &mut String, zero: bool) {
        if let Some(p) = self.prec {
            if p == 0 && zero {
                digits.clear();
            }
            while digits.len() < p {
                digits.insert(0, '0');
            }
        }
    }

    /// The sign a number prints with under the `+` and space flags.
    fn sign(&self, negative: bool) -> &'static str {
        match (negative, self.plus, self.space) {
            (true, _, _) => "-",
            (false, true, _) => "+",
            (false, false, true) => " ",
            (false, false, false) => "",
        }
    }
}

fn parse_flags(spec: &str) -> Flags {
    let b = spec.as_bytes();
    let mut f = Flags::default();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'-' => f.left = true,
            b'+' => f.plus = true,
            b' ' => f.space = true,
            b'#' => f.alt = true,
            b'0' => f.zero = true,
            _ => break,
        }
        i += 1;
    }
    f.width = atoi(&b[i..]).min(MAX_FIELD);
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if b.get(i) == Some(&b'.') {
        f.prec = Some(atoi(&b[i + 1..]).min(MAX_FIELD));
    }
    f
}

/// Pads `body` to the field width, with zeros after any sign or `0x` when `zero`.
fn pad_field(out: &mut Vec<u8>, body: &[u8], f: &Flags, zero: bool) {
    let fill = f.width.saturating_sub(body.len());
    if f.left {
        out.extend_from_slice(body);
        out.resize(out.len() + fill, b' ');
    } else if zero && fill > 0 {
        let sign = usize::from(body.first().is_some_and(|c| b"+- ".contains(c)));
        let prefix =
            if body.get(sign) == Some(&b'0') && matches!(body.get(sign + 1), Some(b'x' | b'X')) {
                sign + 2
            } else {
                sign
            };
        out.extend_from_slice(&body[..prefix]);
        out.resize(out.len() + fill, b'0');
        out.extend_from_slice(&body[prefix..]);
    } else {
        out.resize(out.len() + fill, b' ');
        out.extend_from_slice(body);
    }
}

/// C's `%d`/`%i` of a signed value.
fn put_signed(out: &mut Vec<u8>, f: &Flags, v: i64) {
    let mut digits = v.unsigned_abs().to_string();
    f.min_digits(&mut digits, v == 0);
    let body = format!("{}{digits}", f.sign(v < 0));
    pad_field(out, body.as_bytes(), f, f.zero && f.prec.is_none());
}

/// C's `%o %u %x %X` of an unsigned value.
fn put_unsigned(out: &mut Vec<u8>, f: &Flags, conv: u8, v: u64) {
    let mut digits = match conv {
        b'o' => format!("{v:o}"),
        b'x' => format!("{v:x}"),
        b'X' => format!("{v:X}"),
        _ => v.to_string(),
    };
    f.min_digits(&mut digits, v == 0);
    if f.alt {
        match conv {
            b'o' if !digits.starts_with('0') => digits.insert(0, '0'),
            b'x' if v != 0 => digits.insert_str(0, "0x"),
            b'X' if v != 0 => digits.insert_str(0, "0X"),
            _ => {}
        }
    }
    pad_field(out, digits.as_bytes(), f, f.zero && f.prec.is_none());
}

fn put_double(out: &mut Vec<u8>, f: &Flags, conv: u8, x: f64) {
    let p = f.prec.unwrap_or(6);
    let upper = matches!(conv, b'E' | b'G');
    let mut body = match conv {
        b'e' | b'E' => fmt_e(x.abs(), p, upper),
        b'f' => fmt_f(x.abs(), p),
        _ => fmt_g(x.abs(), p, upper, f.alt),
    };
    if f.alt && p == 0 && conv != b'g' && conv != b'G' && !body.contains('.') {
        match body.find(['e', 'E']) {
            Some(k) => body.insert(k, '.'),
            None => body.push('.'),
        }
    }
    let body = format!("{}{body}", f.sign(x.is_sign_negative() && !x.is_nan()));
    pad_field(out, body.as_bytes(), f, f.zero && x.is_finite());
}

fn put_str(out: &mut Vec<u8>, f: &Flags, s: &[u8]) {
    let s = match f.prec {
        Some(p) => s.get(..p).unwrap_or(s),
        None => s,
    };
    pad_field(out, s, f, false);
}

const CONTROL_NAMES: [&str; 32] = [
    "nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "lf", "vt", "ff", "cr",
    "so", "si", "dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc",
    "fs", "gs", "rs", "us",
];

fn is_print(b: u8) -> bool {
    (0x20..0x7f).contains(&b)
}

/// The value of `n` bytes at the start of `bp`, little-endian (the host's order).
fn uvalue(bp: &[u8], n: usize) -> u64 {
    bp.iter()
        .take(n)
        .rev()
        .fold(0u64, |v, &b| (v << 8) | u64::from(b))
}

/// Prints one print unit over the data at `bp` (the rest of the block).
fn print(out: &mut Vec<u8>, pr: &Pr, bp: &[u8], address: u64, last: bool) {
    out.extend_from_slice(&pr.text);
    if pr.kind == Kind::Text {
        if last && pr.nospace {
            out.pop();
        }
        return;
    }
    let f = parse_flags(&pr.spec);
    let byte = bp.first().copied().unwrap_or(0);
    match pr.kind {
        Kind::Text => {}
        Kind::Pad => {
            out.resize(out.len() + f.width, b' ');
        }
        Kind::Address => {
            if pr.conv == b'd' {
                put_signed(out, &f, address as i64);
            } else {
                put_unsigned(out, &f, pr.conv, address);
            }
        }
        Kind::Char | Kind::Printable => {
            let c = if pr.kind == Kind::Printable && !is_print(byte) {
                b'.'
            } else {
                byte
            };
            pad_field(out, &[c], &f, false);
        }
        Kind::Int => {
            let v = uvalue(bp, pr.bcnt);
            let shift = 64 - 8 * pr.bcnt.clamp(1, 8) as u32;
            put_signed(out, &f, ((v << shift) as i64) >> shift);
        }
        Kind::Uint => put_unsigned(out, &f, pr.conv, uvalue(bp, pr.bcnt)),
        Kind::Double => {
            let v = uvalue(bp, pr.bcnt);
            let x = if pr.bcnt == 4 {
                f64::from(f32::from_bits(v as u32))
            } else {
                f64::from_bits(v)
            };
            put_double(out, &f, pr.conv, x);
        }
        Kind::Str => {
            let end = bp.iter().position(|&c| c == 0).unwrap_or(bp.len());
            put_str(out, &f, &bp[..end]);
        }
        Kind::CharEsc => {
            let esc: Option<&[u8]> = match byte {
                0 => Some(b"\\0"),
                7 => Some(b"\\a"),
                8 => Some(b"\\b"),
                12 => Some(b"\\f"),
                b'\n' => Some(b"\\n"),
                b'\r' => Some(b"\\r"),
                b'\t' => Some(b"\\t"),
                11 => Some(b"\\v"),
                _ => None,
            };
            match esc {
                Some(s) => put_str(out, &f, s),
                None if is_print(byte) => pad_field(out, &[byte], &f, false),
                None => put_str(out, &f, format!("{byte:03o}").as_bytes()),
            }
        }
        Kind::Named => match CONTROL_NAMES.get(usize::from(byte)) {
            Some(name) => put_str(out, &f, name.as_bytes()),
            None if byte == 0x7f => put_str(out, &f, b"del"),
            None if is_print(byte) => pad_field(out, &[byte], &f, false),
            None => put_unsigned(out, &f, b'x', u64::from(byte)),
        },
    }
}

/// Whether the `*` marker is due: `First` before any block, `Wait` after one was
/// printed, `Dup` while repeats are being skipped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Squeeze {
    All,
    First,
    Wait,
    Dup,
}

/// The operands read as one stream, each opened when reached, with `-s` applied to
/// the stream's start.
struct Stream<'n> {
    names: &'n [String],
    next: usize,
    cur: Option<Reader<'static>>,
    on_stdin: bool,
    /// Whether stdin (no operands) was used already.
    done: bool,
    any_opened: bool,
    skip: u64,
    address: u64,
    status: i32,
}

impl Stream<'_> {
    /// Opens the next readable operand and applies what is left of the skip; false
    /// when there is none.
    fn open_next(&mut self, ctx: &mut Ctx) -> io::Result<bool> {
        loop {
            if self.names.is_empty() {
                if self.done {
                    return Ok(false);
                }
                self.done = true;
                self.on_stdin = true;
            } else {
                let Some(name) = self.names.get(self.next) else {
                    return Ok(false);
                };
                self.next += 1;
                // `-` is a file name here, not standard input.
                let path = if name == "-" { "./-" } else { name.as_str() };
                match ctx.open_input(path) {
                    Ok(Input::Stdin) => self.on_stdin = true,
                    Ok(input) => {
                        self.on_stdin = false;
                        self.cur = Some(match input {
                            Input::Bytes(d) => Reader::Bytes(d, 0),
                            Input::Zero => Reader::Zero,
                            _ => Reader::Random(0x2545_F491_4F6C_DD1D),
                        });
                    }
                    Err(e) => {
                        ctx.err(format!("{name}: {e}"))?;
                        self.status = 1;
                        continue;
                    }
                }
                self.any_opened = true;
            }
            if self.skip > 0 {
                self.do_skip(ctx)?;
            }
            return Ok(true);
        }
    }

    fn do_skip(&mut self, ctx: &mut Ctx) -> io::Result<()> {
        if let Some(Reader::Bytes(d, pos)) = &mut self.cur {
            let len = d.len() as u64;
            if self.skip > len {
                self.skip -= len;
                self.address += len;
                *pos = d.len();
                return Ok(());
            }
            *pos = usize::try_from(self.skip).unwrap_or(d.len());
        } else if self.on_stdin {
            let mut scratch = vec![0u8; 8192];
            let mut left = self.skip;
            while left > 0 {
                ctx.host.check()?;
                let want = scratch
                    .len()
                    .min(usize::try_from(left).unwrap_or(usize::MAX));
                let got = ctx.stdin.read(&mut scratch[..want])?;
                if got == 0 {
                    break;
                }
                left -= got as u64;
            }
        }
        self.address += self.skip;
        self.skip = 0;
        Ok(())
    }

    /// Reads up to `buf.len()` bytes from the current input; 0 at its end.
    fn read(&mut self, ctx: &mut Ctx, buf: &mut [u8]) -> io::Result<usize> {
        if self.on_stdin {
            return ctx.stdin.read(buf);
        }
        match &mut self.cur {
            Some(r) => r.read(buf),
            None => Ok(0),
        }
    }
}

/// The dump's state across blocks (util-linux's `get()` and `display()`).
struct Dumper<'n> {
    stream: Stream<'n>,
    blocksize: usize,
    length: Option<u64>,
    squeeze: Squeeze,
    at_eof: bool,
    cur: Vec<u8>,
    prev: Vec<u8>,
    started: bool,
    /// The offset just past the data, once the last (partial) block was read.
    eaddress: u64,
}

impl Dumper<'_> {
    /// The next block to print (zero-padded when partial), or `None` at the end;
    /// repeated blocks are skipped with a `*` line written to `out`.
    fn get(&mut self, ctx: &mut Ctx, out: &mut Vec<u8>) -> io::Result<bool> {
        if self.started {
            std::mem::swap(&mut self.cur, &mut self.prev);
            self.stream.address += self.blocksize as u64;
        }
        self.started = true;
        let mut need = self.blocksize;
        let mut nread = 0;
        loop {
            ctx.host.check()?;
            let exhausted =
                self.length == Some(0) || (self.at_eof && !self.stream.open_next(ctx)?);
            if exhausted {
                if need == self.blocksize {
                    return Ok(false);
                }
                self.cur[nread..].fill(0);
                self.eaddress = self.stream.address + nread as u64;
                return Ok(true);
            }
            let want = match self.length {
                Some(l) => need.min(usize::try_from(l).unwrap_or(usize::MAX)),
                None => need,
            };
            let n = self.stream.read(ctx, &mut self.cur[nread..nread + want])?;
            if n == 0 {
                self.at_eof = true;
                continue;
            }
            self.at_eof = false;
            if let Some(l) = &mut self.length {
                *l -= n as u64;
            }
            need -= n;
            nread += n;
            if need == 0 {
                if self.squeeze == Squeeze::All
                    || self.squeeze == Squeeze::First
                    || self.cur != self.prev
                {
                    if matches!(self.squeeze, Squeeze::Dup | Squeeze::First) {
                        self.squeeze = Squeeze::Wait;
                    }
                    return Ok(true);
                }
                if self.squeeze == Squeeze::Wait {
                    out.extend_from_slice(b"*\n");
                }
                self.squeeze = Squeeze::Dup;
                self.stream.address += self.blocksize as u64;
                need = self.blocksize;
                nread = 0;
            }
        }
    }
}

/// util-linux `strtosize`: a number (C prefixes for hex and octal) with an optional
/// `K M G T P E Z Y` suffix (`KiB` the same, `KB` powers of 1000) and fraction.
fn parse_size(s: &str) -> Result<u64, &'static str> {
    const INVALID: &str = "Invalid argument";
    const RANGE: &str = "Numerical result out of range";
    if s.contains('-') {
        return Err(INVALID);
    }
    let t = s.trim_start();
    let t = t.strip_prefix('+').unwrap_or(t);
    let b = t.as_bytes();
    let (radix, start) = if (t.starts_with("0x") || t.starts_with("0X"))
        && b.get(2).is_some_and(u8::is_ascii_hexdigit)
    {
        (16, 2)
    } else if t.starts_with('0') {
        (8, 0)
    } else {
        (10, 0)
    };
    let mut end = start;
    while b.get(end).is_some_and(|c| char::from(*c).is_digit(radix)) {
        end += 1;
    }
    if end == start {
        return Err(INVALID);
    }
    let x = u64::from_str_radix(&t[start..end], radix).map_err(|_| RANGE)?;
    let mut rest = &t[end..];
    if rest.is_empty() {
        return Ok(x);
    }
    // A fraction: `1.5K`.
    let mut frac_digits = "";
    if let Some(r) = rest.strip_prefix('.') {
        let n = r.bytes().take_while(u8::is_ascii_digit).count();
        frac_digits = &r[..n];
        rest = &r[n..];
        if rest.is_empty() {
            return if frac_digits.trim_end_matches('0').is_empty() {
                Ok(x)
            } else {
                Err(INVALID)
            };
        }
    }
    let mut chars = rest.chars();
    let letter = chars.next().unwrap_or(' ');
    let base: u64 = match chars.as_str() {
        "" | "iB" | "ib" => 1024,
        "B" | "b" => 1000,
        _ => return Err(INVALID),
    };
    let pwr = "KMGTPEZY"
        .find(letter.to_ascii_uppercase())
        .ok_or(INVALID)? as u32
        + 1;
    let mult = base.checked_pow(pwr).ok_or(RANGE)?;
    let mut v = x.checked_mul(mult).ok_or(RANGE)?;
    let frac_digits = frac_digits.trim_end_matches('0');
    if !frac_digits.is_empty() && frac_digits.len() < 20 {
        let frac: u64 = frac_digits.parse().map_err(|_| RANGE)?;
        let scale = 10u64.pow(frac_digits.len() as u32);
        let add = u128::from(frac) * u128::from(mult) / u128::from(scale);
        v = v
            .checked_add(u64::try_from(add).map_err(|_| RANGE)?)
            .ok_or(RANGE)?;
    }
    Ok(v)
}

pub fn hexdump(ctx: &mut Ctx) -> CmdResult {
    let spec = Spec::new("bcCde:f:L::n:os:vxhV", LONG);
    let parsed = match parse_or_usage(ctx, &spec, 1)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mut formats: Vec<String> = Vec::new();
    let mut length: Option<u64> = None;
    let mut skip = 0u64;
    let mut squeeze = Squeeze::First;
    let canned = |body: &str| {
        [
            "\"%07.7_Ax\n\"".to_owned(),
            format!("\"%07.7_ax \" {body} \"\\n\""),
        ]
    };
    for (k, v) in &parsed.opts {
        let val = v.as_deref().unwrap_or("");
        match k.as_str() {
            "b" => formats.extend(canned("16/1 \"%03o \"")),
            "c" => formats.extend(canned("16/1 \"%3_c \"")),
            "C" => formats.extend(CANONICAL.map(str::to_owned)),
            "d" => formats.extend(canned("8/2 \"  %05u \"")),
            "o" => formats.extend(canned("8/2 \" %06o \"")),
            "x" => formats.extend(canned("8/2 \"   %04x \"")),
            "e" => formats.push(val.to_owned()),
            "f" => {
                let path = if val == "-" { "./-" } else { val };
                let data = match ctx.read_input(path)? {
                    Ok(d) => d,
                    Err(e) => {
                        ctx.err(format!("can't read {val}: {e}"))?;
                        return Ok(1);
                    }
                };
                for line in data.split(|&c| c == b'\n') {
                    let line = String::from_utf8_lossy(line);
                    let t = line.trim_start();
                    if !t.is_empty() && !t.starts_with('#') {
                        formats.push(line.into_owned());
                    }
                }
            }
            "n" => match parse_size(val) {
                Ok(n) => length = Some(n),
                Err(e) => {
                    ctx.err(format!("failed to parse length: '{val}': {e}"))?;
                    return Ok(1);
                }
            },
            "s" => match parse_size(val) {
                Ok(n) => skip = n,
                Err(e) => {
                    ctx.err(format!("failed to parse offset: '{val}': {e}"))?;
                    return Ok(1);
                }
            },
            "v" => squeeze = Squeeze::All,
            "h" => {
                write_help(ctx, USAGE)?;
                return Ok(0);
            }
            "V" | "version" => {
                write_version(ctx)?;
                return Ok(0);
            }
            _ => {}
        }
    }
    if formats.is_empty() {
        if ctx.name.rsplit('/').next() == Some("hd") {
            formats.extend(CANONICAL.map(str::to_owned));
        } else {
            formats.extend(canned("8/2 \"%04x \""));
        }
    }
    let mut fss = Vec::new();
    for f in &formats {
        match add_fmt(f) {
            Ok(fs) => fss.push(fs),
            Err(msg) => {
                ctx.err(msg)?;
                return Ok(1);
            }
        }
    }
    let mut blocksize = 0;
    for fs in &mut fss {
        fs.bcnt = block_size(fs);
        blocksize = blocksize.max(fs.bcnt);
    }
    if blocksize > MAX_BLOCK {
        ctx.err(format!("format block of {blocksize} bytes is too large"))?;
        return Ok(1);
    }
    for fs in &mut fss {
        if let Err(msg) = rewrite(fs, blocksize) {
            ctx.err(msg)?;
            return Ok(1);
        }
    }
    let end_fu = fss
        .iter()
        .flat_map(|fs| fs.fus.iter())
        .rev()
        .find(|fu| fu.ignore)
        .cloned();
    let mut d = Dumper {
        stream: Stream {
            names: &parsed.operands,
            next: 0,
            cur: None,
            on_stdin: false,
            done: false,
            any_opened: false,
            skip,
            address: 0,
            status: 0,
        },
        blocksize,
        length,
        squeeze,
        at_eof: true,
        cur: vec![0; blocksize],
        prev: vec![0; blocksize],
        started: false,
        eaddress: 0,
    };
    let mut out = Vec::new();
    while d.get(ctx, &mut out)? {
        let base = d.stream.address;
        for fs in &mut fss {
            let mut address = base;
            let mut off = 0usize;
            'units: for fu in &mut fs.fus {
                if fu.ignore {
                    break 'units;
                }
                for rep in (1..=fu.reps).rev() {
                    for pr in &mut fu.prs {
                        if d.eaddress > 0
                            && address >= d.eaddress
                            && !matches!(pr.kind, Kind::Text | Kind::Pad)
                        {
                            pr.kind = Kind::Pad;
                            pr.spec = pr.spec.trim_start_matches([' ', '-', '0', '+', '#']).into();
                        }
                        let bp = d.cur.get(off..).unwrap_or(&[]);
                        print(&mut out, pr, bp, address, rep == 1);
                        address += pr.bcnt as u64;
                        off += pr.bcnt;
                    }
                    // A unit repeated many times over text alone makes output without
                    // reading: it streams out and is charged as it goes.
                    if out.len() >= 64 * 1024 {
                        ctx.host.check()?;
                        ctx.stdout.write_all(&out)?;
                        out.clear();
                    }
                }
            }
        }
        if out.len() >= 64 * 1024 {
            ctx.stdout.write_all(&out)?;
            out.clear();
        }
    }
    if let Some(fu) = end_fu {
        let mut show = true;
        if d.eaddress == 0 {
            if d.stream.address == 0 {
                show = false;
            }
            d.eaddress = d.stream.address;
        }
        if show {
            for pr in &fu.prs {
                match pr.kind {
                    Kind::Address => print(&mut out, pr, &[], d.eaddress, false),
                    Kind::Text => out.extend_from_slice(&pr.text),
                    _ => {}
                }
            }
        }
    }
    ctx.stdout.write_all(&out)?;
    if !parsed.operands.is_empty() && !d.stream.any_opened {
        ctx.err("all input file arguments failed")?;
        return Ok(1);
    }
    Ok(d.stream.status)
}
