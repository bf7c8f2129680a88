#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! Every utility of issue 5 answers `--help` (status 0, the text on stdout, nothing on
//! stderr), and the texts shellbox writes itself (they list only what it supports, so
//! they cannot be confirmed against the real tools byte for byte) start with the real
//! tool's usage line.

mod common;

use common::run;

/// The utilities of issue 5 that are not shell builtins (`pwd printf echo true false
/// test time` are, and `which` is debianutils' which, which has no `--help`).
const UTILITIES: &[&str] = &[
    "ls",
    "cat",
    "tac",
    "head",
    "tail",
    "touch",
    "mkdir",
    "rmdir",
    "rm",
    "cp",
    "mv",
    "ln",
    "chmod",
    "stat",
    "du",
    "df",
    "tree",
    "find",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "mktemp",
    "truncate",
    "file",
    "split",
    "tee",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "sed",
    "awk",
    "sort",
    "uniq",
    "wc",
    "cut",
    "paste",
    "join",
    "comm",
    "tr",
    "rev",
    "nl",
    "fold",
    "expand",
    "unexpand",
    "column",
    "fmt",
    "od",
    "strings",
    "diff",
    "cmp",
    "seq",
    "shuf",
    "yes",
    "jq",
    "base64",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "cksum",
    "tar",
    "gzip",
    "gunzip",
    "zcat",
    "env",
    "printenv",
    "date",
    "sleep",
    "timeout",
    "xargs",
    "whoami",
    "hostname",
    "uname",
    "id",
    "nproc",
    "expr",
    "bc",
];

#[test]
fn every_utility_answers_help_on_stdout_with_status_0() {
    for name in UTILITIES {
        let (status, out, err) = run(&format!("{name} --help </dev/null"));
        assert_eq!(status, 0, "{name} --help: status");
        assert_eq!(err, "", "{name} --help: stderr");
        assert!(
            out.lines().any(|l| l.to_lowercase().starts_with("usage:")),
            "{name} --help: no usage line in {out:?}"
        );
    }
}

#[test]
fn own_help_texts_start_with_the_real_tools_usage_line() {
    for (script, first) in [
        (
            "find --help",
            "Usage: find [-H] [-L] [-P] [path...] [expression]",
        ),
        (
            "awk --help",
            "Usage: awk [POSIX or GNU style options] -f progfile [--] file ...",
        ),
        (
            "awk -h",
            "Usage: awk [POSIX or GNU style options] -f progfile [--] file ...",
        ),
        (
            "tree --help",
            "usage: tree [-adfiF] [-L level] [-P pattern] [-I pattern] [--noreport] [--dirsfirst]",
        ),
        ("jq --help", "jq - commandline JSON processor (shellbox)"),
        ("jq -h", "jq - commandline JSON processor (shellbox)"),
        ("jq -ch", "jq - commandline JSON processor (shellbox)"),
        (
            "rg --help",
            "ripgrep (rg) recursively searches the current directory for a regex pattern.",
        ),
        (
            "rg -h",
            "ripgrep (rg) recursively searches the current directory for a regex pattern.",
        ),
    ] {
        let (status, out, err) = run(script);
        assert_eq!((status, err.as_str()), (0, ""), "{script}");
        assert_eq!(out.lines().next(), Some(first), "{script}");
    }
}

#[test]
fn find_help_stops_parsing_but_not_earlier_errors() {
    assert_eq!(
        run("find . -name x --help | head -1").1,
        "Usage: find [-H] [-L] [-P] [path...] [expression]\n"
    );
    assert_eq!(
        run("find . -name x \\( --help \\) | head -1").1,
        "Usage: find [-H] [-L] [-P] [path...] [expression]\n"
    );
    let (status, out, err) = run("find . -bogus --help");
    assert_eq!((status, out.as_str()), (1, ""));
    assert_eq!(err, "find: unknown predicate `-bogus'\n");
}

#[test]
fn tree_usage_error_shows_the_synopsis() {
    let (status, out, err) = run("tree -Z");
    assert_eq!((status, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "tree: invalid option -- 'Z'\nusage: tree [-adfiF] [-L level] [-P pattern] [-I pattern] [--noreport] [--dirsfirst]\n\t[--help] [--] [directory ...]\n"
    );
}

#[test]
fn jq_double_dash_may_come_before_the_filter() {
    // jq 1.7 accepts `jq -- FILTER`; 1.6 printed its usage.
    assert_eq!(run("echo '[1]' | jq -c -- .").1, "[1]\n");
}

#[test]
fn cp_mv_ln_help_describe_backups() {
    for name in ["cp", "mv", "ln"] {
        let (_, out, _) = run(&format!("{name} --help"));
        for line in [
            "--backup[=CONTROL]",
            "-S, --suffix=SUFFIX",
            "  existing, nil   numbered if numbered backups exist, simple otherwise",
        ] {
            assert!(out.contains(line), "{name} --help lacks {line:?}");
        }
    }
}
