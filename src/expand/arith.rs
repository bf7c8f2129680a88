//! Evaluation of arithmetic expressions (bash manual, "Shell Arithmetic"): 64-bit signed
//! integers with wrapping, variables evaluated recursively as expressions, and bash's
//! error messages.

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
    /// Whether a variable called `name` exists: under `set -u` an unset element of an
    /// existing array is no error, only an array that does not exist.
    fn arith_declared(&mut self, _name: &str) -> bool {
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
}

impl ArithFail {
    pub fn new(expr: &str, message: impl Into<String>, token: Option<String>) -> ArithFail {
        ArithFail {
            expr: expr.to_owned(),
            message: message.into(),
            token,
            fatal: false,
            discard: false,
        }
    }
    /// `expr: message (error token is "tok")`, as bash prints it after `bash: line N: `.
    pub fn render(&self) -> String {
        match &self.token {
            Some(t) => format!("{}: {} (error token is \"{}\")", self.expr, self.message, t),
            None => format!("{}: {}", self.expr, self.message),
        }
    }
}

/// Nested expressions (a variable's value read as an expression) bash allows.
const MAX_RECURSION: usize = 1024;
/// Nesting of parentheses and unary operators within one expression; bash has no
/// limit short of its C stack, this one only keeps ours bounded.
const MAX_NESTING: usize = 10_000;

/// Parses and evaluates `text`.
pub fn eval_str<H: ArithHost + ?Sized>(text: &str, host: &mut H) -> Result<i64, ArithFail> {
    eval_str_depth(text, host, 0)
}

/// The expression as bash shows it in a message: without its leading blanks (a leading
/// newline stays, as do trailing blanks).
fn shown(text: &str) -> &str {
    text.trim_start_matches([' ', '\t'])
}

fn eval_str_depth<H: ArithHost + ?Sized>(
    text: &str,
    host: &mut H,
    depth: usize,
) -> Result<i64, ArithFail> {
    // A plain decimal number (offsets like `${s:1:3}`) needs no tokenizer.
    let t = text.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\n');
    if !t.is_empty()
        && t.bytes().all(|b| b.is_ascii_digit())
        && (!t.starts_with('0') || t == "0")
        && let Ok(n) = t.parse::<i64>()
    {
        return Ok(n);
    }
    if text.bytes().all(is_blank_or_newline) {
        return Ok(0);
    }
    let mut ev = Eval {
        host,
        text,
        depth,
        tp: 0,
        lasttp: 0,
        curtok: NONE,
        lasttok: NONE,
        tokval: 0,
        tokstr: None,
        noeval: 0,
        assigntok: NONE,
        nesting: 0,
    };
    ev.readtok()?;
    let v = ev.expcomma()?;
    if ev.curtok != NONE {
        return Err(ev.error("syntax error in expression"));
    }
    Ok(v)
}

/// Tokens: an operator character stands for itself; longer tokens are above 255.
type Tok = u16;
const NONE: Tok = 0;
const EQEQ: Tok = 256;
const NEQ: Tok = 257;
const LEQ: Tok = 258;
const GEQ: Tok = 259;
const STR: Tok = 260;
const NUM: Tok = 261;
const LAND: Tok = 262;
const LOR: Tok = 263;
const LSH: Tok = 264;
const RSH: Tok = 265;
const OP_ASSIGN: Tok = 266;
const POWER: Tok = 267;
const PREINC: Tok = 268;
const PREDEC: Tok = 269;
const POSTINC: Tok = 270;
const POSTDEC: Tok = 271;
const COND: Tok = 272;

const fn ch(c: u8) -> Tok {
    c as Tok
}

/// Single-character operators (bash's `_is_arithop`).
fn is_arithop(t: Tok) -> bool {
    t < 256 && b"=><+-*/%!()&|^~?:,".contains(&(t as u8))
}

/// Multi-character operators (bash's `_is_multiop`).
fn is_multiop(t: Tok) -> bool {
    matches!(
        t,
        EQEQ | NEQ
            | LEQ
            | GEQ
            | LAND
            | LOR
            | LSH
            | RSH
            | OP_ASSIGN
            | POWER
            | PREINC
            | PREDEC
            | POSTINC
            | POSTDEC
    )
}

