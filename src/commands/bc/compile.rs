//! bc's lexer and parser. The parser follows GNU bc's yacc grammar (its precedences,
//! where newlines may go, the expression flags that decide whether a value is printed)
//! and emits code as GNU does, one input item (a line of statements or a function
//! definition) at a time.

use std::collections::VecDeque;
use std::io::Read;
use std::sync::Arc;

use super::code::{FuncDef, IBASE, LAST, OBASE, Op, Param, SCALE, Symbols};

/// Program text: the files named on the command line, then standard input, read as
/// one stream (a statement may run on from one into the next, as in GNU bc).
pub struct Reader<'a> {
    files: VecDeque<(String, Option<Arc<Vec<u8>>>)>,
    buf: Vec<u8>,
    pos: usize,
    pub name: String,
    pub line: u32,
    stdin: &'a mut dyn Read,
    on_stdin: bool,
    stdin_eof: bool,
    started: bool,
}

impl<'a> Reader<'a> {
    pub fn new(files: Vec<(String, Option<Arc<Vec<u8>>>)>, stdin: &'a mut dyn Read) -> Self {
        Reader {
            files: files.into(),
            buf: Vec::new(),
            pos: 0,
            name: String::new(),
            line: 1,
            stdin,
            on_stdin: false,
            stdin_eof: false,
            started: false,
        }
    }

    /// Makes a byte available at `pos` if the current source has one more (reading
    /// stdin as needed); moves on to the next source only when `advance` is set.
    /// `Err(name)` names a file that cannot be read.
    fn fill(&mut self, advance: bool) -> Result<bool, String> {
        loop {
            if self.pos < self.buf.len() {
                return Ok(true);
            }
            if self.on_stdin {
                if self.stdin_eof {
                    return Ok(false);
                }
                let mut chunk = [0u8; 4096];
                let n = loop {
                    match self.stdin.read(&mut chunk) {
                        Ok(n) => break n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(_) => break 0,
                    }
                };
                if n == 0 {
                    self.stdin_eof = true;
                    return Ok(false);
                }
                self.buf.drain(..self.pos);
                self.pos = 0;
                self.buf.extend_from_slice(chunk.get(..n).unwrap_or(&[]));
                continue;
            }
            if self.started && !advance {
                return Ok(false);
            }
            self.started = true;
            self.buf.clear();
            self.pos = 0;
            self.line = 1;
            match self.files.pop_front() {
                Some((name, Some(data))) => {
                    self.name = name;
                    self.buf = data.to_vec();
                }
                Some((name, None)) => return Err(name),
                None => {
                    self.name = "(standard_in)".to_owned();
                    self.on_stdin = true;
                }
            }
        }
    }

    fn peek(&mut self) -> Result<Option<u8>, String> {
        if self.fill(!self.started)? {
            Ok(self.buf.get(self.pos).copied())
        } else {
            Ok(None)
        }
    }

    fn peek2(&mut self) -> Option<u8> {
        self.buf.get(self.pos + 1).copied()
    }

    fn next(&mut self) -> Result<Option<u8>, String> {
        if self.fill(true)? {
            let b = self.buf.get(self.pos).copied();
            self.pos += 1;
            Ok(b)
        } else {
            Ok(None)
        }
    }

