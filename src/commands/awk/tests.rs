//! Table tests for awk. Expectations were recorded from the awk on the reference machine
//! (mawk) and, where mawk departs from gawk (`**`, integer output of large integral
//! numbers, division by zero, `%c` of a code point, messages), follow gawk.
#![allow(clippy::unwrap_used, clippy::panic)]

use crate::commands::testing::{fs_with, run_in};

const FILES: &[(&str, &str)] = &[
    ("f", "alice 30 paris\nbob 25 london\ncarol 35 paris\n"),
    ("g", "x:1\ny:2\n"),
    ("p.awk", "{ s += $2 }\nEND { print s }\n"),
];

/// Runs `line` over fresh files; a leading `echo X |` or `printf X |` feeds stdin.
fn check(line: &str, stdin: &str, want_out: &str, want_err: &str, want_status: i32) -> bool {
    let fs = fs_with(FILES);
    let (mut cmd, mut input) = (line.to_owned(), stdin.as_bytes().to_vec());
    if let Some((feeder, rest)) = line.split_once(" | ")
        && (feeder.starts_with("echo ") || feeder.starts_with("printf "))
    {
        input = if let Some(fmt) = feeder.strip_prefix("printf ") {
            let words = crate::commands::testing::words(fmt);
            let text = words.first().cloned().unwrap_or_default();
            text.replace("\\n", "\n").replace("\\t", "\t").into_bytes()
        } else {
            run_in(&fs, feeder, b"").0
        };
        cmd = rest.to_owned();
    }
    let (out, err, status) = run_in(&fs, &cmd, &input);
    let got = (String::from_utf8_lossy(&out).into_owned(), err, status);
    let ok = got == (want_out.to_owned(), want_err.to_owned(), want_status);
    if !ok {
        eprintln!(
            "command: {line}\n  got: {got:?}\n want: {:?}",
            (want_out, want_err, want_status)
        );
    }
    ok
}

