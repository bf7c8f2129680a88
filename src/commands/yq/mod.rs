//! `yq`: mikefarah's yq v4 (the Go one) over YAML, JSON and TOML. The expression
//! language is jq's, run by the jaq engine the `jq` command uses, with yq's own
//! operators that agents reach for defined on top (`env(VAR)`, `strenv(VAR)`,
//! `ireduce`, `with`, `keys` in document order, `sort_keys`, `pick`, `omit`, `tag`,
//! `filename`, `fi`, `di`, `to_yaml`, `from_yaml`, `load`, `load_str`, `load_base64`); the
//! command line follows yq's
//! (`eval`/`e`, `eval-all`/`ea`, `-o -p -i -r -e -n -N -I -P -j`, the format taken from
//! the first file's extension) and so do its output conventions (block-style YAML with
//! `---` between documents, JSON indented by `-I`, properties, CSV, TSV, and TOML
//! with `[table]` sections where the TOML read had them).
//!
//! Documents are read into plain values; what yq keeps of their layout (comments,
//! quoting, flow collections) is recorded by path and put back on each result at the
//! path `path(EXPR)` gives it (whole documents for updates). Anchors and custom tags
//! are not kept.

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx as JCtx, Vars};
use jaq_json::Val;
use jaq_std::input::RcIter;

use super::jq::{Data, DataKind, env_and_now, input_funs, silent_funs};
use super::{CmdResult, Ctx};

mod decode;
mod encode;

/// yq's operators, defined over jq's; `type` is yq's (the node's tag) and so is
/// defined last.
const PRELUDE: &str = r#"def env: $ENV; def now: $__now; def debug: .; def debug(m): .;
def stderr: .; def input_filename: $__fn; def filename: $__fn; def fi: $__fi;
def fileIndex: $__fi; def di: $__di; def documentIndex: $__di;
def keys: if type == "object" then keys_unsorted elif type == "array" then [range(length)]
  else error("keys only works on maps and arrays") end;
def with(p; f): p |= f;
def sort_keys(p): p |= (if type == "object" then to_entries | sort_by(.key) | from_entries else . end);
def explode(f): .;
def sub($re; $s): gsub($re; $s);
def kind: if type == "object" then "map" elif type == "array" then "seq" else "scalar" end;
def tag: if type == "null" then "!!null" elif type == "boolean" then "!!bool"
  elif type == "number" then (if . == floor and (tostring | test("[.eE]") | not) then "!!int" else "!!float" end)
  elif type == "string" then "!!str" elif type == "array" then "!!seq" else "!!map" end;
def pick($ks): . as $o | if type == "array" then [$ks[] as $k | $o[$k]]
  else reduce $ks[] as $k ({}; if $o | has($k) then .[$k] = $o[$k] else . end) end;
def omit($ks): with_entries(select(.key as $k | any($ks[]; . == $k) | not));
def upcase: ascii_upcase; def downcase: ascii_downcase;
def to_string: tostring; def to_number: tonumber;
def from_yaml: __from_yaml; def to_yaml: __to_yaml; def to_yaml($i): __to_yaml;
def load($f): $f | __load_yaml; def load_str($f): $f | __load_str;
def strload($f): load_str($f); def load_base64($f): $f | __load_str | gsub("[\\r\\n]"; "") | @base64d;
def from_json: fromjson; def to_json: __to_json; def to_json($i): if $i == 0 then tojson else __to_json end;
def @yaml: __to_yaml; def @json: tojson; def @props: __to_props;
def envsubst: gsub("\\$\\{(?<n>[A-Za-z_][A-Za-z0-9_]*)(?:-(?<d>[^}]*))?\\}"; $ENV[.n] // .d // "")
  | gsub("\\$(?<n>[A-Za-z_][A-Za-z0-9_]*)"; $ENV[.n] // "");
def any_c(f): any(.[]; f); def all_c(f): all(.[]; f);
def splitDoc: .; def head_comment: ""; def line_comment: ""; def foot_comment: "";
def type: tag;
"#;

fn one<'a>(v: Result<Val, String>) -> jaq_core::ValXs<'a, Val> {
    Box::new(std::iter::once(
        v.map_err(|e| jaq_core::Exn::from(jaq_core::Error::str(e))),
    ))
}

fn val_text(v: &Val) -> Option<String> {
    match v {
        Val::TStr(s) | Val::BStr(s) => Some(String::from_utf8_lossy(s).into_owned()),
        _ => None,
    }
}

fn native_from_yaml<'a>((_, v): (JCtx<'a, DataKind>, Val)) -> jaq_core::ValXs<'a, Val> {
    let Some(s) = val_text(&v) else {
        return one(Err("from_yaml only works on strings".to_owned()));
    };
    one(decode::yaml(&s).map(|docs| docs.into_iter().next().unwrap_or(Val::Null)))
}