    /// The next byte for `read()`.
    pub fn read_byte(&mut self) -> Option<u8> {
        self.next().ok().flatten()
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kw {
    Auto,
    Break,
    Continue,
    Define,
    Else,
    For,
    Halt,
    Ibase,
    If,
    Last,
    Length,
    Limits,
    Obase,
    Print,
    Quit,
    Read,
    Return,
    Scale,
    Sqrt,
    Warranty,
    While,
    Void,
    Random,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Newline,
    Semi,
    Comma,
    LParen,
    RParen,
    LBrack,
    RBrack,
    LBrace,
    RBrace,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Caret,
    Amp,
    Assign(u8),
    Rel(u8),
    Incr,
    Decr,
    And,
    Or,
    Not,
    Name(String),
    Number(String),
    Str(Vec<u8>),
    Kw(Kw),
    Eof,
}

fn keyword(s: &str) -> Option<Kw> {
    Some(match s {
        "auto" => Kw::Auto,
        "break" => Kw::Break,
        "continue" => Kw::Continue,
        "define" => Kw::Define,
        "else" => Kw::Else,
        "for" => Kw::For,
        "halt" => Kw::Halt,
        "ibase" => Kw::Ibase,
        "if" => Kw::If,
        "last" => Kw::Last,
        "length" => Kw::Length,
        "limits" => Kw::Limits,
        "obase" => Kw::Obase,
        "print" => Kw::Print,
        "quit" => Kw::Quit,
        "read" => Kw::Read,
        "return" => Kw::Return,
        "scale" => Kw::Scale,
        "sqrt" => Kw::Sqrt,
        "warranty" => Kw::Warranty,
        "while" => Kw::While,
        "void" => Kw::Void,
        "random" => Kw::Random,
        _ => return None,
    })
}

/// Why parsing an item stopped.
#[derive(Debug)]
enum Stop {
    Syntax,
    Quit,
    Unavailable(String),
}

type PResult<T> = Result<T, Stop>;

/// What the driver gets from the parser.
pub enum Item {
    Run(Vec<Op>),
    Define(FuncDef),
    /// An item that had errors (already reported): nothing to run.
    Skip,
    Eof,
    Quit,
    Unavailable(String),
}

const EX_REG: u8 = 1;
const EX_COMP: u8 = 2;
const EX_PAREN: u8 = 4;
const EX_VOID: u8 = 8;
const EX_EMPTY: u8 = 16;

pub struct Parser<'a> {
    pub reader: Reader<'a>,
    look: VecDeque<Tok>,
    pub syms: Symbols,
    code: Vec<Op>,
    cur_func: Option<usize>,
    cur_void: bool,
    break_label: Option<usize>,
    continue_label: Option<usize>,
    if_label: usize,
    next_label: usize,
    had_error: bool,
    /// yacc's error-recovery countdown: syntax errors are not reported again until
    /// three tokens have been read after one.
    errstatus: u8,
    /// What parsing printed (`limits`, `warranty`).
    pub out: Vec<u8>,
    pub err: Vec<u8>,
}

impl<'a> Parser<'a> {
    pub fn new(reader: Reader<'a>, syms: Symbols) -> Self {
        Parser {
            reader,
            look: VecDeque::new(),
            syms,
            code: Vec::new(),
            cur_func: None,
            cur_void: false,
            break_label: None,
            continue_label: None,
            if_label: 0,
            next_label: 1,
            had_error: false,
            errstatus: 0,
            out: Vec::new(),
            err: Vec::new(),
        }
    }

    /// Reports an error at the current input position (GNU's `yyerror`).
    fn error(&mut self, msg: &str) {
        let line = format!("{} {}: {msg}\n", self.reader.name, self.reader.line);
        self.err.extend_from_slice(line.as_bytes());
        self.had_error = true;
    }

    fn scan(&mut self) -> PResult<Tok> {
        loop {
            let Some(c) = self.reader.next().map_err(Stop::Unavailable)? else {
                return Ok(Tok::Eof);
            };
            // Look one byte ahead only where a token may be longer, so a newline is
            // acted on without waiting for more input.
            let peek = if b"\\/.+-*%^=<>!&|".contains(&c) {
                self.reader.peek().map_err(Stop::Unavailable)?
            } else {
                None
            };
            let tok = match c {
                b' ' | b'\t' => continue,
                b'\n' => {
                    self.reader.line += 1;
                    Tok::Newline
                }
                b'\\' if peek == Some(b'\n') => {
                    self.reader.next().map_err(Stop::Unavailable)?;
                    self.reader.line += 1;
                    continue;
                }
                b'#' => {
                    while let Some(b) = self.reader.peek().map_err(Stop::Unavailable)? {
                        if b == b'\n' {
                            break;
                        }
                        self.reader.next().map_err(Stop::Unavailable)?;
                    }
                    continue;
                }
                b'/' if peek == Some(b'*') => {
                    self.reader.next().map_err(Stop::Unavailable)?;
                    let mut prev = 0u8;
                    loop {
                        match self.reader.next().map_err(Stop::Unavailable)? {
                            None => {
                                self.error("EOF encountered in a comment.");
                                return Ok(Tok::Eof);
                            }
                            Some(b'/') if prev == b'*' => break,
                            Some(b) => {
                                if b == b'\n' {
                                    self.reader.line += 1;
                                }
                                prev = b;
                            }
                        }
                    }
                    continue;
                }
                b'"' => {
                    let mut s = Vec::new();
                    loop {
                        match self.reader.next().map_err(Stop::Unavailable)? {
                            None => {
                                self.error("illegal character: \"");
                                return Ok(Tok::Eof);
                            }
                            Some(b'"') => break,
                            Some(b) => {
                                if b == b'\n' {
                                    self.reader.line += 1;
                                }
                                s.push(b);
                            }
                        }
                    }
                    Tok::Str(s)
                }
                b'0'..=b'9' | b'A'..=b'Z' => self.number(c)?,
                b'.' if peek.is_some_and(|p| p.is_ascii_digit() || p.is_ascii_uppercase()) => {
                    self.number(c)?
                }
                b'.' => Tok::Kw(Kw::Last),
                b'a'..=b'z' => {
                    let mut s = String::from(char::from(c));
                    while let Some(b) = self.reader.peek().map_err(Stop::Unavailable)? {
                        if b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' {
                            s.push(char::from(b));
                            self.reader.next().map_err(Stop::Unavailable)?;
                        } else {
                            break;
                        }
                    }
                    match keyword(&s) {
                        Some(k) => Tok::Kw(k),
                        None => Tok::Name(s),
                    }
                }
                b';' => Tok::Semi,
                b',' => Tok::Comma,
                b'(' => Tok::LParen,
                b')' => Tok::RParen,
                b'[' => Tok::LBrack,
                b']' => Tok::RBrack,
                b'{' => Tok::LBrace,
                b'}' => Tok::RBrace,
                b'+' | b'-' if peek == Some(c) => {
                    self.reader.next().map_err(Stop::Unavailable)?;
                    if c == b'+' { Tok::Incr } else { Tok::Decr }
                }
                b'+' | b'-' | b'*' | b'/' | b'%' | b'^' if peek == Some(b'=') => {
                    self.reader.next().map_err(Stop::Unavailable)?;
                    Tok::Assign(c)
                }
                b'+' => Tok::Plus,
                b'-' => Tok::Minus,
                b'*' => Tok::Star,
                b'/' => Tok::Slash,
                b'%' => Tok::Percent,
                b'^' => Tok::Caret,
                b'=' | b'<' | b'>' | b'!' if peek == Some(b'=') => {
                    self.reader.next().map_err(Stop::Unavailable)?;
                    Tok::Rel(match c {
                        b'=' => b'=',
                        b'<' => b'{',
                        b'>' => b'}',
                        _ => b'#',
                    })
                }
                b'=' => Tok::Assign(b'='),
                b'<' => Tok::Rel(b'<'),
                b'>' => Tok::Rel(b'>'),
                b'!' => Tok::Not,
                b'&' if peek == Some(b'&') => {
                    self.reader.next().map_err(Stop::Unavailable)?;
                    Tok::And
                }
                b'&' => Tok::Amp,
                b'|' if peek == Some(b'|') => {
                    self.reader.next().map_err(Stop::Unavailable)?;
                    Tok::Or
                }
                other => {
                    let shown = crate::text::decode(&[other]);
                    self.error(&format!("illegal character: {shown}"));
                    continue;
                }
            };
            return Ok(tok);
        }
    }

