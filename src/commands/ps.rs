//! `ps`: the session's processes (its shells, subshells, jobs and running utilities)
//! in procps-ng 4's formats: the default, `-f`, `-j`, `-l`, BSD `u` and `x`, and `-o`
//! with its column widths. Every process belongs to the sandbox user and has no
//! terminal, so the default lists them all; CPU and memory figures are zero.

use super::about::{write_help, write_version};
use super::{CmdResult, Ctx};
use crate::interp::procs::ProcInfo;

const USAGE: &str = "\
Usage:
 ps [options]

Basic options:
 -A, -e               all processes
 -a                   all with tty, except session leaders
  a                   all with tty, including other users
 -d                   all except session leaders
  x                   processes without controlling ttys

Selection by list:
 -C <command>         command name
 -G, --Group <GID>    real group id or name
 -g, --group <group>  session or effective group name
 -p, p, --pid <PID>   process id
        --ppid <PID>  parent process id
 -q, q, --quick-pid <PID>
                      process id (quick mode)
 -s, --sid <session>  session id
 -u, U, --user <UID>  effective user id or name
 -U, --User <UID>     real user id or name

Output formats:
 -F                   extra full
 -f                   full-format, including command lines
 -j                   jobs format
 -l                   long format
 -o, o, --format <format>
                      user-defined format
  u                   user-oriented format
 --no-headers         do not print header at all

      --help     display this help and exit
      --version  output version information and exit
";

/// The sandbox user.
const USER: &str = "user";
const UID: u32 = 1000;

/// One column: the names `-o` knows it by, its header, width and alignment.
struct Column {
    names: &'static [&'static str],
    header: &'static str,
    width: usize,
    left: bool,
}

const COLUMNS: &[Column] = &[
    col(&["pid", "tgid", "tid", "lwp", "spid"], "PID", 5, false),
    col(&["ppid"], "PPID", 5, false),
    col(&["pgid"], "PGID", 5, false),
    col(&["pgrp"], "PGRP", 5, false),
    col(&["sid"], "SID", 5, false),
    col(&["sess", "session"], "SESS", 5, false),
    col(&["comm", "ucomm"], "COMMAND", 15, true),
    col(&["ucmd"], "CMD", 15, true),
    col(&["args", "command"], "COMMAND", 27, true),
    col(&["cmd"], "CMD", 27, true),
    col(&["stat"], "STAT", 4, true),
    col(&["s", "state"], "S", 1, true),
    col(&["tty", "tt"], "TT", 8, true),
    col(&["tname"], "TTY", 8, true),
    // BSD formats' terminal column (`ps aux`).
    col(&["bsdtty"], "TTY", 8, true),
    col(&["time", "cputime"], "TIME", 8, false),
    col(&["bsdtime"], "TIME", 6, false),
    col(&["etime"], "ELAPSED", 11, false),
    col(&["etimes"], "ELAPSED", 7, false),
    col(&["user", "uname"], "USER", 8, true),
    col(&["euser"], "EUSER", 8, true),
    col(&["ruser"], "RUSER", 8, true),
    col(&["group", "egroup"], "GROUP", 8, true),
    col(&["uid"], "UID", 5, false),
    col(&["euid"], "EUID", 5, false),
    col(&["ruid"], "RUID", 5, false),
    col(&["gid", "egid"], "GID", 5, false),
    col(&["ni", "nice"], "NI", 3, false),
    col(&["pri"], "PRI", 3, false),
    col(&["pcpu", "%cpu"], "%CPU", 4, false),
    col(&["pmem", "%mem"], "%MEM", 4, false),
    col(&["vsz"], "VSZ", 6, false),
    col(&["rss"], "RSS", 5, false),
    col(&["start"], "STARTED", 8, false),
    col(&["bsdstart"], "START", 5, false),
    col(&["stime"], "STIME", 5, true),
    col(&["lstart"], "STARTED", 24, false),
    col(&["c"], "C", 2, false),
    col(&["f", "flags"], "F", 1, false),
    col(&["nlwp", "thcount"], "NLWP", 4, false),
    col(&["wchan"], "WCHAN", 6, true),
    col(&["psr"], "PSR", 3, false),
];

const fn col(
    names: &'static [&'static str],
    header: &'static str,
    width: usize,
    left: bool,
) -> Column {
    Column {
        names,
        header,
        width,
        left,
    }
}

