//! Evaluation of arithmetic expressions (bash manual, "Shell Arithmetic"): 64-bit signed
//! integers with wrapping, variables evaluated recursively as expressions, and bash's
//! error messages.

use crate::syntax::arith::{ArithError, parse_arith, parse_number};
use crate::syntax::{ArithExpr, BinOp, UnaryOp};

/// Variable access for arithmetic.
pub trait ArithHost {
    /// The value of `name` or `name[index]` (index as source text), `None` if unset.
    fn arith_get(&mut self, name: &str, index: Option<&str>) -> Result<Option<String>, ArithFail>;
    /// Assigns an integer to `name` or `name[index]`.
    fn arith_set(&mut self, name: &str, index: Option<&str>, value: i64) -> Result<(), ArithFail>;
    /// The value of plain variable `name` when it is written as a decimal integer (the
    /// usual case), read without copying its text; `None` leaves it to `arith_get`.
    fn arith_int(&mut self, _name: &str) -> Option<i64> {
        None
    }
    /// Whether `set -u` is on (unset variables in arithmetic are then errors).
    fn nounset(&self) -> bool {
        false
    }
}

/// A variable's text as arithmetic reads it when that is a plain decimal integer (an
/// empty value is 0; a leading zero means octal, left to the general path).
pub fn plain_int(v: &str) -> Option<i64> {
    let t = v.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\n');
    if t.is_empty() {
        return Some(0);
    }
    // The sign does not change the base: `-010` is minus octal 10.
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    t.parse::<i64>()
        .ok()
        .filter(|_| !digits.starts_with('0') || digits == "0")
}

/// An arithmetic failure: the expression text, bash's message and error token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArithFail {
    pub expr: String,
    pub message: String,
    pub token: Option<String>,
    /// Fatal errors (unbound variable) exit the shell instead of aborting the command.
    pub fatal: bool,
    /// An error evaluating an array subscript abandons the command line even inside
    /// `(( ))`, which otherwise only fails (bash's message then has no `((: `).
    pub discard: bool,
    /// An error bash reports as the shell's own (`r: readonly variable`), with no
    /// expression and no `((: ` or `let: ` before it: under `set -e` it ends the shell
    /// whatever the context (see [`crate::expand::ErrorKind::Report`]).
    pub report: bool,
}

impl ArithFail {
    pub fn new(expr: &str, message: impl Into<String>, token: Option<String>) -> ArithFail {
        ArithFail {
            expr: expr.to_owned(),
            message: message.into(),
            token,
            fatal: false,
            discard: false,
            report: false,
        }
    }
    /// The shell's own error `message` (see [`ArithFail::report`]).
    pub fn report(message: impl Into<String>) -> ArithFail {
        ArithFail {
            report: true,
            ..ArithFail::new("", message, None)
        }
    }
    /// `expr: message (error token is "tok")`, as bash prints it after `bash: line N: `.
    pub fn render(&self) -> String {
        if self.report {
            return self.message.clone();
        }
        match &self.token {
            Some(t) => format!("{}: {} (error token is \"{}\")", self.expr, self.message, t),
            None => format!("{}: {}", self.expr, self.message),
        }
    }
}

/// How many expressions may be under evaluation at once: a variable's value and a
/// subscript are each evaluated as an expression of their own, inside the one that
/// reads them.
const MAX_RECURSION: usize = 1024;

