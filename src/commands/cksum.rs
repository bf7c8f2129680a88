//! `cksum`: the POSIX CRC and byte count of each input (`CRC SIZE NAME`).

use super::about::{HELP, VERSION, parse_std};
use super::args::{LongOpt, Spec};
use super::digest::posix_crc;
use super::util::quotef;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[HELP, VERSION];

const USAGE: &str = "\
Usage: cksum [OPTION]... [FILE]...
Print CRC checksum and byte counts of each FILE.

      --help     display this help and exit
      --version  output version information and exit
";

pub fn cksum(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let stdin_only = parsed.operands.is_empty();
    let files = if stdin_only {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    };
    let mut status = 0;
    for name in &files {
        let data = match ctx.read_input(name)? {
            Ok(d) => d,
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                status = 1;
                continue;
            }
        };
        ctx.host.check()?;
        let crc = posix_crc(&data);
        let line = if stdin_only {
            format!("{crc} {}\n", data.len())
        } else {
            format!("{crc} {} {name}\n", data.len())
        };
        ctx.stdout.write_all(&crate::text::encode(&line))?;
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn cksum_table() {
        check(
            &[("h", "hello\n")],
            "cksum h",
            "",
            ("3015617425 6 h\n", "", 0),
        );
        check(&[], "cksum", "", ("4294967295 0\n", "", 0));
        check(
            &[],
            "cksum nope",
            "",
            ("", "cksum: nope: No such file or directory\n", 1),
        );
    }
}
