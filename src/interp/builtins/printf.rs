//! The `printf` builtin (bash manual, "Bash Builtins"): C-style conversions plus `%b`,
//! `%q` and `%(fmt)T`, format reuse while arguments remain, and `-v var`.

use super::super::{Interp, R};
use super::longdouble;

/// The result of formatting: output text and whether an argument was not a valid number.
pub struct Formatted {
    pub text: String,
    pub bad_number: bool,
    /// `%b` met `\c` or a conversion was bad: stop all output.
    pub stopped: bool,
    /// bash's complaints, in the order met (each bad number is reported).
    pub errors: Vec<String>,
    /// bash's warnings (values out of range), which leave the status alone.
    pub warnings: Vec<String>,
}

impl Formatted {
    /// Output that ends the whole builtin (`\c` in `%b`, a bad conversion): the
    /// format is not used again for the arguments left.
    fn stopped(text: String, bad_number: bool, errors: Vec<String>, warnings: Vec<String>) -> Self {
        Formatted {
            text,
            bad_number,
            stopped: true,
            errors,
            warnings,
        }
    }
}

pub fn printf(sh: &mut Interp, args: &[String]) -> R {
    let mut i = 1;
    let mut var = None;
    while i < args.len() {
        match args[i].as_str() {
            "-v" => {
                var = args.get(i + 1).cloned();
                if var.is_none() {
                    sh.builtin_error("printf", "-v: option requires an argument");
                    sh.errln("printf: usage: printf [-v var] format [arguments]");
                    return Ok(2);
                }
                i += 2;
            }
            "--" => {
                i += 1;
                break;
            }
            s if s.starts_with("-v") && s.len() > 2 => {
                var = Some(s[2..].to_owned());
                i += 1;
            }
            s if s.starts_with('-') && s.len() > 1 && i == 1 => {
                sh.builtin_error("printf", &format!("{}: invalid option", &s[..2]));
                sh.errln("printf: usage: printf [-v var] format [arguments]");
                return Ok(2);
            }
            _ => break,
        }
    }
    // The variable name is checked before anything is formatted.
    if let Some(target) = &var
        && !crate::interp::host::valid_array_reference(target)
        && !crate::syntax::is_name(target)
    {
        sh.builtin_error("printf", &format!("`{target}': not a valid identifier"));
        return Ok(2);
    }
    let Some(fmt) = args.get(i) else {
        sh.errln("printf: usage: printf [-v var] format [arguments]");
        return Ok(2);
    };
    let now = sh.fs.lock().clock().now();
    let zone = sh.zone();
    let max = sh.budget.limits.max_string_len;
    let Some(mut f) = format(fmt, &args[i + 1..], now.secs, sh.start_time, &zone, max) else {
        let m = format!("printf: string length limit exceeded ({max} bytes)");
        sh.budget.trip(&m);
        return Err(crate::interp::Flow::Fatal(m));
    };
    if f.text.len() > max {
        let m = format!("printf: string length limit exceeded ({max} bytes)");
        sh.budget.trip(&m);
        return Err(crate::interp::Flow::Fatal(m));
    }
    for m in f.errors.iter().chain(&f.warnings) {
        sh.builtin_error("printf", m);
    }
    let status = if f.bad_number || !f.errors.is_empty() {
        1
    } else {
        0
    };
    match var {
        Some(v) => {
            let target = v.clone();
            // The value is a C string: it ends at a NUL (`%c` of an empty argument).
            if let Some(nul) = f.text.find('\0') {
                f.text.truncate(nul);
            }
            let r = if target.contains('[') {
                match crate::interp::host::split_element_ref(&target) {
                    Some(_) => sh.assign_scalar(&target, f.text, false),
                    None => Err(format!("`{target}': not a valid identifier").into()),
                }
            } else if crate::syntax::is_name(&target) {
                sh.assign_scalar(&target, f.text, false)
                    .map(|()| sh.bind_through(&target))
            } else {
                Err(format!("`{target}': not a valid identifier").into())
            };
            if let Err(e) = r {
                sh.assign_error("printf", &e);
                return Ok(1);
            }
            Ok(status)
        }
        None => {
            let bytes = crate::text::encode(&f.text);
            let s = sh.out_status("printf", &bytes)?;
            Ok(if s != 0 { s } else { status })
        }
    }
}

