//! Word expansion in bash's order (bash manual, "Shell Expansions"): brace, tilde,
//! parameter, arithmetic, command and process substitution, word splitting, pathname
//! expansion and quote removal. It reaches the shell only through the [`Host`] trait, so
//! it can be tested without the interpreter.

pub mod arith;
pub mod brace;
pub mod glob;
pub mod param;
pub mod pattern;
pub mod vars;

use crate::syntax::{Arith, Script, Word, WordPart};
pub use arith::{ArithFail, ArithHost};
pub use vars::{
    ASSOC_ENTRY_OVERHEAD, Assoc, Attrs, INDEXED_ELEMENT_OVERHEAD, Value, Var, element_cost,
};

/// Options that change expansion.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExpandOpts {
    pub nounset: bool,
    pub noglob: bool,
    /// `set +B`: braces are left as they are.
    pub nobrace: bool,
    pub nullglob: bool,
    pub failglob: bool,
    pub dotglob: bool,
    pub extglob: bool,
    pub nocaseglob: bool,
    pub nocasematch: bool,
    pub globstar: bool,
    pub globskipdots: bool,
    /// `shopt patsub_replacement`: an unquoted `&` in `${x/pat/rep}` is the matched text.
    pub patsub_replacement: bool,
    /// The character set is single-byte (`LC_ALL=C`): lengths, offsets and patterns
    /// count bytes.
    pub bytes: bool,
}

/// How an expansion error affects the shell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The current complete command is abandoned (bad substitution, arithmetic errors).
    Abort,
    /// The shell exits with this status (unbound variable, `${x:?}`).
    Fatal(i32),
    /// Only the current command fails with status 1 (e.g. failglob).
    Command,
    /// An error bash raises through its `report_error` (a readonly variable, a
    /// negative subscript past the start under `set -e`): under `set -e` a
    /// non-interactive shell exits at once with the last status (1 for 0), whatever
    /// the context (`if`, `||`); otherwise the current command fails as with
    /// [`ErrorKind::Abort`].
    Report,
    /// bash's jump to the top level (an array subscript that is not a valid
    /// expression): a `-c` shell or a subshell exits with status 1, a script read from
    /// a file abandons the command line and goes on.
    Discard,
}

/// An expansion error: bash's message (without the `bash: line N: ` prefix).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpandError {
    pub message: String,
    pub kind: ErrorKind,
}

impl ExpandError {
    pub fn abort(message: impl Into<String>) -> ExpandError {
        ExpandError {
            message: message.into(),
            kind: ErrorKind::Abort,
        }
    }
    pub fn fatal(message: impl Into<String>) -> ExpandError {
        ExpandError {
            message: message.into(),
            kind: ErrorKind::Fatal(127),
        }
    }
    /// An error raised by the shell itself (a limit, an internal failure) passes through
    /// expansion unchanged.
    pub fn passthrough(message: impl Into<String>, kind: ErrorKind) -> ExpandError {
        ExpandError {
            message: message.into(),
            kind,
        }
    }
}

impl From<ArithFail> for ExpandError {
    fn from(f: ArithFail) -> ExpandError {
        ExpandError {
            message: f.render(),
            kind: if f.fatal {
                ErrorKind::Fatal(127)
            } else if f.discard {
                ErrorKind::Discard
            } else if f.report {
                ErrorKind::Report
            } else {
                ErrorKind::Abort
            },
        }
    }
}

pub type ExpResult<T> = Result<T, ExpandError>;

