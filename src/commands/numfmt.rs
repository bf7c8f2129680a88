//! `numfmt` (GNU coreutils 9.1): reads numbers with SI/IEC suffixes (`--from`) and
//! writes them scaled (`--to`), with `--suffix`, `--padding`, `--field`, `--format`,
//! `--round`, `--from-unit`/`--to-unit`, `--invalid`, `-d`, `--header` and `-z`, and
//! GNU's messages and statuses. Values are doubles (GNU uses long doubles, so inputs
//! past 2^53 may print differently unless they pass through unscaled).

use std::io;

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, argmatch, long, usage_error};
use super::util::lq;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("debug", HasArg::No, "debug"),
    long("delimiter", HasArg::Required, "d"),
    long("field", HasArg::Required, "field"),
    long("format", HasArg::Required, "format"),
    long("from", HasArg::Required, "from"),
    long("from-unit", HasArg::Required, "from-unit"),
    long("grouping", HasArg::No, "grouping"),
    long("header", HasArg::Optional, "header"),
    long("invalid", HasArg::Required, "invalid"),
    long("padding", HasArg::Required, "padding"),
    long("round", HasArg::Required, "round"),
    long("suffix", HasArg::Required, "suffix"),
    long("to", HasArg::Required, "to"),
    long("to-unit", HasArg::Required, "to-unit"),
    long("zero-terminated", HasArg::No, "z"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: numfmt [OPTION]... [NUMBER]...
Reformat NUMBER(s), or the numbers from standard input if none are specified.

      --debug          print warnings about invalid input
  -d, --delimiter=X    use X instead of whitespace for field delimiter
      --field=FIELDS   replace the numbers in these input fields (default=1)
      --format=FORMAT  use printf style floating-point FORMAT
      --from=UNIT      auto-scale input numbers to UNITs; default is 'none'
      --from-unit=N    specify the input unit size (instead of the default 1)
      --grouping       use locale-defined grouping of digits
      --header[=N]     print (without converting) the first N header lines
      --invalid=MODE   failure mode for invalid numbers: MODE can be:
                         abort (default), fail, warn, ignore
      --padding=N      pad the output to N characters
      --round=METHOD   use METHOD for rounding when scaling
      --suffix=SUFFIX  add SUFFIX to output numbers
      --to=UNIT        auto-scale output numbers to UNITs
      --to-unit=N      the output unit size (instead of the default 1)
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
";

/// The most digits a number may have unscaled, and in all.
const MAX_UNSCALED_DIGITS: u32 = 18;
const MAX_ACCEPTABLE_DIGITS: u32 = 27;

/// The widest padding numfmt sets up.
const MAX_WIDTH: usize = 1 << 24;

/// GNU formats a scaled number into a 128-byte buffer.
const HUMAN_BUF: usize = 128;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Scale {
    None,
    Auto,
    Si,
    Iec,
    IecI,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Round {
    Up,
    Down,
    FromZero,
    TowardsZero,
    Nearest,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Invalid {
    Abort,
    Fail,
    Warn,
    Ignore,
}

/// Why a number could not be read.
enum NumError {
    Overflow,
    Invalid,
    Forbidden,
    BadSuffix,
    MissingI,
}

struct Opts {
    from: Scale,
    to: Scale,
    round: Round,
    invalid: Invalid,
    suffix: Option<String>,
    from_unit: f64,
    to_unit: f64,
    padding: usize,
    left: bool,
    auto_padding: bool,
    zero_pad: usize,
    precision: Option<usize>,
    prefix: String,
    fmt_suffix: String,
    delimiter: Option<u8>,
    fields: Option<Vec<(usize, usize)>>,
}

/// A failure that ends numfmt at once (`--invalid=abort`).
struct Abort(i32);

fn scale_base(s: Scale) -> f64 {
    match s {
        Scale::Iec | Scale::IecI => 1024.0,
        _ => 1000.0,
    }
}

fn suffix_power(c: u8) -> Option<i32> {
    b"KMGTPEZY"
        .iter()
        .position(|&s| s == c)
        .map(|p| p as i32 + 1)
}

/// An integer of digits from `s` (after an optional `-`): its value, whether negative,
/// the bytes used, and a precision warning.
fn strtod_int(s: &[u8]) -> Result<(f64, bool, usize), NumError> {
    let (neg, start) = if s.first() == Some(&b'-') {
        (true, 1)
    } else {
        (false, 0)
    };
    let mut val = 0f64;
    let mut digits = 0u32;
    let mut i = start;
    while let Some(&c) = s.get(i).filter(|c| c.is_ascii_digit()) {
        let d = f64::from(c - b'0');
        if val != 0.0 || d != 0.0 {
            digits += 1;
        }
        if digits > MAX_ACCEPTABLE_DIGITS {
            return Err(NumError::Overflow);
        }
        val = val * 10.0 + d;
        i += 1;
    }
    if i == start && s.get(i) != Some(&b'.') {
        return Err(NumError::Invalid);
    }
    Ok((if neg { -val } else { val }, neg, i))
}

/// GNU `simple_strtod_human`: a number, a fraction, and an optional suffix; returns
/// the value, the input's precision and where parsing stopped.
fn parse_human(s: &[u8], from: Scale) -> Result<(f64, usize, usize), NumError> {
    let (mut val, neg, mut end) = strtod_int(s)?;
    let mut precision = 0;
    if s.get(end) == Some(&b'.') {
        end += 1;
        let rest = s.get(end..).unwrap_or_default();
        let (frac, fneg, used) = strtod_int(rest)?;
        if fneg {
            return Err(NumError::Invalid);
        }
        let f = frac / 10f64.powi(used as i32);
        val = if neg { val - f } else { val + f };
        precision = used;
        end += used;
    }
    let mut power = 0;
    let mut base = scale_base(from);
    if end < s.len() {
        while matches!(s.get(end), Some(b' ' | b'\t')) {
            end += 1;
        }
        let Some(p) = s.get(end).copied().and_then(suffix_power) else {
            return Err(NumError::BadSuffix);
        };
        if from == Scale::None {
            return Err(NumError::Forbidden);
        }
        power = p;
        end += 1;
        if from == Scale::Auto && s.get(end) == Some(&b'i') {
            base = 1024.0;
            end += 1;
        } else if from == Scale::IecI {
            if s.get(end) == Some(&b'i') {
                end += 1;
            } else {
                return Err(NumError::MissingI);
            }
        }
        precision = 0;
    }
    Ok((val * base.powi(power), precision, end))
}

fn round(x: f64, r: Round) -> f64 {
    let ceil = |v: f64| {
        let t = v.trunc();
        if t < v { t + 1.0 } else { t }
    };
    let floor = |v: f64| -ceil(-v);
    match r {
        Round::Up => ceil(x),
        Round::Down => floor(x),
        Round::FromZero => {
            if x < 0.0 {
                floor(x)
            } else {
                ceil(x)
            }
        }
        Round::TowardsZero => x.trunc(),
        Round::Nearest => {
            if x < 0.0 {
                (x - 0.5).trunc()
            } else {
                (x + 0.5).trunc()
            }
        }
    }
}

/// The power of `base` that brings `val` under it, and the value so scaled.
fn expld(mut val: f64, base: f64) -> (f64, u32) {
    let mut power = 0;
    if val.is_finite() {
        while val.abs() >= base {
            power += 1;
            val /= base;
        }
    }
    (val, power)
}

/// C's `%Lg`.
fn fmt_lg(x: f64) -> String {
    super::awk::format::fmt_g(x, 6, false, false)
}

/// `%0W.Pf`: `zero` is the zero-padded width (0 for none).
fn fixed(val: f64, prec: usize, zero: usize) -> String {
    let s = format!("{val:.prec$}");
    if s.len() >= zero {
        return s;
    }
    match s.strip_prefix('-') {
        Some(digits) => format!("-{digits:0>w$}", w = zero - 1),
        None => format!("{s:0>zero$}"),
    }
}

/// GNU `double_to_human`.
fn to_human(val: f64, precision: usize, o: &Opts) -> String {
    if o.to == Scale::None {
        let p = 10f64.powi(precision as i32);
        let v = round(val * p, o.round) / p;
        return fixed(v, precision, o.zero_pad);
    }
    let base = scale_base(o.to);
    let (mut v, mut power) = expld(val, base);
    let adjust = match o.precision {
        Some(p) => (power as usize * 3).min(p),
        None if v.abs() < 10.0 => 1,
        None => 0,
    };
    let p = 10f64.powi(adjust as i32);
    v = round(v * p, o.round) / p;
    if v.abs() >= base {
        v /= base;
        power += 1;
    }
    let show_point = v != 0.0 && v.abs() < 10.0 && power > 0;
    let prec = o.precision.unwrap_or(usize::from(show_point));
    let mut out = fixed(v, prec, o.zero_pad);
    if power > 0 {
        let letter = b"KMGTPEZY"
            .get(power as usize - 1)
            .map_or('?', |&c| char::from(c));
        out.push(letter);
        if o.to == Scale::IecI {
            out.push('i');
        }
    }
    out
}

impl Opts {
    fn include(&self, field: usize) -> bool {
        match &self.fields {
            None => field == 1,
            Some(r) => r.iter().any(|&(lo, hi)| lo <= field && field <= hi),
        }
    }
}

/// Converts one field; `Ok(None)` when it is not a valid number (reported already).
fn convert(
    ctx: &mut Ctx,
    o: &Opts,
    text: &str,
    field: usize,
    out: &mut String,
) -> io::Result<Result<Option<String>, Abort>> {
    let mut text = text;
    if let Some(suf) = &o.suffix
        && text.len() > suf.len()
        && let Some(t) = text.strip_suffix(suf.as_str())
    {
        text = t;
    }
    let p = text.trim_start_matches([' ', '\t']);
    let padding = if o.auto_padding {
        if p.len() < text.len() || field > 1 {
            text.len()
        } else {
            0
        }
    } else {
        o.padding
    };
    let mut warn = |ctx: &mut Ctx, msg: String| -> io::Result<Result<Option<String>, Abort>> {
        if o.invalid != Invalid::Ignore {
            // GNU's error() flushes what was written before the message.
            ctx.stdout.write_all(&crate::text::encode(out))?;
            out.clear();
            ctx.err(msg)?;
        }
        Ok(if o.invalid == Invalid::Abort {
            Err(Abort(2))
        } else {
            Ok(None)
        })
    };
    let (val, precision) = match parse_human(p.as_bytes(), o.from) {
        Ok((v, prec, end)) if end >= p.len() => (v, prec),
        Ok((_, _, end)) => {
            let rest = p.get(end..).unwrap_or("");
            return warn(
                ctx,
                format!("invalid suffix in input {}: {}", lq(p), lq(rest)),
            );
        }
        Err(e) => {
            let msg = match e {
                NumError::Overflow => format!("value too large to be converted: {}", lq(p)),
                NumError::Invalid => format!("invalid number: {}", lq(p)),
                NumError::Forbidden => {
                    format!(
                        "rejecting suffix in input: {} (consider using --from)",
                        lq(p)
                    )
                }
                NumError::BadSuffix => format!("invalid suffix in input: {}", lq(p)),
                NumError::MissingI => {
                    format!("missing 'i' suffix in input: {} (e.g Ki/Mi/Gi)", lq(p))
                }
            };
            return warn(ctx, msg);
        }
    };
    let val = val * o.from_unit / o.to_unit;
    let used = o.precision.unwrap_or(precision);
    let (_, x) = expld(val, 10.0);
    if o.to == Scale::None && x as usize + used > MAX_UNSCALED_DIGITS as usize {
        let msg = if used > 0 {
            format!(
                "value/precision too large to be printed: '{}/{used}' (consider using --to)",
                fmt_lg(val)
            )
        } else {
            format!(
                "value too large to be printed: '{}' (consider using --to)",
                fmt_lg(val)
            )
        };
        return warn(ctx, msg);
    }
    if x > MAX_ACCEPTABLE_DIGITS - 1 {
        return warn(
            ctx,
            format!(
                "value too large to be printed: '{}' (cannot handle values > 999Y)",
                fmt_lg(val)
            ),
        );
    }
    let exact = o.to == Scale::None && o.from_unit == 1.0 && o.to_unit == 1.0;
    let mut buf = match exact_integer(p).filter(|_| exact) {
        // Integers print from their digits: a double would lose those past 2^53.
        Some(n) => {
            let mut s = n.to_string();
            if used > 0 {
                s.push('.');
                s.push_str(&"0".repeat(used));
            }
            match s.strip_prefix('-') {
                Some(d) if s.len() < o.zero_pad => format!("-{d:0>w$}", w = o.zero_pad - 1),
                _ if s.len() < o.zero_pad => format!("{s:0>w$}", w = o.zero_pad),
                _ => s,
            }
        }
        None => {
            let human = if o.precision.is_some_and(|p| p >= HUMAN_BUF) {
                None
            } else {
                Some(to_human(val, used, o))
            };
            match human {
                Some(h) if o.to == Scale::None || h.len() < HUMAN_BUF - 1 => h,
                _ => {
                    let (scaled, _) = expld(val, scale_base(o.to));
                    ctx.stdout.write_all(&crate::text::encode(out))?;
                    out.clear();
                    ctx.err(format!(
                        "failed to prepare value '{scaled:.6}' for printing"
                    ))?;
                    return Ok(Err(Abort(1)));
                }
            }
        }
    };
    if let Some(s) = &o.suffix {
        buf.push_str(s);
    }
    let width = super::util::display_width(&buf);
    if padding > width {
        let fill = " ".repeat(padding - width);
        buf = if o.left {
            format!("{buf}{fill}")
        } else {
            format!("{fill}{buf}")
        };
    }
    Ok(Ok(Some(format!("{}{buf}{}", o.prefix, o.fmt_suffix))))
}

/// Converts the selected fields of one line onto `out`; false when one was invalid.
fn process_line(
    ctx: &mut Ctx,
    o: &Opts,
    line: &str,
    out: &mut String,
) -> io::Result<Result<bool, Abort>> {
    let mut valid = true;
    let b = line.as_bytes();
    let mut pos = 0;
    let mut field = 0;
    let is_blank = |c: u8| c == b' ' || c == b'\t' || c == b'\n';
    loop {
        field += 1;
        let start = pos;
        match o.delimiter {
            Some(d) => {
                while b.get(pos).is_some_and(|&c| c != d) {
                    pos += 1;
                }
            }
            None => {
                while b.get(pos).is_some_and(|&c| is_blank(c)) {
                    pos += 1;
                }
                while b.get(pos).is_some_and(|&c| !is_blank(c)) {
                    pos += 1;
                }
            }
        }
        let text = line.get(start..pos).unwrap_or("");
        if o.include(field) {
            match convert(ctx, o, text, field, out)? {
                Ok(Some(s)) => out.push_str(&s),
                Ok(None) => {
                    valid = false;
                    // The field as read, less a trailing --suffix.
                    let shown = match &o.suffix {
                        Some(s) if text.len() > s.len() => text.strip_suffix(s.as_str()),
                        _ => None,
                    };
                    out.push_str(shown.unwrap_or(text));
                }
                Err(a) => return Ok(Err(a)),
            }
        } else {
            out.push_str(text);
        }
        if pos >= b.len() {
            break;
        }
        out.push(char::from(o.delimiter.unwrap_or(b' ')));
        pos += 1;
    }
    Ok(Ok(valid))
}

/// The value of `s` if it is only an optionally negative run of digits.
fn exact_integer(s: &str) -> Option<i128> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// GNU `unit_to_umax`: `K` is 1000, `Ki` 1024, and a plain number is itself.
fn unit_size(s: &str) -> Option<f64> {
    let (digits, suffix) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    // A bare suffix counts one unit of it (`Ki` is 1024).
    let n: u64 = if digits.is_empty() && !suffix.is_empty() {
        1
    } else {
        digits.parse().ok()?
    };
    let mult: u64 = match suffix {
        "" => 1,
        _ => {
            let mut it = suffix.chars();
            let letter = it.next()?;
            let pw = "KMGTPEZY".find(letter)? as u32 + 1;
            let base: u64 = match it.as_str() {
                "" => 1000,
                "i" => 1024,
                _ => return None,
            };
            base.checked_pow(pw)?
        }
    };
    let v = n.checked_mul(mult)?;
    (v != 0).then_some(v as f64)
}

/// Parses `--format`; `Err` is the message.
fn parse_format(fmt: &str, o: &mut Opts) -> Result<(), String> {
    let b = fmt.as_bytes();
    let mut i = 0;
    let mut prefix_len = 0;
    loop {
        match (b.get(i), b.get(i + 1)) {
            (None, _) => return Err(format!("format {} has no % directive", lq(fmt))),
            (Some(b'%'), Some(b'%')) => i += 2,
            (Some(b'%'), _) => break,
            _ => i += 1,
        }
        prefix_len += 1;
    }
    i += 1;
    let mut zero = false;
    loop {
        let skip = b
            .get(i..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&c| c == b' ')
            .count();
        i += skip;
        match b.get(i) {
            Some(b'\'') => i += 1,
            Some(b'0') => {
                zero = true;
                i += 1;
            }
            _ if skip == 0 => break,
            _ => {}
        }
    }
    let rest = fmt.get(i..).unwrap_or("");
    let num_len = rest
        .char_indices()
        .take_while(|&(k, c)| c.is_ascii_digit() || (k == 0 && (c == '-' || c == '+')))
        .count();
    if num_len > 0 {
        let pad: i64 = rest
            .get(..num_len)
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| format!("invalid format {} (width overflow)", lq(fmt)))?;
        if pad < 0 {
            o.left = true;
            o.padding = pad.unsigned_abs() as usize;
        } else if zero {
            o.zero_pad = pad as usize;
        } else if pad > 0 {
            o.padding = pad as usize;
        }
        i += num_len;
    }
    match b.get(i) {
        None => return Err(format!("format {} ends in %", lq(fmt))),
        Some(b'.') => {
            i += 1;
            let digits = b
                .get(i..)
                .unwrap_or_default()
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            let bad = || format!("invalid precision in format {}", lq(fmt));
            if matches!(b.get(i), Some(b'-' | b'+' | b' ' | b'\t')) {
                return Err(bad());
            }
            let p = if digits == 0 {
                0
            } else {
                fmt.get(i..i + digits)
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(bad)?
            };
            o.precision = Some(p);
            i += digits;
        }
        _ => {}
    }
    if b.get(i) != Some(&b'f') {
        return Err(format!(
            "invalid format {}, directive must be %[0]['][-][N][.][N]f",
            lq(fmt)
        ));
    }
    i += 1;
    let suffix_pos = i;
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            if b.get(i + 1) != Some(&b'%') {
                return Err(format!("format {} has too many % directives", lq(fmt)));
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    o.prefix = fmt.get(..prefix_len).unwrap_or("").to_owned();
    o.fmt_suffix = fmt.get(suffix_pos..).unwrap_or("").to_owned();
    Ok(())
}

pub fn numfmt(ctx: &mut Ctx) -> CmdResult {
    let spec = Spec::new("d:z", LONG);
    let parsed = match parse_std(ctx, &spec, 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mut o = Opts {
        from: Scale::None,
        to: Scale::None,
        round: Round::FromZero,
        invalid: Invalid::Abort,
        suffix: None,
        from_unit: 1.0,
        to_unit: 1.0,
        padding: 0,
        left: false,
        auto_padding: false,
        zero_pad: 0,
        precision: None,
        prefix: String::new(),
        fmt_suffix: String::new(),
        delimiter: None,
        fields: None,
    };
    let mut eol = b'\n';
    let mut header = 0u64;
    let mut format: Option<&str> = None;
    let mut grouping = false;
    const FROM: [(&str, Scale); 5] = [
        ("none", Scale::None),
        ("auto", Scale::Auto),
        ("si", Scale::Si),
        ("iec", Scale::Iec),
        ("iec-i", Scale::IecI),
    ];
    for (k, v) in &parsed.opts {
        let val = v.as_deref().unwrap_or("");
        let fail = |ctx: &mut Ctx, msg: String| -> io::Result<i32> {
            ctx.err(msg)?;
            Ok(1)
        };
        match k.as_str() {
            "from" => match argmatch(ctx, "--from", val, &FROM)? {
                Ok(s) => o.from = s,
                Err(s) => return Ok(s),
            },
            "to" => {
                let table = [FROM[0], FROM[2], FROM[3], FROM[4]];
                match argmatch(ctx, "--to", val, &table)? {
                    Ok(s) => o.to = s,
                    Err(s) => return Ok(s),
                }
            }
            "round" => {
                let table = [
                    ("up", Round::Up),
                    ("down", Round::Down),
                    ("from-zero", Round::FromZero),
                    ("towards-zero", Round::TowardsZero),
                    ("nearest", Round::Nearest),
                ];
                match argmatch(ctx, "--round", val, &table)? {
                    Ok(r) => o.round = r,
                    Err(s) => return Ok(s),
                }
            }
            "invalid" => {
                let table = [
                    ("abort", Invalid::Abort),
                    ("fail", Invalid::Fail),
                    ("warn", Invalid::Warn),
                    ("ignore", Invalid::Ignore),
                ];
                match argmatch(ctx, "--invalid", val, &table)? {
                    Ok(r) => o.invalid = r,
                    Err(s) => return Ok(s),
                }
            }
            "from-unit" | "to-unit" => match unit_size(val) {
                Some(n) if k == "from-unit" => o.from_unit = n,
                Some(n) => o.to_unit = n,
                None => return fail(ctx, format!("invalid unit size: {}", lq(val))),
            },
            "grouping" => grouping = true,
            "padding" => match val.trim_start().parse::<i64>() {
                Ok(n) if n != 0 => {
                    o.left = n < 0;
                    o.padding = n.unsigned_abs() as usize;
                }
                _ => return fail(ctx, format!("invalid padding value {}", lq(val))),
            },
            "field" => {
                if o.fields.is_some() {
                    return fail(ctx, "multiple field specifications".to_owned());
                }
                let list = if val == "-" {
                    Ok(vec![(1, usize::MAX)])
                } else {
                    super::cut::parse_list(val, true)
                };
                match list {
                    Ok(r) => o.fields = Some(r),
                    Err(msg) => return usage_error(ctx, &msg, 1),
                }
            }
            "d" => {
                if val.len() > 1 {
                    return fail(ctx, "the delimiter must be a single character".to_owned());
                }
                o.delimiter = Some(val.bytes().next().unwrap_or(0));
            }
            "z" => eol = 0,
            "suffix" => o.suffix = Some(val.to_owned()),
            "header" => match v {
                None => header = 1,
                Some(h) => match h.parse::<u64>() {
                    Ok(n) if n > 0 => header = n,
                    _ => return fail(ctx, format!("invalid header value {}", lq(h))),
                },
            },
            "format" => format = Some(val),
            _ => {}
        }
    }
    if format.is_some() && grouping {
        ctx.err("--grouping cannot be combined with --format")?;
        return Ok(1);
    }
    if let Some(f) = format
        && let Err(msg) = parse_format(f, &mut o)
    {
        ctx.err(msg)?;
        return Ok(1);
    }
    if grouping && o.to != Scale::None {
        ctx.err("grouping cannot be combined with --to")?;
        return Ok(1);
    }
    // GNU allocates the padding buffer up front: a width past what memory holds
    // ends there.
    if o.padding.max(o.zero_pad) > MAX_WIDTH {
        ctx.err("memory exhausted")?;
        return Ok(1);
    }
    o.auto_padding = o.padding == 0 && o.delimiter.is_none();
    let mut valid = true;
    let mut out = String::new();
    let status_of = |valid: bool, o: &Opts| {
        if !valid && matches!(o.invalid, Invalid::Abort | Invalid::Fail) {
            2
        } else {
            0
        }
    };
    if !parsed.operands.is_empty() {
        for a in &parsed.operands {
            match process_line(ctx, &o, a, &mut out)? {
                Ok(v) => valid &= v,
                Err(Abort(status)) => {
                    ctx.stdout.write_all(&crate::text::encode(&out))?;
                    return Ok(status);
                }
            }
            out.push(char::from(eol));
        }
        ctx.stdout.write_all(&crate::text::encode(&out))?;
        return Ok(status_of(valid, &o));
    }
    let data = ctx.read_stdin_to_end(256 << 20)?;
    let text = crate::text::decode(&data);
    let mut lines = text.split_inclusive(char::from(eol));
    for line in lines
        .by_ref()
        .take(usize::try_from(header).unwrap_or(usize::MAX))
    {
        out.push_str(line);
    }
    for line in lines {
        ctx.host.check()?;
        let (body, newline) = match line.strip_suffix(char::from(eol)) {
            Some(b) => (b, true),
            None => (line, false),
        };
        match process_line(ctx, &o, body, &mut out)? {
            Ok(v) => valid &= v,
            Err(Abort(status)) => {
                ctx.stdout.write_all(&crate::text::encode(&out))?;
                return Ok(status);
            }
        }
        if newline {
            out.push(char::from(eol));
        }
        if out.len() > 64 * 1024 {
            ctx.stdout.write_all(&crate::text::encode(&out))?;
            out.clear();
        }
    }
    ctx.stdout.write_all(&crate::text::encode(&out))?;
    Ok(status_of(valid, &o))
}
