//! `tac`: concatenates files with their records in reverse order; records end with a
//! separator (`\n`, or a string given by `-s`; `-b` attaches it before).

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long};
use super::util::{OpenError, quotef};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("before", HasArg::No, "b"),
    long("separator", HasArg::Required, "s"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: tac [OPTION]... [FILE]...
Write each FILE to standard output, last line first.

  -b, --before             attach the separator before instead of after
  -s, --separator=STRING   use STRING as the separator instead of newline
      --help     display this help and exit
      --version  output version information and exit
";

/// Splits `data` into records, each keeping its separator (after, or with `before`, in
/// front).
fn split<'a>(data: &'a [u8], sep: &[u8], before: bool) -> Vec<&'a [u8]> {
    let cuts = crate::text::occurrences(data, sep);
    let mut recs = Vec::new();
    let mut start = 0;
    for c in cuts {
        let end = if before { c } else { c + sep.len() };
        if end > start {
            recs.push(data.get(start..end).unwrap_or(&[]));
        }
        start = end;
    }
    if start < data.len() {
        recs.push(data.get(start..).unwrap_or(&[]));
    }
    recs
}

pub fn tac(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("brs:", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let sep = crate::text::encode(parsed.last("s").unwrap_or("\n"));
    let before = parsed.has("b");
    let describe = |name: &str, e: &OpenError| {
        if e.is(crate::fs::Errno::EISDIR) {
            format!("{}: read error: {e}", quotef(name))
        } else {
            format!(
                "failed to open {} for reading: {e}",
                super::util::quote(name)
            )
        }
    };
    ctx.each_input_or(&parsed.operands, describe, |ctx, data| {
        // coreutils 9.1 finds no record in an empty separator and copies the input.
        if sep.is_empty() {
            return ctx.stdout.write_all(data);
        }
        let mut out = Vec::with_capacity(data.len());
        for rec in split(data, &sep, before).into_iter().rev() {
            out.extend_from_slice(rec);
        }
        ctx.stdout.write_all(&out)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn tac_table() {
        for (line, stdin, out) in [
            ("tac", "a\nb\nc\n", "c\nb\na\n"),
            ("tac", "a\nb\nc", "cb\na\n"),
            ("tac -s -", "a-b-c-", "c-b-a-"),
            ("tac -b -s -", "a-b-c", "-c-ba"),
            ("tac -s ab", "1ab2ab3", "32ab1ab"),
        ] {
            check(&[], line, stdin, (out, "", 0));
        }
        check(
            &[],
            "tac nope",
            "",
            (
                "",
                "tac: failed to open 'nope' for reading: No such file or directory\n",
                1,
            ),
        );
    }
}
