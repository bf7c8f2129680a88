//! bc numbers: arbitrary-precision decimals with a scale (digits after the point), and
//! the arithmetic of GNU bc's number library — results are truncated, never rounded,
//! to the scales POSIX bc prescribes for each operator.

use std::cmp::Ordering;

use num_bigint::{BigInt, Sign};
use num_traits::{One, Signed, ToPrimitive, Zero};

/// A decimal number: `mant / 10^scale`.
#[derive(Clone, Debug, Default)]
pub struct Num {
    pub mant: BigInt,
    pub scale: usize,
}

fn pow10(n: usize) -> BigInt {
    num_traits::pow(BigInt::from(10u8), n)
}

impl Num {
    pub fn zero() -> Num {
        Num::default()
    }

    pub fn one() -> Num {
        Num::from_i64(1)
    }

    pub fn from_i64(v: i64) -> Num {
        Num {
            mant: BigInt::from(v),
            scale: 0,
        }
    }

    pub fn is_zero(&self) -> bool {
        self.mant.is_zero()
    }

    pub fn is_neg(&self) -> bool {
        self.mant.sign() == Sign::Minus
    }

    /// The same value with `scale` digits after the point (truncating or padding).
    pub fn rescale(&self, scale: usize) -> Num {
        let mant = match scale.cmp(&self.scale) {
            Ordering::Equal => self.mant.clone(),
            Ordering::Greater => &self.mant * pow10(scale - self.scale),
            Ordering::Less => &self.mant / pow10(self.scale - scale),
        };
        Num { mant, scale }
    }

    /// The integer part (truncated toward zero).
    pub fn trunc(&self) -> BigInt {
        &self.mant / pow10(self.scale)
    }

    /// The digits of the magnitude: integer part (`"0"` when it is zero) and exactly
    /// `scale` fraction digits.
    pub fn digits(&self) -> (String, String) {
        let s = self.mant.abs().to_string();
        let s = if s.len() <= self.scale {
            format!("{}{s}", "0".repeat(self.scale + 1 - s.len()))
        } else {
            s
        };
        let (i, f) = s.split_at(s.len() - self.scale);
        (i.to_owned(), f.to_owned())
    }

    /// GNU's `n_len`: how many integer digits the number has (at least one).
    pub fn n_len(&self) -> usize {
        self.digits().0.len()
    }

    /// `length()`: significant digits (a number below one does not count its zero).
    pub fn length(&self) -> usize {
        let (int, _) = self.digits();
        if int == "0" && self.scale != 0 {
            self.scale
        } else {
            int.len() + self.scale
        }
    }

    /// GNU's `bc_num2long`: the integer part as an `i64`, or 0 when it does not fit.
    pub fn to_long(&self) -> i64 {
        self.trunc().to_i64().unwrap_or(0)
    }

    /// Whether the integer part is zero.
    pub fn int_is_zero(&self) -> bool {
        self.trunc().is_zero()
    }

    pub fn neg(&self) -> Num {
        Num {
            mant: -&self.mant,
            scale: self.scale,
        }
    }

    pub fn cmp(&self, other: &Num) -> Ordering {
        let s = self.scale.max(other.scale);
        self.rescale(s).mant.cmp(&other.rescale(s).mant)
    }

    pub fn add(&self, other: &Num, scale_min: usize) -> Num {
        let s = self.scale.max(other.scale).max(scale_min);
        Num {
            mant: self.rescale(s).mant + other.rescale(s).mant,
            scale: s,
        }
    }

    pub fn sub(&self, other: &Num, scale_min: usize) -> Num {
        let s = self.scale.max(other.scale).max(scale_min);
        Num {
            mant: self.rescale(s).mant - other.rescale(s).mant,
            scale: s,
        }
    }

    pub fn mul(&self, other: &Num, scale: usize) -> Num {
        let full = self.scale + other.scale;
        let prod_scale = full.min(scale.max(self.scale).max(other.scale));
        Num {
            mant: &self.mant * &other.mant,
            scale: full,
        }
        .rescale(prod_scale)
    }

    /// Quotient truncated to `scale` digits; `None` when dividing by zero.
    pub fn div(&self, other: &Num, scale: usize) -> Option<Num> {
        if other.is_zero() {
            return None;
        }
        let num = &self.mant * pow10(other.scale + scale);
        let den = &other.mant * pow10(self.scale);
        Some(Num {
            mant: num / den,
            scale,
        })
    }

