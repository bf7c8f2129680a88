#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! The agent tools as a model sees them: each rule of read_file, write_file, edit_file,
//! glob, grep and bash (issue 4), driven through `Sandbox::call_tool` with JSON in and
//! JSON out, one table per tool.

use std::sync::OnceLock;
use std::time::Duration;

use proptest::prelude::*;
use serde_json::{Value, json};
use shellbox::Sandbox;
use shellbox::tools::{self, ToolError};

fn rt() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Runtime::new().expect("runtime"))
}

fn call(sb: &Sandbox, tool: &str, input: Value) -> Result<Value, ToolError> {
    rt().block_on(sb.call_tool(tool, input))
}

/// The output of a call that must succeed.
fn ok(sb: &Sandbox, tool: &str, input: Value) -> Value {
    call(sb, tool, input.clone()).unwrap_or_else(|e| panic!("{tool} {input}: {e:?}"))
}

/// The error code of a call that must fail.
fn code(sb: &Sandbox, tool: &str, input: Value) -> String {
    match call(sb, tool, input.clone()) {
        Ok(v) => panic!("{tool} {input}: expected an error, got {v}"),
        Err(e) => e.kind.code().to_owned(),
    }
}

/// Checks a table of calls: the exact output, or the error code.
fn check(sb: &Sandbox, tool: &str, cases: &[(Value, Result<Value, &str>)]) {
    for (input, want) in cases {
        let got = call(sb, tool, input.clone());
        match (got, want) {
            (Ok(v), Ok(w)) => assert_eq!(&v, w, "{tool} {input}"),
            (Err(e), Err(w)) => assert_eq!(e.kind.code(), *w, "{tool} {input}: {}", e.message),
            (got, want) => panic!("{tool} {input}: got {got:?}, want {want:?}"),
        }
    }
}

fn read_all(sb: &Sandbox, path: &str) -> Vec<u8> {
    rt().block_on(sb.read_binary_file(path)).expect("read")
}

#[test]
fn every_schema_is_strict_and_names_every_field() {
    // One valid input per tool using every property the schema lists.
    let sb = Sandbox::builder().file("a.txt", "x\n").build();
    ok(&sb, "read_file", json!({"filePath": "a.txt"}));
    let full = [
        (
            "read_file",
            json!({"filePath": "a.txt", "offset": 1, "limit": 5}),
        ),
        ("write_file", json!({"filePath": "new.txt", "content": "y"})),
        (
            "edit_file",
            json!({"filePath": "a.txt", "oldString": "x", "newString": "z", "replaceAll": true}),
        ),
        (
            "glob",
            json!({"pattern": "*.txt", "path": "/workspace", "limit": 3}),
        ),
        (
            "grep",
            json!({"pattern": "z", "path": "/workspace", "glob": "*.txt", "ignoreCase": true,
                   "literal": false, "context": 1, "limit": 2, "outputMode": "content"}),
        ),
        ("bash", json!({"command": "true"})),
    ];
    let specs = tools::specs();
    assert_eq!(specs.len(), full.len());
    for (spec, (name, input)) in specs.iter().zip(&full) {
        assert_eq!(spec.name, *name);
        let schema = &spec.input_schema;
        assert_eq!(schema["type"], "object", "{name}");
        assert_eq!(schema["additionalProperties"], false, "{name}");
        let props: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        let given: Vec<&String> = input.as_object().unwrap().keys().collect();
        let mut sorted = given.clone();
        sorted.sort();
        let mut props_sorted = props.clone();
        props_sorted.sort();
        assert_eq!(
            props_sorted, sorted,
            "{name}: the sample uses every property"
        );
        for req in schema["required"].as_array().unwrap() {
            assert!(
                props.iter().any(|p| *p == req),
                "{name}: {req} is a property"
            );
        }
        assert!(
            spec.description.len() > 100,
            "{name} has a real description"
        );
        ok(&sb, name, input.clone());
        // The same input with one unknown key is refused before anything runs.
        let mut extra = input.clone();
        extra["bogus"] = json!(1);
        assert_eq!(code(&sb, name, extra), "invalid_input", "{name}");
    }
    assert_eq!(code(&sb, "nope", json!({})), "unknown_tool");
    assert_eq!(code(&sb, "read_file", json!({})), "invalid_input");
    assert_eq!(
        code(&sb, "read_file", json!({"filePath": 3})),
        "invalid_input"
    );
}