/// What expansion needs from the shell.
pub trait Host: ArithHost {
    /// A variable by name (namerefs resolved), including dynamic ones like `RANDOM`.
    fn var(&mut self, name: &str) -> Option<Var>;
    /// Assigns a scalar (for `${x:=word}`), honouring attributes.
    fn assign(&mut self, name: &str, value: String) -> ExpResult<()>;
    /// Assigns an array element (`${a[k]:=word}`); `key` is the expanded subscript.
    fn assign_index(&mut self, name: &str, key: &str, value: String) -> ExpResult<()>;
    /// The target of a nameref variable (`None` if `name` is not a nameref).
    fn nameref_target(&mut self, name: &str) -> Option<String>;
    /// Names of set variables starting with `prefix`, sorted (`${!prefix*}`).
    fn var_names(&mut self, prefix: &str) -> Vec<String>;
    /// `$1`, `$2`, ...
    fn positional(&self) -> &[String];
    /// `$0`
    fn arg0(&self) -> String;
    /// `$?`, `$$`, `$!`, `$-`.
    fn special(&mut self, c: char) -> String;
    /// Runs `$(...)` and returns its output (trailing newlines not yet removed).
    fn command_subst(&mut self, body: &Script) -> ExpResult<String>;
    /// Runs `` `...` ``, whose body is numbered from 1 at its opening backquote: bash
    /// parses it only as it runs, so its first line is the running command's.
    fn command_subst_backquoted(&mut self, body: &Script) -> ExpResult<String>;
    /// Runs `` `text` `` whose body did not parse: it is parsed (and fails) as it runs.
    fn command_subst_text(&mut self, text: &str) -> ExpResult<String>;
    /// Starts `<(...)`/`>(...)` and returns the path that names it.
    fn process_subst(&mut self, input: bool, body: &Script) -> ExpResult<String>;
    fn opts(&self) -> ExpandOpts;
    /// Whether the shell is in POSIX mode (`set -o posix`), where a failed `$(( ))`
    /// ends a non-interactive shell as a fatal expansion error does.
    fn posix_mode(&self) -> bool {
        false
    }
    /// Entries of a directory for globbing: (name, is_dir), sorted; `None` if unreadable.
    fn read_dir(&mut self, path: &str) -> Option<Vec<(String, bool)>>;
    /// Whether a path exists (lstat).
    fn exists(&mut self, path: &str) -> bool;
    /// The home directory of `user` (`""` for the current user).
    fn home_dir(&mut self, user: &str) -> Option<String>;
    /// The working directory.
    fn cwd(&self) -> String;
    /// Expands prompt escapes (`${x@P}`).
    fn prompt(&mut self, s: &str) -> String;
    /// Most words one brace expansion may produce.
    fn max_brace_words(&self) -> usize {
        brace::MAX_RESULTS
    }
    /// Most directory reads one pathname expansion may make.
    fn max_glob_reads(&self) -> usize {
        glob::MAX_DIR_READS
    }
    /// The run's memory budget (`Limits::max_memory_bytes`).
    fn max_memory_bytes(&self) -> u64 {
        u64::MAX
    }
    /// Whether a value of `bytes` more fits the run's memory budget beside what the
    /// shell holds already; `Err` names the limit.
    fn check_memory(&mut self, bytes: u64) -> Result<(), String> {
        let _ = bytes;
        Ok(())
    }
    /// Prints a non-fatal diagnostic (`bash: line N: msg`).
    fn warn(&mut self, msg: &str);
    /// Reports an error bash raises through its `report_error`, which goes on after it
    /// except under `set -e` (see [`ErrorKind::Report`]).
    fn report_error(&mut self, msg: &str) -> ExpResult<()> {
        self.warn(msg);
        Ok(())
    }
    /// The value of `name` when it is a plain stored variable (no nameref, not
    /// computed when read): `Some(None)` for one declared but unset. `None` leaves it
    /// to [`Host::var`] and [`Host::nameref_target`]; this saves a lookup and a copy of
    /// the variable on every `$name`.
    fn plain_scalar(&mut self, name: &str) -> Option<Option<String>> {
        let _ = name;
        None
    }
    /// Whether `text` holds a character of IFS, without copying IFS (unset IFS, or
    /// one declared without a value, is space, tab and newline).
    fn ifs_hits(&mut self, text: &str) -> bool {
        match self.var("IFS").and_then(|v| v.ifs_text()) {
            Some(ifs) => text.contains(|c| ifs.contains(c)),
            None => text.contains([' ', '\t', '\n']),
        }
    }
}

/// How a piece of expanded text behaves in splitting and globbing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Q {
    /// Unquoted literal text: pattern characters are active; never split.
    Lit,
    /// Quoted text: taken literally.
    Quoted,
    /// The unquoted result of an expansion: split on IFS, pattern characters active.
    Exp,
}

/// A run of expanded text, or a field boundary forced by `"$@"`.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Text(String, Q),
    Break,
}

/// The text [`Expander::subscripts_once`] is building, and the subscript it is
/// gathering: the parts after a `[`, expanded together once the matching `]` comes.
#[derive(Default)]
struct OnceState {
    text: String,
    sub: Option<OnceSub>,
}

/// A subscript being gathered: its parts so far, the literal text not yet made a
/// part, how deep in brackets it is, and what the scan for its `]` is inside of.
#[derive(Default)]
struct OnceSub {
    parts: Vec<WordPart>,
    lit: String,
    depth: usize,
    in_sq: bool,
    escaped: bool,
}

impl OnceSub {
    /// Reads literal text into the subscript; returns how much of `s` it took (all of
    /// it, or through the `]` that closes the subscript).
    fn literal(&mut self, s: &str, quotes: bool) -> (usize, bool) {
        for (i, c) in s.char_indices() {
            if self.escaped {
                self.escaped = false;
            } else if c == '\\' && !self.in_sq && quotes {
                self.escaped = true;
            } else if c == '\'' && quotes {
                self.in_sq = !self.in_sq;
            } else if !self.in_sq && c == '[' {
                self.depth += 1;
            } else if !self.in_sq && c == ']' {
                self.depth -= 1;
                if self.depth == 0 {
                    return (i + 1, true);
                }
            }
            self.lit.push(c);
        }
        (s.len(), false)
    }

