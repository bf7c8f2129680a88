//! `xargs`: builds command lines from input items and runs them through the host
//! (default `echo`): GNU quoting for blank-separated input, `-0`, `-d`, `-n`, `-L`,
//! `-I`, `-s`, `-x`, `-r`, `-t`, `-a FILE`, `-E`, and GNU's exit statuses (123 when a
//! command failed, 124 when one exited 255, 125 when one was killed, 126/127 when it
//! could not run). Input is read as batches fill, so endless input streams.
//!
//! `-P N` is accepted but commands run one after another (there are no processes).
//! The command-line size limit is 129024 bytes (GNU's 128 KiB less 2 KiB headroom).
//! Commands get an empty stdin, as GNU gives them /dev/null.

use std::io::{self, BufRead, BufReader, Write};

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::quotef;
use super::{CmdResult, Ctx, Stdio};

const LONG: &[LongOpt] = &[
    long("null", HasArg::No, "0"),
    long("arg-file", HasArg::Required, "a"),
    long("delimiter", HasArg::Required, "d"),
    long("eof", HasArg::Optional, "e"),
    long("replace", HasArg::Optional, "i"),
    long("max-lines", HasArg::Optional, "l"),
    long("max-args", HasArg::Required, "n"),
    long("max-procs", HasArg::Required, "P"),
    long("no-run-if-empty", HasArg::No, "r"),
    long("max-chars", HasArg::Required, "s"),
    long("verbose", HasArg::No, "t"),
    long("exit", HasArg::No, "x"),
    long("interactive", HasArg::No, "p"),
    long("open-tty", HasArg::No, "o"),
    long("show-limits", HasArg::No, "show-limits"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...
Run COMMAND with arguments INITIAL-ARGS and more arguments read from input.

Mandatory and optional arguments to long options are also
mandatory or optional for the corresponding short option.
  -0, --null                   items are separated by a null, not whitespace;
                                 disables quote and backslash processing and
                                 logical EOF processing
  -a, --arg-file=FILE          read arguments from FILE, not standard input
  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER,
                                 not by whitespace; disables quote and backslash
                                 processing and logical EOF processing
  -E END                       set logical EOF string; if END occurs as a line
                                 of input, the rest of the input is ignored
                                 (ignored if -0 or -d was specified)
  -e, --eof[=END]              equivalent to -E END if END is specified;
                                 otherwise, there is no end-of-file string
  -I R                         same as --replace=R
  -i, --replace[=R]            replace R in INITIAL-ARGS with names read
                                 from standard input, split at newlines;
                                 if R is unspecified, assume {}
  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per
                                 command line
  -l[MAX-LINES]                similar to -L but defaults to at most one non-
                                 blank input line if MAX-LINES is not specified
  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line
  -o, --open-tty               Reopen stdin as /dev/tty in the child process
                                 before executing the command; useful to run an
                                 interactive application.
  -P, --max-procs=MAX-PROCS    run at most MAX-PROCS processes at a time
  -p, --interactive            prompt before running commands
      --process-slot-var=VAR   set environment variable VAR in child processes
  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND;
                                 if this option is not given, COMMAND will be
                                 run at least once
  -s, --max-chars=MAX-CHARS    limit length of command line to MAX-CHARS
      --show-limits            show limits on command-line length
  -t, --verbose                print commands before executing them
  -x, --exit                   exit if the size (see -s) is exceeded
      --help                   display this help and exit
      --version                output version information and exit

Please see also the documentation at https://www.gnu.org/software/findutils/.
";

const MAX_CHARS: usize = 129_024;

/// How input is cut into items.
enum Split {
    /// Blank-separated with quotes and backslashes.
    Blanks,
    /// Exactly this byte ends an item (`-0`, `-d`).
    Delim(u8),
}

/// An input item and whether it ended its line (for `-L`).
struct Item {
    text: Vec<u8>,
    line_end: bool,
}

struct Reader<'r> {
    input: Box<dyn BufRead + 'r>,
    split: Split,
    eof_str: Option<String>,
    done: bool,
}

impl Reader<'_> {
    /// The next item; `Err(msg)` for a quoting error.
    fn next(&mut self, whole_lines: bool) -> io::Result<Result<Option<Item>, String>> {
        if self.done {
            return Ok(Ok(None));
        }
        match self.split {
            Split::Delim(d) => {
                let mut buf = Vec::new();
                if self.input.read_until(d, &mut buf)? == 0 {
                    return Ok(Ok(None));
                }
                if buf.last() == Some(&d) {
                    buf.pop();
                }
                Ok(Ok(Some(Item {
                    text: buf,
                    line_end: true,
                })))
            }
            Split::Blanks => self.next_blank(whole_lines),
        }
    }

    fn byte(&mut self) -> io::Result<Option<u8>> {
        let buf = self.input.fill_buf()?;
        let Some(&b) = buf.first() else {
            return Ok(None);
        };
        self.input.consume(1);
        Ok(Some(b))
    }

    fn next_blank(&mut self, whole_lines: bool) -> io::Result<Result<Option<Item>, String>> {
        loop {
            let mut text = Vec::new();
            let mut have = false;
            let mut line_end = false;
            // Skip leading blanks (and empty lines).
            let first = loop {
                match self.byte()? {
                    None => return Ok(Ok(None)),
                    Some(b' ' | b'\t' | b'\n') => continue,
                    Some(b) => break b,
                }
            };
            let mut next = Some(first);
            while let Some(b) = next {
                match b {
                    b'\n' => {
                        line_end = true;
                        break;
                    }
                    b' ' | b'\t' if !whole_lines => {
                        // A blank at the end of a line continues it (for -L).
                        break;
                    }
                    b'\'' | b'"' => {
                        have = true;
                        loop {
                            match self.byte()? {
                                Some(c) if c == b => break,
                                Some(b'\n') | None => {
                                    let which = if b == b'\'' { "single" } else { "double" };
                                    return Ok(Err(format!(
                                        "unmatched {which} quote; by default quotes are special to xargs unless you use the -0 option"
                                    )));
                                }
                                Some(c) => text.push(c),
                            }
                        }
                    }
                    b'\\' => {
                        have = true;
                        if let Some(c) = self.byte()? {
                            text.push(c);
                        }
                    }
                    c => {
                        have = true;
                        text.push(c);
                    }
                }
                next = self.byte()?;
                if next.is_none() {
                    line_end = true;
                }
            }
            if !have {
                continue;
            }
            if let Some(e) = &self.eof_str
                && text == e.as_bytes()
            {
                self.done = true;
                return Ok(Ok(None));
            }
            return Ok(Ok(Some(Item { text, line_end })));
        }
    }
}

