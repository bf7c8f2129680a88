//! The arithmetic expression parser (bash manual, "Shell Arithmetic"). It reads text, as
//! bash does after expanding `$((...))`, into an [`ArithExpr`]; numbers in every base
//! bash accepts are decoded here.

use super::ast::{ArithExpr, BinOp, UnaryOp};

/// A failed arithmetic parse: bash's message and the text from where it failed.
#[derive(Clone, Debug, PartialEq)]
pub struct ArithError {
    pub message: String,
    pub token: String,
    /// Where (a byte offset) the expression bash shows in the message is cut: it
    /// reads a bad number with the text after it cut off.
    pub shown_end: Option<usize>,
    /// The work bash does before it reaches the error: it evaluates while it reads, so
    /// the assignments and increments before a syntax error happen (and an error they
    /// raise, such as a division by 0, is the one reported).
    pub partial: Option<Box<ArithExpr>>,
}

impl ArithError {
    fn new(message: &str, token: &str) -> ArithError {
        ArithError {
            message: message.to_owned(),
            token: token.trim_start().to_owned(),
            shown_end: None,
            partial: None,
        }
    }

    /// Records `done` as completed before the work already recorded.
    fn after(mut self, done: ArithExpr) -> ArithError {
        self.partial = Some(Box::new(match self.partial.take() {
            Some(p) => ArithExpr::Comma(Box::new(done), p),
            None => done,
        }));
        self
    }

    /// Replaces the recorded work with `f` of it.
    fn map_partial(mut self, f: impl FnOnce(Box<ArithExpr>) -> ArithExpr) -> ArithError {
        let p = self
            .partial
            .take()
            .unwrap_or_else(|| Box::new(ArithExpr::Num(0)));
        self.partial = Some(Box::new(f(p)));
        self
    }
}

/// Characters that start an arithmetic token; any other one after an operand is
/// "invalid arithmetic operator" as soon as bash reads it.
fn starts_token(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_()~!:?+-*/%<>=&|^, \t\n\r".contains(c)
}

type Res<T> = Result<T, ArithError>;

/// Parses a whole arithmetic expression. An empty (or blank) expression is `0`.
pub fn parse_arith(src: &str) -> Res<ArithExpr> {
    let mut p = ArithParser {
        src,
        chars: src.char_indices().collect(),
        pos: 0,
        depth: 0,
        assign_start: 0,
    };
    p.skip_ws();
    if p.pos >= p.chars.len() {
        return Ok(ArithExpr::Num(0));
    }
    let e = p.comma()?;
    p.skip_ws();
    if p.pos < p.chars.len() {
        let rest = p.rest();
        if let Some(err) = p.misplaced_name() {
            return Err(err.after(e));
        }
        // Another operand is out of place; any other character is no operator at all.
        let message = match rest.chars().next() {
            Some(c) if c.is_ascii_alphanumeric() || "_()~!:?+-*/%<>=&|^,".contains(c) => {
                "syntax error in expression"
            }
            _ => "syntax error: invalid arithmetic operator",
        };
        return Err(ArithError::new(message, rest).after(e));
    }
    Ok(e)
}

/// Parses an integer constant the way bash does in arithmetic (`0x1f`, `017`, `2#101`,
/// `64#@_`), with optional surrounding blanks. `None` if it is not a valid number.
pub fn parse_number(s: &str) -> Result<i64, ArithError> {
    let t = s.trim_matches(|c: char| c == ' ' || c == '\t' || c == '\n');
    number_literal(t)
}

fn digit_value(c: char, base: u32) -> Option<u32> {
    let v = match c {
        '0'..='9' => c as u32 - '0' as u32,
        'a'..='z' => c as u32 - 'a' as u32 + 10,
        'A'..='Z' => {
            if base <= 36 {
                c as u32 - 'A' as u32 + 10
            } else {
                c as u32 - 'A' as u32 + 36
            }
        }
        '@' => 62,
        '_' => 63,
        _ => return None,
    };
    Some(v)
}

