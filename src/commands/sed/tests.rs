//! Table tests for sed; expectations recorded from GNU sed 4.9 (`LC_ALL=C`).
#![allow(clippy::unwrap_used, clippy::panic)]

use crate::commands::testing::{fs_with, run_in};

const FILES: &[(&str, &str)] = &[
    ("f1", "a\nb\n"),
    ("f2", "c\nd\n"),
    ("n", "one\ntwo\nthree\nfour\nfive\n"),
    ("r.txt", "R1\nR2\n"),
    ("s.sed", "s/a/A/\n# comment\n2d\n"),
];

/// Runs `line` (and a trailing `; cat FILES` to show results) over fresh files.
fn check(line: &str, stdin: &str, want_out: &str, want_err: &str, want_status: i32) {
    let fs = fs_with(FILES);
    let (cmd, cat) = match line.split_once("; cat ") {
        Some((c, rest)) => (c, Some(format!("cat {rest}"))),
        None => (line, None),
    };
    let (mut out, err, status) = run_in(&fs, cmd, stdin.as_bytes());
    if let Some(cat) = cat {
        let (more, _, _) = run_in(&fs, &cat, b"");
        out.extend_from_slice(&more);
    }
    assert_eq!(
        (String::from_utf8_lossy(&out).as_ref(), err.as_str(), status),
        (want_out, want_err, want_status),
        "\ncommand: {line}\nstdin: {stdin:?}"
    );
}

