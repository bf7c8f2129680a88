//! `cat`: concatenates inputs to stdout, streaming, optionally numbering lines (`-n`,
//! `-b`), squeezing blank lines (`-s`) and showing ends, tabs and non-printing bytes.

use std::io::Read;

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::quotef;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("show-all", HasArg::No, "A"),
    long("number-nonblank", HasArg::No, "b"),
    long("show-ends", HasArg::No, "E"),
    long("number", HasArg::No, "n"),
    long("squeeze-blank", HasArg::No, "s"),
    long("show-tabs", HasArg::No, "T"),
    long("show-nonprinting", HasArg::No, "v"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: cat [OPTION]... [FILE]...
Concatenate FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

  -A, --show-all           equivalent to -vET
  -b, --number-nonblank    number nonempty output lines, overrides -n
  -e                       equivalent to -vE
  -E, --show-ends          display $ at end of each line
  -n, --number             number all output lines
  -s, --squeeze-blank      suppress repeated empty output lines
  -t                       equivalent to -vT
  -T, --show-tabs          display TAB characters as ^I
  -u                       (ignored)
  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB
      --help        display this help and exit
      --version     output version information and exit

Examples:
  cat f - g  Output f's contents, then standard input, then g's contents.
  cat        Copy standard input to standard output.
";

#[derive(Default)]
struct Format {
    number: bool,
    nonblank: bool,
    squeeze: bool,
    ends: bool,
    tabs: bool,
    nonprinting: bool,
}

impl Format {
    fn plain(&self) -> bool {
        !(self.number || self.squeeze || self.ends || self.tabs || self.nonprinting)
    }
}

/// Line state carried across chunks and files, as GNU cat does.
struct State {
    line_no: u64,
    at_start: bool,
    blank_run: u32,
}

fn push_visible(out: &mut Vec<u8>, b: u8) {
    let (meta, c) = if b >= 128 {
        (true, b - 128)
    } else {
        (false, b)
    };
    if meta {
        out.extend_from_slice(b"M-");
    }
    match c {
        0..=31 => {
            out.push(b'^');
            out.push(c + 64);
        }
        127 => out.extend_from_slice(b"^?"),
        c => out.push(c),
    }
}

fn format_chunk(f: &Format, st: &mut State, data: &[u8], out: &mut Vec<u8>) {
    for &b in data {
        if st.at_start {
            if b == b'\n' {
                st.blank_run += 1;
                if f.squeeze && st.blank_run > 1 {
                    continue;
                }
                if f.number && !f.nonblank {
                    st.line_no += 1;
                    out.extend_from_slice(format!("{:>6}\t", st.line_no).as_bytes());
                }
                if f.ends {
                    out.push(b'$');
                }
                out.push(b'\n');
                continue;
            }
            st.blank_run = 0;
            if f.number {
                st.line_no += 1;
                out.extend_from_slice(format!("{:>6}\t", st.line_no).as_bytes());
            }
            st.at_start = false;
        }
        match b {
            b'\n' => {
                if f.ends {
                    out.push(b'$');
                }
                out.push(b'\n');
                st.at_start = true;
            }
            b'\t' if f.tabs => out.extend_from_slice(b"^I"),
            b'\t' => out.push(b),
            _ if f.nonprinting => push_visible(out, b),
            _ => out.push(b),
        }
    }
}

pub fn cat(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("AbeEnstTuv", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut f = Format::default();
    for (k, _) in &parsed.opts {
        match k.as_str() {
            "A" => {
                f.nonprinting = true;
                f.ends = true;
                f.tabs = true;
            }
            "b" => {
                f.number = true;
                f.nonblank = true;
            }
            "e" => {
                f.nonprinting = true;
                f.ends = true;
            }
            "E" => f.ends = true,
            "n" => f.number = true,
            "s" => f.squeeze = true,
            "t" => {
                f.nonprinting = true;
                f.tabs = true;
            }
            "T" => f.tabs = true,
            "v" => f.nonprinting = true,
            _ => {}
        }
    }
    let files = if parsed.operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        parsed.operands
    };
    let mut st = State {
        line_no: 0,
        at_start: true,
        blank_run: 0,
    };
    // GNU cat looks at its output before reading anything: a closed one fails even
    // with nothing to copy.
    // (An empty write only asks whether the descriptor is open.)
    ctx.stdout.write(&[]).map(|_nothing| ())?;
    let mut status = 0;
    let mut stdin_closed = false;
    let mut buf = super::util::Scratch::new();
    let mut out = Vec::new();
    let out_file = ctx.host.fd_file(1).map(|(ino, _)| ino);
    for name in &files {
        let input = match ctx.open_input(name) {
            Ok(i) => i,
            // A FIFO's open cut short by a limit or a signal: the run is ending.
            Err(super::util::OpenError::Limit(e)) => return Err(e),
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                status = 1;
                continue;
            }
        };
        if out_file.is_some_and(|out| copies_onto_itself(ctx, name, out)) {
            ctx.err(format!("{}: input file is output file", quotef(name)))?;
            status = 1;
            continue;
        }
        if let Some(data) = input.in_memory() {
            if f.plain() {
                // A file's own bytes: a pipe takes the buffer as it is.
                match (ctx.shared, &input) {
                    (Some(sh), super::util::Input::Bytes(d)) => {
                        sh.write_shared(super::SharedBytes::whole(std::sync::Arc::clone(d)))?
                    }
                    _ => ctx.stdout.write_all(data)?,
                }
            } else {
                out.clear();
                format_chunk(&f, &mut st, data, &mut out);
                ctx.stdout.write_all(&out)?;
            }
            continue;
        }
        if f.plain()
            && matches!(input, super::util::Input::Stdin)
            && let Some(sh) = ctx.shared
        {
            // Blocks of a pipe or an in-memory file go on as they are (an input that
            // offers none is copied below).
            let mut done = false;
            while let Some(got) = sh.read_shared() {
                match got {
                    Ok(Some(bytes)) => {
                        ctx.host.check()?;
                        sh.write_shared(bytes)?;
                    }
                    Ok(None) => {
                        done = true;
                        break;
                    }
                    // Not readable: reported by the copy below, which fails the same.
                    Err(e) if super::util::read_error_text(&e).is_some() => break,
                    Err(e) => return Err(e),
                }
            }
            if done {
                continue;
            }
        }
        let is_stdin = matches!(input, super::util::Input::Stdin);
        let mut r = input.reader(&mut *ctx.stdin);
        loop {
            let n = match r.read(&mut buf) {
                Ok(n) => n,
                // An input that cannot be read (a directory, a closed standard
                // input): reported, the other files still copied, and GNU cat
                // complains again when it closes a closed standard input.
                Err(e) => {
                    let Some(text) = super::util::read_error_text(&e) else {
                        return Err(e);
                    };
                    drop(r);
                    ctx.err(format!("{}: {text}", quotef(name)))?;
                    status = 1;
                    // (Open only for writing, it closes without complaint.)
                    stdin_closed |=
                        is_stdin && e.raw_os_error() == Some(9) && ctx.host.fd_file(0).is_none();
                    break;
                }
            };
            if n == 0 {
                break;
            }
            ctx.host.check()?;
            let chunk = buf.get(..n).unwrap_or(&[]);
            if f.plain() {
                ctx.stdout.write_all(chunk)?;
            } else {
                out.clear();
                format_chunk(&f, &mut st, chunk, &mut out);
                ctx.stdout.write_all(&out)?;
            }
        }
    }
    if stdin_closed {
        ctx.err("closing standard input: Bad file descriptor")?;
    }
    Ok(status)
}