#[test]
fn read_file_numbers_lines_and_windows_them() {
    let sb = Sandbox::builder()
        .file("three.txt", "a\nb\nc\n")
        .file("noeol.txt", "a\nb")
        .file("empty.txt", "")
        .file("crlf.txt", "x\r\ny\r\n")
        .file("bad-utf8.txt", b"caf\xe9\n".to_vec())
        .build();
    let text = |content: &str, path: &str, total: u64| json!({"content": content, "path": path, "totalLines": total, "truncated": false});
    let window = |content: &str, total: u64, next: u64| {
        json!({"content": content, "path": "/workspace/three.txt", "totalLines": total,
               "truncated": true, "nextOffset": next})
    };
    check(
        &sb,
        "read_file",
        &[
            (
                json!({"filePath": "/workspace/three.txt"}),
                Ok(text("1: a\n2: b\n3: c", "/workspace/three.txt", 3)),
            ),
            (
                json!({"filePath": "noeol.txt"}),
                Ok(text("1: a\n2: b", "/workspace/noeol.txt", 2)),
            ),
            (
                json!({"filePath": "empty.txt"}),
                Ok(text("", "/workspace/empty.txt", 0)),
            ),
            (
                json!({"filePath": "crlf.txt"}),
                Ok(text("1: x\r\n2: y\r", "/workspace/crlf.txt", 2)),
            ),
            (
                json!({"filePath": "bad-utf8.txt"}),
                Ok(text("1: caf\u{fffd}", "/workspace/bad-utf8.txt", 1)),
            ),
            // Paths are normalised; $HOME is the only expansion.
            (
                json!({"filePath": "./sub/../three.txt", "offset": 3}),
                Ok(text("3: c", "/workspace/three.txt", 3)),
            ),
            // limit equal to the lines left is not truncated; one fewer is.
            (
                json!({"filePath": "three.txt", "offset": 2, "limit": 2}),
                Ok(text("2: b\n3: c", "/workspace/three.txt", 3)),
            ),
            (
                json!({"filePath": "three.txt", "offset": 1, "limit": 2}),
                Ok(window("1: a\n2: b", 3, 3)),
            ),
            (
                json!({"filePath": "three.txt", "limit": 1}),
                Ok(window("1: a", 3, 2)),
            ),
            // Errors.
            (
                json!({"filePath": "three.txt", "offset": 4}),
                Err("offset_past_end"),
            ),
            (
                json!({"filePath": "empty.txt", "offset": 2}),
                Err("offset_past_end"),
            ),
            (
                json!({"filePath": "three.txt", "offset": 0}),
                Err("invalid_input"),
            ),
            (
                json!({"filePath": "three.txt", "limit": 0}),
                Err("invalid_input"),
            ),
            (json!({"filePath": "missing.txt"}), Err("not_found")),
            (json!({"filePath": "/workspace"}), Err("is_directory")),
            (json!({"filePath": "/dev/null"}), Err("not_a_file")),
            (json!({"filePath": "/../etc/passwd"}), Err("invalid_path")),
            (json!({"filePath": "../../x"}), Err("invalid_path")),
            (json!({"filePath": "~/x"}), Err("invalid_path")),
            (json!({"filePath": "$PWD/x"}), Err("invalid_path")),
            (json!({"filePath": ""}), Err("invalid_path")),
        ],
    );
    rt().block_on(sb.write_text_file("/home/user/notes", "n\n"))
        .unwrap();
    let home = ok(&sb, "read_file", json!({"filePath": "$HOME/notes"}));
    assert_eq!(home["path"], "/home/user/notes");
}

#[test]
fn read_file_cuts_long_lines_and_caps_bytes() {
    let long = format!("{}\nshort\n", "é".repeat(2500));
    let many: String = (1..=3000).map(|i| format!("{i:0>99}\n")).collect();
    let sb = Sandbox::builder()
        .file("long.txt", long)
        .file("many.txt", many)
        .file("bin.dat", b"a\0b".to_vec())
        .build();
    let v = ok(&sb, "read_file", json!({"filePath": "long.txt"}));
    let content = v["content"].as_str().unwrap();
    let first = content.lines().next().unwrap();
    assert!(first.starts_with(&format!("1: {}", "é".repeat(2000))));
    // eve's cut: 2000 UTF-16 units, then " [truncated]"; lines joined by newlines.
    assert!(
        first.ends_with(&format!("{} [truncated]", "é".repeat(2000))),
        "{first}"
    );
    assert_eq!(
        first.chars().count(),
        "1: ".len() + 2000 + " [truncated]".len()
    );
    assert!(content.ends_with("\n2: short"));

    let v = ok(&sb, "read_file", json!({"filePath": "many.txt"}));
    let content = v["content"].as_str().unwrap();
    let rows = content.lines().count() as u64;
    // Each line counts with one newline (the last too), as eve counts them.
    assert!(content.len() < 50 * 1024, "{}", content.len());
    assert!(content.len() > 50 * 1024 - 200);
    assert_eq!(v["truncated"], true);
    assert_eq!(v["totalLines"], 3000);
    assert_eq!(v["nextOffset"], rows + 1);
    let next = ok(
        &sb,
        "read_file",
        json!({"filePath": "many.txt", "offset": rows + 1, "limit": 1}),
    );
    assert_eq!(next["content"], format!("{}: {:0>99}", rows + 1, rows + 1));

    assert_eq!(
        code(&sb, "read_file", json!({"filePath": "bin.dat"})),
        "binary_file"
    );
}