    fn into_parts(mut self) -> Vec<WordPart> {
        if !self.lit.is_empty() {
            self.parts
                .push(WordPart::Lit(std::mem::take(&mut self.lit)));
        }
        self.parts
    }
}

/// Quotes a subscript's expanded text with a backslash before each character that
/// the evaluator's own reading of the subscript would act on (bash's table for
/// `expand_array_subscript`): read as a key, every backslash goes; read as an index
/// (as in double quotes), one before a `'`, `[`, `]` or `~` stays, and the evaluator
/// rejects it.
fn quote_for_subscript(s: &str) -> String {
    if !s.contains(['\\', '$', '`', '"', '\'', '[', ']', '~']) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if matches!(c, '\\' | '$' | '`' | '"' | '\'' | '[' | ']' | '~') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Whether expanding `parts` as arithmetic text would do more than remove quotes: bash
/// expands the text only when it holds a `$`, a backquote or a `~` (an escaped one
/// too); otherwise it only removes quotes, as inside double quotes.
fn arith_needs_expansion(parts: &[WordPart]) -> bool {
    parts.iter().any(|p| match p {
        WordPart::Lit(s) | WordPart::Quoted(s) => s.contains(['$', '`', '~']),
        WordPart::Escaped(s) => s.contains(['$', '`']),
        WordPart::DQuoted(inner) => arith_needs_expansion(inner),
        _ => true,
    })
}

/// The text of parts that need no expansion, their quotes removed.
fn push_unexpanded(parts: &[WordPart], out: &mut String) {
    for p in parts {
        match p {
            WordPart::Lit(s) | WordPart::Quoted(s) | WordPart::Escaped(s) => out.push_str(s),
            WordPart::DQuoted(inner) => push_unexpanded(inner, out),
            _ => {}
        }
    }
}

/// A field after splitting: its text runs with their quoting.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Field {
    pub frags: Vec<(String, Q)>,
}

impl Field {
    pub fn text(&self) -> String {
        self.frags.iter().map(|(t, _)| t.as_str()).collect()
    }
    /// [`Field::text`], taking a lone run as it is.
    fn into_text(mut self) -> String {
        match self.frags.as_mut_slice() {
            [(t, _)] => std::mem::take(t),
            _ => self.text(),
        }
    }
    /// The field as a pattern: quoted text has its special characters escaped.
    pub fn pattern(&self) -> String {
        let mut s = String::new();
        for (t, q) in &self.frags {
            match q {
                Q::Quoted => s.push_str(&pattern::escape(t)),
                _ => s.push_str(t),
            }
        }
        s
    }
    fn has_glob(&self, extglob: bool) -> bool {
        self.frags
            .iter()
            .any(|(t, q)| *q != Q::Quoted && t.contains(['*', '?', '[', '(']))
            && pattern::has_meta(&self.pattern(), extglob)
    }
}

/// What the expansion of a `${v:-word}` word has met, while it is on.
#[derive(Clone, Copy, Default)]
struct RhsAt {
    on: bool,
    /// An unquoted `$@` (or `${a[@]}`) list.
    unquoted: bool,
    /// A quoted one: its elements are words of their own, as everywhere.
    quoted: bool,
}

/// The expander: a host and the expansion state of one word list.
pub struct Expander<'h, H: Host + ?Sized> {
    pub host: &'h mut H,
    /// Expanding an assignment value: `$*` joins with IFS, `$@` with spaces.
    pub assign_ctx: bool,
    /// Expanding the word of an unquoted `${v:-word}` or `${v:+word}` while IFS is set,
    /// not null and does not start with a space: an unquoted `$@` there keeps each
    /// element whole (see [`param`]'s `word_pieces`).
    rhs_at: RhsAt,
    /// Bytes of text this expander has made (for the memory check in `part`).
    made: u64,
}

/// Text an expansion makes before the memory budget is consulted: smaller values
/// cost nothing to check.
const MEMORY_CHECK_FROM: u64 = 1 << 20;

impl<'h, H: Host + ?Sized> Expander<'h, H> {
    pub fn new(host: &'h mut H) -> Self {
        Expander {
            host,
            assign_ctx: false,
            rhs_at: RhsAt::default(),
            made: 0,
        }
    }

    /// Expands command words into fields: all expansions, splitting and globbing.
    pub fn words(&mut self, words: &[Word]) -> ExpResult<Vec<String>> {
        let mut out = Vec::with_capacity(words.len());
        for w in words {
            self.word_into(w, &mut out)?;
        }
        Ok(out)
    }

