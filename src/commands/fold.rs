//! `fold`: wraps input lines at a width (`-w`, default 80), counting columns (tabs to
//! the next multiple of 8) or bytes (`-b`), optionally breaking at blanks (`-s`).

use super::about::{HELP, VERSION};
use super::args::{HasArg, LongOpt, Spec, long};
use super::util::lq;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("bytes", HasArg::No, "b"),
    long("spaces", HasArg::No, "s"),
    long("width", HasArg::Required, "w"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: fold [OPTION]... [FILE]...
Wrap input lines in each FILE, writing to standard output.

  -b, --bytes         count bytes rather than columns
  -s, --spaces        break at spaces
  -w, --width=WIDTH   use WIDTH columns instead of 80
      --help     display this help and exit
      --version  output version information and exit
";

fn advance(col: usize, c: u8, bytes: bool) -> usize {
    if bytes {
        return col + 1;
    }
    match c {
        b'\x08' => col.saturating_sub(1),
        b'\r' => 0,
        b'\t' => col + 8 - col % 8,
        _ => col + 1,
    }
}

/// Folds `data` (GNU fold's algorithm).
fn fold_bytes(data: &[u8], width: usize, bytes: bool, spaces: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + data.len() / width.max(1));
    let mut line: Vec<u8> = Vec::new();
    let mut col = 0usize;
    for &c in data {
        if c == b'\n' {
            out.extend_from_slice(&line);
            out.push(b'\n');
            line.clear();
            col = 0;
            continue;
        }
        loop {
            let next = advance(col, c, bytes);
            if next <= width {
                col = next;
                line.push(c);
                break;
            }
            if spaces && let Some(pos) = line.iter().rposition(|&b| b == b' ' || b == b'\t') {
                let rest = line.split_off(pos + 1);
                out.extend_from_slice(&line);
                out.push(b'\n');
                line = rest;
                col = line.iter().fold(0, |acc, &b| advance(acc, b, bytes));
                continue;
            }
            if line.is_empty() {
                col = next;
                line.push(c);
                break;
            }
            out.extend_from_slice(&line);
            out.push(b'\n');
            line.clear();
            col = 0;
        }
    }
    out.extend_from_slice(&line);
    out
}

pub fn fold(ctx: &mut Ctx) -> CmdResult {
    // The obsolete `-N` form means `-w N`.
    let rewritten: Vec<String> = ctx
        .args
        .iter()
        .map(|a| match a.strip_prefix('-') {
            Some(d) if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) => format!("-w{d}"),
            _ => a.clone(),
        })
        .collect();
    let parsed = match super::args::parse(&Spec::new("bsw:", LONG), &rewritten) {
        Ok(p) => p,
        Err(msg) => return super::args::usage_error(ctx, &msg, 1),
    };
    if let Some(s) = super::about::std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut width = 80usize;
    if let Some(w) = parsed.last("w") {
        match w.parse::<usize>() {
            Ok(0) => {
                ctx.err(format!(
                    "invalid number of columns: {}: Numerical result out of range",
                    lq(w)
                ))?;
                return Ok(1);
            }
            Ok(n) => width = n,
            Err(_) => {
                ctx.err(format!("invalid number of columns: {}", lq(w)))?;
                return Ok(1);
            }
        }
    }
    ctx.each_input(&parsed.operands, |ctx, _, data| {
        ctx.host.check()?;
        let out = fold_bytes(data, width, parsed.has("b"), parsed.has("s"));
        ctx.stdout.write_all(&out)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn fold_table() {
        for (line, stdin, out, err, status) in [
            ("fold -w 4", "abcdefghij\n", "abcd\nefgh\nij\n", "", 0),
            ("fold -4", "abcdefghij\n", "abcd\nefgh\nij\n", "", 0),
            ("fold -s -w 5", "ab cd ef gh\n", "ab \ncd \nef gh\n", "", 0),
            ("fold -w 4", "a\tb\n", "a\n\t\nb\n", "", 0),
            ("fold -b -w 2", "a\tb", "a\t\nb", "", 0),
            (
                "fold -w 0",
                "",
                "",
                "fold: invalid number of columns: '0': Numerical result out of range\n",
                1,
            ),
            (
                "fold -w x",
                "",
                "",
                "fold: invalid number of columns: 'x'\n",
                1,
            ),
        ] {
            check(&[], line, stdin, (out, err, status));
        }
    }
}
