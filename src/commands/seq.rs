//! `seq`: prints a sequence of numbers, with GNU's choice of output precision (the most
//! decimals among FIRST and INCREMENT), `-w` equal widths, `-s` separators and `-f`
//! printf-style floating formats. Integers use exact arithmetic; others use `f64`
//! (GNU uses `long double`, which only shows in the last digits of `%g`-style output).

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::lq;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("equal-width", HasArg::No, "w"),
    long("format", HasArg::Required, "f"),
    long("separator", HasArg::Required, "s"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: seq [OPTION]... LAST
  or:  seq [OPTION]... FIRST LAST
  or:  seq [OPTION]... FIRST INCREMENT LAST
Print numbers from FIRST to LAST, in steps of INCREMENT.

  -f, --format=FORMAT      use printf style floating-point FORMAT
  -s, --separator=STRING   use STRING to separate numbers (default: \\n)
  -w, --equal-width        equalize width by padding with leading zeroes
      --help     display this help and exit
      --version  output version information and exit
";

/// One numeric operand: its value, decimals shown and printed width.
#[derive(Clone, Copy, Debug)]
struct Operand {
    value: f64,
    int: Option<i128>,
    precision: usize,
    width: usize,
}

fn scan(arg: &str) -> Option<Operand> {
    let t = arg.trim_start();
    let body = t.strip_prefix('+').unwrap_or(t);
    if body.is_empty()
        || body.starts_with(['+', '-']) && body.get(1..).is_some_and(|r| r.starts_with(['+', '-']))
    {
        return None;
    }
    let lower = body.to_ascii_lowercase();
    let value: f64 = lower.parse().ok()?;
    if value.is_nan() {
        return None;
    }
    let plain_int = body
        .strip_prefix('-')
        .unwrap_or(body)
        .bytes()
        .all(|b| b.is_ascii_digit());
    let int = if plain_int {
        body.parse::<i128>().ok()
    } else {
        None
    };
    let mut width = body.len();
    let mut precision = 0usize;
    let e_at = lower.find('e').filter(|_| !lower.contains("inf"));
    let mantissa = &lower[..e_at.unwrap_or(lower.len())];
    if let Some(dot) = mantissa.find('.') {
        let fraction = mantissa.len() - dot - 1;
        precision = fraction;
        if fraction == 0 {
            width -= 1;
        } else if dot == 0 || !mantissa[..dot].ends_with(|c: char| c.is_ascii_digit()) {
            width += 1;
        }
    }
    if let Some(e) = e_at {
        let exponent: i64 = lower[e + 1..].parse().ok()?;
        precision = if exponent < 0 {
            precision.saturating_add(exponent.unsigned_abs() as usize)
        } else {
            precision.saturating_sub(exponent as usize)
        };
        width = format!("{value:.precision$}").len();
    }
    Some(Operand {
        value,
        int,
        precision,
        width,
    })
}

/// A parsed `%[flags][width][.precision]conv` directive with its literal surroundings.
#[derive(Clone, Debug, Default)]
pub struct FloatFormat {
    pub prefix: String,
    pub suffix: String,
    pub left: bool,
    pub plus: bool,
    pub space: bool,
    pub alt: bool,
    pub zero: bool,
    pub width: usize,
    pub precision: Option<usize>,
    pub conv: char,
}

/// Unescapes `%%` in literal text.
fn literal(s: &str) -> String {
    s.replace("%%", "%")
}

/// Parses a seq `-f` format: exactly one floating directive.
pub fn parse_format(fmt: &str) -> Result<FloatFormat, String> {
    let bytes: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    let mut start = None;
    while i < bytes.len() {
        if bytes[i] == '%' {
            if bytes.get(i + 1) == Some(&'%') {
                i += 2;
                continue;
            }
            start = Some(i);
            break;
        }
        i += 1;
    }
    let Some(start) = start else {
        return Err(format!("format {} has no % directive", lq(fmt)));
    };
    let mut f = FloatFormat {
        prefix: literal(&bytes[..start].iter().collect::<String>()),
        ..FloatFormat::default()
    };
    let mut j = start + 1;
    while let Some(&c) = bytes.get(j) {
        match c {
            '-' => f.left = true,
            '+' => f.plus = true,
            ' ' => f.space = true,
            '#' => f.alt = true,
            '0' => f.zero = true,
            '\'' => {}
            _ => break,
        }
        j += 1;
    }
    let digits = |j: &mut usize| {
        let mut n = 0usize;
        while let Some(d) = bytes.get(*j).and_then(|c| c.to_digit(10)) {
            n = n.saturating_mul(10).saturating_add(d as usize);
            *j += 1;
        }
        n
    };
    f.width = digits(&mut j);
    if bytes.get(j) == Some(&'.') {
        j += 1;
        f.precision = Some(digits(&mut j));
    }
    if bytes.get(j) == Some(&'L') {
        j += 1;
    }
    match bytes.get(j) {
        None => return Err(format!("format {} ends in %", lq(fmt))),
        Some(&c) if "eEfFgGaA".contains(c) => f.conv = c,
        Some(&c) => {
            let dir: String = bytes[start..=j].iter().collect();
            let _ = c;
            return Err(format!("format {} has unknown {dir} directive", lq(fmt)));
        }
    }
    let rest: String = bytes[j + 1..].iter().collect();
    let mut k = 0;
    let rc: Vec<char> = rest.chars().collect();
    while k < rc.len() {
        if rc[k] == '%' {
            if rc.get(k + 1) == Some(&'%') {
                k += 2;
                continue;
            }
            return Err(format!("format {} has too many % directives", lq(fmt)));
        }
        k += 1;
    }
    f.suffix = literal(&rest);
    Ok(f)
}

/// C's `%e` body: mantissa with `prec` decimals and a signed two-digit exponent.
fn c_exp(v: f64, prec: usize, upper: bool) -> String {
    let s = format!("{v:.prec$e}");
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    let e = if upper { 'E' } else { 'e' };
    format!("{mant}{e}{sign}{:02}", exp.unsigned_abs())
}

fn strip_zeros(s: &str) -> String {
    let (mant, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    if !mant.contains('.') {
        return s.to_owned();
    }
    let m = mant.trim_end_matches('0').trim_end_matches('.');
    format!("{m}{exp}")
}

impl FloatFormat {
    /// Formats `v` as C's printf would with this directive.
    pub fn format(&self, v: f64) -> String {
        let upper = self.conv.is_ascii_uppercase();
        let mut body = if v.is_infinite() {
            if upper { "INF" } else { "inf" }.to_owned()
        } else if v.is_nan() {
            if upper { "NAN" } else { "nan" }.to_owned()
        } else {
            let a = v.abs();
            match self.conv.to_ascii_lowercase() {
                'f' => format!("{a:.*}", self.precision.unwrap_or(6)),
                'e' => c_exp(a, self.precision.unwrap_or(6), upper),
                _ => {
                    let p = match self.precision {
                        Some(0) => 1,
                        Some(p) => p,
                        None => 6,
                    };
                    let e = c_exp(a, p - 1, upper);
                    let x: i64 = e
                        .rsplit(['e', 'E'])
                        .next()
                        .and_then(|x| x.parse().ok())
                        .unwrap_or(0);
                    let s = if (p as i64) > x && x >= -4 {
                        format!("{a:.*}", (p as i64 - 1 - x).max(0) as usize)
                    } else {
                        e
                    };
                    if self.alt { s } else { strip_zeros(&s) }
                }
            }
        };
        let sign = if v.is_sign_negative() && !v.is_nan() {
            "-"
        } else if self.plus {
            "+"
        } else if self.space {
            " "
        } else {
            ""
        };
        let len = sign.len() + body.chars().count();
        let pad = self.width.saturating_sub(len);
        let out = if self.left {
            format!("{sign}{body}{}", " ".repeat(pad))
        } else if self.zero && v.is_finite() {
            body = format!("{}{body}", "0".repeat(pad));
            format!("{sign}{body}")
        } else {
            format!("{}{sign}{body}", " ".repeat(pad))
        };
        format!("{}{out}{}", self.prefix, self.suffix)
    }
}

pub fn seq(ctx: &mut Ctx) -> CmdResult {
    let mut spec = Spec::new("f:s:w", LONG);
    spec.digits_are_operands = true;
    let parsed = match parse_std(ctx, &spec, 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let sep = parsed.last("s").unwrap_or("\n").to_owned();
    let width = parsed.has("w");
    let user_fmt = parsed.last("f").map(str::to_owned);
    let ops = &parsed.operands;
    if ops.is_empty() {
        return usage_error(ctx, "missing operand", 1);
    }
    if let Some(extra) = ops.get(3) {
        return usage_error(ctx, &format!("extra operand {}", lq(extra)), 1);
    }
    let mut nums = Vec::new();
    for op in ops {
        match scan(op) {
            Some(n) => nums.push(n),
            None => {
                let msg = format!("invalid floating point argument: {}", lq(op));
                return usage_error(ctx, &msg, 1);
            }
        }
    }
    let one = Operand {
        value: 1.0,
        int: Some(1),
        precision: 0,
        width: 1,
    };
    let (first, step, last) = match nums.as_slice() {
        [l] => (one, one, *l),
        [f, l] => (*f, one, *l),
        [f, s, l] => (*f, *s, *l),
        _ => return Ok(1),
    };
    if step.value == 0.0 {
        let msg = format!(
            "invalid Zero increment value: {}",
            lq(ops.get(1).map_or("0", String::as_str))
        );
        return usage_error(ctx, &msg, 1);
    }
    if user_fmt.is_some() && width {
        let msg = "format string may not be specified when printing equal width strings";
        return usage_error(ctx, msg, 1);
    }
    let fmt = match &user_fmt {
        Some(f) => match parse_format(f) {
            Ok(f) => f,
            Err(msg) => {
                ctx.err(msg)?;
                return Ok(1);
            }
        },
        None => {
            let prec = first.precision.max(step.precision);
            let mut f = FloatFormat {
                conv: 'f',
                precision: Some(prec),
                ..FloatFormat::default()
            };
            if width {
                let mut fw = first.width + (prec - first.precision);
                let mut lw = (last.width + prec).saturating_sub(last.precision);
                if last.precision > 0 && prec == 0 {
                    lw = lw.saturating_sub(1);
                }
                if last.precision == 0 && prec > 0 {
                    lw += 1;
                }
                if first.precision == 0 && prec > 0 {
                    fw += 1;
                }
                f.width = fw.max(lw);
                f.zero = true;
            }
            f
        }
    };
    let mut out = Vec::with_capacity(8192);
    let emit =
        |ctx: &mut Ctx, out: &mut Vec<u8>, s: &str, first_item: bool| -> std::io::Result<()> {
            if !first_item {
                crate::text::encode_into(&sep, out);
            }
            out.extend_from_slice(s.as_bytes());
            if out.len() >= 8192 {
                ctx.host.check()?;
                ctx.stdout.write_all(out)?;
                out.clear();
            }
            Ok(())
        };
    let mut any = false;
    if let (Some(f), Some(s), Some(l), None) = (first.int, step.int, last.int, &user_fmt) {
        let mut x = f;
        while (s > 0 && x <= l) || (s < 0 && x >= l) {
            let text = if width {
                format!("{x:0w$}", w = fmt.width)
            } else {
                x.to_string()
            };
            emit(ctx, &mut out, &text, !any)?;
            any = true;
            match x.checked_add(s) {
                Some(n) => x = n,
                None => break,
            }
        }
    } else {
        let last_str = fmt.format(last.value);
        let mut i: u64 = 0;
        let mut prev = String::new();
        loop {
            let x = first.value + (i as f64) * step.value;
            let past = if step.value < 0.0 {
                x < last.value
            } else {
                x > last.value
            };
            if past {
                // GNU prints one more number if it prints as LAST (seq 0 0.1 1).
                let s = fmt.format(x);
                if s == last_str && s != prev {
                    emit(ctx, &mut out, &s, !any)?;
                    any = true;
                }
                break;
            }
            let s = fmt.format(x);
            emit(ctx, &mut out, &s, !any)?;
            any = true;
            prev = s;
            i += 1;
        }
    }
    if any {
        out.push(b'\n');
    }
    ctx.stdout.write_all(&out)?;
    Ok(0)
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use super::*;
    use crate::commands::testing::{check, run_endless};

    #[test]
    fn seq_table() {
        let try_ = "Try 'seq --help' for more information.\n";
        for (line, out, err, status) in [
            ("seq 3", "1\n2\n3\n".to_owned(), String::new(), 0),
            (
                "seq -s' ' 0 0.1 1",
                "0.0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "seq -s' ' 0.1 0.1 0.3",
                "0.1 0.2 0.3\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "seq -w -s' ' 8 11",
                "08 09 10 11\n".to_owned(),
                String::new(),
                0,
            ),
            ("seq -s, 1 3", "1,2,3\n".to_owned(), String::new(), 0),
            ("seq -s '' 3", "123\n".to_owned(), String::new(), 0),
            (
                "seq -f %03g -s' ' 3",
                "001 002 003\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "seq -s' ' 1 0.5 3",
                "1.0 1.5 2.0 2.5 3.0\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "seq -w -s' ' -3 1 2",
                "-3 -2 -1 00 01 02\n".to_owned(),
                String::new(),
                0,
            ),
            ("seq 1e2 1e2", "100\n".to_owned(), String::new(), 0),
            (
                "seq -s' ' 1 1e1 30",
                "1 11 21\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "seq -w -s' ' 1 .5 2",
                "1.0 1.5 2.0\n".to_owned(),
                String::new(),
                0,
            ),
            ("seq -w 0.5 1.50", "0.5\n1.5\n".to_owned(), String::new(), 0),
            ("seq -s' ' 1.5 3", "1.5 2.5\n".to_owned(), String::new(), 0),
            (
                "seq -s' ' 10 -3 1",
                "10 7 4 1\n".to_owned(),
                String::new(),
                0,
            ),
            ("seq 5 1", String::new(), String::new(), 0),
            ("seq -1", String::new(), String::new(), 0),
            ("seq 1 2 1", "1\n".to_owned(), String::new(), 0),
            (
                "seq -f %.2f 1 2",
                "1.00\n2.00\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "seq -f 'a%%b%5.1fc' 2",
                "a%b  1.0c\na%b  2.0c\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "seq -f %e 2 2",
                "2.000000e+00\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "seq -f %g 1000000 1000000",
                "1e+06\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "seq 100000000000000000000 100000000000000000001",
                "100000000000000000000\n100000000000000000001\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "seq",
                String::new(),
                format!("seq: missing operand\n{try_}"),
                1,
            ),
            (
                "seq a",
                String::new(),
                format!("seq: invalid floating point argument: 'a'\n{try_}"),
                1,
            ),
            (
                "seq 1 0 3",
                String::new(),
                format!("seq: invalid Zero increment value: '0'\n{try_}"),
                1,
            ),
            (
                "seq -f x 3",
                String::new(),
                "seq: format 'x' has no % directive\n".to_owned(),
                1,
            ),
            (
                "seq -f %d 3",
                String::new(),
                "seq: format '%d' has unknown %d directive\n".to_owned(),
                1,
            ),
            (
                "seq -f %g%g 3",
                String::new(),
                "seq: format '%g%g' has too many % directives\n".to_owned(),
                1,
            ),
            (
                "seq 1 2 3 4",
                String::new(),
                format!("seq: extra operand '4'\n{try_}"),
                1,
            ),
        ] {
            check(&[], line, "", (&out, &err, status));
        }
    }

    #[test]
    fn formats_like_c() {
        for (fmt, v, want) in [
            ("%g", 0.0001, "0.0001"),
            ("%g", 0.00001, "1e-05"),
            ("%g", 123456.0, "123456"),
            ("%g", 1234567.0, "1.23457e+06"),
            ("%#g", 1.0, "1.00000"),
            ("%+.1f", 2.0, "+2.0"),
            ("%-6.1f|", 2.0, "2.0   |"),
            ("%06.1f", -2.0, "-002.0"),
            ("%E", 12345.0, "1.234500E+04"),
            ("%g", f64::INFINITY, "inf"),
        ] {
            assert_eq!(parse_format(fmt).expect("valid").format(v), want, "{fmt}");
        }
    }

    #[test]
    fn endless_sequences_stop_with_the_reader() {
        let (out, status, _) = run_endless("seq inf", b"", 6);
        assert_eq!((out.as_slice(), status), (&b"1\n2\n3\n"[..], 141));
    }
}
