//! `pgrep` and `pkill` (procps-ng 4): the session's processes whose name (or, with
//! `-f`, whole command line) an extended regular expression matches, narrowed by
//! parent, group, session and user; `pgrep` lists them, `pkill` signals them. Neither
//! ever matches itself.

use super::about::{write_help, write_version};
use super::{CmdResult, Ctx};
use crate::interp::procs::ProcInfo;

/// The options `pgrep` and `pkill` share, as their help lists them.
macro_rules! shared_options {
    () => {
        " -c, --count               count of matching processes
 -f, --full                use full process name to match
 -g, --pgroup <PGID,...>   match listed process group IDs
 -i, --ignore-case         match case insensitively
 -n, --newest              select most recently started
 -o, --oldest              select least recently started
 -P, --parent <PPID,...>   match only child processes of the given parent
 -s, --session <SID,...>   match session IDs
 -u, --euid <ID,...>       match by effective IDs
 -U, --uid <ID,...>        match by real IDs
 -x, --exact               match exactly with the command name

 -h, --help     display this help and exit
 -V, --version  output version information and exit

For more details see pgrep(1).
"
    };
}

const PGREP_USAGE: &str = concat!(
    "
Usage:
 pgrep [options] <pattern>

Options:
 -d, --delimiter <string>  specify output delimiter
 -l, --list-name           list PID and process name
 -a, --list-full           list PID and full command line
 -v, --inverse             negates the matching
",
    shared_options!()
);

const PKILL_USAGE: &str = concat!(
    "
Usage:
 pkill [options] <pattern>

Options:
 -<sig>, --signal <sig>    signal to send (either number or name)
 -e, --echo                display what is killed
",
    shared_options!()
);

/// What the options ask for.
#[derive(Default)]
struct Opts {
    delimiter: Option<String>,
    list_name: bool,
    list_full: bool,
    inverse: bool,
    count: bool,
    full: bool,
    ignore_case: bool,
    newest: bool,
    oldest: bool,
    exact: bool,
    echo: bool,
    parents: Vec<u32>,
    groups: Vec<u32>,
    sessions: Vec<u32>,
    users: Vec<String>,
    signal: Option<i32>,
    pattern: Option<String>,
}

/// Why the arguments were refused: an invalid option (usage follows) or a message.
enum Refused {
    Usage(String),
    Message(String),
    Help,
    Version,
}

/// The sandbox user, whom every process belongs to.
const USER: &str = "user";
const UID: u32 = 1000;

fn id_list(v: &str, own: u32, out: &mut Vec<u32>) -> Result<(), Refused> {
    for item in v.split(',') {
        match item.parse::<u32>() {
            // 0 means the caller's own group or session.
            Ok(0) => out.push(own),
            Ok(n) => out.push(n),
            Err(_) => return Err(Refused::Message(format!("invalid argument: {v}"))),
        }
    }
    Ok(())
}

/// Options taking a value, by short letter and long name.
const VALUED: &[(char, &str)] = &[
    ('d', "delimiter"),
    ('g', "pgroup"),
    ('P', "parent"),
    ('s', "session"),
    ('u', "euid"),
    ('U', "uid"),
];

/// Flags, by short letter and long name.
const FLAGS: &[(char, &str)] = &[
    ('l', "list-name"),
    ('a', "list-full"),
    ('v', "inverse"),
    ('c', "count"),
    ('f', "full"),
    ('i', "ignore-case"),
    ('n', "newest"),
    ('o', "oldest"),
    ('x', "exact"),
    ('e', "echo"),
    ('h', "help"),
    ('V', "version"),
];

