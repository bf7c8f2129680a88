//! `basename`: strips directory and (optionally) suffix from names.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::lq;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("multiple", HasArg::No, "a"),
    long("suffix", HasArg::Required, "s"),
    long("zero", HasArg::No, "z"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: basename NAME [SUFFIX]
  or:  basename OPTION... NAME...
Print NAME with any leading directory components removed.
If specified, also remove a trailing SUFFIX.

  -a, --multiple       support multiple arguments and treat each as a NAME
  -s, --suffix=SUFFIX  remove a trailing SUFFIX; implies -a
  -z, --zero           end each output line with NUL, not newline
      --help     display this help and exit
      --version  output version information and exit
";

/// The last component of `name` (`/` for all slashes), without `suffix` unless that is
/// the whole component.
pub fn base_name<'a>(name: &'a str, suffix: &str) -> &'a str {
    let trimmed = name.trim_end_matches('/');
    if trimmed.is_empty() {
        return if name.is_empty() { "" } else { "/" };
    }
    let base = match trimmed.rfind('/') {
        Some(i) => &trimmed[i + 1..],
        None => trimmed,
    };
    match base.strip_suffix(suffix) {
        Some(stem) if !stem.is_empty() => stem,
        _ => base,
    }
}

pub fn basename(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("as:z", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let suffix_opt = parsed.last("s").map(str::to_owned);
    let multiple = parsed.has("a") || suffix_opt.is_some();
    let ops = &parsed.operands;
    if ops.is_empty() {
        return usage_error(ctx, "missing operand", 1);
    }
    let (names, suffix): (&[String], String) = if multiple {
        (ops, suffix_opt.unwrap_or_default())
    } else {
        if let Some(extra) = ops.get(2) {
            return usage_error(ctx, &format!("extra operand {}", lq(extra)), 1);
        }
        (
            ops.get(..1).unwrap_or(&[]),
            ops.get(1).cloned().unwrap_or_default(),
        )
    };
    let end = if parsed.has("z") { "\0" } else { "\n" };
    let mut out = String::new();
    for name in names {
        out.push_str(base_name(name, &suffix));
        out.push_str(end);
    }
    ctx.stdout.write_all(&crate::text::encode(&out))?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn basename_table() {
        for (line, out, err, status) in [
            ("basename a/b/c.txt .txt", "c\n", "", 0),
            ("basename a/b/c.txt", "c.txt\n", "", 0),
            ("basename -a a/b c/d/", "b\nd\n", "", 0),
            ("basename -s .c a.c b.c", "a\nb\n", "", 0),
            ("basename / ", "/\n", "", 0),
            ("basename //", "/\n", "", 0),
            ("basename ''", "\n", "", 0),
            ("basename a.c a.c", "a.c\n", "", 0),
            ("basename -z a b", "a\0", "", 0),
            (
                "basename",
                "",
                "basename: missing operand\nTry 'basename --help' for more information.\n",
                1,
            ),
            (
                "basename a b c",
                "",
                "basename: extra operand 'c'\nTry 'basename --help' for more information.\n",
                1,
            ),
        ] {
            check(&[], line, "", (out, err, status));
        }
    }
}
