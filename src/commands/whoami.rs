//! `whoami`: the name of the acting user (`user` by default, `root` for uid 0).

use super::about::{HELP, VERSION, parse_std};
use super::args::{LongOpt, Spec, usage_error};
use super::util::{lq, user_name};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[HELP, VERSION];

const USAGE: &str = "\
Usage: whoami [OPTION]...
Print the user name associated with the current effective user ID.
Same as id -un.
";

pub fn whoami(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if let Some(extra) = parsed.operands.first() {
        return usage_error(ctx, &format!("extra operand {}", lq(extra)), 1);
    }
    let (uid, _) = ctx.fs.lock().user();
    writeln!(ctx.stdout, "{}", user_name(uid))?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn whoami_table() {
        check(&[], "whoami", "", ("user\n", "", 0));
        check(
            &[],
            "whoami x",
            "",
            (
                "",
                "whoami: extra operand 'x'\nTry 'whoami --help' for more information.\n",
                1,
            ),
        );
    }
}
