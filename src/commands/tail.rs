//! `tail`: the last N lines or bytes of each input, or everything from line/byte N
//! (`+N`). Following (`-f`) is accepted and ends at the end of the input.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::head::{counted_opts, each_input, obsolete_count};
use super::util::{Input, parse_size};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("bytes", HasArg::Required, "c"),
    long("lines", HasArg::Required, "n"),
    long("quiet", HasArg::No, "q"),
    long("silent", HasArg::No, "q"),
    long("verbose", HasArg::No, "v"),
    long("zero-terminated", HasArg::No, "z"),
    long("follow", HasArg::Optional, "f"),
    long("retry", HasArg::No, "retry"),
    long("sleep-interval", HasArg::Required, "s"),
    long("pid", HasArg::Required, "pid"),
    long("max-unchanged-stats", HasArg::Required, "mus"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: tail [OPTION]... [FILE]...
Print the last 10 lines of each FILE to standard output.
With more than one FILE, precede each with a header giving the file name.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --bytes=[+]NUM       output the last NUM bytes; or use -c +NUM to
                             output starting with byte NUM of each file
  -f, --follow[={name|descriptor}]
                           output appended data as the file grows;
                             an absent option argument means 'descriptor'
  -F                       same as --follow=name --retry
  -n, --lines=[+]NUM       output the last NUM lines, instead of the last 10;
                             or use -n +NUM to output starting with line NUM
      --max-unchanged-stats=N
                           with --follow=name, reopen a FILE which has not
                             changed size after N (default 5) iterations
                             to see if it has been unlinked or renamed
                             (this is the usual case of rotated log files);
                             with inotify, this option is rarely useful
      --pid=PID            with -f, terminate after process ID, PID dies
  -q, --quiet, --silent    never output headers giving file names
      --retry              keep trying to open a file if it is inaccessible
  -s, --sleep-interval=N   with -f, sleep for approximately N seconds
                             (default 1.0) between iterations;
                             with inotify and --pid=P, check process P at
                             least once every N seconds
  -v, --verbose            always output headers giving file names
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

NUM may have a multiplier suffix:
b 512, kB 1000, K 1024, MB 1000*1000, M 1024*1024,
GB 1000*1000*1000, G 1024*1024*1024, and so on for T, P, E, Z, Y.
Binary prefixes can be used, too: KiB=K, MiB=M, and so on.

With --follow (-f), tail defaults to following the file descriptor, which
means that even if a tail'ed file is renamed, tail will continue to track
its end.  This default behavior is not desirable when you really want to
track the actual name of the file, not the file descriptor (e.g., log
rotation).  Use --follow=name in that case.  That causes tail to track the
named file in a way that accommodates renaming, removal and creation.
";

#[derive(Clone, Copy)]
enum Amount {
    Last(u64),
    /// From the Nth record/byte on (1-based; 0 behaves like 1).
    From(u64),
}

fn parse_amount(v: &str) -> Result<Amount, &'static str> {
    let t = v.trim_start();
    let (from, digits) = match t.strip_prefix('+') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('-').unwrap_or(t)),
    };
    let n = parse_size(digits).ok_or("")?;
    if n == u64::MAX {
        return Err("Value too large for defined data type");
    }
    Ok(if from {
        Amount::From(n)
    } else {
        Amount::Last(n)
    })
}

