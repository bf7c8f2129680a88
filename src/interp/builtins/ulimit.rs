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
    // Core dumps are off but may be turned on: a soft limit of 0 under no hard one,
    // as Linux starts a login.
    if c == 'c' {
        return (d, None);
    }
    (d, d)
}

const USAGE: &str = "ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]";

/// Whether `c` names a resource (the ones bash knows but Linux lacks included).
fn is_resource(c: char) -> bool {
    RESOURCES.iter().any(|r| r.0 == c) || matches!(c, 'b' | 'k' | 'P' | 'T')
}

/// `ulimit`: each resource option is one request, shown or set in order. A resource
/// letter takes a value as getopt's optional arguments do: the rest of its word, or the
/// next word unless that starts with `-`. A first operand gives its value to the last
/// request when that one has none (to `-f` when there is no request); `-a` shows every
/// limit and sets nothing. The first request that fails ends the command.
pub fn ulimit(sh: &mut Interp, args: &[String]) -> R {
    let (mut hard, mut soft, mut all) = (false, false, false);
    let mut requests: Vec<(char, Option<String>)> = Vec::new();
    let mut i = 1;
    while let Some(a) = args.get(i) {
        if a == "--" {
            i += 1;
            break;
        }
        let Some(flags) = a.strip_prefix('-').filter(|f| !f.is_empty()) else {
            break;
        };
        i += 1;
        for (at, c) in flags.char_indices() {
            match c {
                'H' => hard = true,
                'S' => soft = true,
                'a' => all = true,
                c if is_resource(c) => {
                    let attached = &flags[at + c.len_utf8()..];
                    let value = if !attached.is_empty() {
                        Some(attached.to_owned())
                    } else {
                        match args.get(i) {
                            Some(next) if !next.starts_with('-') => {
                                i += 1;
                                Some(next.clone())
                            }
                            _ => None,
                        }
                    };
                    let done = !attached.is_empty();
                    requests.push((c, value));
                    if done {
                        break;
                    }
                }
                _ => {
                    sh.builtin_error("ulimit", &format!("-{c}: invalid option"));
                    sh.errln(USAGE);
                    return Ok(2);
                }
            }
        }
    }
    if all {
        let out: String = RESOURCES
            .iter()
            .map(|(c, desc, unit, _)| {
                let (s, h) = get(sh, *c);
                described(desc, unit, *c, &show(if hard && !soft { h } else { s }))
            })
            .collect();
        sh.out(out.as_bytes())?;
        return Ok(0);
    }
    if let Some(operand) = args.get(i) {
        match requests.last_mut() {
            None => requests.push(('f', Some(operand.clone()))),
            Some((_, value @ None)) => *value = Some(operand.clone()),
            Some(_) => {}
        }
    }
    if requests.is_empty() {
        requests.push(('f', None));
    }
    let labelled = requests.len() > 1;
    for (c, value) in requests {
        let status = match value {
            None => {
                let (s, h) = get(sh, c);
                let v = show(if hard && !soft { h } else { s });
                let line = if labelled {
                    let r = RESOURCES.iter().find(|r| r.0 == c);
                    let (desc, unit) = r.map(|r| (r.1, r.2)).unwrap_or(("", ""));
                    described(desc, unit, c, &v)
                } else {
                    format!("{v}\n")
                };
                sh.out(line.as_bytes())?;
                0
            }
            Some(v) => set_limit(sh, c, &v, hard, soft),
        };
        if status != 0 {
            return Ok(status);
        }
    }
    Ok(0)
}

/// Sets resource `c` to the limit `v` names (both limits unless only one of `-H` and
/// `-S` was given); the status, after bash's complaint when it fails.
fn set_limit(sh: &mut Interp, c: char, v: &str, hard: bool, soft: bool) -> i32 {
    let unit: u64 = match RESOURCES.iter().find(|r| r.0 == c).map(|r| r.2) {
        Some("blocks") => 512,
        Some("kbytes") => 1024,
        _ => 1,
    };
    let n: Option<u64> = match v {
        "unlimited" => None,
        "hard" => get(sh, c).1,
        "soft" => get(sh, c).0,
        // An empty limit reads as no digits at all: zero.
        "" => Some(0),
        _ if v.bytes().all(|b| b.is_ascii_digit()) => {
            // Limits are kept in bytes, which must fit a signed 64-bit count.
            match v
                .parse::<u64>()
                .ok()
                .filter(|n| n.checked_mul(unit).is_some_and(|b| b <= i64::MAX as u64))
            {
                Some(n) => Some(n),
                None => {
                    sh.builtin_error("ulimit", &format!("{v}: limit out of range"));
                    return 1;
                }
            }
        }
        _ => {
            let kind = if v.starts_with("0x") {
                "hex number"
            } else {
                "number"
            };
            sh.builtin_error("ulimit", &format!("{v}: invalid {kind}"));
            return 1;
        }
    };
    let (s, h) = get(sh, c);
    let (new_soft, new_hard) = match (hard, soft) {
        (true, false) => (s, n),
        (false, true) => (n, h),
        _ => (n, n),
    };
    // As setrlimit(2) for a user: no raising the hard limit (EPERM), no soft limit
    // above the hard one (EINVAL).
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
        return 1;
    }
    sh.ulimits.insert(c, (new_soft, new_hard));
    0
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
