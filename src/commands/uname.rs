//! `uname`: system information for the sandbox. It reports kernel `Linux`, node
//! `shellbox`, release `6.1.0-shellbox`, version `#1 SMP PREEMPT_DYNAMIC`, machine
//! `x86_64` and operating system `GNU/Linux`; processor and hardware platform are
//! `unknown` (and left out of `-a`, as GNU does).

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::lq;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("all", HasArg::No, "a"),
    long("kernel-name", HasArg::No, "s"),
    long("sysname", HasArg::No, "s"),
    long("nodename", HasArg::No, "n"),
    long("kernel-release", HasArg::No, "r"),
    long("release", HasArg::No, "r"),
    long("kernel-version", HasArg::No, "v"),
    long("machine", HasArg::No, "m"),
    long("processor", HasArg::No, "p"),
    long("hardware-platform", HasArg::No, "i"),
    long("operating-system", HasArg::No, "o"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: uname [OPTION]...
Print certain system information.  With no OPTION, same as -s.

  -a, --all                print all information, in the following order,
                             except omit -p and -i if unknown:
  -s, --kernel-name        print the kernel name
  -n, --nodename           print the network node hostname
  -r, --kernel-release     print the kernel release
  -v, --kernel-version     print the kernel version
  -m, --machine            print the machine hardware name
  -p, --processor          print the processor type (non-portable)
  -i, --hardware-platform  print the hardware platform (non-portable)
  -o, --operating-system   print the operating system
      --help     display this help and exit
      --version  output version information and exit
";

/// The fields in output order: option letter and value.
const FIELDS: [(&str, &str); 8] = [
    ("s", "Linux"),
    ("n", super::hostname::HOSTNAME),
    ("r", "6.1.0-shellbox"),
    ("v", "#1 SMP PREEMPT_DYNAMIC"),
    ("m", "x86_64"),
    ("p", "unknown"),
    ("i", "unknown"),
    ("o", "GNU/Linux"),
];

pub fn uname(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("asnrvmpio", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if let Some(extra) = parsed.operands.first() {
        return usage_error(ctx, &format!("extra operand {}", lq(extra)), 1);
    }
    let all = parsed.has("a");
    let any = !parsed.opts.is_empty();
    let shown: Vec<&str> = FIELDS
        .iter()
        .filter(|(k, v)| {
            if all {
                *v != "unknown" || parsed.has(k)
            } else {
                parsed.has(k) || (!any && *k == "s")
            }
        })
        .map(|(_, v)| *v)
        .collect();
    writeln!(ctx.stdout, "{}", shown.join(" "))?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn uname_table() {
        for (line, out, err, status) in [
            ("uname", "Linux\n", "", 0),
            (
                "uname -a",
                "Linux shellbox 6.1.0-shellbox #1 SMP PREEMPT_DYNAMIC x86_64 GNU/Linux\n",
                "",
                0,
            ),
            ("uname -p", "unknown\n", "", 0),
            ("uname -mns", "Linux shellbox x86_64\n", "", 0),
            ("uname -o -r", "6.1.0-shellbox GNU/Linux\n", "", 0),
            (
                "uname a",
                "",
                "uname: extra operand 'a'\nTry 'uname --help' for more information.\n",
                1,
            ),
            (
                "uname -x",
                "",
                "uname: invalid option -- 'x'\nTry 'uname --help' for more information.\n",
                1,
            ),
        ] {
            check(&[], line, "", (out, err, status));
        }
    }
}