fn set(o: &mut Opts, c: char, v: Option<&str>, pkill: bool, me: &ProcInfo) -> Result<(), Refused> {
    let v = v.unwrap_or_default();
    match c {
        'l' if !pkill => o.list_name = true,
        'a' if !pkill => o.list_full = true,
        'v' if !pkill => o.inverse = true,
        'e' if pkill => o.echo = true,
        'c' => o.count = true,
        'f' => o.full = true,
        'i' => o.ignore_case = true,
        'n' => o.newest = true,
        'o' => o.oldest = true,
        'x' => o.exact = true,
        'h' => return Err(Refused::Help),
        'V' => return Err(Refused::Version),
        'd' if !pkill => o.delimiter = Some(v.to_owned()),
        'g' => id_list(v, me.pgid, &mut o.groups)?,
        'P' => id_list(v, me.ppid, &mut o.parents)?,
        's' => id_list(v, me.sid, &mut o.sessions)?,
        'u' | 'U' => o.users.extend(v.split(',').map(str::to_owned)),
        _ => return Err(Refused::Usage(format!("invalid option -- '{c}'"))),
    }
    Ok(())
}

fn parse(args: &[String], pkill: bool, me: &ProcInfo) -> Result<Opts, Refused> {
    let mut o = Opts::default();
    let mut i = 0;
    let mut operands = Vec::new();
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "--" {
            operands.extend(args[i..].iter().cloned());
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (long, None),
            };
            if pkill && name == "signal" {
                let v = inline.or_else(|| {
                    i += 1;
                    args.get(i - 1).cloned()
                });
                let v = v.unwrap_or_default();
                o.signal = Some(
                    crate::interp::builtins::signal_number(&v)
                        .ok_or_else(|| Refused::Message(format!("Unknown signal \"{v}\".")))?,
                );
                continue;
            }
            let found = VALUED
                .iter()
                .chain(FLAGS)
                .find(|(_, n)| *n == name)
                .map(|(c, _)| *c);
            let Some(c) = found else {
                return Err(Refused::Usage(format!("unrecognized option '{a}'")));
            };
            let v = if VALUED.iter().any(|(k, _)| *k == c) {
                let v = inline.or_else(|| {
                    i += 1;
                    args.get(i - 1).cloned()
                });
                if v.is_none() {
                    return Err(Refused::Usage(format!(
                        "option '--{name}' requires an argument"
                    )));
                }
                v
            } else {
                None
            };
            set(&mut o, c, v.as_deref(), pkill, me)?;
            continue;
        }
        let Some(flags) = a.strip_prefix('-').filter(|f| !f.is_empty()) else {
            operands.push(a.clone());
            continue;
        };
        // `pkill -9`, `pkill -TERM`: a signal as the first argument.
        let leading_signal = pkill
            && i == 1
            && flags
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit() || c.is_ascii_uppercase());
        if leading_signal && let Some(sig) = crate::interp::builtins::signal_number(flags) {
            o.signal = Some(sig);
            continue;
        }
        for (at, c) in flags.char_indices() {
            if VALUED.iter().any(|(k, _)| *k == c) {
                let rest = &flags[at + c.len_utf8()..];
                let v = if rest.is_empty() {
                    i += 1;
                    args.get(i - 1).cloned()
                } else {
                    Some(rest.to_owned())
                };
                let Some(v) = v else {
                    return Err(Refused::Usage(format!(
                        "option requires an argument -- '{c}'"
                    )));
                };
                set(&mut o, c, Some(&v), pkill, me)?;
                break;
            }
            set(&mut o, c, None, pkill, me)?;
        }
    }
    if operands.len() > 1 {
        return Err(Refused::Message(
            "only one pattern can be provided".to_owned(),
        ));
    }
    o.pattern = operands.pop();
    Ok(o)
}