    /// Expands one word into fields (appended to `out`).
    pub fn word_into(&mut self, w: &Word, out: &mut Vec<String>) -> ExpResult<()> {
        // Fast path: a plain literal word.
        if let [WordPart::Lit(s)] = w.parts.as_slice()
            && !s.contains(['{', '*', '?', '[', '\\'])
            && !(self.host.opts().extglob && s.contains('('))
        {
            out.push(s.clone());
            return Ok(());
        }
        for w in self.braces(w)?.iter() {
            let mut pieces = self.parts(&w.parts, false)?;
            // One piece that splitting and globbing leave whole (quoted text, or
            // unquoted text with no pattern character and, if expanded, no IFS
            // character) is the field itself, or no field when empty and unquoted.
            if let [Piece::Text(t, q)] = pieces.as_mut_slice() {
                let q = *q;
                let whole = q == Q::Quoted
                    || (!t.contains(['*', '?', '[', '('])
                        && (q == Q::Lit || !self.host.ifs_hits(t)));
                if whole {
                    if q == Q::Quoted || !t.is_empty() {
                        out.push(std::mem::take(t));
                    }
                    continue;
                }
            }
            let fields = self.split(pieces);
            for f in fields {
                self.glob_field(f, out)?;
            }
        }
        Ok(())
    }