    /// `a % b`: `a - (a / b) * b` with the quotient at `scale` and the rest at
    /// `max(scale(a), scale(b) + scale)`.
    pub fn modulo(&self, other: &Num, scale: usize) -> Option<Num> {
        let rscale = self.scale.max(other.scale + scale);
        let q = self.div(other, scale)?;
        let t = q.mul(other, rscale);
        Some(self.sub(&t, rscale))
    }

    /// GNU's `_bc_do_compare` on magnitudes with `ignore_last`: equal when only the
    /// last digit of same-scale numbers differs (the square root's convergence test).
    fn cmp_ignore_last(&self, other: &Num) -> Ordering {
        let (i1, f1) = self.digits();
        let (i2, f2) = other.digits();
        if i1.len() != i2.len() {
            return i1.len().cmp(&i2.len());
        }
        let m = f1.len().min(f2.len());
        let a: Vec<u8> = i1.bytes().chain(f1.bytes().take(m)).collect();
        let b: Vec<u8> = i2.bytes().chain(f2.bytes().take(m)).collect();
        if let Some(k) = a.iter().zip(&b).position(|(x, y)| x != y) {
            if a.len() - k == 1 && self.scale == other.scale {
                return Ordering::Equal;
            }
            return a.get(k).cmp(&b.get(k));
        }
        if f1.len() > m && f1.bytes().skip(m).any(|d| d != b'0') {
            return Ordering::Greater;
        }
        if f2.len() > m && f2.bytes().skip(m).any(|d| d != b'0') {
            return Ordering::Less;
        }
        Ordering::Equal
    }

    /// GNU's Newton iteration for `sqrt` at `max(scale, scale(x))`; `None` for a
    /// negative number.
    pub fn sqrt(&self, scale: usize) -> Option<Num> {
        match self.cmp(&Num::zero()) {
            Ordering::Less => return None,
            Ordering::Equal => return Some(Num::zero()),
            Ordering::Greater => {}
        }
        let below_one = match self.cmp(&Num::one()) {
            Ordering::Equal => return Some(Num::one()),
            o => o == Ordering::Less,
        };
        let rscale = scale.max(self.scale);
        let point5 = Num {
            mant: BigInt::from(5u8),
            scale: 1,
        };
        let (mut guess, mut cscale) = if below_one {
            (Num::one(), self.scale)
        } else {
            let half = Num::from_i64(self.n_len() as i64).mul(&point5, 0);
            let exp = half.trunc();
            let e = exp.to_usize().unwrap_or(0);
            (
                Num {
                    mant: pow10(e),
                    scale: 0,
                },
                3,
            )
        };
        loop {
            let guess1 = guess.clone();
            guess = self.div(&guess, cscale)?;
            guess = guess.add(&guess1, 0);
            guess = guess.mul(&point5, cscale);
            if guess.cmp_ignore_last(&guess1) == Ordering::Equal {
                if cscale < rscale + 1 {
                    cscale = (cscale * 3).min(rscale + 1);
                } else {
                    break;
                }
            }
        }
        guess.div(&Num::one(), rscale)
    }
}

/// Why `^` failed.
pub enum RaiseError {
    TooLarge,
}

/// `a ^ b` (b's fraction ignored): the result and whether `b` had a fraction (GNU
/// warns). Negative powers divide at `scale`; a zero base with a negative exponent
/// gives zero here and is reported by the caller.
pub fn raise(base: &Num, expo: &Num, scale: usize) -> Result<(Num, bool), RaiseError> {
    let warn = expo.scale != 0;
    let exponent = expo.to_long();
    if exponent == 0 && !expo.int_is_zero() {
        return Err(RaiseError::TooLarge);
    }
    if exponent == 0 {
        return Ok((Num::one(), warn));
    }
    let neg = exponent < 0;
    let e = exponent.unsigned_abs();
    // Keep results within what a sandbox can hold.
    let digits = (base.n_len() + base.scale) as u128 * u128::from(e);
    if digits > 20_000_000 {
        return Err(RaiseError::TooLarge);
    }
    let e32 = u32::try_from(e).map_err(|_| RaiseError::TooLarge)?;
    let exact = Num {
        mant: num_traits::pow(base.mant.clone(), e32 as usize),
        scale: base.scale * e32 as usize,
    };
    if neg {
        let r = Num::one().div(&exact, scale).unwrap_or_else(Num::zero);
        return Ok((r, warn));
    }
    let rscale = (base.scale.saturating_mul(e32 as usize)).min(scale.max(base.scale));
    let r = if exact.scale > rscale {
        exact.rescale(rscale)
    } else {
        exact
    };
    Ok((r, warn))
}

