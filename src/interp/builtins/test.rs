//! Conditional expressions (bash manual, "Bash Conditional Expressions"): the `test` and
//! `[` builtins with POSIX argument-count rules, and `[[ ]]` with patterns and regexes.

use super::super::{Interp, R};
use crate::expand::pattern::{MatchOpts, Pattern};
use crate::expand::{ExpandError, Expander, Value};
use crate::fs::{Device, FileType};
use crate::syntax::{CondExpr, Word, WordPart};

pub fn test(sh: &mut Interp, args: &[String]) -> R {
    run_test(sh, "test", &args[1..])
}

pub fn bracket(sh: &mut Interp, args: &[String]) -> R {
    if args.last().map(String::as_str) != Some("]") {
        sh.builtin_error("[", "missing `]'");
        return Ok(2);
    }
    run_test(sh, "[", &args[1..args.len() - 1])
}

fn run_test(sh: &mut Interp, name: &str, args: &[String]) -> R {
    let mut p = TestParser {
        sh,
        args,
        pos: 0,
        bracket: name == "[",
    };
    match p.test_command() {
        Ok(b) => Ok((!b) as i32),
        Err(msg) => {
            p.sh.builtin_error(name, &msg);
            Ok(2)
        }
    }
}

/// The argument-count rules of bash's `test.c`, step for step: up to four arguments
/// decide by their count (POSIX), more are parsed as an expression with `-o` below
/// `-a` below `!`; arguments left over are "too many".
struct TestParser<'a> {
    sh: &'a mut Interp,
    args: &'a [String],
    pos: usize,
    /// Run as `[`: bash drops the `]` from the count but not from its argument vector,
    /// so a missing `)` at the end is reported as "found ]".
    bracket: bool,
}

fn is_unary(op: &str) -> bool {
    crate::syntax::is_unary_test_op(op)
}

fn is_binary(op: &str) -> bool {
    op == "<" || op == ">" || crate::syntax::is_binary_test_op(op)
}

/// Whether a word is an integer as bash's `legal_number` reads one (blanks around it).
fn legal_number(s: &str) -> bool {
    s.trim().parse::<i64>().is_ok()
}

