//! The abstract syntax tree of a bash script. Type names follow the productions in
//! `grammar/bash.ebnf`. Words are parsed once into typed parts; nothing is re-parsed
//! from strings later except what bash itself re-parses at run time (arithmetic over
//! expanded text).

use std::sync::{Arc, OnceLock};

/// A whole script: a sequence of complete commands.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Script {
    pub commands: Vec<List>,
}

/// A list of and-or lists, each run in the foreground or (`&`) in the background.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct List {
    pub items: Vec<ListItem>,
}

#[derive(Clone, Debug)]
pub struct ListItem {
    pub and_or: AndOr,
    pub background: bool,
    /// A newline, not `;` or `&`, ended it: layout only, which bash keeps when it
    /// prints the body of `$( )` back (and ignored by equality).
    pub newline: bool,
}

impl PartialEq for ListItem {
    fn eq(&self, other: &Self) -> bool {
        self.and_or == other.and_or && self.background == other.background
    }
}

/// `pipeline (&& pipeline | || pipeline)*`.
#[derive(Clone, Debug, PartialEq)]
pub struct AndOr {
    pub first: Pipeline,
    pub rest: Vec<(AndOrOp, Pipeline)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AndOrOp {
    And,
    Or,
}

/// `[time [-p]] [!] command (| command)*`. A command followed by `|&` carries a
/// `2>&1` redirection after its own, as bash's parser adds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Pipeline {
    pub time: Option<TimeFlag>,
    pub negated: bool,
    pub commands: Vec<Command>,
    pub line: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeFlag {
    Default,
    Posix,
}

/// One command with its redirections.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    pub kind: CommandKind,
    pub redirects: Vec<Redirect>,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CommandKind {
    Simple(SimpleCommand),
    /// `{ list; }`
    BraceGroup(List),
    /// `( list )`
    Subshell(List),
    If(IfClause),
    /// `while`/`until` loops.
    While(WhileClause),
    For(ForClause),
    ArithFor(ArithForClause),
    Select(ForClause),
    Case(CaseClause),
    /// `(( expr ))`
    Arith(Arith),
    /// `[[ expr ]]`
    Cond(CondExpr),
    FunctionDef(FunctionDef),
    Coproc(Coproc),
}

/// Assignments, words and (in [`Command::redirects`]) redirections.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SimpleCommand {
    pub assigns: Vec<Assign>,
    pub words: Vec<Word>,
}

/// `name=value`, `name+=value`, `name[sub]=value`, `name=(...)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Assign {
    pub name: String,
    pub index: Option<Word>,
    pub append: bool,
    pub value: AssignValue,
    /// The source text, for `set -x` and error messages.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AssignValue {
    Scalar(Word),
    Array(Vec<ArrayElem>),
}

/// One element of an array literal: `value` or `[key]=value` / `[key]+=value`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayElem {
    pub key: Option<Word>,
    pub append: bool,
    pub value: Word,
}

