//! The hand-written recursive-descent parser for bash (bash manual, "Shell Grammar",
//! "Quoting", "Shell Expansions" for word structure, "Redirections"). One function per
//! production of `grammar/bash.ebnf`; the lexer is folded into the cursor because bash's
//! tokens depend on where they appear. Like bash, it can hand out one complete command
//! at a time so that `shopt -s extglob` and aliases defined on one line affect the next.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use super::arith::parse_arith;
use super::ast::*;

/// Settings that change how text is parsed.
#[derive(Clone, Debug)]
pub struct ParseOptions {
    /// Recognise `?( *( +( @( !(` patterns inside words.
    pub extglob: bool,
    /// Aliases to expand in command position (only when `expand_aliases` is on).
    pub aliases: Option<Arc<HashMap<String, String>>>,
    /// Maximum nesting of compound commands, substitutions and quotes.
    pub max_depth: usize,
    /// Whether `shopt -s extglob` is on: inside `[[ ]]` extglob patterns parse either
    /// way, but `[[ !(x) ]]` is a negated group without it.
    pub extglob_shopt: bool,
}

impl Default for ParseOptions {
    fn default() -> ParseOptions {
        ParseOptions {
            extglob: true,
            aliases: None,
            max_depth: 1000,
            extglob_shopt: true,
        }
    }
}

/// A syntax error, rendered the way bash prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: u32,
    pub kind: ParseErrorKind,
    /// The source line bash quotes after "near unexpected token" errors.
    pub source_line: Option<String>,
    /// An unexpected token inside `$( )` or `<( )`: bash then exits with status 127,
    /// even from `eval`.
    pub in_substitution: bool,
    /// How bash goes on after this error, when it does (errors in a compound
    /// assignment, `a=(1 & 2)`): the status is then 1, not 2.
    pub recovery: Option<Recovery>,
}

/// Where reading may go on after a syntax error that bash does not treat as fatal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Recovery {
    /// The rest of the bad line is dropped; parsing starts afresh at `pos` (a character
    /// index), which is line `line`.
    NextLine { pos: usize, line: u32 },
    /// Nothing more is read (the text ended inside the assignment).
    Stop,
    /// As `Stop`, after bash's `unexpected end of file` message (the text ended inside
    /// a word of the assignment).
    StopAtEof,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    UnexpectedToken(String),
    UnexpectedEof,
    /// `unexpected EOF while looking for matching `X'`
    Unmatched(char),
    /// The text ended inside `$( )`: bash's message for an unmatched `)`, on the line
    /// of the end of the text (where [`UnexpectedEof`](Self::UnexpectedEof) is too).
    EofInSubstitution,
    TooDeep,
    Message(String),
    /// A syntax error inside `[[ ]]`: bash prints these messages (each with its line;
    /// none for a term missing before `]]`) and then reads no more input, as if the
    /// text had ended there; `eof` when it had.
    Cond {
        messages: Vec<(u32, String)>,
        eof: bool,
    },
    /// A `for ((...))` whose text does not hold three expressions: bash's message, then
    /// a second line naming the text.
    ForArith {
        message: String,
        text: String,
    },
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            ParseErrorKind::UnexpectedToken(t) => {
                write!(f, "syntax error near unexpected token `{t}'")
            }
            ParseErrorKind::UnexpectedEof => f.write_str("syntax error: unexpected end of file"),
            ParseErrorKind::Unmatched(c) => {
                write!(f, "unexpected EOF while looking for matching `{c}'")
            }
            ParseErrorKind::EofInSubstitution => {
                f.write_str("unexpected EOF while looking for matching `)'")
            }
            ParseErrorKind::TooDeep => f.write_str("syntax error: nesting too deep"),
            ParseErrorKind::Message(m) | ParseErrorKind::ForArith { message: m, .. } => {
                f.write_str(m)
            }
            ParseErrorKind::Cond { messages, .. } => match messages.first() {
                Some((_, m)) => f.write_str(m),
                None => f.write_str("syntax error in conditional expression"),
            },
        }
    }
}

impl std::error::Error for ParseError {}

/// Something bash warns about while parsing but accepts (a here-document cut short).
/// Line numbers count from the start of the parsed text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseWarning {
    /// The line bash names in the `line N:` prefix.
    pub line: u32,
    pub kind: ParseWarningKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseWarningKind {
    /// A here-document body ended without its delimiter line: at the end of the input,
    /// or (inside `$( )`) at a line that starts with the delimiter and holds a `)`.
    HereDocEof { start_line: u32, delimiter: String },
    /// `$( )` ended with here-documents whose bodies had not been read yet.
    ComsubUnterminated { count: usize },
}

impl ParseWarning {
    /// The warning text after bash's `NAME: line N: ` prefix, with line numbers moved
    /// on by `base_line` (the line the parsed text starts after, for `eval`).
    pub fn message(&self, base_line: u32) -> String {
        match &self.kind {
            ParseWarningKind::HereDocEof {
                start_line,
                delimiter,
            } => format!(
                "warning: here-document at line {} delimited by end-of-file (wanted `{delimiter}')",
                start_line + base_line
            ),
            ParseWarningKind::ComsubUnterminated { count } => format!(
                "warning: command substitution: {count} unterminated here-document{}",
                if *count == 1 { "" } else { "s" }
            ),
        }
    }
}

type PResult<T> = Result<T, ParseError>;

/// Parses a whole script.
pub fn parse(src: &str) -> PResult<Script> {
    parse_with(src, ParseOptions::default())
}

/// Parses a whole script with the given options.
pub fn parse_with(src: &str, opts: ParseOptions) -> PResult<Script> {
    let mut p = Parser::new(src, opts);
    let mut commands = Vec::new();
    while let Some(c) = p.next_command()? {
        commands.push(c);
    }
    Ok(Script { commands })
}

/// Parses text the way a here-document body is read: `$` expansions, backquotes and
/// backslash escapes of `$`, `` ` `` and `\`; everything else is literal (prompt strings,
/// `PS4`).
pub fn parse_template(src: &str, opts: ParseOptions) -> PResult<Word> {
    let mut p = Parser::new(src, opts);
    p.heredoc_word()
}

/// Parses text as bash's `expand_arith_string` reads it (the source of `$((...))`,
/// and the subscript of an indexed array, which is an arithmetic expression): `$`
/// expansions, backquotes and double quotes work; a `'` is an ordinary character and
/// a backslash escapes only what it escapes inside double quotes.
pub fn parse_arith_text(src: &str, opts: ParseOptions) -> PResult<Word> {
    let mut p = Parser::new(src, opts);
    p.arith_text = true;
    p.dquote_to_end = true;
    p.arith_word()
}

/// Parses the whole text as the inside of a subscript read as a word (an associative
/// array's key, bash's `expand_subscript_string`): quotes and expansions work;
/// blanks, brackets and everything else are literal.
pub fn parse_subscript_word(src: &str, opts: ParseOptions) -> PResult<Word> {
    let mut p = Parser::new(src, opts);
    p.dquote_to_end = true;
    let mut parts = Vec::new();
    let mut lit = String::new();
    while let Some(c) = p.peek() {
        if !p.word_special(&mut parts, &mut lit, false, WordMode::Normal)? {
            lit.push(c);
            p.bump();
        }
    }
    flush_lit(&mut parts, &mut lit);
    Ok(Word { parts })
}

/// Where [`Parser::checkpoint`] left the parse.
struct Checkpoint {
    pos: usize,
    line: u32,
    warnings: usize,
    line_jumps: usize,
    aliases: Vec<(String, usize)>,
    /// The length of the enclosing parse's splice log; `None` when this parse began it.
    splices: Option<usize>,
}

/// The words read as reserved where a command may start.
pub(crate) const RESERVED_WORDS: [&str; 22] = [
    "if", "then", "elif", "else", "fi", "do", "done", "case", "esac", "while", "until", "for",
    "select", "function", "in", "time", "coproc", "{", "}", "!", "[[", "]]",
];

/// Reserved words that end a compound list.
const LIST_END: &[&str] = &["then", "elif", "else", "fi", "do", "done", "esac", "}"];

/// The parser: a cursor over the source characters.
pub struct Parser {
    chars: Vec<char>,
    pos: usize,
    line: u32,
    opts: ParseOptions,
    depth: usize,
    pending_heredocs: Vec<HereDoc>,
    /// Aliases being expanded (to stop recursion) and where their text ends.
    alias_active: Vec<(String, usize)>,
    /// Where the text of an alias ending in a blank ends: the word there is checked for
    /// an alias too.
    alias_next: Option<usize>,
    /// Whether the last `param_word` stopped at a `/` (so a replacement follows).
    last_stop_was_slash: bool,
    /// Reading `${...}` in an assignment's value: the word of `-` and `+` expands a
    /// tilde after `:` too (`x=${u-~:~}`).
    assign_value_param: bool,
    /// How many `$( )`, `<( )` or `>( )` bodies enclose the cursor: inside one, bash
    /// lets a line that starts with a here-document's delimiter and holds a `)` end the
    /// body early (its `)` then closes the substitution).
    comsub_depth: usize,
    /// Newlines (by position) that stand for more lines than one: here-document bodies
    /// that bash read early, at the `)` of a substitution, were taken out of the text
    /// after them, and the lines after such a newline keep their numbers.
    line_jumps: Vec<(usize, u32)>,
    /// The lines the `${` being parsed (innermost last) opened on: bash names that line
    /// when the text ends before its `}`.
    brace_lines: Vec<u32>,
    /// Warnings not yet handed out by [`Parser::take_warnings`].
    warnings: Vec<ParseWarning>,
    /// The `${name@...}` being parsed has an operator after `@` that is not one of
    /// bash's: the parameter, which bash looks up before it complains.
    bad_transform: Option<ParamExp>,
    /// The `${name[` being parsed has no `]` bash's expansion would find (`Some(true)`
    /// for a length `${#name[`): the `${...}` is a bad substitution.
    unclosed_subscript: Option<bool>,
    /// The `${...}` just parsed is a bad substitution, to stand in the word for it.
    bad_subst: Option<BadSubst>,
    /// While a parse that may be undone is under way (see [`Parser::checkpoint`]), the
    /// text each splice took out: where, what, and how much went in instead.
    splice_log: Option<Vec<(usize, Vec<char>, usize)>>,
    /// Reading the text of an arithmetic expression: bash parses a substitution there
    /// (one it did not read with the command, as in single quotes) only when the
    /// expression is expanded, on its own, so a here-document left open at its `)`
    /// ends there, empty, instead of taking the lines after it.
    arith_text: bool,
    /// Text read at run time, where a `"` left open reaches to the end of the text (as
    /// bash's expansion reads one) rather than being an error.
    dquote_to_end: bool,
    /// The next word is a simple command's first: as in bash, `name[` there reads on to
    /// its matching `]`, blanks and metacharacters included (`a[ 1 ]=2`, `f[ x]`).
    command_start: bool,
    /// The line of the last `for ((` read. bash numbers an arithmetic `for` with it
    /// once its `done` is read, so one holding another takes the inner one's line.
    arith_for_line: u32,
    /// Reading text where a backslash-newline is itself (single quotes, `$'...'`,
    /// comments, here-document bodies): elsewhere the cursor passes over it, as bash's
    /// input reader takes it out before any token is recognised.
    raw: u32,
}

/// Redirection operators as bash names them in syntax errors, longest first.
const REDIRECT_OPS: [&str; 12] = [
    "&>>", "<<<", "<<-", "&>", ">>", "<<", "<&", ">&", "<>", ">|", "<", ">",
];

/// The tokens bash's `[[ ]]` parser tells apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum CondTok {
    /// `]]`
    End,
    AndAnd,
    OrOr,
    /// `!` standing alone
    Bang,
    LParen,
    RParen,
    Newline,
    Eof,
    /// Another operator: `;`, `&`, `|`, `<`, `>` and their longer forms.
    Op,
    Word,
}

/// Reserved words that open a compound command (after `coproc NAME`).
pub(crate) const COMPOUND_OPENERS: &[&str] =
    &["if", "while", "until", "for", "case", "[[", "select"];

/// A character of the user name in a tilde prefix (`~user`).
fn is_tilde_user_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+')
}

pub(crate) fn is_meta(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>'
    )
}

pub(crate) fn is_name_start(c: char) -> bool {
    c == '_' || c.is_ascii_alphabetic()
}

pub(crate) fn is_name_char(c: char) -> bool {
    c == '_' || c.is_ascii_alphanumeric()
}

/// Whether `s` is a valid shell variable name.
pub fn is_name(s: &str) -> bool {
    let mut cs = s.chars();
    matches!(cs.next(), Some(c) if is_name_start(c)) && cs.all(is_name_char)
}

/// Whether `s` is the left side of an assignment: a name, optionally with a
/// subscript, optionally followed by `+` (of `+=`).
fn is_assign_lhs(s: &str) -> bool {
    let s = s.strip_suffix('+').unwrap_or(s);
    match s.split_once('[') {
        Some((name, rest)) => is_name(name) && rest.ends_with(']'),
        None => is_name(s),
    }
}

/// What a word is being read for: decides which characters end it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum WordMode {
    /// A command word: ends at a metacharacter.
    Normal,
    /// An assignment value: also recognises `~` after `:`.
    Assign,
    /// A word inside `[[ ]]`.
    Cond,
    /// The word of a here-string: a tilde prefix expands after any `:` (as in an
    /// assignment's value), never after an `=`.
    HereString,
    /// An element of a compound array assignment without a `[key]=`: a command word
    /// that is never assignment-like.
    Element,
}

impl Parser {
    pub fn new(src: &str, opts: ParseOptions) -> Parser {
        Parser {
            chars: src.chars().collect(),
            pos: 0,
            line: 1,
            opts,
            depth: 0,
            pending_heredocs: Vec::new(),
            alias_active: Vec::new(),
            alias_next: None,
            last_stop_was_slash: false,
            assign_value_param: false,
            comsub_depth: 0,
            brace_lines: Vec::new(),
            line_jumps: Vec::new(),
            warnings: Vec::new(),
            bad_transform: None,
            unclosed_subscript: None,
            bad_subst: None,
            splice_log: None,
            arith_text: false,
            dquote_to_end: false,
            command_start: false,
            arith_for_line: 1,
            raw: 0,
        }
    }

    /// The warnings met since the last call (bash prints them as it parses).
    pub fn take_warnings(&mut self) -> Vec<ParseWarning> {
        std::mem::take(&mut self.warnings)
    }

    /// Ends the text with a newline when it lacks one, as bash's input reader does with
    /// a last line: at the end of a script the parser then meets a `newline` token before
    /// the end of the input (`echo >` is ``unexpected token `newline'``, not an
    /// unexpected end of file). A final backslash stays as it is: bash's added newline
    /// does not continue it (`echo \` prints the backslash).
    pub fn end_with_newline(&mut self) {
        if self.chars.last().is_some_and(|&c| c != '\n' && c != '\\') {
            self.chars.push('\n');
        }
    }

    /// Goes on reading at `pos`, line `line`, after a syntax error with
    /// [`Recovery::NextLine`]: what the failed parse had under way is dropped.
    pub fn resume_at(&mut self, pos: usize, line: u32) {
        self.pos = pos.min(self.chars.len());
        self.line = line;
        self.depth = 0;
        self.pending_heredocs.clear();
        self.alias_active.clear();
        self.alias_next = None;
        self.assign_value_param = false;
        self.comsub_depth = 0;
        self.brace_lines.clear();
        self.splice_log = None;
        self.arith_text = false;
        self.command_start = false;
    }

    /// The character just before the cursor.
    pub fn prev_char(&self) -> Option<char> {
        self.pos
            .checked_sub(1)
            .and_then(|i| self.chars.get(i).copied())
    }

    /// Counts the line the cursor is on as `line` from now on, the text unchanged.
    pub fn renumber(&mut self, line: u32) {
        self.line = line;
    }

    /// Changes options for the commands parsed from now on.
    pub fn set_options(&mut self, opts: ParseOptions) {
        self.opts = opts;
    }

