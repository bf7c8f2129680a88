//! `less` and `more` when their output is not a terminal (always so in the sandbox):
//! like `cat`, the files or standard input are copied to standard output; `more`
//! puts util-linux's `::::::::::::::` header before each named file, as it does
//! then. Options are accepted and ignored.

use super::{CmdResult, Ctx};

pub fn less(ctx: &mut Ctx) -> CmdResult {
    page(ctx, false)
}

pub fn more(ctx: &mut Ctx) -> CmdResult {
    page(ctx, true)
}

fn page(ctx: &mut Ctx, headers: bool) -> CmdResult {
    let mut files = Vec::new();
    let mut options = true;
    for a in ctx.args {
        if options && a == "--" {
            options = false;
        } else if options && a.len() > 1 && (a.starts_with('-') || a.starts_with('+')) {
            if a == "--help" || a == "--version" {
                writeln!(
                    ctx.stdout,
                    "{} (shellbox) {}",
                    ctx.name,
                    env!("CARGO_PKG_VERSION")
                )?;
                return Ok(0);
            }
        } else {
            files.push(a.clone());
        }
    }
    if files.is_empty() {
        let data = ctx.read_input("-")?.unwrap_or_default();
        ctx.stdout.write_all(&data)?;
        return Ok(0);
    }
    for name in &files {
        ctx.host.check()?;
        let data = match ctx.read_input(name)? {
            Ok(d) => d,
            Err(e) => {
                if headers {
                    ctx.err(format!("cannot open {name}: {e}"))?;
                } else {
                    writeln!(ctx.stderr, "{name}: {e}")?;
                }
                continue;
            }
        };
        if headers {
            writeln!(ctx.stdout, "::::::::::::::\n{name}\n::::::::::::::")?;
        }
        ctx.stdout.write_all(&data)?;
    }
    Ok(0)
}