impl TestParser<'_> {
    fn argc(&self) -> usize {
        self.args.len()
    }

    /// The argument at `i`, or "" past the end (bash's code reads only guarded slots).
    fn arg(&self, i: usize) -> &str {
        self.args.get(i).map_or("", String::as_str)
    }

    /// Moves past an argument; with `need`, one must follow ("argument expected").
    fn advance(&mut self, need: bool) -> Result<(), String> {
        self.pos += 1;
        if need && self.pos >= self.argc() {
            return Err(beyond());
        }
        Ok(())
    }

    fn test_command(&mut self) -> Result<bool, String> {
        if self.argc() == 0 {
            return Ok(false);
        }
        let value = self.posixtest()?;
        if self.pos != self.argc() && !self.sh.int_assign_failed {
            let extra = self.arg(self.pos);
            return Err(if extra.starts_with('-') {
                format!("syntax error: `{extra}' unexpected")
            } else {
                "too many arguments".to_owned()
            });
        }
        Ok(value)
    }

    fn posixtest(&mut self) -> Result<bool, String> {
        let n = self.argc();
        match n {
            1 => {
                self.pos = n;
                Ok(!self.arg(0).is_empty())
            }
            2 => {
                let v = self.two_arguments()?;
                self.pos = n;
                Ok(v)
            }
            3 => self.three_arguments(),
            4 if self.arg(0) == "!" => {
                self.advance(true)?;
                Ok(!self.three_arguments()?)
            }
            4 if self.arg(0) == "(" && self.arg(3) == ")" => {
                self.advance(true)?;
                let v = self.two_arguments()?;
                self.pos = n;
                Ok(v)
            }
            _ => self.expr(),
        }
    }

    fn two_arguments(&mut self) -> Result<bool, String> {
        let a = self.arg(self.pos);
        if a == "!" {
            return Ok(self.arg(self.pos + 1).is_empty());
        }
        if is_unary(a) {
            return self.unary_operator();
        }
        Err(format!("{a}: unary operator expected"))
    }

    fn three_arguments(&mut self) -> Result<bool, String> {
        let n = self.argc();
        let (a, op, b) = (
            self.arg(self.pos),
            self.arg(self.pos + 1),
            self.arg(self.pos + 2),
        );
        let value = if is_binary(op) {
            self.binary_operator()?
        } else if op == "-a" {
            !a.is_empty() && !b.is_empty()
        } else if op == "-o" {
            !a.is_empty() || !b.is_empty()
        } else if a == "!" {
            self.advance(true)?;
            !self.two_arguments()?
        } else if a == "(" && b.starts_with(')') {
            // bash looks at the first character of the third argument only.
            !op.is_empty()
        } else {
            return Err(format!("{op}: binary operator expected"));
        };
        self.pos = n;
        Ok(value)
    }

    fn expr(&mut self) -> Result<bool, String> {
        if self.pos >= self.argc() {
            return Err(beyond());
        }
        self.or()
    }

    // Both sides are evaluated, as in bash, so an error on the right is reported even
    // when the left decides the result.
    fn or(&mut self) -> Result<bool, String> {
        let value = self.and()?;
        if self.pos < self.argc() && self.arg(self.pos) == "-o" && !self.sh.int_assign_failed {
            self.advance(false)?;
            let v2 = self.or()?;
            return Ok(value || v2);
        }
        Ok(value)
    }

    fn and(&mut self) -> Result<bool, String> {
        let value = self.term()?;
        if self.pos < self.argc() && self.arg(self.pos) == "-a" && !self.sh.int_assign_failed {
            self.advance(false)?;
            let v2 = self.and()?;
            return Ok(value && v2);
        }
        Ok(value)
    }

    fn term(&mut self) -> Result<bool, String> {
        let n = self.argc();
        if self.pos >= n {
            return Err(beyond());
        }
        if self.arg(self.pos) == "!" {
            let mut negate = false;
            while self.pos < n && self.arg(self.pos) == "!" {
                self.advance(true)?;
                negate = !negate;
            }
            return self.term().map(|v| v != negate);
        }
        if self.arg(self.pos) == "(" {
            self.advance(true)?;
            let value = self.expr()?;
            if self.pos >= n {
                return Err(if self.bracket && self.pos == n {
                    "`)' expected, found ]".to_owned()
                } else {
                    "`)' expected".to_owned()
                });
            }
            if self.arg(self.pos) != ")" {
                return Err(format!("`)' expected, found {}", self.arg(self.pos)));
            }
            self.advance(false)?;
            return Ok(value);
        }
        if self.pos + 3 <= n && is_binary(self.arg(self.pos + 1)) {
            return self.binary_operator();
        }
        if self.pos + 2 <= n && is_unary(self.arg(self.pos)) {
            return self.unary_operator();
        }
        let value = !self.arg(self.pos).is_empty();
        self.advance(false)?;
        Ok(value)
    }

    fn unary_operator(&mut self) -> Result<bool, String> {
        let op = self.arg(self.pos).to_owned();
        if op == "-t" {
            // `-t` alone tests descriptor 1; a following word is its operand only when
            // it is a number, else the test is false and the word is left unread.
            self.advance(false)?;
            if self.pos >= self.argc() {
                return unary(self.sh, &op, "1");
            }
            if !legal_number(self.arg(self.pos)) {
                return Ok(false);
            }
            let fd = self.arg(self.pos).to_owned();
            self.advance(false)?;
            return unary(self.sh, &op, &fd);
        }
        self.advance(true)?;
        let operand = self.arg(self.pos).to_owned();
        self.advance(false)?;
        unary(self.sh, &op, &operand)
    }

    fn binary_operator(&mut self) -> Result<bool, String> {
        let (l, op, r) = (
            self.arg(self.pos).to_owned(),
            self.arg(self.pos + 1).to_owned(),
            self.arg(self.pos + 2).to_owned(),
        );
        let value = binary(self.sh, &l, &op, &r)?;
        self.pos += 3;
        Ok(value)
    }
}

fn beyond() -> String {
    "argument expected".to_owned()
}