    /// The line the cursor is on.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The cursor position (in characters).
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The source text between a position and the cursor (a command's text, for
    /// history).
    pub fn text_since(&self, from: usize) -> String {
        let end = self.pos.min(self.chars.len());
        self.chars[from.min(end)..end].iter().collect()
    }

    /// The length of the text (in characters).
    pub fn text_len(&self) -> usize {
        self.chars.len()
    }

    /// The line starting at `pos`: its text without the newline, and where it ends (at
    /// its newline, or the end of the text).
    pub fn line_from(&self, pos: usize) -> (String, usize) {
        let pos = pos.min(self.chars.len());
        let end = self.chars[pos..]
            .iter()
            .position(|&c| c == '\n')
            .map_or(self.chars.len(), |n| pos + n);
        (self.chars[pos..end].iter().collect(), end)
    }

    /// The text between two positions.
    pub fn text_between(&self, from: usize, to: usize) -> String {
        let to = to.min(self.chars.len());
        self.chars[from.min(to)..to].iter().collect()
    }

    /// Replaces text not read yet with `text`: history expansion rewrites each line of
    /// input before the parser reads it.
    pub fn replace_unread(&mut self, range: std::ops::Range<usize>, text: &str) {
        let end = range.end.min(self.chars.len());
        let start = range.start.max(self.pos).min(end);
        self.splice_text(start..end, text.chars().collect());
    }

    // ----- cursor -----

    /// Whether a line continuation starts at `i`: a backslash-newline whose backslash
    /// is not escaped by the one before it, outside the text read raw.
    fn continuation_at(&self, i: usize) -> bool {
        if self.raw > 0 || self.chars.get(i) != Some(&'\\') || self.chars.get(i + 1) != Some(&'\n')
        {
            return false;
        }
        let before = self.chars[..i]
            .iter()
            .rev()
            .take_while(|&&c| c == '\\')
            .count();
        before % 2 == 0
    }

    /// The first position at or after `i` that is not inside a line continuation.
    fn past_continuations(&self, mut i: usize) -> usize {
        while self.continuation_at(i) {
            i += 2;
        }
        i
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.past_continuations(self.pos)).copied()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        let mut i = self.past_continuations(self.pos);
        for _ in 0..n {
            i = self.past_continuations(i + 1);
        }
        self.chars.get(i).copied()
    }

    /// The character at the cursor as it stands in the text.
    fn peek_raw(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    /// Moves the cursor over the line continuations at it.
    fn skip_continuations(&mut self) {
        while self.continuation_at(self.pos) {
            self.pos += 1;
            self.bump_raw();
        }
    }

    /// [`Parser::bump`] for text read raw.
    fn bump_raw(&mut self) -> Option<char> {
        self.raw += 1;
        let c = self.bump();
        self.raw -= 1;
        c
    }

    fn at_str(&self, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(i, c)| self.peek_at(i) == Some(c))
    }