#[test]
fn awk_table() {
    let mut failed = 0;
    for (line, stdin, out, err, status) in [
        ("awk '{print $1}' f", "", "alice\nbob\ncarol\n", "", 0),
        (
            "awk '{print $NF, NF}' f",
            "",
            "paris 3\nlondon 3\nparis 3\n",
            "",
            0,
        ),
        (
            "awk '$2 > 28' f",
            "",
            "alice 30 paris\ncarol 35 paris\n",
            "",
            0,
        ),
        ("awk '/paris/ {n++} END {print n}' f", "", "2\n", "", 0),
        ("awk -F: '{print $2 $1}' g", "", "1x\n2y\n", "", 0),
        (
            "awk -F : -v OFS=- '{$1=$1; print}' g",
            "",
            "x-1\ny-2\n",
            "",
            0,
        ),
        (
            "awk 'NR==2, NR==3 {print NR\": \"$0}' f",
            "",
            "2: bob 25 london\n3: carol 35 paris\n",
            "",
            0,
        ),
        (
            "awk '{ a[$3] += $2 } END { for (k in a) print k, a[k] }' f",
            "",
            "paris 65\nlondon 25\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { x = 1; x += 2; x *= 3; x ^= 2; print x, x % 7, -x, !x, 2**3**2 }'",
            "",
            "81 4 -81 0 512\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { printf \"%5.2f|%-5d|%x|%c|%c|%e|%s|%5s|%-5s|%%\\n\", 3.14159, 42, 255, 65, \"hi\", 12345.678, \"s\", \"ab\", \"cd\" }'",
            "",
            " 3.14|42   |ff|A|h|1.234568e+04|s|   ab|cd   |%\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { print length(\"hello\"), substr(\"hello\", 2, 3), substr(\"hello\", 0, 2), index(\"abc\", \"c\"), toupper(\"ab\"), tolower(\"CD\") }'",
            "",
            "5 ell h 3 AB cd\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { n = split(\"a:b:c\", arr, \":\"); print n, arr[1], arr[3] }'",
            "",
            "3 a c\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { s = \"hello world\"; gsub(/o/, \"0\", s); print s; t = \"aaa\"; print sub(/a/, \"b\", t), t }'",
            "",
            "hell0 w0rld\n1 baa\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { s = \"foo bar\"; gsub(/[a-z]+/, \"<&>\", s); print s }'",
            "",
            "<foo> <bar>\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { print match(\"foobar\", /ob/), RSTART, RLENGTH }'",
            "",
            "3 3 2\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { print int(3.9), int(-3.9), sqrt(16), exp(0), log(1), sin(0), cos(0), atan2(0, -1) }'",
            "",
            "3 -3 4 1 0 0 1 3.14159\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { x[1,2] = 3; for (k in x) { split(k, p, SUBSEP); print p[1], p[2] }; if ((1,2) in x) print \"yes\" }'",
            "",
            "1 2\nyes\n",
            "",
            0,
        ),
        (
            "awk 'function f(a, b) { return a + b } BEGIN { print f(1, 2) }'",
            "",
            "3\n",
            "",
            0,
        ),
        (
            "awk 'function fill(arr, n,  i) { for (i = 1; i <= n; i++) arr[i] = i * i } BEGIN { fill(sq, 3); print sq[1], sq[2], sq[3], length(sq) }'",
            "",
            "1 4 9 3\n",
            "",
            0,
        ),
        (
            "awk 'function fact(n) { return n <= 1 ? 1 : n * fact(n - 1) } BEGIN { print fact(10) }'",
            "",
            "3628800\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { i = 0; while (i < 3) { i++; if (i == 2) continue; print i }; do { print \"do\" } while (0); for (;;) { break } }'",
            "",
            "1\n3\ndo\n",
            "",
            0,
        ),
        (
            "awk '{ if ($2 > 28) print $1; else print \"young\" }' f",
            "",
            "alice\nyoung\ncarol\n",
            "",
            0,
        ),
        (
            "awk 'NR == 1 { next } { print }' f",
            "",
            "bob 25 london\ncarol 35 paris\n",
            "",
            0,
        ),
        (
            "awk '{ print; exit } END { print \"end\" }' f",
            "",
            "alice 30 paris\nend\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { exit 3 } END { print \"end\" }'",
            "",
            "end\n",
            "",
            3,
        ),
        (
            "awk '{ $2 = \"\"; print }' f",
            "",
            "alice  paris\nbob  london\ncarol  paris\n",
            "",
            0,
        ),
        (
            "awk '{ $5 = \"X\"; print; print NF }' f",
            "",
            "alice 30 paris  X\n5\nbob 25 london  X\n5\ncarol 35 paris  X\n5\n",
            "",
            0,
        ),
        (
            "awk '{ NF = 1; print }' f",
            "",
            "alice\nbob\ncarol\n",
            "",
            0,
        ),
        (
            "awk '{ $0 = \"a b\"; print $2, NF }' f",
            "",
            "b 2\nb 2\nb 2\n",
            "",
            0,
        ),
        (
            "awk 'END { print NR, $0 }' f",
            "",
            "3 carol 35 paris\n",
            "",
            0,
        ),
        (
            "awk '{ print FILENAME, FNR, NR }' f g",
            "",
            "f 1 1\nf 2 2\nf 3 3\ng 1 4\ng 2 5\n",
            "",
            0,
        ),
        ("awk -f p.awk f", "", "90\n", "", 0),
        ("awk '{ print x, $1 }' x=5 g", "", "5 x:1\n5 y:2\n", "", 0),
        (
            "awk 'BEGIN { while ((getline line < \"g\") > 0) print \"got\", line; close(\"g\") }'",
            "",
            "got x:1\ngot y:2\n",
            "",
            0,
        ),
        (
            "awk 'NR == 1 { getline; print \"after\", $0 } ' f",
            "",
            "after bob 25 london\n",
            "",
            0,
        ),
        (
            "awk 'NR == 1 { getline v; print \"v=\" v, NR }' f",
            "",
            "v=bob 25 london 2\n",
            "",
            0,
        ),
        (
            "awk '{ print > \"out\" } END { close(\"out\"); while ((getline l < \"out\") > 0) print \"out:\", l }' g",
            "",
            "out: x:1\nout: y:2\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { print \"a\" > \"/dev/stderr\" }'",
            "",
            "",
            "a\n",
            0,
        ),
        (
            "awk 'BEGIN { print 10 < 9, \"10\" < \"9\", \"abc\" < \"abd\", 2 == 2.0 }'",
            "",
            "0 1 1 1\n",
            "",
            0,
        ),
        (
            "echo '10 9' | awk '{ print ($1 < $2), ($1 > $2) }'",
            "",
            "0 1\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { print substr(\"hello\", 2), substr(\"hello\", -1, 3), substr(\"hello\", 1.5) }'",
            "",
            "ello h ello\n",
            "",
            0,
        ),
        ("awk 'BEGIN { print length() }' ", "", "0\n", "", 0),
        ("echo 'a b c' | awk '{ print length }'", "", "5\n", "", 0),
        (
            "awk 'BEGIN { printf \"%d %d %d\\n\", \"12abc\", -3.9, \"x\" }'",
            "",
            "12 -3 0\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { printf \"%05.1f|%+d|% d|%o|%X|%#x\\n\", 3.14159, 5, 5, 8, 255, 255 }'",
            "",
            "003.1|+5| 5|10|FF|0xff\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { printf \"%*d|%-*d|%.*f\\n\", 5, 1, 4, 2, 2, 3.14159 }'",
            "",
            "    1|2   |3.14\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { x = \"3x\"; print x + 1, x * 2, +\"\", -\"-4\" }'",
            "",
            "4 6 0 4\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { a = 1; b = a++ + ++a; print a, b; c = a--; print c, a }'",
            "",
            "3 4\n3 2\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { s = \"\"; for (i = 0; i < 5; i++) s = s i; print s }'",
            "",
            "01234\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { print 1 \" \" 2, 1 2, (1 2) + 1 }'",
            "",
            "1 2 12 13\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { x[\"a\"] = 1; delete x[\"a\"]; print length(x), (\"a\" in x) }'",
            "",
            "0 0\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { x[1]; x[2]; delete x; print length(x) }'",
            "",
            "0\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { print \"a\\tb\\\\n\" }'",
            "",
            "a\tb\\n\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { CONVFMT = \"%.2f\"; a = 3.14159; b = a \"\"; print b; OFMT = \"%.1f\"; print a }'",
            "",
            "3.14\n3.1\n",
            "",
            0,
        ),
        (
            "printf 'a b\\n\\nc d\\ne f\\n' | awk 'BEGIN { RS = \"\" } { print NR \": \" $1 \"-\" $NF }'",
            "",
            "1: a-b\n2: c-f\n",
            "",
            0,
        ),
        (
            "printf 'a,b;c,d;' | awk 'BEGIN { RS = \";\"; FS = \",\" } { print $2 }'",
            "",
            "b\nd\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { FS = \",\" } { print $2 }' g",
            "",
            "\n\n",
            "",
            0,
        ),
        (
            "printf 'a1b2c\\n' | awk -F '[0-9]' '{ print $1, $2, $3 }'",
            "",
            "a b c\n",
            "",
            0,
        ),
        (
            "printf 'a  b\\tc\\n' | awk -F '\\t' '{ print $2 }'",
            "",
            "c\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { \"echo hi\" | getline x; print x }'",
            "",
            "hi\n",
            "",
            0,
        ),
        ("awk '$1 ~ /^b/' f", "", "bob 25 london\n", "", 0),
        (
            "awk '$1 !~ /^b/ { print $1 }' f",
            "",
            "alice\ncarol\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { r = \"^a\"; if (\"abc\" ~ r) print \"dyn\" }'",
            "",
            "dyn\n",
            "",
            0,
        ),
        (
            "awk '/alice/,/bob/' f",
            "",
            "alice 30 paris\nbob 25 london\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { print index(\"foo\", \"\"), 5 % 3, -5 % 3, 2 ^ -1 }'",
            "",
            "1 2 -2 0.5\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { print toupper(substr(\"abc\", 1, 1)) substr(\"abc\", 2) }'",
            "",
            "Abc\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { x = 5; x /= 2; print x; y = 7; y %= 4; print y }'",
            "",
            "2.5\n3\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { n = split(\"  a  b  \", w); print n, w[1] w[2] }'",
            "",
            "2 ab\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { print 1; print 2 > \"/dev/stdout\" }'",
            "",
            "1\n2\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { printf(\"%s-%s\\n\", \"a\", \"b\") }'",
            "",
            "a-b\n",
            "",
            0,
        ),
        ("awk 'BEGIN { print(1, 2) }'", "", "1 2\n", "", 0),
        (
            "awk 'BEGIN { x = 1 } ; END { print x }' /dev/null",
            "",
            "1\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { getline; print \"first:\", $0 }' f",
            "",
            "first: alice 30 paris\n",
            "",
            0,
        ),
        (
            "awk '{ n = n + $2 }; END { print n / NR }' f",
            "",
            "30\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { x = 1/0 }'",
            "",
            "",
            "awk: cmd. line:1: fatal: division by zero attempted\n",
            2,
        ),
        (
            "awk '{ print $1 }' nope",
            "",
            "",
            "awk: fatal: cannot open file `nope' for reading: No such file or directory\n",
            2,
        ),
        (
            "awk 'BEGIN { print length(12345), length(1/4) }'",
            "",
            "5 4\n",
            "",
            0,
        ),
        ("awk 'BEGIN { print -3 % 2, 7 - - 2 }'", "", "-1 9\n", "", 0),
        (
            "awk 'BEGIN { a[\"x\"]=1; f(a); print a[\"x\"] } function f(arr) { arr[\"x\"] = 2 }'",
            "",
            "2\n",
            "",
            0,
        ),
        (
            "awk 'function g(n) { if (n > 0) { print n; g(n - 1) } } BEGIN { g(3) }'",
            "",
            "3\n2\n1\n",
            "",
            0,
        ),
        (
            "awk 'NR % 2' f",
            "",
            "alice 30 paris\ncarol 35 paris\n",
            "",
            0,
        ),
        (
            "awk '!seen[$3]++' f",
            "",
            "alice 30 paris\nbob 25 london\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { OFS = \"|\" } { $1 = $1 } 1' f",
            "",
            "alice|30|paris\nbob|25|london\ncarol|35|paris\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { ORS = \";\" } { print $1 } END { printf \"\\n\" }' f",
            "",
            "alice;bob;carol;\n",
            "",
            0,
        ),
        ("awk -v 'x=a\\tb' 'BEGIN { print x }'", "", "a\tb\n", "", 0),
        (
            "awk 'BEGIN { printf \"%c%c\\n\", 256, \"\" }'",
            "",
            "\u{100}\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { print substr(\"hello\", 3, 100), substr(\"hello\", 10) \"|\" }'",
            "",
            "llo |\n",
            "",
            0,
        ),
        (
            "awk '{ sum[$3] += $2; cnt[$3]++ } END { print sum[\"paris\"] / cnt[\"paris\"] }' f",
            "",
            "32.5\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { if (!(3 in a)) print \"no\"; if (length(a) == 0) print \"empty\" }'",
            "",
            "no\nempty\n",
            "",
            0,
        ),
        ("awk 'BEGIN { print 2 \" \" 3 * 4 }'", "", "2 12\n", "", 0),
        (
            "awk 'BEGIN { x = \"a\"; x = x x x; print x }'",
            "",
            "aaa\n",
            "",
            0,
        ),
        (
            "awk '{ printf \"%-6s|%3d\\n\", $1, $2 }' f",
            "",
            "alice | 30\nbob   | 25\ncarol | 35\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { while ((\"cat g\" | getline l) > 0) n++; print n }'",
            "",
            "2\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { print 1/3, 100000, 1e6, 0.1+0.2, 3.0, -0.5, 123456789012 }'",
            "",
            "0.333333 100000 1000000 0.3 3 -0.5 123456789012\n",
            "",
            0,
        ),
    ] {
        failed += usize::from(!check(line, stdin, out, err, status));
    }
    assert_eq!(failed, 0);
}

