//! `uniq`: collapses runs of equal adjacent lines (compared after skipping fields and
//! characters, optionally case-insensitively), counting or selecting repeats.

use std::io::{BufRead, BufReader};

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{chomp, lq, quote, quotef};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("count", HasArg::No, "c"),
    long("repeated", HasArg::No, "d"),
    long("all-repeated", HasArg::Optional, "D"),
    long("group", HasArg::Optional, "group"),
    long("skip-fields", HasArg::Required, "f"),
    long("ignore-case", HasArg::No, "i"),
    long("skip-chars", HasArg::Required, "s"),
    long("unique", HasArg::No, "u"),
    long("zero-terminated", HasArg::No, "z"),
    long("check-chars", HasArg::Required, "w"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: uniq [OPTION]... [INPUT [OUTPUT]]
Filter adjacent matching lines from INPUT (or standard input),
writing to OUTPUT (or standard output).

With no options, matching lines are merged to the first occurrence.

Mandatory arguments to long options are mandatory for short options too.
  -c, --count           prefix lines by the number of occurrences
  -d, --repeated        only print duplicate lines, one for each group
  -D                    print all duplicate lines
      --all-repeated[=METHOD]  like -D, but allow separating groups
                                 with an empty line;
                                 METHOD={none(default),prepend,separate}
  -f, --skip-fields=N   avoid comparing the first N fields
      --group[=METHOD]  show all items, separating groups with an empty line;
                          METHOD={separate(default),prepend,append,both}
  -i, --ignore-case     ignore differences in case when comparing
  -s, --skip-chars=N    avoid comparing the first N characters
  -u, --unique          only print unique lines
  -z, --zero-terminated     line delimiter is NUL, not newline
  -w, --check-chars=N   compare no more than N characters in lines
      --help        display this help and exit
      --version     output version information and exit

A field is a run of blanks (usually spaces and/or TABs), then non-blank
characters.  Fields are skipped before chars.

Note: 'uniq' does not detect repeated lines unless they are adjacent.
You may want to sort the input first, or use 'sort -u' without 'uniq'.
";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Delimit {
    None,
    Prepend,
    Separate,
    Append,
    Both,
}

struct Cfg {
    skip_fields: usize,
    skip_chars: usize,
    check_chars: Option<usize>,
    ignore_case: bool,
}

impl Cfg {
    fn key<'a>(&self, line: &'a [u8]) -> &'a [u8] {
        let mut p = 0;
        let blank = |b: u8| b == b' ' || b == b'\t';
        for _ in 0..self.skip_fields {
            while p < line.len() && blank(line[p]) {
                p += 1;
            }
            while p < line.len() && !blank(line[p]) {
                p += 1;
            }
        }
        p = p.saturating_add(self.skip_chars).min(line.len());
        let rest = &line[p..];
        match self.check_chars {
            Some(w) => &rest[..w.min(rest.len())],
            None => rest,
        }
    }
    fn same(&self, a: &[u8], b: &[u8]) -> bool {
        let (ka, kb) = (self.key(a), self.key(b));
        if self.ignore_case {
            ka.eq_ignore_ascii_case(kb)
        } else {
            ka == kb
        }
    }
}

fn parse_count(v: &str) -> Option<usize> {
    let t = v.trim_start();
    let t = t.strip_prefix('+').unwrap_or(t);
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(t.parse().unwrap_or(usize::MAX))
}

