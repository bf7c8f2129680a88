//! `sleep`: advances the virtual clock by the sum of its durations (`1`, `0.5`, `2m`,
//! `1h`, `1d`, `inf`) instead of waiting.

use super::about::{HELP, VERSION, parse_std};
use super::args::{LongOpt, Spec, usage_error};
use super::util::lq;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[HELP, VERSION];

const USAGE: &str = "\
Usage: sleep NUMBER[SUFFIX]...
Pause for NUMBER seconds.  SUFFIX may be 's' for seconds (the default),
'm' for minutes, 'h' for hours or 'd' for days.  NUMBER need not be an
integer.  Given two or more arguments, pause for the amount of time
specified by the sum of their values.  (In shellbox the clock is virtual:
sleeping advances it without waiting.)
";

/// Parses a GNU duration (`1.5`, `2m`, `1h`, `1d`, `inf`) into seconds; `None` if
/// invalid or negative.
pub fn parse_duration(s: &str) -> Option<f64> {
    let (num, mult) = match s.char_indices().last() {
        Some((i, 's')) => (&s[..i], 1.0),
        Some((i, 'm')) => (&s[..i], 60.0),
        Some((i, 'h')) => (&s[..i], 3600.0),
        Some((i, 'd')) => (&s[..i], 86_400.0),
        _ => (s, 1.0),
    };
    // Rust's float syntax is close to strtod's, but also takes `infinity` spelled out
    // and no hex; both are rare in scripts.
    let num = num.trim_start();
    if num.is_empty() || num.ends_with(char::is_whitespace) {
        return None;
    }
    let v: f64 = num.parse().ok()?;
    if v.is_nan() || v < 0.0 {
        return None;
    }
    Some(v * mult)
}

/// Seconds as whole nanoseconds, saturating (an infinite sleep ends at the end of time).
pub fn to_nanos(secs: f64) -> i64 {
    let n = (secs * 1e9).ceil();
    if n >= i64::MAX as f64 {
        i64::MAX
    } else {
        n as i64
    }
}

pub fn sleep(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if parsed.operands.is_empty() {
        return usage_error(ctx, "missing operand", 1);
    }
    let mut total = 0.0;
    let mut bad = false;
    for op in &parsed.operands {
        match parse_duration(op) {
            Some(v) => total += v,
            None => {
                ctx.err(format!("invalid time interval {}", lq(op)))?;
                bad = true;
            }
        }
    }
    if bad {
        return usage_error(ctx, "", 1);
    }
    let clock = ctx.fs.lock().clock().clone();
    ctx.host.sleep(&clock, to_nanos(total))?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{NOW, check, fs_with, run_in};

    #[test]
    fn sleep_table() {
        let try_ = "Try 'sleep --help' for more information.\n";
        for (line, err, status) in [
            ("sleep 0", String::new(), 0),
            ("sleep 1e-3 0.001s", String::new(), 0),
            ("sleep", format!("sleep: missing operand\n{try_}"), 1),
            (
                "sleep x",
                format!("sleep: invalid time interval 'x'\n{try_}"),
                1,
            ),
            (
                "sleep .",
                format!("sleep: invalid time interval '.'\n{try_}"),
                1,
            ),
            (
                "sleep ''",
                format!("sleep: invalid time interval ''\n{try_}"),
                1,
            ),
            (
                "sleep -- -1",
                format!("sleep: invalid time interval '-1'\n{try_}"),
                1,
            ),
            (
                "sleep 1x 2 y",
                format!(
                    "sleep: invalid time interval '1x'\nsleep: invalid time interval 'y'\n{try_}"
                ),
                1,
            ),
            (
                "sleep -1",
                format!("sleep: invalid option -- '1'\n{try_}"),
                1,
            ),
        ] {
            check(&[], line, "", ("", &err, status));
        }
    }

    #[test]
    fn advances_the_virtual_clock() {
        let fs = fs_with(&[]);
        for (line, secs) in [
            ("sleep 1", 1),
            ("sleep 0.5 0.5", 1),
            ("sleep 2m", 120),
            ("sleep 1h 1d", 90_000),
        ] {
            let before = fs.lock().clock().now();
            let (_, _, status) = run_in(&fs, line, b"");
            assert_eq!(status, 0);
            let after = fs.lock().clock().now();
            assert_eq!(after.secs - before.secs, secs, "{line}");
        }
        assert!(fs.lock().clock().now().secs > NOW);
        let (_, _, status) = run_in(&fs, "sleep inf", b"");
        assert_eq!(status, 0);
    }
}