/// Decodes escapes of a printf format string (not `%b` arguments).
fn format_escape(cs: &[char], i: &mut usize, out: &mut String) {
    // cs[*i] is the char after the backslash.
    let Some(&e) = cs.get(*i) else {
        out.push('\\');
        return;
    };
    *i += 1;
    match e {
        'a' => out.push('\x07'),
        'b' => out.push('\x08'),
        'e' | 'E' => out.push('\x1b'),
        'f' => out.push('\x0c'),
        'n' => out.push('\n'),
        'r' => out.push('\r'),
        't' => out.push('\t'),
        'v' => out.push('\x0b'),
        '\\' => out.push('\\'),
        '"' => out.push('"'),
        '\'' => out.push('\''),
        '?' => out.push('?'),
        '0'..='7' => {
            let (rest, k) = crate::text::take_digits(cs, i, 8, 2);
            let v = (e as u32 - '0' as u32) * 8u32.pow(k as u32) + rest;
            crate::text::push_byte(out, (v & 0xff) as u8);
        }
        'x' => {
            let (v, n) = crate::text::take_digits(cs, i, 16, 2);
            if n == 0 {
                out.push_str("\\x");
            } else {
                crate::text::push_byte(out, v as u8);
            }
        }
        'u' | 'U' => {
            let max = if e == 'u' { 4 } else { 8 };
            let (v, n) = crate::text::take_digits(cs, i, 16, max);
            if n == 0 {
                out.push('\\');
                out.push(e);
            } else {
                out.push(char::from_u32(v).unwrap_or('\u{FFFD}'));
            }
        }
        other => {
            out.push('\\');
            out.push(other);
        }
    }
}

/// Parses a numeric argument as printf does (`strtoimax`): `'c` gives the character
/// code; values beyond 64 bits saturate. `Err` carries the value of a partial parse.
fn parse_int(s: &str) -> Result<i128, i128> {
    let t = s.trim_start();
    if let Some(rest) = t.strip_prefix('\'').or_else(|| t.strip_prefix('"')) {
        return Ok(rest
            .chars()
            .next()
            .map(|c| {
                crate::text::raw_byte(c)
                    .map(i128::from)
                    .unwrap_or(c as i128)
            })
            .unwrap_or(0));
    }
    if t.is_empty() {
        return Ok(0);
    }
    let (neg, body) = match t.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (radix, digits) =
        if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (16, h)
        } else if body.len() > 1 && body.starts_with('0') {
            (8, &body[1..])
        } else {
            (10, body)
        };
    let end = digits
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits.len());
    let max = u64::MAX as i128;
    let mut v: i128 = 0;
    for c in digits[..end].chars() {
        v = (v * radix as i128 + c.to_digit(radix).unwrap_or(0) as i128).min(max + 1);
    }
    let v = if neg { -v } else { v };
    if end != digits.len() || (end == 0 && radix != 8) {
        return Err(v);
    }
    Ok(v)
}

/// A parsed integer as `%d` sees it (clamped to 64-bit signed).
/// A width or precision given as `*`: its argument read as `%d` reads one, a bad one
/// reported (and its leading number used) the same way.
fn star_arg(a: Option<String>, errors: &mut Vec<String>, bad: &mut bool) -> i64 {
    let Some(a) = a else { return 0 };
    match parse_int(&a) {
        Ok(v) => as_signed(v),
        Err(v) => {
            *bad = true;
            errors.push(format!("{a}: invalid number"));
            as_signed(v)
        }
    }
}

