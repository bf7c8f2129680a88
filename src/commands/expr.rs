//! `expr`: evaluates an expression given as separate arguments, GNU style: `|` `&`,
//! comparisons (numeric when both sides are integers), `+ - * / %`, `STRING : REGEX`
//! (an anchored BRE returning the match length or the first `\(...\)` group), and
//! `match`, `substr`, `index`, `length`, `+ TOKEN`. Status 1 when the result is null or
//! 0, 2 for an invalid expression. Integers are 128-bit (GNU's are unbounded).

use super::util::lq;
use super::{CmdResult, Ctx};

const USAGE: &str = "\
Usage: expr EXPRESSION
  or:  expr OPTION
Print the value of EXPRESSION to standard output.

  ARG1 | ARG2       ARG1 if it is neither null nor 0, otherwise ARG2
  ARG1 & ARG2       ARG1 if neither argument is null or 0, otherwise 0
  ARG1 < ARG2       ARG1 is less than ARG2 (also <=, =, ==, !=, >=, >)
  ARG1 + ARG2       arithmetic sum of ARG1 and ARG2 (also -, *, /, %)
  STRING : REGEXP   anchored pattern match of REGEXP in STRING
  match STRING REGEXP        same as STRING : REGEXP
  substr STRING POS LENGTH   substring of STRING, POS counted from 1
  index STRING CHARS         index in STRING where any CHARS is found, or 0
  length STRING              length of STRING
  + TOKEN                    interpret TOKEN as a string
  ( EXPRESSION )             value of EXPRESSION

Exit status is 0 if EXPRESSION is neither null nor 0, 1 if EXPRESSION is null
or 0, 2 if EXPRESSION is syntactically invalid, and 3 if an error occurred.
";

#[derive(Clone, Debug)]
enum Val {
    Int(i128),
    Str(String),
}

impl Val {
    fn text(&self) -> String {
        match self {
            Val::Int(n) => n.to_string(),
            Val::Str(s) => s.clone(),
        }
    }
    fn is_null(&self) -> bool {
        match self {
            Val::Int(n) => *n == 0,
            Val::Str(s) => {
                let digits = s.strip_prefix('-').unwrap_or(s);
                s.is_empty() || (!digits.is_empty() && digits.bytes().all(|b| b == b'0'))
            }
        }
    }
    /// The integer this value is, if it looks like one (`-?[0-9]+`).
    fn int(&self) -> Result<Option<i128>, String> {
        match self {
            Val::Int(n) => Ok(Some(*n)),
            Val::Str(s) => {
                let digits = s.strip_prefix('-').unwrap_or(s);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Ok(None);
                }
                s.parse::<i128>()
                    .map(Some)
                    .map_err(|_| "integer overflow".to_owned())
            }
        }
    }
}

/// Why evaluation stopped: status 2 (syntax, bad number) with a message.
struct Stop(String);

struct Parser<'a> {
    args: &'a [String],
    pos: usize,
}

