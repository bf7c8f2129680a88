//! Turns an AST back into bash source. Used for `declare -f`, `type` and traces, and
//! tested by the round-trip property parse(print(ast)) == ast. Function bodies are laid
//! out the way bash prints them (four-space indents, `;` after simple commands).

use super::ast::*;

thread_local! {
    /// Here-document bodies met while printing the current line of
    /// [`script_to_string`] (`None` outside it): they follow the line, as in bash.
    static PENDING_DOCS: std::cell::RefCell<Option<Vec<PendingDoc>>> =
        const { std::cell::RefCell::new(None) };
    /// Whether a here-document printed since the innermost `$(` began has a body line
    /// that bash would take as its end inside `$( )` (see [`ends_early_in_comsub`]).
    static DOC_ENDS_EARLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Whether an unending body (see [`PendingDoc::unending`]) waits for the end of
    /// the current line: every here-document after it on the line had an empty body.
    static UNENDING_QUEUED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// In a function's layout, a list just ended with a here-document's delimiter
    /// line: bash leaves out the next `;` (`done` and the next command on its line).
    static ML_AFTER_DOC: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Printing a function for the environment ([`function_env_value`]): every
    /// indented line gets one space, as bash's FUNC_EXTERNAL layout does.
    static ONE_SPACE_INDENT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Laying out the body of a `$( )` as bash's parser prints it back (outside any
    /// function definition): lists stay on their line (`a; b`) and `{ a; }` on one,
    /// while compound commands still break their lines.
    static COMSUB_LAYOUT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// In [`COMSUB_LAYOUT`], the newlines between commands stay (the text of `$( )`);
    /// elsewhere (`jobs`, `$BASH_COMMAND`) they print as `; `.
    static KEEP_NEWLINES: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// A here-document was laid out since this was last cleared.
    static SAW_DOC: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Printing as bash's parser keeps the text (see [`internal_quoting`]).
    static CTL_SHOWN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs a printer the way bash shows a command in `$BASH_COMMAND` and in the traced
/// heads of `for`, `case` and `select`: its parser quotes each `\x01` or `\x7f` byte of
/// the source text (one a backslash escapes excepted) with a `\x01`, and those places
/// show that quoting, where `declare -f` removes it.
pub fn internal_quoting<T>(print: impl FnOnce() -> T) -> T {
    let outer = CTL_SHOWN.replace(true);
    let out = print();
    CTL_SHOWN.set(outer);
    out
}

/// Pushes source text, quoted as [`internal_quoting`] asks.
fn push_src(s: &str, out: &mut String) {
    if !CTL_SHOWN.get() {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        push_src_char(c, out);
    }
}

fn push_src_char(c: char, out: &mut String) {
    if CTL_SHOWN.get() && matches!(c, '\x01' | '\x7f') {
        out.push('\x01');
    }
    out.push(c);
}

/// A here-document's printed body and delimiter line, waiting for the end of its line.
struct PendingDoc {
    text: String,
    /// The delimiter holds a newline, so no line ends the body: it ran to the end of
    /// the text, or of the backquoted text holding it. A command substitution holding
    /// one is printed in backquotes ([`command_sub`]); one left open in `<( )` was
    /// read after the enclosing line, and is printed there.
    unending: bool,
    /// It came out of a `$( )` on this line, as an unending body.
    carried: bool,
}

/// Prints a whole script, one complete command per line, each followed by the bodies
/// of its here-documents.
pub fn script_to_string(s: &Script) -> String {
    isolated(|| script_text(s, false).text)
}

/// Runs one of the public printers from the state a fresh print starts in, and leaves
/// the state as it found it: the parser prints words for its messages, and a word
/// holding `<( )` with an unending here-document would otherwise leave that body
/// queued for whatever is printed next on the thread.
fn isolated<T>(print: impl FnOnce() -> T) -> T {
    let docs = PENDING_DOCS.with(|p| p.replace(None));
    let early = DOC_ENDS_EARLY.with(|f| f.replace(false));
    let queued = UNENDING_QUEUED.replace(false);
    let after_doc = ML_AFTER_DOC.replace(false);
    let out = print();
    ML_AFTER_DOC.set(after_doc);
    PENDING_DOCS.with(|p| p.replace(docs));
    DOC_ENDS_EARLY.with(|f| f.set(early));
    UNENDING_QUEUED.set(queued);
    out
}

/// A script as printed by [`script_text`].
struct ScriptText {
    text: String,
    /// It ends with a here-document's delimiter line, so whatever closes it (such as
    /// the `)` of `$( )`) must start a new line.
    ends_with_doc: bool,
    /// It ends with an unending body (see [`PendingDoc::unending`]).
    unending: bool,
}

/// The text of a script. With `carry`, unending bodies are handed to the enclosing
/// line's queue instead of being printed (see [`PendingDoc::unending`]).
fn script_text(s: &Script, carry: bool) -> ScriptText {
    let saved = PENDING_DOCS.with(|p| p.replace(Some(Vec::new())));
    let mut out = ScriptText {
        text: String::new(),
        ends_with_doc: false,
        unending: false,
    };
    let mut carried = Vec::new();
    for (i, l) in s.commands.iter().enumerate() {
        if i > 0 {
            out.text.push('\n');
        }
        list_inline(l, &mut out.text);
        let docs = PENDING_DOCS.with(|p| p.borrow_mut().as_mut().map(std::mem::take));
        let mut docs = docs.unwrap_or_default();
        if carry {
            carried.extend(
                docs.extract_if(.., |d| d.unending)
                    .map(|d| PendingDoc { carried: true, ..d }),
            );
        } else {
            UNENDING_QUEUED.set(false);
        }
        // Bodies left open in `$( )` are read before the line's own.
        docs.sort_by_key(|d| !d.carried);
        out.ends_with_doc = !docs.is_empty();
        for d in docs {
            out.text.push('\n');
            out.text.push_str(&d.text);
            if d.unending {
                // It took the rest of the text: any later body was empty.
                out.unending = true;
                break;
            }
        }
    }
    PENDING_DOCS.with(|p| {
        p.replace(saved);
        if let Some(v) = p.borrow_mut().as_mut() {
            v.extend(carried);
        }
    });
    out
}

/// The body of `<( )` or `>( )` and its closing parenthesis. A body left open there
/// and read to the end of the text follows the enclosing line.
fn subst_body(s: &Script, out: &mut String) {
    let printed = script_text(s, true);
    out.push_str(&printed.text);
    if printed.ends_with_doc {
        out.push('\n');
    }
    out.push(')');
}

/// A one-line redirection; a here-document's body is queued for the end of the line.
fn redirect_inline(r: &Redirect, out: &mut String) {
    redirect(r, out);
    if let RedirTarget::HereDoc(h) = &r.target {
        if ends_early_in_comsub(h, h.text()) {
            DOC_ENDS_EARLY.with(|f| f.set(true));
        }
        let doc = if UNENDING_QUEUED.get() {
            // Read after a body that took the rest of the text, it was empty; kept
            // out of its `$( )` so that no newline there starts the unending body.
            PendingDoc {
                text: String::new(),
                unending: true,
                carried: false,
            }
        } else {
            let unending = h.delimiter.contains('\n');
            UNENDING_QUEUED.set(unending);
            PendingDoc {
                text: doc_lines(h),
                unending,
                carried: false,
            }
        };
        PENDING_DOCS.with(|p| {
            if let Some(v) = p.borrow_mut().as_mut() {
                v.push(doc);
            }
        });
    }
}

/// A here-document's body and delimiter line as printed after its command's line. A
/// delimiter that holds a newline can never match a line, so such a body ran to the
/// end of the text and is printed without one (which would read back as body); its
/// own last newline stays, or a last empty line would be lost.
fn doc_lines(h: &HereDoc) -> String {
    let mut out = String::new();
    push_src(h.text(), &mut out);
    if !h.delimiter.contains('\n') {
        push_src(&h.delimiter, &mut out);
    }
    out
}

/// Whether a here-document's body has a line that starts with its delimiter and holds
/// a `)`: inside `$( )` bash ends the body there, so a body read elsewhere (in
/// backquotes) can keep such a line only outside `$( )`.
fn ends_early_in_comsub(h: &HereDoc, body: &str) -> bool {
    body.split('\n').any(|line| {
        line.strip_prefix(h.delimiter.as_str())
            .is_some_and(|rest| rest.contains(')'))
    })
}

/// A command substitution: `$(...)`, or backquotes when a here-document inside has a
/// line that would end it early within `$( )` (such a body came from backquotes), or
/// an unending body: in backquotes that ends with the quoted text, where after `$(`
/// it would run on past the `)`.
/// `text` in backquotes: inside them a backslash escapes only `\`, `` ` `` and `$`, so
/// doubling the backslashes and escaping the backquotes gives the text back as it was.
fn backquoted(text: &str, out: &mut String) {
    out.push('`');
    for c in text.chars() {
        if matches!(c, '\\' | '`') {
            out.push('\\');
        }
        push_src_char(c, out);
    }
    out.push('`');
}

fn command_sub(s: &Script, out: &mut String) {
    if let Some(text) = comsub_layout(s) {
        out.push_str("$(");
        // `$((` would read as arithmetic.
        if text.starts_with('(') {
            out.push(' ');
        }
        out.push_str(&text);
        out.push(')');
        return;
    }
    let outer = DOC_ENDS_EARLY.with(|f| f.replace(false));
    let outer_unending = UNENDING_QUEUED.replace(false);
    let printed = script_text(s, false);
    UNENDING_QUEUED.set(outer_unending);
    let text = printed.text;
    if DOC_ENDS_EARLY.with(|f| f.get()) || printed.unending {
        backquoted(&text, out);
    } else {
        out.push_str("$(");
        out.push_str(&text);
        if printed.ends_with_doc {
            out.push('\n');
        }
        out.push(')');
    }
    DOC_ENDS_EARLY.with(|f| f.set(outer));
}

/// The body of `$( )` as bash 5.2 prints it (it keeps the text its parser prints back
/// from the parsed body): compound commands laid out as in a function from column 0,
/// lists and brace groups on one line. `None` for a body with a here-document, which
/// the one-line printer handles (its body lines must stay where they are read).
fn comsub_layout(s: &Script) -> Option<String> {
    let outer_layout = COMSUB_LAYOUT.replace(true);
    let outer_newlines = KEEP_NEWLINES.replace(true);
    let outer_indent = ONE_SPACE_INDENT.replace(false);
    let outer_after = ML_AFTER_DOC.replace(false);
    let outer_saw = SAW_DOC.replace(false);
    let mut text = String::new();
    for (i, l) in s.commands.iter().enumerate() {
        if i > 0 {
            let (after_bg, after_newline) = s.commands[i - 1]
                .items
                .last()
                .map_or((false, false), |it| (it.background, it.newline));
            text.push_str(match (after_bg, after_newline) {
                (true, _) => " ",
                (false, true) => "\n",
                (false, false) => "; ",
            });
        }
        text.push_str(&list_ml(l, 0));
    }
    let saw = SAW_DOC.replace(outer_saw);
    ML_AFTER_DOC.set(outer_after);
    ONE_SPACE_INDENT.set(outer_indent);
    KEEP_NEWLINES.set(outer_newlines);
    COMSUB_LAYOUT.set(outer_layout);
    (!saw).then_some(text)
}

/// Prints a list on one line (`a; b & c`).
pub fn list_to_string(l: &List) -> String {
    isolated(|| {
        let mut out = String::new();
        list_inline(l, &mut out);
        out
    })
}

fn list_inline(l: &List, out: &mut String) {
    for (i, item) in l.items.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        and_or(&item.and_or, out);
        if item.background {
            out.push_str(" &");
        } else if i + 1 < l.items.len() {
            out.push(';');
        }
    }
}

