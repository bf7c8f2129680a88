//! The smaller builtins: echo, cd/pwd/dirs, control flow (exit, return, break),
//! set/shopt, eval/source, alias, command, getopts, traps, jobs and signals.

use std::sync::Arc;

use super::super::procs::Target;
use super::super::signals::Joined;
use super::super::{Flow, Interp, R, SET_OPTIONS, SHOPT_OPTIONS};
use crate::expand::{Attrs, Value};

pub fn colon(_: &mut Interp, _: &[String]) -> R {
    Ok(0)
}

pub fn true_(_: &mut Interp, _: &[String]) -> R {
    Ok(0)
}

pub fn false_(_: &mut Interp, _: &[String]) -> R {
    Ok(1)
}

/// Decodes `echo -e` escapes; returns the text and whether `\c` stopped output.
pub fn echo_escapes(s: &str) -> (String, bool) {
    let cs: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        i += 1;
        if c != '\\' || i >= cs.len() {
            out.push(c);
            continue;
        }
        let e = cs[i];
        i += 1;
        match e {
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'c' => return (out, true),
            'e' | 'E' => out.push('\x1b'),
            'f' => out.push('\x0c'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\x0b'),
            '\\' => out.push('\\'),
            '0' => {
                let (v, _) = crate::text::take_digits(&cs, &mut i, 8, 3);
                crate::text::push_byte(&mut out, (v & 0xff) as u8);
            }
            'x' => {
                let (v, n) = crate::text::take_digits(&cs, &mut i, 16, 2);
                if n == 0 {
                    out.push_str("\\x");
                } else {
                    crate::text::push_byte(&mut out, v as u8);
                }
            }
            'u' | 'U' => {
                let max = if e == 'u' { 4 } else { 8 };
                let (v, n) = crate::text::take_digits(&cs, &mut i, 16, max);
                if n == 0 {
                    out.push('\\');
                    out.push(e);
                } else {
                    out.push(char::from_u32(v).unwrap_or('\u{FFFD}'));
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    (out, false)
}

pub fn echo(sh: &mut Interp, args: &[String]) -> R {
    let mut newline = true;
    let mut escapes = sh
        .shopt
        .has(const { crate::interp::Shopts::flag("xpg_echo") });
    let mut i = 1;
    while i < args.len() {
        let a = &args[i];
        if a.len() < 2
            || !a.starts_with('-')
            || !a[1..].chars().all(|c| matches!(c, 'n' | 'e' | 'E'))
        {
            break;
        }
        for c in a[1..].chars() {
            match c {
                'n' => newline = false,
                'e' => escapes = true,
                _ => escapes = false,
            }
        }
        i += 1;
    }
    let mut out = String::new();
    let mut stop = false;
    for (k, a) in args[i..].iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        if escapes {
            let (t, c) = echo_escapes(a);
            out.push_str(&t);
            if c {
                stop = true;
                break;
            }
        } else {
            out.push_str(a);
        }
    }
    if newline && !stop {
        out.push('\n');
    }
    let bytes = crate::text::encode(&out);
    sh.out_status("echo", &bytes)
}

pub fn pwd(sh: &mut Interp, args: &[String]) -> R {
    let physical = match super::options(sh, "pwd", args, "LP", "pwd: usage: pwd [-LP]") {
        Ok((given, _)) => last_physical(&given).unwrap_or(sh.set.physical),
        Err(status) => return Ok(status),
    };
    let dir = if physical {
        let real = sh
            .fs
            .lock()
            .canonicalize(&sh.cwd)
            .unwrap_or_else(|_| sh.cwd.clone());
        keep_double_slash(&sh.cwd, "", real)
    } else {
        sh.cwd.clone()
    };
    sh.out_status("pwd", format!("{dir}\n").as_bytes())
}

/// Whether the last of `-L` and `-P` among `given` asks for the physical directory.
fn last_physical(given: &[super::GivenOption]) -> Option<bool> {
    given.iter().rev().find_map(|(c, _)| match c {
        'P' => Some(true),
        'L' => Some(false),
        _ => None,
    })
}

/// Changes directory; updates PWD and OLDPWD.
pub fn cd(sh: &mut Interp, args: &[String]) -> R {
    if sh.restricted {
        sh.builtin_error("cd", "restricted");
        return Ok(1);
    }
    change_dir(sh, "cd", args.get(1..).unwrap_or_default())
}

/// `cd` with its operands; `who` names the builtin in error messages.
fn change_dir(sh: &mut Interp, who: &str, args: &[String]) -> R {
    // The options are read like any builtin's (`-LP`, `--`); the last of -L and -P
    // wins, and -e only matters where the new directory cannot be found again.
    let mut argv = Vec::with_capacity(args.len() + 1);
    argv.push(who.to_owned());
    argv.extend(args.iter().cloned());
    let (physical, i) = match super::options(
        sh,
        "cd",
        &argv,
        "LPe",
        "cd: usage: cd [-L|[-P [-e]] [-@]] [dir]",
    ) {
        Ok((given, i)) => (last_physical(&given).unwrap_or(sh.set.physical), i - 1),
        Err(status) => return Ok(status),
    };
    let rest = &args[i..];
    if rest.len() > 1 {
        sh.builtin_error(who, "too many arguments");
        return Ok(1);
    }
    // `cd -` shows the name it went to as OLDPWD spelled it.
    let mut print = false;
    let target = match rest.first().map(String::as_str) {
        None => match sh.get_str("HOME") {
            Some(h) => h,
            None => {
                sh.builtin_error(who, "HOME not set");
                return Ok(1);
            }
        },
        Some("-") => match sh.get_str("OLDPWD") {
            Some(o) => {
                print = true;
                o
            }
            None => {
                sh.builtin_error(who, "OLDPWD not set");
                return Ok(1);
            }
        },
        Some(d) => d.to_owned(),
    };
    if target.is_empty() {
        if print {
            sh.out_status(who, b"\n")?;
        }
        return Ok(0);
    }
    // CDPATH's entries are tried in order (an empty one is the current directory),
    // then the name itself; it is not consulted for a name that starts at `/`, `.`
    // or `..`.
    let mut candidates = Vec::new();
    let relative_to_cwd =
        target == "." || target == ".." || target.starts_with("./") || target.starts_with("../");
    if !target.starts_with('/')
        && !relative_to_cwd
        && let Some(cdpath) = sh.get_str("CDPATH")
    {
        for dir in cdpath.split(':') {
            candidates.push(match dir {
                "" => (target.clone(), false),
                d if d.ends_with('/') => (format!("{d}{target}"), true),
                d => (format!("{d}/{target}"), true),
            });
        }
    }
    candidates.push((target.clone(), false));
    let mut last_err = None;
    for (raw, from_cdpath) in candidates {
        let cand = crate::fs::path::join(&sh.cwd, &raw);
        let r = {
            let fs = sh.fs.lock();
            // Like bash, `dir/..` needs `dir` to exist: `..` is not applied blindly.
            let mut walked = String::new();
            let mut gap = false;
            for comp in raw.split('/') {
                if comp == ".." && !walked.is_empty() {
                    let at = crate::fs::path::join(&sh.cwd, &walked);
                    gap |= !fs
                        .stat(&at)
                        .is_ok_and(|m| m.file_type == crate::fs::FileType::Dir);
                }
                walked.push_str(comp);
                walked.push('/');
            }
            if gap {
                Err("No such file or directory".to_owned())
            } else {
                match fs.stat(&cand) {
                    Ok(m) if m.file_type == crate::fs::FileType::Dir => {
                        match fs.access(&cand, false, false, true) {
                            Ok(()) => Ok(if physical {
                                fs.canonicalize(&cand).unwrap_or(cand.clone())
                            } else {
                                cand.clone()
                            }),
                            Err(e) => Err(e.to_string()),
                        }
                    }
                    Ok(_) => Err("Not a directory".to_owned()),
                    Err(e) => Err(e.to_string()),
                }
            }
        };
        match r {
            Ok(newdir) => {
                let newdir = keep_double_slash(&sh.cwd, &raw, newdir);
                // OLDPWD takes PWD's value as the script left it, not the directory.
                let old = sh.get_str("PWD").unwrap_or_default();
                sh.cwd = newdir.clone();
                let _ = sh.assign_scalar("OLDPWD", old, false);
                let _ = sh.assign_scalar("PWD", newdir.clone(), false);
                // A directory found through CDPATH is shown as the new PWD, or in
                // physical mode as CDPATH's entry and the name joined.
                let shown = match (print, from_cdpath, physical) {
                    (true, _, _) => Some(target.as_str()),
                    (false, true, true) => Some(raw.as_str()),
                    (false, true, false) => Some(newdir.as_str()),
                    (false, false, _) => None,
                };
                if let Some(shown) = shown {
                    sh.out_status(who, format!("{shown}\n").as_bytes())?;
                }
                return Ok(0);
            }
            Err(e) => last_err = Some(e),
        }
    }
    sh.builtin_error(
        who,
        &format!(
            "{}: {}",
            crate::expand::param::printable_name(&target),
            last_err.unwrap_or_default()
        ),
    );
    Ok(1)
}

/// The new directory as bash spells it: a name that starts with exactly two slashes
/// keeps them (POSIX leaves `//` to the system, and bash's path canonicalisation
/// preserves it, in logical and physical mode alike); `cwd` is the directory the
/// name `raw` is taken from, and `dir` the directory reached.
fn keep_double_slash(cwd: &str, raw: &str, dir: String) -> String {
    let logical = if raw.starts_with('/') { raw } else { cwd };
    let double = logical.starts_with("//") && !logical.starts_with("///");
    if double && !dir.starts_with("//") {
        format!("/{dir}")
    } else {
        dir
    }
}

fn parse_status(sh: &mut Interp, name: &str, arg: Option<&String>) -> Result<i32, i32> {
    match arg {
        None => Ok(sh.status),
        Some(a) => match a.trim().parse::<i64>() {
            Ok(n) => Ok((n & 0xff) as i32),
            Err(_) => {
                sh.builtin_error(name, &format!("{a}: numeric argument required"));
                Err(2)
            }
        },
    }
}

/// The operands of `exit`, `return`, `shift`, `break` and `continue` after an optional
/// `--`. More than one is an error that bash treats as fatal: it abandons the script
/// with status 1.
fn count_operand<'a>(
    sh: &mut Interp,
    name: &str,
    args: &'a [String],
) -> Result<Option<&'a String>, Flow> {
    let rest = match args.get(1) {
        Some(a) if a == "--" => args.get(2..),
        _ => args.get(1..),
    }
    .unwrap_or_default();
    // bash checks the first operand before it counts them.
    let numeric = |a: &String| a.trim().parse::<i64>().is_ok();
    if rest.len() > 1 && rest.first().is_some_and(numeric) {
        sh.builtin_error(name, "too many arguments");
        return Err(Flow::Exit(1));
    }
    Ok(rest.first())
}

/// `logout`: `exit` in a login shell (`bash -l`); refused in any other.
pub fn logout(sh: &mut Interp, args: &[String]) -> R {
    if !sh
        .shopt
        .has(const { crate::interp::Shopts::flag("login_shell") })
    {
        sh.builtin_error("logout", "not login shell: use `exit'");
        return Ok(1);
    }
    exit(sh, args)
}

/// `suspend [-f]`: without job control (`set -m`) and without `-f` bash refuses;
/// otherwise it stops itself with SIGSTOP, which the sandbox's shell ignores as it
/// does `kill -STOP $$` (nothing could continue it), so it goes on at once.
pub fn suspend(sh: &mut Interp, args: &[String]) -> R {
    let usage = "suspend: usage: suspend [-f]";
    let (flags, first) = match super::letter_options(sh, "suspend", args, "f", usage) {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    if first < args.len() {
        // bash's no_args: the shell gives up the command line, as `exit 1` would.
        sh.builtin_error("suspend", "too many arguments");
        return Err(Flow::Exit(1));
    }
    if !flags.contains('f') && !sh.set.monitor {
        sh.builtin_error("suspend", "cannot suspend: no job control");
        return Ok(1);
    }
    if !flags.contains('f')
        && sh
            .shopt
            .has(const { crate::interp::Shopts::flag("login_shell") })
    {
        sh.builtin_error("suspend", "cannot suspend a login shell");
        return Ok(1);
    }
    Ok(0)
}

pub fn exit(sh: &mut Interp, args: &[String]) -> R {
    let arg = count_operand(sh, "exit", args)?;
    sh.status_final = true;
    match parse_status(sh, "exit", arg) {
        Ok(n) => Err(Flow::Exit(n)),
        Err(n) => Err(Flow::Exit(n)),
    }
}

pub fn return_(sh: &mut Interp, args: &[String]) -> R {
    // Only a function call or a sourced file catches a return (`eval` and trap
    // handlers do not: at top level `eval return` is an error too).
    // The operand is checked first: too many is fatal, a bad one is reported.
    let arg = count_operand(sh, "return", args)?;
    if !sh.in_function() && sh.sourcing == 0 {
        let _ = parse_status(sh, "return", arg);
        sh.builtin_error(
            "return",
            "can only `return' from a function or sourced script",
        );
        return Ok(2);
    }
    if arg.is_none()
        && let Some(s) = sh.trap_status
    {
        return Err(Flow::Return(s));
    }
    match parse_status(sh, "return", arg) {
        Ok(n) => Err(Flow::Return(n)),
        Err(n) => Err(Flow::Return(n)),
    }
}

fn loop_count(sh: &mut Interp, name: &str, args: &[String]) -> Result<u32, R> {
    if sh.loop_depth == 0 {
        // POSIX mode says nothing of it.
        if !sh.set.posix {
            sh.builtin_error(name, "only meaningful in a `for', `while', or `until' loop");
        }
        return Err(Ok(0));
    }
    match count_operand(sh, name, args).map_err(Err)? {
        None => Ok(1),
        Some(a) => match a.parse::<i64>() {
            Ok(n) if n >= 1 => Ok(n.min(sh.loop_depth as i64) as u32),
            Ok(_) => {
                // A count below 1 leaves every enclosing loop (even for `continue`),
                // which then ends with the failure.
                sh.builtin_error(name, &format!("{a}: loop count out of range"));
                sh.break_status = 1;
                Err(Err(Flow::Break(sh.loop_depth)))
            }
            Err(_) => {
                sh.builtin_error(name, &format!("{a}: numeric argument required"));
                // The shell ends with bit 7 added to the status `$?` had.
                Err(Err(Flow::Exit(128 | sh.status)))
            }
        },
    }
}

pub fn break_(sh: &mut Interp, args: &[String]) -> R {
    match loop_count(sh, "break", args) {
        Ok(n) => Err(Flow::Break(n)),
        Err(r) => r,
    }
}

pub fn continue_(sh: &mut Interp, args: &[String]) -> R {
    match loop_count(sh, "continue", args) {
        Ok(n) => Err(Flow::Continue(n)),
        Err(r) => r,
    }
}

pub fn shift(sh: &mut Interp, args: &[String]) -> R {
    let operand = count_operand(sh, "shift", args)?;
    // The complaint names the count only when the script gave one.
    let named = operand.is_some();
    let n = match operand {
        None => 1,
        Some(a) => match a.parse::<i64>() {
            Ok(n) if n >= 0 => n as usize,
            Ok(n) => {
                sh.builtin_error("shift", &format!("{n}: shift count out of range"));
                return Ok(1);
            }
            Err(_) => {
                sh.builtin_error("shift", &format!("{a}: numeric argument required"));
                return Ok(1);
            }
        },
    };
    if n > sh.positional.len() {
        if sh
            .shopt
            .has(const { crate::interp::Shopts::flag("shift_verbose") })
        {
            let what = if named {
                format!("{n}: shift count out of range")
            } else {
                "shift count out of range".to_owned()
            };
            sh.builtin_error("shift", &what);
        }
        return Ok(1);
    }
    let rest = sh.positional[n..].to_vec();
    sh.positional = Arc::new(rest);
    Ok(0)
}

/// Quotes a value for the `set` and bare `declare` listings as bash's print_var_value
/// does: `$'...'` when a character does not print (not in POSIX mode, which prints
/// it raw or single-quoted), single quotes when it holds a shell metacharacter, and
/// as it is otherwise (the empty value, and printable UTF-8, included).
pub fn shell_quote(s: &str, posix: bool) -> String {
    if !posix && crate::expand::param::needs_ansi_c(s) {
        return crate::expand::param::ansi_c_quote(s);
    }
    if contains_shell_metas(s) {
        return crate::expand::param::single_quote(s);
    }
    s.to_owned()
}

/// Whether reading `s` back as a word would change it (bash's
/// sh_contains_shell_metas): blanks, quotes, operators, glob and expansion
/// characters anywhere, `~` where tilde expansion would see it, `#` first.
fn contains_shell_metas(s: &str) -> bool {
    let mut prev = None;
    for (i, c) in s.chars().enumerate() {
        match c {
            ' ' | '\t' | '\n' | '\'' | '"' | '\\' | '|' | '&' | ';' | '(' | ')' | '<' | '>'
            | '!' | '{' | '}' | '*' | '[' | '?' | ']' | '^' | '$' | '`' => return true,
            '~' if i == 0 || matches!(prev, Some('=' | ':')) => return true,
            '#' if i == 0 => return true,
            _ => {}
        }
        prev = Some(c);
    }
    false
}

const SET_USAGE: &str =
    "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]";

pub fn set(sh: &mut Interp, args: &[String]) -> R {
    if args.len() == 1 {
        let mut out = String::new();
        for (k, v) in super::declare::listed_vars(sh) {
            match &v.value {
                Some(Value::Str(s)) => {
                    out.push_str(&format!("{k}={}\n", shell_quote(s, sh.set.posix)))
                }
                Some(Value::Indexed(_)) | Some(Value::Assoc(_)) => {
                    let line = crate::expand::param::declare_line(&k, &v);
                    if let Some(pos) = line.find(&format!(" {k}=")) {
                        out.push_str(&line[pos + 1..]);
                        out.push('\n');
                    }
                }
                None => {}
            }
        }
        // Raw bytes of a value are written as they are (POSIX mode leaves them unquoted).
        return sh.out_status("set", &crate::text::encode(&out));
    }
    let mut i = 1;
    let mut set_positional = false;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            set_positional = true;
            i += 1;
            break;
        }
        if a == "-" {
            // `-` ends the options and turns off -x and -v; with nothing after it the
            // positional parameters stay as they are.
            sh.set.xtrace = false;
            sh.set.verbose = false;
            i += 1;
            break;
        }
        if a == "+" {
            // A lone `+` is an empty flag group: ignored, and options go on.
            i += 1;
            continue;
        }
        let (on, flags) = match a.strip_prefix('-') {
            Some(f) => (true, f),
            None => match a.strip_prefix('+') {
                Some(f) => (false, f),
                None => break,
            },
        };
        if flags.is_empty() {
            break;
        }
        for c in flags.chars() {
            if c == 'o' {
                // An option name is a word that is not empty and does not look like an
                // option itself; without one, `-o` lists and the word stays for what
                // follows.
                match args.get(i + 1) {
                    None => {
                        print_set_o(sh, on)?;
                    }
                    Some(name) if name.is_empty() || name.starts_with(['-', '+']) => {
                        print_set_o(sh, on)?;
                    }
                    Some(name) => {
                        i += 1;
                        if !sh.set.set_named(name, on) {
                            sh.builtin_error("set", &format!("{name}: invalid option name"));
                            return Ok(2);
                        }
                        if name == "posix" {
                            continue;
                        }
                    }
                }
                continue;
            }
            if c == 'r' {
                // Restricted mode is turned on for good: `+r` is an error only once
                // it is on.
                if on {
                    sh.set_restricted();
                } else if sh.restricted {
                    sh.builtin_error("set", "+r: invalid option");
                    sh.errln(SET_USAGE);
                    sh.update_shellopts();
                    return Ok(1);
                }
                continue;
            }
            match sh.set.by_letter(c) {
                Some(b) => *b = on,
                None => {
                    sh.builtin_error(
                        "set",
                        &format!("{}{c}: invalid option", if on { '-' } else { '+' }),
                    );
                    sh.errln(SET_USAGE);
                    return Ok(2);
                }
            }
        }
        i += 1;
    }
    sh.update_shellopts();
    if set_positional || i < args.len() {
        sh.positional = Arc::new(args[i..].to_vec());
        if !sh.in_function() {
            sh.dollar_vars_set = true;
        }
    }
    Ok(0)
}

