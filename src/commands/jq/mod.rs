//! `jq`: JSON filters run by the `jaq-core`/`jaq-std`/`jaq-json` crates (a maintained
//! jq implementation; writing a jq language of our own would take far longer and be
//! less compatible), with jq's command line and jq 1.6's output format: 2-space
//! indentation, keys in input order, shortest round-trip numbers with C-style exponents
//! (`1e+17`), `-r -j -c -s -n -e -a -S --tab --indent N --arg --argjson --slurpfile
//! --rawfile --args --jsonargs`, errors as `jq: error (at <stdin>:N): ...` (status 5).
//!
//! `env`/`$ENV` read the shell's exported variables and `now` the virtual clock, not the
//! host; `debug` and `stderr` pass values through silently. Error texts are jaq's, which
//! can word type errors differently from jq. The input is read by `input`, a port of jq
//! 1.6's own parser: its error texts, status 4, and numbers as doubles.

use jaq_core::data::{DataT, HasLut};
use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx as JCtx, Lut, Vars};
use jaq_json::Val;
use jaq_std::input::{HasInputs, Inputs, RcIter};

use super::{CmdResult, Ctx};

mod input;

pub(crate) struct DataKind;

impl DataT for DataKind {
    type V<'a> = Val;
    type Data<'a> = Data<'a>;
}

#[derive(Clone)]
pub(crate) struct Data<'a> {
    pub(crate) lut: &'a Lut<DataKind>,
    pub(crate) inputs: Inputs<'a, Val>,
}

impl<'a> HasLut<'a, DataKind> for Data<'a> {
    fn lut(&self) -> &'a Lut<DataKind> {
        self.lut
    }
}

impl<'a> HasInputs<'a, Val> for Data<'a> {
    fn inputs(&self) -> Inputs<'a, Val> {
        self.inputs
    }
}

/// `input` and `inputs` as compiler functions.
#[allow(clippy::redundant_closure)]
pub(crate) fn input_funs() -> impl Iterator<Item = jaq_core::native::Fun<DataKind>> {
    // The closure lets the higher-ranked function type coerce.
    jaq_std::input::funs::<DataKind>()
        .into_vec()
        .into_iter()
        .map(|f| jaq_core::native::run::<DataKind>(f))
}

/// A native that yields nothing (replaces printing to the host's stderr).
fn yield_nothing<'a>(
    _: (JCtx<'a, DataKind>, Val),
) -> Box<dyn Iterator<Item = jaq_core::ValX<'a, Val>> + 'a> {
    Box::new(std::iter::empty())
}

/// `debug_empty` and `stderr_empty` without output.
pub(crate) fn silent_funs() -> impl Iterator<Item = jaq_core::native::Fun<DataKind>> {
    ["debug_empty", "stderr_empty"].into_iter().map(|name| {
        let f: jaq_core::RunPtr<DataKind> = yield_nothing;
        jaq_core::native::run::<DataKind>((name, Box::new([]), f))
    })
}

/// Definitions that replace the host-touching ones.
const PRELUDE: &str = "def env: $ENV; def now: $__now; def debug: .; def debug(m): .; \
def stderr: .; def input_filename: null; def leaf_paths: paths(scalars); \
def @csv: if type != \"array\" then error(\"\\(type) (\\(tojson)) cannot be csv-formatted, only array\") \
else map(if type == \"string\" then \"\\\"\" + gsub(\"\\\"\"; \"\\\"\\\"\") + \"\\\"\" \
elif type == \"number\" or type == \"boolean\" then tostring elif . == null then \"\" \
else error(\"\\(type) (\\(tojson)) is not valid in a csv row\") end) | join(\",\") end; \
def @tsv: if type != \"array\" then error(\"\\(type) (\\(tojson)) cannot be tsv-formatted, only array\") \
else map(if type == \"string\" then gsub(\"\\\\\\\\\"; \"\\\\\\\\\") | gsub(\"\\t\"; \"\\\\t\") \
| gsub(\"\\n\"; \"\\\\n\") | gsub(\"\\r\"; \"\\\\r\") \
elif type == \"number\" or type == \"boolean\" then tostring elif . == null then \"\" \
else error(\"\\(type) (\\(tojson)) is not valid in a tsv row\") end) | join(\"\\t\") end; ";