fn and_or(a: &AndOr, out: &mut String) {
    pipeline(&a.first, out);
    for (op, p) in &a.rest {
        out.push_str(match op {
            AndOrOp::And => " && ",
            AndOrOp::Or => " || ",
        });
        pipeline(p, out);
    }
}

fn pipeline(p: &Pipeline, out: &mut String) {
    match p.time {
        Some(TimeFlag::Default) => out.push_str("time "),
        Some(TimeFlag::Posix) => out.push_str("time -p "),
        None => {}
    }
    if p.negated {
        out.push_str("! ");
    }
    for (i, c) in p.commands.iter().enumerate() {
        if i > 0 {
            out.push_str(" | ");
        }
        command(c, out);
    }
}

/// Prints an asynchronous list the way `jobs` shows it: bash's layout outside a
/// function definition (`{ a; b; }` on its line, loops and `if` broken into lines).
pub fn job_to_string(a: &AndOr) -> String {
    isolated(|| {
        let outer = COMSUB_LAYOUT.replace(true);
        let newlines = KEEP_NEWLINES.replace(false);
        let (text, docs) = and_or_ml(a, 0);
        KEEP_NEWLINES.set(newlines);
        COMSUB_LAYOUT.set(outer);
        text + &docs
    })
}

/// Prints a command the way bash shows one outside a function definition (for
/// `$BASH_COMMAND` naming a subshell): lists on their line, compound commands inside
/// broken into lines.
pub fn command_layout(c: &Command) -> String {
    isolated(|| {
        let outer = COMSUB_LAYOUT.replace(true);
        let newlines = KEEP_NEWLINES.replace(false);
        let text = cmd_ml(c, 0);
        KEEP_NEWLINES.set(newlines);
        COMSUB_LAYOUT.set(outer);
        text
    })
}

