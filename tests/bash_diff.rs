#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! Differential property test against real bash (issue 6), behind `CONFIRM_BASH=1`:
//! scripts generated from a small grammar of words, expansions, arithmetic and control
//! flow must give `/bin/bash`'s stdout and exit status.
//!
//! `CONFIRM_BASH=1 cargo test --release --test bash_diff`

use std::process::Command;

use proptest::prelude::*;
use shellbox::{Limits, Shell};

fn var() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "n", "u"]).prop_map(str::to_owned)
}

fn lit() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["x", "hello", "1", "two words", "", "a*b", "-n", "3"])
        .prop_map(str::to_owned)
}

/// An arithmetic expression over small numbers and the variables.
fn arith() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![(0i64..20).prop_map(|n| n.to_string()), var()];
    leaf.prop_recursive(3, 12, 2, |inner| {
        (
            inner.clone(),
            prop::sample::select(vec!["+", "-", "*", "<", "==", "&&", "||", "%", "/"]),
            inner,
        )
            .prop_map(|(a, op, b)| {
                if op == "%" || op == "/" {
                    // Keep divisors non-zero.
                    format!("({a}) {op} (({b}) * 0 + 3)")
                } else {
                    format!("({a}) {op} ({b})")
                }
            })
    })
}

/// A word: literal text, parameter expansions, arithmetic, quoting.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        lit().prop_map(|l| format!("'{l}'")),
        var().prop_map(|v| format!("${v}")),
        var().prop_map(|v| format!("\"${v}\"")),
        (var(), lit()).prop_map(|(v, l)| format!("\"${{{v}:-{l}}}\"")),
        (var(), lit()).prop_map(|(v, l)| format!("${{{v}+{l}}}")),
        var().prop_map(|v| format!("${{#{v}}}")),
        var().prop_map(|v| format!("\"${{{v}^^}}\"")),
        var().prop_map(|v| format!("${{{v}%?}}")),
        arith().prop_map(|e| format!("$(({e}))")),
        lit().prop_map(|l| format!("\"$(echo '{l}')\"")),
        Just("{1..3}".to_owned()),
        Just("x{a,b}y".to_owned()),
    ]
}

/// A command, possibly compound.
fn command() -> impl Strategy<Value = String> {
    let simple = prop_oneof![
        prop::collection::vec(word(), 1..4).prop_map(|w| format!("echo {}", w.join(" "))),
        prop::collection::vec(word(), 1..3)
            .prop_map(|w| format!("printf '[%s]' {}; echo", w.join(" "))),
        (var(), word()).prop_map(|(v, w)| format!("{v}={w}")),
        (var(), arith()).prop_map(|(v, e)| format!("(( {v} = {e} )) || :")),
        Just("false".to_owned()),
        Just("true".to_owned()),
        var().prop_map(|v| format!("unset {v}")),
    ];
    simple.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            (arith(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("if (( {c} )); then {a}; else {b}; fi")),
            (prop::collection::vec(word(), 1..3), inner.clone()).prop_map(|(w, b)| format!(
                "for i in {}; do {b}; echo \"<$i>\"; done",
                w.join(" ")
            )),
            (var(), inner.clone()).prop_map(|(v, b)| format!(
                "c=0; while (( c < 3 )); do {b}; c=$((c+1)); done; echo ${{{v}:-none}}"
            )),
            (word(), inner.clone(), inner.clone())
                .prop_map(|(w, a, b)| format!("case {w} in 1|x*) {a};; *) {b};; esac")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} && {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} || {b}")),
            inner.clone().prop_map(|a| format!("( {a} )")),
            inner
                .clone()
                .prop_map(|a| format!("x=$( {a} ); echo \"[$x]\"")),
            inner.prop_map(|a| format!("f() {{ {a}; }}; f")),
        ]
    })
}

fn script() -> impl Strategy<Value = String> {
    prop::collection::vec(command(), 1..5)
        .prop_map(|cmds| format!("a=5; b='b c'; n=0\n{}\n", cmds.join("\n")))
}

fn shellbox(script: &str) -> (String, i32) {
    let mut l = Limits::default();
    l.timeout = Some(std::time::Duration::from_secs(10));
    let mut sh = Shell::builder().limits(l).build();
    let o = sh.exec(script);
    (String::from_utf8_lossy(&o.stdout).into_owned(), o.exit_code)
}

fn bash(script: &str) -> (String, i32) {
    let dir = std::env::temp_dir().join(format!("shellbox-bash-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let o = Command::new("/bin/bash")
        .args(["-c", script])
        .current_dir(&dir)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("LC_ALL", "C")
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("BASH_DIFF_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(200)
    ))]

    #[test]
    fn generated_scripts_match_bash(src in script()) {
        if std::env::var("CONFIRM_BASH").is_err() {
            return Ok(());
        }
        let want = bash(&src);
        let got = shellbox(&src);
        prop_assert_eq!(got, want, "script:\n{}", src);
    }
}
