//! `type` and `command -v`/`-V` (bash manual, "Bash Builtins"): one lookup, the walk
//! bash's `describe_command` makes through aliases, keywords, functions, builtins, the
//! hash table and PATH, with each caller choosing how a match is shown.

use super::super::{Interp, R};

/// Reserved words, as `type` knows them.
const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do",
    "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc",
];

/// How a match is shown.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Show {
    /// `ls is /usr/bin/ls` (`type`, `command -V`).
    Sentence,
    /// One word: `alias`, `keyword`, `function`, `builtin` or `file` (`type -t`).
    Kind,
    /// A name to reuse: the alias definition, the name, or the file (`command -v`).
    Reusable,
    /// Only files, as paths (`type -p`, `type -P`).
    PathOnly,
}

/// What to look at and how to show it.
#[derive(Clone, Copy)]
struct Ask {
    show: Show,
    /// Every match, not just the first (`-a`).
    all: bool,
    /// Skip functions (`type -f`).
    no_funcs: bool,
    /// Only files, even for names that are aliases, functions or builtins (`type -P`).
    force_path: bool,
    /// Relative file paths made absolute (`command -V`).
    abs_path: bool,
    /// Search the standard path instead of PATH (`command -p`).
    std_path: bool,
}

/// The directories `command -p` searches (`getconf PATH`).
const STANDARD_PATH: &str = "/bin:/usr/bin";

/// Looks `name` up as `ask` says, appending what it shows to `out`; whether anything
/// was found.
fn describe(sh: &mut Interp, name: &str, ask: Ask, out: &mut String) -> bool {
    let mut found = false;
    let line = |out: &mut String, text: &str| {
        out.push_str(text);
        out.push('\n');
    };
    let expand_aliases = sh
        .shopt
        .has(const { crate::interp::Shopts::flag("expand_aliases") });
    if !ask.force_path
        && expand_aliases
        && let Some(value) = sh.aliases.get(name)
    {
        match ask.show {
            Show::Kind => line(out, "alias"),
            Show::Sentence => line(out, &format!("{name} is aliased to `{value}'")),
            Show::Reusable => line(out, &format!("alias {name}={}", super::single_quote(value))),
            Show::PathOnly => {}
        }
        if !ask.all {
            return true;
        }
        found = true;
    }
    let named = |out: &mut String, kind: &str, sentence: &str| {
        match ask.show {
            Show::Kind => line(out, kind),
            Show::Sentence => line(out, &format!("{name} is {sentence}")),
            Show::Reusable => line(out, name),
            Show::PathOnly => {}
        };
    };
    if !ask.force_path && KEYWORDS.contains(&name) {
        named(out, "keyword", "a shell keyword");
        if !ask.all {
            return true;
        }
        found = true;
    }
    if !ask.force_path
        && !ask.no_funcs
        && let Some(f) = sh.funcs.get(name)
    {
        if ask.show == Show::Sentence {
            let body = crate::syntax::printer::function_to_string(f);
            line(out, &format!("{name} is a function\n{body}"));
        } else {
            named(out, "function", "");
        }
        if !ask.all {
            return true;
        }
        found = true;
    }
    if !ask.force_path && sh.builtin(name).is_some() {
        if sh.set.posix && super::is_special_name(name) {
            named(out, "builtin", "a special shell builtin");
        } else {
            named(out, "builtin", "a shell builtin");
        }
        if !ask.all {
            return true;
        }
        found = true;
    }
    let file = |out: &mut String, path: &str| match ask.show {
        Show::Kind => line(out, "file"),
        Show::Sentence => line(out, &format!("{name} is {path}")),
        Show::Reusable | Show::PathOnly => line(out, path),
    };
    // A name with a slash is never looked up in the hash table or PATH.
    if name.contains('/') && executable(sh, name) {
        file(out, name);
        return true;
    }
    if (!ask.all || ask.force_path)
        && let Some(path) = hashed(sh, name)
    {
        match ask.show {
            Show::Kind => line(out, "file"),
            Show::Sentence => line(out, &format!("{name} is hashed ({path})")),
            Show::Reusable | Show::PathOnly => line(out, &path),
        }
        return true;
    }
    let paths = if ask.std_path {
        find_in_path(sh, name, STANDARD_PATH).into_iter().collect()
    } else if !ask.all {
        find_user_command(sh, name).into_iter().collect()
    } else {
        user_command_matches(sh, name)
    };
    for path in paths {
        // A name found as itself (PATH unset or empty) must be executable, and is
        // shown from the current directory.
        let path = if path == name || sh.set.posix {
            if !executable(sh, &path) {
                if !ask.all {
                    break;
                }
                continue;
            }
            if path.starts_with('/') {
                path
            } else {
                from_cwd(sh, &path, ask.abs_path)
            }
        } else if ask.abs_path && !path.starts_with('/') {
            from_cwd(sh, &path, true)
        } else {
            path
        };
        file(out, &path);
        found = true;
        if !ask.all {
            break;
        }
    }
    found
}