/// GNU cat's refusal to copy a regular file onto itself, which could never end: the
/// input is the file standard output is open on and has bytes left to read. A named
/// file (`/dev/fd/N` and `/dev/stdin` too) is read from its start, `-` from where
/// standard input's offset is.
fn copies_onto_itself(ctx: &Ctx, name: &str, out: crate::fs::Ino) -> bool {
    let fd = match name {
        "-" => Some(0),
        "/dev/stdin" => Some(0),
        _ => name
            .strip_prefix("/dev/fd/")
            .and_then(|n| n.parse::<i32>().ok()),
    };
    let (ino, pos) = match fd {
        Some(fd) => match ctx.host.fd_file(fd) {
            Some((ino, pos)) if name == "-" => (ino, pos),
            Some((ino, _)) => (ino, 0),
            None => return false,
        },
        None => match ctx.fs.lock().stat(&ctx.path(name)) {
            Ok(m) if m.is_file() => (m.ino, 0),
            _ => return false,
        },
    };
    ino == out && ctx.fs.lock().stat_ino(ino).is_ok_and(|m| pos < m.size)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, run_endless};

    const FILES: &[(&str, &str)] = &[("a", "x\n\n\n\ny\tz\n"), ("b", "no newline"), ("d/", "")];

    #[test]
    fn cat_table() {
        for (line, stdin, out, err, status) in [
            ("cat a b", "", "x\n\n\n\ny\tz\nno newline", "", 0),
            ("cat - b", "in\n", "in\nno newline", "", 0),
            (
                "cat -n a",
                "",
                "     1\tx\n     2\t\n     3\t\n     4\t\n     5\ty\tz\n",
                "",
                0,
            ),
            ("cat -b a", "", "     1\tx\n\n\n\n     2\ty\tz\n", "", 0),
            ("cat -s a", "", "x\n\ny\tz\n", "", 0),
            (
                "cat -sn a",
                "",
                "     1\tx\n     2\t\n     3\ty\tz\n",
                "",
                0,
            ),
            ("cat -E a", "", "x$\n$\n$\n$\ny\tz$\n", "", 0),
            ("cat -T a", "", "x\n\n\n\ny^Iz\n", "", 0),
            ("cat -A", "a\x01\x7f\u{e9}\t\n", "a^A^?M-CM-)^I$\n", "", 0),
            ("cat -v", "\x1b[0m\n", "^[[0m\n", "", 0),
            (
                "cat -n b a",
                "",
                "     1\tno newlinex\n     2\t\n     3\t\n     4\t\n     5\ty\tz\n",
                "",
                0,
            ),
            (
                "cat nosuch a",
                "",
                "x\n\n\n\ny\tz\n",
                "cat: nosuch: No such file or directory\n",
                1,
            ),
            ("cat d", "", "", "cat: d: Is a directory\n", 1),
            (
                "cat -z",
                "",
                "",
                "cat: invalid option -- 'z'\nTry 'cat --help' for more information.\n",
                1,
            ),
        ] {
            check(FILES, line, stdin, (out, err, status));
        }
    }

    #[test]
    fn streams() {
        let (out, status, _) = run_endless("cat", b"y\n", 6);
        assert_eq!((out.as_slice(), status), (&b"y\ny\ny\n"[..], 141));
        let (out, _, _) = run_endless("cat -n", b"y\n", 16);
        assert_eq!(out, b"     1\ty\n     2\t");
    }
}