fn print_set_o(sh: &mut Interp, on: bool) -> Result<(), Flow> {
    let mut out = String::new();
    for (name, _) in SET_OPTIONS {
        let v = sh.set.get(name).unwrap_or(false);
        if on {
            out.push_str(&format!("{:<15}\t{}\n", name, if v { "on" } else { "off" }));
        } else {
            out.push_str(&format!("set {}o {}\n", if v { '-' } else { '+' }, name));
        }
    }
    sh.out(out.as_bytes())
}

/// One line of `shopt`'s listing: `-p` gives the command that restores the option,
/// otherwise the name and on/off in columns (bash's print_shopt and OPTFMT).
fn shopt_line(name: &str, on: bool, reusable: bool, o_mode: bool) -> String {
    match (reusable, o_mode) {
        (true, true) => format!("set {}o {name}\n", if on { '-' } else { '+' }),
        (true, false) => format!("shopt {} {name}\n", if on { "-s" } else { "-u" }),
        (false, _) => format!("{name:<15}\t{}\n", if on { "on" } else { "off" }),
    }
}

/// The `shopt` builtin, after bash's shopt.c: `-s`/`-u` set or unset the named
/// options (or, with no names, list those that are set or unset), no flag lists
/// them, `-p` lists in reusable form, `-q` prints nothing, and `-o` works on the
/// `set -o` options instead.
pub fn shopt(sh: &mut Interp, args: &[String]) -> R {
    let (flags, i) = match super::letter_options(
        sh,
        "shopt",
        args,
        "spqou",
        "shopt: usage: shopt [-pqsu] [-o] [optname ...]",
    ) {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let set_flag = flags.contains('s');
    let unset_flag = flags.contains('u');
    let quiet = flags.contains('q');
    let print = flags.contains('p');
    let o_mode = flags.contains('o');
    if set_flag && unset_flag {
        sh.builtin_error("shopt", "cannot set and unset shell options simultaneously");
        return Ok(1);
    }
    let set = if set_flag {
        Some(true)
    } else if unset_flag {
        Some(false)
    } else {
        None
    };
    let names = args.get(i..).unwrap_or_default();
    if names.is_empty() {
        // A listing: every option, or with -s/-u those that are on/off.
        let mut out = String::new();
        if o_mode {
            for (name, _) in SET_OPTIONS {
                let v = sh.set.get(name).unwrap_or(false);
                if set.is_none_or(|s| s == v) {
                    out.push_str(&shopt_line(name, v, print, true));
                }
            }
        } else {
            for (name, _) in SHOPT_OPTIONS {
                let v = sh.shopt.get(name);
                if set.is_none_or(|s| s == v) {
                    out.push_str(&shopt_line(name, v, print, false));
                }
            }
        }
        if !quiet {
            sh.out(out.as_bytes())?;
        }
        return Ok(0);
    }
    let mut status = 0;
    for name in names {
        let current = if o_mode {
            sh.set.get(name)
        } else if super::super::Shopts::index(name).is_some() {
            Some(sh.shopt.get(name))
        } else {
            None
        };
        let Some(current) = current else {
            if o_mode {
                // bash's shopt -o goes through `set -o`'s name check, and its
                // -s/-u ignore the failure (shopt.c's set_shellopts_list).
                sh.builtin_error("shopt", &format!("{name}: invalid option name"));
                if set.is_none() {
                    status = 1;
                }
            } else {
                sh.builtin_error("shopt", &format!("{name}: invalid shell option name"));
                status = 1;
            }
            continue;
        };
        match set {
            Some(on) if o_mode => {
                sh.set.set_named(name, on);
                sh.update_shellopts();
            }
            Some(on) => {
                // restricted_shell cannot be set or unset: the first attempt fixes
                // it at whether the shell is restricted then.
                let on = if name == "restricted_shell" {
                    *sh.restricted_shopt_latch.get_or_insert(sh.restricted)
                } else {
                    on
                };
                sh.shopt.set(name, on);
                if name == "extdebug" {
                    sh.extdebug_changed();
                }
                sh.update_shellopts();
            }
            None => {
                if !current {
                    status = 1;
                }
                if !quiet {
                    // Each line as it comes, so errors interleave as in bash.
                    sh.out(shopt_line(name, current, print, o_mode).as_bytes())?;
                }
            }
        }
    }
    Ok(status)
}

pub fn eval(sh: &mut Interp, args: &[String]) -> R {
    let args: Vec<&String> = args.iter().skip(1).collect();
    let args: &[&String] = match args.first() {
        Some(a) if *a == "--" => args.get(1..).unwrap_or_default(),
        Some(a) if a.starts_with('-') && a.len() > 1 => {
            sh.builtin_error("eval", &format!("{a}: invalid option"));
            sh.errln("eval: usage: eval [arg ...]");
            return Ok(2);
        }
        _ => &args,
    };
    let src = args
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    if src.trim().is_empty() {
        return Ok(0);
    }
    if sh.call_depth >= sh.budget.limits.max_call_depth {
        return Err(Flow::Fatal(format!(
            "eval nesting limit exceeded ({})",
            sh.budget.limits.max_call_depth
        )));
    }
    sh.call_depth += 1;
    sh.xtrace_level += 1;
    let r = sh.parse_and_execute(&src, Some("eval"));
    sh.xtrace_level -= 1;
    sh.call_depth -= 1;
    // An error that abandons a command ends only the eval'd text.
    match r {
        Err(Flow::Abort) => Ok(1),
        other => other,
    }
}

/// `.`/`source`'s usage error: `msg`, then the usage line, status 2.
fn source_usage(sh: &mut Interp, name: &str, msg: &str) -> R {
    sh.builtin_error(name, msg);
    sh.errln(&format!("{name}: usage: {name} filename [arguments]"));
    Ok(2)
}

pub fn source(sh: &mut Interp, args: &[String]) -> R {
    let mut rest = &args[1..];
    match rest.first() {
        Some(a) if a == "--" => rest = &rest[1..],
        // No options: anything else after a dash is one (a lone `-` is a file).
        Some(a) if a.len() > 1 && a.starts_with('-') => {
            let bad = a.chars().nth(1).unwrap_or('-');
            return source_usage(sh, &args[0], &format!("-{bad}: invalid option"));
        }
        _ => {}
    }
    let Some(file) = rest.first() else {
        return source_usage(sh, &args[0], "filename argument required");
    };
    // POSIX mode's errors exit a non-interactive shell (bash's source.c and
    // evalfile.c), unless `command` runs the builtin.
    let fatal = sh.set.posix && !sh.interactive && !sh.under_command;
    let fail = || if fatal { Err(Flow::Exit(1)) } else { Ok(1) };
    if sh.restricted && file.contains('/') {
        sh.builtin_error(&args[0], &format!("{file}: restricted"));
        return fail();
    }
    let mut path = crate::fs::path::join(&sh.cwd, file);
    if !file.contains('/')
        && (sh.set.posix
            || sh
                .shopt
                .has(const { crate::interp::Shopts::flag("sourcepath") }))
        && let Some(dirs) = sh.get_str("PATH")
    {
        let found = {
            let fs = sh.fs.lock();
            dirs.split(':')
                .map(|d| crate::fs::path::join(&sh.cwd, &format!("{d}/{file}")))
                .find(|p| {
                    fs.stat(p)
                        .is_ok_and(|m| m.file_type == crate::fs::FileType::File)
                })
        };
        match found {
            Some(p) => path = p,
            // POSIX mode does not fall back on the working directory.
            None if sh.set.posix => {
                sh.builtin_error(&args[0], &format!("{file}: file not found"));
                return fail();
            }
            None => {}
        }
    }
    // bash's _evalfile: a file that cannot be opened is reported as the file alone,
    // one that is a directory by the builtin; an empty name opens nothing.
    if file.is_empty() {
        sh.error(": No such file or directory");
        return fail();
    }
    let is_dir = sh
        .fs
        .lock()
        .stat(&path)
        .is_ok_and(|m| m.file_type == crate::fs::FileType::Dir);
    if is_dir {
        sh.builtin_error(&args[0], &format!("{file}: is a directory"));
        return Ok(1);
    }
    let read = sh.read_whole_path(&path)?;
    let content = match read {
        Ok(c) => c,
        Err(e) => {
            sh.error(&format!("{file}: {e}"));
            return fail();
        }
    };
    if sh.call_depth >= sh.budget.limits.max_call_depth {
        return Err(Flow::Fatal(format!(
            "source nesting limit exceeded ({})",
            sh.budget.limits.max_call_depth
        )));
    }
    let src = crate::text::decode(&content);
    // Only arguments given to `source` go on BASH_ARGV (after it starts from the
    // caller's positional parameters).
    let args_pushed = if rest.len() > 1 {
        sh.push_args(&rest[1..])
    } else {
        sh.push_source_name(file)
    };
    let saved_pos_given = rest.len() > 1;
    let saved_pos = if saved_pos_given {
        Some(std::mem::replace(
            &mut sh.positional,
            Arc::new(rest[1..].to_vec()),
        ))
    } else {
        None
    };
    // bash's source builtin clears the changed-arguments mark before the file runs,
    // and restoring the caller's arguments (after a source with arguments, or a
    // function call) clears it again, so a file forgets its own `set --` once it
    // sources another file or calls a function.
    sh.dollar_vars_set = false;
    sh.sourcing += 1;
    sh.call_depth += 1;
    let saved_line = sh.line;
    sh.frames.push(super::super::CallFrame {
        func: "source".to_owned(),
        source: file.as_str().into(),
        call_line: sh.line,
        function: false,
        args_pushed,
        saved_opts: None,
    });
    sh.xtrace_level += 1;
    let hidden = sh.hide_traps(false, false);
    let r = sh.parse_and_execute(&src, None);
    // The RETURN trap runs once the file is left: in the caller's frame and line,
    // without the file's name on BASH_ARGV (its arguments stay until after), and
    // where a `return` leaves the caller, not the finished file.
    let frame = sh.frames.pop();
    let name_pushed = frame.as_ref().is_some_and(|f| f.args_pushed) && !saved_pos_given;
    if name_pushed {
        sh.pop_args();
    }
    sh.line = saved_line;
    sh.sourcing -= 1;
    let r = sh.run_return_trap(r, false);
    sh.restore_hidden_traps(hidden);
    sh.xtrace_level -= 1;
    if frame.is_some_and(|f| f.args_pushed) && !name_pushed {
        sh.pop_args();
    }
    sh.call_depth -= 1;
    // bash's maybe_pop_dollar_vars: positional parameters the file set itself with
    // `set` outside a function stay; otherwise the caller's come back.
    if let Some(p) = saved_pos
        && (!sh.dollar_vars_set || sh.in_function())
    {
        sh.positional = p;
    }
    if saved_pos_given {
        sh.dollar_vars_set = false;
    }
    r
}

pub fn alias(sh: &mut Interp, args: &[String]) -> R {
    let (letters, start) = match super::letter_options(
        sh,
        "alias",
        args,
        "p",
        "alias: usage: alias [-p] [name[=value] ... ]",
    ) {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let rest = &args[start..];
    let print = !letters.is_empty();
    // POSIX mode lists `name=value` lines that can be read back by `alias` itself;
    // `-p` asks for whole `alias` commands in either mode.
    let prefixed = print || !sh.set.posix;
    let mut out = String::new();
    // With `-p` and no alias defined, bash lists nothing and stops there, leaving
    // the names after it unlooked-up and the assignments undone.
    if print && sh.aliases.is_empty() {
        return Ok(0);
    }
    if rest.is_empty() || print {
        let mut names: Vec<&String> = sh.aliases.keys().collect();
        names.sort();
        for n in names {
            out.push_str(&alias_line(n, &sh.aliases[n], prefixed));
        }
        if rest.is_empty() {
            sh.out(out.as_bytes())?;
            return Ok(0);
        }
    }
    let mut status = 0;
    for a in rest {
        // An `=` that opens the word leaves no name, so the word is looked up whole.
        match a.split_once('=').filter(|(name, _)| !name.is_empty()) {
            Some((name, _)) if name.chars().any(bad_alias_char) => {
                sh.builtin_error("alias", &format!("`{name}': invalid alias name"));
                status = 1;
            }
            Some((name, value)) => {
                Arc::make_mut(&mut sh.aliases).insert(name.to_owned(), value.to_owned());
            }
            None => match sh.aliases.get(a) {
                Some(v) => out.push_str(&alias_line(a, v, prefixed)),
                None => {
                    sh.builtin_error("alias", &format!("{a}: not found"));
                    status = 1;
                }
            },
        }
    }
    sh.out(out.as_bytes())?;
    Ok(status)
}

/// Characters an alias name may not hold: the ones that end a word (blanks and
/// operators), quoting characters, `$` and `/`.
fn bad_alias_char(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t'
            | '\n'
            | '|'
            | '&'
            | ';'
            | '('
            | ')'
            | '<'
            | '>'
            | '`'
            | '"'
            | '\''
            | '\\'
            | '$'
            | '/'
    )
}

/// One line of `alias`'s listing; as a command (`prefixed`), a name that looks like
/// an option comes after `--` so that the line can be run again.
fn alias_line(name: &str, value: &str, prefixed: bool) -> String {
    let head = match (prefixed, name.starts_with('-')) {
        (false, _) => "",
        (true, false) => "alias ",
        (true, true) => "alias -- ",
    };
    // Always single quotes, whatever the value holds (bash's sh_single_quote).
    format!(
        "{head}{name}={}\n",
        crate::expand::param::single_quote(value)
    )
}

pub fn unalias(sh: &mut Interp, args: &[String]) -> R {
    const USAGE: &str = "unalias: usage: unalias [-a] name [name ...]";
    let (letters, start) = match super::letter_options(sh, "unalias", args, "a", USAGE) {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    if !letters.is_empty() {
        Arc::make_mut(&mut sh.aliases).clear();
        return Ok(0);
    }
    let rest = &args[start..];
    if rest.is_empty() {
        sh.errln(USAGE);
        return Ok(2);
    }
    let mut status = 0;
    for a in rest {
        if Arc::make_mut(&mut sh.aliases).remove(a).is_none() {
            sh.builtin_error("unalias", &format!("{a}: not found"));
            status = 1;
        }
    }
    Ok(status)
}

pub fn command(sh: &mut Interp, args: &[String]) -> R {
    let (letters, start) = match super::letter_options(
        sh,
        "command",
        args,
        "pvV",
        "command: usage: command [-pVv] command [arg ...]",
    ) {
        Ok(x) => x,
        Err(status) => return Ok(status),
    };
    let rest = &args[start..];
    let default_path = letters.contains('p');
    if default_path && sh.restricted {
        sh.builtin_error("command", "-p: restricted");
        return Ok(1);
    }
    // The last of -v and -V wins.
    let describe = letters.chars().rev().find(|c| matches!(c, 'v' | 'V'));
    if let Some(c) = describe {
        return super::describe::command_describe(sh, rest, c == 'V', default_path);
    }
    if rest.is_empty() {
        return Ok(0);
    }
    let saved_path = if default_path {
        let old = sh.vars.get_raw("PATH").cloned();
        let _ = sh.assign_scalar("PATH", "/usr/bin:/bin".to_owned(), false);
        Some(old)
    } else {
        None
    };
    let r = command_run(sh, rest);
    if let Some(old) = saved_path {
        match old {
            Some(var) => *sh.vars.entry("PATH", false) = var,
            None => {
                let _ = sh.vars.unset("PATH");
            }
        }
    }
    r
}

/// Runs `rest` as a command, skipping functions.
fn command_run(sh: &mut Interp, rest: &[String]) -> R {
    let name = rest[0].as_str();
    if let Some(b) = sh.builtin(name) {
        let outer = std::mem::replace(&mut sh.under_command, true);
        let r = super::call(sh, name, b, rest);
        sh.under_command = outer;
        return r;
    }
    let c = crate::syntax::Command {
        kind: crate::syntax::CommandKind::Simple(Default::default()),
        redirects: Vec::new(),
        line: sh.line,
    };
    let saved = std::mem::take(&mut sh.funcs);
    let r = sh.dispatch(&c, rest);
    sh.funcs = saved;
    r
}

pub fn builtin(sh: &mut Interp, args: &[String]) -> R {
    // `builtin` has no options of its own, yet reads them: `--` ends them and any
    // other letter is an invalid option.
    let start = match super::letter_options(
        sh,
        "builtin",
        args,
        "",
        "builtin: usage: builtin [shell-builtin [arg ...]]",
    ) {
        Ok((_, start)) => start,
        Err(status) => return Ok(status),
    };
    let Some(name) = args.get(start) else {
        return Ok(0);
    };
    match sh.builtin(name) {
        Some(b) => super::call(sh, name, b, &args[start..]),
        None => {
            sh.builtin_error("builtin", &format!("{name}: not a shell builtin"));
            Ok(1)
        }
    }
}

/// `enable` (bash's enable.def): lists builtins (`-a` all, `-n` the disabled ones, `-s`
/// the special ones, `-p` or no names), turns named ones off (`-n`) and on again.
/// Loading builtins from shared objects (`-f`) cannot work in the sandbox: it fails
/// with the error the dynamic loader gives for the file; `-d` finds nothing loaded.
pub fn enable(sh: &mut Interp, args: &[String]) -> R {
    const USAGE: &str = "enable: usage: enable [-a] [-dnps] [-f filename] [name ...]";
    let (given, first) = match super::options(sh, "enable", args, "adnpsf:", USAGE) {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let has = |c: char| given.iter().any(|(g, _)| *g == c);
    let names = &args[first..];
    // A restricted shell loads and drops nothing, and turns no builtin back on.
    if sh.restricted && (has('f') || has('d')) {
        sh.builtin_error("enable", "restricted");
        return Ok(1);
    }
    if names.is_empty() || has('p') {
        let mut out = String::new();
        for n in super::names() {
            if has('s') && !super::is_special_name(n) {
                continue;
            }
            let off = sh.disabled_builtins.contains(n);
            if off && (has('a') || has('n')) {
                out.push_str(&format!("enable -n {n}\n"));
            } else if !off && (has('a') || !has('n')) {
                out.push_str(&format!("enable {n}\n"));
            }
        }
        sh.out(out.as_bytes())?;
        return Ok(0);
    }
    if let Some(file) = given
        .iter()
        .rev()
        .find_map(|(c, v)| v.as_ref().filter(|_| *c == 'f'))
    {
        let why = shared_object_error(sh, file);
        sh.builtin_error(
            "enable",
            &format!("cannot open shared object {file}: {file}: {why}"),
        );
        return Ok(1);
    }
    let mut status = 0;
    for name in names {
        let known = super::lookup(name).is_some();
        if has('d') && known {
            sh.builtin_error("enable", &format!("{name}: not dynamically loaded"));
            status = 1;
        } else if has('d') || !known {
            sh.builtin_error("enable", &format!("{name}: not a shell builtin"));
            status = 1;
        } else if has('n') {
            sh.disabled_builtins.insert(name.clone());
        } else if sh.restricted && sh.disabled_builtins.contains(name) {
            sh.builtin_error("enable", "restricted");
            status = 1;
        } else {
            sh.disabled_builtins.remove(name);
        }
    }
    Ok(status)
}

/// What the dynamic loader says of `file` (looked up in `BASH_LOADABLES_PATH` when it
/// has no slash, as bash does): no shared object can be loaded into the sandbox.
fn shared_object_error(sh: &mut Interp, file: &str) -> &'static str {
    let mut candidates = Vec::new();
    if file.contains('/') {
        candidates.push(crate::fs::path::join(&sh.cwd, file));
    } else if let Some(dirs) = sh.get_str("BASH_LOADABLES_PATH") {
        for dir in dirs.split(':') {
            let dir = if dir.is_empty() { "." } else { dir };
            candidates.push(crate::fs::path::join(
                &crate::fs::path::join(&sh.cwd, dir),
                file,
            ));
        }
    }
    let fs = sh.fs.lock();
    let Some((path, meta)) = candidates
        .iter()
        .find_map(|p| fs.stat(p).ok().map(|m| (p, m)))
    else {
        return "cannot open shared object file: No such file or directory";
    };
    if meta.is_dir() {
        return "cannot read file data: Is a directory";
    }
    match fs.read_file(path) {
        // An ELF header is 64 bytes.
        Ok(data) if data.len() < 64 => "file too short",
        Ok(data) if !data.starts_with(b"\x7fELF") => "invalid ELF header",
        Ok(_) => "shared objects cannot be loaded in the sandbox",
        Err(_) => "cannot open shared object file: Permission denied",
    }
}

pub fn let_(sh: &mut Interp, args: &[String]) -> R {
    if args.len() < 2 {
        sh.builtin_error("let", "expression expected");
        return Ok(1);
    }
    let mut last = 0;
    for a in &args[1..] {
        match sh.eval_arith_str(a) {
            Ok(v) => last = v,
            // An unbound variable is the shell's error, not `let`'s: it ends the shell.
            Err(e) if e.fatal || (e.report && sh.errexit_reports()) => {
                return sh.expand_error(e.into());
            }
            // The shell's own error (`r: readonly variable`) does not name `let`.
            Err(e) if e.report => {
                sh.error(&e.render());
                return Ok(1);
            }
            Err(e) => {
                sh.error(&format!("let: {}", e.render()));
                return Ok(1);
            }
        }
    }
    Ok((last == 0) as i32)
}

pub fn getopts(sh: &mut Interp, args: &[String]) -> R {
    if args.len() < 3 {
        sh.errln("getopts: usage: getopts optstring name [arg ...]");
        return Ok(2);
    }
    let optstring = args[1].clone();
    let name = args[2].clone();
    let params: Vec<String> = if args.len() > 3 {
        args[3..].to_vec()
    } else {
        sh.positional.as_ref().clone()
    };
    let silent = optstring.starts_with(':');
    let spec = optstring.trim_start_matches(':');
    // OPTERR as bash reads it (C's atoi; unset or empty is 1): 0 keeps getopts quiet.
    let report = !silent
        && sh.get_str("OPTERR").is_none_or(|v| {
            let t = v.trim_start();
            let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
            let n = digits.bytes().take_while(u8::is_ascii_digit).count();
            v.is_empty() || digits[..n].bytes().any(|b| b != b'0')
        });
    let optind: usize = sh
        .get_str("OPTIND")
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(1)
        .max(1);
    // Position inside a cluster of options (`-abc`), kept between calls.
    let sub: usize = sh
        .get_str("__SHELLBOX_OPTPOS")
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let finish = |sh: &mut Interp, optind: usize, sub: usize| {
        let _ = sh.assign_scalar("OPTIND", optind.to_string(), false);
        let var = sh.vars.entry("__SHELLBOX_OPTPOS", false);
        var.value = Some(Value::Str(sub.to_string()));
    };
    // The end of the options: OPTARG goes, and an OPTIND past the last argument
    // comes back to just after it.
    let end = |sh: &mut Interp, optind: usize| {
        let _ = sh.vars.unset("OPTARG");
        getopts_bind(sh, &name, "?");
        finish(sh, optind, 1);
        Ok(1)
    };
    let Some(arg) = params.get(optind - 1).cloned() else {
        return end(sh, params.len() + 1);
    };
    if sub == 1 {
        if arg == "--" {
            return end(sh, optind + 1);
        }
        if !arg.starts_with('-') || arg == "-" {
            return end(sh, optind);
        }
    }
    let mut bound = true;
    let chars: Vec<char> = arg.chars().collect();
    let Some(&c) = chars.get(sub) else {
        finish(sh, optind + 1, 1);
        return getopts(sh, args);
    };
    let mut next_sub = sub + 1;
    let mut next_ind = optind;
    if next_sub >= chars.len() {
        next_sub = 1;
        next_ind += 1;
    }
    let pos = spec.find(c).filter(|_| c != ':');
    // `?` in the option string is found, but getopts cannot tell it from an illegal
    // option: the same result, without the message; unless it takes an argument
    // (`?:`), which it then takes as any option does.
    let takes = |p: usize| spec[p + c.len_utf8()..].starts_with(':');
    match pos.filter(|&p| c != '?' || takes(p)) {
        None => {
            if silent {
                let _ = sh.assign_scalar("OPTARG", c.to_string(), false);
            } else {
                if report && pos.is_none() {
                    sh.errln(&format!("{}: illegal option -- {c}", sh.arg0_for_errors()));
                }
                let _ = sh.vars.unset("OPTARG");
            }
            bound &= getopts_bind(sh, &name, "?");
            finish(sh, next_ind, next_sub);
            Ok(if bound { 0 } else { 1 })
        }
        Some(p) => {
            let takes_arg = spec[p + c.len_utf8()..].starts_with(':');
            if takes_arg {
                let optarg = if next_sub != 1 {
                    // Rest of this word.
                    let v: String = chars[sub + 1..].iter().collect();
                    next_ind = optind + 1;
                    next_sub = 1;
                    Some(v)
                } else {
                    let v = params.get(next_ind - 1).cloned();
                    if v.is_some() {
                        next_ind += 1;
                    }
                    v
                };
                match optarg {
                    Some(v) => {
                        let _ = sh.assign_scalar("OPTARG", v, false);
                        bound &= getopts_bind(sh, &name, &c.to_string());
                    }
                    None => {
                        if silent {
                            let _ = sh.assign_scalar("OPTARG", c.to_string(), false);
                            bound &= getopts_bind(sh, &name, ":");
                        } else {
                            if report {
                                sh.errln(&format!(
                                    "{}: option requires an argument -- {c}",
                                    sh.arg0_for_errors()
                                ));
                            }
                            let _ = sh.vars.unset("OPTARG");
                            bound &= getopts_bind(sh, &name, "?");
                        }
                    }
                }
            } else {
                let _ = sh.vars.unset("OPTARG");
                bound &= getopts_bind(sh, &name, &c.to_string());
            }
            finish(sh, next_ind, next_sub);
            Ok(if bound { 0 } else { 1 })
        }
    }
}

/// Sets getopts' variable; an invalid name is reported and makes getopts fail, after
/// OPTIND and OPTARG have still been updated.
fn getopts_bind(sh: &mut Interp, name: &str, value: &str) -> bool {
    if !crate::syntax::parser::is_name(name) {
        sh.builtin_error("getopts", &format!("`{name}': not a valid identifier"));
        return false;
    }
    if sh.assign_scalar(name, value.to_owned(), false).is_ok() {
        sh.bind_through(name);
    }
    true
}

impl Interp {
    /// The program name getopts and friends print (`$0`).
    pub fn arg0_for_errors(&self) -> String {
        self.arg0.clone()
    }
}

pub fn trap(sh: &mut Interp, args: &[String]) -> R {
    let mut rest: Vec<String> = args[1..].to_vec();
    let mut print = false;
    let mut list = false;
    while let Some(a) = rest.first() {
        match a.as_str() {
            "-p" => print = true,
            "-l" => list = true,
            "--" => {
                rest.remove(0);
                break;
            }
            o if o.starts_with('-') && o.len() > 1 => {
                for c in o.chars().skip(1) {
                    match c {
                        'p' => print = true,
                        'l' => list = true,
                        _ => {
                            sh.builtin_error("trap", &format!("-{c}: invalid option"));
                            sh.errln("trap: usage: trap [-lp] [[arg] signal_spec ...]");
                            return Ok(2);
                        }
                    }
                }
            }
            _ => break,
        }
        rest.remove(0);
    }
    if list {
        sh.out(super::signal_table().as_bytes())?;
        return Ok(0);
    }
    if rest.is_empty() || print {
        let mut shown = sh.parent_traps.clone();
        for (k, v) in sh.traps.iter() {
            shown.insert(k.clone(), v.clone());
        }
        // POSIX mode names the signals without their `SIG`.
        let posix = sh.set.posix;
        let line = |sig: &str, action: &str| {
            let sig = match sig.strip_prefix("SIG") {
                Some(bare) if posix => bare,
                _ => sig,
            };
            format!("trap -- {} {}\n", super::single_quote(action), sig)
        };
        if rest.is_empty() {
            // bash's order: EXIT, the signals by number, then DEBUG, ERR, RETURN.
            let key = |sig: &str| match sig {
                "DEBUG" => 1000,
                "ERR" => 1001,
                "RETURN" => 1002,
                _ => super::signal_number(sig).unwrap_or(999),
            };
            let mut all: Vec<(&String, &String)> = shown.iter().collect();
            all.sort_by_key(|(sig, _)| key(sig));
            let out: String = all.iter().map(|(sig, a)| line(sig, a)).collect();
            sh.out(out.as_bytes())?;
            return Ok(0);
        }
        // Each operand in turn, as often as it is named; an unknown one is an error.
        let mut status = 0;
        for s in &rest {
            match trap_name(s) {
                Some(sig) => {
                    if let Some(action) = shown.get(&sig) {
                        sh.out(line(&sig, action).as_bytes())?;
                    }
                }
                None => {
                    sh.builtin_error("trap", &format!("{s}: invalid signal specification"));
                    status = 1;
                }
            }
        }
        return Ok(status);
    }
    // `trap N sig...` with a number first resets those signals.
    let (action, sigs): (Option<String>, &[String]) =
        if rest.len() == 1 || signal_like_reset(&rest[0]) {
            (None, &rest[..])
        } else {
            (Some(rest[0].clone()), &rest[1..])
        };
    let action = match action {
        Some(a) if a == "-" => None,
        other => other,
    };
    let mut status = 0;
    sh.parent_traps = imbl::OrdMap::new();
    for s in sigs {
        let Some(name) = trap_name(s) else {
            sh.builtin_error("trap", &format!("{s}: invalid signal specification"));
            status = 1;
            continue;
        };
        // A shell may not trap or reset what was ignored when it started.
        if let Some(sig) = super::signal_number(&name)
            && sh.entry_ignored & super::super::procs::bit(sig) != 0
        {
            continue;
        }
        match &action {
            Some(a) => {
                // A handler built at run time may read `$BASH_COMMAND` too.
                sh.track_command |= a.contains("BASH_COMMAND");
                sh.traps.insert(name, a.clone());
            }
            None => {
                sh.traps.remove(&name);
            }
        }
    }
    sh.sync_dispositions();
    Ok(status)
}

fn signal_like_reset(s: &str) -> bool {
    s.parse::<u32>().is_ok()
}

/// The canonical trap name: `EXIT`, `ERR`, `DEBUG`, `RETURN`, or `SIGxxx`.
fn trap_name(s: &str) -> Option<String> {
    let up = s.to_ascii_uppercase();
    let bare = up.strip_prefix("SIG").unwrap_or(&up);
    match bare {
        "EXIT" | "0" => return Some("EXIT".to_owned()),
        "ERR" | "DEBUG" | "RETURN" => return Some(bare.to_owned()),
        _ => {}
    }
    let n = super::signal_number(s)?;
    Some(super::signal_name(n))
}

/// `kill -l [sigspec...]`: the table, or each number as a name and each name as a
/// number (an exit status above 128 names the signal that caused it).
fn kill_list(sh: &mut Interp, specs: &[String]) -> R {
    let posix = sh.set.posix;
    if specs.is_empty() {
        // POSIX mode lists the bare names on one line.
        let table = if posix {
            let names: Vec<String> = (1..=super::SIGRTMAX)
                .filter_map(super::signal_short_name)
                .collect();
            format!("{}\n", names.join(" "))
        } else {
            super::signal_table()
        };
        sh.out(table.as_bytes())?;
        return Ok(0);
    }
    let mut out = String::new();
    let mut status = 0;
    for spec in specs {
        let shown = match spec.parse::<i32>() {
            Ok(0) => Some("EXIT".to_owned()),
            Ok(k) => super::signal_short_name(if k > 128 { k - 128 } else { k }),
            Err(_) => super::kill_signal_number(spec, posix).map(|k| k.to_string()),
        };
        match shown {
            Some(text) => {
                out.push_str(&text);
                out.push('\n');
            }
            None => {
                sh.builtin_error("kill", &format!("{spec}: invalid signal specification"));
                status = 1;
            }
        }
    }
    sh.out(out.as_bytes())?;
    Ok(status)
}

const KILL_USAGE: &str =
    "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]";

/// `kill [-s sigspec | -n signum | -sigspec] pid | jobspec ...`: signals processes of
/// the session by pid, process groups by a negative pid (`-- -PGID`), the shell's own
/// group by 0 and every other process by -1. Status 0 if any target got the signal.
pub fn kill(sh: &mut Interp, args: &[String]) -> R {
    // As bash's kill.def reads its words: options in any order, the first `-SIG` word
    // names the signal, and a bad signal only matters when something is to be killed
    // (`kill -l -x 3` lists 3).
    let mut spec: Option<String> = None;
    let mut listing = false;
    let mut i = 1;
    while let Some(a) = args.get(i) {
        let bytes = a.as_bytes();
        match a.as_str() {
            "-l" | "-L" => {
                listing = true;
                i += 1;
            }
            "-s" | "-n" => {
                let Some(s) = args.get(i + 1) else {
                    sh.builtin_error("kill", &format!("{a}: option requires an argument"));
                    return Ok(1);
                };
                spec = Some(s.clone());
                i += 2;
            }
            "--" => {
                i += 1;
                break;
            }
            _ if bytes.len() > 2
                && bytes[0] == b'-'
                && ((bytes[1] == b's' && bytes[2].is_ascii_alphabetic())
                    || (bytes[1] == b'n' && bytes[2].is_ascii_digit())) =>
            {
                spec = Some(a[2..].to_owned());
                i += 1;
            }
            _ if a.len() > 1 && a.starts_with('-') && spec.is_none() => {
                spec = Some(a[1..].to_owned());
                i += 1;
            }
            _ => break,
        }
    }
    let targets = args.get(i..).unwrap_or_default();
    if listing {
        return kill_list(sh, targets);
    }
    let sig = match &spec {
        None => super::super::procs::SIGTERM,
        Some(spec) => match kill_signal(sh, spec) {
            Some(n) => n,
            None => return Ok(1),
        },
    };
    if targets.is_empty() {
        sh.errln(KILL_USAGE);
        return Ok(2);
    }
    let mut any = false;
    for target in targets {
        let digits = target.strip_prefix('-').unwrap_or(target);
        let t = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            match target.parse::<i64>() {
                Ok(n) if n < -1 => Some((n, Target::Group((-n) as u32))),
                Ok(-1) => Some((-1, Target::All)),
                Ok(0) => Some((0, Target::Group(sh.pgid))),
                Ok(n) if n <= i64::from(u32::MAX) => Some((n, Target::Pid(n as u32))),
                _ => None,
            }
        } else if target.starts_with('%') {
            match job_target(sh, target) {
                JobSpec::Job(t) => Some(t),
                JobSpec::NoJob => {
                    sh.builtin_error("kill", &format!("{target}: no such job"));
                    continue;
                }
                JobSpec::Ambiguous => continue,
            }
        } else {
            None
        };
        let Some((shown, t)) = t else {
            sh.builtin_error(
                "kill",
                &format!("{target}: arguments must be process or job IDs"),
            );
            continue;
        };
        if sh.send_signal(t, sig) {
            any = true;
        } else {
            sh.builtin_error("kill", &format!("({shown}) - No such process"));
        }
    }
    Ok(if any { 0 } else { 1 })
}

/// The signal `spec` names, or `None` after bash's complaint.
fn kill_signal(sh: &Interp, spec: &str) -> Option<i32> {
    let n = super::kill_signal_number(spec, sh.set.posix);
    if n.is_none() {
        sh.builtin_error("kill", &format!("{spec}: invalid signal specification"));
    }
    n
}

/// What a job spec signals: a job started under `set -m` is its process group;
/// otherwise its own process.
fn job_target(sh: &Interp, spec: &str) -> JobSpec<(i64, Target)> {
    job_spec(sh, spec, "kill").map(|pid| {
        let group = sh
            .procs
            .get(pid)
            .is_some_and(|p| p.pgid == pid && pid != sh.pgid);
        if group {
            (-i64::from(pid), Target::Group(pid))
        } else {
            (i64::from(pid), Target::Pid(pid))
        }
    })
}

impl Interp {
    /// Sends `sig` to `target` from this shell; false when no process matched. Like
    /// kill(2) it does not wait: a process the signal kills ends in its turn, after
    /// what this shell does at the same virtual time (see `crate::fs::Lane`).
    pub(crate) fn send_signal(&mut self, target: Target, sig: i32) -> bool {
        let clock = self.fs.lock().clock().clone();
        let at = clock.now().as_nanos();
        if self.procs.signal(target, sig, self.bashpid, at).is_none() {
            return false;
        }
        clock.wake_sleepers();
        true
    }
}

/// What a job spec names, as bash's get_job_spec reads it.
enum JobSpec<T = u32> {
    Job(T),
    NoJob,
    /// More than one job's command matched `%name` or `%?text` (already reported).
    Ambiguous,
}

impl<T> JobSpec<T> {
    fn map<U>(self, f: impl FnOnce(T) -> U) -> JobSpec<U> {
        match self {
            JobSpec::Job(t) => JobSpec::Job(f(t)),
            JobSpec::NoJob => JobSpec::NoJob,
            JobSpec::Ambiguous => JobSpec::Ambiguous,
        }
    }

    fn job(self) -> Option<T> {
        match self {
            JobSpec::Job(t) => Some(t),
            _ => None,
        }
    }
}

/// The job a spec names: `N`, `+`/`%`/empty (current), `-` (previous), `name` (a
/// process's command starts with it), `?text` (a command contains it, any case), each
/// with an optional leading `%`. A name two processes match is reported, under
/// `who`, as ambiguous.
fn job_spec(sh: &Interp, spec: &str, who: &str) -> JobSpec {
    let found = |pid: Option<u32>| pid.map_or(JobSpec::NoJob, JobSpec::Job);
    if spec.is_empty() {
        return JobSpec::NoJob;
    }
    let j = spec.strip_prefix('%').unwrap_or(spec);
    let jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
    if !j.is_empty() && j.bytes().all(|b| b.is_ascii_digit()) {
        let n = j.parse::<usize>().unwrap_or(0);
        return found(jt.listed().find(|x| x.id == n).map(|x| x.pid));
    }
    let (name, substring) = match j {
        "" | "%" | "+" => return found(jt.current),
        "-" => return found(jt.previous),
        _ => match j.strip_prefix('?') {
            Some(text) => (text, true),
            None => (j, false),
        },
    };
    let lower = name.to_lowercase();
    let mut hit = None;
    let jobs: Vec<&super::super::Job> = jt.listed().collect();
    for x in jobs.iter().rev() {
        for (k, p) in x.procs().into_iter().enumerate() {
            let matched = if substring {
                p.to_lowercase().contains(&lower)
            } else {
                p.starts_with(name)
            };
            if !matched {
                continue;
            }
            // bash's scan stays on a match past a pipeline's first process and
            // meets it again: such a match is always ambiguous.
            if hit.is_some() || k > 0 {
                drop(jt);
                sh.builtin_error(who, &format!("{name}: ambiguous job spec"));
                return JobSpec::Ambiguous;
            }
            hit = Some(x.pid);
        }
    }
    found(hit)
}

/// The pid of the job `spec` names, `None` (with bash's complaint for an ambiguous
/// one) otherwise.
fn job_pid(sh: &Interp, spec: &str, who: &str) -> Option<u32> {
    job_spec(sh, spec, who).job()
}

/// After `wait` has waited for a job: bash's notices of the jobs that have ended
/// (this one among them), then the job leaves the table (its status stays known by
/// pid).
fn forget_waited_job(sh: &mut Interp, pid: u32) {
    sh.notify_jobs();
    let now = sh.fs.lock().clock().now();
    sh.jobs
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .forget(pid, now);
}

/// How bash describes a process ended by a signal (strsignal's text); none for the
/// signals that do not end one.
pub(crate) fn signal_description(sig: i32) -> Option<std::borrow::Cow<'static, str>> {
    Some(std::borrow::Cow::Borrowed(match sig {
        1 => "Hangup",
        2 => "Interrupt",
        3 => "Quit",
        4 => "Illegal instruction",
        5 => "Trace/breakpoint trap",
        6 => "Aborted",
        7 => "Bus error",
        8 => "Floating point exception",
        9 => "Killed",
        10 => "User defined signal 1",
        11 => "Segmentation fault",
        12 => "User defined signal 2",
        13 => "Broken pipe",
        14 => "Alarm clock",
        15 => "Terminated",
        16 => "Stack fault",
        24 => "CPU time limit exceeded",
        25 => "File size limit exceeded",
        26 => "Virtual timer expired",
        27 => "Profiling timer expired",
        29 => "I/O possible",
        30 => "Power failure",
        31 => "Bad system call",
        34..=64 => return Some(format!("Real-time signal {}", sig - 34).into()),
        _ => return None,
    }))
}