/// A unary test.
pub fn unary(sh: &mut Interp, op: &str, arg: &str) -> Result<bool, String> {
    match op {
        "-z" => return Ok(arg.is_empty()),
        "-n" => return Ok(!arg.is_empty()),
        "-o" => return Ok(sh.set.get(arg).unwrap_or(false)),
        "-v" => return Ok(var_is_set(sh, arg)),
        "-R" => {
            return Ok(sh
                .vars
                .get_raw(arg)
                .is_some_and(|v| v.attrs.has(crate::expand::Attrs::NAMEREF)));
        }
        "-t" => return Ok(false),
        _ => {}
    }
    if arg.is_empty() {
        return Ok(false);
    }
    let path = if let Some(n) = arg.strip_prefix("/dev/fd/") {
        return Ok(n
            .parse::<i32>()
            .ok()
            .and_then(|fd| sh.fds.get(fd).cloned())
            .is_some_and(|f| fd_unary(sh, op, &f)));
    } else {
        crate::fs::path::join(&sh.cwd, arg)
    };
    let fs = sh.fs.lock();
    let follow = !matches!(op, "-h" | "-L");
    let meta = if !prefixes_are_dirs(&fs, &sh.cwd, arg) {
        None
    } else if must_be_dir(arg) {
        fs.stat(&path).ok().filter(|m| m.file_type == FileType::Dir)
    } else if follow {
        fs.stat(&path).ok()
    } else {
        fs.lstat(&path).ok()
    };
    let Some(m) = meta else { return Ok(false) };
    Ok(match op {
        "-e" | "-a" => true,
        "-f" => m.file_type == FileType::File,
        "-d" => m.file_type == FileType::Dir,
        "-h" | "-L" => m.file_type == FileType::Symlink,
        "-b" => false,
        "-c" => matches!(m.file_type, FileType::Device(_)),
        "-p" => m.file_type == FileType::Fifo,
        "-S" => false,
        "-s" => m.size > 0,
        "-r" => fs.access(&path, true, false, false).is_ok(),
        "-w" => {
            fs.access(&path, false, true, false).is_ok()
                && !matches!(m.file_type, FileType::Device(Device::Full))
                || matches!(m.file_type, FileType::Device(_))
        }
        "-x" => fs.access(&path, false, false, true).is_ok(),
        "-g" => m.mode & 0o2000 != 0,
        "-u" => m.mode & 0o4000 != 0,
        "-k" => m.mode & 0o1000 != 0,
        "-O" => m.uid == fs.user().0,
        "-G" => m.gid == fs.user().1,
        "-N" => m.mtime > m.atime,
        _ => false,
    })
}

/// Whether a name resolves only to a directory: a trailing slash or a final `.` or `..`
/// makes the kernel follow the last component and insist on a directory, which the
/// filesystem's lexical paths would otherwise drop.
fn must_be_dir(name: &str) -> bool {
    name.ends_with('/') || name.ends_with("/.") || name.ends_with("/..")
}

/// Whether every part of a name that a slash follows is a directory, as the kernel's
/// walk requires (`f/..` is no name when `f` is a file, though it reduces to `.`).
fn prefixes_are_dirs(fs: &crate::fs::Fs, cwd: &str, name: &str) -> bool {
    name.match_indices('/').all(|(k, _)| {
        let prefix = name.get(..k).unwrap_or("");
        prefix.is_empty()
            || prefix.ends_with('/')
            || fs
                .stat(&crate::fs::path::join(cwd, prefix))
                .is_ok_and(|m| m.file_type == FileType::Dir)
    })
}

/// A unary test of `/dev/fd/N` for an open descriptor: on Linux the name is a symlink to
/// what the descriptor has open, a file's inode or a pipe (mode 0600, the user's).
fn fd_unary(sh: &Interp, op: &str, file: &crate::interp::io::OpenFile) -> bool {
    use crate::interp::io::OpenFile;
    if matches!(op, "-e" | "-a" | "-h" | "-L") {
        return true;
    }
    let fs = sh.fs.lock();
    let (ft, size, ino) = match file {
        OpenFile::File { ino, .. } => match fs.stat_ino(*ino) {
            Ok(m) => (m.file_type, m.size, Some(*ino)),
            Err(_) => return false,
        },
        OpenFile::Device(d) => (FileType::Device(*d), 0, None),
        _ => (FileType::Fifo, 0, None),
    };
    let access = |r: bool, w: bool, x: bool| match ino {
        Some(ino) => fs.access_ino(ino, r, w, x).is_ok(),
        None => !x,
    };
    match op {
        "-f" => ft == FileType::File,
        "-d" => ft == FileType::Dir,
        "-c" => matches!(ft, FileType::Device(_)),
        "-p" => ft == FileType::Fifo,
        "-s" => size > 0,
        "-r" => access(true, false, false),
        "-w" => access(false, true, false),
        "-x" => access(false, false, true),
        "-O" | "-G" => ino.is_none_or(|ino| {
            fs.stat_ino(ino).is_ok_and(|m| {
                if op == "-O" {
                    m.uid == fs.user().0
                } else {
                    m.gid == fs.user().1
                }
            })
        }),
        "-g" | "-u" | "-k" | "-N" => ino.is_some_and(|ino| {
            fs.stat_ino(ino).is_ok_and(|m| match op {
                "-g" => m.mode & 0o2000 != 0,
                "-u" => m.mode & 0o4000 != 0,
                "-k" => m.mode & 0o1000 != 0,
                _ => m.mtime > m.atime,
            })
        }),
        _ => false,
    }
}