type R = Result<Val, Stop>;

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.args.get(self.pos).map(String::as_str)
    }
    fn eat(&mut self, tok: &str) -> bool {
        if self.peek() == Some(tok) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn prev(&self) -> String {
        self.pos
            .checked_sub(1)
            .and_then(|i| self.args.get(i))
            .map_or_else(String::new, |s| lq(s))
    }

    fn or(&mut self) -> R {
        let mut l = self.and()?;
        while self.eat("|") {
            let r = self.and()?;
            if l.is_null() {
                l = if r.is_null() { Val::Int(0) } else { r };
            }
        }
        Ok(l)
    }

    fn and(&mut self) -> R {
        let mut l = self.cmp()?;
        while self.eat("&") {
            let r = self.cmp()?;
            if l.is_null() || r.is_null() {
                l = Val::Int(0);
            }
        }
        Ok(l)
    }

    fn cmp(&mut self) -> R {
        let mut l = self.sum()?;
        loop {
            let Some(op) = self
                .peek()
                .filter(|t| matches!(*t, "<" | "<=" | "=" | "==" | "!=" | ">=" | ">"))
                .map(str::to_owned)
            else {
                return Ok(l);
            };
            self.pos += 1;
            let r = self.sum()?;
            let ord = match (l.int().map_err(Stop)?, r.int().map_err(Stop)?) {
                (Some(a), Some(b)) => a.cmp(&b),
                _ => l.text().as_bytes().cmp(r.text().as_bytes()),
            };
            let yes = match op.as_str() {
                "<" => ord.is_lt(),
                "<=" => ord.is_le(),
                "=" | "==" => ord.is_eq(),
                "!=" => ord.is_ne(),
                ">=" => ord.is_ge(),
                _ => ord.is_gt(),
            };
            l = Val::Int(i128::from(yes));
        }
    }

    fn nums(l: &Val, r: &Val) -> Result<(i128, i128), Stop> {
        match (l.int().map_err(Stop)?, r.int().map_err(Stop)?) {
            (Some(a), Some(b)) => Ok((a, b)),
            _ => Err(Stop("non-integer argument".to_owned())),
        }
    }

    fn sum(&mut self) -> R {
        let mut l = self.product()?;
        loop {
            let plus = if self.eat("+") {
                true
            } else if self.eat("-") {
                false
            } else {
                return Ok(l);
            };
            let r = self.product()?;
            let (a, b) = Self::nums(&l, &r)?;
            let v = if plus {
                a.checked_add(b)
            } else {
                a.checked_sub(b)
            };
            l = Val::Int(v.ok_or_else(|| Stop("integer overflow".to_owned()))?);
        }
    }

    fn product(&mut self) -> R {
        let mut l = self.colon()?;
        loop {
            let op = match self.peek() {
                Some(t @ ("*" | "/" | "%")) => t.to_owned(),
                _ => return Ok(l),
            };
            self.pos += 1;
            let r = self.colon()?;
            let (a, b) = Self::nums(&l, &r)?;
            if b == 0 {
                return Err(Stop("division by zero".to_owned()));
            }
            let v = match op.as_str() {
                "*" => a.checked_mul(b),
                "/" => a.checked_div(b),
                _ => a.checked_rem(b),
            };
            l = Val::Int(v.ok_or_else(|| Stop("integer overflow".to_owned()))?);
        }
    }

    fn colon(&mut self) -> R {
        let mut l = self.unary()?;
        while self.eat(":") {
            let r = self.unary()?;
            l = matches(&l.text(), &r.text())?;
        }
        Ok(l)
    }

    fn unary(&mut self) -> R {
        if self.eat("+") {
            return match self.args.get(self.pos) {
                Some(t) => {
                    self.pos += 1;
                    Ok(Val::Str(t.clone()))
                }
                None => Err(Stop(format!(
                    "syntax error: missing argument after {}",
                    self.prev()
                ))),
            };
        }
        if self.eat("length") {
            let v = self.unary()?;
            return Ok(Val::Int(v.text().chars().count() as i128));
        }
        if self.eat("match") {
            let s = self.unary()?;
            let re = self.unary()?;
            return matches(&s.text(), &re.text());
        }
        if self.eat("index") {
            let s = self.unary()?.text();
            let set = self.unary()?.text();
            let pos = s
                .chars()
                .position(|c| set.contains(c))
                .map_or(0, |p| p as i128 + 1);
            return Ok(Val::Int(pos));
        }
        if self.eat("substr") {
            let s = self.unary()?.text();
            let pos = self.unary()?;
            let len = self.unary()?;
            let (Ok(Some(pos)), Ok(Some(len))) = (pos.int(), len.int()) else {
                return Ok(Val::Str(String::new()));
            };
            if pos < 1 || len < 1 {
                return Ok(Val::Str(String::new()));
            }
            let skip = usize::try_from(pos - 1).unwrap_or(usize::MAX);
            let take = usize::try_from(len).unwrap_or(usize::MAX);
            return Ok(Val::Str(s.chars().skip(skip).take(take).collect()));
        }
        self.primary()
    }

    fn primary(&mut self) -> R {
        let Some(tok) = self.peek().map(str::to_owned) else {
            return Err(Stop(format!(
                "syntax error: missing argument after {}",
                self.prev()
            )));
        };
        self.pos += 1;
        match tok.as_str() {
            "(" => {
                let v = self.or()?;
                match self.peek() {
                    None => Err(Stop(format!(
                        "syntax error: expecting ')' after {}",
                        self.prev()
                    ))),
                    Some(")") => {
                        self.pos += 1;
                        Ok(v)
                    }
                    Some(other) => Err(Stop(format!(
                        "syntax error: expecting ')' instead of {}",
                        lq(other)
                    ))),
                }
            }
            ")" => Err(Stop("syntax error: unexpected ')'".to_owned())),
            _ => Ok(Val::Str(tok)),
        }
    }
}