std::thread_local! {
    /// The filesystem and working directory `load` reads from while a `yq` runs on
    /// this thread (jaq's native functions see only their input).
    static LOAD_FS: std::cell::RefCell<Option<(crate::fs::SharedFs, String)>> =
        const { std::cell::RefCell::new(None) };
}

/// Gives `load` the command's filesystem while it lives (none again on drop).
struct LoadFs;

impl LoadFs {
    fn on(fs: &crate::fs::SharedFs, cwd: &str) -> LoadFs {
        LOAD_FS.with(|l| *l.borrow_mut() = Some((fs.clone(), cwd.to_owned())));
        LoadFs
    }
}

impl Drop for LoadFs {
    fn drop(&mut self) {
        LOAD_FS.with(|l| *l.borrow_mut() = None);
    }
}

/// The bytes of the file `load` was given, or yq's message for why not.
fn load_file(v: &Val) -> Result<Vec<u8>, String> {
    let name = match v {
        Val::TStr(_) | Val::BStr(_) => val_text(v).unwrap_or_default(),
        other => encode::scalar_text(other).unwrap_or_default(),
    };
    let read = LOAD_FS.with(|l| {
        l.borrow().as_ref().map(|(fs, cwd)| {
            fs.lock()
                .read_file(&crate::fs::path::join(cwd, &name))
                .map(|d| d.to_vec())
        })
    });
    match read {
        Some(Ok(d)) => Ok(d),
        Some(Err(e)) => Err(format!(
            "Failed to load {name}: open {name}: {}",
            go_error(&e.to_string())
        )),
        None => Err(format!(
            "Failed to load {name}: file operations are disabled"
        )),
    }
}

/// `load(f)`: the file's one YAML document, null for none, a sequence of several.
fn native_load_yaml<'a>((_, v): (JCtx<'a, DataKind>, Val)) -> jaq_core::ValXs<'a, Val> {
    one(load_file(&v).and_then(|d| {
        let mut docs = decode::yaml(&String::from_utf8_lossy(&d))?;
        Ok(match docs.len() {
            0 => Val::Null,
            1 => docs.pop().unwrap_or(Val::Null),
            _ => docs.into_iter().collect(),
        })
    }))
}

/// `load_str(f)`: the file's text.
fn native_load_str<'a>((_, v): (JCtx<'a, DataKind>, Val)) -> jaq_core::ValXs<'a, Val> {
    one(load_file(&v).map(|d| Val::from(String::from_utf8_lossy(&d).into_owned())))
}

fn native_to_yaml<'a>((_, v): (JCtx<'a, DataKind>, Val)) -> jaq_core::ValXs<'a, Val> {
    one(Ok(Val::from(encode::yaml(&v, 2, false))))
}

fn native_to_json<'a>((_, v): (JCtx<'a, DataKind>, Val)) -> jaq_core::ValXs<'a, Val> {
    let mut s = encode::json(&v, 2, false);
    s.pop();
    one(Ok(Val::from(s)))
}

fn native_to_props<'a>((_, v): (JCtx<'a, DataKind>, Val)) -> jaq_core::ValXs<'a, Val> {
    one(Ok(Val::from(encode::props(&v))))
}

