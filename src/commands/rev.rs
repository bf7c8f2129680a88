//! `rev` (util-linux): reverses the characters of each line. Like util-linux, which reads
//! wide characters, it stops reading a file at a line that is not valid UTF-8.

use std::io::BufReader;

use super::about::{write_help, write_version};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{chomp, quotef, read_record};
use super::{CmdResult, Ctx};

fn reverse(line: &str, out: &mut Vec<u8>) {
    let mut buf = [0; 4];
    for c in line.chars().rev() {
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }
}

const LONG: &[LongOpt] = &[
    long("help", HasArg::No, "h"),
    long("version", HasArg::No, "V"),
];

const USAGE: &str = "
Usage: rev [options] [file ...]

Reverse lines characterwise.

Options:
 -h, --help     display this help
 -V, --version  display version

For more details see rev(1).
";

pub fn rev(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("hV", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    for (k, _) in &parsed.opts {
        match k.as_str() {
            "h" => {
                write_help(ctx, USAGE.trim_start_matches('\n'))?;
                return Ok(0);
            }
            "V" => {
                write_version(ctx)?;
                return Ok(0);
            }
            _ => {}
        }
    }
    // With no files rev reads stdin; a `-` operand is a file of that name.
    let files: Vec<Option<String>> = if parsed.operands.is_empty() {
        vec![None]
    } else {
        parsed.operands.iter().cloned().map(Some).collect()
    };
    let mut status = 0;
    for file in &files {
        let name = match file {
            None => "-".to_owned(),
            Some(n) if n == "-" => "./-".to_owned(),
            Some(n) => n.clone(),
        };
        let shown = file.as_deref().unwrap_or("-");
        let input = match ctx.open_input(&name) {
            Ok(i) => i,
            Err(e) => {
                writeln!(ctx.stderr, "rev: cannot open {}: {e}", quotef(shown))?;
                status = 1;
                continue;
            }
        };
        let mut r = BufReader::new(input.reader(&mut *ctx.stdin));
        let mut line = Vec::new();
        let mut out = Vec::new();
        let mut lines = 0usize;
        while read_record(&mut r, b'\n', &mut line)? {
            let body = chomp(&line, b'\n');
            // util-linux's fgetws fails on bytes the locale cannot decode: the lines
            // before are written, the rest of the file is dropped with a warning that
            // counts the lines done.
            let Ok(text) = std::str::from_utf8(body) else {
                let name = file.as_deref().unwrap_or("stdin");
                writeln!(
                    ctx.stderr,
                    "rev: {name}: {lines}: Invalid or incomplete multibyte or wide character"
                )?;
                status = 1;
                break;
            };
            lines += 1;
            reverse(text, &mut out);
            if body.len() < line.len() {
                out.push(b'\n');
            }
            if out.len() >= 8192 {
                ctx.host.check()?;
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

    #[test]
    fn rev_table() {
        check(&[], "rev", "abc\nhé\nx", ("cba\néh\nx", "", 0));
        check(&[("f", "12\n")], "rev f", "", ("21\n", "", 0));
        check(
            &[],
            "rev nope",
            "",
            ("", "rev: cannot open nope: No such file or directory\n", 1),
        );
    }
}