/// Waits for a job's thread: its status (`None` if it is not a child of this shell),
/// or the trapped signal that cut the wait short.
fn join_job(sh: &mut Interp, pid: u32) -> Result<Option<Joined>, Flow> {
    let (handle, lane, mailbox) = {
        let mut jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
        let Some(j) = jt.jobs.iter_mut().find(|j| j.pid == pid && !j.foreign) else {
            return Ok(None);
        };
        (j.handle.take(), j.lane.clone(), j.mailbox.clone())
    };
    let result = match handle {
        Some(h) => match sh.join_interruptibly(pid, h, lane.as_ref())? {
            Ok(s) => Some(s),
            Err(interrupted) => return Ok(Some(interrupted)),
        },
        None => None,
    };
    // Waiting takes as long as the job did.
    if let Some(lane) = lane {
        sh.fs.lock().clock().catch_up(&lane);
    }
    let mut jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
    let Some(j) = jt.jobs.iter_mut().find(|j| j.pid == pid) else {
        return Ok(None);
    };
    if let Some(sig) = mailbox.and_then(|m| m.died_of())
        && j.killed_by.is_none()
        && result.is_some()
    {
        j.killed_by = Some(sig);
    }
    if j.status.is_none() {
        j.status = result;
    }
    let s = j.status;
    Ok(s.map(Joined::Status))
}