    fn bump(&mut self) -> Option<char> {
        self.skip_continuations();
        let c = self.chars.get(self.pos).copied()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
            for &(at, lines) in &self.line_jumps {
                if at + 1 == self.pos {
                    self.line += lines;
                }
            }
        }
        while let Some((_, end)) = self.alias_active.last() {
            if self.pos >= *end {
                self.alias_active.pop();
            } else {
                break;
            }
        }
        Some(c)
    }

    /// Replaces `range` of the text with `text`, keeping the positions recorded at or
    /// after its end (where aliases end, line jumps) on the same characters.
    fn splice_text(&mut self, range: std::ops::Range<usize>, text: Vec<char>) {
        let (start, end, added) = (range.start, range.end, text.len());
        let shift = |p: &mut usize| {
            if *p >= end {
                *p = *p - (end - start) + added;
            }
        };
        self.alias_active.iter_mut().for_each(|(_, e)| shift(e));
        self.line_jumps.iter_mut().for_each(|(at, _)| shift(at));
        let removed: Vec<char> = self.chars.splice(range, text).collect();
        if let Some(log) = &mut self.splice_log {
            log.push((start, removed, added));
        }
    }

    /// Marks a point the parse may come back to with [`Parser::rewind`] (when `((` turns
    /// out not to be arithmetic): here-document bodies moved and warnings given on the
    /// way are undone then.
    fn checkpoint(&mut self) -> Checkpoint {
        Checkpoint {
            pos: self.pos,
            line: self.line,
            warnings: self.warnings.len(),
            line_jumps: self.line_jumps.len(),
            aliases: self.alias_active.clone(),
            splices: match &self.splice_log {
                Some(log) => Some(log.len()),
                None => {
                    self.splice_log = Some(Vec::new());
                    None
                }
            },
        }
    }

    /// Ends the parse begun at `cp`: kept when `undo` is false, rewound when true.
    fn finish(&mut self, cp: Checkpoint, undo: bool) {
        let kept = cp.splices.unwrap_or(0);
        if undo {
            let undone = match &mut self.splice_log {
                Some(log) => log.split_off(kept.min(log.len())),
                None => Vec::new(),
            };
            let outer = self.splice_log.take();
            for (start, removed, added) in undone.into_iter().rev() {
                self.splice_text(start..start + added, removed);
            }
            self.splice_log = outer;
            self.pos = cp.pos;
            self.line = cp.line;
            self.warnings.truncate(cp.warnings);
            self.line_jumps.truncate(cp.line_jumps);
            self.alias_active = cp.aliases;
        }
        if cp.splices.is_none() {
            self.splice_log = None;
        }
    }

    fn bump_n(&mut self, n: usize) {
        for _ in 0..n {
            self.bump();
        }
    }

    fn eof(&self) -> bool {
        self.past_continuations(self.pos) >= self.chars.len()
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > self.opts.max_depth {
            return Err(self.error(ParseErrorKind::TooDeep));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// An unclosed quote: bash names the line it was opened on.
    fn unclosed(&self, quote: char, line: u32) -> ParseError {
        ParseError {
            line,
            ..self.error(ParseErrorKind::Unmatched(quote))
        }
    }

    /// The text ended inside `${...}`.
    fn unclosed_brace(&self) -> ParseError {
        self.unclosed('}', self.brace_lines.last().copied().unwrap_or(self.line))
    }

    fn error(&self, kind: ParseErrorKind) -> ParseError {
        let token = matches!(kind, ParseErrorKind::UnexpectedToken(_));
        ParseError {
            line: self.line,
            kind,
            source_line: token.then(|| self.current_line_text()),
            in_substitution: token && self.comsub_depth > 0,
            recovery: None,
        }
    }

    fn current_line_text(&self) -> String {
        let p = self.pos.min(self.chars.len());
        let mut start = p;
        while start > 0 && self.chars.get(start - 1) != Some(&'\n') {
            start -= 1;
        }
        let mut end = p;
        while end < self.chars.len() && self.chars.get(end) != Some(&'\n') {
            end += 1;
        }
        self.chars[start..end].iter().collect()
    }

    /// An error about the token at the cursor (or end of file).
    fn unexpected(&mut self) -> ParseError {
        self.skip_blanks();
        if self.eof() {
            return self.error(ParseErrorKind::UnexpectedEof);
        }
        let tok = self.token_text();
        self.error(ParseErrorKind::UnexpectedToken(tok))
    }

    /// No word where `case`, `for` or `select` needs one. At the end of the text the
    /// token is the newline bash reads after it, so this is not an early end of file.
    fn missing_word(&mut self) -> ParseError {
        self.skip_blanks();
        if self.eof() {
            return self.error(ParseErrorKind::UnexpectedToken("newline".to_owned()));
        }
        self.unexpected()
    }

    /// The text of the token at the cursor, for error messages.
    fn token_text(&self) -> String {
        if let Some(op) = self.peek_operator() {
            if op == "\n" {
                return "newline".to_owned();
            }
            return op.to_owned();
        }
        if let Some(op) = REDIRECT_OPS.iter().find(|op| self.at_str(op)) {
            return (*op).to_owned();
        }
        let mut s = String::new();
        let mut i = self.pos;
        while let Some(&c) = self.chars.get(i) {
            if is_meta(c) {
                break;
            }
            s.push(c);
            i += 1;
        }
        s
    }

    /// Skips blanks, line continuations and comments (not newlines).
    fn skip_blanks(&mut self) {
        loop {
            match self.peek() {
                Some(' ' | '\t') => {
                    self.bump();
                }
                Some('\\') if self.peek_at(1) == Some('\n') => {
                    self.bump_n(2);
                }
                Some('#') => {
                    // A comment ends at its newline, a backslash before it or not.
                    while let Some(c) = self.peek_raw() {
                        if c == '\n' {
                            break;
                        }
                        self.bump_raw();
                    }
                }
                _ => return,
            }
        }
    }

    /// The control operator at the cursor, if any (without consuming it).
    fn peek_operator(&self) -> Option<&'static str> {
        const OPS: [&str; 13] = [
            ";;&", ";;", ";&", "&&", "||", "|&", ";", "&", "|", "(", ")", "\n", "",
        ];
        for op in OPS {
            if op.is_empty() {
                break;
            }
            if self.at_str(op) {
                // `&>` and `&>>` are redirections, not `&`.
                if op == "&" && self.peek_at(1) == Some('>') {
                    return None;
                }
                return Some(op);
            }
        }
        None
    }

    /// Consumes a newline and reads any here-document bodies it releases.
    fn newline(&mut self) -> PResult<()> {
        self.bump();
        self.read_heredoc_bodies()
    }

    /// Skips newlines (and blanks/comments between them).
    fn linebreak(&mut self) -> PResult<()> {
        loop {
            self.skip_blanks();
            if self.peek() == Some('\n') {
                self.newline()?;
            } else {
                return Ok(());
            }
        }
    }

    /// The reserved word at the cursor, if one stands there as a whole word.
    fn peek_reserved(&self) -> Option<&'static str> {
        for w in RESERVED_WORDS {
            if self.at_str(w) {
                let next = self.peek_at(w.chars().count());
                let delimited = match next {
                    None => true,
                    Some(c) => is_meta(c),
                };
                if delimited {
                    return Some(w);
                }
            }
        }
        None
    }

    fn eat_reserved(&mut self, w: &str) -> bool {
        self.skip_blanks();
        if self.peek_reserved() == Some(w) {
            self.bump_n(w.chars().count());
            true
        } else {
            false
        }
    }

    fn expect_reserved(&mut self, w: &str) -> PResult<()> {
        if self.eat_reserved(w) {
            Ok(())
        } else {
            Err(self.unexpected())
        }
    }

    // ----- commands -----

    /// Parses the next complete command (one line's worth of lists), or `None` at the end.
    pub fn next_command(&mut self) -> PResult<Option<List>> {
        self.linebreak()?;
        if self.eof() {
            return Ok(None);
        }
        if let Some(op) = self.peek_operator()
            && op != "("
        {
            return Err(self.unexpected());
        }
        let mut list = List::default();
        loop {
            let and_or = self.and_or()?;
            self.skip_blanks();
            let (background, separated) = match self.peek_operator() {
                Some("&") => {
                    self.bump();
                    (true, true)
                }
                Some(";") => {
                    self.bump();
                    (false, true)
                }
                _ => (false, false),
            };
            list.items.push(ListItem {
                and_or,
                background,
                newline: !separated,
            });
            self.skip_blanks();
            match self.peek() {
                None => break,
                Some('\n') => {
                    self.newline()?;
                    break;
                }
                _ => {}
            }
            if let Some(op) = self.peek_operator()
                && op != "("
            {
                return Err(self.unexpected());
            }
            // A compound command ends at its closing word: what follows on the line
            // must be a separator (`(( 1 )) x` is an error, as in bash).
            if !separated && self.peek() != Some('#') {
                return Err(self.unexpected());
            }
        }
        if !self.pending_heredocs.is_empty() {
            self.read_heredoc_bodies()?;
        }
        Ok(Some(list))
    }

    /// A compound list: commands separated by `;`, `&` or newlines, up to a reserved
    /// word from `LIST_END`, `)`, a case terminator, or the end.
    fn compound_list(&mut self) -> PResult<List> {
        self.enter()?;
        let mut list = List::default();
        loop {
            self.linebreak()?;
            if self.eof() {
                break;
            }
            if let Some(w) = self.peek_reserved()
                && LIST_END.contains(&w)
            {
                break;
            }
            match self.peek_operator() {
                Some(")") | Some(";;") | Some(";&") | Some(";;&") => break,
                Some("(") | None => {}
                Some(_) => return Err(self.unexpected()),
            }
            let and_or = self.and_or()?;
            self.skip_blanks();
            let newline = matches!(self.peek(), Some('\n' | '#'));
            let background = match self.peek_operator() {
                Some("&") => {
                    self.bump();
                    true
                }
                Some(";") => {
                    self.bump();
                    false
                }
                Some("\n") | Some(")") | Some(";;") | Some(";&") | Some(";;&") => false,
                None if self.eof()
                    || self.peek() == Some('#')
                    || self.peek_reserved().is_some_and(|w| LIST_END.contains(&w)) =>
                {
                    false
                }
                _ => return Err(self.unexpected()),
            };
            list.items.push(ListItem {
                and_or,
                background,
                newline,
            });
        }
        if list.items.is_empty() {
            return Err(self.unexpected());
        }
        self.leave();
        Ok(list)
    }

    fn and_or(&mut self) -> PResult<AndOr> {
        let first = self.pipeline()?;
        let mut rest = Vec::new();
        loop {
            self.skip_blanks();
            let op = match self.peek_operator() {
                Some("&&") => AndOrOp::And,
                Some("||") => AndOrOp::Or,
                _ => break,
            };
            self.bump_n(2);
            self.linebreak()?;
            rest.push((op, self.pipeline()?));
        }
        Ok(AndOr { first, rest })
    }

    fn pipeline(&mut self) -> PResult<Pipeline> {
        self.skip_blanks();
        let line = self.line;
        let mut time = None;
        let mut negated = false;
        loop {
            self.skip_blanks();
            if self.peek_reserved() == Some("time") && time.is_none() {
                self.bump_n(4);
                self.skip_blanks();
                time = Some(TimeFlag::Default);
                if self.at_str("-p") && self.peek_at(2).is_none_or(is_meta) {
                    self.bump_n(2);
                    time = Some(TimeFlag::Posix);
                }
                continue;
            }
            if self.peek_reserved() == Some("!") {
                self.bump();
                negated = !negated;
                continue;
            }
            break;
        }
        let mut commands: Vec<Command> = Vec::new();
        self.skip_blanks();
        if time.is_some() || negated {
            // `time` / `!` alone is a valid (empty) pipeline.
            if self.eof() || matches!(self.peek_operator(), Some(op) if op != "(") {
                return Ok(Pipeline {
                    time,
                    negated,
                    commands,
                    line,
                });
            }
        }
        commands.push(self.command()?);
        loop {
            self.skip_blanks();
            let stderr = match self.peek_operator() {
                Some("|") => false,
                Some("|&") => true,
                _ => break,
            };
            self.bump_n(if stderr { 2 } else { 1 });
            // `a |& b` is `a 2>&1 | b`, the duplication made after a's own redirections.
            if stderr && let Some(left) = commands.last_mut() {
                left.redirects.push(Redirect {
                    fd: Some(RedirFd::Number(2)),
                    op: RedirOp::DupWrite,
                    target: RedirTarget::Word(Word::lit("1")),
                });
            }
            self.linebreak()?;
            commands.push(self.command()?);
        }
        Ok(Pipeline {
            time,
            negated,
            commands,
            line,
        })
    }

    fn command(&mut self) -> PResult<Command> {
        self.enter()?;
        let r = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.command_inner());
        self.leave();
        r
    }

    fn command_inner(&mut self) -> PResult<Command> {
        self.skip_blanks();
        self.maybe_expand_alias()?;
        self.skip_blanks();
        let mut line = self.line;
        let mut unclosed_arith_line = None;
        if self.eof() {
            return Err(self.unexpected());
        }
        let kind = if let Some(w) = self.peek_reserved() {
            match w {
                "if" => Some(self.if_clause()?),
                "while" | "until" => Some(self.while_clause()?),
                "for" => {
                    let kind = self.for_clause()?;
                    if matches!(kind, CommandKind::ArithFor(_)) {
                        line = self.arith_for_line;
                    }
                    Some(kind)
                }
                "select" => Some(self.select_clause()?),
                "case" => Some(self.case_clause()?),
                "{" => {
                    self.bump();
                    let body = self.compound_list()?;
                    self.expect_reserved("}")?;
                    Some(CommandKind::BraceGroup(body))
                }
                "[[" => {
                    self.bump_n(2);
                    let e = self.cond_command()?;
                    Some(CommandKind::Cond(e))
                }
                "function" => {
                    return self.function_keyword(line);
                }
                "coproc" => {
                    return self.coproc(line);
                }
                // `!` negates a whole pipeline, so it has no place where a command of
                // one is read: after `|`, `coproc` or a function's `()`.
                "then" | "elif" | "else" | "fi" | "do" | "done" | "esac" | "}" | "in" | "]]"
                | "!" => {
                    return Err(self.unexpected());
                }
                _ => None,
            }
        } else if self.at_str("((") {
            let (arith, ended) = self.try_arith_command()?;
            unclosed_arith_line = ended.then_some(line);
            if arith.is_some() {
                // bash reports an arithmetic command at the line its `))` is on.
                line = self.line;
            }
            arith.map(CommandKind::Arith)
        } else {
            None
        };
        let kind = match kind {
            Some(k) => k,
            None if self.peek() == Some('(') => {
                self.bump();
                let body = self.compound_list().and_then(|body| {
                    self.skip_blanks();
                    if self.peek() != Some(')') {
                        return Err(self.unexpected());
                    }
                    Ok(body)
                });
                let body = body.map_err(|e| unclosed_arith(e, unclosed_arith_line))?;
                self.bump();
                // bash counts a subshell at the line of its `)` (its redirection
                // errors, `$LINENO` in an ERR trap when it fails).
                line = self.line;
                CommandKind::Subshell(body)
            }
            None => return self.simple_command(line),
        };
        let redirects = self.trailing_redirects()?;
        Ok(Command {
            kind,
            redirects,
            line,
        })
    }

    fn trailing_redirects(&mut self) -> PResult<Vec<Redirect>> {
        let mut redirects = Vec::new();
        loop {
            self.skip_blanks();
            match self.try_redirect()? {
                Some(r) => redirects.push(r),
                None => break,
            }
        }
        Ok(redirects)
    }

    /// Replaces an alias name at the cursor with its text.
    fn maybe_expand_alias(&mut self) -> PResult<()> {
        let Some(aliases) = self.opts.aliases.clone() else {
            return Ok(());
        };
        loop {
            self.skip_blanks();
            let mut end = self.pos;
            while let Some(&c) = self.chars.get(end) {
                if is_meta(c) || matches!(c, '\'' | '"' | '\\' | '$' | '`') {
                    break;
                }
                end += 1;
            }
            if end == self.pos {
                return Ok(());
            }
            if let Some(&c) = self.chars.get(end)
                && !is_meta(c)
            {
                return Ok(());
            }
            let name: String = self.chars[self.pos..end].iter().collect();
            if self.alias_active.iter().any(|(n, _)| *n == name) {
                return Ok(());
            }
            let Some(text) = aliases.get(&name) else {
                return Ok(());
            };
            let text: Vec<char> = text.chars().collect();
            let trailing_blank = matches!(text.last(), Some(' ' | '\t'));
            let new_end = self.pos + text.len();
            // Aliases that end where others end keep both active.
            self.splice_text(self.pos..end, text);
            self.alias_active.push((name, new_end));
            self.alias_next = if trailing_blank { Some(new_end) } else { None };
            if new_end == self.pos {
                // An empty alias: the command word is whatever follows.
                continue;
            }
        }
    }

    fn if_clause(&mut self) -> PResult<CommandKind> {
        self.expect_reserved("if")?;
        let cond = self.compound_list()?;
        self.expect_reserved("then")?;
        let then = self.compound_list()?;
        let mut elifs = Vec::new();
        let mut else_ = None;
        loop {
            self.skip_blanks();
            if self.eat_reserved("elif") {
                let c = self.compound_list()?;
                self.expect_reserved("then")?;
                let b = self.compound_list()?;
                elifs.push((c, b));
            } else if self.eat_reserved("else") {
                else_ = Some(self.compound_list()?);
                self.expect_reserved("fi")?;
                break;
            } else {
                self.expect_reserved("fi")?;
                break;
            }
        }
        Ok(CommandKind::If(IfClause {
            cond,
            then,
            elifs,
            else_,
        }))
    }

    fn while_clause(&mut self) -> PResult<CommandKind> {
        let until = self.eat_reserved("until");
        if !until {
            self.expect_reserved("while")?;
        }
        let cond = self.compound_list()?;
        let body = self.do_group()?;
        Ok(CommandKind::While(WhileClause { until, cond, body }))
    }

    fn do_group(&mut self) -> PResult<List> {
        self.linebreak()?;
        if self.eat_reserved("{") {
            // bash accepts `for x in ...; { ...; }` as a body.
            let body = self.compound_list()?;
            self.expect_reserved("}")?;
            return Ok(body);
        }
        self.expect_reserved("do")?;
        let body = self.compound_list()?;
        self.expect_reserved("done")?;
        Ok(body)
    }

    fn for_clause(&mut self) -> PResult<CommandKind> {
        self.expect_reserved("for")?;
        self.skip_blanks();
        if self.at_str("((") {
            return self.arith_for();
        }
        let (var, words, body) = self.for_parts()?;
        Ok(CommandKind::For(ForClause { var, words, body }))
    }

    fn select_clause(&mut self) -> PResult<CommandKind> {
        self.expect_reserved("select")?;
        let (var, words, body) = self.for_parts()?;
        Ok(CommandKind::Select(ForClause { var, words, body }))
    }

    /// Checks the word at the cursor for an alias when it follows one whose text ends
    /// in a blank (bash does this for the next word wherever it is, so `for`'s name,
    /// its `in` and its words too).
    fn alias_after_blank(&mut self) -> PResult<()> {
        self.skip_blanks();
        if self.alias_next.is_some_and(|p| self.pos >= p) {
            self.alias_next = None;
            self.maybe_expand_alias()?;
            self.skip_blanks();
        }
        Ok(())
    }

    #[allow(clippy::type_complexity)]
    fn for_parts(&mut self) -> PResult<(String, Option<Vec<Word>>, List)> {
        self.alias_after_blank()?;
        let name_word = self.read_word(WordMode::Normal)?;
        // An invalid name is bash's runtime error, not a syntax error.
        let var = match name_word.as_ref().and_then(|w| w.as_literal()) {
            Some(n) => n.to_owned(),
            None if name_word.is_none() => return Err(self.missing_word()),
            None => return Err(self.unexpected()),
        };
        self.skip_blanks();
        let mut words = None;
        // `for x; do`, `for x do`, `for x in ...;`, newlines allowed before `in`/`do`.
        let save = (self.pos, self.line);
        if self.peek() == Some(';') {
            self.bump();
        } else {
            self.linebreak()?;
            // A reserved word is not an alias: the word after it is checked instead.
            if self.peek_reserved() != Some("in") {
                self.alias_after_blank()?;
            }
            if self.eat_reserved("in") {
                let mut ws = Vec::new();
                loop {
                    self.alias_after_blank()?;
                    match self.peek() {
                        None | Some('\n' | ';') => break,
                        // `<(...)` and `>(...)` are words here too.
                        Some(c) if is_meta(c) && !self.at_proc_sub() => {
                            return Err(self.unexpected());
                        }
                        _ => {}
                    }
                    match self.read_word(WordMode::Normal)? {
                        Some(w) => ws.push(w),
                        None => return Err(self.unexpected()),
                    }
                }
                if self.peek() == Some(';') {
                    self.bump();
                }
                words = Some(ws);
            } else if self.peek_reserved() != Some("do") && self.peek_reserved() != Some("{") {
                let _ = save;
                return Err(self.unexpected());
            }
        }
        let body = self.do_group()?;
        Ok((var, words, body))
    }

    fn arith_for(&mut self) -> PResult<CommandKind> {
        // Cursor at `((`.
        self.arith_for_line = self.line;
        self.bump_n(2);
        let line = self.line;
        let text = match self.read_until_double_paren() {
            Ok(text) => text,
            // The text ended inside: bash names the line of the `((`.
            Err(e) if e.kind == ParseErrorKind::Unmatched(')') => {
                return Err(ParseError { line, ..e });
            }
            // A `)` that no `)` follows: bash's reader takes it for the end of the
            // input, without a word, and the shell ends with the last status.
            Err(e) if matches!(e.kind, ParseErrorKind::UnexpectedToken(_)) => {
                return Err(ParseError {
                    line,
                    source_line: None,
                    ..self.error(ParseErrorKind::Cond {
                        messages: Vec::new(),
                        eof: false,
                    })
                });
            }
            Err(e) => return Err(e),
        };
        let mut parts = split_arith_for(&text);
        if parts.len() != 3 {
            let message = if parts.len() < 3 {
                "syntax error: arithmetic expression required"
            } else {
                "syntax error: `;' unexpected"
            };
            return Err(ParseError {
                line,
                ..self.error(ParseErrorKind::ForArith {
                    message: message.to_owned(),
                    text,
                })
            });
        }
        let step = parts.pop().and_then(|s| self.arith_from_text(&s));
        let cond = parts.pop().and_then(|s| self.arith_from_text(&s));
        let init = parts.pop().and_then(|s| self.arith_from_text(&s));
        self.skip_blanks();
        if self.peek() == Some(';') {
            self.bump();
        }
        let body = self.do_group()?;
        Ok(CommandKind::ArithFor(ArithForClause {
            init,
            cond,
            step,
            body,
        }))
    }

    fn arith_from_text(&self, text: &str) -> Option<Arith> {
        if text.trim().is_empty() {
            return None;
        }
        Some(self.make_arith(text))
    }

    /// Builds an [`Arith`] from its source text: the text as a word (for expansion) and
    /// the parsed expression when the text needs no expansion.
    fn make_arith(&self, text: &str) -> Arith {
        let mut sub = Parser::new(text, self.opts.clone());
        sub.depth = self.depth;
        sub.arith_text = true;
        let word = sub.arith_word().unwrap_or_else(|_| Word::lit(text));
        let parsed = match word.parts.as_slice() {
            [] => Some(Arc::new(ArithExpr::Num(0))),
            // A `~` (or a `$` that starts nothing) makes the text's subscripts expand
            // before evaluation (see `Expander::arith_text`).
            [WordPart::Lit(s)] if s.contains('[') && s.contains(['$', '`', '~']) => None,
            [WordPart::Lit(s)] => parse_arith(s).ok().map(Arc::new),
            _ => None,
        };
        Arith {
            word,
            parsed,
            bracketed: false,
        }
    }

    /// Reads the text up to the matching `))`, having consumed the opening `((`.
    fn read_until_double_paren(&mut self) -> PResult<String> {
        let mut depth = 0usize;
        let mut text = String::new();
        // After an unpaired `$`: the `$` of `$$(` is the `$$` parameter, not a `$(`.
        let mut was_dollar = false;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error(ParseErrorKind::Unmatched(')')));
            };
            let after_dollar = was_dollar;
            was_dollar = c == '$' && !after_dollar;
            match c {
                '(' => depth += 1,
                ')' => {
                    if depth == 0 {
                        if self.peek_at(1) == Some(')') {
                            self.bump_n(2);
                            return Ok(text);
                        }
                        return Err(self.unexpected());
                    }
                    depth -= 1;
                }
                '$' if !after_dollar && self.at_command_substitution() => {
                    self.arith_comsub(&mut text)?;
                    was_dollar = false;
                    continue;
                }
                // An escaped paren does not count.
                '\\' => {
                    text.push(c);
                    self.bump();
                    if let Some(d) = self.bump() {
                        text.push(d);
                    }
                    continue;
                }
                '\'' | '"' | '`' => {
                    // Keep quoted sections whole so a `)` inside them does not count.
                    let quote_line = self.line;
                    text.push(c);
                    self.bump();
                    let mut in_dollar = false;
                    let mut closed = false;
                    while let Some(d) = self.peek() {
                        let after_dollar = in_dollar;
                        in_dollar = d == '$' && !after_dollar;
                        if c == '"' && d == '$' && !after_dollar && self.at_command_substitution() {
                            self.arith_comsub(&mut text)?;
                            in_dollar = false;
                            continue;
                        }
                        text.push(d);
                        self.bump();
                        if d == '\\' && c != '\'' {
                            if let Some(e) = self.bump() {
                                text.push(e);
                            }
                            continue;
                        }
                        if d == c {
                            closed = true;
                            break;
                        }
                    }
                    if !closed {
                        // Unclosed: the quote is what is unmatched, not the parens,
                        // on the line it opened.
                        return Err(self.unclosed(c, quote_line));
                    }
                    continue;
                }
                _ => {}
            }
            text.push(c);
            self.bump();
        }
    }

    /// Whether the cursor is at `$(` that opens a command substitution (not `$((`).
    fn at_command_substitution(&self) -> bool {
        self.peek() == Some('$') && self.peek_at(1) == Some('(') && self.peek_at(2) != Some('(')
    }

    /// Inside `(( ))`, a command substitution (bare or in double quotes) is parsed, as
    /// bash does, so that its here-documents and quotes cannot end the arithmetic early;
    /// its text is kept for the expression's own parse.
    /// A here-document left open at its `)` takes its body from the lines after it,
    /// which the parse moves out of the text; the body is then printed back inside.
    fn arith_comsub(&mut self, text: &mut String) -> PResult<()> {
        let start = self.pos;
        let len = self.chars.len();
        self.bump_n(2);
        let body = self.subshell_body()?;
        if self.chars.len() == len {
            text.extend(self.chars.get(start..self.pos).unwrap_or(&[]));
        } else {
            text.push_str("$(");
            text.push_str(&super::printer::script_to_string(&body));
            text.push_str("\n)");
        }
        Ok(())
    }

    /// `(( ... ))` as an arithmetic command if the parens match up as `))`; `None` (and
    /// the cursor unmoved) if it is really a nested subshell.
    /// With `None`, also whether the text ended before `))` (then a subshell that
    /// runs to the end of the text is bash's unmatched `)` at the line of the `((`).
    /// A quote left open in the text is an error either way, bash's lexer's.
    fn try_arith_command(&mut self) -> PResult<(Option<Arith>, bool)> {
        let cp = self.checkpoint();
        self.bump_n(2);
        let text = self.read_until_double_paren();
        let open_quote = text
            .as_ref()
            .is_err_and(|e| matches!(e.kind, ParseErrorKind::Unmatched('\'' | '"' | '`')));
        // (What was read up to the quote stays read: its warnings are bash's too.)
        self.finish(cp, text.is_err() && !open_quote);
        match text {
            Ok(t) => Ok((Some(self.make_arith(&t)), false)),
            Err(e) if open_quote => Err(e),
            Err(e) => Ok((None, e.kind == ParseErrorKind::Unmatched(')'))),
        }
    }

    fn case_clause(&mut self) -> PResult<CommandKind> {
        self.expect_reserved("case")?;
        self.skip_blanks();
        let word = match self.read_word(WordMode::Normal)? {
            Some(w) => w,
            None => return Err(self.missing_word()),
        };
        self.linebreak()?;
        self.expect_reserved("in")?;
        let mut items = Vec::new();
        loop {
            self.linebreak()?;
            if self.eat_reserved("esac") {
                break;
            }
            if self.eof() {
                return Err(self.unexpected());
            }
            if self.peek() == Some('(') {
                self.bump();
                self.skip_blanks();
            }
            let mut patterns = Vec::new();
            loop {
                self.skip_blanks();
                match self.read_word(WordMode::Normal)? {
                    Some(w) => patterns.push(w),
                    None => return Err(self.unexpected()),
                }
                self.skip_blanks();
                match self.peek() {
                    Some('|') => {
                        self.bump();
                    }
                    Some(')') => {
                        self.bump();
                        break;
                    }
                    _ => return Err(self.unexpected()),
                }
            }
            self.linebreak()?;
            let body = if self.peek_reserved() == Some("esac")
                || matches!(self.peek_operator(), Some(";;" | ";&" | ";;&"))
            {
                List::default()
            } else {
                self.compound_list()?
            };
            self.skip_blanks();
            let terminator = match self.peek_operator() {
                Some(";;") => {
                    self.bump_n(2);
                    CaseTerminator::Break
                }
                Some(";&") => {
                    self.bump_n(2);
                    CaseTerminator::FallThrough
                }
                Some(";;&") => {
                    self.bump_n(3);
                    CaseTerminator::Continue
                }
                _ => {
                    self.linebreak()?;
                    if self.peek_reserved() != Some("esac") {
                        return Err(self.unexpected());
                    }
                    CaseTerminator::Break
                }
            };
            items.push(CaseItem {
                patterns,
                body,
                terminator,
            });
        }
        Ok(CommandKind::Case(CaseClause { word, items }))
    }

    fn function_keyword(&mut self, line: u32) -> PResult<Command> {
        self.expect_reserved("function")?;
        self.skip_blanks();
        let name = self.function_name()?;
        self.skip_blanks();
        if self.peek() == Some('(') {
            // `function f ()` has the parentheses; any other `(` after the name opens
            // a subshell that is the body (`function f ( cmd )`).
            let save = (self.pos, self.line);
            self.bump();
            self.skip_blanks();
            if self.peek() == Some(')') {
                self.bump();
            } else {
                self.pos = save.0;
                self.line = save.1;
            }
        }
        self.function_body(name, true, line)
    }

    fn function_name(&mut self) -> PResult<String> {
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if is_meta(c) || matches!(c, '\'' | '"' | '`' | '$') {
                break;
            }
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return Err(self.unexpected());
        }
        Ok(name)
    }

    fn function_body(&mut self, name: String, keyword: bool, line: u32) -> PResult<Command> {
        self.linebreak()?;
        let body = self.command()?;
        match body.kind {
            CommandKind::Simple(_) | CommandKind::FunctionDef(_) | CommandKind::Coproc(_) => {
                return Err(ParseError {
                    line: body.line,
                    ..self.error(ParseErrorKind::UnexpectedToken(first_word_text(&body)))
                });
            }
            _ => {}
        }
        Ok(Command {
            kind: CommandKind::FunctionDef(FunctionDef {
                name,
                body: Arc::new(body),
                keyword,
                source: None,
                line: 0,
                line_shift: 0,
            }),
            redirects: Vec::new(),
            line,
        })
    }

    fn coproc(&mut self, line: u32) -> PResult<Command> {
        self.expect_reserved("coproc")?;
        self.skip_blanks();
        // `coproc NAME compound` names it; otherwise the command follows directly.
        let save = (self.pos, self.line);
        let mut name = None;
        if let Some(c) = self.peek()
            && is_name_start(c)
            && self.peek_reserved().is_none()
        {
            let mut n = String::new();
            while let Some(c) = self.peek() {
                if is_name_char(c) {
                    n.push(c);
                    self.bump();
                } else {
                    break;
                }
            }
            self.skip_blanks();
            let compound_next = matches!(self.peek(), Some('(' | '{'))
                || self
                    .peek_reserved()
                    .is_some_and(|w| COMPOUND_OPENERS.contains(&w));
            if compound_next && self.peek_at(0) != Some('\n') {
                name = Some(n);
            } else {
                self.pos = save.0;
                self.line = save.1;
            }
        }
        let body = self.command()?;
        Ok(Command {
            kind: CommandKind::Coproc(Coproc {
                name,
                body: Box::new(body),
            }),
            redirects: Vec::new(),
            line,
        })
    }

    fn simple_command(&mut self, start_line: u32) -> PResult<Command> {
        let mut cmd = SimpleCommand::default();
        let mut redirects = Vec::new();
        let mut decl_builtin = DeclArgs::No;
        // bash numbers a simple command by the line its parser is on once it has
        // decided the command is one: after the token that follows a first word (which
        // could start a function definition), the end of the second element, or, when
        // the line ends there, past the here-documents that newline reads
        // (`echo "a<newline>b" $LINENO` is line 2); at once after a first assignment
        // or redirection (`x=1 y="<newline>" z=$LINENO` is line 1).
        let mut line = start_line;
        let mut second_read = false;
        loop {
            let elements = cmd.words.len() + cmd.assigns.len() + redirects.len();
            if !second_read && (elements == 2 || (elements == 1 && cmd.words.is_empty())) {
                line = self.line;
                second_read = true;
            }
            self.skip_blanks();
            // The word after an alias whose text ends in a blank is checked too, and so
            // is the command word when redirections or assignments come first.
            let after_blank_alias = self.alias_next.is_some_and(|p| self.pos >= p);
            if after_blank_alias
                || (cmd.words.is_empty() && (!redirects.is_empty() || !cmd.assigns.is_empty()))
            {
                if after_blank_alias {
                    self.alias_next = None;
                }
                self.maybe_expand_alias()?;
                self.skip_blanks();
            }
            if let Some(r) = self.try_redirect()? {
                redirects.push(r);
                continue;
            }
            let Some(c) = self.peek() else { break };
            if is_meta(c) && !self.at_proc_sub() {
                if c == '(' && cmd.words.len() == 1 && cmd.assigns.is_empty() {
                    // `name () compound-command`
                    // A name with expansions parses; defining it fails at run time.
                    let name = match cmd.words[0].as_literal() {
                        Some(n) => n.to_owned(),
                        None => crate::syntax::printer::word_to_string(&cmd.words[0]),
                    };
                    self.bump();
                    self.skip_blanks();
                    if self.peek() != Some(')') {
                        return Err(self.unexpected());
                    }
                    self.bump();
                    return self.function_body(name, false, start_line);
                }
                // `(` cannot follow the start of a simple command (`a= (1)`, `ls x=(1)`).
                if c == '('
                    && !(cmd.words.is_empty() && cmd.assigns.is_empty() && redirects.is_empty())
                {
                    return Err(self.unexpected());
                }
                break;
            }
            if (cmd.words.is_empty() || decl_builtin != DeclArgs::No)
                && let Some(a) = self.assignment_arg(!cmd.words.is_empty(), decl_builtin)?
            {
                if cmd.words.is_empty() {
                    cmd.assigns.push(a);
                } else {
                    cmd.words.push(Word {
                        parts: vec![WordPart::Param(Box::new(assign_marker(a)))],
                    });
                }
                continue;
            }
            self.command_start = cmd.words.is_empty();
            match self.read_word(WordMode::Normal)? {
                Some(w) => {
                    if cmd.words.is_empty() {
                        decl_builtin = match w.as_literal() {
                            Some("declare" | "typeset" | "local" | "export" | "readonly") => {
                                DeclArgs::All
                            }
                            Some("let" | "eval") => DeclArgs::Arrays,
                            _ => DeclArgs::No,
                        };
                    }
                    cmd.words.push(w);
                }
                None => break,
            }
        }
        if cmd.words.is_empty() && cmd.assigns.is_empty() && redirects.is_empty() {
            return Err(self.unexpected());
        }
        if !second_read {
            line = self.line + self.heredoc_lines_ahead();
        }
        Ok(Command {
            kind: CommandKind::Simple(cmd),
            redirects,
            line,
        })
    }

    /// How many lines the pending here-documents' bodies take when the command at
    /// the cursor ends with its line (after a comment, if any): the lines bash reads
    /// with the newline before it has finished the command.
    fn heredoc_lines_ahead(&self) -> u32 {
        if self.pending_heredocs.is_empty() {
            return 0;
        }
        let at = |i: usize| self.chars.get(i).copied();
        let mut i = self.pos;
        if at(i) == Some('#') {
            while at(i).is_some_and(|c| c != '\n') {
                i += 1;
            }
        }
        if at(i) != Some('\n') {
            return 0;
        }
        i += 1;
        let mut lines = 0u32;
        let chars = &self.chars;
        for doc in &self.pending_heredocs {
            while i < chars.len() {
                let (text, read) = heredoc_body_line(doc.quoted, || {
                    let c = *chars.get(i)?;
                    i += 1;
                    Some((c, i >= chars.len()))
                });
                lines += read;
                let check = if doc.strip_tabs {
                    text.trim_start_matches('\t')
                } else {
                    &text
                };
                if check == doc.delimiter {
                    break;
                }
            }
        }
        lines
    }

    fn at_proc_sub(&self) -> bool {
        matches!(self.peek(), Some('<' | '>')) && self.peek_at(1) == Some('(')
    }

    /// An assignment at the cursor, as a command's own or (`in_args`) as an argument of
    /// a builtin that takes them (`decl`): `let` and `eval` take only array ones
    /// (`let x=( 1 + 2 )`), their other arguments being plain words.
    fn assignment_arg(&mut self, in_args: bool, decl: DeclArgs) -> PResult<Option<Assign>> {
        if !in_args || decl != DeclArgs::Arrays {
            return self.try_assignment(in_args);
        }
        let cp = self.checkpoint();
        let a = self.try_assignment(in_args)?;
        let array = matches!(&a, Some(a) if matches!(a.value, AssignValue::Array(_)));
        self.finish(cp, !array);
        Ok(a.filter(|_| array))
    }

    /// An assignment word at the cursor (`name=`, `name+=`, `name[sub]=`), if there is one.
    ///
    /// An argument of `declare` and the like (`in_args`) is read as a word first: its
    /// subscript ends at a blank or metacharacter (`declare a[ 1 ]=x` is three words),
    /// while a command's own `a[ 1 ]=x` reads on to the `]`.
    fn try_assignment(&mut self, in_args: bool) -> PResult<Option<Assign>> {
        let start = self.pos;
        let mut i = self.past_continuations(self.pos);
        match self.chars.get(i) {
            Some(&c) if is_name_start(c) => {}
            _ => return Ok(None),
        }
        let mut name = String::new();
        while let Some(&c) = self.chars.get(i).filter(|&&c| is_name_char(c)) {
            name.push(c);
            i = self.past_continuations(i + 1);
        }
        let mut has_index = false;
        if self.chars.get(i) == Some(&'[') {
            // Find the matching `]` (quotes inside are allowed).
            let mut depth = 0usize;
            let mut parens = 0usize;
            let mut j = i;
            loop {
                match self.chars.get(j) {
                    None | Some(' ' | '\t' | '\n' | ';' | '|' | '&' | '<' | '>')
                        if in_args && parens == 0 =>
                    {
                        return Ok(None);
                    }
                    Some('(') => parens += 1,
                    Some(')') => parens = parens.saturating_sub(1),
                    // bash reads on for the `]` of a would-be assignment (`a[5 +`).
                    None if self.alias_active.is_empty() => {
                        self.pos = j;
                        return Err(self.error(ParseErrorKind::Unmatched(']')));
                    }
                    None => return Ok(None),
                    Some('[') => depth += 1,
                    Some(']') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Some('\\') => j += 1,
                    Some(&q @ ('\'' | '"')) => {
                        j += 1;
                        while matches!(self.chars.get(j), Some(&c) if c != q) {
                            j += 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            i = j + 1;
            has_index = true;
        }
        let i = self.past_continuations(i);
        let append = self.chars.get(i) == Some(&'+');
        let eq = if append {
            self.past_continuations(i + 1)
        } else {
            i
        };
        if self.chars.get(eq) != Some(&'=') {
            return Ok(None);
        }
        // It is an assignment: consume it properly.
        let start_line = self.line;
        let _ = start_line;
        self.bump_n(name.chars().count());
        let index = if has_index {
            self.bump(); // [
            let w = self.subscript_word()?;
            Some(w)
        } else {
            None
        };
        if append {
            self.bump();
        }
        self.bump(); // =
        let value = if self.peek() == Some('(') {
            self.bump();
            AssignValue::Array(self.compound_assignment()?)
        } else {
            let w = self.read_word(WordMode::Assign)?.unwrap_or_default();
            AssignValue::Scalar(w)
        };
        let text: String = self.chars[start..self.pos].iter().collect();
        Ok(Some(Assign {
            name,
            index,
            append,
            value,
            text,
        }))
    }

    /// The word inside `[...]` up to the matching `]` (consumed).
    fn subscript_word(&mut self) -> PResult<Word> {
        let mut parts = Vec::new();
        let mut lit = String::new();
        let mut depth = 0usize;
        let line = self.line;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.unclosed(']', line));
            };
            match c {
                ']' if depth == 0 => {
                    self.bump();
                    break;
                }
                '[' => {
                    depth += 1;
                    lit.push(c);
                    self.bump();
                }
                ']' => {
                    depth -= 1;
                    lit.push(c);
                    self.bump();
                }
                _ => {
                    if !self.word_special(&mut parts, &mut lit, false, WordMode::Normal)? {
                        lit.push(c);
                        self.bump();
                    }
                }
            }
        }
        flush_lit(&mut parts, &mut lit);
        Ok(Word { parts })
    }

    /// The elements of `( ... )` after `=` (the `(` consumed). bash reads these in a
    /// parse of their own, and a syntax error there is milder than elsewhere: the status
    /// is 1, and after a bad token the rest of the line is dropped and reading goes on
    /// at the next line, even in a script (see [`Recovery`]).
    fn compound_assignment(&mut self) -> PResult<Vec<ArrayElem>> {
        let line = self.line;
        let inside_substitution = self.comsub_depth > 0;
        self.array_literal().map_err(|mut e| {
            // A bad `$( )` inside the list is that substitution's error; one in a list
            // that is itself inside `$( )` cannot be told apart and counts as the list's.
            if e.in_substitution && !inside_substitution {
                return e;
            }
            e.in_substitution = false;
            e.recovery = match e.kind {
                ParseErrorKind::UnexpectedToken(_) => {
                    let mut end = self.pos.min(self.chars.len());
                    while self.chars.get(end).is_some_and(|&c| c != '\n') {
                        end += 1;
                    }
                    Some(Recovery::NextLine {
                        pos: end + 1,
                        line: e.line + 1,
                    })
                }
                ParseErrorKind::Unmatched(')') => {
                    e.line = line;
                    Some(Recovery::Stop)
                }
                // The text ended inside a word: bash then meets the end of the input
                // too and says so.
                _ => Some(Recovery::StopAtEof),
            };
            e
        })
    }

    fn array_literal(&mut self) -> PResult<Vec<ArrayElem>> {
        let mut elems = Vec::new();
        loop {
            self.linebreak()?;
            match self.peek() {
                None => return Err(self.error(ParseErrorKind::Unmatched(')'))),
                Some(')') => {
                    self.bump();
                    return Ok(elems);
                }
                _ => {}
            }
            // `[key]=value` or `[key]+=value`
            if self.peek() == Some('[') {
                self.bump();
                let key = self.subscript_word()?;
                let append = self.peek() == Some('+') && self.peek_at(1) == Some('=');
                if append || self.peek() == Some('=') {
                    self.bump_n(if append { 2 } else { 1 });
                    let value = self.read_word(WordMode::Assign)?.unwrap_or_default();
                    elems.push(ArrayElem {
                        key: Some(key),
                        append,
                        value,
                    });
                    continue;
                }
                // Not a key: bash still takes the bracket to its `]` as part of
                // the word, blanks, `)` and all (`a=([x y]z)` is one element).
                let rest = self.read_word(WordMode::Element)?.unwrap_or_default();
                let mut parts = Vec::new();
                let mut lit = "[".to_owned();
                let close = WordPart::Lit("]".to_owned());
                for part in key.parts.into_iter().chain([close]).chain(rest.parts) {
                    match part {
                        WordPart::Lit(s) => lit.push_str(&s),
                        other => {
                            flush_lit(&mut parts, &mut lit);
                            parts.push(other);
                        }
                    }
                }
                flush_lit(&mut parts, &mut lit);
                elems.push(ArrayElem {
                    key: None,
                    append: false,
                    value: Word { parts },
                });
                continue;
            }
            match self.read_word(WordMode::Element)? {
                Some(value) => elems.push(ArrayElem {
                    key: None,
                    append: false,
                    value,
                }),
                None => return Err(self.unexpected()),
            }
        }
    }

    /// A redirection at the cursor, if there is one.
    fn try_redirect(&mut self) -> PResult<Option<Redirect>> {
        let start = (self.pos, self.line);
        let mut fd = None;
        // `N>` or `{var}>`
        if matches!(self.peek(), Some(c) if c.is_ascii_digit()) {
            let mut i = self.past_continuations(self.pos);
            let mut n = String::new();
            while let Some(&c) = self.chars.get(i).filter(|c| c.is_ascii_digit()) {
                n.push(c);
                i = self.past_continuations(i + 1);
            }
            // A number too big for an int is a word, as in bash.
            let number = n.parse::<i32>().ok();
            match number {
                Some(number)
                    if matches!(self.chars.get(i), Some('<' | '>'))
                        && self.chars.get(self.past_continuations(i + 1)) != Some(&'(') =>
                {
                    fd = Some(RedirFd::Number(number));
                    self.bump_n(n.len());
                }
                _ => return Ok(None),
            }
        } else if self.peek() == Some('{') {
            let mut i = self.pos + 1;
            let mut n = String::new();
            while let Some(&c) = self.chars.get(i) {
                if is_name_char(c) {
                    n.push(c);
                    i += 1;
                } else {
                    break;
                }
            }
            // bash takes an array element too (`{a[1]}>&-`, its valid_array_reference):
            // a subscript up to the matching `]`, within the one word.
            if self.chars.get(i) == Some(&'[') && is_name(&n) {
                let mut depth = 0usize;
                let mut j = i;
                while let Some(&c) = self.chars.get(j) {
                    if c.is_whitespace() || matches!(c, '<' | '>' | '|' | '&' | ';' | '(' | ')') {
                        break;
                    }
                    if c == '[' {
                        depth += 1;
                    } else if c == ']' {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    j += 1;
                }
                if self.chars.get(j) == Some(&']')
                    && j > i + 1
                    && let Some(sub) = self.chars.get(i..=j)
                {
                    n.extend(sub);
                    i = j + 1;
                }
            }
            if self.chars.get(i) == Some(&'}')
                && (is_name(&n) || n.contains('['))
                && matches!(self.chars.get(i + 1), Some('<' | '>'))
                && self.chars.get(i + 2) != Some(&'(')
            {
                self.bump_n(n.chars().count() + 2);
                fd = Some(RedirFd::Var(n));
            } else {
                return Ok(None);
            }
        }
        let ops: [(&str, RedirOp); 14] = [
            ("&>>", RedirOp::AppendBoth),
            ("&>", RedirOp::WriteBoth),
            ("<<<", RedirOp::HereString),
            ("<<-", RedirOp::HereDoc),
            ("<<", RedirOp::HereDoc),
            ("<&", RedirOp::DupRead),
            ("<>", RedirOp::ReadWrite),
            ("<", RedirOp::Read),
            (">>", RedirOp::Append),
            (">&", RedirOp::DupWrite),
            (">|", RedirOp::Clobber),
            (">", RedirOp::Write),
            ("", RedirOp::Read),
            ("", RedirOp::Read),
        ];
        let mut found = None;
        for (s, op) in ops {
            if s.is_empty() {
                break;
            }
            if self.at_str(s) {
                if fd.is_some() && s.starts_with('&') {
                    continue;
                }
                found = Some((s, op));
                break;
            }
        }
        let Some((s, op)) = found else {
            self.pos = start.0;
            self.line = start.1;
            return Ok(None);
        };
        if self.at_proc_sub() {
            self.pos = start.0;
            self.line = start.1;
            return Ok(None);
        }
        self.bump_n(s.len());
        self.skip_blanks();
        if op == RedirOp::HereDoc {
            let strip_tabs = s == "<<-";
            let (delimiter, quoted) = self.heredoc_delimiter()?;
            let doc = HereDoc {
                delimiter,
                quoted,
                strip_tabs,
                body: Arc::new(OnceLock::new()),
            };
            self.pending_heredocs.push(doc.clone());
            return Ok(Some(Redirect {
                fd,
                op,
                target: RedirTarget::HereDoc(doc),
            }));
        }
        match self.peek() {
            None => return Err(self.unexpected()),
            Some(c) if is_meta(c) && !self.at_proc_sub() => return Err(self.unexpected()),
            _ => {}
        }
        let mode = if op == RedirOp::HereString {
            WordMode::HereString
        } else {
            WordMode::Normal
        };
        let target = match self.read_word(mode)? {
            Some(w) => w,
            None => return Err(self.unexpected()),
        };
        Ok(Some(Redirect {
            fd,
            op,
            target: RedirTarget::Word(target),
        }))
    }

    /// The delimiter word of `<<`: its text after quote removal and whether it was quoted.
    fn heredoc_delimiter(&mut self) -> PResult<(String, bool)> {
        let mut text = String::new();
        let mut quoted = false;
        while let Some(c) = self.peek() {
            if is_meta(c) {
                break;
            }
            match c {
                '\'' | '"' => {
                    quoted = true;
                    self.bump();
                    loop {
                        match self.bump() {
                            None => return Err(self.error(ParseErrorKind::Unmatched(c))),
                            Some(d) if d == c => break,
                            Some('\\') if c == '"' => {
                                if let Some(e) = self.bump() {
                                    if !matches!(e, '"' | '\\' | '$' | '`') {
                                        text.push('\\');
                                    }
                                    text.push(e);
                                }
                            }
                            Some(d) => text.push(d),
                        }
                    }
                }
                '\\' if self.peek_at(1) == Some('\n') => {
                    // A line continuation, gone before the word is read.
                    self.bump_n(2);
                }
                '\\' => {
                    quoted = true;
                    self.bump();
                    if let Some(e) = self.bump() {
                        text.push(e);
                    }
                }
                '$' if matches!(self.peek_at(1), Some('\'' | '"')) => {
                    self.bump();
                }
                '$' | '`' if matches!(self.peek_at(1), Some('(' | '{')) || c == '`' => {
                    // A substitution in the delimiter is kept as its text (`<<$(a)`).
                    let close = match (c, self.peek_at(1)) {
                        ('`', _) => '`',
                        (_, Some('(')) => ')',
                        _ => '}',
                    };
                    text.push(c);
                    self.bump();
                    let mut depth = 0usize;
                    let mut closed = false;
                    while let Some(d) = self.bump() {
                        text.push(d);
                        match d {
                            '(' | '{' if close != '`' => depth += 1,
                            _ if d == close && close == '`' => closed = true,
                            _ if d == close => {
                                depth = depth.saturating_sub(1);
                                closed = depth == 0;
                            }
                            _ => {}
                        }
                        if closed {
                            break;
                        }
                    }
                    // Bash reports an unclosed substitution here as anywhere else.
                    if !closed {
                        return Err(self.error(ParseErrorKind::Unmatched(close)));
                    }
                }
                _ => {
                    text.push(c);
                    self.bump();
                }
            }
        }
        if text.is_empty() && !quoted {
            return Err(self.unexpected());
        }
        Ok((text, quoted))
    }

    /// Reads the bodies of here-documents whose operator line has just ended (the
    /// cursor is at the start of the next line, or at the end of the text).
    fn read_heredoc_bodies(&mut self) -> PResult<()> {
        let docs = std::mem::take(&mut self.pending_heredocs);
        // Bash numbers its warnings by the lines it has read: the operator line, then
        // one more per body line.
        let mut line = if self.pos > 0 && self.chars.get(self.pos - 1) == Some(&'\n') {
            self.line.saturating_sub(1)
        } else {
            self.line
        };
        for doc in docs {
            let start_line = line;
            let mut body = String::new();
            let mut delimited = false;
            while self.pos < self.chars.len() {
                let line_start = (self.pos, self.line);
                let (text, read) = heredoc_body_line(doc.quoted, || {
                    let c = self.bump_raw()?;
                    Some((c, self.pos >= self.chars.len()))
                });
                line += read;
                let check = if doc.strip_tabs {
                    text.trim_start_matches('\t')
                } else {
                    &text
                };
                if check == doc.delimiter {
                    delimited = true;
                    break;
                }
                // Inside `$( )` bash also ends the body at a line that starts with the
                // delimiter and holds a `)`; the rest of that line is read again as
                // commands, so its `)` closes the substitution.
                if self.comsub_depth > 0
                    && let Some(rest) = check.strip_prefix(doc.delimiter.as_str())
                    && rest.contains(')')
                {
                    let tabs = text.len() - check.len();
                    self.pos = line_start.0 + tabs + doc.delimiter.chars().count();
                    self.line = line_start.1;
                    break;
                }
                body.push_str(check);
                body.push('\n');
            }
            if !delimited {
                self.warnings.push(ParseWarning {
                    line,
                    kind: ParseWarningKind::HereDocEof {
                        start_line,
                        delimiter: doc.delimiter.clone(),
                    },
                });
            }
            let word = if doc.quoted {
                Word {
                    parts: vec![WordPart::Quoted(body.clone())],
                }
            } else {
                let mut sub = Parser::new(&body, self.opts.clone());
                sub.depth = self.depth;
                sub.heredoc_word()?
            };
            let _ = doc.body.set(HereDocBody { text: body, word });
        }
        Ok(())
    }

    /// Reads the bodies of the here-documents a substitution leaves unread at its `)`
    /// the way bash does: at once, from the lines after the current one, with a
    /// warning. Those lines leave the text (the rest of the current line is parsed
    /// next), and the lines after them keep their numbers.
    fn read_heredocs_after_line(&mut self) -> PResult<()> {
        let (pos, line) = (self.pos, self.line);
        let newline = (pos..self.chars.len()).find(|&i| self.chars.get(i) == Some(&'\n'));
        let ahead: u32 = newline.map_or(0, |nl| {
            self.line_jumps
                .iter()
                .filter(|(at, _)| *at == nl)
                .map(|(_, n)| n)
                .sum()
        });
        self.warnings.push(ParseWarning {
            line: line + ahead,
            kind: ParseWarningKind::ComsubUnterminated {
                count: self.pending_heredocs.len(),
            },
        });
        let aliases = self.alias_active.clone();
        let start = match newline {
            Some(nl) => {
                self.pos = nl;
                self.bump();
                nl + 1
            }
            None => {
                self.pos = self.chars.len();
                self.chars.len()
            }
        };
        self.read_heredoc_bodies()?;
        let end = self.pos;
        // A body cut short inside a line (see `read_heredoc_bodies`) leaves the rest
        // of that line to be read again: here, right after the `)`.
        let at_line_start = end == start || self.chars.get(end - 1) == Some(&'\n');
        let rest_end = if at_line_start {
            end
        } else {
            (end..self.chars.len())
                .find(|&i| self.chars.get(i) == Some(&'\n'))
                .map_or(self.chars.len(), |i| i + 1)
        };
        let count_newlines = |cs: &[char]| cs.iter().filter(|&&c| c == '\n').count() as u32;
        let rest: Vec<char> = self.chars.get(end..rest_end).unwrap_or_default().to_vec();
        let removed = count_newlines(self.chars.get(start..rest_end).unwrap_or_default());
        let jump = removed.saturating_sub(count_newlines(&rest));
        let moved = rest.len();
        self.splice_text(start..rest_end, Vec::new());
        self.splice_text(pos..pos, rest);
        if let Some(nl) = newline {
            self.line_jumps.push((nl + moved, jump));
        }
        self.pos = pos;
        self.line = line;
        self.alias_active = aliases;
        Ok(())
    }

    // ----- [[ ]] -----

    fn cond_command(&mut self) -> PResult<CondExpr> {
        let line = self.line;
        let e = self.cond_or()?;
        self.cond_skip();
        match self.cond_token() {
            CondTok::End => {
                self.bump_n(2);
                Ok(e)
            }
            CondTok::Eof => Err(self.cond_error(
                line,
                "unexpected EOF while looking for `]]'".to_owned(),
                true,
            )),
            CondTok::Word => Err(self.cond_error(
                line,
                "syntax error in conditional expression".to_owned(),
                false,
            )),
            tok => {
                let text = self.cond_token_text(&tok);
                Err(self.cond_error(
                    line,
                    format!("syntax error in conditional expression: unexpected token `{text}'"),
                    false,
                ))
            }
        }
    }

    /// A syntax error inside `[[ ]]`, with bash's message.
    fn cond_error(&self, line: u32, message: String, eof: bool) -> ParseError {
        ParseError {
            line,
            in_substitution: self.comsub_depth > 0,
            ..self.error(ParseErrorKind::Cond {
                messages: vec![(line, message)],
                eof,
            })
        }
    }

    /// An error naming the token at the cursor, worded by `what`.
    fn cond_bad_token(&self, line: u32, tok: CondTok, what: impl Fn(&str) -> String) -> ParseError {
        let text = self.cond_token_text(&tok);
        self.cond_error(line, what(&text), self.cond_at_end(tok))
    }

    /// An error bash reports with no message (a term that is missing before `]]`).
    fn cond_silent(&self) -> ParseError {
        ParseError {
            in_substitution: self.comsub_depth > 0,
            ..self.error(ParseErrorKind::Cond {
                messages: Vec::new(),
                eof: false,
            })
        }
    }

    /// The kind of token at the cursor inside `[[ ]]` (after blanks).
    fn cond_token(&mut self) -> CondTok {
        self.skip_blanks();
        let Some(c) = self.peek() else {
            return CondTok::Eof;
        };
        if self.peek_reserved() == Some("]]") {
            return CondTok::End;
        }
        let next = self.peek_at(1);
        match c {
            '\n' => CondTok::Newline,
            '&' if next == Some('&') => CondTok::AndAnd,
            '|' if next == Some('|') => CondTok::OrOr,
            // Without `shopt -s extglob`, `!(` is `!` before a group, not a pattern.
            '!' if next.is_none_or(|c| matches!(c, ' ' | '\t' | '\n'))
                || (!self.opts.extglob_shopt && next == Some('(')) =>
            {
                CondTok::Bang
            }
            '(' => CondTok::LParen,
            ')' => CondTok::RParen,
            ';' | '&' | '|' | '<' | '>' => CondTok::Op,
            _ => CondTok::Word,
        }
    }

    /// How bash names a token in a `[[ ]]` error message.
    fn cond_token_text(&self, tok: &CondTok) -> String {
        match tok {
            CondTok::Eof => "EOF".to_owned(),
            CondTok::End => "]]".to_owned(),
            CondTok::Bang => "!".to_owned(),
            _ => self.token_text(),
        }
    }

    /// Whether an error at this token leaves bash at the end of its input: the token
    /// is the end, or the newline that ends the text.
    fn cond_at_end(&self, tok: CondTok) -> bool {
        tok == CondTok::Eof || (tok == CondTok::Newline && self.pos + 1 >= self.chars.len())
    }

    fn cond_skip(&mut self) {
        loop {
            self.skip_blanks();
            if self.peek() == Some('\n') {
                self.bump();
            } else {
                return;
            }
        }
    }

    fn cond_or(&mut self) -> PResult<CondExpr> {
        let mut e = self.cond_and()?;
        loop {
            self.cond_skip();
            if self.cond_token() == CondTok::OrOr {
                self.bump_n(2);
                let r = self.cond_and()?;
                e = CondExpr::Or(Box::new(e), Box::new(r));
            } else {
                return Ok(e);
            }
        }
    }

    fn cond_and(&mut self) -> PResult<CondExpr> {
        let mut e = self.cond_term()?;
        loop {
            self.cond_skip();
            if self.cond_token() == CondTok::AndAnd {
                self.bump_n(2);
                let r = self.cond_term()?;
                e = CondExpr::And(Box::new(e), Box::new(r));
            } else {
                return Ok(e);
            }
        }
    }

    /// One term of `[[ ]]`, read as bash's `cond_term` reads it: newlines may come
    /// before a term but not inside one.
    fn cond_term(&mut self) -> PResult<CondExpr> {
        self.enter()?;
        let r = self.cond_term_inner();
        self.leave();
        r
    }

    fn cond_term_inner(&mut self) -> PResult<CondExpr> {
        self.cond_skip();
        let line = self.line;
        match self.cond_token() {
            CondTok::End => Err(self.cond_silent()),
            CondTok::Bang => {
                self.bump();
                // Two bangs in a row cancel at parse time: bash prints `[[ ! ! x ]]` as
                // `[[ -n x ]]` (a parenthesised `! ( ! x )` keeps both).
                match self.cond_term()? {
                    CondExpr::Not(inner) => Ok(*inner),
                    e => Ok(CondExpr::Not(Box::new(e))),
                }
            }
            CondTok::LParen => {
                self.bump();
                let e = match self.cond_or() {
                    Ok(e) => e,
                    Err(mut err) => {
                        if let ParseErrorKind::Cond { messages, .. } = &mut err.kind {
                            messages.push((line, "expected `)'".to_owned()));
                        }
                        return Err(err);
                    }
                };
                self.cond_skip();
                match self.cond_token() {
                    CondTok::RParen => {
                        self.bump();
                        Ok(CondExpr::Group(Box::new(e)))
                    }
                    CondTok::Word => Err(self.cond_error(line, "expected `)'".to_owned(), false)),
                    tok => Err(self.cond_bad_token(line, tok, |t| {
                        format!("unexpected token `{t}', expected `)'")
                    })),
                }
            }
            CondTok::Word => self.cond_word_term(line),
            tok => Err(self.cond_bad_token(line, tok, |t| {
                format!("unexpected token `{t}' in conditional command")
            })),
        }
    }

    /// A term that starts with a word: `-op arg`, `word op word`, `word =~ re` or `word`.
    fn cond_word_term(&mut self, line: u32) -> PResult<CondExpr> {
        let Some(first) = self.read_word(WordMode::Cond)? else {
            return Err(self.unexpected());
        };
        if let Some(op) = first.as_literal()
            && is_unary_test_op(op)
        {
            let op = op.to_owned();
            let arg = self.cond_operand(line, "unary")?;
            return Ok(CondExpr::Unary(op, arg));
        }
        let op = match self.cond_token() {
            CondTok::End | CondTok::AndAnd | CondTok::OrOr | CondTok::RParen => {
                return Ok(CondExpr::Word(first));
            }
            CondTok::Op if matches!(self.peek(), Some('<' | '>')) => {
                let c = self.bump().unwrap_or('<');
                c.to_string()
            }
            CondTok::Word | CondTok::Bang => {
                let w = self.read_word(WordMode::Cond)?;
                match w.as_ref().and_then(|w| w.as_literal()) {
                    Some(op) if op == "=~" || is_binary_test_op(op) => op.to_owned(),
                    _ => {
                        return Err(self.cond_error(
                            line,
                            "conditional binary operator expected".to_owned(),
                            false,
                        ));
                    }
                }
            }
            tok => {
                return Err(self.cond_bad_token(line, tok, |t| {
                    format!("unexpected token `{t}', conditional binary operator expected")
                }));
            }
        };
        if op == "=~" {
            self.skip_blanks();
            if matches!(
                self.cond_token(),
                CondTok::End | CondTok::Newline | CondTok::Eof
            ) {
                return Err(self.cond_operand_error(line, "binary"));
            }
            let re = self.regex_word()?;
            return Ok(CondExpr::Regex(first, re));
        }
        // bash reads the pattern right of `=`, `==` and `!=` with extglob on, whatever
        // the shopt says (parse.y, cond_term); every other word of `[[ ]]` follows it.
        let pattern = matches!(op.as_str(), "=" | "==" | "!=");
        let extglob = self.opts.extglob;
        self.opts.extglob = pattern || extglob;
        let second = self.cond_operand(line, "binary");
        self.opts.extglob = extglob;
        Ok(CondExpr::Binary(op, first, second?))
    }

    /// The operand of a unary or binary operator: a word on the same line.
    fn cond_operand(&mut self, line: u32, which: &str) -> PResult<Word> {
        // After an operator `!` is a word like any other.
        if matches!(self.cond_token(), CondTok::Word | CondTok::Bang)
            && let Some(w) = self.read_word(WordMode::Cond)?
        {
            return Ok(w);
        }
        Err(self.cond_operand_error(line, which))
    }

    fn cond_operand_error(&mut self, line: u32, which: &str) -> ParseError {
        let tok = self.cond_token();
        self.cond_bad_token(line, tok, |t| {
            format!("unexpected argument `{t}' to conditional {which} operator")
        })
    }

    fn at_extglob(&self) -> bool {
        self.opts.extglob
            && matches!(self.peek(), Some('@' | '*' | '+' | '?' | '!'))
            && self.peek_at(1) == Some('(')
    }

    /// The right side of `=~`: parentheses and `|` are part of the word.
    fn regex_word(&mut self) -> PResult<Word> {
        self.cond_skip();
        let mut parts = Vec::new();
        let mut lit = String::new();
        let mut depth = 0usize;
        let mut open_line = self.line;
        // A leading tilde expands (and then matches literally).
        if self.peek() == Some('~')
            && let Some(user) = self.tilde_prefix(WordMode::Cond)
        {
            parts.push(WordPart::Tilde(user));
        }
        while let Some(c) = self.peek() {
            match c {
                ' ' | '\t' | '\n' if depth == 0 => break,
                '(' => {
                    if depth == 0 {
                        open_line = self.line;
                    }
                    depth += 1;
                    lit.push(c);
                    self.bump();
                }
                ')' if depth > 0 => {
                    depth -= 1;
                    lit.push(c);
                    self.bump();
                }
                // bash ends the word at a metacharacter other than `(` and `|` (which
                // are regex syntax); a word that ends at once is the empty regex.
                ')' | ';' | '&' | '<' | '>' if depth == 0 => break,
                _ => {
                    if !self.word_special(&mut parts, &mut lit, false, WordMode::Cond)? {
                        lit.push(c);
                        self.bump();
                    }
                }
            }
        }
        if depth > 0 {
            // bash reads a group as a matched pair to the end of the text, then finds
            // no word after the operator.
            let mut err = self.cond_error(
                open_line,
                "unexpected EOF while looking for matching `)'".to_owned(),
                true,
            );
            if let ParseErrorKind::Cond { messages, .. } = &mut err.kind {
                messages.push((
                    self.line,
                    "unexpected argument to conditional binary operator".to_owned(),
                ));
            }
            return Err(err);
        }
        flush_lit(&mut parts, &mut lit);
        Ok(Word { parts })
    }

    // ----- words -----

    /// Reads one word at the cursor; `None` if a metacharacter (or the end) is there.
    fn read_word(&mut self, mode: WordMode) -> PResult<Option<Word>> {
        self.enter()?;
        let r = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.read_word_inner(mode));
        self.leave();
        r
    }

    fn read_word_inner(&mut self, mode: WordMode) -> PResult<Option<Word>> {
        let mut parts = Vec::new();
        let mut lit = String::new();
        let start = self.pos;
        let command_start = std::mem::take(&mut self.command_start);
        // Unclosed `[` of a `name[` at a command's start (see `command_start`).
        let mut brackets = 0usize;
        // A word that opens with `name=` (`name+=`, `name[...]=`) in plain text is
        // assignment-like wherever it stands: as in an assignment, a tilde prefix
        // after that `=` or after any unquoted `:` expands (`echo PATH=~/a:~/b`).
        // Bash leaves the elements of a compound array assignment alone.
        let mut assign_like = matches!(mode, WordMode::Assign | WordMode::HereString);
        let mut first_eq_seen = mode != WordMode::Normal && mode != WordMode::Cond;
        let mut after_first_eq = None;
        loop {
            let Some(c) = self.peek() else {
                if brackets > 0 && self.alias_active.is_empty() {
                    return Err(self.error(ParseErrorKind::Unmatched(']')));
                }
                break;
            };
            if c == '[' && (brackets > 0 || (command_start && parts.is_empty() && is_name(&lit))) {
                brackets += 1;
                lit.push(c);
                self.bump();
                continue;
            }
            if brackets > 0 && (c == ']' || is_meta(c)) {
                if c == ']' {
                    brackets -= 1;
                }
                lit.push(c);
                self.bump();
                continue;
            }
            // A tilde prefix at the start, after `=`-prefixed names, or after `:` in
            // assignment values.
            if c == '=' && !first_eq_seen && parts.is_empty() {
                first_eq_seen = true;
                if is_assign_lhs(&lit) {
                    assign_like = true;
                    after_first_eq = Some(self.pos + 1);
                }
            }
            if c == '~' {
                let at_start = self.pos == start;
                let after_colon = assign_like && lit.ends_with(':');
                let after_eq = after_first_eq == Some(self.pos);
                if (at_start || after_colon || after_eq)
                    && let Some(user) = self.tilde_prefix(mode)
                {
                    flush_lit(&mut parts, &mut lit);
                    parts.push(WordPart::Tilde(user));
                    continue;
                }
            }
            if c == '\\' && self.peek_at(1) == Some('\n') {
                self.bump_n(2);
                continue;
            }
            if self.at_extglob() {
                self.extglob_group(&mut parts, &mut lit)?;
                continue;
            }
            if self.at_proc_sub() {
                flush_lit(&mut parts, &mut lit);
                let input = c == '<';
                self.bump_n(2);
                let body = self.subshell_body()?;
                parts.push(WordPart::ProcSub {
                    input,
                    body: Arc::new(body),
                });
                continue;
            }
            if is_meta(c) {
                break;
            }
            if mode == WordMode::Cond && (c == '(' || c == ')') {
                break;
            }
            if !self.word_special(&mut parts, &mut lit, false, mode)? {
                lit.push(c);
                self.bump();
            }
        }
        flush_lit(&mut parts, &mut lit);
        if self.pos == start {
            return Ok(None);
        }
        if has_bad_subst(&parts) {
            let text: String = self
                .chars
                .get(start..self.pos)
                .unwrap_or_default()
                .iter()
                .collect();
            fill_bad_subst(&mut parts, &text, true);
        }
        Ok(Some(Word { parts }))
    }

    /// `~user` at the cursor, if it forms a tilde prefix (ends at `/`, `:` or the word's
    /// end: bash ends one at a `:` in any word, `echo ~:x`); consumes it.
    fn tilde_prefix(&mut self, mode: WordMode) -> Option<String> {
        let mut i = self.pos + 1;
        let mut user = String::new();
        while let Some(&c) = self.chars.get(i) {
            if c == '/' || c == ':' || is_meta(c) {
                break;
            }
            if !is_tilde_user_char(c) {
                return None;
            }
            user.push(c);
            i += 1;
        }
        if mode == WordMode::Cond && matches!(self.chars.get(i), Some('(' | ')')) {
            return None;
        }
        self.bump_n(i - self.pos);
        Some(user)
    }

    /// `@(...)` and friends: the group is literal text, with expansions inside it.
    fn extglob_group(&mut self, parts: &mut Vec<WordPart>, lit: &mut String) -> PResult<()> {
        if let Some(c) = self.bump() {
            lit.push(c);
        }
        self.bump();
        lit.push('(');
        let mut depth = 1usize;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error(ParseErrorKind::Unmatched(')')));
            };
            match c {
                '(' => {
                    depth += 1;
                    lit.push(c);
                    self.bump();
                }
                ')' => {
                    depth -= 1;
                    lit.push(c);
                    self.bump();
                    if depth == 0 {
                        return Ok(());
                    }
                }
                '\n' => {
                    return Err(self.unexpected());
                }
                _ => {
                    if !self.word_special(parts, lit, false, WordMode::Normal)? {
                        lit.push(c);
                        self.bump();
                    }
                }
            }
        }
    }

    /// Handles a quoting or expansion character at the cursor, appending to `parts`.
    /// Returns false if the character is ordinary.
    fn word_special(
        &mut self,
        parts: &mut Vec<WordPart>,
        lit: &mut String,
        in_dquote: bool,
        mode: WordMode,
    ) -> PResult<bool> {
        let Some(c) = self.peek() else {
            return Ok(false);
        };
        match c {
            '\'' if !in_dquote => {
                flush_lit(parts, lit);
                let line = self.line;
                self.bump();
                let mut s = String::new();
                loop {
                    match self.bump_raw() {
                        None => return Err(self.unclosed('\'', line)),
                        Some('\'') => break,
                        Some(d) => s.push(d),
                    }
                }
                parts.push(WordPart::Quoted(s));
                Ok(true)
            }
            '"' if !in_dquote => {
                flush_lit(parts, lit);
                self.bump();
                let inner = self.dquoted_parts()?;
                parts.push(WordPart::DQuoted(inner));
                Ok(true)
            }
            '\\' => {
                self.bump();
                match self.bump() {
                    // A backslash at the end of the text is itself, as if escaped: so it
                    // prints as `\\`, which stays itself when more text follows.
                    None => {
                        flush_lit(parts, lit);
                        push_quoted(parts, '\\');
                    }
                    Some('\n') => {}
                    Some(d) => {
                        if in_dquote && !matches!(d, '$' | '`' | '"' | '\\') {
                            lit.push('\\');
                            lit.push(d);
                        } else {
                            flush_lit(parts, lit);
                            push_quoted(parts, d);
                        }
                    }
                }
                Ok(true)
            }
            '`' => {
                flush_lit(parts, lit);
                let part = self.backtick(in_dquote)?;
                parts.push(part);
                Ok(true)
            }
            '$' => self.dollar(parts, lit, in_dquote, mode),
            _ => Ok(false),
        }
    }

    /// The parts of a double-quoted string (opening quote consumed; closing consumed).
    fn dquoted_parts(&mut self) -> PResult<Vec<WordPart>> {
        self.enter()?;
        let line = self.line;
        let start = self.pos;
        let mut parts = Vec::new();
        let mut lit = String::new();
        loop {
            let Some(c) = self.peek() else {
                if self.dquote_to_end {
                    break;
                }
                return Err(self.unclosed('"', line));
            };
            if c == '"' {
                self.bump();
                break;
            }
            if !self.word_special(&mut parts, &mut lit, true, WordMode::Normal)? {
                lit.push(c);
                self.bump();
            }
        }
        flush_lit(&mut parts, &mut lit);
        if has_bad_subst(&parts) {
            // A plain "bad substitution" in double quotes shows the quoted text.
            let end = self.pos.saturating_sub(1);
            let text: String = self
                .chars
                .get(start..end)
                .unwrap_or_default()
                .iter()
                .collect();
            fill_bad_subst(&mut parts, &text, false);
        }
        self.leave();
        Ok(parts)
    }

    /// A here-document body: like double quotes, but `"` is ordinary.
    fn heredoc_word(&mut self) -> PResult<Word> {
        let mut parts = Vec::new();
        let mut lit = String::new();
        while let Some(c) = self.peek() {
            if c == '\\' {
                match self.peek_at(1) {
                    Some('$' | '`' | '\\') => {
                        self.bump();
                        if let Some(d) = self.bump() {
                            flush_lit(&mut parts, &mut lit);
                            push_quoted(&mut parts, d);
                        }
                        continue;
                    }
                    Some('\n') => {
                        self.bump_n(2);
                        continue;
                    }
                    _ => {
                        lit.push(c);
                        self.bump();
                        continue;
                    }
                }
            }
            if c == '"' {
                lit.push(c);
                self.bump();
                continue;
            }
            // Backquotes here are outside double quotes: `\"` in one stays `\"`.
            if c == '`' {
                flush_lit(&mut parts, &mut lit);
                let part = self.backtick(false)?;
                parts.push(part);
                continue;
            }
            if !self.word_special(&mut parts, &mut lit, true, WordMode::Normal)? {
                lit.push(c);
                self.bump();
            }
        }
        flush_lit(&mut parts, &mut lit);
        Ok(Word {
            parts: vec![WordPart::DQuoted(parts)],
        })
    }

    /// The source of `$((...))`, `((...))` and subscripts as a word: `$` expansions,
    /// backquotes and quotes are recognised; everything else is literal.
    fn arith_word(&mut self) -> PResult<Word> {
        let mut parts = Vec::new();
        let mut lit = String::new();
        while let Some(c) = self.peek() {
            if c == '\'' {
                // Single quotes are not special in arithmetic; bash reports them.
                lit.push(c);
                self.bump();
                continue;
            }
            if c == '"' {
                flush_lit(&mut parts, &mut lit);
                self.bump();
                let inner = self.dquoted_parts()?;
                parts.push(WordPart::DQuoted(inner));
                continue;
            }
            if !self.word_special(&mut parts, &mut lit, true, WordMode::Normal)? {
                lit.push(c);
                self.bump();
            }
        }
        flush_lit(&mut parts, &mut lit);
        Ok(Word { parts })
    }

    /// A backquoted command substitution; inside double quotes `\"` also loses its
    /// backslash.
    fn backtick(&mut self, in_dquote: bool) -> PResult<WordPart> {
        let line = self.line;
        self.bump();
        let mut text = String::new();
        let mut source = String::new();
        loop {
            match self.bump() {
                None => return Err(self.unclosed('`', line)),
                Some('`') => break,
                Some('\\') => {
                    source.push('\\');
                    let next = self.bump();
                    source.extend(next);
                    match next {
                        Some(d @ ('$' | '`' | '\\')) => text.push(d),
                        Some('"') if in_dquote => text.push('"'),
                        Some(d) => {
                            text.push('\\');
                            text.push(d);
                        }
                        None => text.push('\\'),
                    }
                }
                Some(d) => {
                    source.push(d);
                    text.push(d);
                }
            }
        }
        let mut sub = Parser::new(&text, self.opts.clone());
        sub.depth = self.depth;
        // The body takes the shape `$( )` gives it (one compound list across lines), so
        // both forms print, and parse back, alike.
        let mut items = Vec::new();
        loop {
            match sub.next_command() {
                Ok(Some(c)) => items.extend(c.items),
                Ok(None) => break,
                Err(e) if e.kind == ParseErrorKind::TooDeep => return Err(e),
                Err(_) => return Ok(WordPart::BadBackquote(text.into())),
            }
        }
        // The body is numbered from 1 (see `command_subst_backquoted`); its warnings
        // keep the lines of the text around it.
        for mut w in sub.warnings.drain(..) {
            w.line += line - 1;
            if let ParseWarningKind::HereDocEof { start_line, .. } = &mut w.kind {
                *start_line += line - 1;
            }
            self.warnings.push(w);
        }
        let commands = if items.is_empty() {
            Vec::new()
        } else {
            vec![List { items }]
        };
        Ok(WordPart::CmdSub(
            Arc::new(Script { commands }),
            Backquoted(Some(source.into())),
        ))
    }

    /// The body of `$(...)`, `<(...)`, `>(...)` (opening consumed, closing consumed).
    fn subshell_body(&mut self) -> PResult<Script> {
        self.enter()?;
        // The body reads its own here-documents; those of the line around it wait.
        let outer_docs = std::mem::take(&mut self.pending_heredocs);
        self.comsub_depth += 1;
        let body = self.subshell_lists().map_err(|mut e| {
            if e.kind == ParseErrorKind::UnexpectedEof {
                e.kind = ParseErrorKind::EofInSubstitution;
            }
            e
        });
        self.comsub_depth -= 1;
        self.pending_heredocs = outer_docs;
        self.leave();
        body
    }

    /// The commands of a substitution's body, through its closing `)`.
    fn subshell_lists(&mut self) -> PResult<Script> {
        let mut commands = Vec::new();
        loop {
            self.linebreak()?;
            if self.eof() {
                return Err(self.error(ParseErrorKind::EofInSubstitution));
            }
            if self.peek() == Some(')') {
                self.bump();
                break;
            }
            let list = self.compound_list()?;
            commands.push(list);
        }
        if !self.pending_heredocs.is_empty() {
            if self.arith_text {
                let (pos, line) = (self.pos, self.line);
                self.pos = self.chars.len();
                self.read_heredoc_bodies()?;
                self.pos = pos;
                self.line = line;
            } else {
                self.read_heredocs_after_line()?;
            }
        }
        Ok(Script { commands })
    }

    /// `$...` at the cursor.
    fn dollar(
        &mut self,
        parts: &mut Vec<WordPart>,
        lit: &mut String,
        in_dquote: bool,
        mode: WordMode,
    ) -> PResult<bool> {
        // A line continuation may split `$` from what follows it (`$\<newline>?`).
        while self.alias_active.is_empty()
            && self.peek_at(1) == Some('\\')
            && self.peek_at(2) == Some('\n')
        {
            self.splice_text(self.pos + 1..self.pos + 3, Vec::new());
            self.line += 1;
        }
        let next = self.peek_at(1);
        match next {
            Some('(') => {
                flush_lit(parts, lit);
                // `$((` that is not arithmetic after all opens `$(` and a subshell;
                // if the text ends in it, bash still names the line of the `$((`.
                let mut arith_line = None;
                if self.peek_at(2) == Some('(') {
                    let cp = self.checkpoint();
                    let line = self.line;
                    self.bump_n(3);
                    let text = self.read_until_double_paren();
                    let open_quote = text.as_ref().is_err_and(|e| {
                        matches!(e.kind, ParseErrorKind::Unmatched('\'' | '"' | '`'))
                    });
                    self.finish(cp, text.is_err() && !open_quote);
                    match text {
                        // A quote left open is an error either way, bash's lexer's.
                        Err(e) if open_quote => return Err(e),
                        Ok(text) if comment_hides_end(&text) => {
                            parts.push(WordPart::BadSubst(Box::new(BadSubst {
                                text: format!("$(({text}))"),
                                missing: Some(')'),
                                context: String::new(),
                                early: true,
                            })));
                            return Ok(true);
                        }
                        Ok(text) => {
                            let a = self.make_arith(&text);
                            parts.push(WordPart::Arith(Box::new(a)));
                            return Ok(true);
                        }
                        Err(_) => arith_line = Some(line),
                    }
                }
                self.bump_n(2);
                let body = self
                    .subshell_body()
                    .map_err(|e| unclosed_arith(e, arith_line))?;
                parts.push(WordPart::CmdSub(Arc::new(body), Backquoted(None)));
                Ok(true)
            }
            Some('[') => {
                // `$[expr]`: old arithmetic syntax. Left open, bash names the line of
                // its `$[`, as with a quote.
                flush_lit(parts, lit);
                let line = self.line;
                self.bump_n(2);
                let mut depth = 0usize;
                let mut text = String::new();
                loop {
                    match self.bump() {
                        None => return Err(self.unclosed(']', line)),
                        Some('[') => {
                            depth += 1;
                            text.push('[');
                        }
                        Some(']') if depth == 0 => break,
                        Some(']') => {
                            depth -= 1;
                            text.push(']');
                        }
                        // An escaped character, a quoted string and a backquoted
                        // command are read whole (a `]` in them does not close), as
                        // bash reads them; `$(` and `${` are not.
                        Some('\\') => {
                            text.push('\\');
                            if let Some(d) = self.bump() {
                                text.push(d);
                            }
                        }
                        Some(q @ ('\'' | '"' | '`')) => {
                            let line = self.line;
                            text.push(q);
                            loop {
                                let Some(d) = self.bump() else {
                                    return Err(self.unclosed(q, line));
                                };
                                text.push(d);
                                if d == q {
                                    break;
                                }
                                if d == '\\'
                                    && q != '\''
                                    && let Some(e) = self.bump()
                                {
                                    text.push(e);
                                }
                            }
                        }
                        Some(c) => text.push(c),
                    }
                }
                let mut a = self.make_arith(&text);
                a.bracketed = true;
                parts.push(WordPart::Arith(Box::new(a)));
                Ok(true)
            }
            Some('{') => {
                flush_lit(parts, lit);
                self.bump_n(2);
                let outer = self.assign_value_param;
                self.assign_value_param = mode == WordMode::Assign && !in_dquote;
                let p = self.braced_param(in_dquote);
                self.assign_value_param = outer;
                let p = p?;
                match self.bad_subst.take() {
                    Some(b) => parts.push(WordPart::BadSubst(Box::new(b))),
                    None => parts.push(WordPart::Param(Box::new(p))),
                }
                Ok(true)
            }
            Some('\'') if !in_dquote => {
                flush_lit(parts, lit);
                self.bump_n(2);
                let s = self.ansi_c_string()?;
                parts.push(WordPart::Quoted(s));
                Ok(true)
            }
            Some('"') if !in_dquote => {
                flush_lit(parts, lit);
                self.bump_n(2);
                let inner = self.dquoted_parts()?;
                parts.push(WordPart::DQuoted(inner));
                Ok(true)
            }
            Some(c) if is_name_start(c) => {
                flush_lit(parts, lit);
                self.bump();
                let mut name = String::new();
                while let Some(c) = self.peek() {
                    if is_name_char(c) {
                        name.push(c);
                        self.bump();
                    } else {
                        break;
                    }
                }
                parts.push(WordPart::Param(Box::new(simple_param(Param::Name(name)))));
                Ok(true)
            }
            Some(c) if c.is_ascii_digit() => {
                flush_lit(parts, lit);
                self.bump_n(2);
                // `$0` is the shell's name, not a positional parameter.
                let param = match c {
                    '0' => Param::Special('0'),
                    _ => Param::Positional(c as u32 - '0' as u32),
                };
                parts.push(WordPart::Param(Box::new(simple_param(param))));
                Ok(true)
            }
            Some(c @ ('@' | '*' | '#' | '?' | '-' | '$' | '!')) => {
                flush_lit(parts, lit);
                self.bump_n(2);
                parts.push(WordPart::Param(Box::new(simple_param(Param::Special(c)))));
                Ok(true)
            }
            _ => {
                lit.push('$');
                self.bump();
                Ok(true)
            }
        }
    }

    /// `$'...'` after the opening quote: ANSI-C escapes.
    fn ansi_c_string(&mut self) -> PResult<String> {
        let line = self.line;
        let mut raw = String::new();
        loop {
            let Some(c) = self.bump_raw() else {
                return Err(self.unclosed('\'', line));
            };
            match c {
                '\'' => return Ok(ansi_c_unescape(&raw)),
                '\\' => {
                    raw.push(c);
                    match self.bump_raw() {
                        Some(d) => raw.push(d),
                        None => return Err(self.unclosed('\'', line)),
                    }
                }
                c => raw.push(c),
            }
        }
    }

    /// `${...}` after the `${`.
    fn braced_param(&mut self, in_dquote: bool) -> PResult<ParamExp> {
        self.enter()?;
        self.brace_lines.push(self.line);
        let r = self.braced_param_body(in_dquote);
        self.brace_lines.pop();
        self.leave();
        r
    }

    fn braced_param_body(&mut self, in_dquote: bool) -> PResult<ParamExp> {
        let start = self.pos;
        let outer = self.bad_transform.take();
        let r = self.braced_param_inner(in_dquote);
        let bad_transform = std::mem::replace(&mut self.bad_transform, outer);
        match r {
            Ok(Some(p)) => Ok(p),
            Ok(None) => {
                let unclosed_subscript = self.unclosed_subscript.take();
                // Not a valid form: keep the text for a run-time "bad substitution".
                self.pos = start;
                let mut depth = 1usize;
                let mut text = String::from("${");
                loop {
                    let Some(c) = self.bump() else {
                        return Err(self.unclosed_brace());
                    };
                    match c {
                        '{' => depth += 1,
                        // Quotes nest: the text must close them before the `}`.
                        '\'' | '"' => {
                            let line = self.line;
                            text.push(c);
                            loop {
                                let Some(d) = self.bump() else {
                                    return Err(self.unclosed(c, line));
                                };
                                text.push(d);
                                if d == c {
                                    break;
                                }
                                if d == '\\'
                                    && c == '"'
                                    && let Some(e) = self.bump()
                                {
                                    text.push(e);
                                }
                            }
                            continue;
                        }
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                text.push('}');
                                break;
                            }
                        }
                        '\\' => {
                            text.push(c);
                            if let Some(d) = self.bump() {
                                text.push(d);
                            }
                            continue;
                        }
                        // A `}` inside `$( )` does not close it.
                        '$' if self.peek() == Some('(') => {
                            let from = self.pos;
                            let to = skip_nested(&self.chars, from - 1);
                            text.extend(self.chars.get(from - 1..to).unwrap_or_default());
                            self.pos = to;
                            continue;
                        }
                        _ => {}
                    }
                    text.push(c);
                }
                if let Some(length) = unclosed_subscript {
                    // In double quotes bash misses the `}` (a length aside); otherwise
                    // the whole `${...}` is bad.
                    self.bad_subst = Some(BadSubst {
                        text: text.clone(),
                        missing: (in_dquote && !length).then_some('}'),
                        context: String::new(),
                        early: false,
                    });
                }
                // A bad `@` operator keeps its parameter (see `ParamOp::Invalid`).
                let (param, index, indirect) = bad_transform
                    .map_or((Param::Name(String::new()), None, false), |p| {
                        (p.param, p.index, p.indirect)
                    });
                Ok(ParamExp {
                    param,
                    index,
                    indirect,
                    length: false,
                    op: ParamOp::Invalid(text),
                    braced: true,
                })
            }
            Err(e) => Err(e),
        }
    }

    /// Whether the subscript after the cursor (just past `name[`) ends where bash's
    /// expansion looks for its `]`: inside the `${...}` as its word reader delimits it
    /// (to the first `}` that closes it), or else further on in the same word (`${h[}]}`
    /// is `h` at key `}`): not past a blank or operator outside quotes, nor (inside
    /// double quotes) past the closing `"`.
    fn subscript_closes(&self, in_dquote: bool) -> bool {
        let chars = &self.chars;
        let mut depth = 1usize;
        let mut i = self.pos;
        while let Some(&c) = chars.get(i) {
            if c == '}' && depth == 1 {
                break;
            }
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                '[' => {
                    let Some(close) = bracket_end(chars, i + 1, None) else {
                        return false;
                    };
                    i = close + 1;
                    continue;
                }
                ']' => return true,
                _ => {
                    let next = skip_nested(chars, i);
                    // A quote or substitution left open is the word reader's error.
                    if next >= chars.len() {
                        return true;
                    }
                    if next > i {
                        i = next;
                        continue;
                    }
                }
            }
            i += 1;
        }
        if chars.get(i).is_none() {
            return false;
        }
        bracket_end(chars, i, Some(in_dquote)).is_some()
    }

    fn braced_param_inner(&mut self, in_dquote: bool) -> PResult<Option<ParamExp>> {
        let mut length = false;
        let mut indirect = false;
        if self.peek() == Some('#') {
            // `${#}` is $#; `${#x}` is a length; `${#-}`, `${##}` lengths of specials,
            // but `${###}`, `${#-x}` apply an operator to $#.
            match self.peek_at(1) {
                Some('}') => {}
                Some('#' | '-' | '?') if self.peek_at(2) != Some('}') => {}
                Some(c)
                    if is_name_start(c)
                        || c.is_ascii_digit()
                        || matches!(c, '@' | '*' | '#' | '?' | '-' | '$' | '!') =>
                {
                    self.bump();
                    length = true;
                }
                _ => {}
            }
        } else if self.peek() == Some('!') {
            // Only a name, a number, `#`, `?`, `@` or `*` can be indirected (bash's
            // VALID_INDIR_PARAM): `${!-x}` applies `-` to `$!`, and `${!$}` is a bad
            // substitution.
            match self.peek_at(1) {
                Some('}') => {}
                Some(c)
                    if is_name_start(c)
                        || c.is_ascii_digit()
                        || matches!(c, '@' | '*' | '#' | '?') =>
                {
                    self.bump();
                    indirect = true;
                }
                _ => {}
            }
        }
        let param = match self.peek() {
            Some(c) if is_name_start(c) => {
                let mut name = String::new();
                while let Some(c) = self.peek() {
                    if is_name_char(c) {
                        name.push(c);
                        self.bump();
                    } else {
                        break;
                    }
                }
                Param::Name(name)
            }
            Some(c) if c.is_ascii_digit() => {
                let mut n = String::new();
                while let Some(c) = self.peek() {
                    if c.is_ascii_digit() {
                        n.push(c);
                        self.bump();
                    } else {
                        break;
                    }
                }
                if n.len() > 1 || n != "0" {
                    Param::Positional(n.parse().unwrap_or(u32::MAX))
                } else {
                    Param::Special('0')
                }
            }
            Some(c @ ('@' | '*' | '#' | '?' | '-' | '$' | '!')) => {
                self.bump();
                Param::Special(c)
            }
            _ => return Ok(None),
        };
        let mut index = None;
        if matches!(param, Param::Name(_)) && self.peek() == Some('[') {
            self.bump();
            if (self.peek() == Some('@') || self.peek() == Some('*'))
                && self.peek_at(1) == Some(']')
            {
                index = Some(if self.peek() == Some('@') {
                    Subscript::At
                } else {
                    Subscript::Star
                });
                self.bump_n(2);
            } else {
                if !self.subscript_closes(in_dquote) {
                    self.unclosed_subscript = Some(length);
                    return Ok(None);
                }
                // The text ending inside the subscript ends inside the `${` too, which
                // is what bash reports.
                let w = self.subscript_word().map_err(|e| {
                    if e.kind == ParseErrorKind::Unmatched(']') {
                        self.unclosed_brace()
                    } else {
                        e
                    }
                })?;
                if w.parts.is_empty() {
                    // `${a[]}`
                    return Ok(None);
                }
                index = Some(Subscript::Expr(w));
            }
        }
        let mut exp = ParamExp {
            param,
            index,
            indirect,
            length,
            op: ParamOp::None,
            braced: true,
        };
        let Some(c) = self.peek() else {
            return Err(self.unclosed_brace());
        };
        if c == '}' {
            self.bump();
            return Ok(Some(exp));
        }
        if length {
            return Ok(None);
        }
        if indirect
            && matches!(exp.param, Param::Name(_))
            && exp.index.is_none()
            && (c == '*' || c == '@')
            && self.peek_at(1) == Some('}')
        {
            self.bump_n(2);
            exp.op = ParamOp::Names { at: c == '@' };
            return Ok(Some(exp));
        }
        let op = match c {
            ':' => {
                self.bump();
                match self.peek() {
                    Some(d @ ('-' | '=' | '?' | '+')) => {
                        self.bump();
                        let word = self.default_word(d, in_dquote)?;
                        ParamOp::Default {
                            op: d,
                            colon: true,
                            word,
                        }
                    }
                    _ => {
                        // `${s:}` has no offset at all: a bad substitution.
                        if self.peek() == Some('}') {
                            return Ok(None);
                        }
                        let offset = self.slice_word(true)?;
                        let length = if self.peek() == Some(':') {
                            self.bump();
                            Some(self.slice_word(false)?)
                        } else {
                            None
                        };
                        self.bump(); // }
                        exp.op = ParamOp::Slice { offset, length };
                        return Ok(Some(exp));
                    }
                }
            }
            '-' | '=' | '?' | '+' => {
                self.bump();
                let word = self.default_word(c, in_dquote)?;
                ParamOp::Default {
                    op: c,
                    colon: false,
                    word,
                }
            }
            '#' | '%' => {
                self.bump();
                let longest = self.peek() == Some(c);
                if longest {
                    self.bump();
                }
                let pattern = self.param_word(in_dquote, false, false, true)?;
                ParamOp::Strip {
                    suffix: c == '%',
                    longest,
                    pattern,
                }
            }
            '/' => {
                self.bump();
                let mode = match self.peek() {
                    Some('/') => {
                        self.bump();
                        ReplaceMode::All
                    }
                    Some('#') => {
                        self.bump();
                        ReplaceMode::Prefix
                    }
                    Some('%') => {
                        self.bump();
                        ReplaceMode::Suffix
                    }
                    _ => ReplaceMode::First,
                };
                // In `${x///c}` the pattern is the `/` right after `//`.
                let leading_slash = mode == ReplaceMode::All && self.peek() == Some('/');
                if leading_slash {
                    self.bump();
                }
                let anchored = matches!(mode, ReplaceMode::Prefix | ReplaceMode::Suffix);
                let mut pattern = self.param_word(in_dquote, false, true, !anchored)?;
                if leading_slash {
                    match pattern.parts.first_mut() {
                        Some(WordPart::Lit(s)) => s.insert(0, '/'),
                        _ => pattern.parts.insert(0, WordPart::Lit("/".to_owned())),
                    }
                }
                let replacement = if self.last_stop_was_slash {
                    Some(self.param_word(in_dquote, false, false, true)?)
                } else {
                    None
                };
                ParamOp::Replace {
                    mode,
                    pattern,
                    replacement,
                }
            }
            '^' | ',' | '~' => {
                self.bump();
                let all = self.peek() == Some(c);
                if all {
                    self.bump();
                }
                let pattern = self.param_word(in_dquote, false, false, !in_dquote)?;
                ParamOp::Case {
                    to: match c {
                        '^' => CaseTo::Upper,
                        ',' => CaseTo::Lower,
                        _ => CaseTo::Toggle,
                    },
                    all,
                    pattern: if pattern.parts.is_empty() {
                        None
                    } else {
                        Some(pattern)
                    },
                }
            }
            '@' => {
                self.bump();
                match (self.peek(), self.peek_at(1)) {
                    (Some(t), Some('}')) if "QEPAaUuLKk".contains(t) => {
                        self.bump_n(2);
                        exp.op = ParamOp::Transform(t);
                        return Ok(Some(exp));
                    }
                    _ => {
                        if !exp.length {
                            self.bad_transform = Some(exp);
                        }
                        return Ok(None);
                    }
                }
            }
            _ => return Ok(None),
        };
        exp.op = op;
        Ok(Some(exp))
    }

    /// The word after a `${x<op>` operator, up to the closing `}` (consumed). With
    /// `stop_at_slash`, also stops at an unquoted `/` (consumed; see
    /// `last_stop_was_slash`).
    /// The word of `${x-w}` (`op` is `-`, `=`, `?` or `+`, with or without `:`).
    fn default_word(&mut self, op: char, in_dquote: bool) -> PResult<Word> {
        let colon_tilde = self.assign_value_param && matches!(op, '-' | '+');
        self.assign_value_param = false;
        let word = self.param_word(in_dquote, true, false, !in_dquote);
        if colon_tilde {
            return word.map(tilde_after_colons);
        }
        word
    }

    /// A word inside `${...}`, up to its `}` (or a `/` when `stop_at_slash`). A tilde
    /// at its start expands when `leading_tilde`: bash expands one in patterns and
    /// replacements even inside double quotes, but not in `"${x-~}"` or after the `#`
    /// or `%` of `${x/#~/r}`.
    fn param_word(
        &mut self,
        in_dquote: bool,
        default_op: bool,
        stop_at_slash: bool,
        leading_tilde: bool,
    ) -> PResult<Word> {
        self.last_stop_was_slash = false;
        let mut parts = Vec::new();
        let mut lit = String::new();
        let start = self.pos;
        let mut squote_open = false;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.unclosed_brace());
            };
            if c == '}' && squote_open {
                lit.push(c);
                self.bump();
                continue;
            }
            if c == '}' {
                self.bump();
                break;
            }
            if stop_at_slash && c == '/' {
                self.bump();
                self.last_stop_was_slash = true;
                break;
            }
            if c == '~'
                && self.pos == start
                && leading_tilde
                && let Some(user) = self.tilde_prefix_in_param()
            {
                parts.push(WordPart::Tilde(user));
                continue;
            }
            if in_dquote {
                // Inside double quotes single quotes are ordinary in `${x:-'a'}` but
                // still quote in patterns; double quotes nest.
                if c == '\'' && default_op {
                    // Kept as text (what is inside still expands), but the quotes pair
                    // up: `"${v-'}'}"` is `'}'`.
                    squote_open = !squote_open;
                    lit.push(c);
                    self.bump();
                    continue;
                }
                if c == '\\' && self.peek_at(1) == Some('}') {
                    flush_lit(&mut parts, &mut lit);
                    self.bump_n(2);
                    push_quoted(&mut parts, '}');
                    continue;
                }
                if c == '$' && self.peek_at(1) == Some('\'') {
                    // `$'...'` is still ANSI-C quoting inside `"${...}"`.
                    self.word_special(&mut parts, &mut lit, false, WordMode::Normal)?;
                    continue;
                }
                if c == '"' {
                    flush_lit(&mut parts, &mut lit);
                    self.bump();
                    let inner = self.dquoted_parts()?;
                    parts.push(WordPart::DQuoted(inner));
                    continue;
                }
                let handled = if c == '\'' {
                    self.word_special(&mut parts, &mut lit, false, WordMode::Normal)?
                } else {
                    self.word_special(&mut parts, &mut lit, true, WordMode::Normal)?
                };
                if !handled {
                    lit.push(c);
                    self.bump();
                }
                continue;
            }
            if !self.word_special(&mut parts, &mut lit, false, WordMode::Normal)? {
                lit.push(c);
                self.bump();
            }
        }
        flush_lit(&mut parts, &mut lit);
        Ok(Word { parts })
    }

    fn tilde_prefix_in_param(&mut self) -> Option<String> {
        let mut i = self.pos + 1;
        let mut user = String::new();
        while let Some(&c) = self.chars.get(i) {
            if matches!(c, '/' | '}' | ':') {
                break;
            }
            if !is_tilde_user_char(c) {
                return None;
            }
            user.push(c);
            i += 1;
        }
        self.bump_n(i - self.pos);
        Some(user)
    }

    /// An offset or length of `${x:off:len}`: up to `:` (offset only) or `}`. Nested
    /// parens keep a `:` (not a `}`: bash's word reader ends the `${` there); brackets
    /// keep neither (`${s:a[1:2]}` has offset `a[1`). The closing `}` is left in place.
    fn slice_word(&mut self, offset: bool) -> PResult<Word> {
        let mut parts = Vec::new();
        let mut lit = String::new();
        let mut depth = 0usize;
        // `?`s of conditional expressions whose `:` is still to come: that `:` belongs
        // to the offset (`${s: 1 < 2 ? 2 : 0 : 1}` starts at 2).
        let mut ternaries = 0usize;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.unclosed_brace());
            };
            match c {
                '}' => break,
                ':' if depth == 0 && offset && ternaries == 0 => break,
                '?' | ':' if depth == 0 => {
                    if c == '?' {
                        ternaries += 1;
                    } else {
                        ternaries = ternaries.saturating_sub(1);
                    }
                    lit.push(c);
                    self.bump();
                }
                '(' => {
                    depth += 1;
                    lit.push(c);
                    self.bump();
                }
                ')' => {
                    depth = depth.saturating_sub(1);
                    lit.push(c);
                    self.bump();
                }
                // Arithmetic text drops double quotes (a `'` stays, for the evaluator
                // to reject), in or out of a double-quoted word.
                '"' => {
                    flush_lit(&mut parts, &mut lit);
                    self.bump();
                    let inner = self.dquoted_parts()?;
                    parts.push(WordPart::DQuoted(inner));
                }
                _ => {
                    if !self.word_special(&mut parts, &mut lit, true, WordMode::Normal)? {
                        lit.push(c);
                        self.bump();
                    }
                }
            }
        }
        flush_lit(&mut parts, &mut lit);
        Ok(Word { parts })
    }
}

