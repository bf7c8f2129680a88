//! `strings` (GNU binutils): prints the runs of printable characters at least `-n N`
//! (default 4) long in each file, optionally with the file name (`-f`) or offset
//! (`-t o|d|x`, `-o`), all whitespace as text (`-w`), an output separator (`-s`), and
//! 8-bit bytes as text (`-e S`). Files are always scanned whole, as `-a` (or `-`) asks.

use super::about::HELP;
use super::args::{HasArg, LongOpt, Spec, long, parse};
use super::{CmdResult, Ctx};
use crate::fs::Errno;

const LONG: &[LongOpt] = &[
    long("all", HasArg::No, "a"),
    long("data", HasArg::No, "d"),
    long("print-file-name", HasArg::No, "f"),
    long("bytes", HasArg::Required, "n"),
    long("radix", HasArg::Required, "t"),
    long("include-all-whitespace", HasArg::No, "w"),
    long("encoding", HasArg::Required, "e"),
    long("output-separator", HasArg::Required, "s"),
    long("target", HasArg::Required, "T"),
    HELP,
    long("version", HasArg::No, "version"),
];

const USAGE: &str = "\
Usage: strings [option(s)] [file(s)]
 Display printable strings in [file(s)] (stdin by default)
 The options are:
  -a - --all                Scan the entire file, not just the data section [default]
  -d --data                 Only scan the data sections in the file
  -f --print-file-name      Print the name of the file before each string
  -n <number>               Locate & print any sequence of at least <number>
    --bytes=<number>         displayable characters.  (The default is 4).
  -t --radix={o,d,x}        Print the location of the string in base 8, 10 or 16
  -w --include-all-whitespace Include all whitespace as valid string characters
  -o                        An alias for --radix=o
  -e --encoding={s,S}       Select character size: s = 7-bit, S = 8-bit
  -s --output-separator=<string> String used to separate strings in output.
  -h --help                 Display this information
  -v -V --version           Print the program's version number
";

/// Moves obsolescent `-N` (minimum length) words to `--bytes=N`.
fn obsolete_min(args: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        if a == "--" {
            out.extend(args[i..].iter().cloned());
            break;
        }
        match a.strip_prefix('-') {
            Some(n) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                out.push(format!("--bytes={n}"));
            }
            _ => out.push(a.clone()),
        }
    }
    out
}

fn bad_usage(ctx: &mut Ctx) -> CmdResult {
    ctx.stderr.write_all(USAGE.as_bytes())?;
    Ok(1)
}

