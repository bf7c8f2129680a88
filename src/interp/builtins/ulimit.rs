//! `ulimit`: per-shell resource limits. They are recorded and reported like bash's (the
//! sandbox enforces its own limits; see `Limits`), with soft and hard values.

use super::super::{Interp, R};

/// (flag, description, unit, default) in bash's `ulimit -a` order.
const RESOURCES: &[(char, &str, &str, Option<u64>)] = &[
    ('R', "real-time non-blocking time", "microseconds", None),
    ('c', "core file size", "blocks", Some(0)),
    ('d', "data seg size", "kbytes", None),
    ('e', "scheduling priority", "", Some(0)),
    ('f', "file size", "blocks", None),
    ('i', "pending signals", "", Some(96364)),
    ('l', "max locked memory", "kbytes", Some(8192)),
    ('m', "max memory size", "kbytes", None),
    ('n', "open files", "", Some(1024)),
    ('p', "pipe size", "512 bytes", Some(8)),
    ('q', "POSIX message queues", "bytes", Some(819200)),
    ('r', "real-time priority", "", Some(0)),
    ('s', "stack size", "kbytes", Some(8192)),
    ('t', "cpu time", "seconds", None),
    ('u', "max user processes", "", Some(96364)),
    ('v', "virtual memory", "kbytes", None),
    ('x', "file locks", "", None),
];

/// The lowest descriptor a redirection may not use: the soft `ulimit -n` (bash's
/// `dup2` fails at it with EBADF), never above [`MAX_FDS`](crate::interp::io::MAX_FDS).
pub(crate) fn open_files_limit(sh: &Interp) -> i32 {
    let max = crate::interp::io::MAX_FDS;
    get(sh, 'n')
        .0
        .map_or(max, |n| i32::try_from(n).unwrap_or(max).min(max))
}

fn show(v: Option<u64>) -> String {
    v.map(|n| n.to_string())
        .unwrap_or_else(|| "unlimited".to_owned())
}

/// Whether limit `a` is above limit `b` (`None` is unlimited).
fn exceeds(a: Option<u64>, b: Option<u64>) -> bool {
    match (a, b) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some(a), Some(b)) => a > b,
    }
}

/// The current (soft, hard) value of a resource.
fn get(sh: &Interp, c: char) -> (Option<u64>, Option<u64>) {
    if let Some(v) = sh.ulimits.get(&c) {
        return *v;
    }
    let d = RESOURCES.iter().find(|r| r.0 == c).and_then(|r| r.3);
    (d, d)
}

pub fn ulimit(sh: &mut Interp, args: &[String]) -> R {
    let mut hard = false;
    let mut soft = false;
    let mut all = false;
    let mut res: Vec<char> = Vec::new();
    let mut value: Option<String> = None;
    let mut i = 1;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            i += 1;
            break;
        }
        if a.starts_with('-') && a.len() > 1 && !a[1..].starts_with(|c: char| c.is_ascii_digit()) {
            for c in a[1..].chars() {
                match c {
                    'H' => hard = true,
                    'S' => soft = true,
                    'a' => all = true,
                    c if RESOURCES.iter().any(|r| r.0 == c) => res.push(c),
                    'b' | 'k' | 'P' | 'T' => res.push(c),
                    _ => {
                        sh.builtin_error("ulimit", &format!("-{c}: invalid option"));
                        sh.errln("ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]");
                        return Ok(2);
                    }
                }
            }
            i += 1;
            continue;
        }
        if a.starts_with('-') && a.len() > 1 {
            let shown: String = a.chars().take(2).collect();
            sh.builtin_error("ulimit", &format!("{shown}: invalid option"));
            sh.errln("ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]");
            return Ok(2);
        }
        value = Some(a.clone());
        i += 1;
    }
    if value.is_none() && i < args.len() {
        value = Some(args[i].clone());
    }
    if all {
        let out: String = RESOURCES
            .iter()
            .map(|(c, desc, unit, _)| {
                let (s, h) = get(sh, *c);
                described(desc, unit, *c, &show(if hard { h } else { s }))
            })
            .collect();
        sh.out(out.as_bytes())?;
        return Ok(0);
    }
    if res.is_empty() {
        res.push('f');
    }
    match value {
        None => {
            let mut out = String::new();
            let multi = res.len() > 1;
            for c in &res {
                let (s, h) = get(sh, *c);
                let v = if hard && !soft { h } else { s };
                if multi {
                    let r = RESOURCES.iter().find(|r| r.0 == *c);
                    let (desc, unit) = r.map(|r| (r.1, r.2)).unwrap_or(("", ""));
                    out.push_str(&described(desc, unit, *c, &show(v)));
                } else {
                    out.push_str(&format!("{}\n", show(v)));
                }
            }
            sh.out(out.as_bytes())?;
            Ok(0)
        }
        Some(v) => {
            let n: Option<u64> = if v == "unlimited" {
                None
            } else if v == "hard" || v == "soft" {
                let (s, h) = get(sh, res[0]);
                if v == "hard" { h } else { s }
            } else {
                match v.parse::<u64>() {
                    // Limits are kept in bytes: a value that overflows is unlimited.
                    Ok(n) => {
                        let unit: u64 = match RESOURCES.iter().find(|r| r.0 == res[0]).map(|r| r.2)
                        {
                            Some("blocks") => 512,
                            Some("kbytes") => 1024,
                            _ => 1,
                        };
                        n.checked_mul(unit)
                            .filter(|b| *b <= i64::MAX as u64)
                            .map(|_| n)
                    }
                    Err(_) => {
                        sh.builtin_error("ulimit", &format!("{v}: invalid number"));
                        return Ok(1);
                    }
                }
            };
            for c in res {
                let (s, h) = get(sh, c);
                let (new_soft, new_hard) = match (hard, soft) {
                    (true, false) => (s, n),
                    (false, true) => (n, h),
                    _ => (n, n),
                };
                // As setrlimit(2) for a user: no raising the hard limit (EPERM), no
                // soft limit above the hard one (EINVAL).
                let why = if exceeds(new_hard, h) {
                    Some("Operation not permitted")
                } else if exceeds(new_soft, new_hard) {
                    Some("Invalid argument")
                } else {
                    None
                };
                if let Some(why) = why {
                    let desc = RESOURCES.iter().find(|r| r.0 == c).map_or("", |r| r.1);
                    sh.builtin_error("ulimit", &format!("{desc}: cannot modify limit: {why}"));
                    return Ok(1);
                }
                sh.ulimits.insert(c, (new_soft, new_hard));
            }
            Ok(0)
        }
    }
}

/// One line of `ulimit -a` (or of several limits asked for at once), laid out as
/// bash 5.2's `printone` does: `"%-20s %20s"` of the description and
/// `"(UNIT, -C) "`, then the value.
fn described(desc: &str, unit: &str, c: char, value: &str) -> String {
    let label = if unit.is_empty() {
        format!("(-{c}) ")
    } else {
        format!("({unit}, -{c}) ")
    };
    format!("{desc:<20} {label:>20}{value}\n")
}