#[test]
fn commands_run_through_the_host() {
    for (line, out) in [
        (
            "awk 'BEGIN { system(\"echo hi\"); print \"after\" }'",
            "hi\nafter\n",
        ),
        (
            "awk 'BEGIN { print \"b\" | \"cat\"; close(\"cat\"); print \"x\" }'",
            "b\nx\n",
        ),
        ("awk 'BEGIN { print system(\"false\") }'", "1\n"),
        // gawk's table: `cmd | getline` sets $0, NF and NR; `cmd | getline var` sets
        // var and NR (mawk leaves NR alone in both).
        (
            "awk 'BEGIN { \"echo a b c\" | getline; print $0, NF, NR, $2 }'",
            "a b c 3 1 b\n",
        ),
        (
            "awk 'BEGIN { \"echo x\" | getline v; print v, NR, NF }'",
            "x 1 0\n",
        ),
    ] {
        assert!(check(line, "", out, "", 0));
    }
}

#[test]
fn usage_and_syntax_errors() {
    let fs = fs_with(&[]);
    let (_, err, status) = run_in(&fs, "awk", b"");
    assert!(err.starts_with("Usage: awk"), "{err}");
    assert_eq!(status, 2);
    let (_, err, status) = run_in(&fs, "awk 'BEGIN { print 1 '", b"");
    assert!(err.starts_with("awk: cmd. "), "{err}");
    assert_eq!(status, 2);
}