fn number_literal(t: &str) -> Res<i64> {
    let invalid = || ArithError::new("invalid number", t);
    if t.is_empty() {
        return Err(invalid());
    }
    let (base, digits) = if let Some((b, d)) = t.split_once('#') {
        // A base is a decimal number without leading zeros (`02#1`, `0#1` are invalid).
        if b.starts_with('0') {
            return Err(invalid());
        }
        let base: u32 = b
            .parse()
            .map_err(|_| ArithError::new("invalid number", t))?;
        if !(2..=64).contains(&base) {
            return Err(ArithError::new("invalid arithmetic base", t));
        }
        (base, d)
    } else if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        (16, h)
    } else if t.len() > 1 && t.starts_with('0') {
        (8, &t[1..])
    } else {
        (10, t)
    };
    if digits.is_empty() {
        if base == 16 && !t.contains('#') {
            return Ok(0);
        }
        if t.ends_with('#') {
            return Err(ArithError::new("invalid integer constant", t));
        }
        return Err(invalid());
    }
    let mut n: i64 = 0;
    for c in digits.chars() {
        let v = digit_value(c, base).ok_or_else(invalid)?;
        if v >= base {
            return Err(ArithError::new("value too great for base", t));
        }
        n = n.wrapping_mul(base as i64).wrapping_add(v as i64);
    }
    Ok(n)
}

struct ArithParser<'a> {
    src: &'a str,
    chars: Vec<(usize, char)>,
    pos: usize,
    depth: usize,
    /// Where the assignment being read starts (see [`ArithParser::postfix`]).
    assign_start: usize,
}

const MAX_DEPTH: usize = 20_000;

