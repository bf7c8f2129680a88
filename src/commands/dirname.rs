//! `dirname`: each name with its last component removed (`.` if none is left).

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[long("zero", HasArg::No, "z"), HELP, VERSION];

const USAGE: &str = "\
Usage: dirname [OPTION] NAME...
Output each NAME with its last non-slash component and trailing slashes
removed; if NAME contains no /'s, output '.' (meaning the current directory).

  -z, --zero     end each output line with NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
";

/// The directory part of `name`, as POSIX dirname(1) computes it.
pub fn dir_name(name: &str) -> &str {
    let trimmed = name.trim_end_matches('/');
    if trimmed.is_empty() {
        return if name.is_empty() { "." } else { "/" };
    }
    match trimmed.rfind('/') {
        None => ".",
        Some(i) => {
            let dir = trimmed[..i].trim_end_matches('/');
            if dir.is_empty() { "/" } else { dir }
        }
    }
}

pub fn dirname(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("z", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if parsed.operands.is_empty() {
        return usage_error(ctx, "missing operand", 1);
    }
    let end = if parsed.has("z") { "\0" } else { "\n" };
    let mut out = String::new();
    for name in &parsed.operands {
        out.push_str(dir_name(name));
        out.push_str(end);
    }
    ctx.stdout.write_all(&crate::text::encode(&out))?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn dirname_table() {
        for (line, out, err, status) in [
            (
                "dirname a/b/ / // a '' a/ /a //a a//b//",
                "a\n/\n/\n.\n.\n.\n/\n/\na\n",
                "",
                0,
            ),
            ("dirname -z a/b", "a\0", "", 0),
            (
                "dirname",
                "",
                "dirname: missing operand\nTry 'dirname --help' for more information.\n",
                1,
            ),
        ] {
            check(&[], line, "", (out, err, status));
        }
    }
}