struct Opts {
    max_args: Option<usize>,
    max_lines: Option<usize>,
    replace: Option<String>,
    max_chars: usize,
    exit_on_size: bool,
    no_run_empty: bool,
    verbose: bool,
}

fn parse_delim(s: &str) -> Option<u8> {
    let b = s.as_bytes();
    match b {
        [c] => Some(*c),
        [b'\\', rest @ ..] => match rest {
            b"n" => Some(b'\n'),
            b"t" => Some(b'\t'),
            b"0" => Some(0),
            b"\\" => Some(b'\\'),
            b"a" => Some(7),
            b"b" => Some(8),
            b"f" => Some(12),
            b"r" => Some(b'\r'),
            b"v" => Some(11),
            [b'x', hex @ ..] => u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok(),
            oct => u8::from_str_radix(std::str::from_utf8(oct).ok()?, 8).ok(),
        },
        _ => None,
    }
}

pub fn xargs(ctx: &mut Ctx) -> CmdResult {
    let mut spec = Spec::new("0a:d:E:e::I:i::L:l::n:P:rs:txpo", LONG);
    // The command and its arguments start at the first operand.
    spec.permute = false;
    let parsed = match super::args::parse(&spec, ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut o = Opts {
        max_args: None,
        max_lines: None,
        replace: None,
        max_chars: MAX_CHARS,
        exit_on_size: false,
        no_run_empty: false,
        verbose: false,
    };
    let mut split = Split::Blanks;
    let mut eof_str = None;
    let mut arg_file = None;
    // -L (or -l) given and not overridden since (-I sets `max_lines` too).
    let mut lines_given = false;
    for (k, v) in &parsed.opts {
        let val = v.clone().unwrap_or_default();
        let number = |ctx: &mut Ctx, opt: char, min: usize| -> io::Result<Result<usize, i32>> {
            match val.parse::<usize>() {
                Ok(n) if n >= min => Ok(Ok(n)),
                Ok(n) => {
                    ctx.err(format!("value {n} for -{opt} option should be >= {min}"))?;
                    Ok(Err(usage_error(ctx, "", 1)?))
                }
                Err(_) => {
                    ctx.err(format!("invalid number \"{val}\" for -{opt} option"))?;
                    Ok(Err(usage_error(ctx, "", 1)?))
                }
            }
        };
        match k.as_str() {
            "0" => split = Split::Delim(0),
            "d" => match parse_delim(&val) {
                Some(d) => split = Split::Delim(d),
                None => {
                    ctx.err(format!("invalid input delimiter specification {val}: the delimiter must be either a single character or an escape sequence starting with \\."))?;
                    return Ok(1);
                }
            },
            "a" => arg_file = Some(val),
            "E" | "e" => eof_str = (!val.is_empty()).then_some(val),
            // findutils lets the last of -I, -L and -n win, warning about the one it
            // drops; -n1 after -I is what -I implies and changes nothing.
            "I" | "i" => {
                if o.max_args.is_some() {
                    exclusive(ctx, "--max-args", "--replace/-I/-i")?;
                } else if lines_given {
                    exclusive(ctx, "--max-lines", "--replace/-I/-i")?;
                }
                lines_given = false;
                o.replace = Some(if val.is_empty() { "{}".to_owned() } else { val });
                o.max_lines = Some(1);
                o.max_args = None;
                o.exit_on_size = true;
            }
            "L" | "l" => {
                let n = if val.is_empty() && k == "l" {
                    1
                } else {
                    match number(ctx, 'L', 1)? {
                        Ok(n) => n,
                        Err(s) => return Ok(s),
                    }
                };
                if o.max_args.is_some() {
                    exclusive(ctx, "--max-args", "-L")?;
                }
                if o.replace.is_some() {
                    exclusive(ctx, "--replace", "-L")?;
                }
                lines_given = true;
                o.max_lines = Some(n);
                o.max_args = None;
                o.replace = None;
            }
            "n" => {
                let n = match number(ctx, 'n', 1)? {
                    Ok(n) => n,
                    Err(s) => return Ok(s),
                };
                if lines_given {
                    exclusive(ctx, "--max-lines", "--max-args/-n")?;
                    lines_given = false;
                }
                if o.replace.is_some() && n == 1 {
                    continue;
                }
                if o.replace.is_some() {
                    exclusive(ctx, "--replace", "--max-args/-n")?;
                    o.replace = None;
                }
                o.max_args = Some(n);
                o.max_lines = None;
            }
            "s" => {
                o.max_chars = match number(ctx, 's', 1)? {
                    Ok(n) => n,
                    Err(s) => return Ok(s),
                }
            }
            "P" => {
                if let Err(s) = number(ctx, 'P', 0)? {
                    return Ok(s);
                }
            }
            "r" => o.no_run_empty = true,
            "t" => o.verbose = true,
            "x" => o.exit_on_size = true,
            _ => {}
        }
    }
    let mut command = parsed.operands.clone();
    if command.is_empty() {
        command.push("echo".to_owned());
    }
    let base: usize = command.iter().map(|a| a.len() + 1).sum();
    let found = command.first().is_none_or(|c| ctx.find_program(c));
    if base > o.max_chars && o.replace.is_none() {
        ctx.err("argument list too long")?;
        return Ok(1);
    }
    let file_data;
    let input: Box<dyn BufRead + '_> = match &arg_file {
        Some(f) => match ctx.open_input(f) {
            Ok(inp) => {
                file_data = inp.read_all(&mut io::empty())?;
                Box::new(BufReader::new(io::Cursor::new(file_data.as_slice())))
            }
            Err(e) => {
                ctx.err(format!("cannot open {}: {e}", super::util::quote(f)))?;
                return Ok(1);
            }
        },
        None => Box::new(BufReader::new(&mut *ctx.stdin)),
    };
    let mut io_parts = Parts {
        found,
        host: &mut *ctx.host,
        stdout: &mut *ctx.stdout,
        stderr: &mut *ctx.stderr,
    };
    let mut reader = Reader {
        input,
        split,
        eof_str,
        done: false,
    };
    let mut status = 0;
    let mut ran_any = false;
    let mut pending: Option<Vec<u8>> = None;
    loop {
        io_parts.host.check()?;
        // Gather one batch.
        let mut batch: Vec<Vec<u8>> = Vec::new();
        let mut size = base;
        let mut lines = 0usize;
        let mut eof = false;
        if let Some(p) = pending.take() {
            size += p.len() + 1;
            batch.push(p);
        }
        loop {
            if o.max_args.is_some_and(|n| batch.len() >= n)
                || o.max_lines.is_some_and(|n| lines >= n)
            {
                break;
            }
            let item = match reader.next(o.replace.is_some())? {
                Ok(Some(i)) => i,
                Ok(None) => {
                    eof = true;
                    break;
                }
                Err(msg) => {
                    if !batch.is_empty() {
                        run_one(&mut io_parts, &o, &command, &batch)?;
                    }
                    writeln!(io_parts.stderr, "xargs: {msg}")?;
                    return Ok(1);
                }
            };
            if o.replace.is_none() && size + item.text.len() + 1 > o.max_chars {
                if o.exit_on_size || batch.is_empty() {
                    writeln!(io_parts.stderr, "xargs: argument line too long")?;
                    return Ok(1);
                }
                pending = Some(item.text);
                break;
            }
            size += item.text.len() + 1;
            if item.line_end {
                lines += 1;
            }
            batch.push(item.text);
        }
        if batch.is_empty() && (ran_any || o.no_run_empty || o.replace.is_some()) {
            break;
        }
        ran_any = true;
        let st = run_one(&mut io_parts, &o, &command, &batch)?;
        if st == 255 {
            writeln!(
                io_parts.stderr,
                "xargs: {}: exited with status 255; aborting",
                quotef(&command[0])
            )?;
            return Ok(124);
        }
        if st == 126 || st == 127 {
            return Ok(st);
        }
        if st > 128 {
            writeln!(
                io_parts.stderr,
                "xargs: {}: terminated by signal {}",
                quotef(&command[0]),
                st - 128
            )?;
            return Ok(125);
        }
        if st != 0 {
            status = 123;
        }
        if eof && pending.is_none() {
            break;
        }
    }
    Ok(status)
}