/// A PNG header claiming `w`x`h` pixels, padded to `len` bytes.
fn png(w: u32, h: u32, len: usize) -> Vec<u8> {
    let mut d = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    d.extend_from_slice(&w.to_be_bytes());
    d.extend_from_slice(&h.to_be_bytes());
    d.resize(len.max(d.len()), 0);
    d
}

#[test]
fn read_file_returns_images_and_pdfs_by_content() {
    let small = png(10, 20, 64);
    let sb = Sandbox::builder()
        .file("pic.txt", small.clone())
        .file("wide.png", png(9000, 10, 64))
        .file("huge.png", png(10, 10, 3 * 1024 * 1024 + 1))
        .file("ok.gif", b"GIF89a\x01\x00\x01\x00\0\0".to_vec())
        .file("doc", b"%PDF-1.7\n%\xff\n".to_vec())
        .build();
    let v = ok(&sb, "read_file", json!({"filePath": "pic.txt"}));
    let b64 = String::from_utf8(shellbox_base64(&small)).unwrap();
    assert_eq!(
        v,
        json!({"path": "/workspace/pic.txt", "mediaType": "image/png", "data": b64, "size": 64})
    );
    assert_eq!(
        ok(&sb, "read_file", json!({"filePath": "ok.gif"}))["mediaType"],
        "image/gif"
    );
    assert_eq!(
        ok(&sb, "read_file", json!({"filePath": "doc"}))["mediaType"],
        "application/pdf"
    );
    assert_eq!(
        code(&sb, "read_file", json!({"filePath": "wide.png"})),
        "too_large"
    );
    assert_eq!(
        code(&sb, "read_file", json!({"filePath": "huge.png"})),
        "too_large"
    );
}

fn shellbox_base64(data: &[u8]) -> Vec<u8> {
    shellbox::commands::base64::encode(data)
}

#[test]
fn writes_need_a_current_read_stamp() {
    let sb = Sandbox::builder().file("a.txt", "one\n").build();
    let write = |content: &str| json!({"filePath": "a.txt", "content": content});
    // A new file needs no read; parents are created.
    assert_eq!(
        ok(
            &sb,
            "write_file",
            json!({"filePath": "deep/dir/new.txt", "content": "n"})
        ),
        json!({"existed": false, "path": "/workspace/deep/dir/new.txt"})
    );
    // An existing file does.
    assert_eq!(code(&sb, "write_file", write("two\n")), "not_read");
    assert_eq!(
        code(
            &sb,
            "edit_file",
            json!({"filePath": "a.txt", "oldString": "one", "newString": "1"})
        ),
        "not_read"
    );
    // A partial read stamps the whole file.
    ok(&sb, "read_file", json!({"filePath": "a.txt", "limit": 1}));
    assert_eq!(
        ok(&sb, "write_file", write("two\n")),
        json!({"existed": true, "path": "/workspace/a.txt"})
    );
    // The write refreshed the stamp: an edit needs no new read.
    ok(
        &sb,
        "edit_file",
        json!({"filePath": "a.txt", "oldString": "two", "newString": "three"}),
    );
    assert_eq!(read_all(&sb, "a.txt"), b"three\n");
    // A change by a command makes the stamp stale: a different error from "not read".
    ok(&sb, "bash", json!({"command": "echo more >> a.txt"}));
    assert_eq!(code(&sb, "write_file", write("x")), "changed_since_read");
    assert_eq!(
        code(
            &sb,
            "edit_file",
            json!({"filePath": "a.txt", "oldString": "three", "newString": "3"})
        ),
        "changed_since_read"
    );
    let err = call(&sb, "write_file", write("x")).unwrap_err();
    assert_eq!(err.path.as_deref(), Some("/workspace/a.txt"));
    assert!(err.message.contains("read_file"), "{}", err.message);
    ok(&sb, "read_file", json!({"filePath": "/workspace/a.txt"}));
    ok(&sb, "write_file", write("x"));
    // Stamps are per normalised path, and writes obey permissions.
    assert_eq!(
        code(
            &sb,
            "write_file",
            json!({"filePath": "/workspace", "content": ""})
        ),
        "is_directory"
    );
    ok(&sb, "read_file", json!({"filePath": "/etc/hostname"}));
    assert_eq!(
        code(
            &sb,
            "write_file",
            json!({"filePath": "/etc/../etc/hostname", "content": ""})
        ),
        "permission_denied"
    );
    assert_eq!(
        sb.read_stamps().keys().collect::<Vec<_>>(),
        [
            "/etc/hostname",
            "/workspace/a.txt",
            "/workspace/deep/dir/new.txt"
        ]
    );
}

