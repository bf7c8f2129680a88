//! `yes`: writes its arguments (or `y`) as a line, forever, until the write fails.

use super::about::{HELP, VERSION, parse_std};
use super::args::Spec;
use super::{CmdResult, Ctx};

const USAGE: &str = "\
Usage: yes [STRING]...
  or:  yes OPTION
Repeatedly output a line with all specified STRING(s), or 'y'.

      --help        display this help and exit
      --version     output version information and exit
";

pub fn yes(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("", &[HELP, VERSION]), 1, USAGE)? {
        Ok(p) => p,
        Err(status) => return Ok(status),
    };
    let mut line = if parsed.operands.is_empty() {
        b"y".to_vec()
    } else {
        crate::text::encode(&parsed.operands.join(" "))
    };
    line.push(b'\n');
    // Batch lines into one buffer so each write moves a useful amount.
    let mut buf = Vec::with_capacity(8192 + line.len());
    while buf.len() < 8192 {
        buf.extend_from_slice(&line);
    }
    loop {
        ctx.host.check()?;
        ctx.stdout.write_all(&buf)?;
    }
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, run_endless};

    #[test]
    fn stops_when_the_reader_goes() {
        let (out, status, _) = run_endless("yes", b"", 5);
        assert_eq!((out.as_slice(), status), (&b"y\ny\ny"[..], 141));
        let (out, _, _) = run_endless("yes a  b", b"", 8);
        assert_eq!(out, b"a b\na b\n");
        let (out, _, _) = run_endless("yes -- -x", b"", 3);
        assert_eq!(out, b"-x\n");
    }

    #[test]
    fn usage() {
        check(
            &[],
            "yes -x",
            "",
            (
                "",
                "yes: invalid option -- 'x'\nTry 'yes --help' for more information.\n",
                1,
            ),
        );
    }
}