/// What `wait`'s options asked for: `-n` (the next job to end) and `-p VAR` (where to
/// put the pid of the job whose status is returned); `Err` holds the status of a usage
/// error, already reported.
struct WaitOpts<'a> {
    any: bool,
    var: Option<String>,
    ids: &'a [String],
}

fn wait_opts<'a>(sh: &mut Interp, args: &'a [String]) -> Result<WaitOpts<'a>, i32> {
    const USAGE: &str = "wait: usage: wait [-fn] [-p var] [id ...]";
    let (given, i) = super::options(sh, "wait", args, "fnp:", USAGE)?;
    let mut opts = WaitOpts {
        any: false,
        var: None,
        ids: &[],
    };
    for (c, value) in given {
        match c {
            'n' => opts.any = true,
            'p' => opts.var = value,
            _ => {}
        }
    }
    opts.ids = args.get(i..).unwrap_or_default();
    if let Some(v) = &opts.var
        && !crate::syntax::parser::is_name(v)
    {
        sh.builtin_error("wait", &format!("`{v}': not a valid identifier"));
        return Err(1);
    }
    Ok(opts)
}

/// Unsets `wait -p`'s variable (as bash does before each job); false, reported, when
/// it is readonly.
fn wait_unset_var(sh: &mut Interp, var: Option<&str>) -> bool {
    let Some(v) = var else { return true };
    if sh.vars.unset(v).is_err() {
        sh.builtin_error("wait", &format!("{v}: cannot unset: readonly variable"));
        return false;
    }
    true
}

