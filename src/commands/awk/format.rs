//! Number formatting as C's printf does it (`%d %i %o %x %X %u %c %e %E %f %F %g %G %s`
//! with flags, width, precision and `*`), and awk's number-to-string rules.

/// C's `%e` body: `d.ddddde+XX`.
pub fn fmt_e(x: f64, prec: usize, upper: bool) -> String {
    if !x.is_finite() {
        return non_finite(x, upper);
    }
    let s = format!("{:.*e}", prec, x);
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    let e = if upper { 'E' } else { 'e' };
    format!("{mant}{e}{sign}{:02}", exp.abs())
}

fn non_finite(x: f64, upper: bool) -> String {
    let s = if x.is_nan() {
        if x.is_sign_negative() { "-nan" } else { "nan" }
    } else if x > 0.0 {
        "inf"
    } else {
        "-inf"
    };
    if upper {
        s.to_uppercase()
    } else {
        s.to_owned()
    }
}

pub fn fmt_f(x: f64, prec: usize) -> String {
    if !x.is_finite() {
        return non_finite(x, false);
    }
    format!("{:.*}", prec, x)
}

/// C's `%g`.
pub fn fmt_g(x: f64, prec: usize, upper: bool, alt: bool) -> String {
    if !x.is_finite() {
        return non_finite(x, upper);
    }
    let p = if prec == 0 { 1 } else { prec };
    let exp = if x == 0.0 {
        0
    } else {
        let e = fmt_e(x, p - 1, false);
        e.rsplit_once('e')
            .and_then(|(_, ex)| ex.parse::<i32>().ok())
            .unwrap_or(0)
    };
    let mut s = if exp < -4 || exp >= p as i32 {
        fmt_e(x, p - 1, upper)
    } else {
        fmt_f(x, (p as i32 - 1 - exp).max(0) as usize)
    };
    if !alt {
        // Strip trailing zeros of the fraction.
        let (body, exp_part) = match s.find(['e', 'E']) {
            Some(k) => (s[..k].to_owned(), s[k..].to_owned()),
            None => (s.clone(), String::new()),
        };
        let body = if body.contains('.') {
            body.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            body
        };
        s = format!("{body}{exp_part}");
    }
    s
}

/// awk's conversion of a number to a string: integers print as integers, other values
/// through `fmt` (CONVFMT or OFMT).
pub fn num_to_str(x: f64, fmt: &str) -> String {
    if x.is_finite() && x == x.trunc() && x.abs() < 1e30 {
        if x == 0.0 {
            return "0".to_owned();
        }
        return format!("{x:.0}");
    }
    if fmt == "%.6g" {
        return fmt_g(x, 6, false, false);
    }
    sprintf(fmt, &[Arg::Num(x)])
}

/// A printf argument.
pub enum Arg {
    Num(f64),
    Str(String),
    /// A value that is both (strnum or uninitialised), given as (text, number).
    Both(String, f64),
}

impl Arg {
    fn num(&self) -> f64 {
        match self {
            Arg::Num(n) | Arg::Both(_, n) => *n,
            Arg::Str(s) => super::interp::str_to_num(s),
        }
    }
    fn text(&self) -> String {
        match self {
            Arg::Num(n) => num_to_str(*n, "%.6g"),
            Arg::Str(s) | Arg::Both(s, _) => s.clone(),
        }
    }
}

fn pad(body: String, width: usize, left: bool, zero: bool) -> String {
    let n = body.chars().count();
    if n >= width {
        return body;
    }
    let fill = width - n;
    if left {
        format!("{body}{}", " ".repeat(fill))
    } else if zero {
        // Zeros go after the sign (and 0x prefix).
        let (sign, rest) = if body.starts_with(['-', '+', ' ']) {
            body.split_at(1)
        } else {
            ("", body.as_str())
        };
        let (prefix, digits) = if rest.starts_with("0x") || rest.starts_with("0X") {
            rest.split_at(2)
        } else {
            ("", rest)
        };
        format!("{sign}{prefix}{}{digits}", "0".repeat(fill))
    } else {
        format!("{}{body}", " ".repeat(fill))
    }
}

