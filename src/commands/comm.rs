//! `comm`: compares two sorted files line by line, printing lines only in the first,
//! only in the second, and in both in three tab-indented columns (`-1 -2 -3` hide them).
//! Lines compare as bytes. Unsorted input is diagnosed as GNU does: by default once
//! per file after a line has been unpairable, failing at the end; `--check-order`
//! stops at the first line out of order; `--nocheck-order` never looks.

use std::cmp::Ordering;

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{chomp, lq, quotef, records};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("check-order", HasArg::No, "check-order"),
    long("nocheck-order", HasArg::No, "nocheck-order"),
    long("output-delimiter", HasArg::Required, "output-delimiter"),
    long("total", HasArg::No, "total"),
    long("zero-terminated", HasArg::No, "z"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: comm [OPTION]... FILE1 FILE2
Compare sorted files FILE1 and FILE2 line by line.

  -1              suppress column 1 (lines unique to FILE1)
  -2              suppress column 2 (lines unique to FILE2)
  -3              suppress column 3 (lines that appear in both files)
      --output-delimiter=STR  separate columns with STR
      --total           output a summary
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
";

pub fn comm(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("123z", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let ops = &parsed.operands;
    match ops.as_slice() {
        [] => return usage_error(ctx, "missing operand", 1),
        [one] => {
            return usage_error(ctx, &format!("missing operand after {}", lq(one)), 1);
        }
        [_, _, extra, ..] => {
            return usage_error(ctx, &format!("extra operand {}", lq(extra)), 1);
        }
        _ => {}
    }
    let eol = if parsed.has("z") { 0 } else { b'\n' };
    let mut data = Vec::new();
    for name in ops {
        match ctx.read_input(name)? {
            Ok(d) => data.push(d),
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                return Ok(1);
            }
        }
    }
    let (Some(a), Some(b)) = (data.first(), data.get(1)) else {
        return Ok(1);
    };
    let show = [!parsed.has("1"), !parsed.has("2"), !parsed.has("3")];
    let delim = crate::text::encode(parsed.last("output-delimiter").unwrap_or("\t"));
    let check = if parsed.has("nocheck-order") {
        CheckOrder::Off
    } else if parsed.has("check-order") {
        CheckOrder::Strict
    } else {
        CheckOrder::Default
    };
    let mut a_it = records(a, eol).map(|r| chomp(r, eol)).peekable();
    let mut b_it = records(b, eol).map(|r| chomp(r, eol)).peekable();
    // The previous line of each file, and whether its disorder was reported.
    let mut prev: [Option<&[u8]>; 2] = [None, None];
    let mut warned = [false, false];
    let mut seen_unpairable = false;
    let mut out = Vec::new();
    let mut totals = [0u64; 3];
    let mut emit = |col: usize, line: &[u8], out: &mut Vec<u8>| {
        totals[col] += 1;
        if !show[col] {
            return;
        }
        for shown in show.iter().take(col) {
            if *shown {
                out.extend_from_slice(&delim);
            }
        }
        out.extend_from_slice(line);
        out.push(eol);
    };
    loop {
        let col = match (a_it.peek(), b_it.peek()) {
            (None, None) => break,
            (Some(_), None) => 0,
            (None, Some(_)) => 1,
            (Some(x), Some(y)) => match x.cmp(y) {
                Ordering::Less => 0,
                Ordering::Greater => 1,
                Ordering::Equal => 2,
            },
        };
        let line = match col {
            0 => {
                prev[0] = a_it.next();
                prev[0]
            }
            1 => {
                prev[1] = b_it.next();
                prev[1]
            }
            _ => {
                prev[1] = b_it.next();
                prev[0] = a_it.next();
                prev[0]
            }
        };
        if col != 2 {
            seen_unpairable = true;
        }
        if let Some(l) = line {
            emit(col, l, &mut out);
        }
        let stepped = [col != 1, col != 0];
        // GNU checks a file's next line against its previous one as it reads it.
        let nexts = [a_it.peek().copied(), b_it.peek().copied()];
        for (file, next) in nexts.into_iter().enumerate() {
            if !stepped.get(file).copied().unwrap_or(false) || warned.get(file) == Some(&true) {
                continue;
            }
            let active = match check {
                CheckOrder::Off => false,
                CheckOrder::Strict => true,
                CheckOrder::Default => seen_unpairable,
            };
            if let (true, Some(Some(p)), Some(n)) = (active, prev.get(file), next)
                && *p > n
            {
                if let Some(w) = warned.get_mut(file) {
                    *w = true;
                }
                ctx.stdout.write_all(&out)?;
                out.clear();
                ctx.err(format!("file {} is not in sorted order", file + 1))?;
                if check == CheckOrder::Strict {
                    return Ok(1);
                }
            }
        }
    }
    if parsed.has("total") {
        let d = crate::text::decode(&delim);
        let line = format!("{}{d}{}{d}{}{d}total", totals[0], totals[1], totals[2]);
        out.extend_from_slice(&crate::text::encode(&line));
        out.push(eol);
    }
    ctx.stdout.write_all(&out)?;
    if warned.contains(&true) {
        ctx.err("input is not in sorted order")?;
        return Ok(1);
    }
    Ok(0)
}

/// How `comm` treats input that is not sorted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum CheckOrder {
    /// `--nocheck-order`.
    Off,
    /// Warn once per file, once some line was unpairable; fail at the end.
    Default,
    /// `--check-order`: the first disorder is fatal.
    Strict,
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn comm_table() {
        let files = &[("c1", "a\nb\nc\n"), ("c2", "b\nc\nd\n")];
        for (line, out, err, status) in [
            ("comm c1 c2", "a\n\t\tb\n\t\tc\n\td\n", "", 0),
            ("comm -12 c1 c2", "b\nc\n", "", 0),
            ("comm -3 c1 c2", "a\n\td\n", "", 0),
            ("comm -1 c1 c2", "\tb\n\tc\nd\n", "", 0),
            (
                "comm --output-delimiter=: c1 c2",
                "a\n::b\n::c\n:d\n",
                "",
                0,
            ),
            ("comm --total -12 c1 c2", "b\nc\n1\t1\t2\ttotal\n", "", 0),
            (
                "comm c1",
                "",
                "comm: missing operand after 'c1'\nTry 'comm --help' for more information.\n",
                1,
            ),
            (
                "comm c1 nope",
                "",
                "comm: nope: No such file or directory\n",
                1,
            ),
        ] {
            check(files, line, "", (out, err, status));
        }
    }
}