    /// A number token: digits `0-9A-Z`, one point, backslash-newlines inside; the
    /// trailing point and leading zeros are dropped as GNU's scanner does.
    fn number(&mut self, first: u8) -> PResult<Tok> {
        let mut s = String::from(char::from(first));
        let mut seen_point = first == b'.';
        while let Some(b) = self.reader.peek().map_err(Stop::Unavailable)? {
            if b.is_ascii_digit() || b.is_ascii_uppercase() {
                s.push(char::from(b));
            } else if b == b'.' && !seen_point {
                seen_point = true;
                s.push('.');
            } else if b == b'\\' && self.reader.peek2() == Some(b'\n') {
                self.reader.next().map_err(Stop::Unavailable)?;
                self.reader.line += 1;
            } else {
                break;
            }
            self.reader.next().map_err(Stop::Unavailable)?;
        }
        if s.len() > 1 && s.ends_with('.') {
            s.pop();
        }
        let trimmed = s.trim_start_matches('0');
        let s = if trimmed.is_empty() {
            "0".to_owned()
        } else {
            trimmed.to_owned()
        };
        Ok(Tok::Number(s))
    }

    fn peek_n(&mut self, n: usize) -> PResult<Tok> {
        while self.look.len() <= n {
            let t = self.scan()?;
            self.look.push_back(t);
        }
        Ok(self.look.get(n).cloned().unwrap_or(Tok::Eof))
    }

    fn peek(&mut self) -> PResult<Tok> {
        self.peek_n(0)
    }

    fn bump(&mut self) -> PResult<Tok> {
        self.peek()?;
        self.errstatus = self.errstatus.saturating_sub(1);
        Ok(self.look.pop_front().unwrap_or(Tok::Eof))
    }

    fn expect(&mut self, t: Tok) -> PResult<()> {
        if self.peek()? == t {
            self.bump()?;
            Ok(())
        } else {
            Err(Stop::Syntax)
        }
    }

    fn emit(&mut self, op: Op) {
        self.code.push(op);
    }

    fn label(&mut self) -> usize {
        let l = self.next_label;
        self.next_label += 1;
        l
    }