/// Prints one command on one line.
pub fn command_to_string(c: &Command) -> String {
    isolated(|| {
        let mut out = String::new();
        command(c, &mut out);
        out
    })
}

/// A `(( ))` or `[[ ]]` command as `$BASH_COMMAND` shows it: bash notes it with its
/// redirections already in place, and leaves them out.
pub fn test_command_to_string(c: &Command) -> String {
    isolated(|| {
        let mut out = String::new();
        match &c.kind {
            CommandKind::Arith(a) => {
                out.push_str("((");
                arith_src(a, &mut out);
                out.push_str("))");
            }
            CommandKind::Cond(e) => {
                out.push_str("[[ ");
                cond(e, &mut out);
                out.push_str(" ]]");
            }
            _ => command(c, &mut out),
        }
        out
    })
}

/// Prints one command on one line followed by the bodies of its here-documents, each
/// line ended, as bash keeps it for `$BASH_COMMAND`.
pub fn command_with_docs(c: &Command) -> String {
    isolated(|| {
        let saved = PENDING_DOCS.with(|p| p.replace(Some(Vec::new())));
        let mut out = String::new();
        command(c, &mut out);
        let docs = PENDING_DOCS.with(|p| p.replace(saved)).unwrap_or_default();
        for d in &docs {
            out.push('\n');
            out.push_str(&d.text);
        }
        if !docs.is_empty() {
            out.push('\n');
        }
        out
    })
}

/// The head of a `for` or `select` loop as `$BASH_COMMAND` and `set -x` show it:
/// `for x in a "$b"`, and `"$@"` for a loop over the positional parameters. An
/// empty list keeps the blank after `in` (`select s in `), as bash prints it.
pub fn loop_head(keyword: &str, f: &ForClause) -> String {
    let mut out = format!("{keyword} {} in ", f.var);
    match &f.words {
        Some(ws) => {
            let words: Vec<String> = ws.iter().map(word_to_string).collect();
            out.push_str(&words.join(" "));
        }
        None => out.push_str("\"$@\""),
    }
    out
}

/// The head of a `case` as `$BASH_COMMAND` shows it (bash leaves a blank after `in`).
pub fn case_head(cc: &CaseClause) -> String {
    format!("case {} in ", word_to_string(&cc.word))
}

fn body(l: &List, out: &mut String) {
    out.push(' ');
    list_inline(l, out);
    out.push_str(terminator(l));
}

/// What ends a list before a reserved word (`then`, `do`, `fi`, `}`, ...): `;`, or
/// nothing after `&`, which ends it already (`e & then`; `e &; then` is an error).
/// Bash's printer skips the `;` the same way.
fn terminator(l: &List) -> &'static str {
    if l.items.last().is_some_and(|i| i.background) {
        ""
    } else {
        ";"
    }
}

/// Whether word `w` printed at the start of a command would read as a reserved word:
/// it is one (`{`, `if`), or starts with one and a metacharacter (`!(x)`, `!>(x)`).
fn reads_reserved(w: &Word) -> bool {
    let Some(WordPart::Lit(text)) = w.parts.first() else {
        return false;
    };
    super::parser::RESERVED_WORDS
        .iter()
        .any(|r| match text.strip_prefix(r) {
            Some("") => matches!(w.parts.get(1), None | Some(WordPart::ProcSub { .. })),
            Some(rest) => rest.starts_with(super::parser::is_meta),
            None => false,
        })
}

/// A simple command, with its redirections before its words when `redirects_first`.
fn simple(c: &Command, s: &SimpleCommand, redirects_first: bool, out: &mut String) {
    let mut first = true;
    let mut space = |out: &mut String| {
        if !first {
            out.push(' ');
        }
        first = false;
    };
    if redirects_first {
        for r in &c.redirects {
            space(out);
            redirect_inline(r, out);
        }
    }
    for a in &s.assigns {
        space(out);
        assign(a, out);
    }
    for w in &s.words {
        space(out);
        word(w, out);
    }
    if !redirects_first {
        for r in &c.redirects {
            space(out);
            redirect_inline(r, out);
        }
    }
}

/// The body of a coproc without a name, printed so that it does not read as one: a
/// simple command `c { x` (or `c{ x`) read from `coproc <f c { x` keeps its
/// redirections first, since `coproc c { x` names the coproc `c`. False when the body
/// needs no care.
fn coproc_body(cp: &Coproc, out: &mut String) -> bool {
    let CommandKind::Simple(s) = &cp.body.kind else {
        return false;
    };
    // The parser reads a name, then blanks, then looks for `(`, `{` or a reserved word
    // that opens a compound command.
    let opens_compound = |w: &Word| {
        w.as_literal()
            .is_some_and(|w| super::parser::COMPOUND_OPENERS.contains(&w))
            || matches!(w.parts.first(), Some(WordPart::Lit(t)) if t.starts_with(['(', '{']))
    };
    let reads_as_name = cp.name.is_none()
        && s.assigns.is_empty()
        && match s.words.first().map(|w| (w, w.parts.first())) {
            Some((w, Some(WordPart::Lit(text)))) => {
                let name_len = if text.starts_with(super::parser::is_name_start) {
                    text.find(|c| !super::parser::is_name_char(c))
                        .unwrap_or(text.len())
                } else {
                    0
                };
                let rest = &text[name_len..];
                name_len > 0
                    && if rest.is_empty() {
                        w.parts.len() == 1 && s.words.get(1).is_some_and(opens_compound)
                    } else {
                        rest.starts_with(['(', '{'])
                    }
            }
            _ => false,
        };
    if reads_as_name {
        simple(&cp.body, s, true, out);
    }
    reads_as_name
}