fn as_signed(v: i128) -> i64 {
    v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

/// A parsed integer as `%u %o %x` see it (`strtoumax`: negatives wrap, overflow
/// saturates).
fn as_unsigned(v: i128) -> u64 {
    let max = u64::MAX as i128;
    if v > max || v < -max {
        return u64::MAX;
    }
    if v < 0 {
        (max + 1 + v) as u64
    } else {
        v as u64
    }
}

/// What went wrong reading a floating argument: bash's error (the status becomes 1)
/// or its warning for a value out of range.
enum FloatProblem {
    Invalid(String),
    Range(String),
}

/// A floating argument as bash's printf reads it: `'c` is the character's code, the
/// rest goes through `strtold`, text it leaves over is an error and a result out of
/// range a warning.
fn float_arg(a: &str) -> (longdouble::LongDouble, Option<FloatProblem>) {
    if a.starts_with('\'') || a.starts_with('"') {
        let code = parse_int(a).unwrap_or(0);
        return (longdouble::LongDouble::from_u64(code.max(0) as u64), None);
    }
    let p = longdouble::strtold(a);
    if p.end < a.len() {
        let b = a.as_bytes();
        let what = match (b.first(), b.get(1)) {
            (Some(b'0'), Some(d)) if d.is_ascii_digit() => "invalid octal number",
            (Some(b'0'), Some(b'x')) => "invalid hex number",
            _ => "invalid number",
        };
        return (p.value, Some(FloatProblem::Invalid(format!("{a}: {what}"))));
    }
    if p.erange {
        let m = format!("warning: {a}: Numerical result out of range");
        return (p.value, Some(FloatProblem::Range(m)));
    }
    (p.value, None)
}

struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: Option<usize>,
    prec: Option<usize>,
}

fn pad(spec: &Spec, body: String, numeric: bool) -> String {
    let w = spec.width.unwrap_or(0);
    // bash's printf is C's: widths count bytes, not characters.
    let len = crate::text::byte_len(&body);
    if len >= w {
        return body;
    }
    let fill = w - len;
    if spec.left {
        format!("{body}{}", " ".repeat(fill))
    } else if spec.zero && numeric {
        let (sign, digits) = match body.chars().next() {
            Some(c @ ('-' | '+' | ' ')) => (c.to_string(), body[1..].to_owned()),
            _ => (String::new(), body.clone()),
        };
        let (prefix, digits) = if digits.starts_with("0x") || digits.starts_with("0X") {
            (digits[..2].to_owned(), digits[2..].to_owned())
        } else {
            (String::new(), digits)
        };
        format!("{sign}{prefix}{}{digits}", "0".repeat(fill))
    } else {
        format!("{}{body}", " ".repeat(fill))
    }
}