struct Opts {
    raw: bool,
    join: bool,
    ascii: bool,
    sort: bool,
    /// `None`: compact.
    indent: Option<String>,
}

fn write_str(out: &mut Vec<u8>, s: &[u8], ascii: bool) {
    out.push(b'"');
    let text = String::from_utf8_lossy(s);
    for c in text.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\x08' => out.extend_from_slice(b"\\b"),
            '\x0c' => out.extend_from_slice(b"\\f"),
            c if (c as u32) < 0x20 || c == '\x7f' => {
                out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes());
            }
            c if ascii && !c.is_ascii() => {
                let mut buf = [0u16; 2];
                for unit in c.encode_utf16(&mut buf) {
                    out.extend_from_slice(format!("\\u{unit:04x}").as_bytes());
                }
            }
            c => {
                let mut b = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            }
        }
    }
    out.push(b'"');
}

fn write_val(out: &mut Vec<u8>, o: &Opts, v: &Val, level: usize) {
    let nl = |out: &mut Vec<u8>, level: usize| {
        if let Some(ind) = &o.indent {
            out.push(b'\n');
            for _ in 0..level {
                out.extend_from_slice(ind.as_bytes());
            }
        }
    };
    match v {
        Val::Null => out.extend_from_slice(b"null"),
        Val::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        // The vendored jaq-json prints numbers as jq 1.6 does.
        Val::Num(n) => out.extend_from_slice(n.to_string().as_bytes()),
        Val::TStr(s) | Val::BStr(s) => write_str(out, s, o.ascii),
        Val::Arr(items) => {
            if items.is_empty() {
                out.extend_from_slice(b"[]");
                return;
            }
            out.push(b'[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                nl(out, level + 1);
                write_val(out, o, item, level + 1);
            }
            nl(out, level);
            out.push(b']');
        }
        Val::Obj(map) => {
            if map.is_empty() {
                out.extend_from_slice(b"{}");
                return;
            }
            let mut entries: Vec<(&Val, &Val)> = map.iter().collect();
            if o.sort {
                entries.sort_by(|a, b| a.0.cmp(b.0));
            }
            out.push(b'{');
            for (k, (key, val)) in entries.into_iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                nl(out, level + 1);
                match key {
                    Val::TStr(s) | Val::BStr(s) => write_str(out, s, o.ascii),
                    other => {
                        let mut tmp = Vec::new();
                        write_val(&mut tmp, o, other, 0);
                        write_str(out, &tmp, o.ascii);
                    }
                }
                out.push(b':');
                if o.indent.is_some() {
                    out.push(b' ');
                }
                write_val(out, o, val, level + 1);
            }
            nl(out, level);
            out.push(b'}');
        }
    }
}

const HELP: &str = r#"jq - commandline JSON processor (shellbox)