/// `STRING : REGEX`: an anchored BRE match.
fn matches(s: &str, re: &str) -> R {
    let translated = crate::posix_regex::translate(re, false).map_err(|e| Stop(regerror(&e)))?;
    let compiled = regex::Regex::new(&format!("^(?:{translated})"))
        .map_err(|e| Stop(regerror(&e.to_string())))?;
    let groups = compiled.captures_len() > 1;
    match compiled.captures(s) {
        Some(caps) if groups => Ok(Val::Str(
            caps.get(1)
                .map_or_else(String::new, |m| m.as_str().to_owned()),
        )),
        Some(caps) => Ok(Val::Int(
            caps.get(0).map_or(0, |m| m.as_str().chars().count()) as i128,
        )),
        None if groups => Ok(Val::Str(String::new())),
        None => Ok(Val::Int(0)),
    }
}

/// glibc's regerror text for a translation or compile failure.
fn regerror(e: &str) -> String {
    let lower = e.to_ascii_lowercase();
    if lower.contains("unmatched [") || lower.contains("unclosed character class") {
        "Unmatched [, [^, [:, [., or [=".to_owned()
    } else if lower.contains("unmatched \\{") || lower.contains("repetition") {
        "Unmatched \\{".to_owned()
    } else if lower.contains("invalid content") {
        "Invalid content of \\{\\}".to_owned()
    } else if lower.contains("unclosed group") || lower.contains("unopened group") {
        "Unmatched ( or \\(".to_owned()
    } else if lower.contains("back-reference") {
        "Invalid back reference".to_owned()
    } else {
        "Invalid regular expression".to_owned()
    }
}