#[test]
fn edit_file_replaces_exact_text_only() {
    let sb = Sandbox::builder()
        .file("f.txt", "alpha beta\nbeta gamma\n")
        .file("crlf.txt", "one\r\ntwo\r\n")
        .file("money.txt", "price: X\n")
        .build();
    for f in ["f.txt", "crlf.txt", "money.txt"] {
        ok(&sb, "read_file", json!({"filePath": f}));
    }
    let edit = |f: &str, old: &str, new: &str, all: bool| json!({"filePath": f, "oldString": old, "newString": new, "replaceAll": all});
    check(
        &sb,
        "edit_file",
        &[
            (
                edit("f.txt", "gamma", "delta", false),
                Ok(json!({"path": "/workspace/f.txt", "replacements": 1})),
            ),
            (edit("f.txt", "beta", "B", false), Err("multiple_matches")),
            (edit("f.txt", "zeta", "B", false), Err("no_match")),
            (edit("f.txt", "", "B", false), Err("empty_old_string")),
            (edit("f.txt", "beta", "beta", true), Err("no_change")),
            (edit("nope.txt", "a", "b", false), Err("not_found")),
            (
                edit("f.txt", "beta", "B", true),
                Ok(json!({"path": "/workspace/f.txt", "replacements": 2})),
            ),
            // `$` and `\` in newString are literal.
            (
                edit("money.txt", "X", "$1 $& \\0 $$", false),
                Ok(json!({"path": "/workspace/money.txt", "replacements": 1})),
            ),
            // CRLF line endings stay byte for byte.
            (
                edit("crlf.txt", "one\r\ntwo", "uno\r\ndos", false),
                Ok(json!({"path": "/workspace/crlf.txt", "replacements": 1})),
            ),
        ],
    );
    assert_eq!(read_all(&sb, "f.txt"), b"alpha B\nB delta\n");
    assert_eq!(read_all(&sb, "money.txt"), b"price: $1 $& \\0 $$\n");
    assert_eq!(read_all(&sb, "crlf.txt"), b"uno\r\ndos\r\n");
    // Failed edits say what to do.
    let many = call(&sb, "edit_file", edit("f.txt", "B", "b", false)).unwrap_err();
    assert!(
        many.message.contains("2 times") && many.message.contains("replaceAll"),
        "{}",
        many.message
    );
    let crlf = call(&sb, "edit_file", edit("crlf.txt", "uno\ndos", "x", false)).unwrap_err();
    assert!(crlf.message.contains("CRLF"), "{}", crlf.message);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// For random files and random substrings: an edit of a unique substring then a read
    /// gives exactly the expected text; a failed edit leaves the file byte-identical.
    #[test]
    fn edit_then_read_gives_the_expected_text(
        body in "[ab\n\r$x]{0,60}",
        start in 0usize..60,
        len in 1usize..6,
        new in "[ab\n$y]{0,8}",
    ) {
        let sb = Sandbox::builder().file("p.txt", body.clone()).build();
        ok(&sb, "read_file", json!({"filePath": "p.txt"}));
        let chars: Vec<char> = body.chars().collect();
        let start = start.min(chars.len());
        let end = (start + len).min(chars.len());
        let old: String = chars[start..end].iter().collect();
        let result = call(&sb, "edit_file", json!({"filePath": "p.txt", "oldString": old, "newString": new}));
        let count = if old.is_empty() { 0 } else { body.matches(old.as_str()).count() };
        if count == 1 && old != new {
            prop_assert_eq!(result.unwrap()["replacements"].clone(), json!(1));
            let want = body.replacen(old.as_str(), &new, 1);
            prop_assert_eq!(read_all(&sb, "p.txt"), want.as_bytes().to_vec());
            let read = ok(&sb, "read_file", json!({"filePath": "p.txt"}));
            // The numbered lines joined by newlines give the text back (eve's format
            // keeps no final newline: a file ending in one reads the same).
            let unnumbered: Vec<&str> = read["content"].as_str().unwrap()
                .split('\n')
                .map(|l| l.split_once(": ").map_or(l, |(_, t)| t))
                .collect();
            let lines: Vec<&str> = want.strip_suffix('\n').unwrap_or(&want).split('\n').collect();
            if !want.is_empty() {
                prop_assert_eq!(unnumbered, lines);
            }
        } else {
            prop_assert!(result.is_err());
            prop_assert_eq!(read_all(&sb, "p.txt"), body.as_bytes().to_vec());
        }
    }
}

