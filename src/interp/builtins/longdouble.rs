//! printf's floating conversions as bash does them: arguments read with `strtold` into
//! x86-64's 80-bit extended format (a 64-bit mantissa, rounded to nearest-even) and
//! printed as glibc prints a `long double` (`%f %e %g %a`), from the exact binary value
//! with exact big-integer decimal conversion.

use std::cmp::Ordering;

/// The smallest exponent of a mantissa's last bit (that of the smallest subnormal).
const MIN_LSB: i64 = -16445;
/// The largest unbiased exponent of a finite value.
const MAX_EXP: i64 = 16383;

/// A `long double`: `mant × 2^exp` when finite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LongDouble {
    pub neg: bool,
    pub kind: Kind,
    pub mant: u64,
    pub exp: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Finite,
    Inf,
    Nan,
}

impl LongDouble {
    pub fn zero() -> LongDouble {
        LongDouble {
            neg: false,
            kind: Kind::Finite,
            mant: 0,
            exp: 0,
        }
    }

    pub fn from_u64(v: u64) -> LongDouble {
        let mut big = Big::from_u64(v);
        let (mant, exp, _) = round_to_extended(&mut big, 0, false);
        LongDouble {
            neg: false,
            kind: Kind::Finite,
            mant,
            exp,
        }
    }

    fn inf(neg: bool) -> LongDouble {
        LongDouble {
            neg,
            kind: Kind::Inf,
            mant: 0,
            exp: 0,
        }
    }
}

/// What `strtold` made of a string: the value, how many bytes it read, and whether
/// the result was out of range (`ERANGE`).
pub struct Parsed {
    pub value: LongDouble,
    pub end: usize,
    pub erange: bool,
}