    /// Parses the next item: a newline-terminated list of statements, or a function
    /// definition.
    pub fn next_item(&mut self) -> Item {
        self.had_error = false;
        self.code.clear();
        self.cur_func = None;
        self.break_label = None;
        self.continue_label = None;
        self.next_label = 1;
        let result = match self.peek() {
            Ok(Tok::Eof) => return Item::Eof,
            Ok(Tok::Kw(Kw::Define)) => self.function().map(Item::Define),
            Ok(_) => self
                .semicolon_list()
                .map(|()| Item::Run(std::mem::take(&mut self.code))),
            Err(e) => Err(e),
        };
        match result {
            Ok(item) if !self.had_error => item,
            Ok(_) => Item::Skip,
            Err(Stop::Quit) => Item::Quit,
            Err(Stop::Unavailable(name)) => Item::Unavailable(name),
            Err(Stop::Syntax) => {
                if matches!(self.look.front(), Some(Tok::Eof)) {
                    // GNU reports a statement cut off by the end of input this way.
                    if self.errstatus == 0 {
                        self.err
                            .extend_from_slice(b"(standard_in) 1: syntax error\n");
                    }
                    self.look.clear();
                    return Item::Eof;
                }
                if self.errstatus == 0 {
                    self.error("syntax error");
                }
                // Recover at the end of the line.
                loop {
                    match self.peek() {
                        Ok(Tok::Newline) => {
                            self.look.pop_front();
                            break;
                        }
                        Ok(Tok::Eof) => break,
                        Ok(_) => {
                            self.look.pop_front();
                        }
                        Err(Stop::Quit) => return Item::Quit,
                        Err(Stop::Unavailable(n)) => return Item::Unavailable(n),
                        Err(Stop::Syntax) => {}
                    }
                }
                self.errstatus = 0;
                Item::Skip
            }
        }
    }

    fn semicolon_list(&mut self) -> PResult<()> {
        loop {
            match self.peek()? {
                Tok::Newline => {
                    self.bump()?;
                    return Ok(());
                }
                Tok::Semi => {
                    self.bump()?;
                }
                _ => {
                    self.statement()?;
                    match self.peek()? {
                        Tok::Newline | Tok::Semi => {}
                        _ => return Err(Stop::Syntax),
                    }
                }
            }
        }
    }

    fn statement_list(&mut self) -> PResult<()> {
        loop {
            match self.peek()? {
                Tok::RBrace => return Ok(()),
                Tok::Newline | Tok::Semi => {
                    self.bump()?;
                }
                _ => {
                    let parsed = self.statement().and_then(|()| match self.peek()? {
                        Tok::Newline | Tok::Semi | Tok::RBrace => Ok(()),
                        _ => Err(Stop::Syntax),
                    });
                    match parsed {
                        Err(Stop::Syntax) => self.recover_in_list()?,
                        other => other?,
                    }
                }
            }
        }
    }

    /// yacc's `error statement` recovery inside braces: report (unless recovering
    /// already), then drop tokens up to one that can start a statement.
    fn recover_in_list(&mut self) -> PResult<()> {
        if self.peek()? == Tok::Eof {
            // The end of input is reported by the caller.
            return Err(Stop::Syntax);
        }
        if self.errstatus == 0 {
            self.error("syntax error");
        } else {
            self.had_error = true;
        }
        self.errstatus = 3;
        loop {
            let t = self.peek()?;
            if t == Tok::Eof {
                return Err(Stop::Syntax);
            }
            if Self::starts_statement(&t) {
                return Ok(());
            }
            self.look.pop_front();
        }
    }

    fn starts_statement(t: &Tok) -> bool {
        Self::starts_expression(t)
            || matches!(
                t,
                Tok::Str(_)
                    | Tok::LBrace
                    | Tok::Kw(
                        Kw::Warranty
                            | Kw::Limits
                            | Kw::Break
                            | Kw::Continue
                            | Kw::Quit
                            | Kw::Halt
                            | Kw::Return
                            | Kw::For
                            | Kw::If
                            | Kw::While
                            | Kw::Print
                    )
            )
    }

    fn opt_newline(&mut self) -> PResult<()> {
        if self.peek()? == Tok::Newline {
            self.bump()?;
        }
        Ok(())
    }

    fn starts_expression(t: &Tok) -> bool {
        matches!(
            t,
            Tok::Name(_)
                | Tok::Number(_)
                | Tok::LParen
                | Tok::Minus
                | Tok::Not
                | Tok::Incr
                | Tok::Decr
                | Tok::Kw(
                    Kw::Length
                        | Kw::Sqrt
                        | Kw::Scale
                        | Kw::Read
                        | Kw::Random
                        | Kw::Ibase
                        | Kw::Obase
                        | Kw::Last
                )
        )
    }

