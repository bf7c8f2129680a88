//! The `-l` math library: `s c a l e j`, computed natively but step for step the way
//! POSIX bc's library routines are (series with argument reduction, the working scale
//! raised and the result truncated back to `scale`), so the digits agree with GNU bc.

use super::num::{Num, constant, raise};
use super::vm::{Native, Vm};

fn k(s: &str) -> Num {
    let digits = s
        .bytes()
        .map(|b| if b == b'.' { None } else { Some(b - b'0') })
        .collect();
    constant(&digits, 10)
}

fn int(n: i64) -> Num {
    Num::from_i64(n)
}

/// `scale = n`: the integer part, never negative.
fn as_scale(n: &Num) -> usize {
    usize::try_from(n.to_long()).unwrap_or(0)
}

fn div(a: &Num, b: &Num, s: usize) -> Option<Num> {
    a.div(b, s)
}

fn gt(a: &Num, b: &Num) -> bool {
    a.cmp(b).is_gt()
}

/// Runs a library function with the machine's current `scale`.
pub fn call(f: Native, args: &[Num], vm: &mut Vm) -> Option<Num> {
    let scale = usize::try_from(vm.scale).unwrap_or(0);
    let arg = |i: usize| args.get(i).cloned().unwrap_or_default();
    match f {
        Native::E => exp(arg(0), scale),
        Native::L => ln(arg(0), scale),
        Native::S => sin(arg(0), scale),
        Native::C => cos(arg(0), scale),
        Native::A => atan(arg(0), scale),
        Native::J => bessel(arg(0), arg(1), scale),
    }
}

/// e^x: halve x below 1, sum the series, square back.
fn exp(mut x: Num, scale: usize) -> Option<Num> {
    let m = x.is_neg();
    if m {
        x = x.neg();
    }
    let z = scale;
    let n = int(6).add(&int(z as i64), 0).add(&k(".44").mul(&x, z), 0);
    let mut s = x.scale + 1;
    let mut f = 0u64;
    while gt(&x, &Num::one()) {
        f += 1;
        x = div(&x, &int(2), s)?;
        s += 1;
    }
    s = as_scale(&n);
    let mut v = Num::one().add(&x, 0);
    let mut a = x.clone();
    let mut d = Num::one();
    let mut i = 2i64;
    loop {
        a = a.mul(&x, s);
        d = d.mul(&int(i), s);
        let e = div(&a, &d, s)?;
        if e.is_zero() {
            for _ in 0..f {
                v = v.mul(&v, s);
            }
            return if m {
                div(&Num::one(), &v, z)
            } else {
                div(&v, &Num::one(), z)
            };
        }
        v = v.add(&e, 0);
        i += 1;
    }
}

/// ln x: square roots bring x near 1, then the atanh series.
fn ln(mut x: Num, scale: usize) -> Option<Num> {
    if !gt(&x, &Num::zero()) {
        let (p, _) = raise(&int(10), &int(scale as i64), scale).ok()?;
        return div(&Num::one().sub(&p, 0), &Num::one(), scale);
    }
    let z = scale;
    let s = 6 + scale;
    let mut f = int(2);
    while !x.cmp(&int(2)).is_lt() {
        f = f.mul(&int(2), s);
        x = x.sqrt(s)?;
    }
    while !gt(&x, &k(".5")) {
        f = f.mul(&int(2), s);
        x = x.sqrt(s)?;
    }
    let mut n = div(&x.sub(&Num::one(), 0), &x.add(&Num::one(), 0), s)?;
    let mut v = n.clone();
    let m = n.mul(&n, s);
    let mut i = 3i64;
    loop {
        n = n.mul(&m, s);
        let e = div(&n, &int(i), s)?;
        if e.is_zero() {
            v = f.mul(&v, s);
            return div(&v, &Num::one(), z);
        }
        v = v.add(&e, 0);
        i += 2;
    }
}