fn var_is_set(sh: &mut Interp, name: &str) -> bool {
    // A number names a positional parameter (`$0` is always set).
    if legal_number(name) {
        let n = name.trim().parse::<i64>().unwrap_or(-1);
        return usize::try_from(n).is_ok_and(|n| n <= sh.positional.len());
    }
    if let Some((base, sub)) = crate::interp::host::split_element_ref(name) {
        let var = crate::expand::Host::var(sh, base);
        // An associative array's `@` and `*` are keys like any other.
        if (sub == "@" || sub == "*") && !var.as_ref().is_some_and(|v| v.is_assoc()) {
            return var.is_some_and(|v| v.value.is_some() && !v.values().is_empty());
        }
        // An unset name is an indexed array whose subscript is still evaluated.
        let v = var.unwrap_or_default();
        let Ok(sub) = sh.expand_subscript_for(v.is_assoc(), sub) else {
            return false;
        };
        let sub = sub.as_str();
        if v.is_assoc() {
            return matches!(&v.value, Some(Value::Assoc(a)) if a.get(sub).is_some());
        }
        // A subscript that is not a valid expression abandons the command line (see
        // `Interp::discard_flow`).
        let i = match sh.eval_int_value(sub) {
            Ok(i) => i,
            Err(f) => {
                sh.error(&f.render());
                return false;
            }
        };
        // Read after the subscript, which may have assigned to the array.
        let v = crate::expand::Host::var(sh, base).unwrap_or_default();
        let Some(idx) = v.read_index(i) else {
            sh.error(&format!("{base}: bad array subscript"));
            return false;
        };
        return match &v.value {
            Some(Value::Indexed(a)) => a.contains_key(&idx),
            Some(Value::Str(_)) => idx == 0,
            _ => false,
        };
    }
    // bash's lookup does not follow a nameref to an array element.
    if crate::expand::Host::nameref_target(sh, name).is_some_and(|t| t.ends_with(']')) {
        return false;
    }
    match crate::expand::Host::var(sh, name) {
        Some(v) => match &v.value {
            Some(Value::Indexed(a)) => a.contains_key(&0),
            Some(Value::Assoc(a)) => a.get("0").is_some(),
            Some(_) => true,
            None => false,
        },
        None => false,
    }
}

fn int_arg(s: &str) -> Result<i64, String> {
    let t = s.trim();
    t.parse::<i64>()
        .map_err(|_| format!("{s}: integer expression expected"))
}

/// A binary test of `test`/`[` (integers are plain numbers), and `[[ ]]`'s file tests
/// and string orderings.
pub fn binary(sh: &mut Interp, l: &str, op: &str, r: &str) -> Result<bool, String> {
    Ok(match op {
        "=" | "==" => l == r,
        "!=" => l != r,
        "<" => l < r,
        ">" => l > r,
        _ if ARITH_OPS.contains(&op) => {
            let a = int_arg(l)?;
            let b = int_arg(r)?;
            compare_ints(op, a, b)
        }
        "-nt" | "-ot" | "-ef" => {
            let fs = sh.fs.lock();
            // An empty name is no file (not the working directory).
            let stat = |name: &str| {
                (!name.is_empty())
                    .then(|| fs.stat(&crate::fs::path::join(&sh.cwd, name)).ok())
                    .flatten()
                    .filter(|m| !must_be_dir(name) || m.file_type == FileType::Dir)
                    .filter(|_| prefixes_are_dirs(&fs, &sh.cwd, name))
            };
            let (a, b) = (stat(l), stat(r));
            match op {
                "-nt" => match (a, b) {
                    (Some(a), Some(b)) => a.mtime > b.mtime,
                    (Some(_), None) => true,
                    _ => false,
                },
                "-ot" => match (a, b) {
                    (Some(a), Some(b)) => a.mtime < b.mtime,
                    (None, Some(_)) => true,
                    _ => false,
                },
                _ => matches!((a, b), (Some(a), Some(b)) if a.ino == b.ino),
            }
        }
        _ => return Err(format!("{op}: binary operator expected")),
    })
}

