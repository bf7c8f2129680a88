//! `rev` (util-linux): reverses the characters of each line; bytes that are not UTF-8
//! are reversed as single characters.

use std::io::BufReader;

use super::util::{chomp, quotef, read_record};
use super::{CmdResult, Ctx};

fn reverse(line: &[u8]) -> Vec<u8> {
    let s = crate::text::decode(line);
    let r: String = s.chars().rev().collect();
    crate::text::encode(&r)
}

pub fn rev(ctx: &mut Ctx) -> CmdResult {
    let files: Vec<String> = if ctx.args.is_empty() {
        vec!["-".to_owned()]
    } else {
        ctx.args.to_vec()
    };
    let mut status = 0;
    for name in &files {
        let input = match ctx.open_input(name) {
            Ok(i) => i,
            Err(e) => {
                writeln!(ctx.stderr, "rev: cannot open {}: {e}", quotef(name))?;
                status = 1;
                continue;
            }
        };
        let mut r = BufReader::new(input.reader(&mut *ctx.stdin));
        let mut line = Vec::new();
        let mut out = Vec::new();
        while read_record(&mut r, b'\n', &mut line)? {
            let body = chomp(&line, b'\n');
            out.extend_from_slice(&reverse(body));
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
