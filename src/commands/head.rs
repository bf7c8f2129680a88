//! `head`: the first N lines or bytes of each input (`-n -N`/`-c -N`: all but the last
//! N), reading only as much of a stream as it needs.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Parsed, Spec, long, usage_error};
use super::util::{Input, lq, parse_size, quote};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("bytes", HasArg::Required, "c"),
    long("lines", HasArg::Required, "n"),
    long("quiet", HasArg::No, "q"),
    long("silent", HasArg::No, "q"),
    long("verbose", HasArg::No, "v"),
    long("zero-terminated", HasArg::No, "z"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: head [OPTION]... [FILE]...
Print the first 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[-]NUM       print the first NUM bytes of each file;
                             with the leading '-', print all but the last
                             NUM bytes of each file
  -n, --lines=[-]NUM       print the first NUM lines instead of the first 10;
                             with the leading '-', print all but the last
                             NUM lines of each file
  -q, --quiet, --silent    never print headers giving file names
  -v, --verbose            always print headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.
";

#[derive(Clone, Copy)]
enum Amount {
    First(u64),
    AllBut(u64),
}

/// Rewrites the obsolete `-5`, `-5c`, `-2q` first argument into modern options.
pub fn obsolete_count(args: &[String], default_unit: char) -> Option<Vec<String>> {
    let first = args.first()?;
    let body = first.strip_prefix('-')?;
    let digits_end = body
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(body.len());
    if digits_end == 0 {
        return None;
    }
    let (num, rest) = body.split_at(digits_end);
    let mut unit = default_unit;
    let mut suffix = String::new();
    let mut flags = Vec::new();
    for c in rest.chars() {
        match c {
            'b' | 'k' | 'm' if suffix.is_empty() && flags.is_empty() => suffix.push(c),
            'c' => unit = 'c',
            'l' => unit = 'n',
            'q' | 'v' | 'z' | 'f' | 'r' => flags.push(format!("-{c}")),
            _ => return None,
        }
    }
    let mut out = vec![format!("-{unit}"), format!("{num}{suffix}")];
    out.extend(flags);
    out.extend(args.iter().skip(1).cloned());
    Some(out)
}

fn parse_amount(v: &str) -> Result<Amount, &'static str> {
    let t = v.trim_start();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let all_digits = digits.bytes().take_while(u8::is_ascii_digit).count();
    let n = parse_size(digits).ok_or("")?;
    if n == u64::MAX && all_digits > 0 {
        return Err("Value too large for defined data type");
    }
    Ok(if neg {
        Amount::AllBut(n)
    } else {
        Amount::First(n)
    })
}

