//! `cut`: prints selected bytes (`-b`, and `-c`, which GNU treats as bytes) or
//! delimiter-separated fields (`-f`, `-d`, `-s`) of each line, with `--complement` and
//! `--output-delimiter`.

use std::io::{BufRead, BufReader};

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{chomp, lq, quotef};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("bytes", HasArg::Required, "b"),
    long("characters", HasArg::Required, "c"),
    long("delimiter", HasArg::Required, "d"),
    long("fields", HasArg::Required, "f"),
    long("complement", HasArg::No, "complement"),
    long("only-delimited", HasArg::No, "s"),
    long("output-delimiter", HasArg::Required, "output-delimiter"),
    long("zero-terminated", HasArg::No, "z"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: cut OPTION... [FILE]...
Print selected parts of lines from each FILE to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --bytes=LIST        select only these bytes
  -c, --characters=LIST   select only these characters
  -d, --delimiter=DELIM   use DELIM instead of TAB for field delimiter
  -f, --fields=LIST       select only these fields;  also print any line
                            that contains no delimiter character, unless
                            the -s option is specified
  -n                      (ignored)
      --complement        complement the set of selected bytes, characters
                            or fields
  -s, --only-delimited    do not print lines not containing delimiters
      --output-delimiter=STRING  use STRING as the output delimiter
                            the default is to use the input delimiter
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Use one, and only one of -b, -c or -f.  Each LIST is made up of one
range, or many ranges separated by commas.  Selected input is written
in the same order that it is read, and is written exactly once.
Each range is one of:

  N     N'th byte, character or field, counted from 1
  N-    from N'th byte, character or field, to end of line
  N-M   from N'th to M'th (included) byte, character or field
  -M    from first to M'th (included) byte, character or field
";

/// Inclusive 1-based ranges, sorted, overlapping ones merged.
pub(super) fn parse_list(list: &str, fields: bool) -> Result<Vec<(usize, usize)>, String> {
    let zero_msg = if fields {
        "fields are numbered from 1"
    } else {
        "byte/character positions are numbered from 1"
    };
    let invalid = |v: &str| {
        if fields {
            format!("invalid field value {}", lq(v))
        } else {
            format!("invalid byte/character position {}", lq(v))
        }
    };
    let num = |s: &str| -> Result<usize, String> {
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(invalid(s));
        }
        match s.parse::<usize>() {
            Ok(0) => Err(zero_msg.to_owned()),
            Ok(n) => Ok(n),
            Err(_) => Err(format!(
                "{} {} is too large",
                if fields {
                    "field number"
                } else {
                    "byte/character offset"
                },
                lq(s)
            )),
        }
    };
    let mut ranges = Vec::new();
    for part in list.split([',', ' ', '\t']) {
        let r = match part.split_once('-') {
            None => {
                if part.is_empty() {
                    return Err(zero_msg.to_owned());
                }
                let n = num(part)?;
                (n, n)
            }
            Some(("", "")) => return Err("invalid range with no endpoint: -".to_owned()),
            Some((_, hi)) if hi.contains('-') => {
                return Err(format!(
                    "invalid {} range",
                    if fields { "field" } else { "byte or character" }
                ));
            }
            Some((lo, hi)) => {
                let lo = if lo.is_empty() { 1 } else { num(lo)? };
                let hi = if hi.is_empty() { usize::MAX } else { num(hi)? };
                if hi < lo {
                    return Err("invalid decreasing range".to_owned());
                }
                (lo, hi)
            }
        };
        ranges.push(r);
    }
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (lo, hi) in ranges {
        match merged.last_mut() {
            Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
            _ => merged.push((lo, hi)),
        }
    }
    Ok(merged)
}

fn complement(ranges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut next = 1usize;
    for &(lo, hi) in ranges {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = hi.saturating_add(1);
        if hi == usize::MAX {
            return out;
        }
    }
    out.push((next, usize::MAX));
    out
}