Usage:	jq [options] <jq filter> [file...]
	jq [options] --args <jq filter> [strings...]
	jq [options] --jsonargs <jq filter> [JSON_TEXTS...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output. Without a filter, jq uses ., which copies its input
to its output (pretty-printed).

Example:

	$ echo '{"foo": 0}' | jq .
	{
	  "foo": 0
	}

Options:
  -c               compact instead of pretty-printed output;
  -n               use `null` as the single input value;
  -e               set the exit status code based on the output;
  -s               read (slurp) all inputs into an array; apply filter to it;
  -r               output raw strings, not JSON texts;
  -j               like -r, and print no newline after each output;
  -a               output non-ASCII characters as \uXXXX escapes;
  -R               read raw strings, not JSON texts;
  -S               sort keys of objects on output;
  -C, -M           accepted; output is never colorized;
  --tab            use tabs for indentation;
  --indent n       use n spaces for indentation (at most 7);
  --arg a v        set variable $a to value <v>;
  --argjson a v    set variable $a to JSON value <v>;
  --slurpfile a f  set variable $a to an array of JSON texts read from <f>;
  --rawfile a f    set variable $a to a string consisting of the contents of <f>;
  --args           remaining arguments are string arguments, not files;
  --jsonargs       remaining arguments are JSON arguments, not files;
  -h, --help       show this help and exit;
  --               terminates argument processing;

Named arguments are also available as $ARGS.named[], while
positional arguments are available as $ARGS.positional[].
"#;

/// `$ENV` (the exported variables) and `$__now` (the virtual clock, in seconds), as
/// jq and yq bind them.
pub(crate) fn env_and_now(ctx: &Ctx) -> (Val, Val) {
    let env = Val::obj(
        ctx.env
            .iter()
            .map(|(k, v)| (Val::from(k.clone()), Val::from(v.clone())))
            .collect(),
    );
    let now = ctx.fs.lock().clock().now();
    (env, Val::from(now.secs as f64 + f64::from(now.nanos) / 1e9))
}

fn usage(ctx: &mut Ctx, msg: &str) -> CmdResult {
    writeln!(ctx.stderr, "jq: {msg}")?;
    writeln!(
        ctx.stderr,
        "Use jq --help for help with command-line options,"
    )?;
    writeln!(
        ctx.stderr,
        "or see the jq manpage, or online docs  at https://stedolan.github.io/jq"
    )?;
    Ok(2)
}

fn parse_json(text: &[u8]) -> Result<Vec<Val>, String> {
    input::Parser::new(text).collect()
}

/// jq's name for the type of a JSON text.
fn json_type(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

/// jq's short dump of a value in a message: at most 14 bytes, else 11 and `...`.
fn trunc_dump(text: &str) -> String {
    if text.len() <= 14 {
        return text.to_owned();
    }
    let mut end = 11;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

/// Splits the JSON value at the start of `s` from the rest.
fn leading_json(s: &str) -> Option<(serde_json::Value, &str, &str)> {
    let mut it = serde_json::Deserializer::from_str(s).into_iter::<serde_json::Value>();
    let v = it.next()?.ok()?;
    let end = it.byte_offset();
    Some((v, s.get(..end)?, s.get(end..)?))
}

/// Rewords jaq's runtime errors the way jq words them (`Cannot index array with
/// string "a"`, `Cannot iterate over number (1)`, `... cannot be added`).
fn jq_error_text(msg: &str) -> String {
    if let Some(rest) = msg.strip_prefix("cannot index ")
        && let Some((l, _, tail)) = leading_json(rest)
        && let Some(r_text) = tail.strip_prefix(" with ")
        && let Some((r, r_raw, "")) = leading_json(r_text)
    {
        let what = match &r {
            serde_json::Value::String(_) => format!("string {r_raw}"),
            other => json_type(other).to_owned(),
        };
        return format!("Cannot index {} with {what}", json_type(&l));
    }
    if let Some(rest) = msg.strip_prefix("cannot use ")
        && let Some((v, raw, " as iterable (array or object)")) = leading_json(rest)
    {
        return format!(
            "Cannot iterate over {} ({})",
            json_type(&v),
            trunc_dump(raw)
        );
    }
    if let Some(rest) = msg.strip_prefix("cannot calculate ")
        && let Some((l, l_raw, tail)) = leading_json(rest)
    {
        for (op, verb) in [
            (" + ", "added"),
            (" - ", "subtracted"),
            (" * ", "multiplied"),
            (" / ", "divided"),
            (" % ", "divided"),
        ] {
            if let Some(r_text) = tail.strip_prefix(op)
                && let Some((r, r_raw, "")) = leading_json(r_text)
            {
                return format!(
                    "{} ({}) and {} ({}) cannot be {verb}",
                    json_type(&l),
                    trunc_dump(l_raw),
                    json_type(&r),
                    trunc_dump(r_raw)
                );
            }
        }
    }
    if let Some(raw) = msg.strip_suffix(" has no length")
        && let Some((v, _, "")) = leading_json(raw)
    {
        return format!("{} ({}) has no length", json_type(&v), trunc_dump(raw));
    }
    msg.to_owned()
}

pub fn jq(ctx: &mut Ctx) -> CmdResult {
    let mut o = Opts {
        raw: false,
        join: false,
        ascii: false,
        sort: false,
        indent: Some("  ".to_owned()),
    };
    let (mut slurp, mut null_input, mut exit_status, mut raw_input) = (false, false, false, false);
    let mut named: Vec<(String, Val)> = Vec::new();
    let mut positional: Vec<Val> = Vec::new();
    let mut filter: Option<String> = None;
    let mut files: Vec<String> = Vec::new();
    let args = ctx.args.to_vec();
    let mut i = 0;
    let mut rest_mode: Option<bool> = None; // Some(json?) after --args/--jsonargs
    let mut options_done = false;
    while let Some(a) = args.get(i) {
        i += 1;
        let take = |i: &mut usize| -> Option<String> {
            let v = args.get(*i).cloned();
            *i += 1;
            v
        };
        if a == "--" && !options_done {
            options_done = true;
            continue;
        }
        if a.starts_with('-') && a.len() > 1 && !options_done {
            match a.as_str() {
                "-h" | "--help" => {
                    ctx.stdout.write_all(HELP.as_bytes())?;
                    return Ok(0);
                }
                "-r" | "--raw-output" => o.raw = true,
                "-j" | "--join-output" => {
                    o.raw = true;
                    o.join = true;
                }
                "-a" | "--ascii-output" => o.ascii = true,
                "-S" | "--sort-keys" => o.sort = true,
                "-c" | "--compact-output" => o.indent = None,
                "--tab" => o.indent = Some("\t".to_owned()),
                "--indent" => match take(&mut i).and_then(|n| n.parse::<usize>().ok()) {
                    Some(0) => o.indent = None,
                    Some(n) if n <= 7 => o.indent = Some(" ".repeat(n)),
                    Some(_) => return usage(ctx, "Cannot indent more than 7 characters"),
                    None => return usage(ctx, "--indent takes one parameter"),
                },
                "-s" | "--slurp" => slurp = true,
                "-n" | "--null-input" => null_input = true,
                "-e" | "--exit-status" => exit_status = true,
                "-R" | "--raw-input" => raw_input = true,
                "-M" | "--monochrome-output" | "-C" | "--color-output" | "--unbuffered" => {}
                "--arg" => {
                    let (Some(n), Some(v)) = (take(&mut i), take(&mut i)) else {
                        return usage(ctx, "--arg takes two parameters (e.g. --arg varname value)");
                    };
                    named.push((n, Val::from(v)));
                }
                "--argjson" => {
                    let (Some(n), Some(v)) = (take(&mut i), take(&mut i)) else {
                        return usage(
                            ctx,
                            "--argjson takes two parameters (e.g. --argjson varname text)",
                        );
                    };
                    match jaq_json::read::parse_single(v.as_bytes()) {
                        Ok(val) => named.push((n, val)),
                        Err(_) => {
                            return usage(ctx, "Invalid JSON text passed to --argjson");
                        }
                    }
                }
                "--slurpfile" | "--rawfile" => {
                    let (Some(n), Some(f)) = (take(&mut i), take(&mut i)) else {
                        return usage(
                            ctx,
                            &format!("{a} takes two parameters (e.g. {a} varname filename)"),
                        );
                    };
                    let data = match ctx.read_input(&f)? {
                        Ok(d) => d,
                        Err(e) => {
                            writeln!(ctx.stderr, "jq: error: Could not open file {f}: {e}")?;
                            return Ok(2);
                        }
                    };
                    if a == "--rawfile" {
                        named.push((n, Val::from(String::from_utf8_lossy(&data).into_owned())));
                    } else {
                        match parse_json(&data) {
                            Ok(vals) => named.push((n, vals.into_iter().collect())),
                            Err(e) => {
                                writeln!(ctx.stderr, "jq: Bad JSON in --slurpfile {n} {f}: {e}")?;
                                return Ok(2);
                            }
                        }
                    }
                }
                "--args" => rest_mode = Some(false),
                "--jsonargs" => rest_mode = Some(true),
                other => {
                    // Clustered short flags such as -rc.
                    let cluster = other.trim_start_matches('-');
                    if other.starts_with("--")
                        || !cluster.chars().all(|c| "rjaScsneRMCh".contains(c))
                    {
                        return usage(ctx, &format!("Unknown option: {other}"));
                    }
                    if cluster.contains('h') {
                        ctx.stdout.write_all(HELP.as_bytes())?;
                        return Ok(0);
                    }
                    for c in cluster.chars() {
                        match c {
                            'r' => o.raw = true,
                            'j' => {
                                o.raw = true;
                                o.join = true;
                            }
                            'a' => o.ascii = true,
                            'S' => o.sort = true,
                            'c' => o.indent = None,
                            's' => slurp = true,
                            'n' => null_input = true,
                            'e' => exit_status = true,
                            'R' => raw_input = true,
                            _ => {}
                        }
                    }
                }
            }
            continue;
        }
        if filter.is_none() {
            filter = Some(a.clone());
        } else if let Some(json) = rest_mode {
            if json {
                match jaq_json::read::parse_single(a.as_bytes()) {
                    Ok(v) => positional.push(v),
                    Err(_) => {
                        return usage(ctx, "Invalid JSON text passed to --jsonargs");
                    }
                }
            } else {
                positional.push(Val::from(a.clone()));
            }
        } else {
            files.push(a.clone());
        }
    }
    // jq runs `.` when no filter is given and stdin or stdout is not a terminal, which
    // in the sandbox is always.
    let filter = filter.unwrap_or_else(|| ".".to_owned());
    // Inputs.
    let mut texts: Vec<(String, Vec<u8>)> = Vec::new();
    let mut open_failed = false;
    if files.is_empty() {
        let mut d = Vec::new();
        if !null_input || filter.contains("input") {
            ctx.stdin.read_to_end(&mut d)?;
        }
        texts.push(("<stdin>".to_owned(), d));
    } else {
        for f in &files {
            match ctx.read_input(f)? {
                Ok(d) => texts.push((f.clone(), d.to_vec())),
                Err(e) => {
                    // jq goes on with the other files and exits 2 at the end.
                    writeln!(ctx.stderr, "jq: error: Could not open file {f}: {e}")?;
                    open_failed = true;
                }
            }
        }
    }
    let mut values: Vec<Val> = Vec::new();
    let mut parse_error: Option<String> = None;
    // jq reads all its files as one stream of JSON texts.
    let mut joined: Vec<u8> = Vec::new();
    for (_, t) in &texts {
        if raw_input {
            let s = String::from_utf8_lossy(t);
            if slurp {
                values.push(Val::from(s.into_owned()));
            } else {
                values.extend(s.lines().map(|l| Val::from(l.to_owned())));
            }
            continue;
        }
        joined.extend_from_slice(t);
    }
    if !raw_input {
        for r in input::Parser::new(&joined) {
            match r {
                Ok(v) => values.push(v),
                Err(e) => {
                    parse_error = Some(e);
                    break;
                }
            }
        }
    }
    if slurp && !raw_input {
        values = vec![values.into_iter().collect()];
    }
    // $ENV, $__now, $ARGS, named arguments.
    let (env_obj, now_val) = env_and_now(ctx);
    let named_obj: Val = Val::obj(
        named
            .iter()
            .map(|(k, v)| (Val::from(k.clone()), v.clone()))
            .collect(),
    );
    let named_args = Val::obj(
        [
            (
                Val::from("positional".to_owned()),
                positional.iter().cloned().collect(),
            ),
            (Val::from("named".to_owned()), named_obj),
        ]
        .into_iter()
        .collect(),
    );
    let mut var_names: Vec<String> = vec!["$ENV".into(), "$__now".into(), "$ARGS".into()];
    let mut var_vals: Vec<Val> = vec![env_obj, now_val, named_args];
    for (n, v) in &named {
        var_names.push(format!("${n}"));
        var_vals.push(v.clone());
    }
    let code = format!("{PRELUDE}{filter}");
    let arena = Arena::default();
    let defs = jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs());
    let loader = Loader::new(defs);
    let program = File {
        code: code.as_str(),
        path: (),
    };
    let modules = match loader.load(&arena, program) {
        Ok(m) => m,
        Err(errs) => {
            for (_, e) in &errs {
                let text = match syntax_error_at_end(e, &code) {
                    Some(at) => format!(
                        "syntax error, unexpected $end (Unix shell quoting issues?){}",
                        locate(&code, at)
                    ),
                    None => format!("syntax error: {}", describe_load_error(e)),
                };
                writeln!(ctx.stderr, "jq: error: {text}")?;
            }
            writeln!(
                ctx.stderr,
                "jq: {} compile error{}",
                errs.len(),
                if errs.len() == 1 { "" } else { "s" }
            )?;
            return Ok(3);
        }
    };
    let funs = jaq_core::funs::<DataKind>()
        .chain(jaq_std::funs::<DataKind>())
        .chain(jaq_json::funs::<DataKind>())
        .chain(input_funs())
        .filter(|(name, _, _)| !matches!(*name, "env" | "now" | "debug_empty" | "stderr_empty"))
        .chain(silent_funs());
    let compiled = Compiler::default()
        .with_funs(funs)
        .with_global_vars(var_names.iter().map(String::as_str))
        .compile(modules);
    let filter_c = match compiled {
        Ok(f) => f,
        Err(errs) => {
            let mut count = 0;
            for (name, undefined) in errs.iter().flat_map(|(_, e)| e) {
                count += 1;
                let what = match undefined {
                    jaq_core::compile::Undefined::Filter(arity) => format!("{name}/{arity}"),
                    jaq_core::compile::Undefined::Label => {
                        format!("$*label-{}", name.trim_start_matches('$'))
                    }
                    _ => (*name).to_owned(),
                };
                let mut at = offset_in(&code, name);
                // jq places a missing label at its `break`.
                if let (jaq_core::compile::Undefined::Label, Some(a)) = (undefined, at) {
                    at = code.get(..a).and_then(|c| c.rfind("break")).or(at);
                }
                let at = at.map_or_else(String::new, |at| locate(&code, at));
                writeln!(ctx.stderr, "jq: error: {what} is not defined{at}")?;
            }
            writeln!(
                ctx.stderr,
                "jq: {count} compile error{}",
                if count == 1 { "" } else { "s" }
            )?;
            return Ok(3);
        }
    };
    let mut out = Vec::new();
    let mut status = 0;
    let mut last: Option<bool> = None;
    // The program's inputs and `input`/`inputs` draw from the same stream.
    let inputs_iter: Box<dyn Iterator<Item = Result<Val, String>>> =
        Box::new(values.into_iter().map(Ok));
    let rc_inputs = RcIter::new(inputs_iter);
    let mut halted = None;
    let mut k = 0usize;
    'outer: loop {
        let input = if null_input {
            if k > 0 {
                break;
            }
            Val::Null
        } else {
            match (&rc_inputs).next() {
                Some(Ok(v)) => v,
                _ => break,
            }
        };
        k += 1;
        ctx.host.check()?;
        let data = Data {
            lut: &filter_c.lut,
            inputs: &rc_inputs,
        };
        let jctx = JCtx::<DataKind>::new(data, Vars::new(var_vals.clone()));
        for r in filter_c.id.run((jctx, input)) {
            ctx.host.check()?;
            match r {
                Ok(v) => {
                    last = Some(!matches!(v, Val::Null | Val::Bool(false)));
                    match (&v, o.raw) {
                        (Val::TStr(s), true) => out.extend_from_slice(s),
                        _ => write_val(&mut out, &o, &v, 0),
                    }
                    if !o.join {
                        out.push(b'\n');
                    }
                    if out.len() > 1 << 16 {
                        ctx.stdout.write_all(&out)?;
                        out.clear();
                    }
                }
                Err(exn) => match exn.get_halt() {
                    Ok(code) => {
                        halted = Some(code);
                        break 'outer;
                    }
                    Err(exn) => {
                        let (msg, not_string) = match exn.get_err() {
                            Ok(e) => {
                                let text = e.to_string();
                                match serde_json::from_str::<serde_json::Value>(&text) {
                                    // jaq's own messages are strings too.
                                    Ok(serde_json::Value::String(s)) => (jq_error_text(&s), false),
                                    Ok(_) => (text, true),
                                    Err(_) => (jq_error_text(&text), false),
                                }
                            }
                            Err(_) => ("unexpected exception".to_owned(), false),
                        };
                        ctx.stdout.write_all(&out)?;
                        out.clear();
                        let place = if null_input {
                            "<unknown>".to_owned()
                        } else {
                            format!(
                                "{}:{}",
                                texts.first().map_or("<stdin>", |t| t.0.as_str()),
                                k
                            )
                        };
                        let kind = if not_string { " (not a string)" } else { "" };
                        writeln!(ctx.stderr, "jq: error (at {place}){kind}: {msg}")?;
                        status = 5;
                        break;
                    }
                },
            }
        }
    }
    ctx.stdout.write_all(&out)?;
    if let Some(code) = halted {
        return Ok(code);
    }
    if let Some(e) = parse_error {
        writeln!(ctx.stderr, "parse error: {e}")?;
        // jq 1.6 exits 4 here (a later jq exits 2).
        return Ok(4);
    }
    if status != 0 {
        return Ok(status);
    }
    if open_failed {
        return Ok(2);
    }
    if exit_status {
        return Ok(match last {
            None => 4,
            Some(true) => 0,
            Some(false) => 1,
        });
    }
    Ok(0)
}

fn describe_load_error<S: std::fmt::Debug>(e: &S) -> String {
    let d = format!("{e:?}");
    d.chars().take(200).collect()
}

/// Where `part`, a slice of `code`, starts in it.
fn offset_in(code: &str, part: &str) -> Option<usize> {
    let start = (part.as_ptr() as usize).checked_sub(code.as_ptr() as usize)?;
    (start + part.len() <= code.len()).then_some(start)
}

/// jq 1.6's place of an error at byte `at` of the program (which starts after the
/// prelude): ` at <top-level>, line N:` and that line, then as many spaces as the error
/// is from the line's start (jq 1.6 prints no caret).
fn locate(code: &str, at: usize) -> String {
    let program = code.get(PRELUDE.len()..).unwrap_or(code);
    let at = at.saturating_sub(PRELUDE.len()).min(program.len());
    let before = program.get(..at).unwrap_or(program);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_no = before.matches('\n').count() + 1;
    let rest = program.get(at..).unwrap_or("");
    let line_end = rest.find('\n').map_or(program.len(), |i| at + i);
    let line = program.get(line_start..line_end).unwrap_or("");
    format!(
        " at <top-level>, line {line_no}:\n{line}{}",
        " ".repeat(at - line_start)
    )
}

/// For a program that ends too early, where bison's `$end` is reported: at the last
/// token, whose place jq's lexer keeps.
fn syntax_error_at_end(e: &jaq_core::load::Error<&str>, code: &str) -> Option<usize> {
    use jaq_core::load::Error;
    let at_end = match e {
        Error::Parse(errs) => errs.iter().any(|(_, found)| found.is_empty()),
        Error::Lex(errs) => errs.iter().any(|(_, found)| found.trim().is_empty()),
        Error::Io(_) => false,
    };
    if !at_end {
        return None;
    }
    let text = code.trim_end();
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let last = text.chars().next_back()?;
    let start = if word(last) {
        let s = text.trim_end_matches(word);
        s.strip_suffix('.').unwrap_or(s).len()
    } else {
        const PAIRS: [&str; 13] = [
            "//", "|=", "+=", "-=", "*=", "/=", "%=", "==", "!=", "<=", ">=", "?//", "..",
        ];
        let two = PAIRS
            .iter()
            .filter(|p| text.ends_with(*p))
            .map(|p| p.len())
            .max()
            .unwrap_or(last.len_utf8());
        text.len() - two
    };
    Some(start)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    /// Expectations from jq 1.6 on the reference machine.
    #[test]
    fn jq_table() {
        let files: &[(&str, &str)] = &[("a.json", "{\"b\":1,\"a\":[1,2]}\n")];
        for (line, stdin, out, status) in [
            (
                "jq -n '3.0, 1.5, 1/3, 1e100, 1e17, 100000000000000000000, 0.1+0.2, 1e-7, 3.14e2, 2/2, 10/4'",
                "",
                "3\n1.5\n0.3333333333333333\n1e+100\n1e+17\n1e+20\n0.30000000000000004\n1e-07\n314\n1\n2.5\n",
                0,
            ),
            (
                "jq -n '[1,{\"a\":null}]'",
                "",
                "[\n  1,\n  {\n    \"a\": null\n  }\n]\n",
                0,
            ),
            ("jq -c . a.json", "", "{\"b\":1,\"a\":[1,2]}\n", 0),
            (
                "jq -S . a.json",
                "",
                "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": 1\n}\n",
                0,
            ),
            ("jq --tab .", "{\"a\":{}}", "{\n\t\"a\": {}\n}\n", 0),
            ("jq --indent 1 .", "[1,[2]]", "[\n 1,\n [\n  2\n ]\n]\n", 0),
            ("jq -a .", "\"é\"", "\"\\u00e9\"\n", 0),
            ("jq -s -c .", "1 2", "[1,2]\n", 0),
            ("jq -r .a", "{\"a\":\"x\"}", "x\n", 0),
            ("jq -j '., .'", "\"x\"", "xx", 0),
            (
                "jq -n -c --arg x 1 --argjson y '{\"z\":2}' '[$x,$y]'",
                "",
                "[\"1\",{\"z\":2}]\n",
                0,
            ),
            ("jq -n -c '[inputs]'", "1\n2\n", "[1,2]\n", 0),
            ("jq -e 'length > 0'", "[]", "false\n", 1),
            ("jq -n -e null", "", "null\n", 1),
            ("jq '.[] | select(. > 1)'", "[1,2,3]", "2\n3\n", 0),
            ("jq -c 'map(.+1)'", "[1,2]", "[2,3]\n", 0),
            (
                "jq -r '.[] | \"\\(.n)=\\(.v)\"'",
                "[{\"n\":\"a\",\"v\":1}]",
                "a=1\n",
                0,
            ),
            (
                "jq -c 'to_entries'",
                "{\"a\":1}",
                "[{\"key\":\"a\",\"value\":1}]\n",
                0,
            ),
            (
                "jq -n '\"\\u007f\\u0000é\"'",
                "",
                "\"\\u007f\\u0000é\"\n",
                0,
            ),
            (
                "jq -n -c '{\"a\":1} | keys_unsorted, length'",
                "",
                "[\"a\"]\n1\n",
                0,
            ),
        ] {
            check(files, line, stdin, (out, "", status));
        }
    }

    #[test]
    fn errors() {
        let (out, err, status) =
            crate::commands::testing::run(&[], "jq '.[] | error(\"boom\")'", "[1,2]");
        assert_eq!(
            (out.as_str(), err.as_str(), status),
            ("", "jq: error (at <stdin>:1): boom\n", 5)
        );
        let (_, err, status) = crate::commands::testing::run(&[], "jq -n '1 +'", "");
        assert!(err.ends_with("jq: 1 compile error\n"), "{err}");
        assert_eq!(status, 3);
        // jq 1.6 ends with status 4 after a parse error of its input.
        let (_, err, status) = crate::commands::testing::run(&[], "jq .", "{");
        assert_eq!(
            (err.as_str(), status),
            (
                "parse error: Unfinished JSON term at EOF at line 1, column 1\n",
                4
            )
        );
        // jq keys objects by strings only (jaq-json gave null; vendored fix).
        let (out, err, status) = crate::commands::testing::run(&[], "jq '.[0]'", "{\"a\":1}");
        assert_eq!(
            (out.as_str(), err.as_str(), status),
            (
                "",
                "jq: error (at <stdin>:1): Cannot index object with number\n",
                5
            )
        );
        // Computed numbers print as jq 1.6's doubles in tostring and interpolation.
        let (out, _, _) = crate::commands::testing::run(
            &[],
            "jq -rn '(1.0+2|tostring), \"\\(0.1+0.2) \\(1e1000) \\(1e17)\", (9007199254740993|tostring), ([1,2]|.[1.5])'",
            "",
        );
        assert_eq!(
            out,
            "3\n0.30000000000000004 1.7976931348623157e+308 1e+17\n9007199254740992\nnull\n"
        );
        let (out, _, _) = crate::commands::testing::run(&[], "jq -n -r 'env.HOME, (now|type)'", "");
        assert_eq!(out, "null\nnumber\n");
    }
}