/// A column as asked for: which one, and the header `-o name=HEADER` gave it.
struct Wanted {
    column: &'static Column,
    key: &'static str,
    header: String,
}

impl Wanted {
    /// The column's width: a longer header widens it.
    fn width(&self) -> usize {
        self.column.width.max(self.header.chars().count())
    }
}

fn column(name: &str) -> Option<(&'static Column, &'static str)> {
    COLUMNS
        .iter()
        .find_map(|c| c.names.iter().find(|n| **n == name).map(|n| (c, *n)))
}

/// Columns of a `-o` list (`pid,comm`, `pid=Process,comm=Name`, repeated `-o`).
fn format_list(spec: &str, out: &mut Vec<Wanted>) -> Result<(), String> {
    for item in spec.split([',', ' ']).filter(|s| !s.is_empty()) {
        let (name, header) = match item.split_once('=') {
            Some((n, h)) => (n, Some(h.to_owned())),
            None => (item, None),
        };
        let Some((c, key)) = column(name) else {
            return Err(format!("unknown user-defined format specifier \"{name}\""));
        };
        out.push(Wanted {
            column: c,
            key,
            header: header.unwrap_or_else(|| c.header.to_owned()),
        });
    }
    Ok(())
}

fn wanted(names: &[&str]) -> Vec<Wanted> {
    names
        .iter()
        .filter_map(|n| column(n))
        .map(|(c, key)| Wanted {
            column: c,
            key,
            header: c.header.to_owned(),
        })
        .collect()
}

/// Which processes to show: all, or those any list selects.
#[derive(Default)]
struct Select {
    pids: Vec<u32>,
    ppids: Vec<u32>,
    sids: Vec<u32>,
    commands: Vec<String>,
    users: Vec<String>,
    any_list: bool,
    /// `-d` / `-a`: session leaders left out.
    no_leaders: bool,
}

impl Select {
    fn keeps(&self, p: &ProcInfo) -> bool {
        if self.no_leaders && p.pid == p.sid {
            return false;
        }
        if !self.any_list {
            return true;
        }
        self.pids.contains(&p.pid)
            || self.ppids.contains(&p.ppid)
            || self.sids.contains(&p.sid)
            || self.commands.contains(&p.comm)
            || self
                .users
                .iter()
                .any(|u| u == USER || u.parse::<u32>() == Ok(UID))
    }
}

fn ids(list: &str, out: &mut Vec<u32>) -> Result<(), String> {
    for item in list.split([',', ' ']).filter(|s| !s.is_empty()) {
        match item.parse::<u32>() {
            Ok(n) => out.push(n),
            Err(_) => return Err("process ID list syntax error".to_owned()),
        }
    }
    Ok(())
}

/// What `ps`'s arguments ask for.
#[derive(Default)]
struct Options {
    select: Select,
    columns: Vec<Wanted>,
    format: Option<&'static [&'static str]>,
    headers: bool,
}

const DEFAULT: &[&str] = &["pid", "tname", "time", "ucmd"];
const FULL: &[&str] = &["user", "pid", "ppid", "c", "stime", "tname", "time", "cmd"];
const JOBS: &[&str] = &["pid", "pgid", "sid", "tname", "time", "ucmd"];
const LONG: &[&str] = &[
    "f", "s", "uid", "pid", "ppid", "c", "pri", "ni", "wchan", "tname", "time", "ucmd",
];
const BSD_USER: &[&str] = &[
    "user", "pid", "pcpu", "pmem", "vsz", "rss", "bsdtty", "stat", "bsdstart", "bsdtime", "args",
];
const BSD_X: &[&str] = &["pid", "bsdtty", "stat", "bsdtime", "args"];

/// The value of a list option: attached (`-p1`), or the next argument.
fn value<'a>(args: &'a [String], i: &mut usize, attached: &'a str) -> Option<&'a str> {
    if !attached.is_empty() {
        return Some(attached);
    }
    *i += 1;
    args.get(*i).map(String::as_str)
}

