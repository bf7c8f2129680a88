#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! Issue 25: an error written to a redirected file never deadlocks the interpreter.
//! `source nofile 2>err.txt` once froze the whole run: the filesystem's lock was still
//! held (a `match` on `fs.lock().read_file(..)`) when the error went to `err.txt`,
//! whose write takes that lock again. Every builtin's and utility's error paths run
//! here with stderr redirected to a file, each under a watchdog: a case that hangs
//! fails the test instead of hanging it.

use std::sync::mpsc;
use std::time::Duration;

use shellbox::{Limits, Shell};

/// How long one case may take before it counts as a deadlock.
const WATCHDOG: Duration = Duration::from_secs(20);

/// Arguments that reach an error in most builtins and utilities: a bad option, a
/// missing file, a path under a missing directory, a bad number, a division by zero.
const BAD_ARGS: &[&str] = &[
    "--bogus-option",
    "nofile",
    "/no/such/dir/x",
    "-z nofile 1/0",
];

fn limits() -> Limits {
    let mut l = Limits::hardened();
    // A utility that runs on (`yes nofile`) ends at the deadline, well inside the
    // watchdog's time; a deadlocked one cannot.
    l.timeout = Some(Duration::from_secs(2));
    l
}

/// Runs `script` on a thread of its own; `None` if it did not end within [`WATCHDOG`].
fn run_watched(script: String) -> Option<(i32, Vec<u8>)> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut sh = Shell::builder().limits(limits()).build();
        let out = sh.exec(&script);
        let _ = tx.send((out.exit_code, out.stdout));
    });
    rx.recv_timeout(WATCHDOG).ok()
}

/// Names a script lists with `compgen FLAG` (`-b` builtins, `-c` commands).
fn listed(flag: &str) -> Vec<String> {
    let (status, out) = run_watched(format!("compgen {flag}")).expect("compgen hung");
    assert_eq!(status, 0);
    let mut names: Vec<String> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Runs `name` with each of [`BAD_ARGS`], stderr to a file, and fails on a hang.
fn check_all(names: &[String]) {
    let mut hung = Vec::new();
    for name in names {
        for args in BAD_ARGS {
            let script = format!(
                "{name} {args} </dev/null >/dev/null 2>err.txt\n\
                 {{ {name} {args}; }} </dev/null >/dev/null 2>>err.txt\n\
                 echo ended"
            );
            if run_watched(script).is_none() {
                hung.push(format!("{name} {args}"));
            }
        }
    }
    assert!(
        hung.is_empty(),
        "these hung with stderr in a file: {hung:?}"
    );
}

#[test]
fn source_and_bash_of_a_missing_file_report_to_a_redirected_stderr() {
    for (script, message) in [
        (
            "source nofile 2>err.txt",
            "bash: line 1: nofile: No such file or directory\n",
        ),
        (
            ". nofile 2>err.txt",
            "bash: line 1: nofile: No such file or directory\n",
        ),
        (
            "bash nofile 2>err.txt",
            "bash: nofile: No such file or directory\n",
        ),
        (
            "exec 2>err.txt; source nofile",
            "bash: line 1: nofile: No such file or directory\n",
        ),
    ] {
        let full = format!("{script}\necho status $?\ncat err.txt");
        let (status, out) = run_watched(full).unwrap_or_else(|| panic!("{script:?} deadlocked"));
        assert_eq!(status, 0, "{script}");
        let out = String::from_utf8(out).unwrap();
        let want_status = if script.starts_with("bash") { 127 } else { 1 };
        assert_eq!(out, format!("status {want_status}\n{message}"), "{script}");
    }
}

#[test]
fn every_builtins_errors_go_to_a_redirected_stderr_without_a_hang() {
    let names = listed("-b");
    assert!(names.len() > 50, "compgen -b listed {names:?}");
    check_all(&names);
}

#[test]
fn every_utilitys_errors_go_to_a_redirected_stderr_without_a_hang() {
    let builtins = listed("-b");
    let names: Vec<String> = listed("-c")
        .into_iter()
        .filter(|n| {
            !builtins.contains(n)
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.[".contains(c))
        })
        .filter(|n| !matches!(n.as_str(), "[" | "[[" | "]]" | "{" | "}" | "!"))
        .collect();
    assert!(names.len() > 50, "compgen -c listed {names:?}");
    check_all(&names);
}