impl ArithParser<'_> {
    /// The byte offset of the cursor, as the tree keeps it.
    fn offset(&self) -> u32 {
        let i = self.chars.get(self.pos).map_or(self.src.len(), |&(i, _)| i);
        u32::try_from(i).unwrap_or(u32::MAX)
    }

    /// Where bash's error token starts for an error found after an operand: the next
    /// token, or at the end of the text the last one.
    fn token_after(&mut self) -> u32 {
        self.skip_ws();
        if self.pos < self.chars.len() {
            return self.offset();
        }
        let i = self.src.len() - self.last_token().len();
        u32::try_from(i).unwrap_or(u32::MAX)
    }

    /// At a name where an operator belongs (`a b$`): bash reads that name (and its
    /// subscript) and then the next token before it reports the name out of place,
    /// so an unclosed subscript or a character no token starts with is the error.
    fn misplaced_name(&self) -> Option<ArithError> {
        let start = self.rest();
        if !start.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return None;
        }
        let mut i = start
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(start.len());
        if start[i..].starts_with('[') {
            let mut depth = 0usize;
            let close = start[i..].char_indices().find_map(|(k, c)| {
                match c {
                    '[' => depth += 1,
                    ']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(k);
                        }
                    }
                    _ => {}
                }
                None
            });
            match close {
                Some(k) => i += k + 1,
                None => return Some(ArithError::new("bad array subscript", start)),
            }
        }
        let after = start[i..].trim_start_matches([' ', '\t', '\n', '\r']);
        match after.chars().next() {
            Some(c) if !starts_token(c) => Some(ArithError::new(
                "syntax error: invalid arithmetic operator",
                after,
            )),
            _ => None,
        }
    }

    fn rest(&self) -> &str {
        match self.chars.get(self.pos) {
            Some(&(i, _)) => &self.src[i..],
            None => "",
        }
    }

    /// The text from the start of the last token before the cursor: an operator's run
    /// of operator characters, a name's or number's run of word characters, or a
    /// single other character.
    fn last_token(&self) -> &str {
        let mut k = self.pos.min(self.chars.len());
        while k > 0 && matches!(self.chars.get(k - 1), Some((_, ' ' | '\t' | '\n' | '\r'))) {
            k -= 1;
        }
        let is_op = |c: char| "+-*/%<>=!&|^~?:,".contains(c);
        let is_word = |c: char| c.is_ascii_alphanumeric() || "_#@".contains(c);
        if k > 0 && self.chars.get(k - 1).is_some_and(|&(_, c)| is_op(c)) {
            let end = k;
            while k > 0 && self.chars.get(k - 1).is_some_and(|&(_, c)| is_op(c)) {
                k -= 1;
            }
            // The run splits into bash's operators, longest first (`++` and `--` after
            // no variable are two signs); the last of them is the token.
            const LONG: [&str; 19] = [
                "<<=", ">>=", "**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=",
                "%=", "+=", "-=", "&=", "^=", "|=",
            ];
            // A variable's own `++`/`--` is one token.
            let mut w = k;
            while w > 0
                && self
                    .chars
                    .get(w - 1)
                    .is_some_and(|&(_, c)| is_word(c) || c == ']')
            {
                w -= 1;
            }
            let after_name = w < k
                && self
                    .chars
                    .get(w)
                    .is_some_and(|&(_, c)| c == '_' || c.is_ascii_alphabetic());
            let mut i = k;
            while i < end {
                let pair = (
                    self.chars.get(i).map(|p| p.1),
                    self.chars.get(i + 1).map(|p| p.1),
                );
                if i == k
                    && after_name
                    && matches!(pair, (Some('+'), Some('+')) | (Some('-'), Some('-')))
                {
                    k = i;
                    i += 2;
                    continue;
                }
                let len =
                    LONG.iter()
                        .find(|op| {
                            op.chars().count() <= end - i
                                && op.chars().enumerate().all(|(j, c)| {
                                    self.chars.get(i + j).is_some_and(|&(_, d)| d == c)
                                })
                        })
                        .map_or(1, |op| op.chars().count());
                k = i;
                i += len;
            }
        } else if k > 0
            && self
                .chars
                .get(k - 1)
                .is_some_and(|&(_, c)| is_word(c) || c == ']')
        {
            // A name with its subscript is one token.
            if self.chars.get(k - 1).is_some_and(|&(_, c)| c == ']') {
                let mut depth = 0usize;
                while k > 0 {
                    k -= 1;
                    match self.chars.get(k).map(|&(_, c)| c) {
                        Some(']') => depth += 1,
                        Some('[') => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                }
            }
            while k > 0 && self.chars.get(k - 1).is_some_and(|&(_, c)| is_word(c)) {
                k -= 1;
            }
        } else {
            k = k.saturating_sub(1);
        }
        match self.chars.get(k) {
            Some(&(i, _)) => &self.src[i..],
            None => "",
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).map(|&(_, c)| c)
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.chars.get(self.pos + n).map(|&(_, c)| c)
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\n' | '\r')) {
            self.pos += 1;
        }
    }

    fn at_str(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.peek_at(i) == Some(c))
    }

    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        if self.at_str(s) {
            self.pos += s.chars().count();
            true
        } else {
            false
        }
    }

    fn enter(&mut self) -> Res<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ArithError::new(
                "expression recursion level exceeded",
                self.rest(),
            ));
        }
        Ok(())
    }

    /// A comma list: where parentheses nest, so the stack grows on the heap when it
    /// runs low (each level's frames are large).
    fn comma(&mut self) -> Res<ArithExpr> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.comma_inner())
    }

    fn comma_inner(&mut self) -> Res<ArithExpr> {
        let mut e = self.assign()?;
        while self.eat(",") {
            let r = match self.assign() {
                Ok(r) => r,
                Err(err) => return Err(err.after(e)),
            };
            e = ArithExpr::Comma(Box::new(e), Box::new(r));
        }
        Ok(e)
    }

    fn assign_op(&mut self) -> Option<Option<BinOp>> {
        self.skip_ws();
        const OPS: [(&str, Option<BinOp>); 11] = [
            ("<<=", Some(BinOp::Shl)),
            (">>=", Some(BinOp::Shr)),
            ("*=", Some(BinOp::Mul)),
            ("/=", Some(BinOp::Div)),
            ("%=", Some(BinOp::Rem)),
            ("+=", Some(BinOp::Add)),
            ("-=", Some(BinOp::Sub)),
            ("&=", Some(BinOp::BitAnd)),
            ("^=", Some(BinOp::BitXor)),
            ("|=", Some(BinOp::BitOr)),
            ("=", None),
        ];
        for (s, op) in OPS {
            if self.at_str(s) {
                if s == "=" && self.peek_at(1) == Some('=') {
                    return None;
                }
                self.pos += s.len();
                return Some(op);
            }
        }
        None
    }

    fn assign(&mut self) -> Res<ArithExpr> {
        self.enter()?;
        self.skip_ws();
        let start = self.pos;
        let outer = std::mem::replace(&mut self.assign_start, start);
        let lhs = self.ternary();
        self.assign_start = outer;
        let lhs = lhs?;
        let save = self.pos;
        // A parenthesized variable is a value, not a variable to assign to.
        let parenthesized = self.chars.get(start).is_some_and(|&(_, c)| c == '(');
        let result = if let Some(op) = self.assign_op() {
            match lhs {
                ArithExpr::Var(name, index) if !parenthesized => {
                    // Assignments nest to the right (`a = b = 1`).
                    let rhs = match stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.assign()) {
                        Ok(r) => r,
                        // A compound assignment has read its variable already.
                        Err(e) if op.is_some() => return Err(e.after(ArithExpr::Var(name, index))),
                        Err(e) => return Err(e),
                    };
                    let at = self.token_after();
                    ArithExpr::Assign(op, name, index, Box::new(rhs), at)
                }
                _ => {
                    self.pos = save;
                    self.skip_ws();
                    // The left side was read (and evaluated) before the operator.
                    let e = ArithError::new("attempted assignment to non-variable", self.rest());
                    return Err(e.after(lhs));
                }
            }
        } else {
            self.pos = save;
            lhs
        };
        self.depth -= 1;
        Ok(result)
    }

    fn ternary(&mut self) -> Res<ArithExpr> {
        let cond = self.binary(0)?;
        if self.eat("?") {
            // Only the branch the condition picks does its work.
            let zero = || Box::new(ArithExpr::Num(0));
            if let Err(e) = self.expression_due(true) {
                return Err(e.after(cond));
            }
            // The branch between `?` and `:` is a whole expression, commas and all.
            let a = match self.comma() {
                Ok(a) => a,
                Err(e) => {
                    return Err(e.map_partial(|p| ArithExpr::Cond(Box::new(cond), p, zero())));
                }
            };
            let done =
                |a: ArithExpr, b: Box<ArithExpr>| ArithExpr::Cond(Box::new(cond), Box::new(a), b);
            if !self.eat(":") {
                self.skip_ws();
                // At the end, bash names the last token it read.
                let token = match self.rest() {
                    "" => self.last_token(),
                    rest => rest,
                };
                let e = ArithError::new("`:' expected for conditional expression", token);
                return Err(e.after(done(a, zero())));
            }
            if let Err(e) = self.expression_due(false) {
                return Err(e.after(done(a, zero())));
            }
            // The branch after `:` is a conditional expression: an assignment operator
            // after it applies to the whole conditional.
            self.enter()?;
            let b = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.ternary());
            self.depth -= 1;
            return match b {
                Ok(b) => Ok(done(a, Box::new(b))),
                Err(e) => Err(e.map_partial(|p| done(a, p))),
            };
        }
        Ok(cond)
    }

    /// After `?` or `:` of a conditional: bash's error when the text ends there, or (for
    /// `?`) when `:` follows at once.
    fn expression_due(&mut self, after_question: bool) -> Res<()> {
        self.skip_ws();
        let token = match self.peek() {
            None => self.last_token(),
            Some(':') if after_question => self.rest(),
            _ => return Ok(()),
        };
        Err(ArithError::new("expression expected", token))
    }

    /// Binary operators by precedence level, lowest first.
    fn binop_at(&self, level: usize) -> Option<(BinOp, usize)> {
        let table: &[(&str, BinOp)] = match level {
            0 => &[("||", BinOp::Or)],
            1 => &[("&&", BinOp::And)],
            2 => &[("|", BinOp::BitOr)],
            3 => &[("^", BinOp::BitXor)],
            4 => &[("&", BinOp::BitAnd)],
            5 => &[("==", BinOp::Eq), ("!=", BinOp::Ne)],
            6 => &[
                ("<=", BinOp::Le),
                (">=", BinOp::Ge),
                ("<", BinOp::Lt),
                (">", BinOp::Gt),
            ],
            7 => &[("<<", BinOp::Shl), (">>", BinOp::Shr)],
            8 => &[("+", BinOp::Add), ("-", BinOp::Sub)],
            9 => &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)],
            _ => return None,
        };
        for &(s, op) in table {
            if self.at_str(s) {
                let len = s.len();
                let next = self.peek_at(len);
                // Do not split longer operators: `||` vs `|`, `&&` vs `&`, `<<` vs `<`,
                // `op=` assignments, `**`, `++`/`--`.
                let conflict = match s {
                    "|" => matches!(next, Some('|' | '=')),
                    "&" => matches!(next, Some('&' | '=')),
                    "^" => next == Some('='),
                    "<" => matches!(next, Some('<' | '=')),
                    ">" => matches!(next, Some('>' | '=')),
                    "<<" | ">>" => next == Some('='),
                    "+" => matches!(next, Some('=')),
                    "-" => matches!(next, Some('=')),
                    "*" => matches!(next, Some('*' | '=')),
                    "/" | "%" => next == Some('='),
                    _ => false,
                };
                if !conflict {
                    return Some((op, len));
                }
            }
        }
        None
    }

    fn binary(&mut self, level: usize) -> Res<ArithExpr> {
        if level > 9 {
            return self.power();
        }
        let mut lhs = self.binary(level + 1)?;
        loop {
            self.skip_ws();
            let Some((op, len)) = self.binop_at(level) else {
                return Ok(lhs);
            };
            self.pos += len;
            // bash's token for a zero divisor starts at the divisor, or at a newline
            // before it.
            while matches!(self.peek(), Some(' ' | '\t')) {
                self.pos += 1;
            }
            let rhs_at = self.offset();
            let rhs = match self.binary(level + 1) {
                Ok(r) => r,
                // The right operand of `&&` and `||` does its work only when read for
                // its value.
                Err(e) if matches!(op, BinOp::And | BinOp::Or) && e.partial.is_some() => {
                    return Err(e.map_partial(|p| ArithExpr::Binary(op, Box::new(lhs), p, 0)));
                }
                Err(e) => return Err(e.after(lhs)),
            };
            lhs = ArithExpr::Binary(op, Box::new(lhs), Box::new(rhs), rhs_at);
        }
    }

    fn power(&mut self) -> Res<ArithExpr> {
        let base = self.unary()?;
        self.skip_ws();
        if self.at_str("**") && self.peek_at(2) != Some('=') {
            self.pos += 2;
            self.enter()?;
            // `**` nests to the right, on a stack that grows as `comma`'s does.
            let exp = match stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.power()) {
                Ok(x) => x,
                Err(e) => return Err(e.after(base)),
            };
            self.depth -= 1;
            let at = self.token_after();
            return Ok(ArithExpr::Binary(
                BinOp::Pow,
                Box::new(base),
                Box::new(exp),
                at,
            ));
        }
        Ok(base)
    }

    /// A unary expression: prefix operators nest here, on a stack that grows as
    /// [`ArithParser::comma`]'s does.
    fn unary(&mut self) -> Res<ArithExpr> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.unary_inner())
    }

    fn unary_inner(&mut self) -> Res<ArithExpr> {
        self.enter()?;
        self.skip_ws();
        // An operator that only follows an operand is read as one token here.
        if self.at_str("!=") || self.at_str("+=") || self.at_str("-=") {
            return Err(ArithError::new(
                "syntax error: operand expected",
                self.rest(),
            ));
        }
        let r = match self.peek() {
            Some(c @ ('+' | '-')) if self.peek_at(1) == Some(c) => {
                // `++x` / `--x` when a variable follows; otherwise two unary signs.
                let save = self.pos;
                self.pos += 2;
                self.skip_ws();
                if let Some((name, index)) = self.try_var()? {
                    let e = ArithExpr::IncDec {
                        name,
                        index,
                        inc: c == '+',
                        prefix: true,
                    };
                    self.check_lookahead(Some(&e)).map(|()| e)
                } else {
                    self.pos = save + 1;
                    let e = self.unary()?;
                    let op = if c == '-' {
                        UnaryOp::Neg
                    } else {
                        UnaryOp::Plus
                    };
                    Ok(ArithExpr::Unary(op, Box::new(e)))
                }
            }
            Some(c @ ('-' | '+' | '!' | '~')) => {
                self.pos += 1;
                let op = match c {
                    '-' => UnaryOp::Neg,
                    '+' => UnaryOp::Plus,
                    '!' => UnaryOp::Not,
                    _ => UnaryOp::BitNot,
                };
                self.unary().map(|x| ArithExpr::Unary(op, Box::new(x)))
            }
            _ => self.postfix(),
        };
        self.depth -= 1;
        r
    }

    fn postfix(&mut self) -> Res<ArithExpr> {
        self.skip_ws();
        let start = self.pos;
        if let Some((name, index)) = self.try_var()? {
            self.skip_ws();
            for (s, inc) in [("++", true), ("--", false)] {
                if self.at_str(s) {
                    self.pos += 2;
                    let e = ArithExpr::IncDec {
                        name,
                        index,
                        inc,
                        prefix: false,
                    };
                    return self.check_lookahead(Some(&e)).map(|()| e);
                }
            }
            self.check_lookahead(None)?;
            // A variable that `=` follows is read as an assignment's target, whose
            // value bash does not fetch: unless it starts the assignment, the operand
            // is 0 (`6 / b = 2` divides by 0) before the assignment fails.
            if start != self.assign_start && self.at_str("=") && !self.at_str("==") {
                return Ok(ArithExpr::Num(0));
            }
            return Ok(ArithExpr::Var(name, index));
        }
        self.primary()
    }

    /// bash reads the token after an operand before it uses the operand: a malformed
    /// number or a character that starts no token fails there, before the operators
    /// waiting for the operand apply (`done` is the work the operand did itself).
    fn check_lookahead(&mut self, done: Option<&ArithExpr>) -> Res<()> {
        self.check_lookahead_as(done, "syntax error: invalid arithmetic operator")
    }

    /// [`Self::check_lookahead`] with bash's `message` for a character that starts no
    /// token.
    fn check_lookahead_as(&mut self, done: Option<&ArithExpr>, message: &str) -> Res<()> {
        let save = self.pos;
        self.skip_ws();
        let r = match self.peek() {
            Some(c) if c.is_ascii_digit() => self.number().map(|_| ()),
            Some(c) if !starts_token(c) => Err(ArithError::new(message, self.rest())),
            _ => Ok(()),
        };
        self.pos = save;
        r.map_err(|e| match done {
            Some(d) => e.after(d.clone()),
            None => e,
        })
    }

    /// A number at the cursor (a run of word characters), decoded.
    fn number(&mut self) -> Res<i64> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == '#' || c == '@' || c == '_' {
                self.pos += 1;
            } else {
                break;
            }
        }
        let text: String = self
            .chars
            .get(start..self.pos)
            .unwrap_or_default()
            .iter()
            .map(|&(_, c)| c)
            .collect();
        let end = self.chars.get(self.pos).map_or(self.src.len(), |&(i, _)| i);
        number_literal(&text).map_err(|mut e| {
            e.shown_end = Some(end);
            e
        })
    }

    /// A variable name with an optional `[subscript]`.
    fn try_var(&mut self) -> Res<Option<(String, Option<String>)>> {
        match self.peek() {
            Some(c) if c == '_' || c.is_ascii_alphabetic() => {}
            _ => return Ok(None),
        }
        let start = self.pos;
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c == '_' || c.is_ascii_alphanumeric() {
                name.push(c);
                self.pos += 1;
            } else {
                break;
            }
        }
        if self.peek() != Some('[') {
            return Ok(Some((name, None)));
        }
        self.pos += 1;
        let mut depth = 1;
        let mut sub = String::new();
        loop {
            match self.peek() {
                None => {
                    // As bash, the token is the rest of the text from the name.
                    self.pos = start;
                    return Err(ArithError::new("bad array subscript", self.rest()));
                }
                Some('[') => depth += 1,
                Some(']') => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        break;
                    }
                }
                // A quoted or escaped `]` does not close the subscript (its expansion
                // removes the quoting later).
                Some(q @ ('\'' | '"')) => {
                    sub.push(q);
                    self.pos += 1;
                    while let Some(c) = self.peek()
                        && c != q
                    {
                        sub.push(c);
                        self.pos += 1;
                        if c == '\\'
                            && q == '"'
                            && let Some(d) = self.peek()
                        {
                            sub.push(d);
                            self.pos += 1;
                        }
                    }
                    if self.peek() == Some(q) {
                        sub.push(q);
                        self.pos += 1;
                    }
                    continue;
                }
                Some('\\') if self.peek_at(1).is_some() => {
                    sub.push('\\');
                    self.pos += 1;
                }
                _ => {}
            }
            if let Some(c) = self.peek() {
                sub.push(c);
            }
            self.pos += 1;
        }
        Ok(Some((name, Some(sub))))
    }

    fn primary(&mut self) -> Res<ArithExpr> {
        self.skip_ws();
        match self.peek() {
            // The text ended where an operand was due: bash names the last token read
            // (the operator) and what follows it.
            None => Err(ArithError::new(
                "syntax error: operand expected",
                self.last_token(),
            )),
            Some('(') => {
                self.pos += 1;
                let e = self.comma()?;
                if !self.eat(")") {
                    self.skip_ws();
                    // At the end of the text bash names the last token it read.
                    let token = match self.rest() {
                        "" => self.last_token(),
                        rest => rest,
                    };
                    return Err(ArithError::new("missing `)'", token).after(e));
                }
                // After `)` bash takes a character that starts no token for a missing
                // operand, not for a bad operator.
                self.check_lookahead_as(Some(&e), "syntax error: operand expected")?;
                Ok(e)
            }
            Some(c) if c.is_ascii_digit() => {
                let n = self.number()?;
                self.check_lookahead(None)?;
                Ok(ArithExpr::Num(n))
            }
            Some(_) => {
                let rest = self.rest();
                Err(ArithError::new("syntax error: operand expected", rest))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> i64 {
        match parse_number(s) {
            Ok(n) => n,
            Err(e) => unreachable!("{s}: {e:?}"),
        }
    }

    #[test]
    fn numbers_in_every_base() {
        assert_eq!(num("42"), 42);
        assert_eq!(num("0x1F"), 31);
        assert_eq!(num("017"), 15);
        assert_eq!(num("2#101"), 5);
        assert_eq!(num("64#@"), 62);
        assert_eq!(num("64#_"), 63);
        assert_eq!(num("36#Z"), 35);
        assert!(parse_number("08").is_err());
        assert!(parse_number("2#3").is_err());
    }

    #[test]
    fn precedence() {
        let e = parse_arith("1 + 2 * 3").ok();
        assert_eq!(
            e,
            Some(ArithExpr::Binary(
                BinOp::Add,
                Box::new(ArithExpr::Num(1)),
                Box::new(ArithExpr::Binary(
                    BinOp::Mul,
                    Box::new(ArithExpr::Num(2)),
                    Box::new(ArithExpr::Num(3)),
                    8
                )),
                4
            ))
        );
        assert!(parse_arith("1 +").is_err());
        assert!(parse_arith("(1").is_err());
        assert!(parse_arith("1 = 2").is_err());
    }
}
