//! The awk grammar (POSIX, with gawk's common extensions) parsed into an AST whose
//! variables are resolved to global or local slots.

use std::collections::HashMap;

use super::lexer::{Spanned, Tok};

#[derive(Clone, Debug)]
pub enum Var {
    Global(usize),
    Local(usize),
}

#[derive(Clone, Debug)]
pub enum LValue {
    Var(Var),
    Index(Var, Vec<Expr>),
    Field(Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum GetlineSrc {
    Main,
    File(Box<Expr>),
    Cmd(Box<Expr>),
}

/// An arithmetic operator, alone or in a compound assignment (`+=`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
}

impl Arith {
    /// The operator `op` (`+`, `**`, ...) names, if any.
    fn of(op: &str) -> Option<Arith> {
        Some(match op {
            "+" => Arith::Add,
            "-" => Arith::Sub,
            "*" => Arith::Mul,
            "/" => Arith::Div,
            "%" => Arith::Mod,
            "^" | "**" => Arith::Pow,
            _ => return None,
        })
    }
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// A built-in function, resolved from its name when parsed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Builtin {
    Length,
    Substr,
    Index,
    Split,
    Sub,
    Gsub,
    Match,
    Sprintf,
    Tolower,
    Toupper,
    Int,
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    Atan2,
    Rand,
    Srand,
    System,
    Close,
    Fflush,
    Gensub,
    Systime,
    Strftime,
    Mktime,
}

/// Each built-in function's name.
const BUILTINS: &[(&str, Builtin)] = &[
    ("length", Builtin::Length),
    ("substr", Builtin::Substr),
    ("index", Builtin::Index),
    ("split", Builtin::Split),
    ("sub", Builtin::Sub),
    ("gsub", Builtin::Gsub),
    ("match", Builtin::Match),
    ("sprintf", Builtin::Sprintf),
    ("tolower", Builtin::Tolower),
    ("toupper", Builtin::Toupper),
    ("int", Builtin::Int),
    ("sqrt", Builtin::Sqrt),
    ("exp", Builtin::Exp),
    ("log", Builtin::Log),
    ("sin", Builtin::Sin),
    ("cos", Builtin::Cos),
    ("atan2", Builtin::Atan2),
    ("rand", Builtin::Rand),
    ("srand", Builtin::Srand),
    ("system", Builtin::System),
    ("close", Builtin::Close),
    ("fflush", Builtin::Fflush),
    ("gensub", Builtin::Gensub),
    ("systime", Builtin::Systime),
    ("strftime", Builtin::Strftime),
    ("mktime", Builtin::Mktime),
];

impl Builtin {
    /// The built-in function called `name`, if there is one.
    pub fn of(name: &str) -> Option<Builtin> {
        BUILTINS.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
    }

    pub fn name(self) -> &'static str {
        BUILTINS
            .iter()
            .find(|(_, b)| *b == self)
            .map_or("", |(n, _)| n)
    }
}

