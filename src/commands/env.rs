//! `env`: prints the environment, or runs a command with a modified one (`-i`, `-u`,
//! `NAME=VALUE`, `-S` string splitting) and in another directory (`-C`); `-v` traces
//! each step on stderr as GNU does.

use std::collections::BTreeMap;

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{lq, quote};
use super::{CmdResult, Ctx, Stdio};

const LONG: &[LongOpt] = &[
    long("ignore-environment", HasArg::No, "i"),
    long("null", HasArg::No, "0"),
    long("unset", HasArg::Required, "u"),
    long("split-string", HasArg::Required, "S"),
    long("chdir", HasArg::Required, "C"),
    long("debug", HasArg::No, "v"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
Set each NAME to VALUE in the environment and run COMMAND.

  -i, --ignore-environment  start with an empty environment
  -0, --null           end each output line with NUL, not newline
  -C, --chdir=DIR      change working directory to DIR
  -u, --unset=NAME     remove variable from the environment
  -S, --split-string=S  process and split S into separate arguments
  -v, --debug          print verbose information for each processing step
      --help        display this help and exit
      --version     output version information and exit

A mere - implies -i.  If no COMMAND, print the resulting environment.
";

/// Exit status of env's own failures.
const CANCELED: i32 = 125;

pub fn env(ctx: &mut Ctx) -> CmdResult {
    let mut spec = Spec::new("iu:S:0C:v", LONG);
    spec.permute = false;
    let parsed = match parse_std(ctx, &spec, CANCELED, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mut env: BTreeMap<String, String> = ctx.env.clone();
    let mut nul = false;
    let mut clear = false;
    let debug = parsed.has("v");
    let mut unset: Vec<&str> = Vec::new();
    let mut split: Vec<String> = Vec::new();
    let mut trace = String::new();
    let utf8 = super::util::utf8_locale(ctx.env);
    let q = |s: &str| super::util::locale_quote(utf8, s);
    for (k, v) in &parsed.opts {
        match (k.as_str(), v.as_deref()) {
            ("i", _) => clear = true,
            ("0", _) => nul = true,
            ("u", Some(name)) => {
                if name.is_empty() || name.contains('=') {
                    ctx.err(format!("cannot unset {}: Invalid argument", lq(name)))?;
                    return Ok(CANCELED);
                }
                unset.push(name);
            }
            ("S", Some(s)) => match split_string(s) {
                Ok(words) => {
                    if debug {
                        trace.push_str(&format!("split -S:  {}\n", q(s)));
                        for (n, w) in words.iter().enumerate() {
                            let lead = if n == 0 { " into:   " } else { "     &   " };
                            trace.push_str(&format!("{lead} {}\n", q(w)));
                        }
                    }
                    split.extend(words);
                }
                Err(msg) => {
                    ctx.err(msg)?;
                    return Ok(CANCELED);
                }
            },
            _ => {}
        }
    }
    let mut rest = parsed.operands.as_slice();
    if let Some((first, tail)) = rest.split_first()
        && first == "-"
    {
        clear = true;
        rest = tail;
    }
    if clear {
        env.clear();
        trace.push_str("cleaning environ\n");
    } else {
        for name in unset {
            env.remove(name);
            trace.push_str(&format!("unset:    {name}\n"));
        }
    }
    // `-S` words come before the remaining operands, as on a shebang line.
    let mut words: Vec<String> = split;
    words.extend(rest.iter().cloned());
    let mut i = 0;
    while let Some(w) = words.get(i) {
        match w.split_once('=') {
            Some((name, value)) if !name.is_empty() => {
                trace.push_str(&format!("setenv:   {w}\n"));
                env.insert(name.to_owned(), value.to_owned());
                i += 1;
            }
            _ => break,
        }
    }
    let argv = words.get(i..).unwrap_or(&[]);
    let chdir = parsed.last("C");
    if debug {
        ctx.stderr.write_all(trace.as_bytes())?;
    }
    if argv.is_empty() && chdir.is_some() {
        return usage_error(ctx, "must specify command with --chdir (-C)", CANCELED);
    }
    if argv.is_empty() {
        let end = if nul { "\0" } else { "\n" };
        let mut out = Vec::new();
        for (k, v) in &env {
            crate::text::encode_into(&format!("{k}={v}{end}"), &mut out);
        }
        ctx.stdout.write_all(&out)?;
        return Ok(0);
    }
    if nul {
        return usage_error(ctx, "cannot specify --null (-0) with command", CANCELED);
    }
    if let Some(dir) = chdir {
        if debug {
            writeln!(ctx.stderr, "chdir:    {}", quote(dir))?;
        }
        let found = ctx.fs.lock().stat_dir(&ctx.path(dir));
        if let Err(why) = found {
            ctx.err(format!("cannot change directory to {}: {why}", quote(dir)))?;
            return Ok(CANCELED);
        }
    }
    if debug && let Some(name) = argv.first() {
        let mut text = format!("executing: {name}\n");
        for (n, a) in argv.iter().enumerate() {
            text.push_str(&format!("   arg[{n}]= {}\n", q(a)));
        }
        ctx.stderr.write_all(text.as_bytes())?;
    }
    if let Some(name) = argv.first()
        && !ctx.host.command_exists(name)
    {
        ctx.err(format!("{}: No such file or directory", lq(name)))?;
        return Ok(127);
    }
    let dir = chdir.map_or_else(|| ctx.cwd.to_owned(), |d| ctx.path(d));
    ctx.host.run_env_in(
        argv,
        &env,
        &dir,
        Stdio::Own(&mut *ctx.stdin),
        Stdio::Own(&mut *ctx.stdout),
        Stdio::Own(&mut *ctx.stderr),
    )
}

/// Splits an `env -S` string the way GNU does for the common cases: whitespace
/// separates, `'...'` quotes literally, `"..."` and bare words take `\` escapes
/// (`\n \t \\ \" \' \_` for a space, `\c` ends the string).
fn split_string(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut have = false;
    let mut cs = s.chars();
    while let Some(c) = cs.next() {
        match c {
            ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r' => {
                if have {
                    out.push(std::mem::take(&mut cur));
                    have = false;
                }
            }
            '\'' => {
                have = true;
                loop {
                    match cs.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err("no terminating quote in -S string".to_owned()),
                    }
                }
            }
            '"' => {
                have = true;
                loop {
                    match cs.next() {
                        Some('"') => break,
                        Some('\\') => match cs.next() {
                            Some(e) => match escape(e) {
                                Some(Some(c)) => cur.push(c),
                                Some(None) => return Ok(finish(out, cur, have)),
                                None => return Err(format!("invalid sequence '\\{e}' in -S")),
                            },
                            None => return Err("no terminating quote in -S string".to_owned()),
                        },
                        Some(c) => cur.push(c),
                        None => return Err("no terminating quote in -S string".to_owned()),
                    }
                }
            }
            '\\' => {
                let Some(e) = cs.next() else {
                    return Err("invalid backslash at end of string in -S".to_owned());
                };
                match escape(e) {
                    Some(Some(c)) => {
                        have = true;
                        cur.push(c);
                    }
                    Some(None) => return Ok(finish(out, cur, have)),
                    None => return Err(format!("invalid sequence '\\{e}' in -S")),
                }
            }
            c => {
                have = true;
                cur.push(c);
            }
        }
    }
    Ok(finish(out, cur, have))
}

fn finish(mut out: Vec<String>, cur: String, have: bool) -> Vec<String> {
    if have {
        out.push(cur);
    }
    out
}

/// The character an `-S` escape stands for; `Some(None)` for `\c` (stop).
fn escape(e: char) -> Option<Option<char>> {
    Some(Some(match e {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'f' => '\x0c',
        'v' => '\x0b',
        '_' => ' ',
        '\\' | '"' | '\'' | '#' | '$' => e,
        'c' => return Some(None),
        _ => return None,
    }))
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn env_table() {
        for (line, out, err, status) in [
            ("env -i A=1 B=2", "A=1\nB=2\n", "", 0),
            ("env - A=1", "A=1\n", "", 0),
            ("env -i -0 A=1 B=2", "A=1\0B=2\0", "", 0),
            ("env -i A=1 printenv A", "1\n", "", 0),
            ("env -i -u A A=1 B=2", "A=1\nB=2\n", "", 0),
            ("env -i -- 'A=x y' printenv", "A=x y\n", "", 0),
            ("env -i -S 'A=1 printenv A'", "1\n", "", 0),
            ("env -i false", "", "", 1),
            (
                "env -u A=B true",
                "",
                "env: cannot unset 'A=B': Invalid argument\n",
                125,
            ),
            (
                "env -x",
                "",
                "env: invalid option -- 'x'\nTry 'env --help' for more information.\n",
                125,
            ),
            (
                "env -u",
                "",
                "env: option requires an argument -- 'u'\nTry 'env --help' for more information.\n",
                125,
            ),
            (
                "env -i -0 true",
                "",
                "env: cannot specify --null (-0) with command\nTry 'env --help' for more information.\n",
                125,
            ),
            ("env --version", "env (shellbox) 0.1.0\n", "", 0),
        ] {
            check(&[], line, "", (out, err, status));
        }
    }
}