fn wait_set_var(sh: &mut Interp, var: Option<&str>, pid: u32) {
    if let Some(v) = var {
        let _ = sh.assign_scalar(v, pid.to_string(), false);
    }
}

pub fn wait(sh: &mut Interp, args: &[String]) -> R {
    let opts = match wait_opts(sh, args) {
        Ok(o) => o,
        Err(status) => return Ok(status),
    };
    let var = opts.var.as_deref();
    if opts.ids.is_empty() {
        if !wait_unset_var(sh, var) {
            return Ok(1);
        }
        let pids: Vec<u32> = {
            let jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
            jt.jobs
                .iter()
                .filter(|j| !j.foreign && (j.status.is_none() || j.handle.is_some()))
                .map(|j| j.pid)
                .collect()
        };
        if opts.any {
            let (first, s) = match wait_next(sh, &pids)? {
                Ok(v) => v,
                Err(s) => return Ok(s),
            };
            let mut jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
            jt.jobs.retain(|j| j.pid != first);
            drop(jt);
            wait_set_var(sh, var, first);
            return Ok(s);
        }
        // Only a job still running is waited for (and brings the notices); one that
        // has already ended is dropped without a word.
        let now = sh.fs.lock().clock().now();
        let running: Vec<bool> = {
            let jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
            pids.iter()
                .map(|p| jt.jobs.iter().any(|j| j.pid == *p && !j.ended_before(now)))
                .collect()
        };
        for (p, running) in pids.iter().zip(running) {
            if let Some(Joined::Interrupted(sig)) = join_job(sh, *p)? {
                return Ok(128 + sig);
            }
            if running {
                sh.notify_jobs();
            }
        }
        let mut jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jt.jobs.clear();
        jt.current = None;
        jt.previous = None;
        return Ok(0);
    }
    if opts.any {
        return wait_any_of(sh, opts.ids, var);
    }
    let mut status = 0;
    for t in opts.ids {
        if !wait_unset_var(sh, var) {
            return Ok(1);
        }
        let pid: Option<u32> = if t.starts_with('%') {
            match job_spec(sh, t, "wait") {
                JobSpec::Job(pid) => Some(pid),
                JobSpec::NoJob => None,
                JobSpec::Ambiguous => {
                    status = 127;
                    continue;
                }
            }
        } else {
            match t.parse::<u32>() {
                Ok(p) => Some(p),
                Err(_) => {
                    sh.builtin_error("wait", &format!("`{t}': not a pid or valid job spec"));
                    status = 1;
                    continue;
                }
            }
        };
        let joined = match pid {
            Some(p) => join_job(sh, p)?.map(|j| (p, j)),
            None => None,
        };
        status = match joined {
            Some((_, Joined::Interrupted(sig))) => return Ok(128 + sig),
            Some((p, Joined::Status(s))) => {
                forget_waited_job(sh, p);
                wait_set_var(sh, var, p);
                s
            }
            None => {
                if t.starts_with('%') {
                    sh.builtin_error("wait", &format!("{t}: no such job"));
                } else {
                    sh.builtin_error("wait", &format!("pid {t} is not a child of this shell"));
                }
                127
            }
        };
    }
    Ok(status)
}