pub fn head(ctx: &mut Ctx) -> CmdResult {
    let rewritten = obsolete_count(ctx.args, 'n');
    let args: &[String] = rewritten.as_deref().unwrap_or(ctx.args);
    let parsed = match super::args::parse(&Spec::new("c:n:qvz", LONG), args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let o = match counted_opts(ctx, &parsed, Amount::First(10), parse_amount)? {
        Ok(o) => o,
        Err(status) => return Ok(status),
    };
    each_input(ctx, parsed.operands, &o, copy_head)
}

/// The options `head` and `tail` share: `-c`/`-n` (the last one wins) with the amount
/// the caller's parser made of it, `-q`/`-v` and `-z`.
pub struct Counted<A> {
    bytes: bool,
    amount: A,
    verbose: Option<bool>,
    delim: u8,
}

/// Reads [`Counted`] from `parsed`; a bad count is reported (`invalid number of lines:
/// 'x'`) and comes back as `Err(1)`.
pub fn counted_opts<A>(
    ctx: &mut Ctx,
    parsed: &Parsed,
    default: A,
    parse: fn(&str) -> Result<A, &'static str>,
) -> io::Result<Result<Counted<A>, i32>> {
    let mut o = Counted {
        bytes: false,
        amount: default,
        verbose: None,
        delim: b'\n',
    };
    for (k, v) in &parsed.opts {
        match (k.as_str(), v) {
            (k @ ("c" | "n"), Some(v)) => {
                o.bytes = k == "c";
                o.amount = match parse(v) {
                    Ok(a) => a,
                    Err(why) => {
                        let what = if o.bytes { "bytes" } else { "lines" };
                        let mut msg = format!("invalid number of {what}: {}", lq(v));
                        if !why.is_empty() {
                            msg = format!("{msg}: {why}");
                        }
                        ctx.err(msg)?;
                        return Ok(Err(1));
                    }
                }
            }
            ("q", _) => o.verbose = Some(false),
            ("v", _) => o.verbose = Some(true),
            ("z", _) => o.delim = 0,
            _ => {}
        }
    }
    Ok(Ok(o))
}

/// How `head` or `tail` copies one input: `(input, stdin, stdout, amount, bytes?,
/// delimiter)`.
pub type CopyFn<A> = fn(Input, &mut dyn Read, &mut dyn Write, A, bool, u8) -> io::Result<()>;

/// Runs `copy` over each operand (standard input for none or `-`), preceded by `==>
/// NAME <==` headers when there are several files or `-v` asks; an input that cannot
/// be opened is reported and makes the status 1.
pub fn each_input<A: Copy>(
    ctx: &mut Ctx,
    operands: Vec<String>,
    o: &Counted<A>,
    copy: CopyFn<A>,
) -> CmdResult {
    let files = if operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        operands
    };
    let headers = o.verbose.unwrap_or(files.len() > 1);
    let mut status = 0;
    let mut first = true;
    for name in &files {
        let shown = if name == "-" {
            "standard input"
        } else {
            name.as_str()
        };
        let header = format!("{}==> {shown} <==\n", if first { "" } else { "\n" });
        let input = match ctx.open_input(name) {
            Ok(i) => i,
            Err(e) if e.is(crate::fs::Errno::EISDIR) => {
                if headers {
                    ctx.stdout.write_all(header.as_bytes())?;
                    first = false;
                }
                writeln!(
                    ctx.stderr,
                    "{}: error reading {}: {e}",
                    ctx.name,
                    quote(name)
                )?;
                status = 1;
                continue;
            }
            Err(e) => {
                writeln!(
                    ctx.stderr,
                    "{}: cannot open {} for reading: {e}",
                    ctx.name,
                    quote(name)
                )?;
                status = 1;
                continue;
            }
        };
        if headers {
            ctx.stdout.write_all(header.as_bytes())?;
        }
        first = false;
        copy(input, ctx.stdin, ctx.stdout, o.amount, o.bytes, o.delim)?;
    }
    Ok(status)
}

fn copy_head(
    input: Input,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    amount: Amount,
    bytes: bool,
    delim: u8,
) -> io::Result<()> {
    if let Some(data) = input.in_memory() {
        let end = match (amount, bytes) {
            (Amount::First(n), true) => usize::try_from(n).unwrap_or(usize::MAX).min(data.len()),
            (Amount::AllBut(n), true) => data
                .len()
                .saturating_sub(usize::try_from(n).unwrap_or(usize::MAX)),
            (Amount::First(n), false) => line_end(data, n, delim),
            (Amount::AllBut(n), false) => {
                let total = data.iter().filter(|&&b| b == delim).count() as u64
                    + u64::from(!data.is_empty() && data.last() != Some(&delim));
                line_end(data, total.saturating_sub(n), delim)
            }
        };
        return out.write_all(data.get(..end).unwrap_or(&[]));
    }
    let mut r = BufReader::with_capacity(8192, input.reader(stdin));
    match (amount, bytes) {
        (Amount::First(mut n), true) => {
            while n > 0 {
                let buf = r.fill_buf()?;
                if buf.is_empty() {
                    break;
                }
                let take = usize::try_from(n).unwrap_or(usize::MAX).min(buf.len());
                out.write_all(&buf[..take])?;
                r.consume(take);
                n -= take as u64;
            }
        }
        (Amount::First(n), false) => {
            let mut line = Vec::new();
            let mut pending = Vec::new();
            for _ in 0..n {
                line.clear();
                if r.read_until(delim, &mut line)? == 0 {
                    break;
                }
                pending.extend_from_slice(&line);
                if pending.len() >= 8192 {
                    out.write_all(&pending)?;
                    pending.clear();
                }
            }
            out.write_all(&pending)?;
        }
        (Amount::AllBut(n), true) => {
            let keep = usize::try_from(n).unwrap_or(usize::MAX);
            let mut held: Vec<u8> = Vec::new();
            let mut chunk = vec![0u8; 8192];
            loop {
                let got = r.read(&mut chunk)?;
                if got == 0 {
                    break;
                }
                held.extend_from_slice(&chunk[..got]);
                if held.len() > keep {
                    let emit = held.len() - keep;
                    out.write_all(&held[..emit])?;
                    held.drain(..emit);
                }
            }
        }
        (Amount::AllBut(n), false) => {
            let keep = usize::try_from(n).unwrap_or(usize::MAX);
            let mut held: VecDeque<Vec<u8>> = VecDeque::new();
            loop {
                let mut line = Vec::new();
                if r.read_until(delim, &mut line)? == 0 {
                    break;
                }
                held.push_back(line);
                if held.len() > keep
                    && let Some(l) = held.pop_front()
                {
                    out.write_all(&l)?;
                }
            }
        }
    }
    Ok(())
}