pub fn tail(ctx: &mut Ctx) -> CmdResult {
    let mut args: Vec<String> = ctx.args.to_vec();
    if let Some(first) = args.first()
        && let Some(rest) = first.strip_prefix('+')
        && rest.starts_with(|c: char| c.is_ascii_digit())
    {
        let mut alt = vec![format!("-{rest}")];
        alt.extend(args.iter().skip(1).cloned());
        if let Some(mut v) = obsolete_count(&alt, 'n') {
            if let Some(n) = v.get_mut(1) {
                n.insert(0, '+');
            }
            args = v;
        }
    } else if let Some(v) = obsolete_count(&args, 'n') {
        args = v;
    }
    let parsed = match super::args::parse(&Spec::new("c:n:qvzfFs:", LONG), &args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let o = match counted_opts(ctx, &parsed, Amount::Last(10), parse_amount)? {
        Ok(o) => o,
        Err(status) => return Ok(status),
    };
    each_input(ctx, parsed.operands, &o, copy_tail)
}

/// Offset of the start of the `n`th record from the end (counting a final record
/// without delimiter).
fn last_records_start(data: &[u8], n: u64, delim: u8) -> usize {
    if n == 0 {
        return data.len();
    }
    let mut end = data.len();
    if data.last() == Some(&delim) {
        end -= 1;
    }
    let mut seen = 0u64;
    for i in (0..end).rev() {
        if data.get(i) == Some(&delim) {
            seen += 1;
            if seen == n {
                return i + 1;
            }
        }
    }
    0
}

/// Offset of the start of record `n` (1-based).
fn records_from(data: &[u8], n: u64, delim: u8) -> usize {
    let mut need = n.saturating_sub(1);
    if need == 0 {
        return 0;
    }
    for (i, &b) in data.iter().enumerate() {
        if b == delim {
            need -= 1;
            if need == 0 {
                return i + 1;
            }
        }
    }
    data.len()
}

fn copy_tail(
    input: Input,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    amount: Amount,
    bytes: bool,
    delim: u8,
) -> io::Result<()> {
    let to_usize = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    if let Some(data) = input.in_memory() {
        let start = match (amount, bytes) {
            (Amount::Last(n), true) => data.len().saturating_sub(to_usize(n)),
            (Amount::From(n), true) => to_usize(n.saturating_sub(1)).min(data.len()),
            (Amount::Last(n), false) => last_records_start(data, n, delim),
            (Amount::From(n), false) => records_from(data, n, delim),
        };
        return out.write_all(data.get(start..).unwrap_or(&[]));
    }
    let mut r = BufReader::with_capacity(8192, input.reader(stdin));
    match (amount, bytes) {
        (Amount::From(n), true) => {
            let mut skip = n.saturating_sub(1);
            while skip > 0 {
                let buf = r.fill_buf()?;
                if buf.is_empty() {
                    return Ok(());
                }
                let k = to_usize(skip).min(buf.len());
                r.consume(k);
                skip -= k as u64;
            }
            io::copy(&mut r, out)?;
        }
        (Amount::From(n), false) => {
            let mut line = Vec::new();
            for _ in 1..n.max(1) {
                line.clear();
                if r.read_until(delim, &mut line)? == 0 {
                    return Ok(());
                }
            }
            io::copy(&mut r, out)?;
        }
        (Amount::Last(n), true) => {
            let keep = to_usize(n);
            let mut held: VecDeque<u8> = VecDeque::new();
            let mut chunk = vec![0u8; 8192];
            loop {
                let got = r.read(&mut chunk)?;
                if got == 0 {
                    break;
                }
                held.extend(&chunk[..got]);
                let excess = held.len().saturating_sub(keep);
                held.drain(..excess);
            }
            let (a, b) = held.as_slices();
            out.write_all(a)?;
            out.write_all(b)?;
        }
        (Amount::Last(n), false) => {
            let keep = to_usize(n);
            let mut held: VecDeque<Vec<u8>> = VecDeque::new();
            loop {
                let mut line = Vec::new();
                if r.read_until(delim, &mut line)? == 0 {
                    break;
                }
                held.push_back(line);
                if held.len() > keep {
                    held.pop_front();
                }
            }
            for l in held {
                out.write_all(&l)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    const FILES: &[(&str, &str)] = &[
        ("s", "1\n2\n3\n4\n5\n"),
        ("a", "hello world\nfoo\n"),
        ("d/", ""),
    ];

    #[test]
    fn tail_table() {
        for (line, stdin, out, err, status) in [
            ("tail -n2 s", "", "4\n5\n", "", 0),
            ("tail -n +4 s", "", "4\n5\n", "", 0),
            ("tail +4 s", "", "4\n5\n", "", 0),
            ("tail -2 s", "", "4\n5\n", "", 0),
            ("tail -c3 s", "", "\n5\n", "", 0),
            ("tail -c +8 s", "", "\n5\n", "", 0),
            ("tail -n 0 s", "", "", "", 0),
            ("tail -n +0 s", "", "1\n2\n3\n4\n5\n", "", 0),
            (
                "tail s a",
                "",
                "==> s <==\n1\n2\n3\n4\n5\n\n==> a <==\nhello world\nfoo\n",
                "",
                0,
            ),
            ("tail -n1", "a\nb", "b", "", 0),
            ("tail -c1", "a\nb", "b", "", 0),
            ("tail -n2", "1\n2\n3\n", "2\n3\n", "", 0),
            ("tail -n +2", "1\n2\n3\n", "2\n3\n", "", 0),
            ("tail -c +2", "abc", "bc", "", 0),
            ("tail -c 2", "abc", "bc", "", 0),
            (
                "tail nosuch",
                "",
                "",
                "tail: cannot open 'nosuch' for reading: No such file or directory\n",
                1,
            ),
            (
                "tail d",
                "",
                "",
                "tail: error reading 'd': Is a directory\n",
                1,
            ),
            (
                "tail -n x s",
                "",
                "",
                "tail: invalid number of lines: 'x'\n",
                1,
            ),
        ] {
            check(FILES, line, stdin, (out, err, status));
        }
    }
}