std::thread_local! {
    /// The expressions under evaluation on this thread, however they nest (a value read
    /// through the host's subscript evaluation counts as much as one read here).
    static LEVEL: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One more expression under evaluation, until dropped.
struct Level;

impl Level {
    fn enter() -> Level {
        LEVEL.with(|l| l.set(l.get() + 1));
        Level
    }
}

impl Drop for Level {
    fn drop(&mut self) {
        LEVEL.with(|l| l.set(l.get().saturating_sub(1)));
    }
}

/// Parses and evaluates `text`.
pub fn eval_str<H: ArithHost + ?Sized>(text: &str, host: &mut H) -> Result<i64, ArithFail> {
    let _level = Level::enter();
    eval_text(text, host)
}

/// The expression as bash shows it in a message: without its leading blanks (a leading
/// newline stays, as do trailing blanks).
fn shown(text: &str) -> &str {
    text.trim_start_matches([' ', '\t'])
}

fn from_parse_error(text: &str, e: ArithError) -> ArithFail {
    let expr = shown(e.shown_end.and_then(|end| text.get(..end)).unwrap_or(text));
    ArithFail::new(expr, e.message, Some(e.token))
}

fn eval_text<H: ArithHost + ?Sized>(text: &str, host: &mut H) -> Result<i64, ArithFail> {
    // A plain decimal number (offsets like `${s:1:3}`) needs no parser.
    let t = text.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\n');
    if !t.is_empty()
        && t.bytes().all(|b| b.is_ascii_digit())
        && (!t.starts_with('0') || t == "0")
        && let Ok(n) = t.parse::<i64>()
    {
        return Ok(n);
    }
    let expr = match parse_cached(text) {
        Ok(e) => e,
        Err(e) => {
            // bash evaluates as it reads: the work before the error is done first, and
            // an error it raises is the one reported.
            if let Some(p) = &e.partial {
                let mut ev = Eval {
                    host: &mut *host,
                    text,
                    first_read: None,
                };
                ev.eval(p)?;
            }
            return Err(from_parse_error(text, e));
        }
    };
    let mut ev = Eval {
        host,
        text,
        first_read: None,
    };
    ev.eval(&expr)
}

/// Expressions that are only known after expansion (`$(( $1 - 1 ))`) are parsed each
/// time they run; in a loop or a recursive function that parse was a quarter of the
/// work. Recently parsed texts are kept per thread (parsing is pure, so a cached tree
/// is the same tree).
fn parse_cached(text: &str) -> Result<std::sync::Arc<ArithExpr>, ArithError> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::sync::Arc;
    /// Entries kept, and the longest text cached.
    const ENTRIES: usize = 256;
    const LONGEST: usize = 256;
    thread_local! {
        static CACHE: RefCell<HashMap<String, Arc<ArithExpr>, foldhash::fast::RandomState>> =
            RefCell::new(HashMap::default());
    }
    if text.len() > LONGEST {
        return parse_arith(text).map(Arc::new);
    }
    if let Some(e) = CACHE.with(|c| c.borrow().get(text).cloned()) {
        return Ok(e);
    }
    let e = Arc::new(parse_arith(text)?);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= ENTRIES {
            c.clear();
        }
        c.insert(text.to_owned(), e.clone());
    });
    Ok(e)
}

/// Evaluates a parsed expression (`text` is its source, for messages).
pub fn eval<H: ArithHost + ?Sized>(
    expr: &ArithExpr,
    text: &str,
    host: &mut H,
) -> Result<i64, ArithFail> {
    let _level = Level::enter();
    let mut ev = Eval {
        host,
        text,
        first_read: None,
    };
    ev.eval(expr)
}

struct Eval<'h, 't, H: ArithHost + ?Sized> {
    host: &'h mut H,
    text: &'t str,
    /// Where in the text the first variable whose value or subscript was evaluated is
    /// named: bash's error token for a recursion too deep starts there.
    first_read: Option<usize>,
}

/// Where `name` is first named in `text` as a whole word (0 if nowhere).
fn name_at(text: &str, name: &str) -> usize {
    let word = |c: Option<char>| c.is_some_and(|c| c == '_' || c.is_ascii_alphanumeric());
    text.match_indices(name)
        .find(|&(i, _)| {
            !word(text.get(..i).and_then(|t| t.chars().next_back()))
                && !word(text.get(i + name.len()..).and_then(|t| t.chars().next()))
        })
        .map_or(0, |(i, _)| i)
}

impl<H: ArithHost + ?Sized> Eval<'_, '_, H> {
    fn fail(&self, message: &str, token: Option<String>) -> ArithFail {
        ArithFail::new(shown(self.text), message, token)
    }

