//! `timeout`: runs a command with a time limit. The command leads a process group of
//! its own; when a sleep in it reaches the limit on the virtual clock, or when it has
//! computed for the limit in real time without sleeping, the group (only the command
//! with `--foreground`) gets the signal, and KILL `-k` later if it still runs. The
//! status is then 124 (the command's with `--preserve-status`, 137 for `-s KILL`).
//! Time the command spends elsewhere (a background job's sleeps it waits for) is
//! checked when it ends: past the limit, the clock is wound back to the deadline and
//! the status is the same.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::sleep::{parse_duration, to_nanos};
use super::util::lq;
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
disables the associated timeout.  DURATION counts virtual time in COMMAND's sleeps
and real time while it computes.

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
    // timeout execs the command itself, so one it cannot find is its own error.
    if let Some(cmd) = argv.first()
        && (if cmd.contains('/') {
            ctx.fs.lock().stat(&ctx.path(cmd)).is_err()
        } else {
            !ctx.host.command_exists(cmd)
        })
    {
        ctx.err(format!(
            "failed to run command {}: No such file or directory",
            lq(cmd)
        ))?;
        return Ok(127);
    }
    let clock = ctx.fs.lock().clock().clone();
    let start = clock.now();
    let limit = to_nanos(limit);
    let kill_after = parsed
        .last("k")
        .and_then(parse_duration)
        .map(to_nanos)
        .filter(|k| *k > 0);
    // A duration of 0 disables the timeout.
    if limit == 0 {
        return ctx.host.run(
            argv,
            Stdio::Own(&mut *ctx.stdin),
            Stdio::Own(&mut *ctx.stdout),
            Stdio::Own(&mut *ctx.stderr),
        );
    }
    let alarm = crate::interp::procs::AlarmSpec {
        limit,
        signal: sig.1,
        kill_after,
        whole_group: !parsed.has("foreground"),
    };
    let (status, sent) = ctx.host.run_timed(
        argv,
        Stdio::Own(&mut *ctx.stdin),
        Stdio::Own(&mut *ctx.stdout),
        Stdio::Own(&mut *ctx.stderr),
        &alarm,
    )?;
    let fired = !sent.is_empty();
    let deadline = start.as_nanos().saturating_add(limit);
    let elapsed = clock.now().as_nanos().saturating_sub(start.as_nanos());
    if !fired && elapsed <= limit {
        return Ok(status);
    }
    // Stopped at the deadline, or found past it: the command took the limit.
    if !fired || clock.now().as_nanos() < deadline {
        clock.set(crate::fs::Timestamp::from_nanos(deadline));
    }
    let cmd = argv.first().map_or("", String::as_str);
    let names: Vec<&str> = if fired {
        sent.iter()
            .map(|s| if *s == sig.1 { sig.0 } else { "KILL" })
            .collect()
    } else {
        vec![sig.0]
    };
    if parsed.has("v") {
        for name in &names {
            let msg = format!("sending signal {name} to command {}", ctx.lquote(cmd));
            ctx.err(msg)?;
        }
    }
    // A KILL sent to the group reaches timeout too: it dies of it, as GNU's does.
    if names.contains(&"KILL") && !parsed.has("foreground") {
        let me = ctx.host.pid();
        ctx.host.signal(me, 9);
        return Err(crate::interp::procs::killed_error(9));
    }
    if parsed.has("preserve") && fired {
        return Ok(status);
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