    /// Brace expansion of `w` under the host's bound (exceeding it ends the script).
    pub fn braces<'w>(&mut self, w: &'w Word) -> ExpResult<std::borrow::Cow<'w, [Word]>> {
        if self.host.opts().nobrace {
            return Ok(std::borrow::Cow::Borrowed(std::slice::from_ref(w)));
        }
        let max_bytes = usize::try_from(self.host.max_memory_bytes()).unwrap_or(usize::MAX);
        brace::expand_bounded(w, self.host.max_brace_words(), max_bytes).map_err(|e| match e {
            brace::BraceError::TooMany(e) => {
                ExpandError::passthrough(format!("\u{0}{e}"), ErrorKind::Fatal(126))
            }
            brace::BraceError::Memory(max) => ExpandError::passthrough(
                format!("\u{0}memory limit exceeded ({max} bytes)"),
                ErrorKind::Fatal(126),
            ),
            brace::BraceError::Reread(m) => ExpandError::abort(m),
        })
    }

    /// Expands a word to one string with no splitting or globbing (assignments,
    /// here-documents, `[[ ]]` operands, `case` words).
    pub fn string(&mut self, w: &Word) -> ExpResult<String> {
        if let [WordPart::Lit(s)] = w.parts.as_slice() {
            return Ok(s.clone());
        }
        let pieces = self.parts(&w.parts, false)?;
        Ok(join_pieces(pieces))
    }

    /// Expands a word as an assignment value: like [`string`](Self::string), except that
    /// `"$@"` and `${a[@]}` join with spaces.
    pub fn assign_value(&mut self, w: &Word) -> ExpResult<String> {
        self.assign_ctx = true;
        let r = self.string(w);
        self.assign_ctx = false;
        r
    }

    /// Expands a word into a pattern: quoted characters are escaped.
    pub fn pattern(&mut self, w: &Word) -> ExpResult<String> {
        Ok(self.pattern_traced(w, false)?.0)
    }

    /// Expands the replacement of `${x/pat/rep}` into pattern form with `&` escaped
    /// where it was quoted, so that only an unquoted `&` stands for the matched text.
    pub fn replacement(&mut self, w: &Word) -> ExpResult<String> {
        let pieces = self.parts(&w.parts, false)?;
        let mut s = String::new();
        for p in pieces {
            match p {
                Piece::Text(t, Q::Quoted) => {
                    for c in pattern::escape(&t).chars() {
                        if c == '&' {
                            s.push('\\');
                        }
                        s.push(c);
                    }
                }
                Piece::Text(t, _) => s.push_str(&t),
                Piece::Break => s.push(' '),
            }
        }
        Ok(s)
    }

    /// Expands a pattern word; with `trace`, also the text `set -x` shows for it
    /// (every quoted character behind a backslash, but `\x01` and `\x7f`, which bash's
    /// own quoting of those bytes stands in front of instead).
    pub fn pattern_traced(&mut self, w: &Word, trace: bool) -> ExpResult<(String, String)> {
        if let [WordPart::Lit(s)] = w.parts.as_slice() {
            return Ok((s.clone(), if trace { s.clone() } else { String::new() }));
        }
        let pieces = self.parts(&w.parts, false)?;
        let mut s = String::new();
        let mut shown = String::new();
        for p in pieces {
            match p {
                Piece::Text(t, Q::Quoted) => {
                    s.push_str(&pattern::escape(&t));
                    if trace {
                        for c in t.chars() {
                            if !matches!(c, '\x01' | '\x7f') {
                                shown.push('\\');
                            }
                            shown.push(c);
                        }
                    }
                }
                Piece::Text(t, _) => {
                    s.push_str(&t);
                    if trace {
                        shown.push_str(&t);
                    }
                }
                Piece::Break => {
                    s.push(' ');
                    shown.push(' ');
                }
            }
        }
        Ok((s, shown))
    }

    /// Expands a word for a redirection target: one field required.
    pub fn redirect_target(&mut self, w: &Word) -> ExpResult<Result<String, String>> {
        let mut out = Vec::new();
        for w in self.braces(w)?.iter() {
            let pieces = self.parts(&w.parts, false)?;
            for f in self.split(pieces) {
                self.glob_field(f, &mut out)?;
            }
        }
        if out.len() == 1 {
            Ok(Ok(out.pop().unwrap_or_default()))
        } else {
            Ok(Err(crate::syntax::printer::word_to_string(w)))
        }
    }

    /// Expands the parts of a word into pieces.
    pub fn parts(&mut self, parts: &[WordPart], in_dq: bool) -> ExpResult<Vec<Piece>> {
        if let Some(b) = early_bad_subst(parts) {
            return Err(ExpandError::abort(b.message()));
        }
        let mut out = Vec::new();
        for p in parts {
            self.part(p, in_dq, &mut out)?;
        }
        Ok(out)
    }

    /// Expands one part onto `out`, checking the run's memory budget once the text
    /// this expansion has made reaches [`MEMORY_CHECK_FROM`] (`x=$x$x` stops before
    /// the copies it makes fill memory).
    fn part(&mut self, p: &WordPart, in_dq: bool, out: &mut Vec<Piece>) -> ExpResult<()> {
        let start = out.len();
        self.part_unchecked(p, in_dq, out)?;
        // A quoted part's pieces were counted by the parts inside it.
        if !matches!(p, WordPart::DQuoted(_)) {
            let made: usize = out
                .get(start..)
                .unwrap_or_default()
                .iter()
                .map(|p| match p {
                    Piece::Text(t, _) => t.len(),
                    Piece::Break => 1,
                })
                .sum();
            self.count_made(made)?;
        }
        Ok(())
    }

    /// Counts `made` more bytes of expanded text against the memory budget.
    fn count_made(&mut self, made: usize) -> ExpResult<()> {
        self.made = self.made.saturating_add(made as u64);
        // The pieces and the word joined from them are held at once.
        if self.made >= MEMORY_CHECK_FROM
            && let Err(m) = self.host.check_memory(self.made.saturating_mul(2))
        {
            return Err(ExpandError::passthrough(
                format!("\u{0}{m}"),
                ErrorKind::Fatal(126),
            ));
        }
        Ok(())
    }

    fn part_unchecked(&mut self, p: &WordPart, in_dq: bool, out: &mut Vec<Piece>) -> ExpResult<()> {
        let q_exp = if in_dq { Q::Quoted } else { Q::Exp };
        match p {
            WordPart::Lit(s) => out.push(Piece::Text(
                s.clone(),
                if in_dq { Q::Quoted } else { Q::Lit },
            )),
            WordPart::Quoted(s) | WordPart::Escaped(s) => {
                out.push(Piece::Text(s.clone(), Q::Quoted))
            }
            WordPart::DQuoted(inner) => {
                // An empty "" still makes a (quoted, empty) field, but "$@" with no
                // positional parameters makes none.
                let mut sub = Vec::new();
                for p in inner {
                    self.part(p, true, &mut sub)?;
                }
                if !(sub.is_empty() && inner.iter().any(is_at_expansion)) {
                    out.push(Piece::Text(String::new(), Q::Quoted));
                }
                out.extend(sub);
            }
            WordPart::Tilde(user) => {
                let text = match user.as_str() {
                    "+" => Some(
                        self.host
                            .var("PWD")
                            .and_then(Var::into_scalar)
                            .unwrap_or_else(|| self.host.cwd()),
                    ),
                    "-" => self.host.var("OLDPWD").and_then(Var::into_scalar),
                    "" => match self.host.var("HOME") {
                        Some(v) => v.into_scalar(),
                        None => self.host.home_dir(""),
                    },
                    u => self.host.home_dir(u),
                };
                match text {
                    Some(t) => out.push(Piece::Text(t, Q::Quoted)),
                    None => out.push(Piece::Text(format!("~{user}"), Q::Lit)),
                }
            }
            WordPart::Param(pe) => {
                if let Some(v) = param::simple_value(self, pe) {
                    out.push(Piece::Text(v, q_exp));
                    return Ok(());
                }
                let pieces = param::expand(self, pe, in_dq)?;
                out.extend(pieces);
            }
            WordPart::CmdSub(body, quoted) => {
                let s = if quoted.0.is_some() {
                    self.host.command_subst_backquoted(body)?
                } else {
                    self.host.command_subst(body)?
                };
                out.push(Piece::Text(without_trailing_newlines(s), q_exp));
            }
            WordPart::BadBackquote(text) => {
                let s = self.host.command_subst_text(text)?;
                out.push(Piece::Text(without_trailing_newlines(s), q_exp));
            }
            WordPart::Arith(a) => {
                let n = match self.arith_detailed(a)? {
                    Ok(n) => n,
                    Err(f) => {
                        let posix = self.host.posix_mode();
                        let mut e = ExpandError::from(f);
                        if posix && e.kind == ErrorKind::Abort {
                            e.kind = ErrorKind::Fatal(127);
                        }
                        return Err(e);
                    }
                };
                out.push(Piece::Text(n.to_string(), q_exp));
            }
            WordPart::BadSubst(b) => return Err(ExpandError::abort(b.message())),
            WordPart::ProcSub { input, body } => {
                let path = self.host.process_subst(*input, body)?;
                out.push(Piece::Text(path, Q::Quoted));
            }
        }
        Ok(())
    }

    /// Evaluates an arithmetic expression (expanding its text first when needed).
    pub fn arith(&mut self, a: &Arith) -> ExpResult<i64> {
        Ok(self.arith_detailed(a)??)
    }

    /// [`Expander::arith`] with the evaluator's failure kept apart from the expansion's,
    /// for `(( ))`, which reports the two differently.
    pub fn arith_detailed(&mut self, a: &Arith) -> ExpResult<Result<i64, ArithFail>> {
        if let Some(e) = &a.parsed {
            let text = match a.word.parts.as_slice() {
                [WordPart::Lit(s)] => s.as_str(),
                _ => "",
            };
            return Ok(arith::eval(e, text, self.host));
        }
        let text = self.arith_text(&a.word)?;
        Ok(arith::eval_str(&text, self.host))
    }

    /// Evaluates `a` whose word [`Expander::arith_text`] already expanded to `text`, so
    /// a caller that shows the text first (`set -x`) expands the word only once.
    pub fn arith_expanded(&mut self, a: &Arith, text: &str) -> Result<i64, ArithFail> {
        match &a.parsed {
            Some(e) => arith::eval(e, text, self.host),
            None => arith::eval_str(text, self.host),
        }
    }

    /// The text of an arithmetic word (read as [`crate::syntax::parse_arith_text`]
    /// reads it) after expansion, as bash's `expand_arith_string` makes it: with no
    /// `$`, backquote or `~` in it, the text with its double quotes removed (a `'`
    /// stays, for the evaluator to reject); otherwise expanded, each array subscript in
    /// it expanded as a word and quoted (see [`Expander::subscripts_once`]).
    pub fn arith_text(&mut self, w: &Word) -> ExpResult<String> {
        match w.parts.as_slice() {
            [WordPart::Lit(s)] if !s.contains('[') || !s.contains(['$', '`', '~']) => {
                return Ok(s.clone());
            }
            parts if !arith_needs_expansion(parts) => {
                let mut out = String::new();
                push_unexpanded(parts, &mut out);
                return Ok(out);
            }
            _ => {}
        }
        self.subscripts_once(w)
    }

    /// The arithmetic text an indexed array's subscript `w` (read as a word is) stands
    /// for: bash reads a subscript's source as arithmetic text, where a `'` is an
    /// ordinary character, so a word with quotes in it is read again that way.
    pub fn index_text(&mut self, w: &Word) -> ExpResult<String> {
        let reread = w.parts.iter().any(|p| match p {
            WordPart::Quoted(_) => true,
            WordPart::Escaped(s) => s.contains(|c| !matches!(c, '$' | '`' | '"' | '\\')),
            _ => false,
        });
        if !reread {
            return self.arith_text(w);
        }
        let src = crate::syntax::printer::word_to_string(w);
        match crate::syntax::parse_arith_text(&src, Default::default()) {
            Ok(aw) => self.arith_text(&aw),
            Err(_) => Ok(src),
        }
    }

    /// Expands a word whose text the arithmetic evaluator reads next (`$(( ))`, `(( ))`,
    /// `[[ -v ]]` and `[[ -eq ]]` operands) as bash's expansion for arithmetic does:
    /// each array subscript in it (`[` to its matching `]`) is expanded as a word, as
    /// an associative array's key is (quotes removed), and whatever it gave is quoted
    /// with backslashes, so the evaluator, which expands the subscript it reads again,
    /// takes it literally: `(( A[$k]++ ))` with `k='$(cmd)'` names the key `$(cmd)`
    /// and runs nothing.
    pub fn subscripts_once(&mut self, w: &Word) -> ExpResult<String> {
        let mut st = OnceState::default();
        self.once_parts(&w.parts, &mut st)?;
        self.end_subscript(&mut st)?;
        Ok(st.text)
    }

    fn once_parts(&mut self, parts: &[WordPart], st: &mut OnceState) -> ExpResult<()> {
        for p in parts {
            if let Some(sub) = &mut st.sub {
                match p {
                    WordPart::Lit(s) => self.once_literal(s, st)?,
                    _ => {
                        if !sub.lit.is_empty() {
                            sub.parts.push(WordPart::Lit(std::mem::take(&mut sub.lit)));
                        }
                        sub.parts.push(p.clone());
                    }
                }
                continue;
            }
            match p {
                WordPart::Lit(s) => self.once_literal(s, st)?,
                WordPart::Quoted(s) | WordPart::Escaped(s) => st.text.push_str(s),
                // A subscript begun inside the quotes ends there (bash expands the
                // quoted text on its own).
                WordPart::DQuoted(inner) => {
                    self.once_parts(inner, st)?;
                    self.end_subscript(st)?;
                }
                WordPart::Param(pe) => match param::simple_value(self, pe) {
                    Some(v) => {
                        self.count_made(v.len())?;
                        st.text.push_str(&v);
                    }
                    None => {
                        let pieces = self.parts(std::slice::from_ref(p), true)?;
                        st.text.push_str(&join_pieces(pieces));
                    }
                },
                other => {
                    let pieces = self.parts(std::slice::from_ref(other), true)?;
                    st.text.push_str(&join_pieces(pieces));
                }
            }
        }
        Ok(())
    }

    /// Literal text: copied outside subscripts, where a `[` starts one; gathered into
    /// the subscript inside one, whose `]` ends it.
    fn once_literal(&mut self, mut s: &str, st: &mut OnceState) -> ExpResult<()> {
        while !s.is_empty() {
            match &mut st.sub {
                Some(sub) => {
                    let (took, closed) = sub.literal(s, true);
                    s = s.get(took..).unwrap_or_default();
                    if closed && let Some(sub) = st.sub.take() {
                        let key = self.subscript_word_text(sub.into_parts())?;
                        st.text.push('[');
                        st.text.push_str(&quote_for_subscript(&key));
                        st.text.push(']');
                    }
                }
                None => match s.find('[') {
                    Some(i) => {
                        st.text.push_str(&s[..i]);
                        st.sub = Some(OnceSub {
                            depth: 1,
                            ..OnceSub::default()
                        });
                        s = &s[i + 1..];
                    }
                    None => {
                        st.text.push_str(s);
                        s = "";
                    }
                },
            }
        }
        Ok(())
    }

    /// A subscript whose `]` never came is text like the rest.
    fn end_subscript(&mut self, st: &mut OnceState) -> ExpResult<()> {
        if let Some(sub) = st.sub.take() {
            st.text.push('[');
            let parts = sub.into_parts();
            let pieces = self.parts(&parts, true)?;
            st.text.push_str(&join_pieces(pieces));
        }
        Ok(())
    }

    /// A subscript's parts expanded as a word (bash's `expand_subscript_string`):
    /// quotes removed, no splitting. Parts read as arithmetic text, where a `'` or a
    /// backslash is literal, are read again as a word first.
    fn subscript_word_text(&mut self, parts: Vec<WordPart>) -> ExpResult<String> {
        let w = Word { parts };
        let reread = w
            .parts
            .iter()
            .any(|p| matches!(p, WordPart::Lit(s) if s.contains(['\'', '\\'])));
        if !reread {
            return self.string(&w);
        }
        let src = crate::syntax::printer::word_to_string(&w);
        match crate::syntax::parse_subscript_word(&src, Default::default()) {
            Ok(word) => self.string(&word),
            Err(_) => Ok(src),
        }
    }

    /// The IFS characters (`local IFS` without a value is IFS unset).
    fn ifs(&mut self) -> Option<String> {
        Some(
            self.host
                .var("IFS")
                .and_then(|v| v.ifs_text())
                .unwrap_or_else(|| " \t\n".to_owned()),
        )
    }

    /// Field splitting (bash manual, "Word Splitting").
    pub fn split(&mut self, pieces: Vec<Piece>) -> Vec<Field> {
        let ifs = self.ifs().unwrap_or_default();
        let mut fields = Vec::new();
        let mut cur = Field::default();
        let mut open = false;
        let mut ws_emitted = false;
        for p in pieces {
            match p {
                Piece::Break => {
                    if open {
                        fields.push(std::mem::take(&mut cur));
                        open = false;
                    }
                    ws_emitted = false;
                }
                // Text with no IFS character in it is one run, taken whole.
                Piece::Text(t, Q::Exp) if !ifs.is_empty() && !t.contains(|c| ifs.contains(c)) => {
                    if !t.is_empty() {
                        cur.frags.push((t, Q::Exp));
                        open = true;
                        ws_emitted = false;
                    }
                }
                Piece::Text(t, Q::Exp) if !ifs.is_empty() => {
                    let mut run = String::new();
                    for c in t.chars() {
                        if ifs.contains(c) {
                            if !run.is_empty() {
                                cur.frags.push((std::mem::take(&mut run), Q::Exp));
                                open = true;
                            }
                            let is_ws = matches!(c, ' ' | '\t' | '\n');
                            if is_ws {
                                if open {
                                    fields.push(std::mem::take(&mut cur));
                                    open = false;
                                    ws_emitted = true;
                                }
                            } else {
                                if open || !ws_emitted {
                                    fields.push(std::mem::take(&mut cur));
                                }
                                open = false;
                                ws_emitted = false;
                            }
                        } else {
                            run.push(c);
                            ws_emitted = false;
                        }
                    }
                    if !run.is_empty() {
                        cur.frags.push((run, Q::Exp));
                        open = true;
                    }
                }
                Piece::Text(t, q) => {
                    if !t.is_empty() || q == Q::Quoted {
                        open = true;
                        ws_emitted = false;
                    }
                    if !t.is_empty() {
                        cur.frags.push((t, q));
                    }
                }
            }
        }
        if open {
            fields.push(cur);
        }
        fields
    }

    /// Pathname expansion of one field.
    fn glob_field(&mut self, f: Field, out: &mut Vec<String>) -> ExpResult<()> {
        let opts = self.host.opts();
        if opts.noglob || !f.has_glob(opts.extglob) {
            out.push(f.into_text());
            return Ok(());
        }
        let pat = f.pattern();
        // A non-empty GLOBIGNORE removes matching names (assigning it turned on
        // dotglob).
        let ignore: Vec<pattern::Pattern> =
            match self.host.var("GLOBIGNORE").and_then(Var::into_scalar) {
                Some(g) if !g.is_empty() => pattern::split_outside_brackets(&g, ':')
                    .into_iter()
                    .filter(|p| !p.is_empty())
                    .map(|p| {
                        pattern::Pattern::new(
                            &p,
                            pattern::MatchOpts {
                                extglob: opts.extglob,
                                nocase: opts.nocaseglob,
                                dot_special: true,
                                bytes: opts.bytes,
                            },
                        )
                    })
                    .collect(),
                _ => Vec::new(),
            };
        let max_reads = self.host.max_glob_reads();
        let mut matches = glob::glob_limited(self.host, &pat, opts, max_reads).map_err(|n| {
            ExpandError::passthrough(
                format!("\u{0}glob limit exceeded ({n} directory reads)"),
                ErrorKind::Fatal(126),
            )
        })?;
        if !ignore.is_empty() {
            matches.retain(|m| {
                let base = m.rsplit('/').next().unwrap_or(m);
                base != "." && base != ".." && !ignore.iter().any(|p| p.matches(m))
            });
        }
        if matches.is_empty() {
            if opts.failglob {
                // Like bash, the rest of the command line is abandoned.
                return Err(ExpandError {
                    message: format!("no match: {}", f.text()),
                    kind: ErrorKind::Abort,
                });
            }
            if !opts.nullglob {
                out.push(f.text());
            }
        } else {
            out.extend(matches);
        }
        Ok(())
    }
}