/// The error of a subshell read after `((` or `$((` turned out not to be arithmetic:
/// when the text ended inside it, bash's unmatched `)` at `line`, where the parens
/// opened (given for `$((`, and for `((` when the arithmetic reading met the end too).
fn unclosed_arith(e: ParseError, line: Option<u32>) -> ParseError {
    match line {
        Some(line)
            if matches!(
                e.kind,
                ParseErrorKind::UnexpectedEof | ParseErrorKind::EofInSubstitution
            ) =>
        {
            ParseError {
                line,
                kind: ParseErrorKind::Unmatched(')'),
                ..e
            }
        }
        _ => e,
    }
}

/// Which arguments of a simple command are read as assignments, by its first word.
#[derive(Clone, Copy, PartialEq, Eq)]
enum DeclArgs {
    No,
    /// `declare`, `local` and the like.
    All,
    /// `let` and `eval`: array assignments only.
    Arrays,
}

/// The index past a quoted string, an escape, or a `$(...)`, `${...}` or `` `...` ``
/// starting at `i` (the end of the text when it is not closed); `i` itself when none
/// starts there.
fn skip_nested(chars: &[char], i: usize) -> usize {
    let at = |k: usize| chars.get(k).copied();
    match at(i) {
        Some('\\') => (i + 2).min(chars.len()),
        Some(q @ ('\'' | '`')) => {
            let mut k = i + 1;
            while let Some(c) = at(k) {
                if c == q {
                    return k + 1;
                }
                k += if c == '\\' && q == '`' { 2 } else { 1 };
            }
            chars.len()
        }
        Some('"') => {
            let mut k = i + 1;
            while let Some(c) = at(k) {
                match c {
                    '"' => return k + 1,
                    '\\' => k += 2,
                    '$' | '`' => k = skip_nested(chars, k).max(k + 1),
                    _ => k += 1,
                }
            }
            chars.len()
        }
        Some('$') if matches!(at(i + 1), Some('(' | '{')) => {
            let (open, close) = if at(i + 1) == Some('(') {
                ('(', ')')
            } else {
                ('{', '}')
            };
            let mut depth = 0usize;
            let mut k = i + 1;
            while let Some(c) = at(k) {
                if c == open {
                    depth += 1;
                } else if c == close {
                    depth -= 1;
                    if depth == 0 {
                        return k + 1;
                    }
                } else if matches!(c, '\\' | '\'' | '"' | '`' | '$') {
                    k = skip_nested(chars, k).max(k + 1);
                    continue;
                }
                k += 1;
            }
            chars.len()
        }
        _ => i,
    }
}