#[derive(Clone, Debug)]
pub enum Expr {
    Num(f64),
    /// Shared so that evaluating a literal does not copy it.
    Str(std::rc::Rc<str>),
    Regex(String),
    LValue(LValue),
    Assign(Box<LValue>, Option<Arith>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    In(Vec<Expr>, Var),
    Match(bool, Box<Expr>, Box<Expr>),
    Arith(Arith, Box<Expr>, Box<Expr>),
    Compare(Cmp, Box<Expr>, Box<Expr>),
    Concat(Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Plus(Box<Expr>),
    Not(Box<Expr>),
    IncDec {
        pre: bool,
        delta: f64,
        target: Box<LValue>,
    },
    Call(usize, Vec<Expr>),
    Builtin(Builtin, Vec<Expr>),
    /// `(a, b)`: only the keys of `(a, b) in array`.
    List(Vec<Expr>),
    Getline(Option<Box<LValue>>, GetlineSrc),
    Group(Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum Redirect {
    File(Expr),
    Append(Expr),
    Pipe(Expr),
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Expr(Expr),
    Print(Vec<Expr>, Option<Redirect>),
    Printf(Vec<Expr>, Option<Redirect>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For(
        Option<Box<Stmt>>,
        Option<Expr>,
        Option<Box<Stmt>>,
        Box<Stmt>,
    ),
    ForIn(Var, Var, Box<Stmt>),
    Block(Vec<Stmt>),
    Next,
    NextFile,
    Exit(Option<Expr>),
    Return(Option<Expr>),
    Break,
    Continue,
    Delete(Var, Option<Vec<Expr>>),
}

#[derive(Clone, Debug)]
pub enum Pattern {
    All,
    Begin,
    End,
    Expr(Expr),
    Range(Expr, Expr),
}

#[derive(Clone, Debug)]
pub struct Item {
    pub pattern: Pattern,
    /// `None`: print the record.
    pub action: Option<Vec<Stmt>>,
}

#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    pub params: usize,
    /// Which parameters the body uses as arrays.
    pub array_params: Vec<bool>,
    pub body: Vec<Stmt>,
}

#[derive(Debug)]
pub struct Program {
    pub items: Vec<Item>,
    /// Which items run for each record (not BEGIN or END).
    pub main_items: Vec<usize>,
    pub funcs: Vec<Func>,
    pub globals: Vec<String>,
}

/// Slots of the special variables, fixed so the interpreter can find them.
pub const SPECIALS: &[&str] = &[
    "NR", "NF", "FNR", "FS", "OFS", "ORS", "RS", "FILENAME", "SUBSEP", "RSTART", "RLENGTH",
    "CONVFMT", "OFMT", "ENVIRON", "ARGC", "ARGV", "RT",
];

pub mod slot {
    pub const NR: usize = 0;
    pub const NF: usize = 1;
    pub const FNR: usize = 2;
    pub const FS: usize = 3;
    pub const OFS: usize = 4;
    pub const ORS: usize = 5;
    pub const RS: usize = 6;
    pub const FILENAME: usize = 7;
    pub const SUBSEP: usize = 8;
    pub const RSTART: usize = 9;
    pub const RLENGTH: usize = 10;
    pub const CONVFMT: usize = 11;
    pub const OFMT: usize = 12;
    pub const ENVIRON: usize = 13;
    pub const ARGC: usize = 14;
    pub const ARGV: usize = 15;
}

struct P<'t> {
    toks: &'t [Spanned],
    i: usize,
    globals: HashMap<String, usize>,
    global_names: Vec<String>,
    /// Parameters of the function being parsed.
    locals: Option<Vec<String>>,
    array_uses: Vec<bool>,
    funcs: HashMap<String, usize>,
    func_list: Vec<Option<Func>>,
    /// Whether `>` ends the expression (print arguments).
    no_gt: bool,
    /// Whether `in` is not an operator (for-in heads).
    no_in: bool,
}

type R<T> = Result<T, String>;

impl P<'_> {
    fn peek(&self) -> &Tok {
        self.toks.get(self.i).map_or(&Tok::Eof, |(t, _)| t)
    }
    fn peek_at(&self, k: usize) -> &Tok {
        self.toks.get(self.i + k).map_or(&Tok::Eof, |(t, _)| t)
    }
    fn line(&self) -> usize {
        self.toks.get(self.i).map_or(0, |(_, l)| *l)
    }
    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        self.i += 1;
        t
    }
    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }
    fn is_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Kw(k) if *k == kw)
    }
    fn eat_op(&mut self, op: &str) -> bool {
        if self.is_op(op) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn err(&self) -> String {
        let near = match self.peek() {
            Tok::Eof => "end of file".to_owned(),
            Tok::Newline => "newline".to_owned(),
            Tok::Num(n) => n.to_string(),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Regex(s) => format!("/{s}/"),
            Tok::Name(s) | Tok::FuncName(s) => s.clone(),
            Tok::Builtin(b) => b.name().to_owned(),
            Tok::Kw(s) | Tok::Op(s) => (*s).to_owned(),
        };
        format!("syntax error at source line {}: near {near}", self.line())
    }
    fn expect_op(&mut self, op: &str) -> R<()> {
        if self.eat_op(op) {
            Ok(())
        } else {
            Err(self.err())
        }
    }
    fn newlines(&mut self) {
        while matches!(self.peek(), Tok::Newline) {
            self.i += 1;
        }
    }
    fn terminators(&mut self) {
        while matches!(self.peek(), Tok::Newline) || self.is_op(";") {
            self.i += 1;
        }
    }

    fn var(&mut self, name: &str) -> Var {
        if let Some(locals) = &self.locals
            && let Some(k) = locals.iter().position(|l| l == name)
        {
            return Var::Local(k);
        }
        if let Some(&g) = self.globals.get(name) {
            return Var::Global(g);
        }
        let g = self.global_names.len();
        self.global_names.push(name.to_owned());
        self.globals.insert(name.to_owned(), g);
        Var::Global(g)
    }

    fn mark_array(&mut self, v: &Var) {
        if let Var::Local(k) = v
            && let Some(slot) = self.array_uses.get_mut(*k)
        {
            *slot = true;
        }
    }

    fn program(&mut self) -> R<Vec<Item>> {
        let mut items = Vec::new();
        self.terminators();
        while !matches!(self.peek(), Tok::Eof) {
            if self.is_kw("function") {
                self.function()?;
            } else {
                items.push(self.item()?);
            }
            self.terminators();
        }
        Ok(items)
    }

    fn function(&mut self) -> R<()> {
        self.i += 1;
        let name = match self.bump() {
            Tok::Name(n) | Tok::FuncName(n) => n,
            _ => return Err(self.err()),
        };
        self.expect_op("(")?;
        let mut params = Vec::new();
        while !self.is_op(")") {
            match self.bump() {
                Tok::Name(n) => params.push(n),
                _ => return Err(self.err()),
            }
            self.newlines();
            if !self.eat_op(",") {
                break;
            }
            self.newlines();
        }
        self.expect_op(")")?;
        self.newlines();
        let idx = self.func_index(&name);
        self.locals = Some(params.clone());
        self.array_uses = vec![false; params.len()];
        let body = self.block()?;
        self.locals = None;
        let array_params = std::mem::take(&mut self.array_uses);
        if let Some(slot) = self.func_list.get_mut(idx) {
            *slot = Some(Func {
                name,
                params: params.len(),
                array_params,
                body,
            });
        }
        Ok(())
    }

    fn func_index(&mut self, name: &str) -> usize {
        if let Some(&k) = self.funcs.get(name) {
            return k;
        }
        let k = self.func_list.len();
        self.func_list.push(None);
        self.funcs.insert(name.to_owned(), k);
        k
    }

    fn item(&mut self) -> R<Item> {
        let pattern = if self.is_kw("BEGIN") {
            self.i += 1;
            Pattern::Begin
        } else if self.is_kw("END") {
            self.i += 1;
            Pattern::End
        } else if self.is_op("{") {
            Pattern::All
        } else {
            let a = self.expr()?;
            if self.eat_op(",") {
                self.newlines();
                let b = self.expr()?;
                Pattern::Range(a, b)
            } else {
                Pattern::Expr(a)
            }
        };
        let action = if self.is_op("{") {
            Some(self.block()?)
        } else {
            if matches!(pattern, Pattern::Begin | Pattern::End) {
                return Err(self.err());
            }
            None
        };
        Ok(Item { pattern, action })
    }

    fn block(&mut self) -> R<Vec<Stmt>> {
        self.expect_op("{")?;
        let mut out = Vec::new();
        self.terminators();
        while !self.is_op("}") {
            if matches!(self.peek(), Tok::Eof) {
                return Err(self.err());
            }
            out.push(self.stmt()?);
            self.terminators();
        }
        self.i += 1;
        Ok(out)
    }

    /// A simple statement's end: `;`, newline, or before `}`.
    fn end_simple(&mut self) -> R<()> {
        if self.eat_op(";") || matches!(self.peek(), Tok::Newline) {
            if matches!(self.peek(), Tok::Newline) {
                self.i += 1;
            }
            return Ok(());
        }
        if self.is_op("}") || matches!(self.peek(), Tok::Eof) {
            return Ok(());
        }
        Err(self.err())
    }

    fn body(&mut self) -> R<Stmt> {
        self.newlines();
        if self.eat_op(";") {
            return Ok(Stmt::Block(Vec::new()));
        }
        self.stmt()
    }

    fn stmt(&mut self) -> R<Stmt> {
        if self.is_op("{") {
            return Ok(Stmt::Block(self.block()?));
        }
        let Tok::Kw(kw) = self.peek().clone() else {
            let e = self.expr()?;
            self.end_simple()?;
            return Ok(Stmt::Expr(e));
        };
        match kw {
            "if" => {
                self.i += 1;
                self.expect_op("(")?;
                let c = self.expr()?;
                self.expect_op(")")?;
                let then = self.body()?;
                // `else` may follow newlines or a `;`.
                let save = self.i;
                self.terminators();
                if self.is_kw("else") {
                    self.i += 1;
                    let els = self.body()?;
                    return Ok(Stmt::If(c, Box::new(then), Some(Box::new(els))));
                }
                self.i = save;
                Ok(Stmt::If(c, Box::new(then), None))
            }
            "while" => {
                self.i += 1;
                self.expect_op("(")?;
                let c = self.expr()?;
                self.expect_op(")")?;
                if self.eat_op(";") {
                    return Ok(Stmt::While(c, Box::new(Stmt::Block(Vec::new()))));
                }
                let b = self.body()?;
                Ok(Stmt::While(c, Box::new(b)))
            }
            "do" => {
                self.i += 1;
                let b = self.body()?;
                self.terminators();
                if !self.is_kw("while") {
                    return Err(self.err());
                }
                self.i += 1;
                self.expect_op("(")?;
                let c = self.expr()?;
                self.expect_op(")")?;
                self.end_simple()?;
                Ok(Stmt::DoWhile(Box::new(b), c))
            }
            "for" => {
                self.i += 1;
                self.expect_op("(")?;
                // for (k in arr)
                if let (Tok::Name(k), Tok::Kw("in"), Tok::Name(a), Tok::Op(")")) = (
                    self.peek().clone(),
                    self.peek_at(1).clone(),
                    self.peek_at(2).clone(),
                    self.peek_at(3).clone(),
                ) {
                    self.i += 4;
                    let kv = self.var(&k);
                    let av = self.var(&a);
                    self.mark_array(&av);
                    let b = self.body()?;
                    return Ok(Stmt::ForIn(kv, av, Box::new(b)));
                }
                let init = if self.is_op(";") {
                    None
                } else {
                    Some(Box::new(self.simple_stmt()?))
                };
                self.expect_op(";")?;
                self.newlines();
                let cond = if self.is_op(";") {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect_op(";")?;
                self.newlines();
                let step = if self.is_op(")") {
                    None
                } else {
                    Some(Box::new(self.simple_stmt()?))
                };
                self.expect_op(")")?;
                if self.eat_op(";") {
                    return Ok(Stmt::For(
                        init,
                        cond,
                        step,
                        Box::new(Stmt::Block(Vec::new())),
                    ));
                }
                let b = self.body()?;
                Ok(Stmt::For(init, cond, step, Box::new(b)))
            }
            "break" | "continue" | "next" | "nextfile" => {
                self.i += 1;
                self.end_simple()?;
                Ok(match kw {
                    "break" => Stmt::Break,
                    "continue" => Stmt::Continue,
                    "next" => Stmt::Next,
                    _ => Stmt::NextFile,
                })
            }
            "exit" | "return" => {
                self.i += 1;
                let e = if self.is_op(";")
                    || self.is_op("}")
                    || matches!(self.peek(), Tok::Newline | Tok::Eof)
                {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.end_simple()?;
                Ok(if kw == "exit" {
                    Stmt::Exit(e)
                } else {
                    Stmt::Return(e)
                })
            }
            _ => {
                let s = self.simple_stmt()?;
                self.end_simple()?;
                Ok(s)
            }
        }
    }

    /// print, printf, delete or an expression.
    fn simple_stmt(&mut self) -> R<Stmt> {
        if self.is_kw("print") || self.is_kw("printf") {
            let printf = self.is_kw("printf");
            self.i += 1;
            let args = self.print_args()?;
            let redirect = if self.eat_op(">") {
                Some(Redirect::File(self.redirect_target()?))
            } else if self.eat_op(">>") {
                Some(Redirect::Append(self.redirect_target()?))
            } else if self.eat_op("|") {
                Some(Redirect::Pipe(self.redirect_target()?))
            } else {
                None
            };
            if printf && args.is_empty() {
                return Err(self.err());
            }
            return Ok(if printf {
                Stmt::Printf(args, redirect)
            } else {
                Stmt::Print(args, redirect)
            });
        }
        if self.is_kw("delete") {
            self.i += 1;
            let Tok::Name(n) = self.bump() else {
                return Err(self.err());
            };
            let v = self.var(&n);
            self.mark_array(&v);
            if self.eat_op("[") {
                let idx = self.expr_list()?;
                self.expect_op("]")?;
                return Ok(Stmt::Delete(v, Some(idx)));
            }
            return Ok(Stmt::Delete(v, None));
        }
        Ok(Stmt::Expr(self.expr()?))
    }

    fn redirect_target(&mut self) -> R<Expr> {
        // The target is a concatenation without comparison operators.
        let save = self.no_gt;
        self.no_gt = true;
        let e = self.concat();
        self.no_gt = save;
        e
    }

    fn print_args(&mut self) -> R<Vec<Expr>> {
        let at_end = |p: &Self| {
            p.is_op(";")
                || p.is_op("}")
                || p.is_op(">")
                || p.is_op(">>")
                || p.is_op("|")
                || matches!(p.peek(), Tok::Newline | Tok::Eof)
        };
        if at_end(self) {
            return Ok(Vec::new());
        }
        if self.is_op("(") {
            // `print (a, b) > f`: a parenthesised list, if that is all there is.
            let save = self.i;
            self.i += 1;
            let saved_gt = self.no_gt;
            self.no_gt = false;
            let list = self.expr_list();
            self.no_gt = saved_gt;
            if let Ok(list) = list
                && self.eat_op(")")
                && at_end(self)
            {
                return Ok(list);
            }
            self.i = save;
        }
        let save = self.no_gt;
        self.no_gt = true;
        let list = self.expr_list();
        self.no_gt = save;
        list
    }

    fn expr_list(&mut self) -> R<Vec<Expr>> {
        let mut v = vec![self.expr()?];
        while self.eat_op(",") {
            self.newlines();
            v.push(self.expr()?);
        }
        Ok(v)
    }

    pub fn expr(&mut self) -> R<Expr> {
        self.ternary()
    }

    fn to_lvalue(&self, e: Expr) -> Option<LValue> {
        match e {
            Expr::LValue(lv) => Some(lv),
            Expr::Group(inner) => self.to_lvalue(*inner),
            _ => None,
        }
    }

    fn ternary(&mut self) -> R<Expr> {
        let c = self.or()?;
        if self.eat_op("?") {
            self.newlines();
            let a = self.ternary()?;
            self.newlines();
            self.expect_op(":")?;
            self.newlines();
            let b = self.ternary()?;
            return Ok(Expr::Cond(Box::new(c), Box::new(a), Box::new(b)));
        }
        // Assignment (right associative) when the left side is an lvalue.
        const ASSIGN: &[&str] = &["=", "+=", "-=", "*=", "/=", "%=", "^=", "**="];
        if let Tok::Op(op) = self.peek().clone()
            && ASSIGN.contains(&op)
            && let Some(lv) = self.to_lvalue(c.clone())
        {
            // `a /= 2` may have been lexed as a regex; only plain ops reach here.
            self.i += 1;
            self.newlines();
            let rhs = self.ternary()?;
            let kind = Arith::of(op.strip_suffix('=').unwrap_or(op));
            return Ok(Expr::Assign(Box::new(lv), kind, Box::new(rhs)));
        }
        Ok(c)
    }

    fn or(&mut self) -> R<Expr> {
        let mut l = self.and()?;
        while self.eat_op("||") {
            self.newlines();
            let r = self.and()?;
            l = Expr::Or(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn and(&mut self) -> R<Expr> {
        let mut l = self.in_expr()?;
        while self.eat_op("&&") {
            self.newlines();
            let r = self.in_expr()?;
            l = Expr::And(Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn in_expr(&mut self) -> R<Expr> {
        let mut l = self.matching()?;
        while !self.no_in && self.is_kw("in") {
            self.i += 1;
            let Tok::Name(n) = self.bump() else {
                return Err(self.err());
            };
            let v = self.var(&n);
            self.mark_array(&v);
            let keys = match l {
                Expr::Group(inner) => vec![*inner],
                Expr::List(items) => items,
                other => vec![other],
            };
            l = Expr::In(keys, v);
        }
        Ok(l)
    }

    fn matching(&mut self) -> R<Expr> {
        let mut l = self.comparison()?;
        loop {
            let neg = if self.is_op("~") {
                false
            } else if self.is_op("!~") {
                true
            } else {
                return Ok(l);
            };
            self.i += 1;
            let r = self.comparison()?;
            l = Expr::Match(neg, Box::new(l), Box::new(r));
        }
    }

    fn comparison(&mut self) -> R<Expr> {
        let l = self.pipe_getline()?;
        let op = match self.peek() {
            Tok::Op("<") => Cmp::Lt,
            Tok::Op("<=") => Cmp::Le,
            Tok::Op("!=") => Cmp::Ne,
            Tok::Op("==") => Cmp::Eq,
            Tok::Op(">=") => Cmp::Ge,
            Tok::Op(">") if !self.no_gt => Cmp::Gt,
            _ => return Ok(l),
        };
        self.i += 1;
        let r = self.pipe_getline()?;
        Ok(Expr::Compare(op, Box::new(l), Box::new(r)))
    }

    /// `cmd | getline [var]`.
    fn pipe_getline(&mut self) -> R<Expr> {
        let mut l = self.concat()?;
        while self.is_op("|") && matches!(self.peek_at(1), Tok::Kw("getline")) {
            self.i += 2;
            let var = self.opt_getline_var()?;
            l = Expr::Getline(var.map(Box::new), GetlineSrc::Cmd(Box::new(l)));
        }
        Ok(l)
    }

    fn opt_getline_var(&mut self) -> R<Option<LValue>> {
        match self.peek().clone() {
            Tok::Op("$") => {
                self.i += 1;
                let e = self.incdec()?;
                Ok(Some(LValue::Field(Box::new(e))))
            }
            Tok::Name(n) => {
                self.i += 1;
                let v = self.var(&n);
                if self.eat_op("[") {
                    self.mark_array(&v);
                    let idx = self.expr_list()?;
                    self.expect_op("]")?;
                    return Ok(Some(LValue::Index(v, idx)));
                }
                Ok(Some(LValue::Var(v)))
            }
            _ => Ok(None),
        }
    }

    fn starts_operand(&self) -> bool {
        match self.peek() {
            Tok::Num(_)
            | Tok::Str(_)
            | Tok::Regex(_)
            | Tok::Name(_)
            | Tok::FuncName(_)
            | Tok::Builtin(_) => true,
            Tok::Op(o) => matches!(*o, "$" | "!" | "(" | "-" | "+" | "++" | "--"),
            Tok::Kw(k) => *k == "getline",
            _ => false,
        }
    }

    fn concat(&mut self) -> R<Expr> {
        let mut l = self.additive()?;
        loop {
            let ok =
                self.starts_operand() && !self.is_op("-") && !self.is_op("+") && !self.is_op("!");
            if !ok {
                return Ok(l);
            }
            let r = self.additive()?;
            l = Expr::Concat(Box::new(l), Box::new(r));
        }
    }

    fn additive(&mut self) -> R<Expr> {
        let mut l = self.multiplicative()?;
        loop {
            let op = match self.peek() {
                Tok::Op("+") => Arith::Add,
                Tok::Op("-") => Arith::Sub,
                _ => return Ok(l),
            };
            self.i += 1;
            self.newlines();
            let r = self.multiplicative()?;
            l = Expr::Arith(op, Box::new(l), Box::new(r));
        }
    }

    fn multiplicative(&mut self) -> R<Expr> {
        let mut l = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Op("*") => Arith::Mul,
                Tok::Op("/") => Arith::Div,
                Tok::Op("%") => Arith::Mod,
                _ => return Ok(l),
            };
            self.i += 1;
            self.newlines();
            let r = self.unary()?;
            l = Expr::Arith(op, Box::new(l), Box::new(r));
        }
    }

    fn unary(&mut self) -> R<Expr> {
        if self.eat_op("!") {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.eat_op("-") {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        if self.eat_op("+") {
            return Ok(Expr::Plus(Box::new(self.unary()?)));
        }
        self.power()
    }

    fn power(&mut self) -> R<Expr> {
        let base = self.incdec()?;
        if self.eat_op("^") || self.eat_op("**") {
            // Right associative; the exponent may carry a unary minus.
            let exp = if self.eat_op("-") {
                Expr::Neg(Box::new(self.power()?))
            } else if self.eat_op("+") {
                self.power()?
            } else if self.eat_op("!") {
                Expr::Not(Box::new(self.power()?))
            } else {
                self.power()?
            };
            return Ok(Expr::Arith(Arith::Pow, Box::new(base), Box::new(exp)));
        }
        Ok(base)
    }

    fn incdec(&mut self) -> R<Expr> {
        if self.is_op("++") || self.is_op("--") {
            let delta = if self.is_op("++") { 1.0 } else { -1.0 };
            self.i += 1;
            let e = self.incdec()?;
            let Some(lv) = self.to_lvalue(e) else {
                return Err(self.err());
            };
            return Ok(Expr::IncDec {
                pre: true,
                delta,
                target: Box::new(lv),
            });
        }
        let e = self.primary()?;
        if matches!(e, Expr::LValue(_)) && (self.is_op("++") || self.is_op("--")) {
            let delta = if self.is_op("++") { 1.0 } else { -1.0 };
            self.i += 1;
            if let Some(lv) = self.to_lvalue(e) {
                return Ok(Expr::IncDec {
                    pre: false,
                    delta,
                    target: Box::new(lv),
                });
            }
            return Err(self.err());
        }
        Ok(e)
    }

    fn primary(&mut self) -> R<Expr> {
        let t = self.bump();
        match t {
            Tok::Num(n) => Ok(Expr::Num(n)),
            Tok::Str(s) => Ok(Expr::Str(s.into())),
            Tok::Regex(r) => Ok(Expr::Regex(r)),
            Tok::Op("$") => {
                // `$i++` is `($i)++`, but `$++i` is `$(++i)`.
                let e = if self.is_op("++") || self.is_op("--") {
                    self.incdec()?
                } else {
                    self.primary()?
                };
                Ok(Expr::LValue(LValue::Field(Box::new(e))))
            }
            Tok::Op("(") => {
                let saved = (self.no_gt, self.no_in);
                self.no_gt = false;
                self.no_in = false;
                let first = self.expr();
                let result = (|| -> R<Expr> {
                    let first = first?;
                    if self.eat_op(",") {
                        let mut items = vec![first];
                        self.newlines();
                        items.extend(self.expr_list()?);
                        self.expect_op(")")?;
                        // Only `(a, b) in arr` is valid.
                        if !self.is_kw("in") {
                            return Err(self.err());
                        }
                        return Ok(Expr::List(items));
                    }
                    self.expect_op(")")?;
                    Ok(Expr::Group(Box::new(first)))
                })();
                (self.no_gt, self.no_in) = saved;
                result
            }
            Tok::Op("-") => Ok(Expr::Neg(Box::new(self.unary()?))),
            Tok::Op("+") => Ok(Expr::Plus(Box::new(self.unary()?))),
            Tok::Op("!") => Ok(Expr::Not(Box::new(self.unary()?))),
            Tok::Name(n) => {
                let v = self.var(&n);
                if self.eat_op("[") {
                    self.mark_array(&v);
                    let idx = self.expr_list()?;
                    self.expect_op("]")?;
                    return Ok(Expr::LValue(LValue::Index(v, idx)));
                }
                Ok(Expr::LValue(LValue::Var(v)))
            }
            Tok::FuncName(n) => {
                self.expect_op("(")?;
                let args = self.call_args()?;
                let idx = self.func_index(&n);
                Ok(Expr::Call(idx, args))
            }
            Tok::Builtin(b) => {
                if self.eat_op("(") {
                    let args = self.call_args()?;
                    if b == Builtin::Split
                        && let Some(Expr::LValue(LValue::Var(v))) = args.get(1)
                    {
                        let v = v.clone();
                        self.mark_array(&v);
                    }
                    return Ok(Expr::Builtin(b, args));
                }
                if b == Builtin::Length {
                    return Ok(Expr::Builtin(b, Vec::new()));
                }
                Err(self.err())
            }
            Tok::Kw("getline") => {
                let var = self.opt_getline_var()?;
                if self.eat_op("<") {
                    let src = self.incdec()?;
                    return Ok(Expr::Getline(
                        var.map(Box::new),
                        GetlineSrc::File(Box::new(src)),
                    ));
                }
                Ok(Expr::Getline(var.map(Box::new), GetlineSrc::Main))
            }
            _ => {
                self.i -= 1;
                Err(self.err())
            }
        }
    }

    fn call_args(&mut self) -> R<Vec<Expr>> {
        let saved = (self.no_gt, self.no_in);
        self.no_gt = false;
        self.no_in = false;
        let mut args = Vec::new();
        self.newlines();
        if !self.is_op(")") {
            args = self.expr_list()?;
        }
        self.newlines();
        let r = self.expect_op(")");
        (self.no_gt, self.no_in) = saved;
        r?;
        Ok(args)
    }
}

pub fn parse(toks: &[Spanned]) -> Result<Program, String> {
    let mut p = P {
        toks,
        i: 0,
        globals: HashMap::new(),
        global_names: Vec::new(),
        locals: None,
        array_uses: Vec::new(),
        funcs: HashMap::new(),
        func_list: Vec::new(),
        no_gt: false,
        no_in: false,
    };
    for s in SPECIALS {
        p.var(s);
    }
    let items = p.program()?;
    let mut funcs = Vec::new();
    for (k, f) in p.func_list.into_iter().enumerate() {
        match f {
            Some(f) => funcs.push(f),
            None => {
                let name = p
                    .funcs
                    .iter()
                    .find(|(_, v)| **v == k)
                    .map(|(n, _)| n.clone())
                    .unwrap_or_default();
                return Err(format!("function `{name}' called but never defined"));
            }
        }
    }
    let main_items = items
        .iter()
        .enumerate()
        .filter(|(_, i)| !matches!(i.pattern, Pattern::Begin | Pattern::End))
        .map(|(k, _)| k)
        .collect();
    Ok(Program {
        items,
        main_items,
        funcs,
        globals: p.global_names,
    })
}