#[test]
fn streams_endless_input() {
    let (out, status, _) =
        crate::commands::testing::run_endless("awk 'NR > 2 { exit } { print }'", b"y\n", 1 << 20);
    assert_eq!((out.as_slice(), status), (&b"y\ny\n"[..], 0));
}

/// A file is split into records straight from its shared bytes, checked as UTF-8 a
/// window at a time: records across a window's edge, one longer than a window, a
/// character cut by the edge and invalid bytes all come out whole and unchanged.
#[test]
fn file_records_across_windows() {
    let mut data = Vec::new();
    for i in 0..30_000 {
        data.extend_from_slice(format!("line {i} é\n").as_bytes());
        if i % 7_000 == 3 {
            data.extend_from_slice(b"bad \xff\xfe bytes\n");
        }
    }
    data.extend_from_slice("é".repeat(100_000).as_bytes());
    data.extend_from_slice(b"\nend\n");
    let fs = fs_with(&[]);
    fs.lock().write_file("/workspace/big", &data).unwrap();
    let (out, err, status) = run_in(&fs, "awk '{ print }' big", b"");
    assert_eq!((out == data, err.as_str(), status), (true, "", 0));
    let (out, _, _) = run_in(
        &fs,
        "awk '/^é/ { print length($0) } END { print NR }' big",
        b"",
    );
    assert_eq!(String::from_utf8_lossy(&out), "100000\n30007\n");
}