    fn statement(&mut self) -> PResult<()> {
        let t = self.peek()?;
        match t {
            Tok::Kw(Kw::Warranty) => {
                self.bump()?;
                self.out.extend_from_slice(
                    b"bc (shellbox): this program comes with ABSOLUTELY NO WARRANTY.\n",
                );
            }
            Tok::Kw(Kw::Limits) => {
                self.bump()?;
                self.out.extend_from_slice(
                    b"BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\n\
BC_SCALE_MAX    = 2147483647\nBC_STRING_MAX   = 2147483647\n\
MAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n",
                );
            }
            Tok::Str(s) => {
                self.bump()?;
                self.emit(Op::Str(s));
            }
            Tok::Kw(Kw::Break) => {
                self.bump()?;
                match self.break_label {
                    Some(l) => self.emit(Op::Jump(l)),
                    None => self.error("Break outside a for/while"),
                }
            }
            Tok::Kw(Kw::Continue) => {
                self.bump()?;
                match self.continue_label {
                    Some(l) => self.emit(Op::Jump(l)),
                    None => self.error("Continue outside a for"),
                }
            }
            Tok::Kw(Kw::Quit) => return Err(Stop::Quit),
            Tok::Kw(Kw::Halt) => {
                self.bump()?;
                self.emit(Op::Halt);
            }
            Tok::Kw(Kw::Return) => {
                self.bump()?;
                let next = self.peek()?;
                if Self::starts_expression(&next) {
                    let f = self.expr(0)?;
                    if f & EX_VOID != 0 {
                        self.error("return requires non-void expression");
                    }
                    if self.cur_func.is_none() {
                        self.error("Return outside of a function.");
                    } else if self.cur_void {
                        self.error("Return expression in a void function.");
                    }
                } else {
                    self.emit(Op::Zero);
                    if self.cur_func.is_none() {
                        self.error("Return outside of a function.");
                    }
                }
                self.emit(Op::Return);
            }
            Tok::Kw(Kw::For) => self.for_statement()?,
            Tok::Kw(Kw::If) => {
                self.bump()?;
                self.expect(Tok::LParen)?;
                let f = self.expr(0)?;
                self.expect(Tok::RParen)?;
                if f & EX_VOID != 0 {
                    self.error("void expression");
                }
                let saved = self.if_label;
                self.if_label = self.label();
                self.emit(Op::BranchZero(self.if_label));
                self.opt_newline()?;
                self.statement()?;
                if self.peek()? == Tok::Kw(Kw::Else) {
                    self.bump()?;
                    let l = self.label();
                    self.emit(Op::Jump(l));
                    self.emit(Op::Label(self.if_label));
                    self.if_label = l;
                    self.opt_newline()?;
                    self.statement()?;
                }
                self.emit(Op::Label(self.if_label));
                self.if_label = saved;
            }
            Tok::Kw(Kw::While) => {
                self.bump()?;
                let saved_continue = self.continue_label;
                let top = self.label();
                self.continue_label = Some(top);
                self.emit(Op::Label(top));
                self.expect(Tok::LParen)?;
                let f = self.expr(0)?;
                if f & EX_VOID != 0 {
                    self.error("void expression");
                }
                let saved_break = self.break_label;
                let out = self.label();
                self.break_label = Some(out);
                self.emit(Op::BranchZero(out));
                self.expect(Tok::RParen)?;
                self.opt_newline()?;
                self.statement()?;
                self.emit(Op::Jump(top));
                self.emit(Op::Label(out));
                self.break_label = saved_break;
                self.continue_label = saved_continue;
            }
            Tok::LBrace => {
                self.bump()?;
                self.statement_list()?;
                self.expect(Tok::RBrace)?;
            }
            Tok::Kw(Kw::Print) => {
                self.bump()?;
                loop {
                    if let Tok::Str(s) = self.peek()? {
                        self.bump()?;
                        self.emit(Op::PrintStr(s));
                    } else {
                        let f = self.expr(0)?;
                        if f & EX_VOID != 0 {
                            self.error("void expression in print");
                        }
                        self.emit(Op::Print);
                    }
                    if self.peek()? == Tok::Comma {
                        self.bump()?;
                    } else {
                        break;
                    }
                }
            }
            t if Self::starts_expression(&t) => {
                let f = self.expr(0)?;
                self.emit(if f & EX_REG != 0 { Op::Write } else { Op::Pop });
            }
            _ => return Err(Stop::Syntax),
        }
        Ok(())
    }

    fn opt_expr(&mut self, end: Tok) -> PResult<u8> {
        if self.peek()? == end {
            Ok(EX_EMPTY)
        } else {
            self.expr(0)
        }
    }