fn command(c: &Command, out: &mut String) {
    match &c.kind {
        CommandKind::Simple(s) => {
            // A command read as `<f {` or `<f !(x)` keeps its redirections first:
            // printed after the words, its first word would start the line and read as
            // reserved.
            let reserved_first =
                s.assigns.is_empty() && s.words.first().is_some_and(reads_reserved);
            simple(c, s, reserved_first, out);
            return;
        }
        CommandKind::BraceGroup(l) => {
            out.push('{');
            body(l, out);
            out.push_str(" }");
        }
        CommandKind::Subshell(l) => {
            out.push_str("( ");
            list_inline(l, out);
            out.push_str(" )");
        }
        CommandKind::If(i) => {
            out.push_str("if");
            body(&i.cond, out);
            out.push_str(" then");
            body(&i.then, out);
            for (c, b) in &i.elifs {
                out.push_str(" elif");
                body(c, out);
                out.push_str(" then");
                body(b, out);
            }
            if let Some(e) = &i.else_ {
                out.push_str(" else");
                body(e, out);
            }
            out.push_str(" fi");
        }
        CommandKind::While(w) => {
            out.push_str(if w.until { "until" } else { "while" });
            body(&w.cond, out);
            out.push_str(" do");
            body(&w.body, out);
            out.push_str(" done");
        }
        CommandKind::For(f) | CommandKind::Select(f) => {
            out.push_str(if matches!(c.kind, CommandKind::For(_)) {
                "for "
            } else {
                "select "
            });
            out.push_str(&f.var);
            if let Some(ws) = &f.words {
                out.push_str(" in");
                for w in ws {
                    out.push(' ');
                    word(w, out);
                }
            }
            out.push_str("; do");
            body(&f.body, out);
            out.push_str(" done");
        }
        CommandKind::ArithFor(f) => {
            out.push_str("for ((");
            for (i, a) in [&f.init, &f.cond, &f.step].iter().enumerate() {
                if i > 0 {
                    out.push(';');
                }
                if let Some(a) = a {
                    // The source keeps its own leading blanks; add one only where it
                    // has none, so printing is stable.
                    let mut src = String::new();
                    arith_src(a, &mut src);
                    if i > 0 && !src.starts_with([' ', '\t', '\n']) {
                        out.push(' ');
                    }
                    out.push_str(&src);
                }
            }
            out.push_str(")); do");
            body(&f.body, out);
            out.push_str(" done");
        }
        CommandKind::Case(cc) => {
            out.push_str("case ");
            word(&cc.word, out);
            out.push_str(" in");
            for item in &cc.items {
                out.push_str(" (");
                for (i, p) in item.patterns.iter().enumerate() {
                    if i > 0 {
                        out.push_str(" | ");
                    }
                    word(p, out);
                }
                out.push(')');
                if !item.body.items.is_empty() {
                    out.push(' ');
                    list_inline(&item.body, out);
                }
                out.push_str(match item.terminator {
                    CaseTerminator::Break => " ;;",
                    CaseTerminator::FallThrough => " ;&",
                    CaseTerminator::Continue => " ;;&",
                });
            }
            out.push_str(" esac");
        }
        CommandKind::Arith(a) => {
            out.push_str("((");
            arith_src(a, out);
            out.push_str("))");
        }
        CommandKind::Cond(e) => {
            out.push_str("[[ ");
            cond(e, out);
            out.push_str(" ]]");
        }
        CommandKind::FunctionDef(f) => {
            if f.keyword {
                out.push_str("function ");
            }
            out.push_str(&f.name);
            out.push_str(" () ");
            command(&f.body, out);
        }
        CommandKind::Coproc(cp) => {
            out.push_str("coproc ");
            if let Some(n) = &cp.name {
                out.push_str(n);
                out.push(' ');
            }
            if !coproc_body(cp, out) {
                command(&cp.body, out);
            }
        }
    }
    for r in &c.redirects {
        out.push(' ');
        redirect_inline(r, out);
    }
}

fn cond(e: &CondExpr, out: &mut String) {
    match e {
        // bash's parser makes a lone word the `-n` test it means.
        CondExpr::Word(w) => {
            out.push_str("-n ");
            word(w, out);
        }
        CondExpr::Unary(op, w) => {
            out.push_str(op);
            out.push(' ');
            word(w, out);
        }
        CondExpr::Binary(op, a, b) => {
            word(a, out);
            out.push(' ');
            out.push_str(op);
            out.push(' ');
            word(b, out);
        }
        CondExpr::Regex(a, b) => {
            word(a, out);
            out.push_str(" =~ ");
            word(b, out);
        }
        CondExpr::Not(e) => {
            out.push_str("! ");
            cond(e, out);
        }
        CondExpr::And(a, b) => {
            cond(a, out);
            out.push_str(" && ");
            cond(b, out);
        }
        CondExpr::Or(a, b) => {
            cond(a, out);
            out.push_str(" || ");
            cond(b, out);
        }
        CondExpr::Group(e) => {
            out.push_str("( ");
            cond(e, out);
            out.push_str(" )");
        }
    }
}

fn assign(a: &Assign, out: &mut String) {
    out.push_str(&a.name);
    if let Some(i) = &a.index {
        out.push('[');
        word(i, out);
        out.push(']');
    }
    if a.append {
        out.push('+');
    }
    out.push('=');
    match &a.value {
        AssignValue::Scalar(w) => word(w, out),
        AssignValue::Array(elems) => {
            out.push('(');
            for (i, e) in elems.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                if let Some(k) = &e.key {
                    out.push('[');
                    word(k, out);
                    out.push(']');
                    if e.append {
                        out.push('+');
                    }
                    out.push('=');
                }
                word(&e.value, out);
            }
            out.push(')');
        }
    }
}