/// An unsigned big integer, 32-bit limbs, least significant first, no high zero limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    fn bits(&self) -> i64 {
        match self.0.last() {
            None => 0,
            Some(&top) => (self.0.len() as i64 - 1) * 32 + (32 - top.leading_zeros() as i64),
        }
    }

    fn bit(&self, i: i64) -> bool {
        if i < 0 {
            return false;
        }
        let (limb, b) = ((i / 32) as usize, i % 32);
        self.0.get(limb).is_some_and(|l| l >> b & 1 == 1)
    }

    /// Whether any bit below `n` is set.
    fn any_below(&self, n: i64) -> bool {
        if n <= 0 {
            return false;
        }
        let full = (n / 32) as usize;
        if self.0.iter().take(full).any(|&l| l != 0) {
            return true;
        }
        let rem = n % 32;
        rem > 0
            && self
                .0
                .get(full)
                .is_some_and(|&l| l & ((1u32 << rem) - 1) != 0)
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for l in &mut self.0 {
            let v = u64::from(*l) * u64::from(m) + carry;
            *l = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
        self.trim();
    }

    fn add_small(&mut self, a: u32) {
        let mut carry = u64::from(a);
        for l in &mut self.0 {
            if carry == 0 {
                break;
            }
            let v = u64::from(*l) + carry;
            *l = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow5(&mut self, mut k: u64) {
        while k >= 13 {
            self.mul_small(1_220_703_125);
            k -= 13;
        }
        if k > 0 {
            self.mul_small(5u32.pow(k as u32));
        }
    }

    fn shl(&mut self, n: i64) {
        if n <= 0 || self.is_zero() {
            return;
        }
        let (limbs, b) = ((n / 32) as usize, (n % 32) as u32);
        if b > 0 {
            let mut carry = 0u32;
            for l in &mut self.0 {
                let v = *l;
                *l = (v << b) | carry;
                carry = v >> (32 - b);
            }
            if carry > 0 {
                self.0.push(carry);
            }
        }
        if limbs > 0 {
            self.0.splice(0..0, std::iter::repeat_n(0, limbs));
        }
    }

    fn shr(&self, n: i64) -> Big {
        if n <= 0 {
            return self.clone();
        }
        let (limbs, b) = ((n / 32) as usize, (n % 32) as u32);
        let src = self.0.get(limbs..).unwrap_or_default();
        let mut out = Vec::with_capacity(src.len());
        for (i, &l) in src.iter().enumerate() {
            let hi = src.get(i + 1).copied().unwrap_or(0);
            out.push(if b == 0 {
                l
            } else {
                (l >> b) | (hi << (32 - b))
            });
        }
        let mut r = Big(out);
        r.trim();
        r
    }

    fn low_u64(&self) -> u64 {
        u64::from(self.0.first().copied().unwrap_or(0))
            | (u64::from(self.0.get(1).copied().unwrap_or(0)) << 32)
    }

    fn cmp_big(&self, o: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&o.0.len())
            .then_with(|| self.0.iter().rev().cmp(o.0.iter().rev()))
    }

    /// `self -= o`, with `self >= o`.
    fn sub_assign(&mut self, o: &Big) {
        let mut borrow = 0i64;
        for (i, l) in self.0.iter_mut().enumerate() {
            let v = i64::from(*l) - i64::from(o.0.get(i).copied().unwrap_or(0)) - borrow;
            if v < 0 {
                *l = (v + (1 << 32)) as u32;
                borrow = 1;
            } else {
                *l = v as u32;
                borrow = 0;
            }
        }
        self.trim();
    }

    fn divmod_small(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for l in self.0.iter_mut().rev() {
            let v = (rem << 32) | u64::from(*l);
            *l = (v / u64::from(d)) as u32;
            rem = v % u64::from(d);
        }
        self.trim();
        rem as u32
    }

    /// The decimal digits (ASCII), "0" for zero.
    fn to_decimal(&self) -> Vec<u8> {
        if self.is_zero() {
            return b"0".to_vec();
        }
        let mut n = self.clone();
        let mut chunks = Vec::new();
        while !n.is_zero() {
            chunks.push(n.divmod_small(1_000_000_000));
        }
        let mut out = Vec::with_capacity(chunks.len() * 9);
        for (i, c) in chunks.iter().rev().enumerate() {
            let s = if i == 0 {
                c.to_string()
            } else {
                format!("{c:09}")
            };
            out.extend_from_slice(s.as_bytes());
        }
        out
    }

    /// The quotient of `self / d` (few bits, by shift and subtract) and whether a
    /// remainder is left.
    fn div_small_quotient(mut self, d: &Big) -> (Big, bool) {
        let shift = self.bits() - d.bits();
        let mut q = Big(Vec::new());
        if shift < 0 {
            return (q, !self.is_zero());
        }
        let mut dd = d.clone();
        dd.shl(shift);
        let mut bit = shift;
        while bit >= 0 {
            q.shl(1);
            if self.cmp_big(&dd) != Ordering::Less {
                self.sub_assign(&dd);
                q.add_small(1);
            }
            dd = dd.shr(1);
            bit -= 1;
        }
        (q, !self.is_zero())
    }
}

/// Rounds `q × 2^be` (with `sticky`: a little more than that) to the extended format,
/// to nearest-even; returns the mantissa, its exponent and whether it is inexact.
/// The caller has checked that the value is in range or handles overflow from the
/// returned exponent.
fn round_to_extended(q: &mut Big, be: i64, sticky: bool) -> (u64, i64, bool) {
    if q.is_zero() {
        return (0, 0, sticky);
    }
    let nb = q.bits();
    let ue = nb - 1 + be;
    let lsb = (ue - 63).max(MIN_LSB);
    let shift = lsb - be;
    if shift <= 0 {
        let mut m = q.clone();
        m.shl(-shift);
        return (m.low_u64(), lsb, sticky);
    }
    let mut mant = q.shr(shift).low_u64();
    let half = q.bit(shift - 1);
    let rest = sticky || q.any_below(shift - 1);
    let mut lsb = lsb;
    if half && (rest || mant & 1 == 1) {
        match mant.checked_add(1) {
            Some(m) => mant = m,
            None => {
                mant = 1 << 63;
                lsb += 1;
            }
        }
    }
    (mant, lsb, half || rest)
}

/// A finite value from `q × 2^be`, with overflow to infinity and `ERANGE` as glibc
/// sets it (overflow, or a result below the normal range that is inexact).
fn finish(neg: bool, mut q: Big, be: i64, sticky: bool) -> (LongDouble, bool) {
    if q.is_zero() {
        let mut z = LongDouble::zero();
        z.neg = neg;
        return (z, false);
    }
    if q.bits() + be > MAX_EXP + 2 {
        return (LongDouble::inf(neg), true);
    }
    if q.bits() + be < MIN_LSB - 2 {
        let mut z = LongDouble::zero();
        z.neg = neg;
        return (z, true);
    }
    let (mant, exp, inexact) = round_to_extended(&mut q, be, sticky);
    if mant != 0 && 64 - i64::from(mant.leading_zeros()) - 1 + exp > MAX_EXP {
        return (LongDouble::inf(neg), true);
    }
    let tiny = mant >> 63 == 0;
    (
        LongDouble {
            neg,
            kind: Kind::Finite,
            mant,
            exp,
        },
        tiny && inexact,
    )
}

/// glibc's `strtold` on `s` (C locale).
pub fn strtold(s: &str) -> Parsed {
    let b = s.as_bytes();
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut i = 0;
    while matches!(at(i), b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        i += 1;
    }
    let mut neg = false;
    if at(i) == b'+' || at(i) == b'-' {
        neg = at(i) == b'-';
        i += 1;
    }
    let none = Parsed {
        value: LongDouble::zero(),
        end: 0,
        erange: false,
    };
    let lower_at = |i: usize, w: &str| {
        b.get(i..i + w.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(w.as_bytes()))
    };
    if lower_at(i, "inf") {
        let end = if lower_at(i, "infinity") {
            i + 8
        } else {
            i + 3
        };
        return Parsed {
            value: LongDouble::inf(neg),
            end,
            erange: false,
        };
    }
    if lower_at(i, "nan") {
        let mut end = i + 3;
        if at(end) == b'(' {
            let mut j = end + 1;
            while at(j).is_ascii_alphanumeric() || at(j) == b'_' {
                j += 1;
            }
            if at(j) == b')' {
                end = j + 1;
            }
        }
        return Parsed {
            value: LongDouble {
                neg,
                kind: Kind::Nan,
                mant: 0,
                exp: 0,
            },
            end,
            erange: false,
        };
    }
    let hex = at(i) == b'0'
        && (at(i + 1) | 0x20) == b'x'
        && (at(i + 2).is_ascii_hexdigit() || (at(i + 2) == b'.' && at(i + 3).is_ascii_hexdigit()));
    let (radix, digit_start) = if hex { (16u32, i + 2) } else { (10, i) };
    let mut j = digit_start;
    let mut big = Big(Vec::new());
    let (mut ndigits, mut frac_digits) = (0usize, 0i64);
    let mut seen_point = false;
    loop {
        let c = at(j);
        if let Some(d) = (c as char).to_digit(radix) {
            if !(big.is_zero() && d == 0) {
                big.mul_small(radix);
                big.add_small(d);
            }
            ndigits += 1;
            if seen_point {
                frac_digits += 1;
            }
        } else if c == b'.' && !seen_point {
            seen_point = true;
        } else {
            break;
        }
        j += 1;
    }
    if ndigits == 0 {
        return none;
    }
    let mut exp10: i64 = 0;
    let marker = if hex { b'p' } else { b'e' };
    if (at(j) | 0x20) == marker {
        let mut k = j + 1;
        let eneg = at(k) == b'-';
        if at(k) == b'+' || at(k) == b'-' {
            k += 1;
        }
        if at(k).is_ascii_digit() {
            let mut e: i64 = 0;
            while at(k).is_ascii_digit() {
                e = (e * 10 + i64::from(at(k) - b'0')).min(1 << 40);
                k += 1;
            }
            exp10 = if eneg { -e } else { e };
            j = k;
        }
    }
    let (value, erange) = if hex {
        finish(neg, big, exp10 - 4 * frac_digits, false)
    } else {
        decimal_value(neg, big, exp10 - frac_digits)
    };
    Parsed {
        value,
        end: j,
        erange,
    }
}

/// `d × 10^e10` rounded to the extended format.
fn decimal_value(neg: bool, d: Big, e10: i64) -> (LongDouble, bool) {
    if d.is_zero() {
        return finish(neg, d, 0, false);
    }
    // Decimal digits of d, roughly: bits × log10(2).
    let mag = d.bits() * 30103 / 100_000 + e10;
    if mag > 4935 {
        return (LongDouble::inf(neg), true);
    }
    if mag < -4955 {
        let mut z = LongDouble::zero();
        z.neg = neg;
        return (z, true);
    }
    if e10 >= 0 {
        let mut n = d;
        n.mul_pow5(e10 as u64);
        return finish(neg, n, e10, false);
    }
    let k = -e10;
    let mut m = Big::from_u64(1);
    m.mul_pow5(k as u64);
    let sh = d.bits() - m.bits() - 66;
    let mut n = d;
    if sh < 0 {
        n.shl(-sh);
    } else {
        m.shl(sh);
    }
    let (q, sticky) = n.div_small_quotient(&m);
    finish(neg, q, sh - k, sticky)
}

/// The exact decimal value of a finite `mant × 2^exp`: digits (no leading zeros, "0"
/// for zero) and the power of ten of the last one.
fn exact_decimal(mant: u64, exp: i64) -> (Vec<u8>, i64) {
    let mut n = Big::from_u64(mant);
    if n.is_zero() {
        return (b"0".to_vec(), 0);
    }
    let (digits, mut e10) = if exp >= 0 {
        n.shl(exp);
        (n.to_decimal(), 0)
    } else {
        n.mul_pow5((-exp) as u64);
        (n.to_decimal(), exp)
    };
    let mut digits = digits;
    while digits.len() > 1 && digits.last() == Some(&b'0') {
        digits.pop();
        e10 += 1;
    }
    (digits, e10)
}

/// Rounds a digit string to nearest-even after dropping its last `drop` digits;
/// the result may be one digit longer (a carry), or "0".
fn round_drop(digits: &[u8], drop: usize) -> Vec<u8> {
    let n = digits.len();
    if drop == 0 {
        return digits.to_vec();
    }
    if drop > n {
        return b"0".to_vec();
    }
    let mut kept = digits[..n - drop].to_vec();
    let first = digits[n - drop];
    let rest_nonzero = digits[n - drop + 1..].iter().any(|&c| c != b'0');
    let last_odd = kept.last().is_some_and(|&c| (c - b'0') % 2 == 1);
    let up = first > b'5' || (first == b'5' && (rest_nonzero || last_odd));
    if up {
        let mut k = kept.len();
        loop {
            if k == 0 {
                kept.insert(0, b'1');
                break;
            }
            k -= 1;
            if kept[k] == b'9' {
                kept[k] = b'0';
            } else {
                kept[k] += 1;
                break;
            }
        }
    }
    if kept.is_empty() {
        kept.push(b'0');
    }
    kept
}

fn push_zeros(v: &mut Vec<u8>, n: usize) {
    v.extend(std::iter::repeat_n(b'0', n));
}

/// `%f`: the digits of a non-negative finite value with `prec` after the point.
fn format_f(digits: &[u8], e10: i64, prec: usize, alt: bool) -> String {
    let shift = e10 + prec as i64;
    let mut q = if shift >= 0 {
        let mut q = digits.to_vec();
        if q != b"0" {
            push_zeros(&mut q, shift as usize);
        }
        q
    } else {
        round_drop(digits, usize::try_from(-shift).unwrap_or(usize::MAX))
    };
    if q.len() <= prec {
        let mut z = vec![b'0'; prec + 1 - q.len()];
        z.extend_from_slice(&q);
        q = z;
    }
    let (int, frac) = q.split_at(q.len() - prec);
    let mut s = String::from_utf8_lossy(int).into_owned();
    if prec > 0 || alt {
        s.push('.');
    }
    s.push_str(&String::from_utf8_lossy(frac));
    s
}

/// The first `sig` significant digits, rounded, and the power of ten of the first.
fn significant(digits: &[u8], e10: i64, sig: usize) -> (Vec<u8>, i64) {
    if digits == b"0" {
        return (vec![b'0'; sig], 0);
    }
    let n = digits.len();
    let mut x = n as i64 - 1 + e10;
    let r = if n > sig {
        let mut r = round_drop(digits, n - sig);
        if r.len() > sig {
            r.truncate(sig);
            x += 1;
        }
        r
    } else {
        let mut r = digits.to_vec();
        push_zeros(&mut r, sig - n);
        r
    };
    (r, x)
}

fn format_e(digits: &[u8], e10: i64, prec: usize, alt: bool, upper: bool) -> String {
    let (r, x) = significant(digits, e10, prec + 1);
    let mut s = String::new();
    s.push(char::from(r[0]));
    if prec > 0 || alt {
        s.push('.');
    }
    s.push_str(&String::from_utf8_lossy(&r[1..]));
    s.push(if upper { 'E' } else { 'e' });
    s.push(if x < 0 { '-' } else { '+' });
    s.push_str(&format!("{:02}", x.unsigned_abs()));
    s
}

fn format_g(digits: &[u8], e10: i64, prec: Option<usize>, alt: bool, upper: bool) -> String {
    let p = match prec {
        None => 6,
        Some(0) => 1,
        Some(p) => p,
    };
    let (_, x) = significant(digits, e10, p);
    let x0 = if digits == b"0" {
        0
    } else {
        digits.len() as i64 - 1 + e10
    };
    let mut s = if x < p as i64 && x >= -4 {
        format_f(digits, e10, (p as i64 - 1 - x) as usize, alt)
    } else if x0 < p as i64 && x0 >= -4 {
        // glibc chose the `f` style before rounding carried into a new digit; it
        // then switches to `e` keeping the `f` style's digits after the point (none).
        format_e(digits, e10, 0, alt, upper)
    } else {
        format_e(digits, e10, p - 1, alt, upper)
    };
    if !alt {
        let (mant, exp) = match s.find(['e', 'E']) {
            Some(k) => (s[..k].to_owned(), s[k..].to_owned()),
            None => (s.clone(), String::new()),
        };
        let mant = if mant.contains('.') {
            mant.trim_end_matches('0').trim_end_matches('.').to_owned()
        } else {
            mant
        };
        s = format!("{mant}{exp}");
    }
    s
}

/// `%a`: glibc's form for the x86 extended format, whose leading hex digit holds the
/// mantissa's top four bits.
fn format_a(mant: u64, exp: i64, prec: Option<usize>, alt: bool, upper: bool) -> String {
    let (mut lead, mut x) = if mant == 0 {
        (0u64, 0i64)
    } else {
        (mant >> 60, exp + 60)
    };
    let hexd = |v: u64| {
        let c = char::from_digit((v & 0xf) as u32, 16).unwrap_or('0');
        if upper { c.to_ascii_uppercase() } else { c }
    };
    let mut frac: Vec<u64> = (0..15).map(|k| (mant >> (56 - 4 * k)) & 0xf).collect();
    match prec {
        None => {
            while frac.last() == Some(&0) {
                frac.pop();
            }
        }
        Some(p) if p < 15 => {
            let next = frac[p];
            let more = frac[p + 1..].iter().any(|&d| d != 0);
            let last = if p > 0 { frac[p - 1] } else { lead };
            frac.truncate(p);
            if next > 8 || (next == 8 && (more || last & 1 == 1)) {
                let mut k = p;
                let mut carry = true;
                while carry && k > 0 {
                    k -= 1;
                    frac[k] = (frac[k] + 1) & 0xf;
                    carry = frac[k] == 0;
                }
                if carry {
                    lead += 1;
                    if lead > 0xf {
                        lead = 1;
                        x += 4;
                    }
                }
            }
        }
        Some(p) => frac.resize(p, 0),
    }
    let mut s = String::from(if upper { "0X" } else { "0x" });
    s.push(hexd(lead));
    if !frac.is_empty() || alt {
        s.push('.');
    }
    s.extend(frac.iter().map(|&d| hexd(d)));
    s.push(if upper { 'P' } else { 'p' });
    s.push(if x < 0 { '-' } else { '+' });
    s.push_str(&x.unsigned_abs().to_string());
    s
}

/// Flags and sizes of one conversion.
pub struct FloatSpec {
    pub left: bool,
    pub plus: bool,
    pub space: bool,
    pub alt: bool,
    pub zero: bool,
    pub width: usize,
    pub prec: Option<usize>,
}

/// One floating conversion (`conv` one of `fFeEgGaA`) as glibc prints a long double.
pub fn format(v: &LongDouble, conv: char, spec: &FloatSpec) -> String {
    let upper = conv.is_ascii_uppercase();
    let sign = if v.neg {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    };
    let (body, numeric) = match v.kind {
        Kind::Inf => (if upper { "INF" } else { "inf" }.to_owned(), false),
        Kind::Nan => (if upper { "NAN" } else { "nan" }.to_owned(), false),
        Kind::Finite => {
            let lower = conv.to_ascii_lowercase();
            let body = if lower == 'a' {
                format_a(v.mant, v.exp, spec.prec, spec.alt, upper)
            } else {
                let (digits, e10) = exact_decimal(v.mant, v.exp);
                match lower {
                    'e' => format_e(&digits, e10, spec.prec.unwrap_or(6), spec.alt, upper),
                    'g' => format_g(&digits, e10, spec.prec, spec.alt, upper),
                    _ => format_f(&digits, e10, spec.prec.unwrap_or(6), spec.alt),
                }
            };
            (body, true)
        }
    };
    let len = sign.len() + body.len();
    if len >= spec.width {
        return format!("{sign}{body}");
    }
    let fill = spec.width - len;
    if spec.left {
        format!("{sign}{body}{}", " ".repeat(fill))
    } else if spec.zero && numeric {
        let (prefix, rest) = if body.starts_with("0x") || body.starts_with("0X") {
            body.split_at(2)
        } else {
            ("", body.as_str())
        };
        format!("{sign}{prefix}{}{rest}", "0".repeat(fill))
    } else {
        format!("{}{sign}{body}", " ".repeat(fill))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(fmt: char, prec: Option<usize>, arg: &str, want: &str) {
        let spec = FloatSpec {
            left: false,
            plus: false,
            space: false,
            alt: false,
            zero: false,
            width: 0,
            prec,
        };
        let v = strtold(arg).value;
        assert_eq!(format(&v, fmt, &spec), want, "%{fmt} of {arg}");
    }

    #[test]
    fn against_glibc() {
        check('f', Some(25), "0.1", "0.1000000000000000000013553");
        check('a', None, "12.5", "0xc.8p+0");
        check('a', None, "1", "0x8p-3");
        check('a', None, "-0.1", "-0xc.ccccccccccccccdp-7");
        check('a', None, "1e-4950", "0x0.000000000000003p-16385");
        check('A', None, "255.9999", "0XF.FFFF972474538EFP+4");
        check('a', Some(0), "1.96875", "0x1p+1");
        check('a', Some(2), "0x1.fffp0", "0x1.00p+1");
        check('f', Some(0), "0.5", "0");
        check('f', Some(0), "1.5", "2");
        check('f', Some(0), "2.5", "2");
        check('g', None, "100000", "100000");
        check('g', None, "1000000", "1e+06");
        check('g', None, "0.0001", "0.0001");
        check('e', None, "0", "0.000000e+00");
        check('f', None, "1e5000", "inf");
        check('g', Some(3), "999.5", "1e+03");
    }
}