/// Digit values of a constant as the compiler stores them: 0-35 for `0-9A-Z`, and
/// `None` for the point.
pub type ConstDigits = Vec<Option<u8>>;

/// Converts a constant at run time in input base `base` (GNU's `push_b10_const` and
/// `push_constant`: single digits keep their value, digits of longer numbers are
/// clamped below the base).
pub fn constant(digits: &ConstDigits, base: u32) -> Num {
    let int: Vec<u8> = digits.iter().map_while(|d| *d).collect();
    let frac: Vec<u8> = digits
        .iter()
        .skip_while(|d| d.is_some())
        .skip(1)
        .filter_map(|d| *d)
        .collect();
    let has_point = digits.iter().any(Option::is_none);
    if base == 10 {
        if int.len() == 1 && !has_point {
            return Num::from_i64(i64::from(int.first().copied().unwrap_or(0)));
        }
        let text: String = int
            .iter()
            .chain(frac.iter())
            .map(|&d| char::from(b'0' + d.min(9)))
            .collect();
        let mant = text.parse::<BigInt>().unwrap_or_default();
        return Num {
            mant,
            scale: frac.len(),
        };
    }
    let b = u8::try_from(base).unwrap_or(16);
    let mult = BigInt::from(base);
    let mut build = BigInt::zero();
    let mut it = int.iter().copied().peekable();
    if let Some(first) = it.next() {
        let more = it.peek().is_some();
        let v = if more && first >= b { b - 1 } else { first };
        build = BigInt::from(v);
    }
    for d in it {
        let d = if d >= b { b - 1 } else { d };
        build = build * &mult + BigInt::from(d);
    }
    let mut result = Num {
        mant: build,
        scale: 0,
    };
    if !frac.is_empty() {
        let mut f = BigInt::zero();
        let mut divisor = BigInt::one();
        for &d in &frac {
            let d = if d >= b { b - 1 } else { d };
            f = f * &mult + BigInt::from(d);
            divisor *= &mult;
        }
        let q = Num { mant: f, scale: 0 }
            .div(
                &Num {
                    mant: divisor,
                    scale: 0,
                },
                frac.len(),
            )
            .unwrap_or_default();
        result = result.add(&q, 0);
    }
    result
}

/// GNU's `bc_out_num` minus line breaking: the characters of `n` in base `obase`.
pub fn format(n: &Num, obase: u64) -> String {
    let mut out = String::new();
    if n.is_neg() {
        out.push('-');
    }
    if n.is_zero() {
        out.push('0');
        return out;
    }
    if obase == 10 {
        let (int, frac) = n.digits();
        if int != "0" {
            out.push_str(&int);
        }
        if n.scale > 0 {
            out.push('.');
            out.push_str(&frac);
        }
        return out;
    }
    let base = BigInt::from(obase);
    let int_part = n.trunc().abs();
    let width = (obase - 1).to_string().len();
    let digit = |d: u64, out: &mut String, space: bool| {
        if obase <= 16 {
            out.push(char::from(
                b"0123456789ABCDEF".get(d as usize).copied().unwrap_or(b'?'),
            ));
        } else {
            if space {
                out.push(' ');
            }
            out.push_str(&format!("{d:0width$}"));
        }
    };
    if !int_part.is_zero() {
        if obase <= 16 {
            out.push_str(&int_part.to_str_radix(obase as u32).to_ascii_uppercase());
        } else {
            let mut stack = Vec::new();
            let mut v = int_part;
            while !v.is_zero() {
                stack.push((&v % &base).to_u64().unwrap_or(0));
                v /= &base;
            }
            for d in stack.iter().rev() {
                digit(*d, &mut out, true);
            }
        }
    }
    if n.scale > 0 {
        out.push('.');
        let int = Num {
            mant: n.trunc(),
            scale: 0,
        };
        let mut frac = n.sub(&int, 0);
        frac.mant = frac.mant.abs();
        let base_num = Num {
            mant: base.clone(),
            scale: 0,
        };
        let mut t = BigInt::one();
        let mut first = true;
        // One digit per power of the base until it has more integer digits than
        // the number has fraction digits.
        while t.to_string().len() <= n.scale {
            frac = frac.mul(&base_num, n.scale);
            let d = frac.trunc();
            let dv = d.to_u64().unwrap_or(0);
            frac = frac.sub(&Num { mant: d, scale: 0 }, 0);
            digit(dv, &mut out, !first);
            first = false;
            t *= &base;
        }
    }
    out
}
