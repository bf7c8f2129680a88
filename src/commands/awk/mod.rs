//! `awk`: a POSIX awk with the common gawk extensions — `-F -v -f -e`, BEGIN/END,
//! patterns and ranges, fields and `$0`/`NF` rebuilding, arrays (insertion-ordered
//! `for-in`), user functions, getline in every form, output redirection to files and
//! commands, printf, and the string and math built-ins (plus gensub, systime,
//! strftime). Regexes are EREs through [`crate::posix_regex`]. Commands (`system`,
//! `print | cmd`, `cmd | getline`) run as `sh -c` through the host.
//!
//! The lexer, parser and interpreter live in the submodules; this file handles the
//! command line and the BEGIN / records / END sequence.

pub(crate) mod format;
mod interp;
mod lexer;
mod parser;

use std::io;

use self::interp::{AwkError, Ctrl, Interp, Io, RecordsEnd, Value, input_value};
use self::parser::slot;
use super::{CmdResult, Ctx};

const USAGE: &str = "Usage: awk [POSIX or GNU style options] -f progfile [--] file ...\n\
Usage: awk [POSIX or GNU style options] [--] 'program' file ...\n";

/// The rest of `--help` after [`USAGE`], in gawk's layout.
const HELP: &str = "\
POSIX options:\t\tGNU long options: (standard)
\t-f progfile\t\t--file=progfile
\t-F fs\t\t\t--field-separator=fs
\t-v var=val\t\t--assign=var=val
Short options:\t\tGNU long options: (extensions)
\t-e 'program-text'\t--source='program-text'
\t-h\t\t\t--help
\t-V\t\t\t--version
Accepted and ignored: -b (--characters-as-bytes), -P (--posix),
--traditional, --re-interval, --sandbox.

Examples:
\tawk '{ sum += $1 }; END { print sum }' file
\tawk -F: '{ print $1 }' /etc/passwd
";

/// Where the program text comes from: `-f progfile` or `-e 'program-text'`, in order.
enum Source {
    File(String),
    Text(String),
}

/// What a runtime error or an unwinding `exit`/`next` means at the top.
enum Outcome {
    Ctrl(Ctrl),
    Fatal(String),
}

fn classify(r: io::Result<Ctrl>) -> io::Result<Outcome> {
    match r {
        Ok(c) => Ok(Outcome::Ctrl(c)),
        Err(e) => {
            if let Some(AwkError(msg)) = e.get_ref().and_then(|i| i.downcast_ref::<AwkError>()) {
                return Ok(Outcome::Fatal(msg.clone()));
            }
            let text = e.to_string();
            match text.as_str() {
                "unwind 0" => Ok(Outcome::Ctrl(Ctrl::Exit)),
                "unwind 1" => Ok(Outcome::Ctrl(Ctrl::Next)),
                "unwind 2" => Ok(Outcome::Ctrl(Ctrl::NextFile)),
                _ => Err(e),
            }
        }
    }
}