fn yq_funs() -> impl Iterator<Item = jaq_core::native::Fun<DataKind>> {
    let funs: [(&'static str, jaq_core::RunPtr<DataKind>); 6] = [
        ("__from_yaml", native_from_yaml),
        ("__load_yaml", native_load_yaml),
        ("__load_str", native_load_str),
        ("__to_yaml", native_to_yaml),
        ("__to_json", native_to_json),
        ("__to_props", native_to_props),
    ];
    funs.into_iter()
        .map(|(name, f)| jaq_core::native::run::<DataKind>((name, Box::new([]), f)))
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Format {
    Yaml,
    Json,
    Props,
    Csv,
    Tsv,
    Toml,
    Xml,
}

fn format_named(name: &str) -> Option<Option<Format>> {
    Some(Some(match name.to_ascii_lowercase().as_str() {
        "auto" | "a" => return Some(None),
        "yaml" | "y" | "yml" => Format::Yaml,
        "json" | "j" | "ndjson" => Format::Json,
        "props" | "p" | "properties" => Format::Props,
        "csv" | "c" => Format::Csv,
        "tsv" | "t" => Format::Tsv,
        "toml" => Format::Toml,
        "xml" | "x" => Format::Xml,
        _ => return None,
    }))
}

/// yq's format for a file name: by its extension, else YAML.
fn format_of_file(name: &str) -> Format {
    let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    match format_named(ext) {
        Some(Some(f)) if ext.len() > 1 => f,
        _ => Format::Yaml,
    }
}

/// Expression rewrites for yq syntax that jq lacks: `env(NAME)` and `strenv(NAME)`
/// with a bare variable name, and `EXPR as $x ireduce (INIT; UPDATE)`.
fn rewrite_env(expr: &str) -> String {
    let chars: Vec<char> = expr.chars().collect();
    let mut out = String::with_capacity(expr.len());
    let mut i = 0;
    let word = |c: char| c.is_alphanumeric() || c == '_';
    while let Some(&c) = chars.get(i) {
        if c == '"' {
            // A string literal, copied whole.
            out.push(c);
            i += 1;
            while let Some(&d) = chars.get(i) {
                out.push(d);
                i += 1;
                if d == '\\' {
                    if let Some(&e) = chars.get(i) {
                        out.push(e);
                        i += 1;
                    }
                } else if d == '"' {
                    break;
                }
            }
            continue;
        }
        let prev = i.checked_sub(1).and_then(|p| chars.get(p)).copied();
        if word(c) && !prev.is_some_and(|p| word(p) || p == '$' || p == '.') {
            let start = i;
            while chars.get(i).is_some_and(|&d| word(d)) {
                i += 1;
            }
            let name: String = chars.get(start..i).unwrap_or_default().iter().collect();
            if name == "env" || name == "strenv" {
                let mut j = i;
                while chars.get(j) == Some(&' ') {
                    j += 1;
                }
                if chars.get(j) == Some(&'(')
                    && let Some(close) = chars
                        .get(j..)
                        .and_then(|r| r.iter().position(|&d| d == ')'))
                {
                    let inner: String = chars
                        .get(j + 1..j + close)
                        .unwrap_or_default()
                        .iter()
                        .collect();
                    let var = inner.trim();
                    if !var.is_empty()
                        && var.chars().all(word)
                        && !var.starts_with(|d: char| d.is_ascii_digit())
                    {
                        let lookup = format!("($ENV[\"{var}\"] // \"\")");
                        if name == "env" {
                            out.push_str(&format!("({lookup} | from_yaml)"));
                        } else {
                            out.push_str(&lookup);
                        }
                        i = j + close + 1;
                        continue;
                    }
                }
            }
            out.push_str(&name);
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Rewrites yq's `EXPR as $x ireduce (...)` into jq's `reduce EXPR as $x (...)`;
/// also says whether a top-level one reduces `.` (over every document, under
/// `eval-all`).
fn rewrite_ireduce(expr: &str) -> (String, bool) {
    let Some(at) = find_word(expr, "ireduce") else {
        return (expr.to_owned(), false);
    };
    let before = expr.get(..at).unwrap_or("");
    let after = expr.get(at + "ireduce".len()..).unwrap_or("");
    let Some(as_at) = before.rfind(" as ") else {
        return (expr.to_owned(), false);
    };
    let var = before.get(as_at + 4..).unwrap_or("").trim();
    let head = before.get(..as_at).unwrap_or("");
    // The reduced expression starts after the last `|` or unclosed `(` before it.
    let mut depth = 0i32;
    let mut start = 0;
    for (k, c) in head.char_indices().rev() {
        match c {
            ')' | ']' | '}' => depth += 1,
            '(' | '[' | '{' if depth == 0 => {
                start = k + 1;
                break;
            }
            '(' | '[' | '{' => depth -= 1,
            '|' if depth == 0 => {
                start = k + 1;
                break;
            }
            _ => {}
        }
    }
    let source = head.get(start..).unwrap_or("").trim();
    let prefix = head.get(..start).unwrap_or("");
    let all_docs = prefix.trim().is_empty() && source == ".";
    let source = if all_docs { "$__docs[]" } else { source };
    let (rest, _) = rewrite_ireduce(after);
    (
        format!("{prefix} reduce {source} as {var} {rest}"),
        all_docs,
    )
}

fn find_word(s: &str, w: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(p) = s.get(from..).and_then(|r| r.find(w)) {
        let at = from + p;
        let before = s.get(..at).and_then(|b| b.chars().next_back());
        let after = s.get(at + w.len()..).and_then(|a| a.chars().next());
        let word = |c: char| c.is_alphanumeric() || c == '_';
        if !before.is_some_and(word) && !after.is_some_and(word) {
            return Some(at);
        }
        from = at + w.len();
    }
    None
}

struct Opts {
    input: Option<Format>,
    output: Option<Format>,
    indent: usize,
    unwrap: Option<bool>,
    exit_status: bool,
    null_input: bool,
    in_place: bool,
    no_doc: bool,
    pretty: bool,
    eval_all: bool,
    expression: Option<String>,
    from_file: Option<String>,
    /// `-s EXPR`: each result goes to the file EXPR names.
    split: Option<String>,
}

fn err(ctx: &mut Ctx, msg: &str) -> CmdResult {
    writeln!(ctx.stderr, "Error: {msg}")?;
    Ok(1)
}

const HELP: &str = "Usage:
  yq [flags]
  yq [command]

Examples:

# yq tries to auto-detect the file format based off the extension, and defaults to YAML if it's unknown (or piping through STDIN)
# Use the '-p/--input-format' flag to specify a format type.
cat file.json | yq -p json

# read the \"stuff\" node from \"myfile.yml\"
yq '.stuff' < myfile.yml

# update myfile.yml in place
yq -i '.stuff = \"foo\"' myfile.yml

# print contents of sample.json as idiomatic YAML
yq -P -oy sample.json

Available Commands:
  eval        (default) Apply the expression to each document in each yaml file in sequence
  eval-all    Loads _all_ yaml documents of _all_ yaml files and runs expression once

Flags:
  -e, --exit-status            set exit status if there are no matches or null or false is returned
      --expression string      forcibly set the expression argument.
      --from-file string       Load expression from specified file.
  -h, --help                   help for yq
  -I, --indent int             sets indent level for output (default 2)
  -i, --inplace                update the file in place of first file given.
  -p, --input-format string    [auto|a|yaml|y|json|j|toml] parse format for input. (default \"auto\")
  -N, --no-doc                 Don't print document separators (---)
  -n, --null-input             Don't read input, simply evaluate the expression given.
  -o, --output-format string   [auto|a|yaml|y|json|j|props|p|csv|c|tsv|t] output format type. (default \"auto\")
  -P, --prettyPrint            pretty print
  -r, --unwrapScalar           unwrap scalar, print the value with no quotes, colours or comments. Defaults to true for yaml (default true)
  -V, --version                Print version information and quit
";

/// Parses yq's command line (pflag style: flags anywhere, `-o=json`, `-ojson`,
/// `-I4`, clustered booleans); returns the operands.
fn parse_args(ctx: &mut Ctx, o: &mut Opts) -> std::io::Result<Result<Vec<String>, i32>> {
    let args = ctx.args.to_vec();
    let mut pos = Vec::new();
    let mut i = 0;
    let mut done = false;
    let bool_val = |v: Option<&str>| -> Option<bool> {
        match v {
            None | Some("true") | Some("1") | Some("t") | Some("T") | Some("TRUE") => Some(true),
            Some("false") | Some("0") | Some("f") | Some("F") | Some("FALSE") => Some(false),
            _ => None,
        }
    };
    while let Some(a) = args.get(i) {
        i += 1;
        if done || a == "-" || !a.starts_with('-') {
            pos.push(a.clone());
            continue;
        }
        if a == "--" {
            done = true;
            continue;
        }
        // (flag name, inline value) pairs to apply.
        let mut flags: Vec<(String, Option<String>)> = Vec::new();
        if let Some(long) = a.strip_prefix("--") {
            let (n, v) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (long, None),
            };
            let short = match n {
                "output-format" => "o",
                "input-format" => "p",
                "indent" => "I",
                "inplace" => "i",
                "unwrapScalar" => "r",
                "exit-status" => "e",
                "null-input" => "n",
                "no-doc" => "N",
                "prettyPrint" => "P",
                "tojson" => "j",
                "colors" => "C",
                "no-colors" => "M",
                "help" => "h",
                "version" => "V",
                "verbose" => "v",
                "expression" => "expression",
                "from-file" => "from-file",
                "split-exp" => "s",
                "header-preprocess" | "yaml-fix-merge-anchor-to-spec" => "ignored-bool",
                _ => {
                    writeln!(ctx.stderr, "Error: unknown flag: --{n}")?;
                    return Ok(Err(1));
                }
            };
            flags.push((short.to_owned(), v));
        } else {
            let cluster: Vec<char> = a.chars().skip(1).collect();
            let mut k = 0;
            while let Some(&c) = cluster.get(k) {
                k += 1;
                let rest: String = cluster.get(k..).unwrap_or_default().iter().collect();
                match c {
                    'o' | 'p' | 'I' | 's' | 'f' => {
                        let v = rest.strip_prefix('=').unwrap_or(&rest).to_owned();
                        flags.push((c.to_string(), (!v.is_empty()).then_some(v)));
                        break;
                    }
                    'i' | 'r' | 'e' | 'n' | 'N' | 'P' | 'j' | 'C' | 'M' | 'h' | 'V' | 'v' | '0'
                    | 'c' => {
                        if let Some(v) = rest.strip_prefix('=') {
                            flags.push((c.to_string(), Some(v.to_owned())));
                            break;
                        }
                        flags.push((c.to_string(), None));
                    }
                    other => {
                        writeln!(
                            ctx.stderr,
                            "Error: unknown shorthand flag: '{other}' in {a}"
                        )?;
                        return Ok(Err(1));
                    }
                }
            }
        }
        for (name, inline) in flags {
            let needs_value = matches!(
                name.as_str(),
                "o" | "p" | "I" | "s" | "f" | "expression" | "from-file"
            );
            let value = if needs_value {
                match inline.or_else(|| {
                    let v = args.get(i).cloned();
                    i += 1;
                    v
                }) {
                    Some(v) => Some(v),
                    None => {
                        let shown = if name.len() == 1 {
                            format!("'{name}'")
                        } else {
                            format!("--{name}")
                        };
                        writeln!(ctx.stderr, "Error: flag needs an argument: {shown}")?;
                        return Ok(Err(1));
                    }
                }
            } else {
                inline
            };
            let v = value.as_deref();
            let flag_bool = || bool_val(v);
            match name.as_str() {
                "o" | "p" => match format_named(v.unwrap_or("")) {
                    Some(f) => {
                        if name == "o" {
                            o.output = f;
                        } else {
                            o.input = f;
                        }
                    }
                    None => {
                        writeln!(
                            ctx.stderr,
                            "Error: unknown format '{}' please use [auto|a|yaml|y|json|j|props|p|csv|c|tsv|t|xml|x|toml]",
                            v.unwrap_or("")
                        )?;
                        return Ok(Err(1));
                    }
                },
                "I" => match v.and_then(|n| n.parse::<usize>().ok()) {
                    Some(n) if n <= 64 => o.indent = n,
                    _ => {
                        writeln!(
                            ctx.stderr,
                            "Error: invalid argument \"{}\" for \"-I, --indent\" flag: strconv.ParseInt: parsing \"{}\": invalid syntax",
                            v.unwrap_or(""),
                            v.unwrap_or("")
                        )?;
                        return Ok(Err(1));
                    }
                },
                "s" => o.split = value,
                "f" => {
                    writeln!(ctx.stderr, "Error: -{name} is not supported by this yq")?;
                    return Ok(Err(1));
                }
                "expression" => o.expression = value.clone(),
                "from-file" => o.from_file = value.clone(),
                "h" => {
                    ctx.stdout.write_all(HELP.as_bytes())?;
                    return Ok(Err(0));
                }
                "V" => {
                    writeln!(
                        ctx.stdout,
                        "yq (https://github.com/mikefarah/yq/) version v4.45.1"
                    )?;
                    return Ok(Err(0));
                }
                _ => {
                    let Some(b) = flag_bool() else {
                        writeln!(
                            ctx.stderr,
                            "Error: invalid argument \"{}\" for \"-{name}\" flag: strconv.ParseBool: parsing \"{}\": invalid syntax",
                            v.unwrap_or(""),
                            v.unwrap_or("")
                        )?;
                        return Ok(Err(1));
                    };
                    match name.as_str() {
                        "i" => o.in_place = b,
                        "r" => o.unwrap = Some(b),
                        "e" => o.exit_status = b,
                        "n" => o.null_input = b,
                        "N" => o.no_doc = b,
                        "P" => o.pretty = b,
                        "j" if b => o.output = Some(Format::Json),
                        _ => {}
                    }
                }
            }
        }
    }
    // The sub-command, when it comes first.
    if let Some(first) = pos.first() {
        match first.as_str() {
            "eval" | "e" => {
                pos.remove(0);
            }
            "eval-all" | "ea" => {
                o.eval_all = true;
                pos.remove(0);
            }
            _ => {}
        }
    }
    Ok(Ok(pos))
}

/// One document with where it came from.
struct Doc {
    val: Val,
    meta: Option<std::rc::Rc<decode::DocMeta>>,
    file: String,
    file_index: usize,
    doc_index: usize,
}

fn is_file(ctx: &Ctx, name: &str) -> bool {
    let path = ctx.path(name);
    ctx.fs.lock().stat(&path).is_ok_and(|m| !m.is_dir())
}

type Decoded = Vec<(Val, Option<decode::DocMeta>)>;

fn decode(format: Format, data: &[u8]) -> Result<Decoded, String> {
    let text = String::from_utf8_lossy(data);
    let plain = |vals: Vec<Val>| vals.into_iter().map(|v| (v, None)).collect();
    match format {
        Format::Yaml => Ok(decode::yaml_meta(&text)?
            .into_iter()
            .map(|(v, m)| (v, Some(m)))
            .collect()),
        Format::Json => decode::json(data).map(plain),
        Format::Toml => {
            if text.trim().is_empty() {
                return Ok(Vec::new());
            }
            let tables = decode::toml_tables(&text);
            decode::toml_doc(&text).map(|v| {
                vec![(
                    v,
                    Some(decode::DocMeta {
                        tables,
                        ..Default::default()
                    }),
                )]
            })
        }
        Format::Props | Format::Csv | Format::Tsv | Format::Xml => Err(format!(
            "no support for {} input format",
            format_name(format)
        )),
    }
}

fn format_name(f: Format) -> &'static str {
    match f {
        Format::Yaml => "yaml",
        Format::Json => "json",
        Format::Props => "props",
        Format::Csv => "csv",
        Format::Tsv => "tsv",
        Format::Toml => "toml",
        Format::Xml => "xml",
    }
}

/// Turns yq's `+` on for the command's thread while it lives (off again on return).
struct YqAdd;

impl YqAdd {
    fn on() -> YqAdd {
        jaq_json::set_yq_add(true);
        YqAdd
    }
}

impl Drop for YqAdd {
    fn drop(&mut self) {
        jaq_json::set_yq_add(false);
    }
}

pub fn yq(ctx: &mut Ctx) -> CmdResult {
    // `[1] + 2` appends in yq (`.a += "cat"`); jq's `+` fails there.
    let _add = YqAdd::on();
    let _load = LoadFs::on(ctx.fs, ctx.cwd);
    let mut o = Opts {
        input: None,
        output: None,
        indent: 2,
        unwrap: None,
        exit_status: false,
        null_input: false,
        in_place: false,
        no_doc: false,
        pretty: false,
        eval_all: false,
        expression: None,
        from_file: None,
        split: None,
    };
    let mut pos = match parse_args(ctx, &mut o)? {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    // The expression: `--expression`, `--from-file`, else the first operand unless it
    // names a file.
    let mut expression = o.expression.clone();
    if let Some(f) = &o.from_file {
        match ctx.read_input(f)? {
            Ok(d) => expression = Some(String::from_utf8_lossy(&d).replace("\r\n", "\n")),
            Err(e) => return err(ctx, &format!("open {f}: {}", go_error(&e.to_string()))),
        }
    }
    if expression.is_none()
        && let Some(first) = pos.first()
        && first != "-"
        && !is_file(ctx, first)
    {
        expression = Some(pos.remove(0));
    }
    let mut files = pos;
    if o.in_place && (files.is_empty() || files.first().is_some_and(|f| f == "-")) {
        return err(
            ctx,
            "write in place flag only applicable when giving an expression and at least one file",
        );
    }
    if o.null_input && !files.is_empty() {
        return err(ctx, "cannot pass files in when using null-input flag");
    }
    if files.is_empty() && !o.null_input {
        files.push("-".to_owned());
    }
    // Formats: `auto` takes the first file's extension; an explicit input format
    // leaves the output YAML.
    let first_name = files.first().map_or("", String::as_str);
    let input = match o.input {
        Some(f) => {
            if o.output.is_none() {
                o.output = Some(Format::Yaml);
            }
            f
        }
        None => {
            let f = format_of_file(first_name);
            if o.output.is_none() {
                o.output = Some(f);
            }
            f
        }
    };
    let output = o.output.unwrap_or(Format::Yaml);
    if output == Format::Xml {
        return err(ctx, "no support for xml output format");
    }
    let unwrap = o
        .unwrap
        .unwrap_or(matches!(output, Format::Yaml | Format::Props));
    let expression = expression.unwrap_or_default();
    let expression = if expression.trim().is_empty() {
        ".".to_owned()
    } else {
        expression
    };
    // Read every document.
    let mut docs: Vec<Doc> = Vec::new();
    let mut read_error: Option<String> = None;
    if !o.null_input {
        for (file_index, name) in files.iter().enumerate() {
            let data = match ctx.read_input(name)? {
                Ok(d) => d,
                Err(e) => {
                    read_error = Some(format!("open {name}: {}", go_error(&e.to_string())));
                    break;
                }
            };
            ctx.host.check()?;
            match decode(input, &data) {
                Ok(vals) => {
                    for (doc_index, (val, meta)) in vals.into_iter().enumerate() {
                        let meta = meta.map(|mut m| {
                            if o.pretty {
                                // `-P` is `... style = ""`: quoting and flow styles go.
                                for n in m.nodes.values_mut() {
                                    n.quote = None;
                                    n.flow = false;
                                    n.key_quote = None;
                                }
                            }
                            std::rc::Rc::new(m)
                        });
                        docs.push(Doc {
                            val,
                            meta,
                            file: name.clone(),
                            file_index,
                            doc_index,
                        });
                    }
                }
                Err(e) => {
                    read_error = Some(format!("bad file '{name}': {e}"));
                    break;
                }
            }
        }
    }
    // Compile.
    let (code, reduce_all) = rewrite_ireduce(&rewrite_env(&expression));
    let filter = match compile(&code) {
        Ok(f) => f,
        Err(CompileError::Syntax) => {
            return err(ctx, &format!("invalid expression: {expression}"));
        }
        Err(CompileError::Undefined(names)) => {
            return err(
                ctx,
                &format!("unknown operator or function: {}", names.join(", ")),
            );
        }
    };
    // Where each result sits in its document, for the layout kept from it: `path()`
    // of the expression when it is a path expression (else results are taken to be
    // whole documents, as updates return).
    let path_filter =
        if matches!(output, Format::Yaml | Format::Toml) && docs.iter().any(|d| d.meta.is_some()) {
            compile(&format!("path({code})")).ok()
        } else {
            None
        };
    // `-s EXPR`: evaluated on each result, with `$index` its number, to name the file
    // it goes to.
    let split = match &o.split {
        Some(e) => match compile(&format!("$__index as $index | ({})", rewrite_env(e))) {
            Ok(f) => Some(f),
            Err(_) => return err(ctx, &format!("invalid expression: {e}")),
        },
        None => None,
    };
    let mut split_index = 0usize;
    let (env_obj, now_val) = env_and_now(ctx);
    let all_docs: Val = if o.eval_all && reduce_all {
        docs.iter().map(|d| d.val.clone()).collect()
    } else {
        Val::Arr(Default::default())
    };
    // The runs: once with null (`-n`, or a reduction over every document), else once
    // per document.
    let runs: Vec<Doc> = if o.null_input || (o.eval_all && reduce_all) {
        vec![Doc {
            val: Val::Null,
            meta: None,
            file: files.first().cloned().unwrap_or_default(),
            file_index: 0,
            doc_index: 0,
        }]
    } else {
        std::mem::take(&mut docs)
    };
    let mut out: Vec<u8> = Vec::new();
    let mut printed_match = false;
    let mut prev = (0usize, 0usize);
    let mut run_error: Option<String> = None;
    let no_inputs: Box<dyn Iterator<Item = Result<Val, String>>> = Box::new(std::iter::empty());
    let rc_inputs = RcIter::new(no_inputs);
    'runs: for doc in runs {
        ctx.host.check()?;
        let vars = vec![
            env_obj.clone(),
            now_val.clone(),
            Val::from(doc.file.clone()),
            Val::from(doc.file_index),
            Val::from(doc.doc_index),
            all_docs.clone(),
            Val::Null,
        ];
        let data = Data {
            lut: &filter.lut,
            inputs: &rc_inputs,
        };
        let paths: Option<Vec<Vec<decode::Seg>>> = match (&path_filter, &doc.meta) {
            (Some(pf), Some(_)) => {
                let pdata = Data {
                    lut: &pf.lut,
                    inputs: &rc_inputs,
                };
                let pctx = JCtx::<DataKind>::new(pdata, Vars::new(vars.clone()));
                let mut ps = Vec::new();
                let mut ok = true;
                for r in pf.id.run((pctx, doc.val.clone())) {
                    ctx.host.check()?;
                    match r.ok().as_ref().and_then(path_segs) {
                        Some(p) => ps.push(p),
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
                ok.then_some(ps)
            }
            _ => None,
        };
        let mut result_index = 0usize;
        let split_vars = vars.clone();
        let jctx = JCtx::<DataKind>::new(data, Vars::new(vars));
        for r in filter.id.run((jctx, doc.val)) {
            ctx.host.check()?;
            match r {
                Ok(v) => {
                    if !matches!(v, Val::Null | Val::Bool(false)) {
                        printed_match = true;
                    }
                    let start = out.len();
                    let here = (doc.file_index, doc.doc_index);
                    if here != prev && output == Format::Yaml && !o.no_doc {
                        out.extend_from_slice(b"---\n");
                    }
                    prev = here;
                    let text = match output {
                        Format::Json => encode::json(&v, o.indent, unwrap),
                        Format::Props => encode::props(&v),
                        Format::Csv => encode::csv(&v, ',').unwrap_or_default(),
                        Format::Tsv => encode::csv(&v, '\t').unwrap_or_default(),
                        Format::Toml => {
                            let base = paths
                                .as_ref()
                                .and_then(|ps| ps.get(result_index).cloned())
                                .unwrap_or_default();
                            let empty = Default::default();
                            let tables = doc.meta.as_deref().map_or(&empty, |m| &m.tables);
                            match encode::toml(&v, tables, &base) {
                                Ok(t) => t,
                                Err(e) => {
                                    run_error = Some(e);
                                    break 'runs;
                                }
                            }
                        }
                        _ => {
                            let base = paths
                                .as_ref()
                                .and_then(|ps| ps.get(result_index).cloned())
                                .unwrap_or_default();
                            encode::yaml_doc(&v, o.indent, unwrap, doc.meta.as_deref(), base)
                        }
                    };
                    result_index += 1;
                    out.extend_from_slice(text.as_bytes());
                    if let Some(sf) = &split {
                        let mut vars = split_vars.clone();
                        if let Some(slot) = vars.last_mut() {
                            *slot = Val::from(split_index);
                        }
                        split_index += 1;
                        let sdata = Data {
                            lut: &sf.lut,
                            inputs: &rc_inputs,
                        };
                        let sctx = JCtx::<DataKind>::new(sdata, Vars::new(vars));
                        let name = match sf.id.run((sctx, v.clone())).next() {
                            Some(Ok(n)) => encode::scalar_text(&n).unwrap_or_default(),
                            Some(Err(_)) | None => String::new(),
                        };
                        let name = if has_extension(&name) {
                            name
                        } else {
                            format!("{name}.{}", split_extension(output))
                        };
                        let data = out.split_off(start);
                        let path = ctx.path(&name);
                        let res = ctx.fs.lock().write_file(&path, &data);
                        if let Err(e) = res {
                            run_error = Some(format!("open {name}: {}", go_error(&e.to_string())));
                            break 'runs;
                        }
                        continue;
                    }
                    if !o.in_place && out.len() > 1 << 16 {
                        ctx.stdout.write_all(&out)?;
                        out.clear();
                    }
                }
                Err(exn) => {
                    let msg = match exn.get_err() {
                        Ok(e) => {
                            let t = e.to_string();
                            match serde_json::from_str::<serde_json::Value>(&t) {
                                Ok(serde_json::Value::String(s)) => s,
                                _ => t,
                            }
                        }
                        Err(_) => "unexpected exception".to_owned(),
                    };
                    run_error = Some(msg);
                    break 'runs;
                }
            }
        }
    }
    if o.in_place {
        if run_error.is_none() && read_error.is_none() {
            let name = files.first().cloned().unwrap_or_default();
            let path = ctx.path(&name);
            let res = ctx.fs.lock().write_file(&path, &out);
            if let Err(e) = res {
                return err(ctx, &format!("open {name}: {}", go_error(&e.to_string())));
            }
        }
    } else {
        ctx.stdout.write_all(&out)?;
    }
    if let Some(e) = read_error.or(run_error) {
        return err(ctx, &e);
    }
    if o.exit_status && !printed_match {
        return err(ctx, "no matches found");
    }
    Ok(0)
}

/// Whether a split file name ends in an extension (`\.[a-zA-Z0-9]+$`), which yq keeps.
fn has_extension(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, e)| !e.is_empty() && e.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// The extension yq gives a split file: `json`, `properties`, else `yml`.
fn split_extension(output: Format) -> &'static str {
    match output {
        Format::Json => "json",
        Format::Props => "properties",
        _ => "yml",
    }
}

enum CompileError {
    Syntax,
    Undefined(Vec<String>),
}

/// Compiles a yq expression (rewritten to jq) after yq's prelude.
fn compile(code: &str) -> Result<jaq_core::Filter<DataKind>, CompileError> {
    let code = format!("{PRELUDE}{code}");
    let arena = Arena::default();
    let defs = jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs());
    let loader = Loader::new(defs);
    let modules = loader
        .load(
            &arena,
            File {
                code: code.as_str(),
                path: (),
            },
        )
        .map_err(|_| CompileError::Syntax)?;
    let funs = jaq_core::funs::<DataKind>()
        .chain(jaq_std::funs::<DataKind>())
        .chain(jaq_json::funs::<DataKind>())
        .chain(input_funs())
        .filter(|(name, _, _)| !matches!(*name, "env" | "now" | "debug_empty" | "stderr_empty"))
        .chain(silent_funs())
        .chain(yq_funs());
    Compiler::default()
        .with_funs(funs)
        .with_global_vars(VAR_NAMES.iter().copied())
        .compile(modules)
        .map_err(|errs| {
            CompileError::Undefined(
                errs.iter()
                    .flat_map(|(_, e)| e)
                    .map(|(name, _)| (*name).to_owned())
                    .collect(),
            )
        })
}

const VAR_NAMES: [&str; 7] = [
    "$ENV", "$__now", "$__fn", "$__fi", "$__di", "$__docs", "$__index",
];

/// A path value (`["a", 0]`) as path steps.
fn path_segs(v: &Val) -> Option<Vec<decode::Seg>> {
    let Val::Arr(items) = v else { return None };
    items
        .iter()
        .map(|i| match i {
            Val::TStr(s) | Val::BStr(s) => {
                Some(decode::Seg::Key(String::from_utf8_lossy(s).into_owned()))
            }
            Val::Num(jaq_json::Num::Int(n)) => usize::try_from(*n).ok().map(decode::Seg::Index),
            _ => None,
        })
        .collect()
}

/// A system error's text as Go prints it (lower case).
fn go_error(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    /// Expectations derived from the examples in yq v4's documentation.
    #[test]
    fn yq_table() {
        let files: &[(&str, &str)] = &[
            ("s.yml", "a:\n  val: thing\n  b:\n    - cat\n    - dog\n"),
            ("n.yml", "a: 3\nb: 4.9\n"),
            ("d.json", "{\"cat\": \"meow\"}\n"),
        ];
        for (line, stdin, out, status) in [
            (
                "yq eval '.a.b += [\"cow\"]' s.yml",
                "",
                "a:\n  val: thing\n  b:\n    - cat\n    - dog\n    - cow\n",
                0,
            ),
            ("yq '.a = .a + .b' n.yml", "", "a: 7.9\nb: 4.9\n", 0),
            ("yq -o=json -I=0 '.' d.json", "", "{\"cat\":\"meow\"}\n", 0),
            ("yq -p=json '.' d.json", "", "cat: meow\n", 0),
            ("yq -n '.a.b.c = \"cat\"'", "", "a:\n  b:\n    c: cat\n", 0),
            ("yq '.a'", "a: \"true\"\n", "true\n", 0),
            ("yq -r=false '.a'", "a: \"true\"\n", "\"true\"\n", 0),
            ("yq '.'", "a: 'x: y'\nb: ''\n", "a: 'x: y'\nb: ''\n", 0),
            ("yq '.a'", "a: 1\n---\na: 2\n", "1\n---\n2\n", 0),
        ] {
            check(files, line, stdin, (out, "", status));
        }
        check(
            files,
            "yq -e '.x'",
            "a: 1\n",
            ("null\n", "Error: no matches found\n", 1),
        );
    }
}
