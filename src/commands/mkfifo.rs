//! `mkfifo`: creates named pipes (FIFOs), mode `a=rw` less the umask unless `-m`
//! gives one (taken relative to `a=rw`, the umask left out, as GNU does).

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{apply_mode, quote};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("mode", HasArg::Required, "m"),
    long("context", HasArg::Optional, "Z"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: mkfifo [OPTION]... NAME...
Create named pipes (FIFOs) with the given NAMEs.

Mandatory arguments to long options are mandatory for short options too.
  -m, --mode=MODE    set file permission bits to MODE, not a=rw - umask
  -Z                   set the SELinux security context to default type
      --context[=CTX]  like -Z, or if CTX is specified then set the SELinux
                         or SMACK security context to CTX
      --help        display this help and exit
      --version     output version information and exit
";

pub fn mkfifo(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("m:Z", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mode = match parsed.last("m") {
        None => 0o666 & !ctx.umask,
        Some(spec) => match apply_mode(spec, 0o666, false, 0) {
            Some(m) => m,
            None => {
                ctx.err("invalid mode")?;
                return Ok(1);
            }
        },
    };
    if parsed.operands.is_empty() {
        return usage_error(ctx, "missing operand", 1);
    }
    let mut status = 0;
    for name in &parsed.operands {
        let path = ctx.path(name);
        // open("") and mkfifo("") fail with ENOENT; resolving "" would name the cwd.
        let made = if name.is_empty() {
            Err(crate::fs::Errno::ENOENT.into())
        } else {
            ctx.fs.lock().mkfifo(&path, mode)
        };
        if let Err(e) = made {
            ctx.err(format!("cannot create fifo {}: {e}", quote(name)))?;
            status = 1;
        }
    }
    Ok(status)
}
