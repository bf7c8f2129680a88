//! `hostname`: the sandbox's host name, `shellbox` (no domain; address 127.0.0.1).
//! Setting it needs root, which the sandbox user is not.

use super::args::{HasArg, LongOpt, Spec, long, parse};
use super::{CmdResult, Ctx};

/// The sandbox's host name.
pub const HOSTNAME: &str = "shellbox";

const LONG: &[LongOpt] = &[
    long("alias", HasArg::No, "a"),
    long("all-fqdns", HasArg::No, "A"),
    long("domain", HasArg::No, "d"),
    long("fqdn", HasArg::No, "f"),
    long("long", HasArg::No, "f"),
    long("ip-address", HasArg::No, "i"),
    long("all-ip-addresses", HasArg::No, "I"),
    long("short", HasArg::No, "s"),
    long("help", HasArg::No, "h"),
    long("version", HasArg::No, "V"),
];

const USAGE: &str = "\
Usage: hostname [-b] {hostname|-F file}         set host name (from file)
       hostname [-a|-A|-d|-f|-i|-I|-s|-y]       display formatted name
       hostname                                 display host name
       hostname -V|--version|-h|--help          print info and exit
";

pub fn hostname(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse(&Spec::new("aAdfiIshV", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => {
            ctx.err(msg)?;
            ctx.stderr.write_all(USAGE.as_bytes())?;
            return Ok(255);
        }
    };
    let mut what = "name";
    for (k, _) in &parsed.opts {
        match k.as_str() {
            "h" => {
                ctx.stdout.write_all(USAGE.as_bytes())?;
                return Ok(0);
            }
            "V" => {
                writeln!(
                    ctx.stdout,
                    "hostname (shellbox) {}",
                    env!("CARGO_PKG_VERSION")
                )?;
                return Ok(0);
            }
            "a" | "d" => what = "empty",
            "i" | "I" => what = "ip",
            _ => what = "name",
        }
    }
    if !parsed.operands.is_empty() {
        ctx.err("you must be root to change the host name")?;
        return Ok(1);
    }
    let line = match what {
        "empty" => "",
        "ip" => "127.0.0.1",
        _ => HOSTNAME,
    };
    writeln!(ctx.stdout, "{line}")?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn hostname_table() {
        for (line, out, err, status) in [
            ("hostname", "shellbox\n", "", 0),
            ("hostname -s", "shellbox\n", "", 0),
            ("hostname --fqdn", "shellbox\n", "", 0),
            ("hostname -i", "127.0.0.1\n", "", 0),
            ("hostname -d", "\n", "", 0),
            (
                "hostname x",
                "",
                "hostname: you must be root to change the host name\n",
                1,
            ),
        ] {
            check(&[], line, "", (out, err, status));
        }
    }
}