/// The index of the `]` that closes a subscript whose text starts at `i`, skipping
/// nested brackets, quotes and substitutions. With `word_end`, the search stops where
/// bash's word ends: for `Some(false)` at a blank or operator outside quotes, for
/// `Some(true)` (inside double quotes) at the closing `"`.
fn bracket_end(chars: &[char], mut i: usize, word_end: Option<bool>) -> Option<usize> {
    let mut depth = 0usize;
    while let Some(&c) = chars.get(i) {
        match (c, word_end) {
            ('"', Some(true)) => return None,
            (c, Some(false)) if c.is_whitespace() || "|&;<>()".contains(c) => return None,
            ('[', _) => depth += 1,
            (']', _) if depth == 0 => return Some(i),
            (']', _) => depth -= 1,
            _ => {
                let next = skip_nested(chars, i);
                if next > i {
                    i = next;
                    continue;
                }
            }
        }
        i += 1;
    }
    None
}

/// Whether a `#` comment hides the end of the text of `$((...))`: bash's expansion reads
/// a `#` after a blank as a comment up to the end of the line, so with no newline
/// after it the `))` is never found.
fn comment_hides_end(text: &str) -> bool {
    let mut prev = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '#' if matches!(prev, Some(' ' | '\t' | '\n')) => {
                if !chars.by_ref().any(|d| d == '\n') {
                    return true;
                }
                prev = Some('\n');
                continue;
            }
            '\'' if !chars.by_ref().any(|d| d == '\'') => return false,
            _ => {}
        }
        prev = Some(c);
    }
    false
}