/// `path` made absolute from the current directory, with a leading `./` dropped when
/// `drop_dot` (bash's `sh_makepath` with `MP_DOCWD`).
fn from_cwd(sh: &Interp, path: &str, drop_dot: bool) -> String {
    let path = if drop_dot {
        path.strip_prefix("./").unwrap_or(path)
    } else {
        path
    };
    if sh.cwd.ends_with('/') {
        format!("{}{path}", sh.cwd)
    } else {
        format!("{}/{path}", sh.cwd)
    }
}

/// What a file at `path` (relative to the current directory) is, for the search:
/// `None` when it is missing or a directory, else whether it is executable.
fn file_status(sh: &Interp, path: &str) -> Option<bool> {
    let full = crate::fs::path::join(&sh.cwd, path);
    let fs = sh.fs.lock();
    let meta = fs.stat(&full).ok()?;
    if meta.file_type == crate::fs::FileType::Dir {
        return None;
    }
    // The inode found, not the path walked again: every command a script runs from
    // PATH comes through here, once per directory searched.
    Some(fs.access_ino(meta.ino, false, false, true).is_ok())
}

pub(crate) fn executable(sh: &Interp, path: &str) -> bool {
    file_status(sh, path) == Some(true)
}

/// A command's remembered location, as bash's `phash_search` gives it: a relative one
/// as `./path` when that runs, and none when it names the current directory but has
/// gone. Every lookup that finds the entry counts as a hit, as running it does.
pub(super) fn hashed(sh: &mut Interp, name: &str) -> Option<String> {
    let entry = sh.hash.get(name)?.clone();
    let path = entry.path.clone();
    sh.hash.insert(
        name.to_owned(),
        super::super::Hashed {
            hits: entry.hits.saturating_add(1),
            ..entry
        },
    );
    if path.starts_with('/') {
        return Some(path);
    }
    let dotted = if path.starts_with("./") {
        path.clone()
    } else {
        format!("./{path}")
    };
    if executable(sh, &dotted) {
        return Some(dotted);
    }
    if path.starts_with('.')
        && let Some((dir, _)) = path.rsplit_once('/')
    {
        let here = crate::fs::path::join(&sh.cwd, dir) == sh.cwd;
        return if here { None } else { Some(path) };
    }
    Some(path)
}

/// The directories of a PATH value as bash reads them: an empty entry (leading,
/// trailing or doubled colon) is `.`, and a leading `~` is expanded.
fn path_dirs(sh: &Interp, path: &str) -> Vec<String> {
    if path.is_empty() {
        return Vec::new();
    }
    path.split(':')
        .map(|dir| {
            if dir.is_empty() {
                ".".to_owned()
            } else if let Some(rest) = dir.strip_prefix('~') {
                let (user, tail) = match rest.find('/') {
                    Some(i) => (&rest[..i], &rest[i..]),
                    None => (rest, ""),
                };
                let home = match user {
                    "" => sh.get_str("HOME").or_else(|| Some("/home/user".to_owned())),
                    "root" => Some("/root".to_owned()),
                    "user" => Some("/home/user".to_owned()),
                    _ => None,
                };
                match home {
                    Some(h) => format!("{h}{tail}"),
                    None => dir.to_owned(),
                }
            } else {
                dir.to_owned()
            }
        })
        .collect()
}