/// A redirection as bash prints it: the operator's own file descriptor left out
/// (`< f`, `> f`, `<<< w`; `<>` leaves out 1, as bash does), a space before a file
/// name, and a duplication, close or move with both descriptors (`0<&3`, `1>&2`,
/// `3>&-`, `3<&4-`).
fn redirect(r: &Redirect, out: &mut String) {
    // bash forgets a here-document's left-out `;` once it prints any other
    // redirection (`cat <<E; echo c >o; done;`).
    if r.op != RedirOp::HereDoc {
        ML_AFTER_DOC.set(false);
    }
    let fd = match &r.fd {
        Some(RedirFd::Number(n)) => Some(*n),
        Some(RedirFd::Var(v)) => {
            out.push('{');
            out.push_str(v);
            out.push('}');
            None
        }
        None => None,
    };
    let named = matches!(r.fd, Some(RedirFd::Var(_)));
    let default = match r.op {
        RedirOp::Read | RedirOp::DupRead | RedirOp::HereString | RedirOp::HereDoc => 0,
        _ => 1,
    };
    let shown = |fd: Option<i32>, out: &mut String| {
        if let Some(n) = fd.filter(|&n| n != default) {
            out.push_str(&n.to_string());
        }
    };
    match &r.target {
        RedirTarget::Word(w) if matches!(r.op, RedirOp::DupRead | RedirOp::DupWrite) => {
            let text = w.as_literal();
            let number = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
            let full = if named {
                None
            } else {
                Some(fd.unwrap_or(default))
            };
            match text {
                Some("-") => {
                    if let Some(n) = full {
                        out.push_str(&n.to_string());
                    }
                    out.push_str(">&-");
                }
                Some(t) if number(t) || t.strip_suffix('-').is_some_and(number) => {
                    if let Some(n) = full {
                        out.push_str(&n.to_string());
                    }
                    out.push_str(r.op.as_str());
                    out.push_str(t);
                }
                _ => {
                    shown(fd, out);
                    out.push_str(r.op.as_str());
                    word(w, out);
                }
            }
        }
        RedirTarget::Word(w) => {
            if r.op == RedirOp::ReadWrite && !named {
                // Bash keeps `<>`'s descriptor (0 when none is written) and leaves out
                // only a 1.
                shown(Some(fd.unwrap_or(0)), out);
            } else {
                shown(fd, out);
            }
            out.push_str(r.op.as_str());
            out.push(' ');
            word(w, out);
        }
        RedirTarget::HereDoc(h) => {
            shown(fd, out);
            out.push_str(if h.strip_tabs { "<<-" } else { "<<" });
            // `<<-f` would read as `<<-` and `f`.
            if !h.strip_tabs && h.delimiter.starts_with('-') {
                out.push(' ');
            }
            if h.quoted {
                single_quote(&h.delimiter, out);
            } else {
                out.push_str(&h.delimiter);
            }
        }
    }
}

/// Prints a word as bash source.
pub fn word_to_string(w: &Word) -> String {
    isolated(|| word_text(w))
}

fn word_text(w: &Word) -> String {
    let mut out = String::new();
    word(w, &mut out);
    out
}

fn word(w: &Word, out: &mut String) {
    for (i, p) in w.parts.iter().enumerate() {
        match p {
            // A literal `$` before a part printed with a leading `$` (a substitution
            // written with backquotes, `$`cmd``) would join it (`$$(cmd)`): it is
            // printed quoted instead.
            WordPart::Lit(s)
                if s.ends_with('$')
                    && w.parts.get(i + 1).is_some_and(|next| {
                        let mut t = String::new();
                        part(next, &mut t, false);
                        t.starts_with('$')
                    }) =>
            {
                let head = &s[..s.len() - 1];
                if !head.is_empty() {
                    part(&WordPart::Lit(head.to_owned()), out, false);
                }
                out.push_str("'$'");
            }
            _ => part(p, out, false),
        }
    }
}

/// Escaped characters as written, each after a backslash (inside double quotes they
/// are only ever those a backslash escapes there).
fn escaped(s: &str, out: &mut String) {
    for c in s.chars() {
        out.push('\\');
        out.push(c);
    }
}

fn single_quote(s: &str, out: &mut String) {
    // bash's sh_single_quote writes a lone quote as `\'` (so `$'\''` prints that way).
    if s == "'" {
        out.push_str("\\'");
        return;
    }
    out.push('\'');
    for c in s.chars() {
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            push_src_char(c, out);
        }
    }
    out.push('\'');
}

/// Literal text inside double quotes. A backslash before a character it does not
/// escape there stands for itself and is printed as written (`"\)"`); the characters
/// that would end the quotes or expand are escaped.
fn dq_text(s: &str, out: &mut String) {
    dq_text_before(s, false, out);
}

/// [`dq_text`] for text that `end_safe`, the closing quote or a backslash, follows.
fn dq_text_before(s: &str, end_safe: bool, out: &mut String) {
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let plain_backslash = c == '\\'
            && chars
                .peek()
                .is_some_and(|n| !matches!(n, '"' | '\\' | '$' | '`' | '\n'));
        // A `$` that no expansion could start from stays as written (`"$'x'"`, `"a$ b"`).
        let plain_dollar = c == '$'
            && match chars.peek() {
                Some(n) => {
                    !(n.is_ascii_alphanumeric()
                        || matches!(
                            n,
                            '_' | '{' | '(' | '[' | '@' | '*' | '#' | '?' | '-' | '$' | '!'
                        ))
                }
                None => end_safe,
            };
        if matches!(c, '"' | '\\' | '$' | '`') && !plain_backslash && !plain_dollar {
            out.push('\\');
        }
        push_src_char(c, out);
    }
}