/// Byte offset just past the `n`th record.
fn line_end(data: &[u8], n: u64, delim: u8) -> usize {
    if n == 0 {
        return 0;
    }
    let mut seen = 0u64;
    for (i, &b) in data.iter().enumerate() {
        if b == delim {
            seen += 1;
            if seen == n {
                return i + 1;
            }
        }
    }
    data.len()
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, run_endless};

    const FILES: &[(&str, &str)] = &[("a", "hello world\nfoo\n"), ("b", "x"), ("d/", "")];

    #[test]
    fn head_table() {
        let seq = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
        for (line, stdin, out, err, status) in [
            ("head", seq, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "", 0),
            ("head -n2", seq, "1\n2\n", "", 0),
            ("head -3", seq, "1\n2\n3\n", "", 0),
            ("head -n -10", seq, "1\n2\n", "", 0),
            ("head -c 3", seq, "1\n2", "", 0),
            ("head -c -20", seq, "1\n2\n3\n4", "", 0),
            ("head -2c a", "", "he", "", 0),
            ("head -n -1 a", "", "hello world\n", "", 0),
            ("head -c -3 a", "", "hello world\nf", "", 0),
            ("head -v a", "", "==> a <==\nhello world\nfoo\n", "", 0),
            ("head -q a b", "", "hello world\nfoo\nx", "", 0),
            (
                "head -n1 a - b",
                "in\n",
                "==> a <==\nhello world\n\n==> standard input <==\nin\n\n==> b <==\nx",
                "",
                0,
            ),
            (
                "head -n1 a nosuch b",
                "",
                "==> a <==\nhello world\n\n==> b <==\nx",
                "head: cannot open 'nosuch' for reading: No such file or directory\n",
                1,
            ),
            (
                "head d",
                "",
                "",
                "head: error reading 'd': Is a directory\n",
                1,
            ),
            (
                "head -n x a",
                "",
                "",
                "head: invalid number of lines: 'x'\n",
                1,
            ),
            (
                "head -c x a",
                "",
                "",
                "head: invalid number of bytes: 'x'\n",
                1,
            ),
            ("head -n 5 -n 1 a", "", "hello world\n", "", 0),
            ("head -n 1K a", "", "hello world\nfoo\n", "", 0),
            ("head -z -n1", "a\0b\0", "a\0", "", 0),
            (
                "head -x",
                "",
                "",
                "head: invalid option -- 'x'\nTry 'head --help' for more information.\n",
                1,
            ),
            (
                "head -n",
                "",
                "",
                "head: option requires an argument -- 'n'\nTry 'head --help' for more information.\n",
                1,
            ),
        ] {
            check(FILES, line, stdin, (out, err, status));
        }
    }

    #[test]
    fn reads_only_what_it_needs() {
        let (out, status, read) = run_endless("head -n1", b"y\n", 1 << 20);
        assert_eq!((out.as_slice(), status), (&b"y\n"[..], 0));
        assert!(read <= 8192);
        let (out, _, _) = run_endless("head -c5", b"ab", 1 << 20);
        assert_eq!(out, b"ababa");
    }
}