/// `wait -n id...`: the first of the jobs named to end. Each id is a job's pid or a
/// job spec (its `%` optional); one that names no job is reported, and with none
/// left the status is 127 (bash's set_waitlist).
fn wait_any_of(sh: &mut Interp, ids: &[String], var: Option<&str>) -> R {
    let mut pids = Vec::new();
    for t in ids {
        let pid = if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            let jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
            t.parse::<u32>()
                .ok()
                .filter(|p| jt.listed().any(|j| j.pid == *p && !j.foreign))
        } else {
            job_pid(sh, t, "wait")
        };
        match pid {
            Some(p) => {
                if !pids.contains(&p) {
                    pids.push(p);
                }
            }
            None => sh.builtin_error("wait", &format!("{t}: no such job")),
        }
    }
    if pids.is_empty() {
        return Ok(127);
    }
    if !wait_unset_var(sh, var) {
        return Ok(1);
    }
    let (first, s) = match wait_next(sh, &pids)? {
        Ok(v) => v,
        Err(s) => return Ok(s),
    };
    wait_set_var(sh, var, first);
    Ok(s)
}

/// `wait -n`: the first of `pids` to end (waiting for one to), in job order among
/// those already ended; `None` for none.
/// `wait -n`: waits for the first of `pids` to end and forgets it; its pid and
/// status, or the status that ends the wait without one (127 when there is none, a
/// trapped signal's 128+N).
fn wait_next(sh: &mut Interp, pids: &[u32]) -> Result<Result<(u32, i32), i32>, Flow> {
    let Some(first) = next_to_end(sh, pids)? else {
        return Ok(Err(127));
    };
    let s = match join_job(sh, first)? {
        Some(Joined::Interrupted(sig)) => return Ok(Err(128 + sig)),
        Some(Joined::Status(s)) => s,
        None => 127,
    };
    forget_waited_job(sh, first);
    Ok(Ok((first, s)))
}

fn next_to_end(sh: &mut Interp, pids: &[u32]) -> Result<Option<u32>, Flow> {
    if pids.is_empty() {
        return Ok(None);
    }
    let lanes: Vec<crate::fs::Lane> = {
        let jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jt.jobs
            .iter()
            .filter(|j| pids.contains(&j.pid))
            .filter_map(|j| j.lane.clone())
            .collect()
    };
    let _waiting = crate::fs::blocked_on(&lanes.iter().collect::<Vec<_>>());
    let _cut_short = sh.proc.mailbox().interruptible();
    loop {
        let done = {
            let jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
            pids.iter().copied().find(|p| {
                jt.jobs.iter().any(|j| {
                    j.pid == *p
                        && (j.status.is_some() || j.handle.as_ref().is_none_or(|h| h.is_finished()))
                })
            })
        };
        if done.is_some() {
            return Ok(done);
        }
        sh.signal_check()?;
        if sh.proc.mailbox().caught_pending().is_some() {
            // The trap runs and `wait` returns 128+N: join_job reports it.
            return Ok(pids.first().copied());
        }
        sh.procs.wait_change(std::time::Duration::from_millis(10));
    }
}

/// `jobs [-lnprs] [jobspec ...]` and `jobs -x command [args]`: the job table, as bash
/// lists it (`+` the current job, `-` the previous); an ended job is listed once and
/// then leaves the table.
pub fn jobs(sh: &mut Interp, args: &[String]) -> R {
    let usage = "jobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]";
    if args.get(1).is_some_and(|a| a == "-x") {
        // Each job spec among the arguments becomes its process group leader's pid.
        let mut words = Vec::new();
        // A word that names no job is not a job spec: it is passed on as it is.
        for a in args.get(2..).unwrap_or_default() {
            let pid = if a.starts_with('%') {
                job_pid(sh, a, "jobs")
            } else {
                None
            };
            match pid {
                Some(pid) => {
                    // The job's process group: the shell's own without job control.
                    let pgid = sh.procs.get(pid).map_or(pid, |p| p.pgid);
                    words.push(pgid.to_string());
                }
                None => words.push(a.clone()),
            }
        }
        if words.is_empty() {
            return Ok(0);
        }
        let c = crate::syntax::Command {
            kind: crate::syntax::CommandKind::Simple(Default::default()),
            redirects: Vec::new(),
            line: sh.line,
        };
        return sh.dispatch(&c, &words);
    }
    let (flags, i) = match super::letter_options(sh, "jobs", args, "lnprs", usage) {
        Ok(v) => v,
        Err(status) => return Ok(status),
    };
    let (long, pids_only, running_only, stopped_only) = (
        flags.contains('l'),
        flags.contains('p'),
        flags.contains('r'),
        flags.contains('s'),
    );
    let mut pids = Vec::new();
    let mut status = 0;
    let operands = args.get(i..).unwrap_or_default();
    for spec in operands {
        match job_pid(sh, spec, "jobs") {
            Some(pid) => pids.push(pid),
            None => {
                sh.builtin_error("jobs", &format!("{spec}: no such job"));
                status = 1;
            }
        }
    }
    if !operands.is_empty() && pids.is_empty() {
        return Ok(status);
    }
    let now = sh.fs.lock().clock().now();
    let mut out = String::new();
    let mut gone = Vec::new();
    {
        let mut jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
        let chosen: Vec<u32> = if operands.is_empty() {
            jt.listed().map(|j| j.pid).collect()
        } else {
            pids
        };
        for pid in chosen {
            let Some(j) = jt.listed().find(|j| j.pid == pid) else {
                continue;
            };
            let done = j.ended_before(now);
            if (running_only && done) || stopped_only {
                continue;
            }
            if pids_only {
                out.push_str(&format!("{}\n", j.pid));
            } else {
                // `-l` puts the pid where the second space was.
                let pid = if long {
                    format!("{:5} ", j.pid)
                } else {
                    " ".to_owned()
                };
                let (state, amp) = if done {
                    (j.end_text(sh.set.posix), "")
                } else {
                    ("Running".to_owned(), " &")
                };
                let wd = if j.wd.is_empty() || j.wd == sh.cwd {
                    String::new()
                } else {
                    format!("  (wd: {})", sh.polite_dir(&j.wd))
                };
                out.push_str(&format!(
                    "[{}]{} {}{:<24}{}{}{}\n",
                    j.id,
                    jt.mark(j.pid),
                    pid,
                    state,
                    j.command,
                    amp,
                    wd
                ));
            }
            if done && !j.foreign {
                gone.push(j.pid);
            }
        }
        for pid in gone {
            jt.forget(pid, now);
        }
    }
    sh.out(out.as_bytes())?;
    Ok(status)
}