/// Runs the command with `items`; returns its status (GNU's messages for 126/127).
struct Parts<'p> {
    /// Whether the command exists as a program (GNU xargs cannot run builtins).
    found: bool,
    host: &'p mut dyn super::Host,
    stdout: &'p mut dyn Write,
    stderr: &'p mut dyn Write,
}

fn run_one(ctx: &mut Parts, o: &Opts, command: &[String], items: &[Vec<u8>]) -> io::Result<i32> {
    let mut argv: Vec<String> = Vec::new();
    match &o.replace {
        Some(r) => {
            let item = crate::text::decode(items.first().map_or(&[][..], |v| v.as_slice()));
            for a in command {
                argv.push(a.replace(r.as_str(), &item));
            }
        }
        None => {
            argv.extend(command.iter().cloned());
            argv.extend(items.iter().map(|i| crate::text::decode(i)));
        }
    }
    if o.verbose {
        let shown: Vec<String> = argv.iter().map(|a| quotef(a)).collect();
        writeln!(ctx.stderr, "{}", shown.join(" "))?;
    }
    let name = argv.first().map_or("", String::as_str);
    if !ctx.found {
        writeln!(ctx.stderr, "xargs: {name}: No such file or directory")?;
        return Ok(127);
    }
    let mut err = Vec::new();
    let mut stdin = io::empty();
    let st = ctx.host.run(
        &argv,
        Stdio::Given(&mut stdin),
        Stdio::Own(&mut *ctx.stdout),
        Stdio::Given(&mut err),
    )?;
    let text = String::from_utf8_lossy(&err);
    if st == 127 && text.ends_with("command not found\n") {
        writeln!(ctx.stderr, "xargs: {name}: No such file or directory")?;
    } else if st == 126 && text.contains(": Permission denied") {
        writeln!(ctx.stderr, "xargs: {name}: Permission denied")?;
    } else {
        ctx.stderr.write_all(&err)?;
    }
    Ok(st)
}