    fn for_statement(&mut self) -> PResult<()> {
        self.bump()?;
        let saved_break = self.break_label;
        let out = self.label();
        self.break_label = Some(out);
        self.expect(Tok::LParen)?;
        let f1 = self.opt_expr(Tok::Semi)?;
        self.expect(Tok::Semi)?;
        if f1 & EX_VOID != 0 {
            self.error("first expression is void");
        }
        if f1 & EX_EMPTY == 0 {
            self.emit(Op::Pop);
        }
        let cond = self.label();
        self.emit(Op::Label(cond));
        let f2 = self.opt_expr(Tok::Semi)?;
        self.expect(Tok::Semi)?;
        if f2 & EX_VOID != 0 {
            self.error("second expression is void");
        }
        if f2 & EX_EMPTY != 0 {
            self.emit(Op::One);
        }
        let body = self.label();
        self.emit(Op::BranchNonZero(body));
        self.emit(Op::Jump(out));
        let saved_continue = self.continue_label;
        let next = self.label();
        self.continue_label = Some(next);
        self.emit(Op::Label(next));
        let f3 = self.opt_expr(Tok::RParen)?;
        self.expect(Tok::RParen)?;
        if f3 & EX_VOID != 0 {
            self.error("third expression is void");
        }
        if f3 & EX_EMPTY == 0 {
            self.emit(Op::Pop);
        }
        self.emit(Op::Jump(cond));
        self.emit(Op::Label(body));
        self.opt_newline()?;
        self.statement()?;
        self.emit(Op::Jump(next));
        self.emit(Op::Label(out));
        self.break_label = saved_break;
        self.continue_label = saved_continue;
        Ok(())
    }

    /// `define [void] f(params) { [auto list] statements }`.
    fn function(&mut self) -> PResult<FuncDef> {
        self.bump()?;
        let void = if self.peek()? == Tok::Kw(Kw::Void) {
            self.bump()?;
            true
        } else {
            false
        };
        let Tok::Name(name) = self.bump()? else {
            return Err(Stop::Syntax);
        };
        self.expect(Tok::LParen)?;
        let params = if self.peek()? == Tok::RParen {
            Vec::new()
        } else {
            self.define_list(true)?
        };
        self.expect(Tok::RParen)?;
        self.opt_newline()?;
        self.expect(Tok::LBrace)?;
        while self.peek()? == Tok::Newline {
            self.bump()?;
        }
        let mut autos = Vec::new();
        if self.peek()? == Tok::Kw(Kw::Auto) {
            self.bump()?;
            autos = self.define_list(false)?;
            match self.bump()? {
                Tok::Newline | Tok::Semi => {}
                _ => return Err(Stop::Syntax),
            }
        }
        self.check_params(&params, &autos);
        let index = self.syms.func(&name);
        if let Some(v) = self.syms.void_funcs.get_mut(index) {
            *v = void;
        }
        self.cur_func = Some(index);
        self.cur_void = void;
        self.code.clear();
        self.statement_list()?;
        self.expect(Tok::RBrace)?;
        self.emit(Op::Zero);
        self.emit(Op::Return);
        self.cur_func = None;
        Ok(FuncDef {
            index,
            params,
            autos,
            body: std::mem::take(&mut self.code),
        })
    }

    fn define_list(&mut self, params: bool) -> PResult<Vec<Param>> {
        let mut list = Vec::new();
        loop {
            let by_ref = params && matches!(self.peek()?, Tok::Star | Tok::Amp);
            if by_ref {
                self.bump()?;
            }
            let Tok::Name(name) = self.bump()? else {
                return Err(Stop::Syntax);
            };
            let array = self.peek()? == Tok::LBrack;
            if array {
                self.bump()?;
                self.expect(Tok::RBrack)?;
            } else if by_ref {
                return Err(Stop::Syntax);
            }
            let index = if array {
                self.syms.array(&name)
            } else {
                self.syms.var(&name)
            };
            list.push(Param {
                index,
                array,
                by_ref,
            });
            if self.peek()? == Tok::Comma {
                self.bump()?;
            } else {
                return Ok(list);
            }
        }
    }

    fn check_params(&mut self, params: &[Param], autos: &[Param]) {
        let same = |a: &Param, b: &Param| a.index == b.index && a.array == b.array;
        for (i, p) in params.iter().enumerate() {
            if params.iter().skip(i + 1).any(|q| same(p, q)) {
                self.error("duplicate parameter names");
            }
        }
        for (i, p) in autos.iter().enumerate() {
            if autos.iter().skip(i + 1).any(|q| same(p, q)) {
                self.error("duplicate auto variable names");
            }
        }
        for p in params {
            if autos.iter().any(|q| same(p, q)) {
                self.error("variable in both parameter and auto lists");
            }
        }
    }

    /// Binary operators: (precedence, right associative, token).
    fn binary(t: &Tok) -> Option<(u8, bool)> {
        Some(match t {
            Tok::Or => (1, false),
            Tok::And => (2, false),
            Tok::Rel(_) => (4, false),
            Tok::Plus | Tok::Minus => (6, false),
            Tok::Star | Tok::Slash | Tok::Percent => (7, false),
            Tok::Caret => (8, true),
            _ => return None,
        })
    }