/// `dir/name`, with no second slash when `dir` ends with one.
fn in_dir(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// The first executable `name` in `path`, else the first file of that name that
/// is not executable (bash's `FS_EXEC_PREFERRED`); directories never match.
fn find_in_path(sh: &Interp, name: &str, path: &str) -> Option<String> {
    let mut fallback = None;
    for dir in path_dirs(sh, path) {
        let full = in_dir(&dir, name);
        match file_status(sh, &full) {
            Some(true) => return Some(full),
            Some(false) if fallback.is_none() => fallback = Some(full),
            _ => {}
        }
    }
    fallback
}

/// The file of `name` a PATH search falls back on when none is executable: the first
/// that is not (bash runs it, and the exec fails).
pub(crate) fn path_non_executable(sh: &Interp, name: &str) -> Option<String> {
    let path = sh.get_str("PATH").filter(|p| !p.is_empty())?;
    find_in_path(sh, name, &path).filter(|p| file_status(sh, p) == Some(false))
}

/// Where `name` would be run from, by a search of PATH (not the hash table); with
/// PATH unset or empty, the name itself (bash's `find_user_command`).
fn find_user_command(sh: &Interp, name: &str) -> Option<String> {
    match sh.get_str("PATH") {
        Some(path) if !path.is_empty() => find_in_path(sh, name, &path),
        _ => Some(name.to_owned()),
    }
}

/// Every executable `name` in PATH, in order (bash's `user_command_matches`).
fn user_command_matches(sh: &Interp, name: &str) -> Vec<String> {
    let path = sh.get_str("PATH").unwrap_or_default();
    path_dirs(sh, &path)
        .iter()
        .map(|dir| in_dir(dir, name))
        .filter(|full| executable(sh, full))
        .collect()
}

/// `type [-afptP] name ...`.
pub fn type_(sh: &mut Interp, args: &[String]) -> R {
    // bash still takes the old long spellings among the leading options.
    let mut args = args.to_vec();
    for a in args.iter_mut().skip(1) {
        if !a.starts_with('-') {
            break;
        }
        match a.as_str() {
            "-type" | "--type" => *a = "-t".to_owned(),
            "-path" | "--path" => *a = "-p".to_owned(),
            "-all" | "--all" => *a = "-a".to_owned(),
            _ => {}
        }
    }
    let (letters, start) = match super::letter_options(
        sh,
        "type",
        &args,
        "afptP",
        "type: usage: type [-afptP] name [name ...]",
    ) {
        Ok(x) => x,
        Err(status) => return Ok(status),
    };
    let mut ask = Ask {
        show: Show::Sentence,
        all: false,
        no_funcs: false,
        force_path: false,
        abs_path: false,
        std_path: false,
    };
    // The last of -t, -p and -P says how matches are shown.
    for c in letters.chars() {
        match c {
            'a' => ask.all = true,
            'f' => ask.no_funcs = true,
            't' => ask.show = Show::Kind,
            'p' => ask.show = Show::PathOnly,
            _ => {
                ask.show = Show::PathOnly;
                ask.force_path = true;
            }
        }
    }
    let mut failed = false;
    for name in &args[start..] {
        let mut out = String::new();
        let found = describe(sh, name, ask, &mut out);
        sh.out(out.as_bytes())?;
        if !found {
            failed = true;
            if ask.show == Show::Sentence {
                sh.builtin_error("type", &format!("{name}: not found"));
            }
        }
    }
    Ok(i32::from(failed))
}

/// `command -v` (`verbose` false) or `command -V` on each name; status 0 when any
/// was found.
pub fn command_describe(sh: &mut Interp, names: &[String], verbose: bool, std_path: bool) -> R {
    let ask = Ask {
        show: if verbose {
            Show::Sentence
        } else {
            Show::Reusable
        },
        all: false,
        no_funcs: false,
        force_path: false,
        abs_path: verbose,
        std_path,
    };
    // Nothing asked about is nothing missing.
    let mut any = names.is_empty();
    for name in names {
        let mut out = String::new();
        let found = describe(sh, name, ask, &mut out);
        sh.out(out.as_bytes())?;
        if found {
            any = true;
        } else if verbose {
            sh.builtin_error("command", &format!("{name}: not found"));
        }
    }
    Ok(if any { 0 } else { 1 })
}

/// The first executable `name` in PATH, spelled as PATH gives it (maybe relative):
/// where a command runs from. With PATH unset or empty, bash looks in the current
/// directory.
pub(crate) fn path_executable(sh: &Interp, name: &str) -> Option<String> {
    match sh.get_str("PATH") {
        Some(path) if !path.is_empty() => path_dirs(sh, &path)
            .iter()
            .map(|dir| in_dir(dir, name))
            .find(|full| executable(sh, full)),
        _ => Some(name.to_owned()).filter(|n| executable(sh, n)),
    }
}