/// A sandbox with a small project tree for the search tools.
fn project() -> Sandbox {
    let mut b = Sandbox::builder()
        .file(
            "src/main.rs",
            "fn main() {\n    let user_name = 1;\n    println!(\"{}\", user.name);\n}\n",
        )
        .file("src/lib.rs", "pub fn parse() {}\n// TODO: userXname\n")
        .file("src/deep/mod.rs", "pub mod x; // TODO\n")
        .file("README.md", "# Project\nTODO list\n")
        .file(".hidden/config.rs", "fn hidden() {}\n")
        .file(".git/HEAD", "ref: refs/heads/main\n")
        .file(".gitignore", "target/\n*.log\n")
        .file("target/out.rs", "fn generated() {}\n")
        .file("debug.log", "TODO in a log\n")
        .file("bin.dat", b"TODO\0binary".to_vec());
    for i in 0..60 {
        b = b.file(format!("many/f{i:02}.txt"), format!("line {i}\n"));
    }
    b.build()
}

#[test]
fn glob_lists_files_the_ripgrep_way() {
    let sb = project();
    let out = |content: &str, count: u64| json!({"content": content, "count": count, "path": "/workspace", "truncated": false});
    check(
        &sb,
        "glob",
        &[
            // A pattern without `/` matches names at any depth, hidden files included.
            (
                json!({"pattern": "*.rs"}),
                Ok(out(
                    "/workspace/.hidden/config.rs\n/workspace/src/deep/mod.rs\n/workspace/src/lib.rs\n/workspace/src/main.rs",
                    4,
                )),
            ),
            (
                json!({"pattern": "src/*.rs"}),
                Ok(out("/workspace/src/lib.rs\n/workspace/src/main.rs", 2)),
            ),
            (
                json!({"pattern": "src/**/*.rs"}),
                Ok(out(
                    "/workspace/src/deep/mod.rs\n/workspace/src/lib.rs\n/workspace/src/main.rs",
                    3,
                )),
            ),
            (
                json!({"pattern": "*.{md,log}"}),
                Ok(out("/workspace/README.md", 1)),
            ),
            (json!({"pattern": "HEAD"}), Ok(out("No files found", 0))),
            (
                json!({"pattern": "*.rs", "path": "src/deep"}),
                Ok(
                    json!({"content": "/workspace/src/deep/mod.rs", "count": 1, "path": "/workspace/src/deep", "truncated": false}),
                ),
            ),
            (json!({"pattern": "*.rs", "path": "nope"}), Err("not_found")),
            (
                json!({"pattern": "*.rs", "path": "README.md"}),
                Err("invalid_path"),
            ),
            (
                json!({"pattern": "a[", "path": "src"}),
                Err("invalid_pattern"),
            ),
            (json!({"pattern": "*", "limit": 0}), Err("invalid_input")),
        ],
    );
    let many = ok(&sb, "glob", json!({"pattern": "many/*"}));
    assert_eq!(many["count"], 50, "the default limit is 50");
    assert_eq!(many["truncated"], true);
    assert!(many["content"].as_str().unwrap().ends_with("(Showing the first 50 of 60 matching files. Use a more specific pattern or path to see the others.)"));
    let capped = ok(&sb, "glob", json!({"pattern": "**", "limit": 1000}));
    assert_eq!(capped["count"], 67);
    for i in 0..200 {
        rt().block_on(sb.write_text_file(&format!("more/{i}.txt"), ""))
            .unwrap();
    }
    assert_eq!(
        ok(&sb, "glob", json!({"pattern": "**", "limit": 1000}))["count"],
        200,
        "capped at 200"
    );
    rt().block_on(sb.write_text_file("/home/user/h.rs", ""))
        .unwrap();
    assert_eq!(
        ok(&sb, "glob", json!({"pattern": "*.rs", "path": "$HOME"}))["content"],
        "/home/user/h.rs"
    );
}

