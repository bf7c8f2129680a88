//! `sum` (GNU coreutils): the BSD 16-bit checksum and 1 KiB block count of each file
//! (`-r`, the default), or the System V sum and 512-byte blocks (`-s`); the checksum
//! functions are `cksum -a bsd|sysv`'s.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long};
use super::cksum::{bsd_sum, sysv_sum};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[long("sysv", HasArg::No, "s"), HELP, VERSION];

const USAGE: &str = "\
Usage: sum [OPTION]... [FILE]...
Print or check BSD (16-bit) checksums.

With no FILE, or when FILE is -, read standard input.

  -r              use BSD sum algorithm (the default), use 1K blocks
  -s, --sysv      use System V sum algorithm, use 512 bytes blocks
      --help        display this help and exit
      --version     output version information and exit
";

pub fn sum(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("rs", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let sysv = parsed
        .opts
        .iter()
        .rev()
        .find(|(k, _)| k == "r" || k == "s")
        .is_some_and(|(k, _)| k == "s");
    let files = if parsed.operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    };
    ctx.each_input(&files, |ctx, name, data| {
        let mut line = if sysv {
            format!("{} {}", sysv_sum(data), data.len().div_ceil(512))
        } else {
            format!("{:05} {:5}", bsd_sum(data), data.len().div_ceil(1024))
        };
        if !parsed.operands.is_empty() {
            line.push(' ');
            line.push_str(name);
        }
        line.push('\n');
        ctx.stdout.write_all(&crate::text::encode(&line))
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn bsd_and_sysv() {
        check(&[("h", "hello\n")], "sum h", "", ("36979     1 h\n", "", 0));
        check(&[("h", "hello\n")], "sum -s h", "", ("542 1 h\n", "", 0));
        check(&[("h", "hello\n")], "sum -r h -s", "", ("542 1 h\n", "", 0));
        check(&[], "sum", "hello\n", ("36979     1\n", "", 0));
        check(
            &[],
            "sum nofile",
            "",
            ("", "sum: nofile: No such file or directory\n", 1),
        );
    }
}