/// Each record is split with the FS in force when it was read, not the FS at the time
/// its fields are first used; `$0 = $0` splits again with the FS of now, and an FS that
/// is a number splits on its text. (Expectations from mawk.)
#[test]
fn field_separator_of_each_record() {
    for (program, want) in [
        ("{ print $1; FS = \",\" }", "a,b\nd\ng1h\n"),
        ("NR == 2 { FS = \",\" } { print $1 }", "a,b\nd,e\ng1h\n"),
        ("{ FS = \",\"; $0 = $0; print $1 }", "a\nd\ng1h\n"),
        ("{ FS = 1 } { print $1 }", "a,b\nd,e f\ng\n"),
        ("{ FS = 1; FS = \",\" } NR == 3 { print $2 }", "i j\n"),
    ] {
        let fs = fs_with(&[]);
        let (out, err, status) =
            run_in(&fs, &format!("awk '{program}'"), b"a,b c\nd,e f\ng1h,i j\n");
        let got = String::from_utf8_lossy(&out);
        assert_eq!(
            (got.as_ref(), err.as_str(), status),
            (want, "", 0),
            "{program}"
        );
    }
}

/// `length($0)` of records from a file: a record from an all-ASCII window is counted
/// in bytes without looking at it, any other in characters; a record changed by the
/// program (`$0 =`, a field assigned) is counted again.
#[test]
fn record_lengths_ascii_or_not() {
    let mut data = String::new();
    for i in 0..20_000 {
        data.push_str(&format!("word{} {}\n", i % 97, i));
        if i == 12_345 {
            data.push_str("ünïcödé line\n");
        }
    }
    let chars: usize = data.lines().map(|l| l.chars().count()).sum();
    let fs = fs_with(&[]);
    fs.lock()
        .write_file("/workspace/t", data.as_bytes())
        .unwrap();
    for (program, want) in [
        (
            "{ n += length($0) } END { print n }".to_owned(),
            format!("{chars}\n"),
        ),
        (
            "{ n += length } END { print n }".to_owned(),
            format!("{chars}\n"),
        ),
        (
            "NR == 1 { $0 = \"é\" $0; print length($0) }".to_owned(),
            "8\n".to_owned(),
        ),
        (
            "NR == 1 { $2 = \"ü\"; print length($0), length() }".to_owned(),
            "7 7\n".to_owned(),
        ),
    ] {
        let (out, err, status) = run_in(&fs, &format!("awk '{program}' t"), b"");
        let got = String::from_utf8_lossy(&out);
        assert_eq!(
            (got.as_ref(), err.as_str(), status),
            (want.as_str(), "", 0),
            "{program}"
        );
    }
}