fn has_bad_subst(parts: &[WordPart]) -> bool {
    parts.iter().any(|p| match p {
        WordPart::BadSubst(_) => true,
        WordPart::DQuoted(inner) => has_bad_subst(inner),
        _ => false,
    })
}

/// Gives the bad substitutions in `parts` the text their message shows (see
/// [`BadSubst::context`]): `text` is the whole word (`word`), or a double-quoted
/// string's, which only a plain message shows.
fn fill_bad_subst(parts: &mut [WordPart], text: &str, word: bool) {
    for p in parts {
        match p {
            WordPart::BadSubst(b) if b.context.is_empty() && (word || b.missing.is_none()) => {
                b.context = text.to_owned();
            }
            WordPart::DQuoted(inner) if word => fill_bad_subst(inner, text, word),
            _ => {}
        }
    }
}

/// Moves pending literal text into `parts`.
fn flush_lit(parts: &mut Vec<WordPart>, lit: &mut String) {
    if !lit.is_empty() {
        parts.push(WordPart::Lit(std::mem::take(lit)));
    }
}

/// `w` with each unquoted `~name` that follows a `:` as a tilde prefix (the name ends
/// at `/`, `:` or the end of the word), as in an assignment's value.
fn tilde_after_colons(w: Word) -> Word {
    let mut parts = Vec::with_capacity(w.parts.len());
    let count = w.parts.len();
    for (k, part) in w.parts.into_iter().enumerate() {
        let WordPart::Lit(text) = part else {
            parts.push(part);
            continue;
        };
        let last = k + 1 == count;
        let mut lit = String::new();
        let mut rest = text.as_str();
        while let Some(at) = rest.find(":~") {
            let (head, tail) = rest.split_at(at + 1);
            lit.push_str(head);
            let body = &tail[1..];
            let end = body.find(['/', ':']).unwrap_or(body.len());
            let user = &body[..end];
            let ends_well = end < body.len() || last;
            let valid = user.chars().all(is_tilde_user_char);
            if ends_well && valid {
                flush_lit(&mut parts, &mut lit);
                parts.push(WordPart::Tilde(user.to_owned()));
                rest = &body[end..];
            } else {
                lit.push('~');
                rest = body;
            }
        }
        lit.push_str(rest);
        flush_lit(&mut parts, &mut lit);
    }
    Word { parts }
}