fn compare_ints(op: &str, a: i64, b: i64) -> bool {
    match op {
        "-eq" => a == b,
        "-ne" => a != b,
        "-lt" => a < b,
        "-le" => a <= b,
        "-gt" => a > b,
        _ => a >= b,
    }
}

/// The binary operators comparing integers.
const ARITH_OPS: [&str; 6] = ["-eq", "-ne", "-lt", "-le", "-gt", "-ge"];

/// Evaluates a `[[ ]]` expression to its exit status.
pub fn eval_cond(sh: &mut Interp, e: &CondExpr) -> Result<i32, ExpandError> {
    cond_status(sh, e, false)
}

/// bash combines statuses, not truth values: a regex that does not compile makes its
/// test 2, which `&&` passes on, `||` replaces and `!` turns into success.
fn cond_status(sh: &mut Interp, e: &CondExpr, negated: bool) -> Result<i32, ExpandError> {
    match e {
        CondExpr::Not(inner) => {
            let primary = !matches!(
                **inner,
                CondExpr::Not(_) | CondExpr::And(..) | CondExpr::Or(..) | CondExpr::Group(_)
            );
            Ok(i32::from(cond_status(sh, inner, primary)? == 0))
        }
        // A bad subscript has already abandoned the command line (bash jumps out at
        // once; the jump is taken when the command ends).
        CondExpr::And(a, b) => match cond_status(sh, a, false)? {
            _ if sh.int_assign_failed => Ok(1),
            0 => cond_status(sh, b, false),
            s => Ok(s),
        },
        CondExpr::Or(a, b) => match cond_status(sh, a, false)? {
            _ if sh.int_assign_failed => Ok(1),
            0 => Ok(0),
            _ => cond_status(sh, b, false),
        },
        CondExpr::Group(inner) => cond_status(sh, inner, false),
        _ => match eval_cond_in(sh, e, negated) {
            Ok(b) => Ok(i32::from(!b)),
            Err(e) if e.kind == crate::expand::ErrorKind::Command && e.message.is_empty() => Ok(2),
            Err(e) => Err(e),
        },
    }
}

/// `set -x` shows each test of a `[[ ]]` as it runs, with its operands expanded.
fn trace_test(sh: &mut Interp, negated: bool, parts: &[&str]) {
    if !sh.set.xtrace {
        return;
    }
    let shown: Vec<&str> = parts
        .iter()
        .map(|p| if p.is_empty() { "''" } else { p })
        .collect();
    let not = if negated { "! " } else { "" };
    sh.xtrace_line(&format!("[[ {not}{} ]]", shown.join(" ")));
}