/// Compound assignments to a plain variable update it where it is; NF rebuilds the
/// record, and an array is not a number. (Expectations from mawk, messages from gawk.)
#[test]
fn compound_assignments() {
    for (line, stdin, out, err, status) in [
        (
            "awk 'BEGIN { x = \"3x\"; x += 2; y ^= 2; z = 7; z %= 4; w = 9; w /= 2; v -= 1; print x, y, z, w, v }'",
            "",
            "5 0 3 4.5 -1\n",
            "",
            0,
        ),
        (
            "awk '{ n += $1; n *= 2 } END { print n }'",
            "1\n2\n3\n",
            "22\n",
            "",
            0,
        ),
        (
            "awk '{ NF += 1; print $0 \"|\" }'",
            "a b\n",
            "a b |\n",
            "",
            0,
        ),
        (
            "awk 'BEGIN { a[1]; a += 1 }'",
            "",
            "",
            "awk: cmd. line:1: fatal: attempt to use array `a' in a scalar context\n",
            2,
        ),
        (
            "awk 'BEGIN { z = 1; z /= 0 }'",
            "",
            "",
            "awk: cmd. line:1: fatal: division by zero attempted\n",
            2,
        ),
        (
            "awk 'function f(p) { p += 2; return p } BEGIN { print f(1), f() }'",
            "",
            "3 2\n",
            "",
            0,
        ),
    ] {
        assert!(check(line, stdin, out, err, status), "{line}");
    }
}

/// Lines of a file taken by the quick path still follow RS, NR and FNR as the program
/// changes them between records, and start again in the next file. (From mawk.)
#[test]
fn file_records_follow_the_program() {
    let fs = fs_with(&[]);
    fs.lock()
        .write_file("/workspace/rs", b"a,b\nc,d\ne,f\n")
        .unwrap();
    for (program, want) in [
        (
            "NR == 1 { RS = \",\" } { print NR \": \" $0 }",
            "1: a,b\n2: c\n3: d\ne\n4: f\n\n5: a\n6: b\nc\n7: d\ne\n8: f\n\n",
        ),
        (
            "NR == 1 { NR = 10 } { print NR, FNR }",
            "10 1\n11 2\n12 3\n13 1\n14 2\n15 3\n",
        ),
    ] {
        let (out, err, status) = run_in(&fs, &format!("awk '{program}' rs rs"), b"");
        let got = String::from_utf8_lossy(&out);
        assert_eq!(
            (got.as_ref(), err.as_str(), status),
            (want, "", 0),
            "{program}"
        );
    }
}
