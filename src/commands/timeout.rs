//! `timeout`: runs a command with a time limit on the virtual clock. The command runs to
//! completion (there is nothing to interrupt); if it advanced the clock past the limit
//! (`timeout 1 sleep 5`), the clock is wound back to the moment it would have been killed
//! and the status is 124 (128+signal with `--preserve-status` or `-s KILL`).

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::sleep::{parse_duration, to_nanos};
use super::util::{lq, quote};
use super::{CmdResult, Ctx, Stdio};

const LONG: &[LongOpt] = &[
    long("foreground", HasArg::No, "foreground"),
    long("kill-after", HasArg::Required, "k"),
    long("preserve-status", HasArg::No, "preserve"),
    long("signal", HasArg::Required, "s"),
    long("verbose", HasArg::No, "v"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: timeout [OPTION] DURATION COMMAND [ARG]...
Start COMMAND, and kill it if still running after DURATION.

      --preserve-status  exit with the same status as COMMAND, even when the
                           command times out
      --foreground       when not running timeout directly from a shell prompt,
                           allow COMMAND to read from the TTY and get TTY signals
  -k, --kill-after=DURATION  also send a KILL signal if COMMAND is still running
                           this long after the initial signal was sent
  -s, --signal=SIGNAL    specify the signal to be sent on timeout
  -v, --verbose          diagnose to stderr any signal sent upon timeout
      --help     display this help and exit
      --version  output version information and exit

DURATION is a floating point number with an optional suffix: 's' for seconds
(the default), 'm' for minutes, 'h' for hours or 'd' for days.  A duration of 0
disables the associated timeout.  The clock is virtual: COMMAND runs to completion
and times out if it advanced the clock past DURATION.

Exit status is 124 if COMMAND times out and --preserve-status is not given,
125 if timeout itself fails, 126 if COMMAND is found but cannot be invoked,
127 if COMMAND cannot be found, else the exit status of COMMAND.
";

const CANCELED: i32 = 125;

const SIGNALS: &[(&str, i32)] = &[
    ("HUP", 1),
    ("INT", 2),
    ("QUIT", 3),
    ("ILL", 4),
    ("TRAP", 5),
    ("ABRT", 6),
    ("BUS", 7),
    ("FPE", 8),
    ("KILL", 9),
    ("USR1", 10),
    ("SEGV", 11),
    ("USR2", 12),
    ("PIPE", 13),
    ("ALRM", 14),
    ("TERM", 15),
    ("CHLD", 17),
    ("CONT", 18),
    ("STOP", 19),
    ("TSTP", 20),
];

/// A signal number from a name (`TERM`, `SIGTERM`, `term`) or number.
fn signal(s: &str) -> Option<(&'static str, i32)> {
    if let Ok(n) = s.parse::<i32>() {
        return SIGNALS.iter().find(|(_, v)| *v == n).copied();
    }
    let up = s.to_ascii_uppercase();
    let name = up.strip_prefix("SIG").unwrap_or(&up);
    SIGNALS.iter().find(|(k, _)| *k == name).copied()
}

pub fn timeout(ctx: &mut Ctx) -> CmdResult {
    let mut spec = Spec::new("k:s:v", LONG);
    spec.permute = false;
    let parsed = match parse_std(ctx, &spec, CANCELED, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mut sig = ("TERM", 15);
    for (k, v) in &parsed.opts {
        match (k.as_str(), v.as_deref()) {
            ("s", Some(name)) => match signal(name) {
                Some(s) => sig = s,
                None => {
                    let msg = format!("{}: invalid signal", lq(name));
                    return usage_error(ctx, &msg, CANCELED);
                }
            },
            ("k", Some(d)) if parse_duration(d).is_none() => {
                let msg = format!("invalid time interval {}", lq(d));
                return usage_error(ctx, &msg, CANCELED);
            }
            _ => {}
        }
    }
    let Some((duration, argv)) = parsed.operands.split_first() else {
        return usage_error(ctx, "", CANCELED);
    };
    let Some(limit) = parse_duration(duration) else {
        let msg = format!("invalid time interval {}", lq(duration));
        return usage_error(ctx, &msg, CANCELED);
    };
    if argv.is_empty() {
        return usage_error(ctx, "", CANCELED);
    }
    let clock = ctx.fs.lock().clock().clone();
    let start = clock.now();
    let status = ctx.host.run(
        argv,
        Stdio::Own(&mut *ctx.stdin),
        Stdio::Own(&mut *ctx.stdout),
        Stdio::Own(&mut *ctx.stderr),
    )?;
    let limit = to_nanos(limit);
    let elapsed = clock.now().as_nanos().saturating_sub(start.as_nanos());
    if limit == 0 || elapsed <= limit {
        return Ok(status);
    }
    clock.set(crate::fs::Timestamp::from_nanos(
        start.as_nanos().saturating_add(limit),
    ));
    if parsed.has("v") {
        let cmd = argv.first().map_or("", String::as_str);
        ctx.err(format!(
            "sending signal {} to command {}",
            sig.0,
            quote(cmd)
        ))?;
    }
    Ok(if parsed.has("preserve") || sig.1 == 9 {
        128 + sig.1
    } else {
        124
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{NOW, check, fs_with, run_in};

    #[test]
    fn timeout_table() {
        let try_ = "Try 'timeout --help' for more information.\n";
        for (line, err, status) in [
            ("timeout 5 true", String::new(), 0),
            ("timeout 5 false", String::new(), 1),
            ("timeout 0 sleep 9", String::new(), 0),
            ("timeout 1 sleep 5", String::new(), 124),
            ("timeout 1m sleep 5", String::new(), 0),
            ("timeout --preserve-status 1 sleep 5", String::new(), 143),
            ("timeout -s KILL 1 sleep 5", String::new(), 137),
            (
                "timeout -v 1 sleep 5",
                "timeout: sending signal TERM to command 'sleep'\n".to_owned(),
                124,
            ),
            ("timeout", try_.to_owned(), 125),
            ("timeout 1", try_.to_owned(), 125),
            (
                "timeout x true",
                format!("timeout: invalid time interval 'x'\n{try_}"),
                125,
            ),
            (
                "timeout -s FOO 1 true",
                format!("timeout: 'FOO': invalid signal\n{try_}"),
                125,
            ),
            (
                "timeout -k",
                format!("timeout: option requires an argument -- 'k'\n{try_}"),
                125,
            ),
        ] {
            check(&[], line, "", ("", &err, status));
        }
    }

    #[test]
    fn winds_the_clock_back_to_the_kill() {
        let fs = fs_with(&[]);
        let (_, _, status) = run_in(&fs, "timeout 2 sleep 60", b"");
        assert_eq!(status, 124);
        assert_eq!(fs.lock().clock().now().secs, NOW + 2);
    }
}