#[test]
fn grep_searches_contents_with_modes_limits_and_notices() {
    let sb = project();
    let out = |content: &str, n: u64, mode: &str| json!({"content": content, "matchCount": n, "outputMode": mode, "path": "/workspace", "truncated": false});
    check(
        &sb,
        "grep",
        &[
            // Default mode lists files; hidden files are searched; .git, ignored, binary skipped.
            (
                json!({"pattern": "TODO"}),
                Ok(out(
                    "/workspace/README.md\n/workspace/src/deep/mod.rs\n/workspace/src/lib.rs",
                    3,
                    "files_with_matches",
                )),
            ),
            (
                json!({"pattern": "fn hidden"}),
                Ok(out("/workspace/.hidden/config.rs", 1, "files_with_matches")),
            ),
            (
                json!({"pattern": "TODO", "outputMode": "content"}),
                Ok(out(
                    "/workspace/README.md:2:TODO list\n/workspace/src/deep/mod.rs:1:pub mod x; // TODO\n/workspace/src/lib.rs:2:// TODO: userXname",
                    3,
                    "content",
                )),
            ),
            (
                json!({"pattern": "u", "outputMode": "count", "glob": "*.rs", "path": "src"}),
                Ok(
                    json!({"content": "/workspace/src/deep/mod.rs:1\n/workspace/src/lib.rs:2\n/workspace/src/main.rs:2", "matchCount": 5, "outputMode": "count", "path": "/workspace/src", "truncated": false}),
                ),
            ),
            // A name-like pattern is literal; literal: false makes it a regex.
            (
                json!({"pattern": "user.name", "outputMode": "content"}),
                Ok(out(
                    "/workspace/src/main.rs:3:    println!(\"{}\", user.name);",
                    1,
                    "content",
                )),
            ),
            (
                json!({"pattern": "user.name", "literal": false}),
                Ok(out(
                    "/workspace/src/lib.rs\n/workspace/src/main.rs",
                    2,
                    "files_with_matches",
                )),
            ),
            (
                json!({"pattern": "user_name|parse", "outputMode": "content"}),
                Ok(out(
                    "/workspace/src/lib.rs:1:pub fn parse() {}\n/workspace/src/main.rs:2:    let user_name = 1;",
                    2,
                    "content",
                )),
            ),
            (
                json!({"pattern": "(", "literal": true}),
                Ok(out(
                    "/workspace/.hidden/config.rs\n/workspace/src/lib.rs\n/workspace/src/main.rs",
                    3,
                    "files_with_matches",
                )),
            ),
            (
                json!({"pattern": "project", "ignoreCase": true}),
                Ok(out("/workspace/README.md", 1, "files_with_matches")),
            ),
            (
                json!({"pattern": "^fn", "outputMode": "content", "path": "src/main.rs", "context": 1}),
                Ok(
                    json!({"content": "/workspace/src/main.rs:1:fn main() {\n/workspace/src/main.rs-2-    let user_name = 1;", "matchCount": 1, "outputMode": "content", "path": "/workspace/src/main.rs", "truncated": false}),
                ),
            ),
            (
                json!({"pattern": "nothing-here-at-all"}),
                Ok(out("No matches found", 0, "files_with_matches")),
            ),
            // Errors.
            (
                json!({"pattern": "(", "literal": false}),
                Err("invalid_pattern"),
            ),
            (
                json!({"pattern": "x", "path": "/tmp"}),
                Err("outside_workspace"),
            ),
            (
                json!({"pattern": "x", "path": "$HOME"}),
                Err("outside_workspace"),
            ),
            (
                json!({"pattern": "x", "path": "../etc"}),
                Err("outside_workspace"),
            ),
            (json!({"pattern": "x", "path": "nope"}), Err("not_found")),
            (
                json!({"pattern": "x", "outputMode": "lines"}),
                Err("invalid_input"),
            ),
        ],
    );
    // Context groups are separated by `--`.
    let ctx = ok(
        &sb,
        "grep",
        json!({"pattern": "line (1|5)$", "literal": false, "outputMode": "content", "path": "many", "glob": "f0[15].txt", "context": 2}),
    );
    assert_eq!(
        ctx["content"],
        "/workspace/many/f01.txt:1:line 1\n--\n/workspace/many/f05.txt:1:line 5"
    );
    // The default limit is 50 rows, with a note when more matched.
    let limited = ok(
        &sb,
        "grep",
        json!({"pattern": "line", "outputMode": "content"}),
    );
    assert_eq!(limited["matchCount"], 50);
    assert_eq!(limited["truncated"], true);
    let text = limited["content"].as_str().unwrap();
    assert!(text.ends_with("[Stopped at the limit of 50 results; raise limit (at most 200) or narrow the pattern, path or glob.]"), "{text}");
    assert_eq!(
        ok(&sb, "grep", json!({"pattern": "line", "limit": 500}))["matchCount"],
        60
    );
    // A symlink that leads out of /workspace is refused.
    rt().block_on(sb.run("ln -s /etc /workspace/etc-link"))
        .unwrap();
    assert_eq!(
        code(&sb, "grep", json!({"pattern": "root", "path": "etc-link"})),
        "outside_workspace"
    );
}