/// findutils' warning when a later option overrides an earlier one.
fn exclusive(ctx: &mut Ctx, previous: &str, new: &str) -> io::Result<()> {
    ctx.err(format!(
        "warning: options {previous} and {new} are mutually exclusive, ignoring previous {previous} value"
    ))
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{fs_with, run_endless_in, run_in};
    use crate::fs::SharedFs;

    /// A filesystem with `files` and the programs xargs must find on `$PATH`, as the
    /// shell's layout installs them.
    fn fs_with_programs(files: &[(&str, &str)]) -> SharedFs {
        let fs = fs_with(files);
        fs.lock().install_commands(&["echo", "cat", "false"]);
        fs
    }

    fn check(files: &[(&str, &str)], line: &str, stdin: &str, want: (&str, &str, i32)) {
        let (out, err, status) = run_in(&fs_with_programs(files), line, stdin.as_bytes());
        let out = String::from_utf8_lossy(&out);
        assert_eq!(
            (out.as_ref(), err.as_str(), status),
            want,
            "\ncommand: {line}\nstdin: {stdin:?}"
        );
    }

    #[test]
    fn xargs_table() {
        let files: &[(&str, &str)] = &[("xa", "x\n")];
        for (line, stdin, out, err, status) in [
            ("xargs -t echo", "a b\nc\n", "a b c\n", "echo a b c\n", 0),
            (
                "xargs -t -n1 echo",
                "\"a b\" c\n",
                "a b\nc\n",
                "echo 'a b'\necho c\n",
                0,
            ),
            ("xargs -I{} echo x{}y", "a\nb\n", "xay\nxby\n", "", 0),
            (
                "xargs echo",
                "it's\n",
                "",
                "xargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option\n",
                1,
            ),
            ("xargs echo hi", "", "hi\n", "", 0),
            ("xargs -r echo hi", "", "", "", 0),
            ("xargs -0 -n1 echo", "a\0b c\0", "a\nb c\n", "", 0),
            ("xargs -d: -n2 echo", "a:b:c", "a b\nc\n", "", 0),
            ("xargs -L1 echo", "a b \nc\nd\n", "a b c\nd\n", "", 0),
            (
                "xargs nope",
                "a\nb\n",
                "",
                "xargs: nope: No such file or directory\n",
                127,
            ),
            ("xargs false", "a\n", "", "", 123),
            (
                "xargs -n2 -t echo",
                "1 2 3 4 5\n",
                "1 2\n3 4\n5\n",
                "echo 1 2\necho 3 4\necho 5\n",
                0,
            ),
            ("xargs -n1", "a\\ b c\n", "a b\nc\n", "", 0),
            ("xargs -s 10 -t echo", "a b\n", "a b\n", "echo a b\n", 0),
            ("xargs -s 8 echo", "a b c\n", "a\nb\nc\n", "", 0),
            ("xargs -a xa echo got", "", "got x\n", "", 0),
            (
                "xargs -n 0 echo",
                "a b\n",
                "",
                "xargs: value 0 for -n option should be >= 1\nTry 'xargs --help' for more information.\n",
                1,
            ),
            ("xargs -I{} echo [{}]", "  lead  \n", "[lead  ]\n", "", 0),
            (
                "xargs -t -I{} echo '{} q'",
                "a\n",
                "a q\n",
                "echo 'a q'\n",
                0,
            ),
            ("xargs -E stop echo", "a b stop c\n", "a b\n", "", 0),
            ("xargs -P4 -n1 echo", "a b\n", "a\nb\n", "", 0),
            ("xargs -n1 cat", "xa xa\n", "x\nx\n", "", 0),
        ] {
            check(files, line, stdin, (out, err, status));
        }
    }

    #[test]
    fn streams_endless_input() {
        let (out, status, _) = run_endless_in(fs_with_programs(&[]), "xargs -n1 echo", b"y\n", 6);
        assert_eq!((out.as_slice(), status), (&b"y\ny\ny\n"[..], 141));
    }
}