/// Appends a backslash-escaped character, merging with a preceding escaped part.
fn push_quoted(parts: &mut Vec<WordPart>, c: char) {
    if let Some(WordPart::Escaped(s)) = parts.last_mut() {
        s.push(c);
    } else {
        parts.push(WordPart::Escaped(c.to_string()));
    }
}

fn simple_param(param: Param) -> ParamExp {
    ParamExp {
        param,
        index: None,
        indirect: false,
        length: false,
        op: ParamOp::None,
        braced: false,
    }
}

/// Wraps a declaration-builtin argument assignment so it travels as a word.
fn assign_marker(a: Assign) -> ParamExp {
    ParamExp {
        param: Param::Name(a.name.clone()),
        index: None,
        indirect: false,
        length: false,
        op: ParamOp::AssignWord(Box::new(a)),
        braced: false,
    }
}

/// Unary operators of conditional expressions (`[[ ]]`, `test`, `[`).
pub fn is_unary_test_op(op: &str) -> bool {
    matches!(
        op,
        "-a" | "-b"
            | "-c"
            | "-d"
            | "-e"
            | "-f"
            | "-g"
            | "-h"
            | "-k"
            | "-p"
            | "-r"
            | "-s"
            | "-t"
            | "-u"
            | "-w"
            | "-x"
            | "-G"
            | "-L"
            | "-N"
            | "-O"
            | "-S"
            | "-z"
            | "-n"
            | "-o"
            | "-v"
            | "-R"
    )
}