fn pgrep_like(ctx: &mut Ctx, pkill: bool) -> CmdResult {
    let usage = if pkill { PKILL_USAGE } else { PGREP_USAGE };
    let me_pid = ctx.host.pid();
    let procs = ctx.host.processes();
    let me = procs
        .iter()
        .find(|p| p.pid == me_pid)
        .cloned()
        .unwrap_or(ProcInfo {
            pid: me_pid,
            ppid: 0,
            pgid: 0,
            sid: 0,
            comm: String::new(),
            args: String::new(),
            start: 0,
        });
    let o = match parse(ctx.args, pkill, &me) {
        Ok(o) => o,
        Err(Refused::Help) => {
            write_help(ctx, usage.trim_start())?;
            return Ok(0);
        }
        Err(Refused::Version) => {
            write_version(ctx)?;
            return Ok(0);
        }
        Err(Refused::Usage(msg)) => {
            ctx.err(msg)?;
            ctx.stderr.write_all(usage.as_bytes())?;
            return Ok(2);
        }
        Err(Refused::Message(msg)) => {
            ctx.err(msg)?;
            ctx.stderr.write_all(
                format!("Try `{} --help' for more information.\n", ctx.name).as_bytes(),
            )?;
            return Ok(2);
        }
    };
    let any_list = !(o.parents.is_empty()
        && o.groups.is_empty()
        && o.sessions.is_empty()
        && o.users.is_empty());
    if o.pattern.is_none() && !any_list {
        ctx.err("no matching criteria specified")?;
        ctx.stderr
            .write_all(format!("Try `{} --help' for more information.\n", ctx.name).as_bytes())?;
        return Ok(2);
    }
    let re = match &o.pattern {
        Some(p) => {
            let mut text = match crate::posix_regex::translate(p, true) {
                Ok(t) => t,
                Err(_) => {
                    ctx.err("regex error: Invalid regular expression")?;
                    return Ok(2);
                }
            };
            if o.exact {
                text = format!("^(?:{text})$");
            }
            match regex::RegexBuilder::new(&text)
                .case_insensitive(o.ignore_case)
                .build()
            {
                Ok(r) => Some(r),
                Err(_) => {
                    ctx.err("regex error: Invalid regular expression")?;
                    return Ok(2);
                }
            }
        }
        None => None,
    };
    let mut matched: Vec<ProcInfo> = procs
        .into_iter()
        .filter(|p| p.pid != me_pid)
        .filter(|p| {
            let listed = (o.parents.is_empty() || o.parents.contains(&p.ppid))
                && (o.groups.is_empty() || o.groups.contains(&p.pgid))
                && (o.sessions.is_empty() || o.sessions.contains(&p.sid))
                && (o.users.is_empty()
                    || o.users.iter().any(|u| u == USER || u.parse() == Ok(UID)));
            // A process's name is at most 15 bytes, as the kernel keeps it.
            let name: String = p.comm.chars().take(15).collect();
            let subject = if o.full { &p.args } else { &name };
            let hit = re.as_ref().is_none_or(|r| r.is_match(subject));
            listed && (hit != o.inverse)
        })
        .collect();
    if o.newest || o.oldest {
        let pick = if o.newest {
            matched.iter().max_by_key(|p| (p.start, p.pid))
        } else {
            matched.iter().min_by_key(|p| (p.start, p.pid))
        };
        matched = pick.cloned().into_iter().collect();
    }
    if pkill {
        let sig = o.signal.unwrap_or(crate::interp::procs::SIGTERM);
        let mut done = 0usize;
        for p in &matched {
            if ctx.host.signal(p.pid, sig) {
                done += 1;
                if o.echo {
                    writeln!(ctx.stdout, "{} killed (pid {})", p.comm, p.pid)?;
                }
            }
        }
        if o.count {
            writeln!(ctx.stdout, "{done}")?;
        }
        return Ok(if matched.is_empty() { 1 } else { 0 });
    }
    if o.count {
        writeln!(ctx.stdout, "{}", matched.len())?;
    } else {
        let delim = o.delimiter.clone().unwrap_or_else(|| "\n".to_owned());
        let items: Vec<String> = matched
            .iter()
            .map(|p| {
                if o.list_full {
                    format!("{} {}", p.pid, p.args)
                } else if o.list_name {
                    format!("{} {}", p.pid, p.comm)
                } else {
                    p.pid.to_string()
                }
            })
            .collect();
        if !items.is_empty() {
            writeln!(ctx.stdout, "{}", items.join(&delim))?;
        }
    }
    Ok(if matched.is_empty() { 1 } else { 0 })
}

pub fn pgrep(ctx: &mut Ctx) -> CmdResult {
    pgrep_like(ctx, false)
}

pub fn pkill(ctx: &mut Ctx) -> CmdResult {
    pgrep_like(ctx, true)
}