#[test]
fn grep_bounds_output_size_and_line_length() {
    let wide = |n: usize| format!("needle {}\n", "w".repeat(3000)).repeat(n);
    let sb = Sandbox::builder()
        .file("w20.txt", wide(20))
        .file("w40.txt", wide(40))
        .build();
    let grep = |file: &str| {
        ok(
            &sb,
            "grep",
            json!({"pattern": "needle", "outputMode": "content", "limit": 200, "path": file}),
        )
    };
    let v = grep("w20.txt");
    let text = v["content"].as_str().unwrap();
    let first = text.lines().next().unwrap();
    assert!(
        first.ends_with(&format!("{} [truncated]", "w".repeat(40))),
        "{}",
        &first[first.len() - 40..]
    );
    // The line is `needle ` and 3000 w: cut after 2000 units of the line's text.
    assert_eq!(
        first.len(),
        "/workspace/w20.txt:1:".len() + 2000 + " [truncated]".len()
    );
    assert_eq!(
        (v["matchCount"].clone(), v["truncated"].clone()),
        (json!(20), json!(false))
    );
    let v = grep("w40.txt");
    let text = v["content"].as_str().unwrap();
    assert_eq!(v["truncated"], true);
    assert!(text.len() < 50 * 1024 + 200);
    assert!(text.ends_with(
        "\n\n[Output cut to stay within 50 KiB / 2000 lines; narrow the pattern, path or glob.]"
    ));
    assert_eq!(
        v["matchCount"],
        text.lines().filter(|l| l.contains(":needle")).count()
    );
    // Context never brings in matches beyond the limit.
    let sb = Sandbox::builder()
        .file("a.txt", "needle\n".repeat(300))
        .build();
    let v = ok(
        &sb,
        "grep",
        json!({"pattern": "needle", "outputMode": "content", "context": 5, "limit": 200}),
    );
    assert_eq!(v["matchCount"], 200);
    assert_eq!(
        v["content"]
            .as_str()
            .unwrap()
            .lines()
            .filter(|l| l.contains(":needle"))
            .count(),
        200
    );
}

#[test]
fn bash_runs_fresh_shells_and_caps_output() {
    let sb = Sandbox::builder().env("GREETING", "hi").build();
    assert_eq!(
        ok(
            &sb,
            "bash",
            json!({"command": "cd /tmp; X=1; echo $GREETING > f; pwd; echo oops >&2; exit 3"})
        ),
        json!({"status": "completed", "exitCode": 3, "stdout": "/tmp\n", "stderr": "oops\n", "truncated": false})
    );
    assert_eq!(
        ok(
            &sb,
            "bash",
            json!({"command": "pwd; echo ${X:-unset}; cat /tmp/f"})
        ),
        json!({"status": "completed", "exitCode": 0, "stdout": "/workspace\nunset\nhi\n", "stderr": "", "truncated": false})
    );
    let v = ok(&sb, "bash", json!({"command": "seq 1 2500"}));
    let stdout = v["stdout"].as_str().unwrap();
    assert!(
        stdout.starts_with("[… 500 earlier lines (1892 bytes) cut …]\n501\n"),
        "{}",
        &stdout[..60]
    );
    assert!(stdout.ends_with("\n2500\n"));
    assert_eq!(v["truncated"], true);
    let v = ok(
        &sb,
        "bash",
        json!({"command": "head -c 60000 /dev/zero | tr '\\0' x"}),
    );
    let stdout = v["stdout"].as_str().unwrap();
    assert!(
        stdout.starts_with("[… 1 earlier line (8800 bytes) cut …]\n"),
        "{}",
        &stdout[..50]
    );
    assert_eq!(stdout.len() - stdout.find('\n').unwrap() - 1, 50 * 1024);
}