pub fn cut(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("b:c:d:f:nsz", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut list: Option<(String, bool)> = None;
    let mut delim_in: Option<u8> = None;
    let mut out_delim: Option<Vec<u8>> = None;
    for (k, v) in &parsed.opts {
        let v = v.clone().unwrap_or_default();
        match k.as_str() {
            "b" | "c" | "f" => {
                if list.is_some() {
                    return usage_error(ctx, "only one list may be specified", 1);
                }
                list = Some((v, k == "f"));
            }
            "d" => {
                let b = crate::text::encode(&v);
                match b.as_slice() {
                    [] => delim_in = Some(0),
                    [c] => delim_in = Some(*c),
                    _ => {
                        return usage_error(ctx, "the delimiter must be a single character", 1);
                    }
                }
            }
            "output-delimiter" => out_delim = Some(crate::text::encode(&v)),
            _ => {}
        }
    }
    let Some((list, fields)) = list else {
        return usage_error(
            ctx,
            "you must specify a list of bytes, characters, or fields",
            1,
        );
    };
    if !fields && delim_in.is_some() {
        return usage_error(
            ctx,
            "an input delimiter may be specified only when operating on fields",
            1,
        );
    }
    let only_delimited = parsed.has("s");
    if !fields && only_delimited {
        return usage_error(
            ctx,
            "suppressing non-delimited lines makes sense\n\tonly when operating on fields",
            1,
        );
    }
    let mut ranges = match parse_list(&list, fields) {
        Ok(r) => r,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if parsed.has("complement") {
        ranges = complement(&ranges);
    }
    let eol = if parsed.has("z") { 0 } else { b'\n' };
    let delim = delim_in.unwrap_or(b'\t');
    let out_delim_fields = out_delim.clone().unwrap_or_else(|| vec![delim]);
    let selected = |n: usize| ranges.iter().any(|&(lo, hi)| lo <= n && n <= hi);

    let files = if parsed.operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    };
    let mut status = 0;
    for name in &files {
        let input = match ctx.open_input(name) {
            Ok(i) => i,
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                status = 1;
                continue;
            }
        };
        let mut r = BufReader::new(input.reader(&mut *ctx.stdin));
        let mut rec = Vec::new();
        let mut out = Vec::new();
        let mut count = 0u64;
        loop {
            rec.clear();
            if r.read_until(eol, &mut rec)? == 0 {
                break;
            }
            count += 1;
            if count.is_multiple_of(1000) {
                ctx.host.check()?;
            }
            let line = chomp(&rec, eol);
            if fields {
                if !line.contains(&delim) {
                    if !only_delimited {
                        out.extend_from_slice(line);
                        out.push(eol);
                    }
                } else {
                    let mut first = true;
                    for (i, f) in line.split(|&b| b == delim).enumerate() {
                        if selected(i + 1) {
                            if !first {
                                out.extend_from_slice(&out_delim_fields);
                            }
                            first = false;
                            out.extend_from_slice(f);
                        }
                    }
                    out.push(eol);
                }
            } else {
                let mut printed = false;
                for &(lo, hi) in &ranges {
                    if lo > line.len() {
                        break;
                    }
                    let part = &line[lo - 1..hi.min(line.len())];
                    if printed && let Some(d) = &out_delim {
                        out.extend_from_slice(d);
                    }
                    out.extend_from_slice(part);
                    printed = true;
                }
                out.push(eol);
            }
            if out.len() >= 8192 {
                ctx.stdout.write_all(&out)?;
                out.clear();
            }
        }
        ctx.stdout.write_all(&out)?;
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    const FILES: &[(&str, &str)] = &[("a", "hello world\nfoo\n"), ("d/", "")];

    #[test]
    fn cut_table() {
        for (line, stdin, out, err, status) in [
            ("cut -d: -f2", "a:b:c\nnodelim\n", "b\nnodelim\n", "", 0),
            ("cut -d: -f2 -s", "a:b:c\nnodelim\n", "b\n", "", 0),
            (
                "cut -d: -f1,3 --output-delimiter=-",
                "a:b:c\n",
                "a-c\n",
                "",
                0,
            ),
            ("cut -b2-4,1", "abcdef\n", "abcd\n", "", 0),
            ("cut -c -2,5-", "abcdef\n", "abef\n", "", 0),
            ("cut --complement -b2-3", "abcdef\n", "adef\n", "", 0),
            ("cut -f2", "a\tb\n", "b\n", "", 0),
            (
                "cut -b1-2,2-3 --output-delimiter=:",
                "abcdef\n",
                "abc\n",
                "",
                0,
            ),
            (
                "cut -b1-2,3-4 --output-delimiter=:",
                "abcdef\n",
                "ab:cd\n",
                "",
                0,
            ),
            (
                "cut --complement -b2,4 --output-delimiter=:",
                "abcdef\n",
                "a:c:ef\n",
                "",
                0,
            ),
            ("cut -d: --complement -f2", "a:b:c:d\n", "a:c:d\n", "", 0),
            ("cut -d: -f3-", "a:b:c\n", "c\n", "", 0),
            ("cut -d, -f '1 2'", "a,b\n", "a,b\n", "", 0),
            ("cut -b1", "abc", "a\n", "", 0),
            ("cut -b5", "abc\n", "\n", "", 0),
            ("cut -z -b1", "ab\0cd\0", "a\0c\0", "", 0),
            ("cut -f1 a", "", "hello world\nfoo\n", "", 0),
            ("cut -d' ' -f2 a", "", "world\nfoo\n", "", 0),
            (
                "cut -f1 nosuch",
                "",
                "",
                "cut: nosuch: No such file or directory\n",
                1,
            ),
            ("cut -f1 d", "", "", "cut: d: Is a directory\n", 1),
            (
                "cut",
                "",
                "",
                "cut: you must specify a list of bytes, characters, or fields\nTry 'cut --help' for more information.\n",
                1,
            ),
            (
                "cut -f1 -b1",
                "",
                "",
                "cut: only one list may be specified\nTry 'cut --help' for more information.\n",
                1,
            ),
            (
                "cut -b 0",
                "",
                "",
                "cut: byte/character positions are numbered from 1\nTry 'cut --help' for more information.\n",
                1,
            ),
            (
                "cut -b 3-1",
                "",
                "",
                "cut: invalid decreasing range\nTry 'cut --help' for more information.\n",
                1,
            ),
            (
                "cut -f x",
                "",
                "",
                "cut: invalid field value 'x'\nTry 'cut --help' for more information.\n",
                1,
            ),
            (
                "cut -b x",
                "",
                "",
                "cut: invalid byte/character position 'x'\nTry 'cut --help' for more information.\n",
                1,
            ),
            (
                "cut -f 0",
                "",
                "",
                "cut: fields are numbered from 1\nTry 'cut --help' for more information.\n",
                1,
            ),
            (
                "cut -d ab -f1",
                "",
                "",
                "cut: the delimiter must be a single character\nTry 'cut --help' for more information.\n",
                1,
            ),
            (
                "cut -b1 -d:",
                "",
                "",
                "cut: an input delimiter may be specified only when operating on fields\nTry 'cut --help' for more information.\n",
                1,
            ),
            (
                "cut -s -b1",
                "",
                "",
                "cut: suppressing non-delimited lines makes sense\n\tonly when operating on fields\nTry 'cut --help' for more information.\n",
                1,
            ),
            (
                "cut -b -",
                "",
                "",
                "cut: invalid range with no endpoint: -\nTry 'cut --help' for more information.\n",
                1,
            ),
        ] {
            check(FILES, line, stdin, (out, err, status));
        }
    }
}

#[cfg(test)]
mod stream_tests {
    use crate::commands::testing::run_endless;

    #[test]
    fn endless_input_ends() {
        let (out, status, _) = run_endless("cut -c1", b"yz\n", 20_000);
        assert_eq!((out.len(), status), (20_000, 141));
    }
}