/// sin x: reduce by multiples of pi/2 (from atan(1)), then the Taylor series.
fn sin(mut x: Num, scale: usize) -> Option<Num> {
    let z = scale;
    let s = as_scale(&k("1.1").mul(&int(z as i64), z).add(&int(2), 0));
    let pi4 = atan(Num::one(), s)?;
    let m = x.is_neg();
    if m {
        x = x.neg();
    }
    let n = div(&div(&x, &pi4, 0)?.add(&int(2), 0), &int(4), 0)?;
    x = x.sub(&int(4).mul(&n, 0).mul(&pi4, 0), 0);
    if !n.modulo(&int(2), 0)?.is_zero() {
        x = x.neg();
    }
    let s = z + 2;
    let mut v = x.clone();
    let mut e = x.clone();
    let sq = x.neg().mul(&x, s);
    let mut i = 3i64;
    loop {
        let den = int(i).mul(&int(i - 1), s);
        e = e.mul(&div(&sq, &den, s)?, s);
        if e.is_zero() {
            return if m {
                div(&v.neg(), &Num::one(), z)
            } else {
                div(&v, &Num::one(), z)
            };
        }
        v = v.add(&e, 0);
        i += 2;
    }
}

/// cos x = sin(x + pi/2).
fn cos(x: Num, scale: usize) -> Option<Num> {
    let z = scale;
    let s = as_scale(&int(z as i64).mul(&k("1.2"), z));
    let half_pi = atan(Num::one(), s)?.mul(&int(2), s);
    let v = sin(x.add(&half_pi, 0), s)?;
    div(&v, &Num::one(), z)
}

const ATAN1: [&str; 3] = [
    ".7853981633974483096156608",
    ".7853981633974483096156608458198757210492",
    ".785398163397448309615660845819875721049292349843776455243736",
];
const ATAN_POINT2: [&str; 3] = [
    ".1973955598498807583700497",
    ".1973955598498807583700497651947902934475",
    ".197395559849880758370049765194790293447585103787852101517688",
];

/// atan x: known values for 1 and .2, else reduce by atan(.2) steps and sum the
/// series.
fn atan(mut x: Num, scale: usize) -> Option<Num> {
    let mut m = Num::one();
    if x.is_neg() {
        m = int(-1);
        x = x.neg();
    }
    let point2 = k(".2");
    for (value, table) in [(Num::one(), &ATAN1), (point2.clone(), &ATAN_POINT2)] {
        if x.cmp(&value).is_eq() {
            for (limit, c) in [25, 40, 60].iter().zip(table.iter()) {
                if scale <= *limit {
                    return div(&k(c), &m, scale);
                }
            }
        }
    }
    let z = scale;
    let mut a = Num::zero();
    let mut f = Num::zero();
    if gt(&x, &point2) {
        a = atan(point2.clone(), z + 5)?;
    }
    let s = z + 3;
    while gt(&x, &point2) {
        f = f.add(&Num::one(), 0);
        x = div(
            &x.sub(&point2, 0),
            &Num::one().add(&x.mul(&point2, s), 0),
            s,
        )?;
    }
    let mut v = x.clone();
    let mut n = x.clone();
    let sq = x.neg().mul(&x, s);
    let mut i = 3i64;
    loop {
        n = n.mul(&sq, s);
        let e = div(&n, &int(i), s)?;
        if e.is_zero() {
            return div(&f.mul(&a, z).add(&v, 0), &m, z);
        }
        v = v.add(&e, 0);
        i += 2;
    }
}

/// Bessel function of integer order n.
fn bessel(n: Num, x: Num, scale: usize) -> Option<Num> {
    let z = scale;
    let mut n = div(&n, &Num::one(), 0)?;
    let mut m = false;
    if n.is_neg() {
        n = n.neg();
        if n.modulo(&int(2), 0)?.cmp(&Num::one()).is_eq() {
            m = true;
        }
    }
    let mut f = Num::one();
    let mut i = int(2);
    while !gt(&i, &n) {
        f = f.mul(&i, 0);
        i = i.add(&Num::one(), 0);
    }
    let s = as_scale(&k("1.5").mul(&int(z as i64), 0));
    let (xn, _) = raise(&x, &n, s).ok()?;
    let (two_n, _) = raise(&int(2), &n, s).ok()?;
    f = div(&div(&xn, &two_n, s)?, &f, s)?;
    let mut v = Num::one();
    let mut e = Num::one();
    let sq = div(&x.neg().mul(&x, s), &int(4), s)?;
    let s = as_scale(
        &k("1.5")
            .mul(&int(z as i64), s)
            .add(&int(f.length() as i64), 0)
            .sub(&int(f.scale as i64), 0),
    );
    let mut i = 1i64;
    loop {
        e = div(&div(&e.mul(&sq, s), &int(i), s)?, &n.add(&int(i), 0), s)?;
        if e.is_zero() {
            let fv = if m { f.neg() } else { f.clone() }.mul(&v, z);
            return div(&fv, &Num::one(), z);
        }
        v = v.add(&e, 0);
        i += 1;
    }
}