fn is_blank_or_newline(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn is_var_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_var_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The index of the `]` closing the subscript whose `[` is at `open` (nested brackets,
/// quotes and backslashes skipped), as bash's `skipsubscript`.
fn subscript_end(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while let Some(&c) = b.get(i) {
        match c {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b'\\' => i += 1,
            q @ (b'\'' | b'"') => {
                i += 1;
                while let Some(&d) = b.get(i)
                    && d != q
                {
                    if d == b'\\' && q == b'"' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Decodes an integer constant as bash's `strlong` does: `0x` hex, a leading `0` octal,
/// `base#digits` for bases 2 to 64, with its three distinct complaints.
fn strlong(t: &str) -> Result<i64, &'static str> {
    let b = t.as_bytes();
    let mut i = 0;
    let mut base: i64 = 10;
    let mut found_base = false;
    if b.first() == Some(&b'0') {
        i = 1;
        if b.len() == 1 {
            return Ok(0);
        }
        if matches!(b.get(1), Some(b'x' | b'X')) {
            base = 16;
            i = 2;
        } else {
            base = 8;
        }
        found_base = true;
    }
    let mut val: i64 = 0;
    while let Some(&c) = b.get(i) {
        i += 1;
        if c == b'#' {
            if found_base {
                return Err("invalid number");
            }
            if !(2..=64).contains(&val) {
                return Err("invalid arithmetic base");
            }
            base = val;
            val = 0;
            found_base = true;
            if !b
                .get(i)
                .is_some_and(|&d| d.is_ascii_alphanumeric() || d == b'_' || d == b'@')
            {
                return Err("invalid integer constant");
            }
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'@' {
            let d = match c {
                b'0'..=b'9' => (c - b'0') as i64,
                b'a'..=b'z' => (c - b'a') as i64 + 10,
                b'A'..=b'Z' => (c - b'A') as i64 + if base <= 36 { 10 } else { 36 },
                b'@' => 62,
                _ => 63,
            };
            if d >= base {
                return Err("value too great for base");
            }
            val = val.wrapping_mul(base).wrapping_add(d);
        } else {
            break;
        }
    }
    Ok(val)
}

/// What a variable token names: the name and its subscript text.
type Lvalue = (String, Option<String>);

/// The tokenizer's state bash saves around a look-ahead (`SAVETOK`).
struct Saved {
    curtok: Tok,
    lasttok: Tok,
    tp: usize,
    lasttp: usize,
    tokval: i64,
    tokstr: Option<Lvalue>,
    noeval: u32,
}

/// One expression being evaluated as it is read, as bash's `expr.c` does: operands are
/// evaluated when their token is read (skipped under `noeval`, the unevaluated side of
/// `&&`, `||` and `?:`), so side effects before a syntax error happen and errors come
/// in the order bash finds them, each naming the text from its token on.
struct Eval<'h, 't, H: ArithHost + ?Sized> {
    host: &'h mut H,
    text: &'t str,
    depth: usize,
    tp: usize,
    lasttp: usize,
    curtok: Tok,
    lasttok: Tok,
    tokval: i64,
    tokstr: Option<Lvalue>,
    noeval: u32,
    assigntok: Tok,
    nesting: usize,
}

type R<T> = Result<T, ArithFail>;

impl<H: ArithHost + ?Sized> Eval<'_, '_, H> {
    /// bash's `evalerror`: the whole expression and the text from the last token on.
    fn error(&self, message: &str) -> ArithFail {
        let token = self.text.get(self.lasttp..).unwrap_or("");
        ArithFail::new(shown(self.text), message, Some(token.to_owned()))
    }

    fn save(&mut self) -> Saved {
        Saved {
            curtok: self.curtok,
            lasttok: self.lasttok,
            tp: self.tp,
            lasttp: self.lasttp,
            tokval: self.tokval,
            tokstr: self.tokstr.take(),
            noeval: self.noeval,
        }
    }

    fn restore(&mut self, s: Saved) {
        self.curtok = s.curtok;
        self.lasttok = s.lasttok;
        self.tp = s.tp;
        self.lasttp = s.lasttp;
        self.tokval = s.tokval;
        self.tokstr = s.tokstr;
        self.noeval = s.noeval;
    }

    fn nest(&mut self) -> R<()> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(self.error("expression recursion level exceeded"));
        }
        Ok(())
    }

    /// The value of a variable token (bash's `expr_streval`): its text evaluated as an
    /// expression of its own; nothing at all under `noeval`.
    fn streval(&mut self, name: &str, index: Option<&str>) -> R<i64> {
        if self.noeval > 0 {
            return Ok(0);
        }
        if index.is_none()
            && let Some(n) = self.host.arith_int(name)
        {
            return Ok(n);
        }
        let Some(v) = self.host.arith_get(name, index)? else {
            if self.host.nounset() && (index.is_none() || !self.host.arith_declared(name)) {
                let mut f = ArithFail::new(name, "unbound variable", None);
                f.fatal = true;
                return Err(f);
            }
            return Ok(0);
        };
        if let Some(n) = plain_int(&v) {
            return Ok(n);
        }
        if self.depth + 1 >= MAX_RECURSION {
            return Err(self.error("expression recursion level exceeded"));
        }
        let depth = self.depth + 1;
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            eval_str_depth(&v, self.host, depth)
        })
    }

    fn bind(&mut self, lv: &Lvalue, v: i64) -> R<()> {
        if self.noeval == 0 {
            self.host.arith_set(&lv.0, lv.1.as_deref(), v)?;
        }
        Ok(())
    }

    /// bash's `readtok`: reads the next token into `curtok` (a variable's value into
    /// `tokval` unless `=` follows it).
    fn readtok(&mut self) -> R<()> {
        let b = self.text.as_bytes();
        let mut cp = self.tp;
        while b.get(cp).copied().is_some_and(is_blank_or_newline) {
            cp += 1;
        }
        let Some(&c) = b.get(cp) else {
            self.lasttok = self.curtok;
            self.curtok = NONE;
            self.tp = cp;
            return Ok(());
        };
        self.lasttp = cp;
        self.tp = cp;
        cp += 1;
        if is_var_start(c) {
            while b.get(cp).copied().is_some_and(is_var_char) {
                cp += 1;
            }
            let name = self.text.get(self.tp..cp).unwrap_or("").to_owned();
            let mut index = None;
            if b.get(cp) == Some(&b'[') {
                let Some(close) = subscript_end(b, cp) else {
                    return Err(self.error("bad array subscript"));
                };
                index = Some(self.text.get(cp + 1..close).unwrap_or("").to_owned());
                cp = close + 1;
            }
            // Look at the next token to see whether this one is assigned to.
            let saved = self.save();
            self.tp = cp;
            self.noeval = 1;
            self.curtok = STR;
            self.readtok()?;
            let peektok = self.curtok;
            self.restore(saved);
            if self.lasttok == PREINC || self.lasttok == PREDEC || peektok != ch(b'=') {
                self.tokval = self.streval(&name, index.as_deref())?;
            } else {
                self.tokval = 0;
            }
            self.tokstr = Some((name, index));
            self.lasttok = self.curtok;
            self.curtok = STR;
        } else if c.is_ascii_digit() {
            while b
                .get(cp)
                .is_some_and(|&d| d.is_ascii_alphanumeric() || b"#@_".contains(&d))
            {
                cp += 1;
            }
            let t = self.text.get(self.tp..cp).unwrap_or("");
            match strlong(t) {
                Ok(v) => self.tokval = v,
                Err(m) => {
                    let mut f = self.error(m);
                    // bash cuts the expression after the bad constant in its message.
                    f.expr = shown(self.text.get(..cp).unwrap_or(self.text)).to_owned();
                    f.token = Some(t.to_owned());
                    return Err(f);
                }
            }
            self.lasttok = self.curtok;
            self.curtok = NUM;
        } else {
            let c1 = b.get(cp).copied().unwrap_or(0);
            cp += 1;
            let mut tok = ch(c);
            if c == b'=' && c1 == b'=' {
                tok = EQEQ;
            } else if c == b'!' && c1 == b'=' {
                tok = NEQ;
            } else if c == b'>' && c1 == b'=' {
                tok = GEQ;
            } else if c == b'<' && c1 == b'=' {
                tok = LEQ;
            } else if (c == b'<' || c == b'>') && c1 == c {
                let op = if c == b'<' { LSH } else { RSH };
                if b.get(cp) == Some(&b'=') {
                    self.assigntok = op;
                    tok = OP_ASSIGN;
                    cp += 1;
                } else {
                    tok = op;
                }
            } else if c == b'&' && c1 == b'&' {
                tok = LAND;
            } else if c == b'|' && c1 == b'|' {
                tok = LOR;
            } else if c == b'*' && c1 == b'*' {
                tok = POWER;
            } else if (c == b'-' || c == b'+') && c1 == c && self.curtok == STR {
                tok = if c == b'-' { POSTDEC } else { POSTINC };
            } else if (c == b'-' || c == b'+')
                && c1 == c
                && self.curtok == NUM
                && (self.lasttok == PREINC || self.lasttok == PREDEC)
            {
                return Err(self.error(if c == b'-' {
                    "--: assignment requires lvalue"
                } else {
                    "++: assignment requires lvalue"
                }));
            } else if (c == b'-' || c == b'+') && c1 == c {
                let mut xp = cp;
                while b.get(xp).copied().is_some_and(is_blank_or_newline) {
                    xp += 1;
                }
                if b.get(xp).copied().is_some_and(is_var_start) {
                    tok = if c == b'-' { PREDEC } else { PREINC };
                } else {
                    cp -= 1;
                }
            } else if c1 == b'=' && b"*/%+-&^|".contains(&c) {
                self.assigntok = ch(c);
                tok = OP_ASSIGN;
            } else if !is_arithop(ch(c)) {
                let message =
                    if self.curtok == NONE || is_arithop(self.curtok) || is_multiop(self.curtok) {
                        "syntax error: operand expected"
                    } else {
                        "syntax error: invalid arithmetic operator"
                    };
                return Err(self.error(message));
            } else {
                cp -= 1;
            }
            self.lasttok = self.curtok;
            self.curtok = tok;
        }
        self.tp = cp.min(b.len());
        Ok(())
    }

    fn expcomma(&mut self) -> R<i64> {
        let mut v = self.expassign()?;
        while self.curtok == ch(b',') {
            self.readtok()?;
            v = self.expassign()?;
        }
        Ok(v)
    }

    fn expassign(&mut self) -> R<i64> {
        let mut value = self.expcond()?;
        if self.curtok == ch(b'=') || self.curtok == OP_ASSIGN {
            let special = self.curtok == OP_ASSIGN;
            if self.lasttok != STR {
                return Err(self.error("attempted assignment to non-variable"));
            }
            let op = self.assigntok;
            let lvalue = value;
            let Some(lhs) = self.tokstr.clone() else {
                return Err(self.error("syntax error in variable assignment"));
            };
            self.readtok()?;
            value = self.expassign()?;
            if special {
                if (op == ch(b'/') || op == ch(b'%')) && value == 0 {
                    if self.noeval == 0 {
                        return Err(self.error("division by 0"));
                    }
                    value = 1;
                }
                value = match op {
                    x if x == ch(b'*') => lvalue.wrapping_mul(value),
                    x if x == ch(b'/') => lvalue.wrapping_div(value),
                    x if x == ch(b'%') => lvalue.wrapping_rem(value),
                    x if x == ch(b'+') => lvalue.wrapping_add(value),
                    x if x == ch(b'-') => lvalue.wrapping_sub(value),
                    LSH => lvalue.wrapping_shl((value & 63) as u32),
                    RSH => lvalue.wrapping_shr((value & 63) as u32),
                    x if x == ch(b'&') => lvalue & value,
                    x if x == ch(b'|') => lvalue | value,
                    x if x == ch(b'^') => lvalue ^ value,
                    _ => return Err(self.error("bug: bad expassign token")),
                };
            }
            self.bind(&lhs, value)?;
            self.tokstr = None;
        }
        Ok(value)
    }

    fn expcond(&mut self) -> R<i64> {
        let cval = self.explor()?;
        if self.curtok != ch(b'?') {
            return Ok(cval);
        }
        // The branch not taken is read without evaluating, from its first token on.
        let skip = cval == 0;
        self.noeval += skip as u32;
        self.readtok()?;
        if self.curtok == NONE || self.curtok == ch(b':') {
            return Err(self.error("expression expected"));
        }
        let val1 = self.expcomma()?;
        self.noeval -= skip as u32;
        if self.curtok != ch(b':') {
            return Err(self.error("`:' expected for conditional expression"));
        }
        let skip = cval != 0;
        self.noeval += skip as u32;
        self.readtok()?;
        if self.curtok == NONE {
            return Err(self.error("expression expected"));
        }
        let val2 = self.expcond()?;
        self.noeval -= skip as u32;
        self.lasttok = COND;
        Ok(if cval != 0 { val1 } else { val2 })
    }

    fn explor(&mut self) -> R<i64> {
        let mut v1 = self.expland()?;
        while self.curtok == LOR {
            let skip = v1 != 0;
            self.noeval += skip as u32;
            self.readtok()?;
            let v2 = self.expland()?;
            self.noeval -= skip as u32;
            v1 = (v1 != 0 || v2 != 0) as i64;
            self.lasttok = LOR;
        }
        Ok(v1)
    }

    fn expland(&mut self) -> R<i64> {
        let mut v1 = self.expbor()?;
        while self.curtok == LAND {
            let skip = v1 == 0;
            self.noeval += skip as u32;
            self.readtok()?;
            let v2 = self.expbor()?;
            self.noeval -= skip as u32;
            v1 = (v1 != 0 && v2 != 0) as i64;
            self.lasttok = LAND;
        }
        Ok(v1)
    }

    /// One left-associative level of binary operators: `ops` at this level, `next` the
    /// level above, `apply` the operation.
    fn level(
        &mut self,
        ops: &[Tok],
        next: fn(&mut Self) -> R<i64>,
        apply: fn(Tok, i64, i64) -> i64,
    ) -> R<i64> {
        let mut v1 = next(self)?;
        while ops.contains(&self.curtok) {
            let op = self.curtok;
            self.readtok()?;
            let v2 = next(self)?;
            v1 = apply(op, v1, v2);
            self.lasttok = NUM;
        }
        Ok(v1)
    }

    fn expbor(&mut self) -> R<i64> {
        self.level(&[ch(b'|')], Self::expbxor, |_, a, b| a | b)
    }

    fn expbxor(&mut self) -> R<i64> {
        self.level(&[ch(b'^')], Self::expband, |_, a, b| a ^ b)
    }

    fn expband(&mut self) -> R<i64> {
        self.level(&[ch(b'&')], Self::exp5, |_, a, b| a & b)
    }

    fn exp5(&mut self) -> R<i64> {
        self.level(&[EQEQ, NEQ], Self::exp4, |op, a, b| {
            ((a == b) == (op == EQEQ)) as i64
        })
    }

    fn exp4(&mut self) -> R<i64> {
        self.level(
            &[LEQ, GEQ, ch(b'<'), ch(b'>')],
            Self::expshift,
            |op, a, b| {
                (match op {
                    LEQ => a <= b,
                    GEQ => a >= b,
                    x if x == ch(b'<') => a < b,
                    _ => a > b,
                }) as i64
            },
        )
    }

    fn expshift(&mut self) -> R<i64> {
        self.level(&[LSH, RSH], Self::exp3, |op, a, b| {
            if op == LSH {
                a.wrapping_shl((b & 63) as u32)
            } else {
                a.wrapping_shr((b & 63) as u32)
            }
        })
    }

    fn exp3(&mut self) -> R<i64> {
        self.level(&[ch(b'+'), ch(b'-')], Self::expmuldiv, |op, a, b| {
            if op == ch(b'+') {
                a.wrapping_add(b)
            } else {
                a.wrapping_sub(b)
            }
        })
    }

    fn expmuldiv(&mut self) -> R<i64> {
        let mut v1 = self.exppower()?;
        while [ch(b'*'), ch(b'/'), ch(b'%')].contains(&self.curtok) {
            let op = self.curtok;
            let stp = self.tp;
            self.readtok()?;
            let mut v2 = self.exppower()?;
            if op != ch(b'*') && v2 == 0 {
                if self.noeval == 0 {
                    // The token is the divisor's text on (blanks skipped, not newlines).
                    let b = self.text.as_bytes();
                    let mut t = stp;
                    while matches!(b.get(t), Some(b' ' | b'\t')) {
                        t += 1;
                    }
                    self.lasttp = t;
                    return Err(self.error("division by 0"));
                }
                v2 = 1;
            }
            v1 = match op {
                x if x == ch(b'*') => v1.wrapping_mul(v2),
                x if x == ch(b'/') => v1.wrapping_div(v2),
                _ => v1.wrapping_rem(v2),
            };
            self.lasttok = NUM;
        }
        Ok(v1)
    }

    fn exppower(&mut self) -> R<i64> {
        let mut v1 = self.exp1()?;
        while self.curtok == POWER {
            self.readtok()?;
            self.nest()?;
            let v2 = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.exppower())?;
            self.nesting -= 1;
            self.lasttok = NUM;
            if v2 == 0 {
                return Ok(1);
            }
            if v2 < 0 {
                return Err(self.error("exponent less than 0"));
            }
            let (mut base, mut e, mut acc) = (v1, v2 as u64, 1i64);
            while e > 0 {
                if e & 1 == 1 {
                    acc = acc.wrapping_mul(base);
                }
                e >>= 1;
                base = base.wrapping_mul(base);
            }
            v1 = acc;
        }
        Ok(v1)
    }

    fn exp1(&mut self) -> R<i64> {
        let t = self.curtok;
        if ![ch(b'!'), ch(b'~'), ch(b'-'), ch(b'+')].contains(&t) {
            return self.exp0();
        }
        self.readtok()?;
        self.nest()?;
        let v = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.exp1())?;
        self.nesting -= 1;
        self.lasttok = NUM;
        Ok(match t {
            x if x == ch(b'!') => (v == 0) as i64,
            x if x == ch(b'~') => !v,
            x if x == ch(b'-') => v.wrapping_neg(),
            _ => v,
        })
    }

    fn exp0(&mut self) -> R<i64> {
        if self.curtok == PREINC || self.curtok == PREDEC {
            let stok = self.curtok;
            self.lasttok = stok;
            self.readtok()?;
            if self.curtok != STR {
                return Err(self.error("identifier expected after pre-increment or pre-decrement"));
            }
            let v = if stok == PREINC {
                self.tokval.wrapping_add(1)
            } else {
                self.tokval.wrapping_sub(1)
            };
            if let Some(lv) = self.tokstr.clone() {
                self.bind(&lv, v)?;
            }
            // So that `--x=7` is an error.
            self.curtok = NUM;
            self.readtok()?;
            return Ok(v);
        }
        if self.curtok == ch(b'(') {
            self.readtok()?;
            self.nest()?;
            let v = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.expcomma())?;
            self.nesting -= 1;
            if self.curtok != ch(b')') {
                return Err(self.error("missing `)'"));
            }
            self.readtok()?;
            return Ok(v);
        }
        if self.curtok != NUM && self.curtok != STR {
            return Err(self.error("syntax error: operand expected"));
        }
        let val = self.tokval;
        if self.curtok == STR {
            let saved = self.save();
            self.noeval = 1;
            self.readtok()?;
            let stok = self.curtok;
            if stok == POSTINC || stok == POSTDEC {
                self.tokstr = saved.tokstr;
                self.noeval = saved.noeval;
                self.lasttok = STR;
                let v = if stok == POSTINC {
                    val.wrapping_add(1)
                } else {
                    val.wrapping_sub(1)
                };
                if let Some(lv) = self.tokstr.clone() {
                    self.bind(&lv, v)?;
                }
                // So that `x++=7` is an error.
                self.curtok = NUM;
            } else {
                self.restore(saved);
            }
        }
        self.readtok()?;
        Ok(val)
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