/// awk's `sprintf`.
pub fn sprintf(fmt: &str, args: &[Arg]) -> String {
    let cs: Vec<char> = fmt.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    let mut next_arg = 0;
    let take = |next_arg: &mut usize| -> Option<&Arg> {
        let a = args.get(*next_arg);
        *next_arg += 1;
        a
    };
    while let Some(&c) = cs.get(i) {
        i += 1;
        if c != '%' {
            out.push(c);
            continue;
        }
        let start = i - 1;
        let (mut left, mut plus, mut space, mut alt, mut zero) =
            (false, false, false, false, false);
        while let Some(&f) = cs.get(i) {
            match f {
                '-' => left = true,
                '+' => plus = true,
                ' ' => space = true,
                '#' => alt = true,
                '0' => zero = true,
                _ => break,
            }
            i += 1;
        }
        let mut width = 0usize;
        if cs.get(i) == Some(&'*') {
            i += 1;
            let w = take(&mut next_arg).map_or(0.0, Arg::num) as i64;
            if w < 0 {
                left = true;
            }
            width = w.unsigned_abs() as usize;
        } else {
            while let Some(d) = cs.get(i).and_then(|c| c.to_digit(10)) {
                width = width.saturating_mul(10).saturating_add(d as usize);
                i += 1;
            }
        }
        let mut prec: Option<usize> = None;
        if cs.get(i) == Some(&'.') {
            i += 1;
            if cs.get(i) == Some(&'*') {
                i += 1;
                let p = take(&mut next_arg).map_or(0.0, Arg::num) as i64;
                prec = (p >= 0).then_some(p as usize);
            } else {
                let mut p = 0usize;
                while let Some(d) = cs.get(i).and_then(|c| c.to_digit(10)) {
                    p = p.saturating_mul(10).saturating_add(d as usize);
                    i += 1;
                }
                prec = Some(p);
            }
        }
        // Length modifiers mean nothing to awk.
        while matches!(cs.get(i), Some('h' | 'l' | 'L' | 'q' | 'j' | 'z' | 't')) {
            i += 1;
        }
        let Some(&conv) = cs.get(i) else {
            out.extend(cs.get(start..).unwrap_or(&[]).iter());
            break;
        };
        i += 1;
        let sign = |neg: bool| {
            if neg {
                "-"
            } else if plus {
                "+"
            } else if space {
                " "
            } else {
                ""
            }
        };
        let body = match conv {
            '%' => {
                out.push('%');
                continue;
            }
            'd' | 'i' => {
                let x = take(&mut next_arg).map_or(0.0, Arg::num);
                if !x.is_finite() {
                    pad(non_finite(x, false), width, left, false)
                } else {
                    let t = x.trunc();
                    let mut digits = format!("{:.0}", t.abs());
                    if let Some(p) = prec {
                        if p == 0 && t == 0.0 {
                            digits.clear();
                        }
                        while digits.len() < p {
                            digits.insert(0, '0');
                        }
                    }
                    let body = format!("{}{digits}", sign(t < 0.0));
                    pad(body, width, left, zero && prec.is_none())
                }
            }
            'o' | 'x' | 'X' | 'u' => {
                let x = take(&mut next_arg).map_or(0.0, Arg::num);
                let v = if x < 0.0 {
                    (x.trunc() as i64) as u64
                } else {
                    x.trunc() as u64
                };
                let mut digits = match conv {
                    'o' => format!("{v:o}"),
                    'x' => format!("{v:x}"),
                    'X' => format!("{v:X}"),
                    _ => v.to_string(),
                };
                if let Some(p) = prec {
                    if p == 0 && v == 0 {
                        digits.clear();
                    }
                    while digits.len() < p {
                        digits.insert(0, '0');
                    }
                }
                if alt && v != 0 {
                    match conv {
                        'o' if !digits.starts_with('0') => digits.insert(0, '0'),
                        'x' => digits.insert_str(0, "0x"),
                        'X' => digits.insert_str(0, "0X"),
                        _ => {}
                    }
                }
                pad(digits, width, left, zero && prec.is_none())
            }
            'e' | 'E' | 'f' | 'F' | 'g' | 'G' => {
                let x = take(&mut next_arg).map_or(0.0, Arg::num);
                let p = prec.unwrap_or(6);
                let mut body = match conv {
                    'e' | 'E' => fmt_e(x.abs(), p, conv == 'E'),
                    'f' | 'F' => fmt_f(x.abs(), p),
                    _ => fmt_g(x.abs(), p, conv == 'G', alt),
                };
                if alt && p == 0 && matches!(conv, 'f' | 'F' | 'e' | 'E') && !body.contains('.') {
                    match body.find(['e', 'E']) {
                        Some(k) => body.insert(k, '.'),
                        None => body.push('.'),
                    }
                }
                let neg = x.is_sign_negative() && !x.is_nan();
                let body = format!("{}{body}", sign(neg));
                pad(body, width, left, zero && x.is_finite())
            }
            'c' => {
                let a = take(&mut next_arg);
                let s = match a {
                    Some(Arg::Num(n)) => {
                        let code = *n as u32;
                        if code < 256 {
                            crate::text::raw_char(code as u8).to_string()
                        } else {
                            char::from_u32(code).map(String::from).unwrap_or_default()
                        }
                    }
                    Some(a) => a
                        .text()
                        .chars()
                        .next()
                        .map(String::from)
                        .unwrap_or_default(),
                    None => String::new(),
                };
                pad(s, width, left, false)
            }
            's' => {
                let mut s = take(&mut next_arg).map_or(String::new(), Arg::text);
                if let Some(p) = prec {
                    s = s.chars().take(p).collect();
                }
                pad(s, width, left, false)
            }
            _ => {
                // Unknown conversions print as written.
                out.extend(cs.get(start..i).unwrap_or(&[]).iter());
                continue;
            }
        };
        out.push_str(&body);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_formats() {
        assert_eq!(fmt_g(0.0001, 6, false, false), "0.0001");
        assert_eq!(fmt_g(12345.678, 6, false, false), "12345.7");
        assert_eq!(fmt_g(1e-5, 6, false, false), "1e-05");
        assert_eq!(fmt_g(1234567.0, 6, false, false), "1.23457e+06");
        assert_eq!(fmt_g(0.1 + 0.2, 6, false, false), "0.3");
        assert_eq!(fmt_e(12345.678, 6, false), "1.234568e+04");
        assert_eq!(num_to_str(1e16, "%.6g"), "10000000000000000");
        assert_eq!(num_to_str(-3.0, "%.6g"), "-3");
        assert_eq!(
            sprintf(
                "%5.2f|%-5d|%x|%c|%c|%e|%g|%s|%05d|%+d|%.3s|%%",
                &[
                    Arg::Num(3.25),
                    Arg::Num(42.0),
                    Arg::Num(255.0),
                    Arg::Num(65.0),
                    Arg::Str("hi".into()),
                    Arg::Num(12345.678),
                    Arg::Num(0.0001),
                    Arg::Str("s".into()),
                    Arg::Num(-42.0),
                    Arg::Num(5.0),
                    Arg::Str("abcdef".into()),
                ]
            ),
            " 3.25|42   |ff|A|h|1.234568e+04|0.0001|s|-0042|+5|abc|%"
        );
    }
}
