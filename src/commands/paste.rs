//! `paste`: joins corresponding lines of files with delimiters from a cycling list
//! (`-d`, with `\n \t \\ \0` escapes), or each file's lines into one (`-s`).

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long};
use super::util::{chomp, quotef, records};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("delimiters", HasArg::Required, "d"),
    long("serial", HasArg::No, "s"),
    long("zero-terminated", HasArg::No, "z"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: paste [OPTION]... [FILE]...
Write lines consisting of the sequentially corresponding lines from
each FILE, separated by TABs, to standard output.

  -d, --delimiters=LIST   reuse characters from LIST instead of TABs
  -s, --serial            paste one file at a time instead of in parallel
  -z, --zero-terminated    line delimiter is NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
";

/// The delimiter list: one entry per character, `\0` meaning none; `None` when it ends
/// with an unescaped backslash.
fn delimiters(list: &str) -> Option<Vec<Vec<u8>>> {
    let mut out = Vec::new();
    let mut cs = list.chars();
    while let Some(c) = cs.next() {
        let d = if c == '\\' {
            match cs.next() {
                Some('n') => "\n".to_owned(),
                Some('t') => "\t".to_owned(),
                Some('0') => String::new(),
                Some('b') => "\x08".to_owned(),
                Some('f') => "\x0c".to_owned(),
                Some('r') => "\r".to_owned(),
                Some('v') => "\x0b".to_owned(),
                Some('\\') => "\\".to_owned(),
                None => return None,
                Some(o) => o.to_string(),
            }
        } else {
            c.to_string()
        };
        out.push(crate::text::encode(&d));
    }
    Some(out)
}

pub fn paste(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("d:sz", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    // GNU reads an empty list as `\0`: no delimiter.
    let list = match parsed.last("d").unwrap_or("\t") {
        "" => "\\0",
        l => l,
    };
    let Some(delims) = delimiters(list) else {
        ctx.err(format!(
            "delimiter list ends with an unescaped backslash: {list}"
        ))?;
        return Ok(1);
    };
    let eol = if parsed.has("z") { 0 } else { b'\n' };
    let files = if parsed.operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    };
    let mut contents: Vec<Vec<Vec<u8>>> = Vec::new();
    let mut stdin_lines: Option<std::collections::VecDeque<Vec<u8>>> = None;
    for name in &files {
        if name == "-" {
            if stdin_lines.is_none() {
                let mut data = Vec::new();
                ctx.stdin.read_to_end(&mut data)?;
                stdin_lines = Some(
                    records(&data, eol)
                        .map(|r| chomp(r, eol).to_vec())
                        .collect(),
                );
            }
            contents.push(Vec::new());
            continue;
        }
        match ctx.read_input(name)? {
            Ok(d) => contents.push(records(&d, eol).map(|r| chomp(r, eol).to_vec()).collect()),
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                return Ok(1);
            }
        }
    }
    // Several `-` operands take stdin's lines in turn, as GNU's shared stream does.
    if let Some(mut lines) = stdin_lines {
        if parsed.has("s") {
            if let Some(i) = files.iter().position(|f| f == "-")
                && let Some(slot) = contents.get_mut(i)
            {
                *slot = lines.into_iter().collect();
            }
        } else {
            let idx: Vec<usize> = files
                .iter()
                .enumerate()
                .filter(|(_, f)| *f == "-")
                .map(|(i, _)| i)
                .collect();
            'fill: loop {
                for &i in &idx {
                    let Some(l) = lines.pop_front() else {
                        break 'fill;
                    };
                    if let Some(slot) = contents.get_mut(i) {
                        slot.push(l);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    if parsed.has("s") {
        for lines in &contents {
            for (j, l) in lines.iter().enumerate() {
                if j > 0 {
                    out.extend_from_slice(&delims[(j - 1) % delims.len()]);
                }
                out.extend_from_slice(l);
            }
            out.push(eol);
        }
    } else {
        let rows = contents.iter().map(Vec::len).max().unwrap_or(0);
        for r in 0..rows {
            ctx.host.check()?;
            for (i, lines) in contents.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(&delims[(i - 1) % delims.len()]);
                }
                if let Some(l) = lines.get(r) {
                    out.extend_from_slice(l);
                }
            }
            out.push(eol);
        }
    }
    ctx.stdout.write_all(&out)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn paste_table() {
        let files = &[("p1", "1\n2\n"), ("p2", "a\nb\nc\n")];
        for (line, stdin, out, err, status) in [
            ("paste p1 p2", "", "1\ta\n2\tb\n\tc\n", "", 0),
            ("paste -d, p1 p2", "", "1,a\n2,b\n,c\n", "", 0),
            ("paste -s p1 p2", "", "1\t2\na\tb\tc\n", "", 0),
            ("paste -s -d, p2", "", "a,b,c\n", "", 0),
            ("paste -d '\\n' p1 p2", "", "1\na\n2\nb\n\nc\n", "", 0),
            ("paste - -", "1\n2\n3\n", "1\t2\n3\t\n", "", 0),
            ("paste -d ':,' p1 p2 p1", "", "1:a,1\n2:b,2\n:c,\n", "", 0),
            ("paste -", "", "", "", 0),
            (
                "paste nope",
                "",
                "",
                "paste: nope: No such file or directory\n",
                1,
            ),
        ] {
            check(files, line, stdin, (out, err, status));
        }
    }
}