/// Shell-quotes for `%q` (backslashes, or `$'...'` for control characters).
pub fn q_quote(s: &str) -> String {
    if s.is_empty() {
        return "''".to_owned();
    }
    if s.chars()
        .any(|c| c.is_control() || crate::text::raw_byte(c).is_some())
    {
        return crate::expand::param::ansi_c_quote(s);
    }
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if " \t\n'\"\\$`*?[]|&;<>(){}!#^,".contains(c) || (c == '~' && i == 0) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Formats `fmt` with `args`, reusing the format while arguments remain; `None` when
/// the text (or one field's width or precision) would pass `max_len` bytes.
pub fn format(
    fmt: &str,
    args: &[String],
    now: i64,
    start: i64,
    zone: &crate::timefmt::Zone,
    max_len: usize,
) -> Option<Formatted> {
    let cs: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut ai = 0usize;
    let mut bad = false;
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    loop {
        let mut consumed = false;
        let mut i = 0;
        while i < cs.len() {
            let c = cs[i];
            if c == '\\' {
                i += 1;
                format_escape(&cs, &mut i, &mut out);
                continue;
            }
            if c != '%' {
                out.push(c);
                i += 1;
                continue;
            }
            let spec_start = i;
            i += 1;
            if cs.get(i) == Some(&'%') {
                out.push('%');
                i += 1;
                continue;
            }
            let mut spec = Spec {
                left: false,
                plus: false,
                space: false,
                alt: false,
                zero: false,
                width: None,
                prec: None,
            };
            while let Some(&f) = cs.get(i) {
                match f {
                    '-' => spec.left = true,
                    '+' => spec.plus = true,
                    ' ' => spec.space = true,
                    '#' => spec.alt = true,
                    '0' => spec.zero = true,
                    '\'' => {}
                    _ => break,
                }
                i += 1;
            }
            let next_arg = |ai: &mut usize| -> Option<String> {
                let a = args.get(*ai).cloned();
                if a.is_some() {
                    *ai += 1;
                }
                a
            };
            if cs.get(i) == Some(&'*') {
                i += 1;
                let w = star_arg(next_arg(&mut ai), &mut errors, &mut bad);
                if w < 0 {
                    spec.left = true;
                }
                spec.width = Some(w.unsigned_abs() as usize);
            } else {
                let mut w = String::new();
                while let Some(&d) = cs.get(i).filter(|d| d.is_ascii_digit()) {
                    w.push(d);
                    i += 1;
                }
                if !w.is_empty() {
                    spec.width = w.parse().ok();
                }
            }
            if cs.get(i) == Some(&'.') {
                i += 1;
                if cs.get(i) == Some(&'*') {
                    i += 1;
                    let p = star_arg(next_arg(&mut ai), &mut errors, &mut bad);
                    spec.prec = if p < 0 { None } else { Some(p as usize) };
                } else {
                    let mut p = String::new();
                    while let Some(&d) = cs.get(i).filter(|d| d.is_ascii_digit()) {
                        p.push(d);
                        i += 1;
                    }
                    spec.prec = Some(p.parse().unwrap_or(0));
                }
            }
            if spec.width.unwrap_or(0) > max_len || spec.prec.unwrap_or(0) > max_len {
                return None;
            }
            if out.len() > max_len {
                return None;
            }
            // Length modifiers are accepted and ignored.
            while matches!(cs.get(i), Some('h' | 'l' | 'L' | 'j' | 'z' | 't')) {
                i += 1;
            }
            let Some(&conv) = cs.get(i) else {
                let spec_text: String = cs[spec_start..].iter().collect();
                errors.push(format!("`{spec_text}': missing format character"));
                return Some(Formatted::stopped(out, bad, errors, warnings));
            };
            i += 1;
            if conv == '(' {
                // %(fmt)T
                let mut tf = String::new();
                while let Some(&d) = cs.get(i) {
                    i += 1;
                    if d == ')' {
                        break;
                    }
                    tf.push(d);
                }
                if cs.get(i) == Some(&'T') {
                    i += 1;
                }
                consumed = true;
                let arg = next_arg(&mut ai);
                let t = match arg.as_deref() {
                    None | Some("") | Some("-1") => now,
                    Some("-2") => start,
                    Some(a) => match parse_int(a).map(as_signed).map_err(as_signed) {
                        Ok(v) => v,
                        Err(v) => {
                            bad = true;
                            errors.push(format!("{a}: invalid number"));
                            v
                        }
                    },
                };
                let mut s = zone.strftime(&tf, t, 0);
                // bash formats into a 128-byte buffer; longer results come out empty.
                if s.len() >= 128 {
                    s.clear();
                }
                let s = match spec.prec {
                    Some(p) => crate::text::truncate_bytes(s, p),
                    None => s,
                };
                out.push_str(&pad(&spec, s, false));
                continue;
            }
            consumed = true;
            let arg = next_arg(&mut ai);
            match conv {
                's' => {
                    let s = arg.unwrap_or_default();
                    let s = match spec.prec {
                        Some(p) => crate::text::truncate_bytes(s, p),
                        None => s,
                    };
                    out.push_str(&pad(&spec, s, false));
                }
                'b' => {
                    let (s, stop) = super::misc::echo_escapes(&b_escapes(&arg.unwrap_or_default()));
                    let s = match spec.prec {
                        Some(p) => crate::text::truncate_bytes(s, p),
                        None => s,
                    };
                    out.push_str(&pad(&spec, s, false));
                    if stop {
                        return Some(Formatted::stopped(out, bad, errors, warnings));
                    }
                }
                'q' => {
                    let s = q_quote(&arg.unwrap_or_default());
                    out.push_str(&pad(&spec, s, false));
                }
                'c' => {
                    // `%c` takes the first byte, even of a multibyte character; an
                    // empty or missing argument gives its terminating NUL, as in C.
                    let mut s = String::new();
                    match crate::text::encode(&arg.unwrap_or_default()).first() {
                        Some(&b) => crate::text::push_byte(&mut s, b),
                        None => s.push('\0'),
                    }
                    out.push_str(&pad(&spec, s, false));
                }
                'd' | 'i' | 'o' | 'u' | 'x' | 'X' => {
                    let a = arg.unwrap_or_default();
                    let v = match parse_int(&a) {
                        Ok(v) => v,
                        Err(v) => {
                            bad = true;
                            errors.push(format!("{a}: invalid number"));
                            v
                        }
                    };
                    let (sv, uv) = (as_signed(v), as_unsigned(v));
                    let v = sv;
                    let mut digits = match conv {
                        'd' | 'i' => sv.unsigned_abs().to_string(),
                        'o' => format!("{uv:o}"),
                        'u' => uv.to_string(),
                        'x' => format!("{uv:x}"),
                        _ => format!("{uv:X}"),
                    };
                    if let Some(p) = spec.prec {
                        if digits.len() < p {
                            digits = format!("{}{digits}", "0".repeat(p - digits.len()));
                        }
                        if p == 0 && v == 0 {
                            digits.clear();
                        }
                    }
                    if spec.alt {
                        match conv {
                            'o' if !digits.starts_with('0') => digits.insert(0, '0'),
                            'x' if v != 0 => digits.insert_str(0, "0x"),
                            'X' if v != 0 => digits.insert_str(0, "0X"),
                            _ => {}
                        }
                    }
                    let sign = if matches!(conv, 'd' | 'i') {
                        if v < 0 {
                            "-"
                        } else if spec.plus {
                            "+"
                        } else if spec.space {
                            " "
                        } else {
                            ""
                        }
                    } else {
                        ""
                    };
                    let mut sp = spec;
                    if sp.prec.is_some() {
                        sp.zero = false;
                    }
                    out.push_str(&pad(&sp, format!("{sign}{digits}"), true));
                }
                'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => {
                    let a = arg.unwrap_or_default();
                    let (v, problem) = float_arg(&a);
                    match problem {
                        Some(FloatProblem::Invalid(m)) => {
                            bad = true;
                            errors.push(m);
                        }
                        Some(FloatProblem::Range(m)) => warnings.push(m),
                        None => {}
                    }
                    let fspec = longdouble::FloatSpec {
                        left: spec.left,
                        plus: spec.plus,
                        space: spec.space,
                        alt: spec.alt,
                        zero: spec.zero,
                        width: spec.width.unwrap_or(0),
                        prec: spec.prec,
                    };
                    out.push_str(&longdouble::format(&v, conv, &fspec));
                }
                other => {
                    errors.push(format!("`{other}': invalid format character"));
                    return Some(Formatted::stopped(out, bad, errors, warnings));
                }
            }
        }
        if !consumed || ai >= args.len() {
            break;
        }
    }
    Some(Formatted {
        text: out,
        bad_number: bad,
        stopped: false,
        errors,
        warnings,
    })
}