#[test]
fn sed_matches_gnu() {
    for (line, stdin, out, err, status) in [
        ("sed p", "a\nb\n", "a\na\nb\nb\n", "", 0),
        (
            "sed 's/[ \\t]\\+/_/g'",
            "a\tb\\c  tt\n",
            "a_b\\c_tt\n",
            "",
            0,
        ),
        (
            "sed 's/[\\t]/X/g; s/[\\\\]/Y/'",
            "a\tb\\c\n",
            "aXbYc\n",
            "",
            0,
        ),
        ("sed 'N;s/[\\n]/Z/'", "a\nb\n", "aZb\n", "", 0),
        ("sed -n p", "a\nb\n", "a\nb\n", "", 0),
        ("sed -n 2p n", "", "two\n", "", 0),
        ("sed -n '$p' n", "", "five\n", "", 0),
        ("sed '2,4d' n", "", "one\nfive\n", "", 0),
        ("sed -n '/two/,/four/p' n", "", "two\nthree\nfour\n", "", 0),
        ("sed -n '2,+2p' n", "", "two\nthree\nfour\n", "", 0),
        ("sed -n '2,~4p' n", "", "two\nthree\nfour\n", "", 0),
        ("sed -n '0~2p' n", "", "two\nfour\n", "", 0),
        ("sed -n '1~3p' n", "", "one\nfour\n", "", 0),
        ("sed '0,/o/d' n", "", "two\nthree\nfour\nfive\n", "", 0),
        ("sed '1,/o/d' n", "", "three\nfour\nfive\n", "", 0),
        ("sed -n '/t/!p' n", "", "one\nfour\nfive\n", "", 0),
        ("sed -n '$=' f1 f2", "", "4\n", "", 0),
        ("sed -s -n '$=' f1 f2", "", "2\n2\n", "", 0),
        ("sed -n '\\%th%p' n", "", "three\n", "", 0),
        ("sed -n '/TWO/Ip' n", "", "two\n", "", 0),
        ("sed 's/o/0/' n", "", "0ne\ntw0\nthree\nf0ur\nfive\n", "", 0),
        (
            "sed 's/o/0/g' n",
            "",
            "0ne\ntw0\nthree\nf0ur\nfive\n",
            "",
            0,
        ),
        (
            "sed 's/o/0/2' n",
            "",
            "one\ntwo\nthree\nfour\nfive\n",
            "",
            0,
        ),
        ("sed 's/a/x/2g'", "aaa bbb\n", "axx bbb\n", "", 0),
        ("sed 's/a*/x/g'", "baaac\n", "xbxcx\n", "", 0),
        ("sed 's/x*/-/g'", "abc\n", "-a-b-c-\n", "", 0),
        (
            "sed -E 's/(\\w+) (\\w+)/\\2 \\1/'",
            "hello world\n",
            "world hello\n",
            "",
            0,
        ),
        (
            "sed 's/\\(\\w\\+\\) \\(\\w\\+\\)/\\u\\1 \\U\\2\\E!/'",
            "hello world\n",
            "Hello WORLD!\n",
            "",
            0,
        ),
        (
            "sed 's/.*/\\L&/; s/^./\\u&/'",
            "HELLO World\n",
            "Hello world\n",
            "",
            0,
        ),
        ("sed 's/\\(a\\)\\1/X/g'", "aaaab aab\n", "XXb Xb\n", "", 0),
        ("sed -E 's/(.)\\1/<&>/g'", "aabbcd\n", "<aa><bb>cd\n", "", 0),
        (
            "sed -n '/\\(.\\)\\1/p'",
            "ab\naa\nxyzz\n",
            "aa\nxyzz\n",
            "",
            0,
        ),
        ("sed 's/b/\\n/'", "abc\n", "a\nc\n", "", 0),
        ("sed 's/b/\\t/'", "abc\n", "a\tc\n", "", 0),
        ("sed 's|/|:|g'", "/usr/bin\n", ":usr:bin\n", "", 0),
        ("sed 's/x/a\\\nb/'", "x\n", "a\nb\n", "", 0),
        ("sed 's/\\x41/z/'", "xAx\n", "xzx\n", "", 0),
        ("sed -n 's/a/A/p'", "a\nb\n", "A\n", "", 0),
        ("sed 's/A/x/I'", "abc\n", "xbc\n", "", 0),
        ("sed 'y/abc/xyz/'", "aabbcc\n", "xxyyzz\n", "", 0),
        (
            "sed 'y/abc/xy/'",
            "a\n",
            "",
            "sed: -e expression #1, char 9: strings for `y' command are different lengths\n",
            1,
        ),
        ("sed '$!N;s/\\n/-/'", "a\nb\nc\n", "a-b\nc\n", "", 0),
        ("sed -n 'N;N;P'", "1\n2\n3\n4\n5\n6\n", "1\n4\n", "", 0),
        ("sed 'N;P;D'", "a\nb\nc\n", "a\nb\nc\n", "", 0),
        ("sed '$!d'", "a\nb\nc\n", "c\n", "", 0),
        ("sed -n 'h;n;G;p'", "a\nb\nc\nd\n", "b\na\nd\nc\n", "", 0),
        (
            "sed -n 'H;${x;s/\\n/,/g;p}'",
            "a\nb\nc\n",
            ",a,b,c\n",
            "",
            0,
        ),
        ("sed '1!G;h;$!d'", "a\nb\nc\n", "c\nb\na\n", "", 0),
        ("sed ':a;N;$!ba;s/\\n/+/g'", "1\n2\n3\n", "1+2+3\n", "", 0),
        (
            "sed -e ':a' -e 's/^.\\{1,4\\}$/ &/;ta'",
            "ab\n",
            "   ab\n",
            "",
            0,
        ),
        ("sed 's/x/y/;T;s/$/!/'", "x\nz\n", "y!\nz\n", "", 0),
        ("sed 's/x/y/;t;s/$/!/'", "x\nz\n", "y\nz!\n", "", 0),
        ("sed '2q' n", "", "one\ntwo\n", "", 0),
        ("sed '2q5' n", "", "one\ntwo\n", "", 5),
        ("sed '2Q' n", "", "one\n", "", 0),
        ("sed -n '2{p;q}' n", "", "two\n", "", 0),
        ("sed '2a hello' f1", "", "a\nb\nhello\n", "", 0),
        ("sed '2i\\   hi' f1", "", "a\n   hi\nb\n", "", 0),
        ("sed '1c\\\nchanged' f1", "", "changed\nb\n", "", 0),
        ("sed '2,3c gone' n", "", "one\ngone\nfour\nfive\n", "", 0),
        ("sed '$!{a foo\n}'", "x\ny\n", "x\nfoo\ny\n", "", 0),
        ("sed 'a\\   foo\\tbar'", "x\n", "x\n   foo\tbar\n", "", 0),
        ("sed -e 'a foo\\' -e bar", "x\n", "x\nfoo\nbar\n", "", 0),
        ("sed = f1", "", "1\na\n2\nb\n", "", 0),
        ("sed -n l", "a\tb\u{1}\\\n", "a\\tb\\001\\\\$\n", "", 0),
        ("sed -n 'l 3'", "abcdef\n", "ab\\\ncd\\\nef$\n", "", 0),
        ("sed -n -l 4 l", "abcdef\n", "abc\\\ndef$\n", "", 0),
        ("sed 1r\\ r.txt f1", "", "a\nR1\nR2\nb\n", "", 0),
        (
            "sed 'R r.txt' n",
            "",
            "one\nR1\ntwo\nR2\nthree\nfour\nfive\n",
            "",
            0,
        ),
        (
            "sed -n '/o/w out.txt' n; cat out.txt",
            "",
            "one\ntwo\nfour\n",
            "",
            0,
        ),
        (
            "sed 's/o/O/w /dev/stdout' n",
            "",
            "One\nOne\ntwO\ntwO\nthree\nfOur\nfOur\nfive\n",
            "",
            0,
        ),
        ("sed F f1", "", "f1\na\nf1\nb\n", "", 0),
        ("sed z f1", "", "\n\n", "", 0),
        ("sed -f s.sed f1", "", "A\n", "", 0),
        ("sed -i 's/a/X/' f1; cat f1", "", "X\nb\n", "", 0),
        (
            "sed -i.bak 's/a/X/' f1; cat f1 f1.bak",
            "",
            "X\nb\na\nb\n",
            "",
            0,
        ),
        ("sed -i -e '1d' f1 f2; cat f1 f2", "", "b\nd\n", "", 0),
        ("sed -z 's/\\n/,/g'", "a\nb\n", "a,b,", "", 0),
        ("sed p", "a", "a\na", "", 0),
        ("sed '$a end'", "a", "a\nend\n", "", 0),
        (
            "sed 's/a/b/' nope f1",
            "",
            "b\nb\n",
            "sed: can't read nope: No such file or directory\n",
            2,
        ),
        (
            "sed k",
            "",
            "",
            "sed: -e expression #1, char 1: unknown command: `k'\n",
            1,
        ),
        (
            "sed 's/x/y'",
            "",
            "",
            "sed: -e expression #1, char 5: unterminated `s' command\n",
            1,
        ),
        (
            "sed 's/x/y/q'",
            "",
            "",
            "sed: -e expression #1, char 7: unknown option to `s'\n",
            1,
        ),
        (
            "sed 's/\\(x\\)/\\2/'",
            "",
            "",
            "sed: -e expression #1, char 11: invalid reference \\2 on `s' command's RHS\n",
            1,
        ),
        (
            "sed '{p'",
            "",
            "",
            "sed: -e expression #1, char 0: unmatched `{'\n",
            1,
        ),
        (
            "sed 'p}'",
            "",
            "",
            "sed: -e expression #1, char 2: unexpected `}'\n",
            1,
        ),
        (
            "sed bfoo",
            "",
            "",
            "sed: can't find label for jump to `foo'\n",
            4,
        ),
        (
            "sed '/x'",
            "",
            "",
            "sed: -e expression #1, char 2: unterminated address regex\n",
            1,
        ),
        (
            "sed pq",
            "",
            "",
            "sed: -e expression #1, char 2: extra characters after command\n",
            1,
        ),
        (
            "sed 1",
            "",
            "",
            "sed: -e expression #1, char 1: missing command\n",
            1,
        ),
        (
            "sed a",
            "",
            "",
            "sed: -e expression #1, char 1: expected \\ after `a', `c' or `i'\n",
            1,
        ),
        (
            "sed :",
            "",
            "",
            "sed: -e expression #1, char 1: \":\" lacks a label\n",
            1,
        ),
        (
            "sed 1:a",
            "",
            "",
            "sed: -e expression #1, char 2: : doesn't want any addresses\n",
            1,
        ),
        (
            "sed -n '/a/,/b/{/b/!p}'",
            "x\na\ny\nb\nz\n",
            "a\ny\n",
            "",
            0,
        ),
        ("sed '#n\np'", "a\n", "a\n", "", 0),
        ("sed -n '2{n;p}' n", "", "three\n", "", 0),
        ("sed 'n;d' n", "", "one\nthree\nfive\n", "", 0),
        (
            "sed '$!n;s/^/>/' n",
            "",
            "one\n>two\nthree\n>four\n>five\n",
            "",
            0,
        ),
        ("sed -E 's/(a|b)+/X/'", "abba cd\n", "X cd\n", "", 0),
        (
            "sed 's/[[:digit:]]\\+/N/g'",
            "a1b22c333\n",
            "aNbNcN\n",
            "",
            0,
        ),
        ("sed -n '/^$/!p'", "a\n\nb\n", "a\nb\n", "", 0),
        ("sed 's/^/> /'", "a\nb\n", "> a\n> b\n", "", 0),
        ("sed 's/.$//'", "ab\r\n", "ab\n", "", 0),
        (
            "sed '2,1p' n",
            "",
            "one\ntwo\ntwo\nthree\nfour\nfive\n",
            "",
            0,
        ),
        ("sed -n '/three/,1p' n", "", "three\n", "", 0),
        ("sed -s 1d f1 f2", "", "b\nd\n", "", 0),
        ("sed 2w\\ /dev/stderr f1", "", "a\nb\n", "b\n", 0),
        ("sed 's/a.b/X/'", "a\nb\n", "a\nb\n", "", 0),
        ("sed 'N;s/a.b/X/'", "a\nb\n", "X\n", "", 0),
        ("sed 'N;s/^b/X/M'", "a\nb\n", "a\nX\n", "", 0),
        ("sed 'N;s/a$/X/Mg'", "a\na\n", "X\nX\n", "", 0),
        (
            "sed 's//x/'",
            "a\n",
            "",
            "sed: -e expression #1, char 0: no previous regular expression\n",
            1,
        ),
        ("sed -n '/a/s//X/p'", "a\nb\n", "X\n", "", 0),
        ("sed --posix 's/a/b/'", "a\n", "b\n", "", 0),
        ("sed --expression=p -n", "a\n", "a\n", "", 0),
        ("sed -n -e p -e p", "a\n", "a\na\n", "", 0),
        ("sed 's/a/b/' -i", "", "", "sed: no input files\n", 4),
    ] {
        check(line, stdin, out, err, status);
    }
}

#[test]
fn usage_without_script() {
    let fs = fs_with(&[]);
    let (_, err, status) = run_in(&fs, "sed", b"");
    assert!(err.starts_with("Usage: sed [OPTION]..."), "{err}");
    assert_eq!(status, 1);
}

#[test]
fn streams_endless_input() {
    let (out, status, _) = crate::commands::testing::run_endless("sed -n 3q;p", b"y\n", 1 << 20);
    assert_eq!((out.as_slice(), status), (&b"y\ny\n"[..], 0));
    let (out, status, _) = crate::commands::testing::run_endless("sed s/y/n/", b"y\n", 6);
    assert_eq!((out.as_slice(), status), (&b"n\nn\nn\n"[..], 141));
}

#[test]
fn pathological_backrefs_stop() {
    let fs = fs_with(&[]);
    let hay = "a".repeat(40);
    let (_, err, status) = run_in(&fs, "sed -E 's/^(a*)*\\1b$/x/'", hay.as_bytes());
    assert_eq!(
        (err.as_str(), status),
        (
            "sed: regular expression too complex to match (backtracking limit)\n",
            4
        )
    );
}