fn part(p: &WordPart, out: &mut String, in_dq: bool) {
    match p {
        WordPart::Lit(s) if in_dq => dq_text(s, out),
        WordPart::Lit(s) => push_src(s, out),
        WordPart::Quoted(s) if in_dq => dq_text(s, out),
        WordPart::Quoted(s) => single_quote(s, out),
        WordPart::Escaped(s) => escaped(s, out),
        WordPart::DQuoted(parts) => {
            out.push('"');
            for (i, p) in parts.iter().enumerate() {
                match p {
                    WordPart::Lit(s) | WordPart::Quoted(s) => {
                        let end_safe =
                            matches!(parts.get(i + 1), None | Some(WordPart::Escaped(_)));
                        dq_text_before(s, end_safe, out);
                    }
                    _ => part(p, out, true),
                }
            }
            out.push('"');
        }
        WordPart::Tilde(u) => {
            out.push('~');
            out.push_str(u);
        }
        WordPart::Param(pe) => param(pe, out),
        WordPart::CmdSub(_, Backquoted(Some(source))) => {
            out.push('`');
            push_src(source, out);
            out.push('`');
        }
        WordPart::CmdSub(s, _) => command_sub(s, out),
        WordPart::BadBackquote(text) => backquoted(text, out),
        WordPart::BadSubst(b) => out.push_str(&b.text),
        WordPart::Arith(a) if a.bracketed => {
            out.push_str("$[");
            arith_src(a, out);
            out.push(']');
        }
        WordPart::Arith(a) => {
            out.push_str("$((");
            arith_src(a, out);
            out.push_str("))");
        }
        WordPart::ProcSub { input, body } => {
            out.push(if *input { '<' } else { '>' });
            out.push('(');
            subst_body(body, out);
        }
    }
}

fn arith_src(a: &Arith, out: &mut String) {
    for p in &a.word.parts {
        match p {
            WordPart::Lit(s) => push_src(s, out),
            other => part(other, out, true),
        }
    }
}

fn param_name(p: &Param) -> String {
    match p {
        Param::Name(n) => n.clone(),
        Param::Positional(n) => n.to_string(),
        Param::Special(c) => c.to_string(),
    }
}

fn param(pe: &ParamExp, out: &mut String) {
    if let ParamOp::Invalid(text) = &pe.op {
        out.push_str(text);
        return;
    }
    if let ParamOp::AssignWord(a) = &pe.op {
        assign(a, out);
        return;
    }
    let simple = !pe.braced
        && pe.index.is_none()
        && !pe.indirect
        && !pe.length
        && matches!(pe.op, ParamOp::None);
    if simple {
        out.push('$');
        out.push_str(&param_name(&pe.param));
        return;
    }
    out.push_str("${");
    if pe.length {
        out.push('#');
    }
    if pe.indirect {
        out.push('!');
    }
    out.push_str(&param_name(&pe.param));
    match &pe.index {
        Some(Subscript::At) => out.push_str("[@]"),
        Some(Subscript::Star) => out.push_str("[*]"),
        Some(Subscript::Expr(w)) => {
            out.push('[');
            word(w, out);
            out.push(']');
        }
        None => {}
    }
    match &pe.op {
        ParamOp::None | ParamOp::Invalid(_) | ParamOp::AssignWord(_) => {}
        ParamOp::Default { op, colon, word: w } => {
            if *colon {
                out.push(':');
            }
            out.push(*op);
            word(w, out);
        }
        ParamOp::Strip {
            suffix,
            longest,
            pattern,
        } => {
            let c = if *suffix { '%' } else { '#' };
            out.push(c);
            if *longest {
                out.push(c);
            }
            word(pattern, out);
        }
        ParamOp::Replace {
            mode,
            pattern,
            replacement,
        } => {
            out.push('/');
            match mode {
                ReplaceMode::First => {}
                ReplaceMode::All => out.push('/'),
                ReplaceMode::Prefix => out.push('#'),
                ReplaceMode::Suffix => out.push('%'),
            }
            word(pattern, out);
            if let Some(r) = replacement {
                out.push('/');
                word(r, out);
            }
        }
        ParamOp::Case { to, all, pattern } => {
            let c = match to {
                CaseTo::Upper => '^',
                CaseTo::Lower => ',',
                CaseTo::Toggle => '~',
            };
            out.push(c);
            if *all {
                out.push(c);
            }
            if let Some(p) = pattern {
                word(p, out);
            }
        }
        ParamOp::Slice { offset, length } => {
            out.push(':');
            word(offset, out);
            if let Some(l) = length {
                out.push(':');
                word(l, out);
            }
        }
        ParamOp::Transform(c) => {
            out.push('@');
            out.push(*c);
        }
        ParamOp::Names { at } => out.push(if *at { '@' } else { '*' }),
    }
    out.push('}');
}

/// Prints a parsed arithmetic expression (for error tokens).
pub fn arith_to_string(e: &ArithExpr) -> String {
    match e {
        ArithExpr::Num(n) => n.to_string(),
        ArithExpr::Var(n, None) => n.clone(),
        ArithExpr::Var(n, Some(i)) => format!("{n}[{i}]"),
        ArithExpr::Unary(op, x) => {
            let o = match op {
                UnaryOp::Neg => "-",
                UnaryOp::Plus => "+",
                UnaryOp::Not => "!",
                UnaryOp::BitNot => "~",
            };
            format!("{o}{}", arith_to_string(x))
        }
        ArithExpr::Binary(op, a, b, _) => {
            format!(
                "{}{}{}",
                arith_to_string(a),
                op.as_str(),
                arith_to_string(b)
            )
        }
        ArithExpr::Assign(op, n, i, r, _) => {
            let target = match i {
                Some(i) => format!("{n}[{i}]"),
                None => n.clone(),
            };
            let o = op.map(|o| o.as_str()).unwrap_or("");
            format!("{target}{o}={}", arith_to_string(r))
        }
        ArithExpr::IncDec {
            name, inc, prefix, ..
        } => {
            let o = if *inc { "++" } else { "--" };
            if *prefix {
                format!("{o}{name}")
            } else {
                format!("{name}{o}")
            }
        }
        ArithExpr::Cond(c, a, b) => format!(
            "{}?{}:{}",
            arith_to_string(c),
            arith_to_string(a),
            arith_to_string(b)
        ),
        ArithExpr::Comma(a, b) => format!("{},{}", arith_to_string(a), arith_to_string(b)),
    }
}

/// Prints a function definition the way `declare -f` and `type` do.
pub fn function_to_string(f: &FunctionDef) -> String {
    isolated(|| {
        let mut out = format!("{} () \n", f.name);
        out.push_str(&function_body_ml(&f.body, 0));
        out
    })
}