/// `%b` accepts `\NNN` octal without the leading zero that `echo -e` requires.
fn b_escapes(s: &str) -> String {
    let cs: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < cs.len() {
        if cs[i] == '\\' && matches!(cs.get(i + 1), Some('1'..='7')) {
            out.push_str("\\0");
            i += 1;
            continue;
        }
        out.push(cs[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fmt: &str, args: &[&str], want: &str) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            format(fmt, &args, 0, 0, &crate::timefmt::Zone::utc(), usize::MAX)
                .map(|f| f.text)
                .unwrap_or_default(),
            want,
            "{fmt}"
        );
    }

    #[test]
    fn conversions() {
        check("%s-%s\\n", &["a", "b"], "a-b\n");
        check("%5s|%-5s|", &["ab", "cd"], "   ab|cd   |");
        check("%d %05d %x %o", &["42", "-7", "255", "8"], "42 -0007 ff 10");
        check("%.3f %e", &["3.14159", "1234.5"], "3.142 1.234500e+03");
        check("%s\\n", &["a", "b", "c"], "a\nb\nc\n");
        check("%c%c", &["hello", "world"], "hw");
        check("%d", &["'A"], "65");
        check("%b", &["a\\tb"], "a\tb");
        check("%q", &["a b'c"], "a\\ b\\'c");
        check("%g %g", &["0.0001", "123456789"], "0.0001 1.23457e+08");
    }
}
