//! `--help` and `--version` for the utilities: a short usage text and a one-line
//! version, printed when the option is given (GNU prints these to stdout, status 0).

use std::io;

use super::Ctx;
use super::args::{HasArg, LongOpt, Parsed, long};

/// The long options every utility accepts.
pub const HELP: LongOpt = long("help", HasArg::No, "help");
/// See [`HELP`].
pub const VERSION: LongOpt = long("version", HasArg::No, "version");

/// Handles `--help`/`--version` if `parsed` holds either (the first one given wins,
/// as getopt processes them in order): prints `usage` (which should start with
/// `Usage: NAME ...`) or the version line, and returns `Some(0)`.
pub fn std_opts(ctx: &mut Ctx, parsed: &Parsed, usage: &str) -> io::Result<Option<i32>> {
    for (k, _) in &parsed.opts {
        match k.as_str() {
            "help" => {
                write_help(ctx, usage)?;
                return Ok(Some(0));
            }
            "version" => {
                write_version(ctx)?;
                return Ok(Some(0));
            }
            _ => {}
        }
    }
    Ok(None)
}

/// Prints `usage` and a trailing newline if it lacks one.
pub fn write_help(ctx: &mut Ctx, usage: &str) -> io::Result<()> {
    ctx.stdout.write_all(usage.as_bytes())?;
    if !usage.ends_with('\n') {
        ctx.stdout.write_all(b"\n")?;
    }
    Ok(())
}

/// Prints the one-line version.
pub fn write_version(ctx: &mut Ctx) -> io::Result<()> {
    writeln!(
        ctx.stdout,
        "{} (shellbox) {}",
        ctx.name,
        env!("CARGO_PKG_VERSION")
    )
}

/// For commands that take no options other than `--help`/`--version` as their sole
/// argument (`true`, `false`, `printenv`-like forms): handles it and returns `Some(0)`.
pub fn sole_std_opt(ctx: &mut Ctx, usage: &str) -> io::Result<Option<i32>> {
    match ctx.args {
        [a] if a == "--help" => {
            write_help(ctx, usage)?;
            Ok(Some(0))
        }
        [a] if a == "--version" => {
            write_version(ctx)?;
            Ok(Some(0))
        }
        _ => Ok(None),
    }
}

/// Parses `ctx.args` with `spec`, printing getopt's diagnostic (status `status`) or
/// handling `--help`/`--version`; `Err(status)` means return it.
pub fn parse_std(
    ctx: &mut Ctx,
    spec: &super::args::Spec,
    status: i32,
    usage: &str,
) -> io::Result<Result<Parsed, i32>> {
    let parsed = match super::args::parse_or_usage(ctx, spec, status)? {
        Ok(p) => p,
        Err(s) => return Ok(Err(s)),
    };
    match std_opts(ctx, &parsed, usage)? {
        Some(s) => Ok(Err(s)),
        None => Ok(Ok(parsed)),
    }
}