/// Concatenates pieces (field breaks become spaces).
pub fn join_pieces(mut pieces: Vec<Piece>) -> String {
    // One piece is the text itself.
    if let [Piece::Text(t, _)] = pieces.as_mut_slice() {
        return std::mem::take(t);
    }
    let len = pieces
        .iter()
        .map(|p| match p {
            Piece::Text(t, _) => t.len(),
            Piece::Break => 1,
        })
        .sum();
    let mut s = String::with_capacity(len);
    for p in pieces {
        match p {
            Piece::Text(t, _) => s.push_str(&t),
            Piece::Break => s.push(' '),
        }
    }
    s
}

/// Whether a part is `$@`, `${a[@]}` or another expansion that yields separate words
/// (and so nothing at all when empty, even inside double quotes).
/// A bad substitution bash finds when it scans the whole word, before anything in it
/// expands (see [`crate::syntax::BadSubst::early`]).
fn early_bad_subst(parts: &[WordPart]) -> Option<&crate::syntax::BadSubst> {
    parts.iter().find_map(|p| match p {
        WordPart::BadSubst(b) if b.early => Some(&**b),
        WordPart::DQuoted(inner) => early_bad_subst(inner),
        _ => None,
    })
}

fn is_at_expansion(p: &WordPart) -> bool {
    match p {
        WordPart::Param(pe) => {
            matches!(pe.param, crate::syntax::Param::Special('@'))
                || matches!(pe.index, Some(crate::syntax::Subscript::At))
                || matches!(pe.op, crate::syntax::ParamOp::Names { at: true })
        }
        _ => false,
    }
}

/// A command substitution's output without its trailing newlines.
fn without_trailing_newlines(mut s: String) -> String {
    while s.ends_with('\n') {
        s.pop();
    }
    s
}