/// Binary operators shared by `[[ ]]` and `test` (`[[ ]]` adds `=~`, `test` adds `<`
/// and `>`, which `[[ ]]` lexes as operators of their own).
pub fn is_binary_test_op(op: &str) -> bool {
    matches!(
        op,
        "==" | "=" | "!=" | "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge" | "-nt" | "-ot" | "-ef"
    )
}

/// Splits `init; cond; step` of an arithmetic for loop at top-level semicolons.
fn split_arith_for(text: &str) -> Vec<String> {
    // A `;` in quotes or in a substitution does not split; one in bare parens does.
    let chars: Vec<char> = text.chars().collect();
    let mut parts = vec![String::new()];
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c == ';' {
            parts.push(String::new());
            i += 1;
            continue;
        }
        let next = skip_nested(&chars, i).max(i + 1);
        if let Some(last) = parts.last_mut() {
            last.extend(chars.get(i..next).unwrap_or_default());
        }
        i = next;
    }
    parts
}

fn first_word_text(c: &Command) -> String {
    if let CommandKind::Simple(s) = &c.kind
        && let Some(w) = s.words.first()
    {
        return super::printer::word_to_string(w);
    }
    String::from("newline")
}

/// Decodes ANSI-C escapes as in `$'...'` (also used by `${x@E}`).
pub fn ansi_c_unescape(src: &str) -> String {
    let s = ansi_c_bytes(src);
    // Escaped bytes that spell a UTF-8 character are that character (`\xce\xbc` is μ).
    if s.chars().any(|c| crate::text::raw_byte(c).is_some()) {
        return crate::text::decode(&crate::text::encode(&s));
    }
    s
}

/// [`ansi_c_unescape`] before escaped bytes are read back as characters.
fn ansi_c_bytes(src: &str) -> String {
    let cs: Vec<char> = src.chars().collect();
    let mut s = String::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        i += 1;
        if c != '\\' || i >= cs.len() {
            s.push(c);
            continue;
        }
        let e = cs[i];
        i += 1;
        match e {
            'a' => s.push('\x07'),
            'b' => s.push('\x08'),
            'e' | 'E' => s.push('\x1b'),
            'f' => s.push('\x0c'),
            'n' => s.push('\n'),
            'r' => s.push('\r'),
            't' => s.push('\t'),
            'v' => s.push('\x0b'),
            '\\' | '\'' | '"' | '?' => s.push(e),
            '0'..='7' => {
                let (rest, k) = crate::text::take_digits(&cs, &mut i, 8, 2);
                let v = (e as u32 - '0' as u32) * 8u32.pow(k as u32) + rest;
                if v & 0xff == 0 {
                    return s;
                }
                crate::text::push_byte(&mut s, (v & 0xff) as u8);
            }
            'x' => {
                let (v, n) = crate::text::take_digits(&cs, &mut i, 16, 2);
                if n == 0 {
                    s.push_str("\\x");
                } else if v == 0 {
                    return s;
                } else {
                    crate::text::push_byte(&mut s, v as u8);
                }
            }
            'u' | 'U' => {
                let max = if e == 'u' { 4 } else { 8 };
                let (v, n) = crate::text::take_digits(&cs, &mut i, 16, max);
                if n == 0 {
                    s.push('\\');
                    s.push(e);
                } else if v == 0 {
                    return s;
                } else {
                    s.push(char::from_u32(v).unwrap_or('\u{FFFD}'));
                }
            }
            'c' => match cs.get(i) {
                Some(&d) => {
                    i += 1;
                    // bash masks the upper-cased character to its low five bits;
                    // `\c?` is DEL.
                    let v = if d == '?' {
                        0x7f
                    } else {
                        (d.to_ascii_uppercase() as u32) & 0x1f
                    };
                    crate::text::push_byte(&mut s, v as u8);
                }
                None => s.push_str("\\c"),
            },
            other => {
                s.push('\\');
                s.push(other);
            }
        }
    }
    s
}

/// Reads one line of a here-document's body from `next` (each character with whether
/// the text ends after it): unless the delimiter was quoted, a backslash-newline joins
/// the body's lines before the line is compared with the delimiter. Returns the line
/// without its newline and how many source lines it took.
fn heredoc_body_line(
    quoted: bool,
    mut next: impl FnMut() -> Option<(char, bool)>,
) -> (String, u32) {
    let mut text = String::new();
    let mut lines = 0;
    loop {
        let mut ended = false;
        let mut at_end = true;
        while let Some((c, end)) = next() {
            at_end = end;
            if c == '\n' {
                ended = true;
                break;
            }
            text.push(c);
        }
        lines += 1;
        let backslashes = text.chars().rev().take_while(|&c| c == '\\').count();
        if quoted || !ended || backslashes % 2 == 0 || at_end {
            return (text, lines);
        }
        text.pop();
    }
}
