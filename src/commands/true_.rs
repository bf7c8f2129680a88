//! `true`: does nothing, successfully (the utility form, for `env true` and friends).

use super::about::sole_std_opt;
use super::{CmdResult, Ctx};

const USAGE: &str = "\
Usage: true [ignored command line arguments]
Exit with a status code indicating success.
";

pub fn true_(ctx: &mut Ctx) -> CmdResult {
    Ok(sole_std_opt(ctx, USAGE)?.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn true_table() {
        check(&[], "true -x y", "", ("", "", 0));
        check(
            &[],
            "true --version",
            "",
            ("true (shellbox) 0.1.0\n", "", 0),
        );
    }
}