/// One test of a `[[ ]]` expression (an invalid regex is an error with no message).
fn eval_cond_in(sh: &mut Interp, e: &CondExpr, negated: bool) -> Result<bool, ExpandError> {
    match e {
        CondExpr::Word(w) => {
            let v = Expander::new(sh).string(w)?;
            trace_test(sh, negated, &["-n", &v]);
            Ok(!v.is_empty())
        }
        CondExpr::Not(_) | CondExpr::And(..) | CondExpr::Or(..) | CondExpr::Group(_) => {
            Ok(cond_status(sh, e, negated)? == 0)
        }
        CondExpr::Unary(op, w) if op == "-v" => {
            // The name's subscript is expanded once (text the word's expansions made
            // is not expanded again).
            let arg = Expander::new(sh).subscripts_once(w)?;
            trace_test(sh, negated, &[op, &arg]);
            unary(sh, op, &arg).map_err(ExpandError::abort)
        }
        CondExpr::Unary(op, w) => {
            let arg = Expander::new(sh).string(w)?;
            trace_test(sh, negated, &[op, &arg]);
            unary(sh, op, &arg).map_err(ExpandError::abort)
        }
        CondExpr::Binary(op, l, r) if ARITH_OPS.contains(&op.as_str()) => {
            // Operands are arithmetic expressions whose subscripts are expanded once.
            let lv = Expander::new(sh).subscripts_once(l)?;
            let rv = Expander::new(sh).subscripts_once(r)?;
            trace_test(sh, negated, &[&lv, op, &rv]);
            // An operand that is not a valid expression makes only this test false (with
            // bash's `[[: ` message); the rest of the expression still runs. An unbound
            // variable or a bad subscript keeps its own, harsher, effect.
            let mut operand = |text: &str| match sh.eval_arith_str(text) {
                Ok(v) => Ok(Some(v)),
                Err(f) if f.fatal || f.discard => Err(ExpandError::from(f)),
                Err(f) => {
                    sh.error(&format!("[[: {}", f.render()));
                    Ok(None)
                }
            };
            let Some(a) = operand(&lv)? else {
                return Ok(false);
            };
            let Some(b) = operand(&rv)? else {
                return Ok(false);
            };
            Ok(compare_ints(op, a, b))
        }
        CondExpr::Binary(op, l, r) => {
            let lv = Expander::new(sh).string(l)?;
            if matches!(op.as_str(), "==" | "=" | "!=") {
                let trace = sh.set.xtrace;
                let (pat, shown) = Expander::new(sh).pattern_traced(r, trace)?;
                trace_test(sh, negated, &[&lv, op, &shown]);
                let p = Pattern::cached(
                    &pat,
                    MatchOpts {
                        extglob: true,
                        nocase: sh
                            .shopt
                            .has(const { crate::interp::Shopts::flag("nocasematch") }),
                        dot_special: false,
                        bytes: sh.byte_locale(),
                    },
                );
                let m = p.matches(&lv);
                return Ok(if op == "!=" { !m } else { m });
            }
            let rv = Expander::new(sh).string(r)?;
            trace_test(sh, negated, &[&lv, op, &rv]);
            binary(sh, &lv, op, &rv).map_err(|m| ExpandError {
                message: format!("[[: {m}"),
                kind: crate::expand::ErrorKind::Command,
            })
        }
        CondExpr::Regex(l, r) => {
            let lv = Expander::new(sh).string(l)?;
            let re = regex_source(sh, r)?;
            trace_test(sh, negated, &[&lv, "=~", &re]);
            if crate::posix_regex::glibc_rejects_ere(&re) {
                return Err(ExpandError {
                    message: String::new(),
                    kind: crate::expand::ErrorKind::Command,
                });
            }
            // A single-byte locale matches bytes: each byte above 0x7f, in the text
            // and in the regex, is one character (see `crate::text::byte_chars`).
            let bytes = sh.byte_locale();
            let (lv, re) = if bytes {
                (
                    crate::text::byte_chars(&lv).into_owned(),
                    crate::text::byte_chars(&re).into_owned(),
                )
            } else {
                (lv, re)
            };
            let mut rust = crate::posix_regex::ere_to_rust(&re, !bytes);
            if sh
                .shopt
                .has(const { crate::interp::Shopts::flag("nocasematch") })
            {
                rust.insert_str(0, "(?i)");
            }
            let compiled = match regex::Regex::new(&rust) {
                Ok(c) => c,
                Err(_) => {
                    return Err(ExpandError {
                        message: String::new(),
                        kind: crate::expand::ErrorKind::Command,
                    });
                }
            };
            match compiled.captures(&lv) {
                Some(caps) => {
                    let mut arr = imbl::OrdMap::new();
                    for (i, c) in caps.iter().enumerate() {
                        arr.insert(
                            i as i64,
                            c.map(|m| {
                                let m = m.as_str().to_owned();
                                if bytes {
                                    crate::text::from_byte_chars(m)
                                } else {
                                    m
                                }
                            })
                            .unwrap_or_default(),
                        );
                    }
                    let var = sh.vars.entry("BASH_REMATCH", false);
                    var.value = Some(Value::Indexed(arr));
                    Ok(true)
                }
                None => {
                    let var = sh.vars.entry("BASH_REMATCH", false);
                    var.value = Some(Value::Indexed(imbl::OrdMap::new()));
                    Ok(false)
                }
            }
        }
    }
}

/// The regex text of `=~`'s right side: quoted parts are matched literally.
fn regex_source(sh: &mut Interp, w: &Word) -> Result<String, ExpandError> {
    let mut out = String::new();
    for p in &w.parts {
        match p {
            WordPart::Lit(s) => out.push_str(s),
            WordPart::Quoted(s) | WordPart::Escaped(s) => out.push_str(&regex::escape(s)),
            // A tilde's expansion matches literally, like quoted text.
            WordPart::DQuoted(_) | WordPart::Tilde(_) => {
                let s = Expander::new(sh).string(&Word {
                    parts: vec![p.clone()],
                })?;
                out.push_str(&regex::escape(&s));
            }
            other => {
                let s = Expander::new(sh).string(&Word {
                    parts: vec![other.clone()],
                })?;
                out.push_str(&s);
            }
        }
    }
    Ok(out)
}