    /// An expression whose operators bind at least as tightly as `min`; returns
    /// GNU's expression flags.
    fn expr(&mut self, min: u8) -> PResult<u8> {
        let mut flags = self.unary()?;
        loop {
            let t = self.peek()?;
            let Some((prec, right)) = Self::binary(&t) else {
                break;
            };
            if prec < min {
                break;
            }
            self.bump()?;
            let next_min = if right { prec } else { prec + 1 };
            match t {
                Tok::And => {
                    let l = self.label();
                    self.emit(Op::Dup);
                    self.emit(Op::BranchZero(l));
                    self.emit(Op::Pop);
                    let rhs = self.expr(next_min)?;
                    if (flags | rhs) & EX_VOID != 0 {
                        self.error("void expression with &&");
                    }
                    self.emit(Op::Dup);
                    self.emit(Op::BranchZero(l));
                    self.emit(Op::Pop);
                    self.emit(Op::One);
                    self.emit(Op::Label(l));
                    flags = (flags | rhs) & !EX_PAREN;
                }
                Tok::Or => {
                    let l = self.label();
                    self.emit(Op::BranchNonZero(l));
                    let rhs = self.expr(next_min)?;
                    if (flags | rhs) & EX_VOID != 0 {
                        self.error("void expression with ||");
                    }
                    let tmp = self.label();
                    self.emit(Op::BranchNonZero(l));
                    self.emit(Op::Zero);
                    self.emit(Op::Jump(tmp));
                    self.emit(Op::Label(l));
                    self.emit(Op::One);
                    self.emit(Op::Label(tmp));
                    flags = (flags | rhs) & !EX_PAREN;
                }
                Tok::Rel(code) => {
                    let rhs = self.expr(next_min)?;
                    if (flags | rhs) & EX_VOID != 0 {
                        self.error("void expression with comparison");
                    }
                    self.emit(Op::Bin(code));
                    flags = EX_REG | EX_COMP;
                }
                t => {
                    let (code, name) = match t {
                        Tok::Plus => (b'+', "+"),
                        Tok::Minus => (b'-', "-"),
                        Tok::Star => (b'*', "*"),
                        Tok::Slash => (b'/', "/"),
                        Tok::Percent => (b'%', "%"),
                        _ => (b'^', "^"),
                    };
                    let rhs = self.expr(next_min)?;
                    if (flags | rhs) & EX_VOID != 0 {
                        self.error(&format!("void expression with {name}"));
                    }
                    self.emit(Op::Bin(code));
                    flags = (flags | rhs) & !EX_PAREN;
                }
            }
        }
        Ok(flags)
    }

    fn unary(&mut self) -> PResult<u8> {
        match self.peek()? {
            Tok::Not => {
                self.bump()?;
                let f = self.expr(4)?;
                if f & EX_VOID != 0 {
                    self.error("void expression with !");
                }
                self.emit(Op::Not);
                Ok(f & !EX_PAREN)
            }
            Tok::Minus => {
                self.bump()?;
                let f = self.expr(9)?;
                if f & EX_VOID != 0 {
                    self.error("void expression with unary -");
                }
                self.emit(Op::Neg);
                Ok(f & !EX_PAREN)
            }
            Tok::Incr | Tok::Decr => {
                let incr = self.bump()? == Tok::Incr;
                let named = self.named()?;
                match named {
                    Named::Var(i) => {
                        self.emit(if incr { Op::Incr(i) } else { Op::Decr(i) });
                        self.emit(Op::Load(i));
                    }
                    Named::Arr(i) => {
                        self.emit(Op::Dup);
                        self.emit(if incr { Op::IncrArr(i) } else { Op::DecrArr(i) });
                        self.emit(Op::LoadArr(i));
                    }
                }
                Ok(EX_REG)
            }
            _ => self.primary(),
        }
    }

    /// A variable or array element (the subscript's code is emitted).
    fn named(&mut self) -> PResult<Named> {
        match self.bump()? {
            Tok::Kw(Kw::Ibase) => Ok(Named::Var(IBASE)),
            Tok::Kw(Kw::Obase) => Ok(Named::Var(OBASE)),
            Tok::Kw(Kw::Scale) => Ok(Named::Var(SCALE)),
            Tok::Kw(Kw::Last) => Ok(Named::Var(LAST)),
            Tok::Name(n) => {
                if self.peek()? == Tok::LBrack {
                    self.bump()?;
                    let f = self.expr(0)?;
                    if f & EX_VOID != 0 {
                        self.error("void expression as subscript");
                    }
                    self.expect(Tok::RBrack)?;
                    Ok(Named::Arr(self.syms.array(&n)))
                } else {
                    Ok(Named::Var(self.syms.var(&n)))
                }
            }
            _ => Err(Stop::Syntax),
        }
    }

