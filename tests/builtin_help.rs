#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! The help of the shell builtins: `help [-dms] [pattern ...]` and `NAME --help`.
//! Every builtin (as `compgen -b` lists the builtin table) must have a topic, so a new
//! builtin without help fails here. The descriptions are shellbox's own words; the
//! synopsis lines and the layout of the topic list are bash's, which
//! `CONFIRM_BASH=1` checks against `/bin/bash`.

mod common;

use common::run;

fn builtins() -> Vec<String> {
    let names: Vec<String> = run("compgen -b").1.lines().map(str::to_owned).collect();
    assert!(names.len() > 50, "compgen -b lists {names:?}");
    names
}

/// Builtins that take `--help` as an ordinary argument in bash too.
const NO_HELP_OPTION: &[&str] = &[":", "[", "bind", "echo", "false", "test", "true"];

#[test]
fn every_builtin_has_a_topic_with_its_synopsis_and_description() {
    for name in builtins() {
        let (status, out, err) = run(&format!("help -s '{name}'; help -d '{name}'"));
        assert_eq!((status, err.as_str()), (0, ""), "help {name}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2, "help -s/-d {name}: {out:?}");
        assert!(lines[0].starts_with(&format!("{name}: ")), "{out:?}");
        assert!(lines[1].starts_with(&format!("{name} - ")), "{out:?}");
        assert!(lines[1].len() < 80, "{name}: description too long");
    }
}

#[test]
fn builtin_dash_dash_help_prints_the_topic_with_status_2() {
    for name in builtins() {
        if NO_HELP_OPTION.contains(&name.as_str()) {
            continue;
        }
        let (status, out, err) = run(&format!("'{name}' --help"));
        assert_eq!((status, err.as_str()), (2, ""), "{name} --help");
        let (_, topic, _) = run(&format!("help '{name}'"));
        assert_eq!(out, topic, "{name} --help");
        assert!(out.lines().count() >= 3, "{name}: help too short: {out:?}");
        for line in out.lines().skip(1) {
            assert!(line.starts_with("    "), "{name}: unindented {line:?}");
        }
    }
}

#[test]
fn help_forms() {
    for (script, want_out, want_status) in [
        ("help -s cd", "cd: cd [-L|[-P [-e]] [-@]] [dir]\n", 0),
        ("help -d cd", "cd - Change the working directory.\n", 0),
        ("help -ds cd", "cd - Change the working directory.\n", 0),
        (
            "help -s read",
            "read: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]\n",
            0,
        ),
        // No exact or glob match: names starting with the word.
        (
            "help -s reado",
            "readonly: readonly [-aAf] [name[=value] ...] or readonly -p\n",
            0,
        ),
        (
            "help -s 'c?' pw",
            "Shell commands matching keywords `c?, pw'\n\ncd: cd [-L|[-P [-e]] [-@]] [dir]\npwd: pwd [-LP]\n",
            0,
        ),
        ("help -s -- '['", "[: [ arg... ]\n", 0),
        ("help -s nosuch cd", "cd: cd [-L|[-P [-e]] [-@]] [dir]\n", 0),
        (
            "help -s 'for (('",
            "for ((: for (( exp1; exp2; exp3 )); do COMMANDS; done\n",
            0,
        ),
        ("echo --help", "--help\n", 0),
        ("true --help", "", 0),
        ("builtin pwd --help | head -1", "pwd: pwd [-LP]\n", 0),
        ("command pwd --help | head -1", "pwd: pwd [-LP]\n", 0),
        (
            "history -c --help | head -1",
            "history: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]\n",
            0,
        ),
        ("cd -- --help 2>/dev/null", "", 1),
    ] {
        let (status, out, _) = run(script);
        assert_eq!((out.as_str(), status), (want_out, want_status), "{script}");
    }
    let (status, out, _) = run("help -m cd");
    assert_eq!(status, 0);
    assert!(
        out.starts_with(
            "NAME\n    cd - Change the working directory.\n\nSYNOPSIS\n    cd [-L|[-P [-e]] [-@]] [dir]\n\nDESCRIPTION\n    Change the working directory.\n"
        ),
        "{out}"
    );
}

#[test]
fn help_errors() {
    assert_eq!(
        run("help nosuch"),
        (
            1,
            String::new(),
            "bash: line 1: help: no help topics match `nosuch'.  Try `help help' or `man -k nosuch' or `info nosuch'.\n"
                .to_owned()
        )
    );
    // The message names the last pattern.
    assert_eq!(
        run("help -s x1 x2").2,
        "bash: line 1: help: no help topics match `x2'.  Try `help help' or `man -k x2' or `info x2'.\n"
    );
    assert_eq!(
        run("help -x cd"),
        (
            2,
            String::new(),
            "bash: line 1: help: -x: invalid option\nhelp: usage: help [-dms] [pattern ...]\n"
                .to_owned()
        )
    );
    // bind's option loop has no case for --help: a usage error after its warning.
    let (status, out, err) = run("bind --help");
    assert_eq!((status, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "bash: line 1: bind: warning: line editing not enabled\nbind: usage: bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]\n"
    );
}

#[test]
fn topic_list_is_two_columns_cut_with_a_marker() {
    let (status, out, _) = run("help");
    assert_eq!(status, 0);
    let table: Vec<&str> = out.lines().skip_while(|l| !l.is_empty()).collect();
    assert!(
        out.contains(
            "\n job_spec [&]                            history [-c] [-d offset] [n] or hist>\n"
        ),
        "{out}"
    );
    assert!(out.ends_with(" help [-dms] [pattern ...]               { COMMANDS ; }\n"));
    assert!(table.len() > 38);
}

fn bash(script: &str, columns: Option<&str>) -> String {
    let mut cmd = std::process::Command::new("/bin/bash");
    cmd.arg("-c")
        .arg(script)
        .env_clear()
        .env("LC_ALL", "C.UTF-8");
    if let Some(c) = columns {
        cmd.env("COLUMNS", c);
    }
    let out = cmd.output().expect("run /bin/bash");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn confirm() -> bool {
    std::env::var("CONFIRM_BASH").is_ok_and(|v| v == "1")
}

/// Every synopsis (and the set and order of topics) is bash's.
#[test]
fn synopses_match_bash() {
    if !confirm() {
        return;
    }
    assert_eq!(run("help -s ''").1, bash("help -s ''", None));
}

/// The topic list (below the introduction, which is our own text) is laid out as
/// bash lays it out, at several widths.
#[test]
fn topic_list_layout_matches_bash() {
    if !confirm() {
        return;
    }
    let table = |s: &str| -> String {
        s.lines()
            .skip_while(|l| !l.starts_with(" job_spec"))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    for cols in ["80", "50", "61", "7", "300"] {
        let ours = run(&format!("COLUMNS={cols}; help")).1;
        assert_eq!(
            table(&ours),
            table(&bash("help", Some(cols))),
            "COLUMNS={cols}"
        );
    }
}