/// `disown [-h] [-ar] [jobspec ... | pid ...]`: takes jobs out of the table (`-h`
/// leaves them there: a sandbox's shell never sends SIGHUP); with no operand the
/// current job, or every job with `-a`, or every running one with `-r`.
pub fn disown(sh: &mut Interp, args: &[String]) -> R {
    let usage = "disown: usage: disown [-h] [-ar] [jobspec ... | pid ...]";
    let (flags, i) = match super::letter_options(sh, "disown", args, "ahr", usage) {
        Ok(v) => v,
        Err(status) => return Ok(status),
    };
    let (all, keep, running_only) = (
        flags.contains('a'),
        flags.contains('h'),
        flags.contains('r'),
    );
    let operands = args.get(i..).unwrap_or_default();
    let now = sh.fs.lock().clock().now();
    let mut pids = Vec::new();
    let mut status = 0;
    if operands.is_empty() {
        if all || running_only {
            let jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
            pids.extend(jt.jobs.iter().filter(|j| j.id > 0).map(|j| j.pid));
        } else {
            match job_pid(sh, "%+", "disown") {
                Some(pid) => pids.push(pid),
                None => {
                    sh.builtin_error("disown", "current: no such job");
                    return Ok(1);
                }
            }
        }
    }
    for spec in operands {
        // A number is a pid; anything else a job spec, its `%` optional.
        let pid = match spec.parse::<u32>() {
            Ok(p) => {
                let jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
                jt.jobs.iter().any(|j| j.id > 0 && j.pid == p).then_some(p)
            }
            Err(_) => job_pid(sh, spec, "disown"),
        };
        match pid {
            // One at a time: a job named twice is gone the second time.
            Some(pid) => disown_pids(sh, &[pid], keep, running_only, now),
            None => {
                sh.builtin_error("disown", &format!("{spec}: no such job"));
                status = 1;
            }
        }
    }
    disown_pids(sh, &pids, keep, running_only, now);
    Ok(status)
}

fn disown_pids(
    sh: &Interp,
    pids: &[u32],
    keep: bool,
    running_only: bool,
    now: crate::fs::Timestamp,
) {
    if keep {
        return;
    }
    let mut jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
    let gone: Vec<u32> = jt
        .listed()
        .filter(|j| pids.contains(&j.pid) && !(running_only && j.finished_by(now)))
        .map(|j| j.pid)
        .collect();
    for pid in gone {
        jt.forget(pid, now);
    }
}

/// The pid of the job an `fg`/`bg` operand names (the current job without one); the
/// error when none is, as bash words it.
fn job_control_target(sh: &Interp, name: &str, spec: Option<&String>) -> Option<u32> {
    let (shown, found) = match spec {
        None => ("current", job_spec(sh, "%+", name)),
        Some(s) => (s.as_str(), job_spec(sh, s, name)),
    };
    match found {
        JobSpec::Job(pid) => Some(pid),
        JobSpec::NoJob => {
            sh.builtin_error(name, &format!("{shown}: no such job"));
            None
        }
        JobSpec::Ambiguous => None,
    }
}

/// `fg [jobspec]`: without job control (`set -m`) an error; with it, the job's command
/// is printed and the shell waits for it, its status being fg's.
pub fn fg(sh: &mut Interp, args: &[String]) -> R {
    if !sh.set.monitor || sh.in_subshell {
        sh.builtin_error("fg", "no job control");
        return Ok(1);
    }
    let (_, i) = match super::letter_options(sh, "fg", args, "", "fg: usage: fg [job_spec]") {
        Ok(v) => v,
        Err(status) => return Ok(status),
    };
    let Some(pid) = job_control_target(sh, "fg", args.get(i)) else {
        return Ok(1);
    };
    let command = {
        let jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jt.jobs
            .iter()
            .find(|j| j.pid == pid)
            .map(|j| j.command.clone())
            .unwrap_or_default()
    };
    sh.out(format!("{command}\n").as_bytes())?;
    let s = match join_job(sh, pid)? {
        Some(Joined::Interrupted(sig)) => return Ok(128 + sig),
        Some(Joined::Status(s)) => s,
        None => 127,
    };
    let now = sh.fs.lock().clock().now();
    sh.jobs
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .forget(pid, now);
    Ok(s)
}

/// `bg [jobspec ...]`: without job control an error; with it, a job (which in a
/// sandbox never stops) is already in the background.
pub fn bg(sh: &mut Interp, args: &[String]) -> R {
    if !sh.set.monitor || sh.in_subshell {
        sh.builtin_error("bg", "no job control");
        return Ok(1);
    }
    let usage = "bg: usage: bg [job_spec ...]";
    let (_, i) = match super::letter_options(sh, "bg", args, "", usage) {
        Ok(v) => v,
        Err(status) => return Ok(status),
    };
    let operands = args.get(i..).unwrap_or_default();
    let specs: Vec<Option<&String>> = if operands.is_empty() {
        vec![None]
    } else {
        operands.iter().map(Some).collect()
    };
    let mut status = 0;
    for spec in specs {
        let Some(pid) = job_control_target(sh, "bg", spec) else {
            status = 1;
            continue;
        };
        let id = {
            let jt = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
            jt.jobs.iter().find(|j| j.pid == pid).map(|j| j.id)
        };
        if let Some(id) = id {
            sh.builtin_error("bg", &format!("job {id} already in background"));
        }
    }
    Ok(status)
}

pub fn umask(sh: &mut Interp, args: &[String]) -> R {
    let usage = "umask: usage: umask [-p] [-S] [mode]";
    let (flags, i) = match super::letter_options(sh, "umask", args, "Sp", usage) {
        Ok(v) => v,
        Err(status) => return Ok(status),
    };
    let symbolic = flags.contains('S');
    let print = flags.contains('p');
    let rest = args.get(i..).unwrap_or_default();
    if let Some(spec) = rest.first() {
        let status = set_umask(sh, spec);
        // `umask -S mode` shows the new mask.
        if status != 0 || !symbolic {
            return Ok(status);
        }
    }
    {
        let m = sh.umask;
        let text = if symbolic {
            let perm = |shift: u32| {
                let bits = (!m >> shift) & 7;
                let mut s = String::new();
                if bits & 4 != 0 {
                    s.push('r');
                }
                if bits & 2 != 0 {
                    s.push('w');
                }
                if bits & 1 != 0 {
                    s.push('x');
                }
                s
            };
            let prefix = if print { "umask -S " } else { "" };
            format!("{prefix}u={},g={},o={}\n", perm(6), perm(3), perm(0))
        } else if print {
            format!("umask {:04o}\n", m)
        } else {
            format!("{:04o}\n", m)
        };
        sh.out(text.as_bytes())?;
        Ok(0)
    }
}

/// Sets the mask from an octal number or a symbolic mode; the status.
fn set_umask(sh: &mut Interp, spec: &str) -> i32 {
    if spec.starts_with(|c: char| c.is_ascii_digit()) {
        return match u32::from_str_radix(spec, 8) {
            Ok(m) if m <= 0o7777 => {
                sh.umask = m & 0o777;
                0
            }
            _ => {
                sh.builtin_error("umask", &format!("{spec}: octal number out of range"));
                1
            }
        };
    }
    match apply_symbolic_umask(sh.umask, spec) {
        Ok(m) => {
            sh.umask = m;
            0
        }
        Err(msg) => {
            sh.builtin_error("umask", &msg);
            1
        }
    }
}

/// Applies a symbolic mode (`u=rwx,g-w`) to the permission bits of a umask. Only `r`,
/// `w` and `x` make sense for a mask; anything else is bash's error text.
fn apply_symbolic_umask(mask: u32, spec: &str) -> Result<u32, String> {
    let mut perms = !mask & 0o777;
    for clause in spec.split(',') {
        let mut who = 0u32;
        let mut chars = clause.chars().peekable();
        while let Some(&c) = chars.peek() {
            match c {
                'u' => who |= 0o700,
                'g' => who |= 0o070,
                'o' => who |= 0o007,
                'a' => who |= 0o777,
                _ => break,
            }
            chars.next();
        }
        if who == 0 {
            who = 0o777;
        }
        // bash names a missing operator by the NUL that ends its string.
        let op = chars.next().unwrap_or('\0');
        if !matches!(op, '+' | '-' | '=') {
            return Err(format!("`{op}': invalid symbolic mode operator"));
        }
        let mut bits = 0u32;
        for c in chars {
            bits |= match c {
                'r' => 0o444,
                'w' => 0o222,
                'x' => 0o111,
                _ => return Err(format!("`{c}': invalid symbolic mode character")),
            };
        }
        let bits = bits & who;
        match op {
            '+' => perms |= bits,
            '-' => perms &= !bits,
            _ => perms = (perms & !who) | bits,
        }
    }
    Ok(!perms & 0o777)
}

const DIRS_USAGE: &str = "dirs: usage: dirs [-clpv] [+N] [-N]";
const PUSHD_USAGE: &str = "pushd: usage: pushd [-n] [+N | -N | dir]";
const POPD_USAGE: &str = "popd: usage: popd [-n] [+N | -N]";

/// A usage error of `dirs`, `pushd` or `popd`: the complaint, the usage line, status 2.
fn stack_usage(sh: &mut Interp, who: &str, msg: &str, usage: &str) -> R {
    sh.builtin_error(who, msg);
    sh.errln(usage);
    Ok(2)
}

/// The whole directory stack as `dirs` shows it: the current directory first.
fn dir_stack_view(sh: &Interp) -> Vec<String> {
    let mut all = vec![sh.cwd.clone()];
    all.extend(sh.dir_stack.iter().rev().cloned());
    all
}

/// Replaces the directory stack from a `dirs`-order view (minus the current directory).
fn set_dir_stack(sh: &mut Interp, view: &[String]) {
    sh.dir_stack = view.iter().skip(1).rev().cloned().collect();
}

/// Reads `+N` / `-N`: `Some(Ok(index))` counted from the left, `Some(Err(()))` when the
/// digits are not a number, `None` when `arg` is no such word.
fn stack_offset(arg: &str) -> Option<Result<(bool, usize), ()>> {
    let (from_left, digits) = if let Some(d) = arg.strip_prefix('+') {
        (true, d)
    } else {
        (false, arg.strip_prefix('-')?)
    };
    Some(
        digits
            .trim()
            .parse::<usize>()
            .map(|n| (from_left, n))
            .map_err(|_| ()),
    )
}

/// Maps a `+N`/`-N` offset to a position in a stack view of `len` entries.
fn stack_index((from_left, n): (bool, usize), len: usize) -> Option<usize> {
    if n >= len {
        None
    } else if from_left {
        Some(n)
    } else {
        Some(len - 1 - n)
    }
}

/// Formats stack entries as `dirs` does: `~` for the home directory unless `long`.
fn dirs_text(sh: &Interp, all: &[String], long: bool, per_line: bool, verbose: bool) -> String {
    let home = sh.get_str("HOME").unwrap_or_default();
    let show = |d: &str| match d.strip_prefix(home.as_str()) {
        Some(rest) if !long && !home.is_empty() && (rest.is_empty() || rest.starts_with('/')) => {
            format!("~{rest}")
        }
        _ => d.to_owned(),
    };
    if verbose {
        all.iter()
            .enumerate()
            .map(|(i, d)| format!("{i:2}  {}\n", show(d)))
            .collect()
    } else if per_line {
        all.iter().map(|d| format!("{}\n", show(d))).collect()
    } else {
        let shown: Vec<String> = all.iter().map(|d| show(d)).collect();
        format!("{}\n", shown.join(" "))
    }
}

pub fn dirs(sh: &mut Interp, args: &[String]) -> R {
    let (mut clear, mut per_line, mut verbose, mut long) = (false, false, false, false);
    let mut pick = None;
    for a in args.iter().skip(1) {
        match a.as_str() {
            "-c" => clear = true,
            "-p" => per_line = true,
            "-v" => verbose = true,
            "-l" => long = true,
            "--" => break,
            _ => match stack_offset(a) {
                Some(Ok(off)) => pick = Some(off),
                Some(Err(())) => {
                    return stack_usage(sh, "dirs", &format!("{a}: invalid number"), DIRS_USAGE);
                }
                None => {
                    return stack_usage(sh, "dirs", &format!("{a}: invalid option"), DIRS_USAGE);
                }
            },
        }
    }
    if clear {
        sh.dir_stack.clear();
        return Ok(0);
    }
    let all = dir_stack_view(sh);
    let text = match pick {
        None => dirs_text(sh, &all, long, per_line, verbose),
        Some(off) => match stack_index(off, all.len()) {
            Some(i) => dirs_text(sh, &all[i..=i], long, false, false),
            None if sh.dir_stack.is_empty() => {
                sh.builtin_error("dirs", "directory stack empty");
                return Ok(1);
            }
            None => {
                sh.builtin_error(
                    "dirs",
                    &format!("{}: directory stack index out of range", off.1),
                );
                return Ok(1);
            }
        },
    };
    sh.out(text.as_bytes())?;
    Ok(0)
}

/// Changes to `dir` for `pushd`/`popd`, reporting failures under that name.
fn stack_cd(sh: &mut Interp, who: &str, dir: &str) -> R {
    if sh.restricted {
        sh.builtin_error(who, "restricted");
        return Ok(1);
    }
    change_dir(sh, who, &["--".to_owned(), dir.to_owned()])
}