pub fn uniq(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("cdDf:is:uzw:", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut cfg = Cfg {
        skip_fields: 0,
        skip_chars: 0,
        check_chars: None,
        ignore_case: false,
    };
    let (mut count, mut repeated, mut unique_only, mut all) = (false, false, false, false);
    let mut group = None;
    let mut delimit = Delimit::None;
    let mut delim = b'\n';
    for (k, v) in &parsed.opts {
        let v = v.as_deref();
        match k.as_str() {
            "c" => count = true,
            "d" => repeated = true,
            "u" => unique_only = true,
            "i" => cfg.ignore_case = true,
            "z" => delim = 0,
            "D" | "group" => {
                let choice = match (k.as_str(), v) {
                    ("D", None) => Delimit::None,
                    (_, None) => Delimit::Separate,
                    (_, Some("none")) if k == "D" => Delimit::None,
                    (_, Some("prepend")) => Delimit::Prepend,
                    (_, Some("separate")) => Delimit::Separate,
                    (_, Some("append")) if k == "group" => Delimit::Append,
                    (_, Some("both")) if k == "group" => Delimit::Both,
                    (_, Some(other)) => {
                        let name = if k == "D" {
                            "--all-repeated"
                        } else {
                            "--group"
                        };
                        let valid = if k == "D" {
                            "  - 'none'\n  - 'prepend'\n  - 'separate'"
                        } else {
                            "  - 'prepend'\n  - 'append'\n  - 'separate'\n  - 'both'"
                        };
                        ctx.err(format!(
                            "invalid argument {} for '{name}'\nValid arguments are:\n{valid}",
                            lq(other)
                        ))?;
                        return usage_error(ctx, "", 1);
                    }
                };
                delimit = choice;
                if k == "D" {
                    all = true;
                } else {
                    group = Some(choice);
                }
            }
            k @ ("f" | "s" | "w") => {
                let v = v.unwrap_or("");
                let Some(n) = parse_count(v) else {
                    let what = match k {
                        "f" => "invalid number of fields to skip",
                        "s" => "invalid number of bytes to skip",
                        _ => "invalid number of bytes to compare",
                    };
                    ctx.err(format!("{v}: {what}"))?;
                    return Ok(1);
                };
                match k {
                    "f" => cfg.skip_fields = n,
                    "s" => cfg.skip_chars = n,
                    _ => cfg.check_chars = Some(n),
                }
            }
            _ => {}
        }
    }
    if group.is_some() && (count || repeated || unique_only || all) {
        ctx.err("--group is mutually exclusive with -c/-d/-D/-u")?;
        return usage_error(ctx, "", 1);
    }
    if count && all {
        ctx.err("printing all duplicated lines and repeat counts is meaningless")?;
        return usage_error(ctx, "", 1);
    }
    if let Some(extra) = parsed.operands.get(2) {
        ctx.err(format!("extra operand {}", lq(extra)))?;
        return usage_error(ctx, "", 1);
    }
    let input_name = parsed
        .operands
        .first()
        .map_or("-", String::as_str)
        .to_owned();
    let output_name = parsed.operands.get(1).cloned();
    let input = match ctx.open_input(&input_name) {
        Ok(i) => i,
        Err(e) if e.is(crate::fs::Errno::EISDIR) => {
            ctx.err(format!("error reading {}", quote(&input_name)))?;
            return Ok(1);
        }
        Err(e) => {
            ctx.err(format!("{}: {e}", quotef(&input_name)))?;
            return Ok(1);
        }
    };
    let mut out_buf: Vec<u8> = Vec::new();
    // GNU uniq opens the output (truncating it, waiting for a FIFO's reader) after the
    // input and before reading it, then writes as it goes.
    let mut out_file = None;
    if let Some(name) = output_name.as_deref().filter(|n| *n != "-") {
        match ctx.open_output(name, false)? {
            Ok(o) => out_file = Some(o),
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                return Ok(1);
            }
        }
    }
    // Large reads: fewer trips to a pipe's lock.
    let mut reader = BufReader::with_capacity(1 << 16, input.reader(&mut *ctx.stdin));
    let mut prev: Option<Vec<u8>> = None;
    let mut run = 0u64;
    let mut groups_printed = 0u64;
    let mut line = Vec::new();
    let mut lines_seen = 0u64;
    loop {
        line.clear();
        let more = reader.read_until(delim, &mut line)? > 0;
        lines_seen += 1;
        if lines_seen.is_multiple_of(1000) {
            ctx.host.check()?;
        }
        let cur = chomp(&line, delim);
        let same = more && prev.as_deref().is_some_and(|p| cfg.same(p, cur));
        if let Some(group) = group {
            if more {
                let first = prev.is_none();
                if !same
                    && (matches!(group, Delimit::Prepend | Delimit::Both)
                        || (!first && matches!(group, Delimit::Separate | Delimit::Append)))
                {
                    out_buf.push(delim);
                }
                out_buf.extend_from_slice(cur);
                out_buf.push(delim);
                prev = Some(cur.to_vec());
            } else if prev.is_some() && matches!(group, Delimit::Append | Delimit::Both) {
                out_buf.push(delim);
            }
        } else if all {
            if same {
                if run == 1 {
                    if delimit == Delimit::Prepend
                        || (delimit == Delimit::Separate && groups_printed > 0)
                    {
                        out_buf.push(delim);
                    }
                    groups_printed += 1;
                    if let Some(p) = &prev {
                        out_buf.extend_from_slice(p);
                        out_buf.push(delim);
                    }
                }
                out_buf.extend_from_slice(cur);
                out_buf.push(delim);
                run += 1;
            } else {
                prev = more.then(|| cur.to_vec());
                run = 1;
            }
        } else if same {
            run += 1;
        } else {
            if let Some(p) = &prev {
                let show = (!repeated || run > 1) && (!unique_only || run == 1);
                if show {
                    if count {
                        out_buf.extend_from_slice(format!("{run:7} ").as_bytes());
                    }
                    out_buf.extend_from_slice(p);
                    out_buf.push(delim);
                }
            }
            prev = more.then(|| cur.to_vec());
            run = 1;
        }
        if out_buf.len() >= 8192 || !more {
            if let Some(out) = &mut out_file {
                if let Err(e) = out.write(ctx.fs, &out_buf)? {
                    let name = output_name.as_deref().unwrap_or_default();
                    ctx.err(format!("{}: {e}", quotef(name)))?;
                    return Ok(1);
                }
            } else {
                ctx.stdout.write_all(&out_buf)?;
            }
            out_buf.clear();
        }
        if !more {
            break;
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    const FILES: &[(&str, &str)] = &[("f", "a\na\nb\n"), ("d/", "")];

    #[test]
    fn uniq_table() {
        for (line, stdin, out, err, status) in [
            ("uniq", "a\na\nb\na\n", "a\nb\na\n", "", 0),
            ("uniq -c", "a\na\nb\n", "      2 a\n      1 b\n", "", 0),
            ("uniq -d", "a\na\nb\n", "a\n", "", 0),
            ("uniq -u", "a\na\nb\n", "b\n", "", 0),
            ("uniq -D", "a\na\nb\n", "a\na\n", "", 0),
            (
                "uniq --all-repeated=separate",
                "a\na\nb\nc\nc\n",
                "a\na\n\nc\nc\n",
                "",
                0,
            ),
            (
                "uniq --all-repeated=prepend",
                "a\na\nb\nb\n",
                "\na\na\n\nb\nb\n",
                "",
                0,
            ),
            (
                "uniq --group",
                "a\na\nb\nb\nc\n",
                "a\na\n\nb\nb\n\nc\n",
                "",
                0,
            ),
            ("uniq --group=both", "a\nb\n", "\na\n\nb\n\n", "", 0),
            ("uniq --group=append", "a\nb\n", "a\n\nb\n\n", "", 0),
            (
                "uniq --group -c",
                "",
                "",
                "uniq: --group is mutually exclusive with -c/-d/-D/-u\nTry 'uniq --help' for more information.\n",
                1,
            ),
            ("uniq -i", "a\nA\nb\n", "a\nb\n", "", 0),
            ("uniq -f1", "x a\ny a\nz b\n", "x a\nz b\n", "", 0),
            ("uniq -s1", "xa\nya\nzb\n", "xa\nzb\n", "", 0),
            ("uniq -w1", "ab\nac\nbc\n", "ab\nbc\n", "", 0),
            ("uniq -c", "a\na", "      2 a\n", "", 0),
            ("uniq", "a\nb", "a\nb\n", "", 0),
            ("uniq f", "", "a\nb\n", "", 0),
            ("uniq -z", "a\0a\0", "a\0", "", 0),
            (
                "uniq nosuch",
                "",
                "",
                "uniq: nosuch: No such file or directory\n",
                1,
            ),
            ("uniq d", "", "", "uniq: error reading 'd'\n", 1),
            (
                "uniq a b c",
                "",
                "",
                "uniq: extra operand 'c'\nTry 'uniq --help' for more information.\n",
                1,
            ),
            (
                "uniq -c -D",
                "",
                "",
                "uniq: printing all duplicated lines and repeat counts is meaningless\nTry 'uniq --help' for more information.\n",
                1,
            ),
            (
                "uniq -f x",
                "",
                "",
                "uniq: x: invalid number of fields to skip\n",
                1,
            ),
        ] {
            check(FILES, line, stdin, (out, err, status));
        }
    }
}