pub fn expr(ctx: &mut Ctx) -> CmdResult {
    let mut args: &[String] = ctx.args;
    match args {
        [a] if a == "--help" => {
            ctx.stdout.write_all(USAGE.as_bytes())?;
            return Ok(0);
        }
        [a] if a == "--version" => {
            super::about::write_version(ctx)?;
            return Ok(0);
        }
        [a, rest @ ..] if a == "--" => args = rest,
        _ => {}
    }
    if args.is_empty() {
        return super::args::usage_error(ctx, "missing operand", 2);
    }
    let mut p = Parser { args, pos: 0 };
    let result = p.or().and_then(|v| match p.peek() {
        Some(extra) => Err(Stop(format!(
            "syntax error: unexpected argument {}",
            lq(extra)
        ))),
        None => Ok(v),
    });
    match result {
        Ok(v) => {
            let mut line = crate::text::encode(&v.text());
            line.push(b'\n');
            ctx.stdout.write_all(&line)?;
            Ok(i32::from(v.is_null()))
        }
        Err(Stop(msg)) => {
            ctx.err(msg)?;
            Ok(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn expr_table() {
        for (line, out, err, status) in [
            ("expr 1 + 2", "3\n", "", 0),
            ("expr 3 '*' 4", "12\n", "", 0),
            ("expr 7 / 2", "3\n", "", 0),
            ("expr -7 / 2", "-3\n", "", 0),
            ("expr -7 % 3", "-1\n", "", 0),
            ("expr -5 % -3", "-2\n", "", 0),
            ("expr 5 / -2", "-2\n", "", 0),
            ("expr 3 - -2", "5\n", "", 0),
            ("expr -1 + 1", "0\n", "", 1),
            (
                "expr 9223372036854775807 + 1",
                "9223372036854775808\n",
                "",
                0,
            ),
            ("expr 1 / 0", "", "expr: division by zero\n", 2),
            ("expr 5 % 0", "", "expr: division by zero\n", 2),
            ("expr a + 1", "", "expr: non-integer argument\n", 2),
            ("expr ' 1' + 1", "", "expr: non-integer argument\n", 2),
            ("expr +1 + 1", "", "expr: non-integer argument\n", 2),
            ("expr abc : a", "1\n", "", 0),
            ("expr abc : 'a\\(.\\)'", "b\n", "", 0),
            ("expr abc : '^b'", "0\n", "", 1),
            ("expr abc : b", "0\n", "", 1),
            ("expr abc : '.*'", "3\n", "", 0),
            ("expr a : '\\(x\\)*'", "\n", "", 1),
            ("expr abc : '\\(b\\)'", "\n", "", 1),
            ("expr ab : '\\(a\\)\\(b\\)'", "a\n", "", 0),
            ("expr aaa : 'a\\{2\\}'", "2\n", "", 0),
            ("expr 'a*' : 'a\\*'", "2\n", "", 0),
            ("expr '*' : '*'", "1\n", "", 0),
            ("expr abc : 'a\\{1'", "", "expr: Unmatched \\{\n", 2),
            (
                "expr x : '[a'",
                "",
                "expr: Unmatched [, [^, [:, [., or [=\n",
                2,
            ),
            ("expr abc : '\\('", "", "expr: Unmatched ( or \\(\n", 2),
            ("expr length abc", "3\n", "", 0),
            ("expr length héllo", "5\n", "", 0),
            ("expr substr abcdef 2 3", "bcd\n", "", 0),
            ("expr substr héllo 2 2", "él\n", "", 0),
            ("expr substr abc 0 1", "\n", "", 1),
            ("expr substr abc 5 1", "\n", "", 1),
            ("expr index abcdef cd", "3\n", "", 0),
            ("expr index abc z", "0\n", "", 1),
            ("expr index abc ''", "0\n", "", 1),
            ("expr match abc 'a.'", "2\n", "", 0),
            ("expr '' '|' 5", "5\n", "", 0),
            ("expr 0 '|' ''", "0\n", "", 1),
            ("expr 0 '&' 1", "0\n", "", 1),
            ("expr 3 '&' 4", "3\n", "", 0),
            ("expr '' '&' 1", "0\n", "", 1),
            ("expr a '|' b", "a\n", "", 0),
            ("expr 1 '|' 2 '&' 0", "1\n", "", 0),
            ("expr 1 = 1", "1\n", "", 0),
            ("expr 01 = 1", "1\n", "", 0),
            ("expr a '<' b", "1\n", "", 0),
            ("expr 10 '<' 9", "0\n", "", 1),
            ("expr 10 '<' 9a", "1\n", "", 0),
            ("expr 2 '>' 10", "0\n", "", 1),
            ("expr 1 != 2", "1\n", "", 0),
            ("expr 1 '<=' 1", "1\n", "", 0),
            ("expr 3 == 3", "1\n", "", 0),
            ("expr '(' 1 + 2 ')' '*' 3", "9\n", "", 0),
            ("expr + length", "length\n", "", 0),
            ("expr -- 5", "5\n", "", 0),
            (
                "expr '(' 1",
                "",
                "expr: syntax error: expecting ')' after '1'\n",
                2,
            ),
            (
                "expr '(' ')'",
                "",
                "expr: syntax error: unexpected ')'\n",
                2,
            ),
            (
                "expr 1 +",
                "",
                "expr: syntax error: missing argument after '+'\n",
                2,
            ),
            (
                "expr length",
                "",
                "expr: syntax error: missing argument after 'length'\n",
                2,
            ),
            (
                "expr match",
                "",
                "expr: syntax error: missing argument after 'match'\n",
                2,
            ),
            (
                "expr 1 2",
                "",
                "expr: syntax error: unexpected argument '2'\n",
                2,
            ),
            (
                "expr 5 --",
                "",
                "expr: syntax error: unexpected argument '--'\n",
                2,
            ),
            (
                "expr - 5",
                "",
                "expr: syntax error: unexpected argument '5'\n",
                2,
            ),
            (
                "expr --help x",
                "",
                "expr: syntax error: unexpected argument 'x'\n",
                2,
            ),
            (
                "expr '(' 1 ')' '(' 2 ')'",
                "",
                "expr: syntax error: unexpected argument '('\n",
                2,
            ),
            (
                "expr",
                "",
                "expr: missing operand\nTry 'expr --help' for more information.\n",
                2,
            ),
        ] {
            check(&[], line, "", (out, err, status));
        }
    }
}