#[derive(Clone, Debug, PartialEq)]
pub struct IfClause {
    pub cond: List,
    pub then: List,
    pub elifs: Vec<(List, List)>,
    pub else_: Option<List>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WhileClause {
    pub until: bool,
    pub cond: List,
    pub body: List,
}

/// `for name [in words]; do list; done` (also `select`).
#[derive(Clone, Debug, PartialEq)]
pub struct ForClause {
    pub var: String,
    /// `None` means `"$@"`.
    pub words: Option<Vec<Word>>,
    pub body: List,
}

/// `for (( init; cond; step )); do list; done`
#[derive(Clone, Debug, PartialEq)]
pub struct ArithForClause {
    pub init: Option<Arith>,
    pub cond: Option<Arith>,
    pub step: Option<Arith>,
    pub body: List,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CaseClause {
    pub word: Word,
    pub items: Vec<CaseItem>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CaseItem {
    pub patterns: Vec<Word>,
    pub body: List,
    pub terminator: CaseTerminator,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaseTerminator {
    /// `;;`
    Break,
    /// `;&`
    FallThrough,
    /// `;;&`
    Continue,
}

/// `name () compound-command [redirections]` or `function name ...`.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    pub name: String,
    pub body: Arc<Command>,
    /// Written with the `function` keyword.
    pub keyword: bool,
    /// The file the definition was read from (`BASH_SOURCE` inside it); filled in by
    /// the interpreter when the definition runs, never by the parser.
    pub source: Option<Arc<str>>,
    /// The line the definition ran at (`declare -F name` under extdebug); also filled
    /// in by the interpreter.
    pub line: u32,
    /// How far the body's parsed line numbers lay from the lines bash counts for them
    /// where the definition ran (see `Interp::line_shift`); filled in by the interpreter.
    pub line_shift: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Coproc {
    pub name: Option<String>,
    pub body: Box<Command>,
}

/// An arithmetic expression: its source as a word (expanded before evaluation, as bash
/// does) and, when the source holds no expansion, the expression parsed ahead of time.
#[derive(Clone, Debug, PartialEq)]
pub struct Arith {
    pub word: Word,
    pub parsed: Option<Arc<ArithExpr>>,
    /// Written in the old form `$[...]`, whose text need not have its parentheses
    /// paired (so it may not print as `$((...))`).
    pub bracketed: bool,
}

/// A `[[ ]]` conditional expression.
#[derive(Clone, Debug, PartialEq)]
pub enum CondExpr {
    /// A lone word: true when non-empty.
    Word(Word),
    Unary(String, Word),
    Binary(String, Word, Word),
    /// `word =~ regex` (the regex word keeps its quoting to know what is literal).
    Regex(Word, Word),
    Not(Box<CondExpr>),
    And(Box<CondExpr>, Box<CondExpr>),
    Or(Box<CondExpr>, Box<CondExpr>),
    Group(Box<CondExpr>),
}

/// A redirection: `[n|{var}]op target`.
#[derive(Clone, Debug, PartialEq)]
pub struct Redirect {
    pub fd: Option<RedirFd>,
    pub op: RedirOp,
    pub target: RedirTarget,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RedirFd {
    Number(i32),
    /// `{varname}>file`: allocate a new fd and store it in the variable.
    Var(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedirOp {
    /// `<`
    Read,
    /// `>`
    Write,
    /// `>>`
    Append,
    /// `>|`
    Clobber,
    /// `<>`
    ReadWrite,
    /// `<&`
    DupRead,
    /// `>&`
    DupWrite,
    /// `&>`
    WriteBoth,
    /// `&>>`
    AppendBoth,
    /// `<<<`
    HereString,
    /// `<<` / `<<-`
    HereDoc,
}

impl RedirOp {
    pub fn as_str(self) -> &'static str {
        match self {
            RedirOp::Read => "<",
            RedirOp::Write => ">",
            RedirOp::Append => ">>",
            RedirOp::Clobber => ">|",
            RedirOp::ReadWrite => "<>",
            RedirOp::DupRead => "<&",
            RedirOp::DupWrite => ">&",
            RedirOp::WriteBoth => "&>",
            RedirOp::AppendBoth => "&>>",
            RedirOp::HereString => "<<<",
            RedirOp::HereDoc => "<<",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum RedirTarget {
    Word(Word),
    HereDoc(HereDoc),
}

/// A here-document. Its body is read after the line that holds the operator ends, so the
/// parser fills it in once, after the node is built.
#[derive(Clone, Debug)]
pub struct HereDoc {
    /// The delimiter as written (with its quotes).
    pub delimiter: String,
    /// Any quoting in the delimiter makes the body literal.
    pub quoted: bool,
    /// `<<-`: leading tabs are stripped.
    pub strip_tabs: bool,
    pub body: Arc<OnceLock<HereDocBody>>,
}

/// The body of a here-document: its lines as read (tabs stripped for `<<-`) and the
/// word they make.
#[derive(Clone, Debug)]
pub struct HereDocBody {
    /// The text as read, which is how the printer gives it back: printing the word
    /// instead could write here-documents of substitutions inside it as lines of their
    /// own, and one of those could end the body when read again.
    pub text: String,
    pub word: Word,
}

impl HereDoc {
    /// The body (empty if it was never read, e.g. at end of input).
    pub fn body(&self) -> &Word {
        static EMPTY: Word = Word { parts: Vec::new() };
        self.body.get().map_or(&EMPTY, |b| &b.word)
    }

    /// The body's text as read.
    pub fn text(&self) -> &str {
        self.body.get().map_or("", |b| b.text.as_str())
    }
}

impl PartialEq for HereDoc {
    fn eq(&self, other: &HereDoc) -> bool {
        self.delimiter == other.delimiter
            && self.quoted == other.quoted
            && self.strip_tabs == other.strip_tabs
            && self.body() == other.body()
    }
}

/// A word: a sequence of typed parts.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Word {
    pub parts: Vec<WordPart>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum WordPart {
    /// Unquoted text: subject to brace expansion, field splitting (never, being literal)
    /// and globbing.
    Lit(String),
    /// Quoted text (`'..'`, `$'..'`): taken literally.
    Quoted(String),
    /// Characters each escaped by a backslash (`\)\$`): taken literally, like
    /// [`WordPart::Quoted`], and kept apart from it so they print back as written.
    Escaped(String),
    /// `"..."` (and `$"..."`).
    DQuoted(Vec<WordPart>),
    /// `~` or `~user` at the start of a word (or after `=`/`:` in assignments).
    Tilde(String),
    Param(Box<ParamExp>),
    /// `$(...)` or `` `...` `` (which keeps its text as written).
    CmdSub(Arc<Script>, Backquoted),
    /// `` `...` `` whose body (its text, backslashes taken) does not parse. bash parses
    /// a backquoted body only when it runs, so the error is reported then, as the
    /// substitution's, and the command around it goes on.
    BadBackquote(Arc<str>),
    /// `$(( ... ))`
    Arith(Box<Arith>),
    /// A `${...}` or `$((...))` that bash reads as part of the word but whose expansion
    /// cannot find its end; expanding the word fails with bash's "bad substitution".
    BadSubst(Box<BadSubst>),
    /// `<(...)` (`input` true) or `>(...)`.
    ProcSub {
        input: bool,
        body: Arc<Script>,
    },
}

/// An expansion bash's word reader accepts but its expander cannot close: a subscript
/// whose `]` is not in the word (`"${a[1\]}"`), or `$((...))` whose `))` a `#` comment
/// hides at expansion (`$(( 1 # ))`).
#[derive(Clone, Debug, PartialEq)]
pub struct BadSubst {
    /// The text as written (printed back unchanged).
    pub text: String,
    /// The closer bash reports missing (`bad substitution: no closing `}' in ...`), or
    /// `None` for its plain `...: bad substitution`.
    pub missing: Option<char>,
    /// The text the message shows: the whole word, or for a plain message inside
    /// double quotes the quoted string; the parser fills it in when the word ends
    /// (empty: `text`).
    pub context: String,
    /// Found by bash's scan of the whole word before any of it expands, so nothing in
    /// the word does its work first.
    pub early: bool,
}

impl BadSubst {
    /// bash's message for it.
    pub fn message(&self) -> String {
        let shown = if self.context.is_empty() {
            &self.text
        } else {
            &self.context
        };
        match self.missing {
            Some(c) => format!("bad substitution: no closing `{c}' in {shown}"),
            None => format!("{shown}: bad substitution"),
        }
    }
}

/// The text between the backquotes of a `` `...` `` substitution as written (`None`
/// for `$(...)`). bash prints it back unchanged (`set -x` heads, `declare -f`) where it
/// reprints a `$(...)` from its parse. Two substitutions with the same body mean the
/// same whichever way they were written, so this compares equal to any other.
#[derive(Clone, Debug, Default)]
pub struct Backquoted(pub Option<Arc<str>>);

impl PartialEq for Backquoted {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The parameter a `$` expansion names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Param {
    Name(String),
    Positional(u32),
    /// One of `@ * # ? - $ ! 0`.
    Special(char),
}

/// A subscript `[...]`.
#[derive(Clone, Debug, PartialEq)]
pub enum Subscript {
    /// `[@]`
    At,
    /// `[*]`
    Star,
    Expr(Word),
}

/// `$name`, `${name}` and every `${...}` form.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamExp {
    pub param: Param,
    pub index: Option<Subscript>,
    /// `${!name}`: indirection (or keys/names with `[@]` / `*`).
    pub indirect: bool,
    /// `${#name}`
    pub length: bool,
    pub op: ParamOp,
    /// Written with braces (`${x}`): only for printing.
    pub braced: bool,
}

/// What `${v^}`, `${v,}` and `${v~}` do to the characters they apply to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaseTo {
    /// `^`: to upper case.
    Upper,
    /// `,`: to lower case.
    Lower,
    /// `~`: upper to lower and the rest to upper.
    Toggle,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ParamOp {
    None,
    /// `-`, `=`, `?`, `+` with or without `:`.
    Default {
        op: char,
        colon: bool,
        word: Word,
    },
    /// `#`, `##`, `%`, `%%`.
    Strip {
        suffix: bool,
        longest: bool,
        pattern: Word,
    },
    /// `/`, `//`, `/#`, `/%`.
    Replace {
        mode: ReplaceMode,
        pattern: Word,
        replacement: Option<Word>,
    },
    /// `^`, `^^`, `,`, `,,`, and bash's undocumented `~`, `~~`.
    Case {
        to: CaseTo,
        all: bool,
        pattern: Option<Word>,
    },
    /// `:offset` or `:offset:length` (source text, evaluated as arithmetic).
    Slice {
        offset: Word,
        length: Option<Word>,
    },
    /// `@Q`, `@E`, `@P`, `@A`, `@a`, `@U`, `@u`, `@L`, `@K`, `@k`.
    Transform(char),
    /// `${!prefix*}` / `${!prefix@}`.
    Names {
        at: bool,
    },
    /// A form bash rejects at run time with "bad substitution" (its source text). For
    /// an unknown `@` operator the expansion keeps its parameter (else it is an empty
    /// name): bash expands an unset one to nothing instead.
    Invalid(String),
    /// A declaration builtin's `name=value` argument (`declare a=(1 2)`), carried as a
    /// word so that it is assigned, not split.
    AssignWord(Box<Assign>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplaceMode {
    First,
    All,
    Prefix,
    Suffix,
}

/// A parsed arithmetic expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ArithExpr {
    Num(i64),
    /// A variable, possibly subscripted (subscript kept as source text: it is expanded
    /// and evaluated when used, as bash does).
    Var(String, Option<String>),
    Unary(UnaryOp, Box<ArithExpr>),
    /// `lhs op rhs`, with the byte offset where the error token of a failing `/`, `%`
    /// or `**` starts in the source text (bash names the text from the divisor on, or
    /// after the exponent).
    Binary(BinOp, Box<ArithExpr>, Box<ArithExpr>, u32),
    /// `lhs op= rhs` (op `None` for plain `=`), with the error token's offset for a
    /// failing `/=` or `%=` (the text after the right-hand side).
    Assign(Option<BinOp>, String, Option<String>, Box<ArithExpr>, u32),
    /// `++x`, `--x`, `x++`, `x--`.
    IncDec {
        name: String,
        index: Option<String>,
        inc: bool,
        prefix: bool,
    },
    Cond(Box<ArithExpr>, Box<ArithExpr>, Box<ArithExpr>),
    Comma(Box<ArithExpr>, Box<ArithExpr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitOr,
    BitXor,
    And,
    Or,
}

impl BinOp {
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Pow => "**",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

impl Word {
    /// A word of one unquoted literal.
    pub fn lit(s: impl Into<String>) -> Word {
        Word {
            parts: vec![WordPart::Lit(s.into())],
        }
    }

    /// The text if the word is only unquoted literal text.
    pub fn as_literal(&self) -> Option<&str> {
        match self.parts.as_slice() {
            [WordPart::Lit(s)] => Some(s),
            _ => None,
        }
    }

    /// Whether any part is quoted (affects here-doc delimiters and `$@` handling).
    pub fn has_quotes(&self) -> bool {
        self.parts.iter().any(|p| {
            matches!(
                p,
                WordPart::Quoted(_) | WordPart::Escaped(_) | WordPart::DQuoted(_)
            )
        })
    }
}