pub fn pushd(sh: &mut Interp, args: &[String]) -> R {
    let mut no_cd = false;
    let mut rest = Vec::new();
    let mut opts_done = false;
    for a in args.iter().skip(1) {
        if !opts_done && a == "-n" {
            no_cd = true;
        } else if !opts_done && a == "--" {
            opts_done = true;
        } else {
            rest.push(a.clone());
            opts_done = true;
        }
    }
    if rest.len() > 1 {
        sh.builtin_error("pushd", "too many arguments");
        return Ok(1);
    }
    let mut all = dir_stack_view(sh);
    match rest.first() {
        None if no_cd => return Ok(0),
        None => {
            if all.len() < 2 {
                sh.builtin_error("pushd", "no other directory");
                return Ok(1);
            }
            all.swap(0, 1);
            let target = all[0].clone();
            let r = stack_cd(sh, "pushd", &target)?;
            if r != 0 {
                return Ok(r);
            }
            all[0] = sh.cwd.clone();
        }
        Some(a) if a != "-" && stack_offset(a).is_some() => {
            let off = match stack_offset(a) {
                Some(Ok(off)) => off,
                _ => {
                    return stack_usage(sh, "pushd", &format!("{a}: invalid number"), PUSHD_USAGE);
                }
            };
            // Only the current directory on the stack: `+0` and `-0` still name it.
            if all.len() < 2 && off.1 != 0 {
                sh.builtin_error("pushd", "directory stack empty");
                return Ok(1);
            }
            let Some(i) = stack_index(off, all.len()) else {
                sh.builtin_error("pushd", &format!("{a}: directory stack index out of range"));
                return Ok(1);
            };
            all.rotate_left(i);
            if no_cd {
                // The stack turns under the current directory, which stays on top in
                // place of the entry the turn brought there; nothing is listed.
                set_dir_stack(sh, &all);
                return Ok(0);
            }
            let target = all[0].clone();
            let r = stack_cd(sh, "pushd", &target)?;
            if r != 0 {
                return Ok(r);
            }
        }
        Some(dir) => {
            if no_cd {
                // Kept as written: it is only looked up when the stack brings it back.
                all.insert(1, dir.clone());
            } else {
                let r = stack_cd(sh, "pushd", dir)?;
                if r != 0 {
                    return Ok(r);
                }
                all.insert(0, sh.cwd.clone());
            }
        }
    }
    set_dir_stack(sh, &all);
    let all = dir_stack_view(sh);
    let text = dirs_text(sh, &all, false, false, false);
    sh.out(text.as_bytes())?;
    Ok(0)
}

pub fn popd(sh: &mut Interp, args: &[String]) -> R {
    let mut no_cd = false;
    let mut pick = (true, 0);
    for a in args.iter().skip(1) {
        if a == "-n" {
            no_cd = true;
        } else if a == "--" {
            break;
        } else {
            match stack_offset(a) {
                Some(Ok(off)) => pick = off,
                Some(Err(())) => {
                    return stack_usage(sh, "popd", &format!("{a}: invalid number"), POPD_USAGE);
                }
                None => {
                    return stack_usage(sh, "popd", &format!("{a}: invalid argument"), POPD_USAGE);
                }
            }
        }
    }
    let mut all = dir_stack_view(sh);
    if all.len() < 2 {
        sh.builtin_error("popd", "directory stack empty");
        return Ok(1);
    }
    let Some(mut i) = stack_index(pick, all.len()) else {
        let sign = if pick.0 { '+' } else { '-' };
        sh.builtin_error(
            "popd",
            &format!("{sign}{}: directory stack index out of range", pick.1),
        );
        return Ok(1);
    };
    // `popd -n` leaves the current directory alone and drops the next entry instead.
    if i == 0 && no_cd {
        i = 1;
    }
    all.remove(i);
    if i == 0 {
        let target = all[0].clone();
        let r = stack_cd(sh, "popd", &target)?;
        if r != 0 {
            return Ok(r);
        }
        all[0] = sh.cwd.clone();
    }
    set_dir_stack(sh, &all);
    let text = dirs_text(sh, &all, false, false, false);
    sh.out(text.as_bytes())?;
    Ok(0)
}

pub fn times(sh: &mut Interp, _args: &[String]) -> R {
    sh.out(b"0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n")?;
    Ok(0)
}

/// bash's `caller` (builtins/caller.def): it reads the call stack as the arrays
/// `BASH_LINENO`, `BASH_SOURCE` and `FUNCNAME` show it, and with no stack (top level
/// of `bash -c`) fails before looking at its arguments.
pub fn caller(sh: &mut Interp, args: &[String]) -> R {
    const USAGE: &str = "caller: usage: caller [expr]";
    let (Some(lines), Some(sources)) = (
        sh.call_stack("BASH_LINENO", false),
        sh.call_stack("BASH_SOURCE", false),
    ) else {
        return Ok(1);
    };
    let start = match super::options(sh, "caller", args, "", USAGE) {
        Ok((_, i)) => i,
        Err(s) => return Ok(s),
    };
    let Some(a) = args.get(start) else {
        let line = lines.first().map_or("NULL", String::as_str);
        let file = sources.get(1).map_or("NULL", String::as_str);
        sh.out(format!("{line} {file}\n").as_bytes())?;
        return Ok(0);
    };
    let Some(funcs) = sh.call_stack("FUNCNAME", false) else {
        return Ok(1);
    };
    let Ok(n) = a.trim().parse::<i64>() else {
        sh.builtin_error("caller", &format!("{a}: {}", invalid_number_kind(a)));
        sh.errln(USAGE);
        return Ok(2);
    };
    let at = |v: &Vec<String>, i: i64| usize::try_from(i).ok().and_then(|i| v.get(i).cloned());
    let (Some(line), Some(file), Some(func)) = (
        at(&lines, n),
        at(&sources, n.saturating_add(1)),
        at(&funcs, n.saturating_add(1)),
    ) else {
        return Ok(1);
    };
    sh.out(format!("{line} {func} {file}\n").as_bytes())?;
    Ok(0)
}

/// What bash's `sh_invalidnum` calls a word that is not a number.
fn invalid_number_kind(s: &str) -> &'static str {
    let b = s.as_bytes();
    match (b.first(), b.get(1)) {
        (Some(b'0'), Some(c)) if c.is_ascii_digit() => "invalid octal number",
        (Some(b'0'), Some(b'x')) => "invalid hex number",
        _ => "invalid number",
    }
}

pub fn exec(sh: &mut Interp, args: &[String]) -> R {
    let mut i = 1;
    let mut argv0 = None;
    let (mut login, mut clean_env) = (false, false);
    const USAGE: &str =
        "exec: usage: exec [-cl] [-a name] [command [argument ...]] [redirection ...]";
    while i < args.len() && args[i].starts_with('-') && args[i] != "-" {
        if args[i] == "--" {
            i += 1;
            break;
        }
        let opts: Vec<char> = args[i].chars().skip(1).collect();
        for (j, c) in opts.iter().enumerate() {
            match c {
                'c' => clean_env = true,
                'l' => login = true,
                'a' => {
                    let rest: String = opts.iter().skip(j + 1).collect();
                    if rest.is_empty() {
                        i += 1;
                        argv0 = args.get(i).cloned();
                        if argv0.is_none() {
                            sh.builtin_error("exec", "-a: option requires an argument");
                            sh.errln(USAGE);
                            return Ok(2);
                        }
                    } else {
                        argv0 = Some(rest);
                    }
                    break;
                }
                _ => {
                    sh.builtin_error("exec", &format!("-{c}: invalid option"));
                    sh.errln(USAGE);
                    return Ok(2);
                }
            }
        }
        i += 1;
    }
    if i >= args.len() {
        return Ok(0);
    }
    if sh.restricted {
        sh.builtin_error("exec", "restricted");
        return Ok(1);
    }
    // `exec -l` puts a `-` before the program's argv[0] (the name `-a` gave, if any),
    // which makes a shell a login shell.
    if login {
        argv0 = Some(format!("-{}", argv0.as_deref().unwrap_or(&args[i])));
    }
    if clean_env && !exec_fails_here(sh, &args[i]) {
        // `exec -c`: the program starts with an empty environment.
        sh.clear_environment();
    }
    if let Some(a0) = argv0 {
        // `exec -a NAME cmd`: only shells observe their argv[0] (as `$0`).
        let words = args[i..].to_vec();
        if matches!(words[0].as_str(), "bash" | "sh" | "rbash") {
            let c = crate::syntax::Command {
                kind: crate::syntax::CommandKind::Simple(Default::default()),
                redirects: Vec::new(),
                line: sh.line,
            };
            sh.argv0_override = Some(a0);
            let s = replace_process(sh, |sh| sh.dispatch(&c, &words));
            sh.argv0_override = None;
            return Err(Flow::Exit(s?));
        }
    }
    // exec replaces the shell with a program: functions and builtins are not looked
    // for, only a file on PATH (or the path given).
    let name = &args[i];
    if name.contains('/')
        && let Some((status, why)) = exec_refusal(sh, name)
    {
        // The kernel refused the file: bash names it by its full path, and (but for
        // a missing one) says again that exec could not run it.
        let full = match name.strip_prefix("./") {
            _ if name.starts_with('/') => name.clone(),
            Some(rest) => format!("{}/{rest}", sh.cwd.trim_end_matches('/')),
            None => format!("{}/{name}", sh.cwd.trim_end_matches('/')),
        };
        sh.error(&format!("{full}: {why}"));
        if status == 126 {
            sh.builtin_error("exec", &format!("{full}: cannot execute: {why}"));
        }
        if sh.interactive
            || sh
                .shopt
                .has(const { crate::interp::Shopts::flag("execfail") })
        {
            return Ok(status);
        }
        // The shell ends where the exec failed, without its EXIT trap.
        sh.replaced = true;
        return Err(Flow::Exit(status));
    }
    if !name.contains('/') && sh.path_search(name).is_none() {
        sh.builtin_error("exec", &format!("{name}: not found"));
        if sh.interactive
            || sh
                .shopt
                .has(const { crate::interp::Shopts::flag("execfail") })
        {
            return Ok(127);
        }
        return Err(Flow::Exit(127));
    }
    let c = crate::syntax::Command {
        kind: crate::syntax::CommandKind::Simple(Default::default()),
        redirects: Vec::new(),
        line: sh.line,
    };
    let s = replace_process(sh, |sh| match sh.builtin(name) {
        // A utility this shell also has built in (`echo`, `printf`) runs as such.
        Some(b) => sh.call_builtin(name, b, &args[i..]),
        None => sh.run_external(&c, &args[i..]),
    })?;
    Err(Flow::Exit(s))
}

/// Whether `exec name` would fail before replacing the shell (a missing or refused
/// program), leaving the shell as it was.
fn exec_fails_here(sh: &Interp, name: &str) -> bool {
    if name.contains('/') {
        exec_refusal(sh, name).is_some()
    } else {
        sh.path_search(name).is_none() && !matches!(name, "bash" | "sh" | "rbash")
    }
}

/// Runs `exec`'s command as the program that replaces this process: it runs as the
/// shell's own process, with SHLVL one lower unless inside `( )` (as bash's exec
/// lowers it), and the shell then ends without its EXIT trap.
fn replace_process(sh: &mut Interp, run: impl FnOnce(&mut Interp) -> R) -> R {
    sh.no_fork = true;
    sh.lower_on_exec = !sh.paren_subshell;
    sh.exec_builtin = true;
    let r = run(sh);
    sh.no_fork = false;
    sh.exec_builtin = false;
    sh.replaced = true;
    r
}

/// Why the kernel would refuse to run the file `name` (with a `/`): the status and
/// the error text, as exec(2) reports a missing file, a directory or one without
/// execute permission.
fn exec_refusal(sh: &Interp, name: &str) -> Option<(i32, String)> {
    let path = crate::fs::path::join(&sh.cwd, name);
    let fs = sh.fs.lock();
    match fs.stat(&path) {
        Err(e) => Some((
            if e.errno == crate::fs::Errno::ENOENT {
                127
            } else {
                126
            },
            e.to_string(),
        )),
        Ok(m) if m.file_type == crate::fs::FileType::Dir => {
            Some((126, "Is a directory".to_owned()))
        }
        Ok(_) if fs.access(&path, false, false, true).is_err() => {
            Some((126, "Permission denied".to_owned()))
        }
        Ok(_) => None,
    }
}

/// Marks a variable as exported (helper for other builtins).
pub fn mark_export(sh: &mut Interp, name: &str) {
    sh.vars.entry(name, false).attrs.set(Attrs::EXPORT, true);
}
