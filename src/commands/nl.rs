//! `nl`: numbers the lines of files (body section only: `-b a|t|n|pREGEX`, `-w`, `-s`,
//! `-v`, `-i`, `-n ln|rn|rz`). Section delimiters (`\:\:\:`) are passed through as
//! ordinary lines.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{chomp, lq, records};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("body-numbering", HasArg::Required, "b"),
    long("number-format", HasArg::Required, "n"),
    long("number-separator", HasArg::Required, "s"),
    long("number-width", HasArg::Required, "w"),
    long("starting-line-number", HasArg::Required, "v"),
    long("line-increment", HasArg::Required, "i"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: nl [OPTION]... [FILE]...
Write each FILE to standard output, with line numbers added.

  -b, --body-numbering=STYLE      use STYLE for numbering body lines
  -i, --line-increment=NUMBER     line number increment at each line
  -n, --number-format=FORMAT      insert line numbers according to FORMAT
  -s, --number-separator=STRING   add STRING after (possible) line number
  -v, --starting-line-number=NUMBER  first line number for each section
  -w, --number-width=NUMBER       use NUMBER columns for line numbers
      --help     display this help and exit
      --version  output version information and exit

STYLE is one of: a (all lines), t (nonempty lines), n (no lines),
pBRE (lines matching BRE). FORMAT is one of: ln, rn, rz.
";

enum Style {
    All,
    NonEmpty,
    None,
    Regex(regex::bytes::Regex),
}

pub fn nl(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("b:h:f:d:i:l:n:ps:v:w:", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mut style = Style::NonEmpty;
    let mut width = 6usize;
    let mut sep = "\t".to_owned();
    let mut start = 1i64;
    let mut incr = 1i64;
    let mut format = "rn".to_owned();
    for (k, v) in &parsed.opts {
        let Some(v) = v.as_deref() else { continue };
        let num = |v: &str| v.parse::<i64>().ok();
        match k.as_str() {
            "b" => {
                style = match v {
                    "a" => Style::All,
                    "t" => Style::NonEmpty,
                    "n" => Style::None,
                    _ => match v.strip_prefix('p').map(|re| {
                        crate::posix_regex::translate(re, false)
                            .ok()
                            .and_then(|r| regex::bytes::Regex::new(&r).ok())
                    }) {
                        Some(Some(re)) => Style::Regex(re),
                        _ => {
                            let msg = format!("invalid body numbering style: {}", lq(v));
                            return usage_error(ctx, &msg, 1);
                        }
                    },
                }
            }
            "w" => match num(v).filter(|n| *n > 0) {
                Some(n) => width = n as usize,
                None => {
                    ctx.err(format!("invalid line number field width: {}", lq(v)))?;
                    return Ok(1);
                }
            },
            "s" => sep = v.to_owned(),
            "v" => match num(v) {
                Some(n) => start = n,
                None => {
                    ctx.err(format!("invalid starting line number: {}", lq(v)))?;
                    return Ok(1);
                }
            },
            "i" => match num(v) {
                Some(n) => incr = n,
                None => {
                    ctx.err(format!("invalid line number increment: {}", lq(v)))?;
                    return Ok(1);
                }
            },
            "n" => {
                if !matches!(v, "ln" | "rn" | "rz") {
                    let msg = format!("invalid line numbering format: {}", lq(v));
                    return usage_error(ctx, &msg, 1);
                }
                format = v.to_owned();
            }
            _ => {}
        }
    }
    let blank = crate::text::encode(&format!("{}{}", " ".repeat(width), " ".repeat(sep.len())));
    let sep = crate::text::encode(&sep);
    let mut n = start;
    ctx.each_input(&parsed.operands, |ctx, data| {
        let mut out = Vec::with_capacity(data.len() + data.len() / 4);
        for rec in records(data, b'\n') {
            let body = chomp(rec, b'\n');
            let number = match &style {
                Style::All => true,
                Style::NonEmpty => !body.is_empty(),
                Style::None => false,
                Style::Regex(re) => re.is_match(body),
            };
            if number {
                let text = match format.as_str() {
                    "ln" => format!("{n:<width$}"),
                    "rz" => format!("{n:0width$}"),
                    _ => format!("{n:>width$}"),
                };
                out.extend_from_slice(text.as_bytes());
                out.extend_from_slice(&sep);
                n = n.wrapping_add(incr);
            } else {
                out.extend_from_slice(&blank);
            }
            out.extend_from_slice(rec);
            if out.len() > 8192 {
                ctx.host.check()?;
                ctx.stdout.write_all(&out)?;
                out.clear();
            }
        }
        ctx.stdout.write_all(&out)
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn nl_table() {
        for (line, stdin, out) in [
            ("nl", "a\n\nb\n", "     1\ta\n       \n     2\tb\n"),
            ("nl -ba", "a\n\nb\n", "     1\ta\n     2\t\n     3\tb\n"),
            ("nl -w2 -s:", "a\nb\n", " 1:a\n 2:b\n"),
            ("nl -n ln -w3", "a\n", "1  \ta\n"),
            ("nl -n rz -w3 -v 9 -i 2", "a\nb\n", "009\ta\n011\tb\n"),
            ("nl -b pb", "a\nb\n", "       a\n     1\tb\n"),
            ("nl", "x", "     1\tx"),
        ] {
            check(&[], line, stdin, (out, "", 0));
        }
        check(
            &[],
            "nl -b x",
            "",
            (
                "",
                "nl: invalid body numbering style: 'x'\nTry 'nl --help' for more information.\n",
                1,
            ),
        );
    }
}