fn parse(args: &[String]) -> Result<Result<Options, &'static str>, String> {
    let mut o = Options {
        headers: true,
        ..Options::default()
    };
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if let Some(long) = a.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, v),
                None => (long, ""),
            };
            match name {
                "help" => return Ok(Err("help")),
                "version" => return Ok(Err("version")),
                "no-headers" | "no-heading" => o.headers = false,
                "headers" => o.headers = true,
                "pid" | "quick-pid" | "ppid" | "sid" | "user" | "User" | "format" | "group"
                | "Group" => {
                    let v = value(args, &mut i, inline)
                        .ok_or_else(|| "list of process IDs must follow --pid".to_owned())?;
                    list_option(&mut o, name, v)?;
                }
                _ => return Err("unknown gnu long option".to_owned()),
            }
        } else if let Some(flags) = a.strip_prefix('-') {
            for (at, c) in flags.char_indices() {
                let rest = &flags[at + c.len_utf8()..];
                match c {
                    'A' | 'e' => o.select.any_list = false,
                    'a' | 'd' => o.select.no_leaders = true,
                    'f' | 'F' => o.format = Some(FULL),
                    'j' => o.format = Some(JOBS),
                    'l' => o.format = Some(LONG),
                    'H' | 'w' | 'c' | 'L' | 'T' | 'm' | 'y' | 'N' => {}
                    'p' | 'q' | 's' | 'u' | 'U' | 'C' | 'o' | 'g' | 'G' => {
                        let name = match c {
                            'p' | 'q' => "pid",
                            's' => "sid",
                            'u' | 'U' => "user",
                            'C' => "command",
                            'o' => "format",
                            _ => "group",
                        };
                        let v = value(args, &mut i, rest)
                            .ok_or_else(|| "list of process IDs must follow -p".to_owned())?;
                        list_option(&mut o, name, v)?;
                        break;
                    }
                    _ => return Err("unsupported SysV option".to_owned()),
                }
            }
        } else {
            // BSD options: `aux`, `x`, `p 1`.
            for (at, c) in a.char_indices() {
                let rest = &a[at + c.len_utf8()..];
                match c {
                    'a' | 'x' | 'e' | 'w' | 'f' | 'c' | 'h' | 'r' | 'T' => {
                        if c == 'h' {
                            o.headers = false;
                        }
                        if o.format.is_none() && c == 'x' {
                            o.format = Some(BSD_X);
                        }
                    }
                    'u' => o.format = Some(BSD_USER),
                    'j' => o.format = Some(JOBS),
                    'l' => o.format = Some(LONG),
                    'p' | 'q' | 'U' | 'o' => {
                        let name = match c {
                            'p' | 'q' => "pid",
                            'U' => "user",
                            _ => "format",
                        };
                        let v = value(args, &mut i, rest)
                            .ok_or_else(|| "list of process IDs must follow p".to_owned())?;
                        list_option(&mut o, name, v)?;
                        break;
                    }
                    _ => return Err("unsupported option (BSD syntax)".to_owned()),
                }
            }
        }
        i += 1;
    }
    Ok(Ok(o))
}

fn list_option(o: &mut Options, name: &str, v: &str) -> Result<(), String> {
    match name {
        "format" => return format_list(v, &mut o.columns),
        "pid" | "quick-pid" => ids(v, &mut o.select.pids)?,
        "ppid" => ids(v, &mut o.select.ppids)?,
        "sid" | "group" | "Group" => ids(v, &mut o.select.sids)?,
        "command" => o
            .select
            .commands
            .extend(v.split(',').filter(|s| !s.is_empty()).map(str::to_owned)),
        _ => o
            .select
            .users
            .extend(v.split(',').filter(|s| !s.is_empty()).map(str::to_owned)),
    }
    o.select.any_list = true;
    Ok(())
}

/// `[[dd-]hh:]mm:ss`, as ps prints an elapsed time.
fn elapsed(secs: i64) -> String {
    let s = secs.max(0);
    let (d, h, m, s) = (s / 86_400, s / 3600 % 24, s / 60 % 60, s % 60);
    match (d, h) {
        (0, 0) => format!("{m:02}:{s:02}"),
        (0, _) => format!("{h:02}:{m:02}:{s:02}"),
        _ => format!("{d}-{h:02}:{m:02}:{s:02}"),
    }
}

