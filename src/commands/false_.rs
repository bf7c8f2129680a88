//! `false`: does nothing, unsuccessfully (the utility form, for `env false`); even
//! `--help` exits 1, as GNU's does.

use super::about::sole_std_opt;
use super::{CmdResult, Ctx};

const USAGE: &str = "\
Usage: false [ignored command line arguments]
Exit with a status code indicating failure.
";

pub fn false_(ctx: &mut Ctx) -> CmdResult {
    sole_std_opt(ctx, USAGE)?;
    Ok(1)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn false_table() {
        check(&[], "false -x y", "", ("", "", 1));
        check(
            &[],
            "false --version",
            "",
            ("false (shellbox) 0.1.0\n", "", 1),
        );
    }
}