/// A function's body as `declare -f` lays it out: a body that is not a `{ }` group
/// (`f() ( ... )`, `f() if ...`) printed inside one, its redirections with it.
fn function_body_ml(body: &Command, ind: usize) -> String {
    if matches!(body.kind, CommandKind::BraceGroup(_)) {
        return cmd_ml(body, ind);
    }
    format!(
        "{{ \n{}{}\n{}}}",
        indent(ind + 4),
        cmd_ml(body, ind + 4),
        indent(ind)
    )
}

/// The value an exported function has in the environment (`BASH_FUNC_f%%`): its body
/// as bash writes it there, `() {  cmd;\n cmd\n}`, a body that is not a group being
/// wrapped in one.
pub fn function_env_value(f: &FunctionDef) -> String {
    isolated(|| {
        let was = ONE_SPACE_INDENT.replace(true);
        let body = cmd_ml(&f.body, 0);
        ONE_SPACE_INDENT.set(was);
        let body = body.trim_end_matches('\n');
        match body.strip_prefix("{ \n") {
            Some(inner) => format!("() {{ {inner}"),
            None => format!("() {{  {body}\n}}"),
        }
    })
}

fn indent(n: usize) -> String {
    if n > 0 && ONE_SPACE_INDENT.get() {
        return " ".to_owned();
    }
    " ".repeat(n)
}

/// A list laid out one command per line (the first line's indent is the caller's).
///
/// Here-document bodies follow the operator after their command, as bash prints them
/// (`cat <<E |`, `cat <<E && `, then the body); a list that ends with one leaves the
/// next `;` out (see [`ML_AFTER_DOC`]).
fn list_ml(l: &List, ind: usize) -> String {
    let mut s = String::new();
    let n = l.items.len();
    for (i, item) in l.items.iter().enumerate() {
        let (text, docs) = and_or_ml(&item.and_or, ind);
        s.push_str(&text);
        if i + 1 < n {
            // Bash breaks the line after `;` but not after `&` (`a & b &`).
            if item.background {
                connector(&mut s, " & ", &docs);
                continue;
            }
            // The bodies of a command's here-documents come before the separator, which
            // then loses its `;`; when that command opens the list, so does the next
            // separator (bash's `a <<E\n..\nE\n b c; d`).
            let semi = if docs.is_empty() {
                !ML_AFTER_DOC.replace(false)
            } else {
                s.push_str(&docs);
                ML_AFTER_DOC.set(i == 0);
                false
            };
            if COMSUB_LAYOUT.get() && item.newline && KEEP_NEWLINES.get() {
                // bash keeps the newlines between commands of `$( )` (at column 0).
                s.push('\n');
            } else if COMSUB_LAYOUT.get() {
                s.push_str(if semi { "; " } else { " " });
            } else {
                s.push_str(if semi { ";\n" } else { "\n" });
                s.push_str(&indent(ind));
            }
        } else {
            if item.background {
                s.push_str(" &");
            }
            if !docs.is_empty() {
                s.push_str(&docs);
                ML_AFTER_DOC.set(true);
            }
        }
    }
    s
}

/// An and-or list, and the here-document bodies of its last command (printed by the
/// caller, after whatever operator follows).
fn and_or_ml(a: &AndOr, ind: usize) -> (String, String) {
    let (mut s, mut docs) = pipeline_ml(&a.first, ind);
    for (op, p) in &a.rest {
        let op = match op {
            AndOrOp::And => " && ",
            AndOrOp::Or => " || ",
        };
        connector(&mut s, op, &docs);
        let (text, next) = pipeline_ml(p, ind);
        s.push_str(&text);
        docs = next;
    }
    (s, docs)
}

/// Operator `op` (` && `, ` | `, ` & `) after a command whose here-document bodies
/// are `docs`: bash prints the bodies after the operator, keeping the blank after
/// `&&` or `||` and adding one, dropping it after `|` or `&` and adding two, and
/// leaves out the next `;` (see [`ML_AFTER_DOC`]).
fn connector(s: &mut String, op: &str, docs: &str) {
    if docs.is_empty() {
        s.push_str(op);
        return;
    }
    let and_or = op.contains("&&") || op.contains("||");
    s.push_str(if and_or { op } else { op.trim_end() });
    s.push_str(docs);
    s.push_str(if and_or { " " } else { "  " });
    ML_AFTER_DOC.set(true);
}

/// A pipeline, and the here-document bodies of its last command.
fn pipeline_ml(p: &Pipeline, ind: usize) -> (String, String) {
    let mut s = String::new();
    match p.time {
        Some(TimeFlag::Default) => s.push_str("time "),
        Some(TimeFlag::Posix) => s.push_str("time -p "),
        None => {}
    }
    if p.negated {
        s.push_str("! ");
    }
    let mut docs = String::new();
    for (i, c) in p.commands.iter().enumerate() {
        if i > 0 {
            connector(&mut s, " | ", &docs);
        }
        let (text, d) = cmd_ml_parts(c, ind);
        s.push_str(&text);
        docs = d;
    }
    (s, docs)
}

fn body_ml(l: &List, ind: usize) -> String {
    let list = list_ml(l, ind + 4);
    format!("{}{list}{}\n", indent(ind + 4), semicolon(l, &list))
}

/// The `;` that ends a list printed as `text`, left out (as bash does) after `&` or a
/// here-document's delimiter line.
fn semicolon(l: &List, text: &str) -> &'static str {
    if text.ends_with('\n') {
        ""
    } else {
        terminator(l)
    }
}

fn redirects_ml(c: &Command) -> (String, String) {
    let mut s = String::new();
    let mut docs = String::new();
    for r in &c.redirects {
        s.push(' ');
        redirect(r, &mut s);
        if let RedirTarget::HereDoc(h) = &r.target {
            SAW_DOC.set(true);
            docs.push('\n');
            docs.push_str(&doc_lines(h));
            docs.push('\n');
        }
    }
    (s, docs)
}

fn cmd_ml(c: &Command, ind: usize) -> String {
    let (text, docs) = cmd_ml_parts(c, ind);
    text + &docs
}