    fn primary(&mut self) -> PResult<u8> {
        let t = self.peek()?;
        match t {
            Tok::Number(s) => {
                self.bump()?;
                match s.as_str() {
                    "0" => self.emit(Op::Zero),
                    "1" => self.emit(Op::One),
                    _ => {
                        let digits = s
                            .bytes()
                            .map(|b| match b {
                                b'.' => None,
                                b'0'..=b'9' => Some(b - b'0'),
                                _ => Some(b - b'A' + 10),
                            })
                            .collect();
                        self.emit(Op::Const(digits));
                    }
                }
                Ok(EX_REG)
            }
            Tok::LParen => {
                self.bump()?;
                let f = self.expr(0)?;
                self.expect(Tok::RParen)?;
                if f & EX_VOID != 0 {
                    self.error("void expression in parenthesis");
                }
                Ok(f | EX_REG | EX_PAREN)
            }
            Tok::Kw(k @ (Kw::Length | Kw::Sqrt | Kw::Scale))
                if k != Kw::Scale || self.peek_n(1)? == Tok::LParen =>
            {
                self.bump()?;
                self.expect(Tok::LParen)?;
                let f = self.expr(0)?;
                self.expect(Tok::RParen)?;
                let (code, what) = match k {
                    Kw::Length => (b'L', "length()"),
                    Kw::Sqrt => (b'R', "sqrt()"),
                    _ => (b'S', "scale()"),
                };
                if f & EX_VOID != 0 {
                    self.error(&format!("void expression in {what}"));
                }
                self.emit(Op::Special(code));
                Ok(EX_REG)
            }
            Tok::Kw(k @ (Kw::Read | Kw::Random)) => {
                self.bump()?;
                self.expect(Tok::LParen)?;
                self.expect(Tok::RParen)?;
                self.emit(Op::Special(if k == Kw::Read { b'I' } else { b'X' }));
                Ok(EX_REG)
            }
            Tok::Name(n) if self.peek_n(1)? == Tok::LParen => {
                self.bump()?;
                self.bump()?;
                let f = self.syms.func(&n);
                let mut params = Vec::new();
                if self.peek()? != Tok::RParen {
                    loop {
                        let is_array = matches!(self.peek()?, Tok::Name(_))
                            && self.peek_n(1)? == Tok::LBrack
                            && self.peek_n(2)? == Tok::RBrack;
                        if is_array {
                            let Tok::Name(a) = self.bump()? else {
                                return Err(Stop::Syntax);
                            };
                            self.bump()?;
                            self.bump()?;
                            let ai = self.syms.array(&a);
                            self.emit(Op::ArrayArg(ai));
                            params.push(true);
                        } else {
                            let e = self.expr(0)?;
                            if e & EX_VOID != 0 {
                                self.error("void argument");
                            }
                            params.push(false);
                        }
                        if self.peek()? == Tok::Comma {
                            self.bump()?;
                        } else {
                            break;
                        }
                    }
                }
                self.expect(Tok::RParen)?;
                self.emit(Op::Call(f, params));
                let void = self.syms.void_funcs.get(f).copied().unwrap_or(false);
                Ok(if void { EX_VOID } else { EX_REG })
            }
            Tok::Name(_) | Tok::Kw(Kw::Ibase | Kw::Obase | Kw::Scale | Kw::Last) => {
                let named = self.named()?;
                match self.peek()? {
                    Tok::Assign(op) => {
                        self.bump()?;
                        if op != b'=' {
                            match named {
                                Named::Var(i) => self.emit(Op::Load(i)),
                                Named::Arr(i) => {
                                    self.emit(Op::Dup);
                                    self.emit(Op::LoadArr(i));
                                }
                            }
                        }
                        let f = self.expr(5)?;
                        if f & EX_VOID != 0 {
                            self.error("Assignment of a void expression");
                        }
                        if op != b'=' {
                            self.emit(Op::Bin(op));
                        }
                        self.emit(match named {
                            Named::Var(i) => Op::Store(i),
                            Named::Arr(i) => Op::StoreArr(i),
                        });
                        Ok(0)
                    }
                    t @ (Tok::Incr | Tok::Decr) => {
                        self.bump()?;
                        let incr = t == Tok::Incr;
                        match named {
                            Named::Var(i) => {
                                self.emit(Op::Load(i));
                                self.emit(if incr { Op::Incr(i) } else { Op::Decr(i) });
                            }
                            Named::Arr(i) => {
                                self.emit(Op::Dup);
                                self.emit(Op::LoadArr(i));
                                self.emit(Op::Swap);
                                self.emit(if incr { Op::IncrArr(i) } else { Op::DecrArr(i) });
                            }
                        }
                        Ok(EX_REG)
                    }
                    _ => {
                        self.emit(match named {
                            Named::Var(i) => Op::Load(i),
                            Named::Arr(i) => Op::LoadArr(i),
                        });
                        Ok(EX_REG)
                    }
                }
            }
            _ => Err(Stop::Syntax),
        }
    }
}

#[derive(Clone, Copy)]
enum Named {
    Var(usize),
    Arr(usize),
}