pub fn awk(ctx: &mut Ctx) -> CmdResult {
    let mut fs_opt: Option<String> = None;
    let mut assigns: Vec<String> = Vec::new();
    let mut sources: Vec<Source> = Vec::new();
    let mut i = 0;
    let args = ctx.args;
    while let Some(a) = args.get(i) {
        if a == "--" {
            i += 1;
            break;
        }
        if !a.starts_with('-') || a == "-" {
            break;
        }
        let (opt, attached) = if a.starts_with("--") {
            match a.split_once('=') {
                Some((o, v)) => (o.to_owned(), Some(v.to_owned())),
                None => (a.clone(), None),
            }
        } else {
            let rest = a.get(2..).unwrap_or("");
            (
                a.get(..2).unwrap_or(a).to_owned(),
                (!rest.is_empty()).then(|| rest.to_owned()),
            )
        };
        let needs_value = matches!(
            opt.as_str(),
            "-F" | "-v" | "-f" | "-e" | "--field-separator" | "--assign" | "--file" | "--source"
        );
        let value = if needs_value {
            match attached {
                Some(v) => Some(v),
                None => {
                    i += 1;
                    match args.get(i) {
                        Some(v) => Some(v.clone()),
                        None => {
                            writeln!(
                                ctx.stderr,
                                "awk: option requires an argument -- {}",
                                opt.trim_start_matches('-')
                            )?;
                            ctx.stderr.write_all(USAGE.as_bytes())?;
                            return Ok(2);
                        }
                    }
                }
            }
        } else {
            None
        };
        match opt.as_str() {
            "-F" | "--field-separator" => fs_opt = value,
            "-v" | "--assign" => assigns.push(value.unwrap_or_default()),
            "-f" | "--file" => sources.push(Source::File(value.unwrap_or_default())),
            "-e" | "--source" => sources.push(Source::Text(value.unwrap_or_default())),
            "-h" | "--help" | "--usage" => {
                ctx.stdout.write_all(USAGE.as_bytes())?;
                ctx.stdout.write_all(HELP.as_bytes())?;
                return Ok(0);
            }
            "-V" | "--version" => {
                super::about::write_version(ctx)?;
                return Ok(0);
            }
            "--posix"
            | "--traditional"
            | "-P"
            | "--re-interval"
            | "--characters-as-bytes"
            | "-b"
            | "--sandbox" => {}
            _ => {
                writeln!(ctx.stderr, "awk: {}: unknown option", a)?;
                ctx.stderr.write_all(USAGE.as_bytes())?;
                return Ok(2);
            }
        }
        i += 1;
    }
    let mut rest: Vec<String> = args.get(i..).unwrap_or(&[]).to_vec();
    let source = if sources.is_empty() {
        if rest.is_empty() {
            ctx.stderr.write_all(USAGE.as_bytes())?;
            return Ok(2);
        }
        rest.remove(0)
    } else {
        let mut src = String::new();
        for source in &sources {
            let f = match source {
                Source::Text(text) => {
                    src.push_str(text);
                    src.push('\n');
                    continue;
                }
                Source::File(f) => f,
            };
            let data = match ctx.open_input(f) {
                Ok(inp) => inp.read_all(&mut *ctx.stdin)?,
                Err(e) => {
                    writeln!(
                        ctx.stderr,
                        "awk: fatal: can't open source file `{f}' for reading: {e}"
                    )?;
                    return Ok(2);
                }
            };
            src.push_str(&crate::text::decode(&data));
            src.push('\n');
        }
        src
    };
    let toks = match lexer::lex(&source) {
        Ok(t) => t,
        Err(msg) => {
            writeln!(ctx.stderr, "awk: cmd. {msg}")?;
            return Ok(2);
        }
    };
    let prog = match parser::parse(&toks) {
        Ok(p) => p,
        Err(msg) => {
            writeln!(ctx.stderr, "awk: cmd. {msg}")?;
            return Ok(2);
        }
    };
    let env = ctx.env.clone();
    let file_mode = ctx.file_mode();
    let zone = ctx.zone();
    let io = Io {
        stdin: &mut *ctx.stdin,
        stdout: &mut *ctx.stdout,
        stderr: &mut *ctx.stderr,
        host: &mut *ctx.host,
        fs: ctx.fs,
        cwd: ctx.cwd,
        file_mode,
        zone,
    };
    let mut it = Interp::new(&prog, io);
    // ARGV, ARGC, ENVIRON.
    {
        let argv = it.array(&parser::Var::Global(slot::ARGV))?;
        let mut a = argv.borrow_mut();
        a.set("0", Value::Str("awk".into()));
        for (k, v) in rest.iter().enumerate() {
            a.set(&(k + 1).to_string(), input_value(v));
        }
    }
    it.set_global(slot::ARGC, Value::Num((rest.len() + 1) as f64));
    {
        let environ = it.array(&parser::Var::Global(slot::ENVIRON))?;
        let mut e = environ.borrow_mut();
        for (k, v) in &env {
            e.set(k, input_value(v));
        }
    }
    if let Some(fs) = fs_opt {
        // `-Ft` is a `t`, not a tab: gawk keeps that old special case for
        // --traditional only, and mawk does not have it.
        let fs = interp::unescape(&fs);
        it.set_global(slot::FS, Value::Str(fs.into()));
    }
    for a in &assigns {
        match a.split_once('=') {
            Some((var, val)) => it.assign_command_line(var, val)?,
            None => {
                writeln!(
                    it.io.stderr,
                    "awk: fatal: `{a}' is not a legal variable assignment"
                )?;
                return Ok(2);
            }
        }
    }
    let status = match run(&mut it, &prog)? {
        Some(msg) => {
            it.flush_stdout()?;
            if !msg.is_empty() {
                writeln!(it.io.stderr, "awk: cmd. line:1: fatal: {msg}")?;
            }
            2
        }
        None => it.exit_code,
    };
    it.close_all()?;
    Ok(status)
}

/// BEGIN, the records, END; `Some(message)` for a fatal error.
fn run(it: &mut Interp, prog: &parser::Program) -> io::Result<Option<String>> {
    let mut exiting = false;
    match classify(it.run_items(true))? {
        Outcome::Fatal(m) => return Ok(Some(m)),
        Outcome::Ctrl(Ctrl::Exit) => exiting = true,
        Outcome::Ctrl(_) => {}
    }
    let needs_input = prog
        .items
        .iter()
        .any(|i| !matches!(i.pattern, parser::Pattern::Begin));
    if !exiting && needs_input {
        loop {
            let done = match it.run_records() {
                RecordsEnd::Done => break,
                RecordsEnd::Read(e) => match classify(Err(e))? {
                    Outcome::Fatal(m) => return Ok(Some(m)),
                    Outcome::Ctrl(_) => break,
                },
                RecordsEnd::Item(done) => done,
            };
            match classify(done)? {
                Outcome::Fatal(m) => return Ok(Some(m)),
                Outcome::Ctrl(Ctrl::Exit) => break,
                Outcome::Ctrl(Ctrl::NextFile) => it.skip_file(),
                Outcome::Ctrl(_) => {}
            }
        }
    }
    match classify(it.run_end())? {
        Outcome::Fatal(m) => Ok(Some(m)),
        Outcome::Ctrl(_) => Ok(None),
    }
}

#[cfg(test)]
mod tests;