/// A command, and the bodies of its here-documents (which follow the operator after
/// it, if any).
fn cmd_ml_parts(c: &Command, ind: usize) -> (String, String) {
    let body = match &c.kind {
        CommandKind::Simple(sc) => {
            let mut s = String::new();
            let mut first = true;
            for a in &sc.assigns {
                if !first {
                    s.push(' ');
                }
                first = false;
                assign(a, &mut s);
            }
            for w in &sc.words {
                if !first {
                    s.push(' ');
                }
                first = false;
                word(w, &mut s);
            }
            // The redirections are printed after the words (what printing one does
            // to a here-document's left-out `;` comes in that order).
            let (redirs, docs) = redirects_ml(c);
            let redirs = redirs.trim_start().to_owned();
            if !redirs.is_empty() {
                if !first {
                    s.push(' ');
                }
                s.push_str(&redirs);
            }
            return (s, docs);
        }
        CommandKind::BraceGroup(l) if COMSUB_LAYOUT.get() => {
            let list = list_ml(l, ind);
            format!("{{ {list}{} }}", semicolon(l, &list))
        }
        CommandKind::BraceGroup(l) => format!(
            "{{ \n{}{}\n{}}}",
            indent(ind + 4),
            list_ml(l, ind + 4),
            indent(ind)
        ),
        CommandKind::Subshell(l) => format!("( {} )", list_ml(l, ind)),
        CommandKind::If(i) => if_ml(&i.cond, &i.then, &i.elifs, i.else_.as_ref(), ind),
        CommandKind::While(w) => {
            let cond = list_ml(&w.cond, ind);
            format!(
                "{} {cond}{} do\n{}{}done",
                if w.until { "until" } else { "while" },
                semicolon(&w.cond, &cond),
                body_ml(&w.body, ind),
                indent(ind)
            )
        }
        CommandKind::For(f) | CommandKind::Select(f) => {
            let kw = if matches!(c.kind, CommandKind::For(_)) {
                "for"
            } else {
                "select"
            };
            let words = match &f.words {
                Some(ws) => ws.iter().map(word_text).collect::<Vec<_>>().join(" "),
                None => "\"$@\"".to_owned(),
            };
            format!(
                "{kw} {} in {};\n{}do\n{}{}done",
                f.var,
                words,
                indent(ind),
                body_ml(&f.body, ind),
                indent(ind)
            )
        }
        CommandKind::ArithFor(f) => {
            let p = |a: &Option<Arith>| {
                let mut s = String::new();
                if let Some(a) = a {
                    arith_src(a, &mut s);
                }
                // bash prints each expression from its first non-blank, trailing
                // blanks kept, and an empty one as 1.
                match s.trim_start() {
                    "" => "1".to_owned(),
                    t => t.to_owned(),
                }
            };
            format!(
                "for (({}; {}; {}))\n{}do\n{}{}done",
                p(&f.init),
                p(&f.cond),
                p(&f.step),
                indent(ind),
                body_ml(&f.body, ind),
                indent(ind)
            )
        }
        CommandKind::Case(cc) => {
            let mut s = format!("case {} in \n", word_text(&cc.word));
            for item in &cc.items {
                let pats: Vec<String> = item.patterns.iter().map(word_text).collect();
                s.push_str(&format!("{}{})\n", indent(ind + 4), pats.join(" | ")));
                // An arm with no commands leaves an empty line, as in bash.
                if item.body.items.is_empty() {
                    s.push('\n');
                } else {
                    s.push_str(&format!(
                        "{}{}\n",
                        indent(ind + 8),
                        list_ml(&item.body, ind + 8)
                    ));
                }
                s.push_str(&format!(
                    "{}{}\n",
                    indent(ind + 4),
                    match item.terminator {
                        CaseTerminator::Break => ";;",
                        CaseTerminator::FallThrough => ";&",
                        CaseTerminator::Continue => ";;&",
                    }
                ));
            }
            s.push_str(&indent(ind));
            s.push_str("esac");
            s
        }
        CommandKind::Arith(a) => {
            // Bash keeps the expression's text as written.
            let mut s = String::from("((");
            arith_src(a, &mut s);
            s.push_str("))");
            s
        }
        CommandKind::Cond(e) => {
            let mut s = String::from("[[ ");
            cond(e, &mut s);
            s.push_str(" ]]");
            s
        }
        CommandKind::FunctionDef(f) => {
            // Bash names a function defined inside another with the keyword.
            let mut s = format!("function {} () \n", f.name);
            s.push_str(&indent(ind));
            // A function's body is laid out as one, even inside `$( )`.
            let outer = COMSUB_LAYOUT.replace(false);
            s.push_str(&function_body_ml(&f.body, ind));
            COMSUB_LAYOUT.set(outer);
            // The definition is printed apart: a here-document ending its body
            // leaves the `;` after it in place.
            ML_AFTER_DOC.set(false);
            s
        }
        // `declare -f` names the coproc as bash does, COPROC when none is given (so,
        // as in bash, `coproc cat` prints as `coproc COPROC cat`, which reads back as
        // a command named COPROC); the one-line form keeps the text as written.
        CommandKind::Coproc(cp) => format!(
            "coproc {} {}",
            cp.name.as_deref().unwrap_or("COPROC"),
            cmd_ml(&cp.body, ind)
        ),
    };
    // The compound's own redirections are printed after its body, and printing one
    // ends the wait for the `;` a here-document inside leaves out.
    let (redirs, docs) = redirects_ml(c);
    if !c.redirects.is_empty() {
        ML_AFTER_DOC.set(false);
    }
    (format!("{body}{redirs}"), docs)
}

fn if_ml(c: &List, t: &List, elifs: &[(List, List)], e: Option<&List>, ind: usize) -> String {
    let cond = list_ml(c, ind);
    let mut s = format!("if {cond}{} then\n{}", semicolon(c, &cond), body_ml(t, ind));
    if let Some(((c2, t2), rest)) = elifs.split_first() {
        s.push_str(&format!("{}else\n{}", indent(ind), indent(ind + 4)));
        s.push_str(&if_ml(c2, t2, rest, e, ind + 4));
        s.push_str(";\n");
    } else if let Some(e) = e {
        s.push_str(&format!("{}else\n{}", indent(ind), body_ml(e, ind)));
    }
    s.push_str(&indent(ind));
    s.push_str("fi");
    s
}