/// The text of column `key` for process `p` (`me`: the pid of this `ps`).
fn cell(key: &str, p: &ProcInfo, me: u32, now: i64) -> String {
    let start = crate::timefmt::gmtime(p.start);
    match key {
        "pid" | "tgid" | "tid" | "lwp" | "spid" => p.pid.to_string(),
        "ppid" => p.ppid.to_string(),
        "pgid" | "pgrp" => p.pgid.to_string(),
        "sid" | "sess" | "session" => p.sid.to_string(),
        "comm" | "ucomm" | "ucmd" => p.comm.clone(),
        "args" | "command" | "cmd" => p.args.clone(),
        "stat" => {
            let mut s = String::from(if p.pid == me { "R" } else { "S" });
            if p.pid == p.sid {
                s.push('s');
            }
            s
        }
        "s" | "state" => (if p.pid == me { "R" } else { "S" }).to_owned(),
        "tty" | "tt" | "tname" | "bsdtty" => "?".to_owned(),
        "time" | "cputime" => "00:00:00".to_owned(),
        "bsdtime" => "0:00".to_owned(),
        "etime" => elapsed(now - p.start),
        "etimes" => (now - p.start).max(0).to_string(),
        "user" | "uname" | "euser" | "ruser" | "group" | "egroup" => USER.to_owned(),
        "uid" | "euid" | "ruid" | "gid" | "egid" => UID.to_string(),
        "ni" | "nice" | "c" | "f" | "flags" | "vsz" | "rss" | "psr" => "0".to_owned(),
        "pri" => "19".to_owned(),
        "pcpu" | "%cpu" | "pmem" | "%mem" => "0.0".to_owned(),
        "nlwp" | "thcount" => "1".to_owned(),
        "wchan" => "-".to_owned(),
        "start" => format!("{:02}:{:02}:{:02}", start.hour, start.min, start.sec),
        "bsdstart" | "stime" => format!("{:02}:{:02}", start.hour, start.min),
        "lstart" => crate::timefmt::strftime("%a %b %e %H:%M:%S %Y", p.start, 0),
        _ => String::new(),
    }
}

fn pad(text: &str, width: usize, left: bool, last: bool) -> String {
    if left {
        if last {
            text.to_owned()
        } else {
            format!("{text:<width$}")
        }
    } else {
        format!("{text:>width$}")
    }
}

pub fn ps(ctx: &mut Ctx) -> CmdResult {
    let mut o = match parse(ctx.args) {
        Ok(Ok(o)) => o,
        Ok(Err("help")) => {
            write_help(ctx, USAGE)?;
            return Ok(0);
        }
        Ok(Err(_)) => {
            write_version(ctx)?;
            return Ok(0);
        }
        Err(msg) => {
            ctx.stderr
                .write_all(format!("error: {msg}\n\n{USAGE}").as_bytes())?;
            return Ok(1);
        }
    };
    if o.columns.is_empty() {
        o.columns = wanted(o.format.unwrap_or(DEFAULT));
    }
    let me = ctx.host.pid();
    let now = ctx.fs.lock().clock().now().secs;
    let shown: Vec<ProcInfo> = ctx
        .host
        .processes()
        .into_iter()
        .filter(|p| o.select.keeps(p))
        .collect();
    let mut out = String::new();
    let n = o.columns.len();
    let headers = o.headers && o.columns.iter().any(|w| !w.header.is_empty());
    if headers {
        let cells: Vec<String> = o
            .columns
            .iter()
            .enumerate()
            .map(|(i, w)| pad(&w.header, w.width(), w.column.left, i + 1 == n))
            .collect();
        out.push_str(cells.join(" ").trim_end());
        out.push('\n');
    }
    for p in &shown {
        let cells: Vec<String> = o
            .columns
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let text = cell(w.key, p, me, now);
                pad(&text, w.width(), w.column.left, i + 1 == n)
            })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    ctx.stdout.write_all(out.as_bytes())?;
    Ok(if shown.is_empty() { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elapsed_times_read_as_procps_prints_them() {
        assert_eq!(elapsed(5), "00:05");
        assert_eq!(elapsed(3725), "01:02:05");
        assert_eq!(elapsed(90_061), "1-01:01:01");
    }

    #[test]
    fn format_lists_name_columns_and_headers() {
        let mut v = Vec::new();
        assert!(format_list("pid=Process,comm=Name user", &mut v).is_ok());
        let got: Vec<(&str, &str)> = v.iter().map(|w| (w.key, w.header.as_str())).collect();
        assert_eq!(
            got,
            [("pid", "Process"), ("comm", "Name"), ("user", "USER")]
        );
        assert!(format_list("bogus", &mut Vec::new()).is_err());
    }
}
