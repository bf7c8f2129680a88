//! `nohup` (GNU coreutils): runs a command immune to hangups. The sandbox has no
//! terminal, so, as GNU does when neither stdin nor stdout is one, the command just
//! runs with the streams it was given; a command that cannot be found or run gives
//! 127 or 126 with GNU's message, and nohup's own errors 125.

use super::about::sole_std_opt;
use super::{CmdResult, Ctx, Stdio};

const USAGE: &str = "\
Usage: nohup COMMAND [ARG]...
  or:  nohup OPTION
Run COMMAND, ignoring hangup signals.

      --help        display this help and exit
      --version     output version information and exit

If standard input is a terminal, redirect it from an unreadable file.
If standard output is a terminal, append output to 'nohup.out' if possible,
'$HOME/nohup.out' otherwise.
If standard error is a terminal, redirect it to standard output.
To save output to FILE, use 'nohup COMMAND > FILE'.
";

pub fn nohup(ctx: &mut Ctx) -> CmdResult {
    if let Some(s) = sole_std_opt(ctx, USAGE)? {
        return Ok(s);
    }
    let args = match ctx.args.first().map(String::as_str) {
        Some("--") => &ctx.args[1..],
        Some(a) if a.starts_with('-') && a != "-" => {
            let msg = if a.starts_with("--") {
                format!("unrecognized option '{a}'")
            } else {
                format!("invalid option -- '{}'", a.chars().nth(1).unwrap_or('-'))
            };
            return super::args::usage_error(ctx, &msg, 125);
        }
        _ => ctx.args,
    };
    let Some(cmd) = args.first() else {
        return super::args::usage_error(ctx, "missing operand", 125);
    };
    if !ctx.host.command_exists(cmd) {
        ctx.err(format!(
            "failed to run command '{cmd}': No such file or directory"
        ))?;
        return Ok(127);
    }
    let argv = args.to_vec();
    ctx.host.run(
        &argv,
        Stdio::Own(&mut *ctx.stdin),
        Stdio::Own(&mut *ctx.stdout),
        Stdio::Own(&mut *ctx.stderr),
    )
}
