//! `nl`: numbers the lines of files (`-b`/`-h`/`-f a|t|n|pBRE`, `-w`, `-s`, `-v`, `-i`,
//! `-l`, `-n ln|rn|rz`). Lines made only of the section delimiter (`-d`, default `\:`)
//! three, two or one times start a logical page's header, body or footer; each prints
//! as an empty line and resets the number unless `-p`.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{chomp, lq, records};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("body-numbering", HasArg::Required, "b"),
    long("header-numbering", HasArg::Required, "h"),
    long("footer-numbering", HasArg::Required, "f"),
    long("section-delimiter", HasArg::Required, "d"),
    long("join-blank-lines", HasArg::Required, "l"),
    long("no-renumber", HasArg::No, "p"),
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

/// Parses a numbering style (`-b`, `-h`, `-f`); `None` for an invalid one.
fn style(v: &str) -> Option<Style> {
    match v {
        "a" => Some(Style::All),
        "t" => Some(Style::NonEmpty),
        "n" => Some(Style::None),
        _ => {
            let re = crate::posix_regex::translate(v.strip_prefix('p')?, false).ok()?;
            regex::bytes::Regex::new(&re).ok().map(Style::Regex)
        }
    }
}

/// The logical page sections a delimiter line switches to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Header,
    Body,
    Footer,
}

pub fn nl(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("b:h:f:d:i:l:n:ps:v:w:", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    // Header, body and footer styles.
    let mut styles = [Style::None, Style::NonEmpty, Style::None];
    let mut width = 6usize;
    let mut sep = "\t".to_owned();
    let mut start = 1i64;
    let mut incr = 1i64;
    let mut join_blank = 1u64;
    let mut format = "rn".to_owned();
    let mut delim = "\\:".to_owned();
    for (k, v) in &parsed.opts {
        let Some(v) = v.as_deref() else { continue };
        let num = |v: &str| v.parse::<i64>().ok();
        // GNU's "out of range" errors carry strerror(ERANGE).
        let out_of_range = |n: Option<i64>| {
            if n.is_some() {
                ": Numerical result out of range"
            } else {
                ""
            }
        };
        match k.as_str() {
            "b" | "h" | "f" => {
                let Some(s) = style(v) else {
                    let what = match k.as_str() {
                        "b" => "body",
                        "h" => "header",
                        _ => "footer",
                    };
                    let msg = format!("invalid {what} numbering style: {}", lq(v));
                    return usage_error(ctx, &msg, 1);
                };
                let slot = match k.as_str() {
                    "h" => 0,
                    "b" => 1,
                    _ => 2,
                };
                if let Some(x) = styles.get_mut(slot) {
                    *x = s;
                }
            }
            "w" => match num(v).filter(|n| *n > 0) {
                Some(n) => width = usize::try_from(n).unwrap_or(usize::MAX).min(1 << 16),
                None => {
                    let why = out_of_range(num(v));
                    ctx.err(format!("invalid line number field width: {}{why}", lq(v)))?;
                    return Ok(1);
                }
            },
            "l" => match num(v).filter(|n| *n > 0) {
                Some(n) => join_blank = n.unsigned_abs(),
                None => {
                    let why = out_of_range(num(v));
                    ctx.err(format!(
                        "invalid line number of blank lines: {}{why}",
                        lq(v)
                    ))?;
                    return Ok(1);
                }
            },
            "s" => sep = v.to_owned(),
            "d" => {
                // One character given: the second stays `:`.
                let mut cs = v.chars();
                delim = match (cs.next(), cs.next()) {
                    (Some(a), None) => format!("{a}:"),
                    _ => v.to_owned(),
                };
            }
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
    let renumber = !parsed.has("p");
    let delim = crate::text::encode(&delim);
    let delimiters = [
        (delim.repeat(3), Section::Header),
        (delim.repeat(2), Section::Body),
        (delim.clone(), Section::Footer),
    ];
    let blank = crate::text::encode(&format!("{}{}", " ".repeat(width), " ".repeat(sep.len())));
    let sep = crate::text::encode(&sep);
    let mut n = start;
    let mut section = Section::Body;
    let mut blank_run = 0u64;
    ctx.each_input(&parsed.operands, |ctx, _, data| {
        let mut out = Vec::with_capacity(data.len() + data.len() / 4);
        for rec in records(data, b'\n') {
            let body = chomp(rec, b'\n');
            if !delim.is_empty()
                && let Some((_, s)) = delimiters.iter().find(|(d, _)| d.as_slice() == body)
            {
                section = *s;
                if renumber {
                    n = start;
                }
                out.push(b'\n');
                continue;
            }
            let slot = match section {
                Section::Header => 0,
                Section::Body => 1,
                Section::Footer => 2,
            };
            let number = match styles.get(slot) {
                Some(Style::All) if body.is_empty() && join_blank > 1 => {
                    blank_run += 1;
                    let due = blank_run == join_blank;
                    if due {
                        blank_run = 0;
                    }
                    due
                }
                Some(Style::All) => {
                    blank_run = 0;
                    true
                }
                Some(Style::NonEmpty) => !body.is_empty(),
                Some(Style::Regex(re)) => re.is_match(body),
                Some(Style::None) | None => false,
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
            // GNU ends every line, the last one included, with a newline.
            out.extend_from_slice(body);
            out.push(b'\n');
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
            // GNU ends the last line with a newline too.
            ("nl", "x", "     1\tx\n"),
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
