//! `envsubst` (GNU gettext): copies standard input to standard output with `$NAME` and
//! `${NAME}` replaced by the exported variable's value (empty when unset); with a
//! SHELL-FORMAT operand only the variables it names are replaced, and `-v` lists the
//! names a SHELL-FORMAT holds.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[long("variables", HasArg::No, "v"), HELP, VERSION];

const USAGE: &str = "\
Usage: envsubst [OPTION] [SHELL-FORMAT]

Substitutes the values of environment variables.

Operation mode:
  -v, --variables             output the variables occurring in SHELL-FORMAT

Informative output:
  -h, --help                  display this help and exit
  -V, --version               output version information and exit

In normal operation mode, standard input is copied to standard output,
with references to environment variables of the form $VARIABLE or ${VARIABLE}
being replaced with the corresponding values.  If a SHELL-FORMAT is given,
only those environment variables that are referenced in SHELL-FORMAT are
substituted; otherwise all environment variables references occurring in
standard input are substituted.

When --variables is used, standard input is ignored, and the output consists
of the environment variables that are referenced in SHELL-FORMAT, one per line.
";

/// Each variable reference in `text`: its byte range and name.
fn references(text: &[u8]) -> Vec<(usize, usize, &[u8])> {
    let mut out = Vec::new();
    let mut i = 0;
    let is_start = |c: u8| c.is_ascii_alphabetic() || c == b'_';
    let is_name = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < text.len() {
        if text[i] != b'$' {
            i += 1;
            continue;
        }
        let braced = text.get(i + 1) == Some(&b'{');
        let start = i + 1 + usize::from(braced);
        if !text.get(start).copied().is_some_and(is_start) {
            i += 1;
            continue;
        }
        let mut end = start;
        while text.get(end).copied().is_some_and(is_name) {
            end += 1;
        }
        if braced {
            if text.get(end) != Some(&b'}') {
                i += 1;
                continue;
            }
            out.push((i, end + 1, &text[start..end]));
            i = end + 1;
        } else {
            out.push((i, end, &text[start..end]));
            i = end;
        }
    }
    out
}

pub fn envsubst(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("vhV", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if parsed.has("h") {
        super::about::write_help(ctx, USAGE)?;
        return Ok(0);
    }
    if parsed.has("V") {
        super::about::write_version(ctx)?;
        return Ok(0);
    }
    if parsed.operands.len() > 1 {
        ctx.err("too many arguments")?;
        return Ok(1);
    }
    let format = parsed.operands.first();
    if parsed.has("v") {
        let Some(format) = format else {
            ctx.err("missing arguments")?;
            return Ok(1);
        };
        for (_, _, name) in references(format.as_bytes()) {
            ctx.stdout.write_all(name)?;
            ctx.stdout.write_all(b"\n")?;
        }
        return Ok(0);
    }
    let only: Option<std::collections::BTreeSet<Vec<u8>>> = format.map(|f| {
        references(f.as_bytes())
            .into_iter()
            .map(|(_, _, n)| n.to_vec())
            .collect()
    });
    let data = ctx.read_input("-")?.unwrap_or_default();
    let mut out = Vec::with_capacity(data.len());
    let mut last = 0;
    for (start, end, name) in references(&data) {
        if only.as_ref().is_some_and(|o| !o.contains(name)) {
            continue;
        }
        out.extend_from_slice(&data[last..start]);
        let value = std::str::from_utf8(name)
            .ok()
            .and_then(|n| ctx.env.get(n))
            .map_or(&[][..], |v| v.as_bytes());
        out.extend_from_slice(value);
        last = end;
    }
    out.extend_from_slice(&data[last..]);
    ctx.stdout.write_all(&out)?;
    Ok(0)
}