    /// bash's error for a variable read with as many expressions under evaluation as
    /// it allows: in the expression being read, from where the variable is named.
    /// bash's token then starts at the first variable this expression evaluated a value
    /// or subscript for (see [`Eval::first_read`]), else at this one.
    fn too_deep(&self, name: &str) -> ArithFail {
        let text = shown(self.text);
        let at = self.first_read.unwrap_or_else(|| name_at(text, name));
        self.fail(
            "expression recursion level exceeded",
            Some(text.get(at..).unwrap_or(text).to_owned()),
        )
    }

    /// Notes that `name`'s value (or subscript) was evaluated, for [`Eval::too_deep`].
    fn note_read(&mut self, name: &str) {
        if self.first_read.is_none() {
            self.first_read = Some(name_at(shown(self.text), name));
        }
    }

    fn at_limit() -> bool {
        LEVEL.with(|l| l.get()) >= MAX_RECURSION
    }

    /// The numeric value of a variable: its text evaluated as an expression.
    fn var_value(&mut self, name: &str, index: Option<&str>) -> Result<i64, ArithFail> {
        if index.is_none()
            && let Some(n) = self.host.arith_int(name)
        {
            // (A blank value is 0 too, but bash evaluates nothing for it.)
            if self.first_read.is_none()
                && (n != 0
                    || self
                        .host
                        .arith_get(name, None)?
                        .is_some_and(|v| !v.trim().is_empty()))
            {
                self.note_read(name);
            }
            return Ok(n);
        }
        // A subscript is an expression evaluated inside this one.
        if index.is_some() {
            if Self::at_limit() {
                return Err(self.too_deep(name));
            }
            self.note_read(name);
        }
        let v = self.host.arith_get(name, index)?;
        let Some(v) = v else {
            if self.host.nounset() {
                let shown = match index {
                    Some(i) => format!("{name}[{i}]"),
                    None => name.to_owned(),
                };
                let mut f = ArithFail::new(&shown, "unbound variable", None);
                f.fatal = true;
                return Err(f);
            }
            return Ok(0);
        };
        self.value_of_text(name, &v)
    }