pub fn strings(ctx: &mut Ctx) -> CmdResult {
    let args = obsolete_min(ctx.args);
    let parsed = match parse(&Spec::new("adfhn:ot:vVwe:s:T:", LONG), &args) {
        Ok(p) => p,
        Err(msg) => {
            ctx.err(msg)?;
            return bad_usage(ctx);
        }
    };
    let mut min = 4usize;
    let mut radix: Option<char> = None;
    let mut names = false;
    let mut all_space = false;
    let mut eight_bit = false;
    let mut sep = b"\n".to_vec();
    for (k, v) in &parsed.opts {
        let val = v.as_deref().unwrap_or("");
        match k.as_str() {
            "help" | "h" => {
                ctx.stdout.write_all(USAGE.as_bytes())?;
                return Ok(0);
            }
            "version" | "v" | "V" => {
                writeln!(
                    ctx.stdout,
                    "strings (shellbox) {}",
                    env!("CARGO_PKG_VERSION")
                )?;
                return Ok(0);
            }
            "f" => names = true,
            "w" => all_space = true,
            "o" => radix = Some('o'),
            "t" => match val {
                "o" | "d" | "x" => radix = val.chars().next(),
                _ => return bad_usage(ctx),
            },
            "e" => match val {
                "s" => eight_bit = false,
                "S" => eight_bit = true,
                _ => {
                    ctx.err(format!("invalid encoding {val}"))?;
                    return Ok(1);
                }
            },
            "s" => sep = crate::text::encode(val),
            "n" => match val.parse::<u64>() {
                Ok(0) => {
                    ctx.err("invalid minimum string length 0")?;
                    return Ok(1);
                }
                Ok(n) => min = usize::try_from(n).unwrap_or(usize::MAX),
                Err(_) => {
                    ctx.err(format!("invalid integer argument {val}"))?;
                    return Ok(1);
                }
            },
            _ => {}
        }
    }
    // binutils reads a `-` operand as `-a` (scan whole files, which is all this
    // `strings` does), never as standard input; operands that are all `-` name no file,
    // which is a usage error.
    let files: Vec<&str> = if parsed.operands.is_empty() {
        vec!["-"]
    } else {
        parsed
            .operands
            .iter()
            .map(String::as_str)
            .filter(|n| *n != "-")
            .collect()
    };
    if files.is_empty() {
        return bad_usage(ctx);
    }
    let is_text = |b: u8| {
        b == b'\t'
            || (0x20..0x7f).contains(&b)
            || (eight_bit && b >= 0x80)
            || (all_space && matches!(b, b'\n' | b'\r' | 0x0b | 0x0c))
    };
    let mut status = 0;
    for &name in &files {
        let data = match ctx.read_input(name)? {
            Ok(d) => d,
            Err(e) if e.is(Errno::EISDIR) => {
                ctx.err(format!("Warning: '{name}' is a directory"))?;
                status = 1;
                continue;
            }
            Err(_) => {
                ctx.err(format!("'{name}': No such file"))?;
                status = 1;
                continue;
            }
        };
        let label = if parsed.operands.is_empty() {
            "{standard input}"
        } else {
            name
        };
        let mut out = Vec::new();
        let mut start = 0;
        for (i, &b) in data.iter().chain(std::iter::once(&0)).enumerate() {
            if i < data.len() && is_text(b) {
                continue;
            }
            if i - start >= min
                && let Some(run) = data.get(start..i)
            {
                if names {
                    out.extend_from_slice(label.as_bytes());
                    out.extend_from_slice(b": ");
                }
                match radix {
                    Some('o') => out.extend_from_slice(format!("{start:7o} ").as_bytes()),
                    Some('d') => out.extend_from_slice(format!("{start:7} ").as_bytes()),
                    Some(_) => out.extend_from_slice(format!("{start:7x} ").as_bytes()),
                    None => {}
                }
                out.extend_from_slice(run);
                out.extend_from_slice(&sep);
                if out.len() > 8192 {
                    ctx.host.check()?;
                    ctx.stdout.write_all(&out)?;
                    out.clear();
                }
            }
            start = i + 1;
        }
        ctx.stdout.write_all(&out)?;
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn strings_table() {
        let st = "ab\tcdef\0xyz\nhello\x01worldwide\x7fabcd";
        for (line, out) in [
            ("strings st", "ab\tcdef\nhello\nworldwide\nabcd\n"),
            (
                "strings -n 3 -t x st",
                "      0 ab\tcdef\n      8 xyz\n      c hello\n     12 worldwide\n     1c abcd\n",
            ),
            (
                "strings -td -5 st",
                "      0 ab\tcdef\n     12 hello\n     18 worldwide\n",
            ),
            ("strings -o -n 9 st", "     22 worldwide\n"),
            (
                "strings -f -s , st",
                "st: ab\tcdef,st: hello,st: worldwide,st: abcd,",
            ),
            ("strings -w st", "ab\tcdef\nxyz\nhello\nworldwide\nabcd\n"),
        ] {
            check(&[("st", st)], line, "", (out, "", 0));
        }
        check(
            &[],
            "strings -f",
            "abcd",
            ("{standard input}: abcd\n", "", 0),
        );
        check(
            &[("d/", "")],
            "strings nofile d",
            "",
            (
                "",
                "strings: 'nofile': No such file\nstrings: Warning: 'd' is a directory\n",
                1,
            ),
        );
        check(
            &[],
            "strings -n 0",
            "",
            ("", "strings: invalid minimum string length 0\n", 1),
        );
        check(
            &[],
            "strings -n x",
            "",
            ("", "strings: invalid integer argument x\n", 1),
        );
    }
}