/// A sandbox whose `bash` tool leaves commands running after 300 ms, with endless
/// loops allowed and `adjust` applied to the limits.
fn slow_sandbox(adjust: impl FnOnce(&mut shellbox::Limits)) -> Sandbox {
    let mut limits = shellbox::Limits::default();
    limits.max_loop_iterations = u64::MAX;
    adjust(&mut limits);
    Sandbox::builder()
        .bash_wait(Some(Duration::from_millis(300)))
        .limits(limits)
        .build()
}

/// The exit file of the background command in `dir` once it appears (polled every
/// 50 ms, `tries` times); empty if it never does.
fn wait_for_exit(sb: &Sandbox, dir: &str, tries: usize) -> String {
    for _ in 0..tries {
        std::thread::sleep(Duration::from_millis(50));
        if let Ok(s) = rt().block_on(sb.read_text_file(&format!("{dir}/exit"))) {
            return s;
        }
    }
    String::new()
}

#[test]
fn bash_leaves_slow_commands_running_with_their_output_in_files() {
    let sb = slow_sandbox(|_| {});
    let v = ok(
        &sb,
        "bash",
        json!({"command": "echo started; while :; do :; done"}),
    );
    assert_eq!(v["status"], "running");
    let pid = v["pid"].as_u64().unwrap();
    let dir = format!("/tmp/.shellbox/jobs/{pid}");
    assert_eq!(v["outputDirectory"], dir.as_str());
    assert_eq!(v["stdout"], "started\n");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains(&format!("touch {dir}/stop"))
    );
    // The command keeps running; its output is in the directory.
    let check = ok(
        &sb,
        "bash",
        json!({"command": format!("cat {dir}/stdout; test -e {dir}/exit || echo no-exit-yet")}),
    );
    assert_eq!(check["stdout"], "started\nno-exit-yet\n");
    // Creating the stop file ends it; the exit file then holds its status.
    ok(&sb, "bash", json!({"command": format!("touch {dir}/stop")}));
    assert_eq!(wait_for_exit(&sb, &dir, 100), "143\n");
}

#[test]
fn a_background_command_whose_output_file_is_full_ends_at_the_file_limit() {
    let sb = slow_sandbox(|l| l.max_file_bytes = 1 << 20);
    let v = ok(
        &sb,
        "bash",
        json!({"command": "while [ ! -e /tmp/go ]; do :; done; yes"}),
    );
    assert_eq!(v["status"], "running");
    let dir = format!("/tmp/.shellbox/jobs/{}", v["pid"]);
    ok(&sb, "bash", json!({"command": "touch /tmp/go"}));
    // `yes` fills its output file up to the file limit, which ends the run (status 126)
    // instead of letting it run on with its output thrown away.
    let exit = wait_for_exit(&sb, &dir, 200);
    let err = rt()
        .block_on(sb.read_text_file(&format!("{dir}/stderr")))
        .unwrap();
    assert_eq!(exit, "126\n", "{err}");
    assert!(
        err.ends_with("bash: file size limit exceeded (1048576 bytes)\n"),
        "{err}"
    );
    let size = ok(
        &sb,
        "bash",
        json!({"command": format!("wc -c < {dir}/stdout")}),
    );
    assert_eq!(size["stdout"], format!("{}\n", 1 << 20));
}

#[test]
fn long_lines_are_cut_in_utf16_units_as_eve_cuts_them() {
    // 1999 units of ASCII and then a character of two units (outside the BMP): the cut
    // at 2000 units falls inside it, where JavaScript keeps a lone surrogate, which
    // reads as U+FFFD once encoded.
    let split = format!("{}😀tail", "a".repeat(1999));
    // Exactly 2000 units is kept whole.
    let exact = format!("{}😀", "b".repeat(1998));
    let sb = Sandbox::builder()
        .file("split.txt", format!("{split}\n{exact}\n"))
        .build();
    let v = ok(&sb, "read_file", json!({"filePath": "split.txt"}));
    let want = format!("1: {}\u{fffd} [truncated]\n2: {exact}", "a".repeat(1999));
    assert_eq!(v["content"], want);
}