    fn value_of_text(&mut self, name: &str, v: &str) -> Result<i64, ArithFail> {
        let t = v.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\n');
        if !t.is_empty() {
            self.note_read(name);
        }
        if let Some(n) = plain_int(v) {
            return Ok(n);
        }
        if t.starts_with(|c: char| c.is_ascii_digit())
            && let Ok(n) = parse_number(t)
        {
            return Ok(n);
        }
        if Self::at_limit() {
            return Err(self.too_deep(name));
        }
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || eval_str(v, self.host))
    }

    fn eval(&mut self, e: &ArithExpr) -> Result<i64, ArithFail> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.eval_inner(e))
    }

    fn eval_inner(&mut self, e: &ArithExpr) -> Result<i64, ArithFail> {
        Ok(match e {
            ArithExpr::Num(n) => *n,
            ArithExpr::Var(name, index) => self.var_value(name, index.as_deref())?,
            ArithExpr::Unary(op, x) => {
                let v = self.eval(x)?;
                match op {
                    UnaryOp::Neg => v.wrapping_neg(),
                    UnaryOp::Plus => v,
                    UnaryOp::Not => (v == 0) as i64,
                    UnaryOp::BitNot => !v,
                }
            }
            ArithExpr::Binary(BinOp::And, a, b, _) => {
                let l = self.eval(a)?;
                if l == 0 {
                    0
                } else {
                    (self.eval(b)? != 0) as i64
                }
            }
            ArithExpr::Binary(BinOp::Or, a, b, _) => {
                let l = self.eval(a)?;
                if l != 0 {
                    1
                } else {
                    (self.eval(b)? != 0) as i64
                }
            }
            ArithExpr::Binary(op, a, b, at) => {
                let l = self.eval(a)?;
                let r = self.eval(b)?;
                self.binop(*op, l, r, *at)?
            }
            ArithExpr::Assign(op, name, index, rhs, at) => {
                // A compound assignment reads its variable before the right side.
                let v = match op {
                    None => self.eval(rhs)?,
                    Some(op) => {
                        let l = self.var_value(name, index.as_deref())?;
                        let r = self.eval(rhs)?;
                        self.binop(*op, l, r, *at)?
                    }
                };
                self.host.arith_set(name, index.as_deref(), v)?;
                v
            }
            ArithExpr::IncDec {
                name,
                index,
                inc,
                prefix,
            } => {
                let old = self.var_value(name, index.as_deref())?;
                let new = if *inc {
                    old.wrapping_add(1)
                } else {
                    old.wrapping_sub(1)
                };
                self.host.arith_set(name, index.as_deref(), new)?;
                if *prefix { new } else { old }
            }
            ArithExpr::Cond(c, a, b) => {
                if self.eval(c)? != 0 {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            ArithExpr::Comma(a, b) => {
                self.eval(a)?;
                self.eval(b)?
            }
        })
    }

    /// Applies `op`; a failure names the source text from byte `at` on.
    fn binop(&mut self, op: BinOp, l: i64, r: i64, at: u32) -> Result<i64, ArithFail> {
        let token = || {
            let at = usize::try_from(at).unwrap_or(usize::MAX);
            Some(self.text.get(at..).unwrap_or_default().to_owned())
        };
        Ok(match op {
            BinOp::Add => l.wrapping_add(r),
            BinOp::Sub => l.wrapping_sub(r),
            BinOp::Mul => l.wrapping_mul(r),
            BinOp::Div | BinOp::Rem => {
                if r == 0 {
                    return Err(self.fail("division by 0", token()));
                }
                if op == BinOp::Div {
                    l.wrapping_div(r)
                } else {
                    l.wrapping_rem(r)
                }
            }
            BinOp::Pow => {
                if r < 0 {
                    return Err(self.fail("exponent less than 0", token()));
                }
                let mut acc: i64 = 1;
                let mut base = l;
                let mut e = r as u64;
                while e > 0 {
                    if e & 1 == 1 {
                        acc = acc.wrapping_mul(base);
                    }
                    base = base.wrapping_mul(base);
                    e >>= 1;
                }
                acc
            }
            BinOp::Shl => l.wrapping_shl((r & 63) as u32),
            BinOp::Shr => l.wrapping_shr((r & 63) as u32),
            BinOp::Lt => (l < r) as i64,
            BinOp::Le => (l <= r) as i64,
            BinOp::Gt => (l > r) as i64,
            BinOp::Ge => (l >= r) as i64,
            BinOp::Eq => (l == r) as i64,
            BinOp::Ne => (l != r) as i64,
            BinOp::BitAnd => l & r,
            BinOp::BitOr => l | r,
            BinOp::BitXor => l ^ r,
            BinOp::And => (l != 0 && r != 0) as i64,
            BinOp::Or => (l != 0 || r != 0) as i64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    struct Vars(HashMap<String, String>);
    impl ArithHost for Vars {
        fn arith_get(&mut self, name: &str, _: Option<&str>) -> Result<Option<String>, ArithFail> {
            Ok(self.0.get(name).cloned())
        }
        fn arith_set(&mut self, name: &str, _: Option<&str>, v: i64) -> Result<(), ArithFail> {
            self.0.insert(name.to_owned(), v.to_string());
            Ok(())
        }
    }

    fn check(src: &str, want: i64) {
        let mut h = Vars(HashMap::new());
        h.0.insert("x".into(), "1+2".into());
        assert_eq!(eval_str(src, &mut h), Ok(want), "{src}");
    }

    #[test]
    fn operators() {
        check("1 + 2 * 3", 7);
        check("(1 + 2) * 3", 9);
        check("2 ** 10", 1024);
        check("-2 ** 2", 4);
        check("7 / 2", 3);
        check("-7 % 3", -1);
        check("1 << 62 << 2", 0);
        check("9223372036854775807 + 1", i64::MIN);
        check("x * 2", 6);
        check("y = 5, y += 2, y", 7);
        check("1 ? 2 : 3", 2);
        check("0 || 0 && 1", 0);
        check("!0 + ~0", 0);
    }

    #[test]
    fn division_by_zero_message() {
        let mut h = Vars(HashMap::new());
        let e = eval_str("1/0", &mut h).err().map(|e| e.render());
        assert_eq!(
            e.as_deref(),
            Some("1/0: division by 0 (error token is \"0\")")
        );
    }
}
