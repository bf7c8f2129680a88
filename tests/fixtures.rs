//! Fixture tests: scripts under `tests/fixtures/*.test`, each with its expected stdout,
//! stderr and exit status. `CONFIRM_BASH=1 cargo test --test fixtures` re-runs every
//! case under `/bin/bash` in a temporary directory and fails where the recorded
//! expectation differs from real bash.
//!
//! File format (one or more cases per file):
//!
//! ```text
//! === name of the case
//! --- file path/relative/to/workspace
//! file content (optional; repeatable)
//! --- stdin
//! input (optional)
//! --- script
//! echo hi
//! --- stdout
//! hi
//! --- stderr
//! (optional: checked only when present)
//! --- status
//! 0
//! ```
//!
//! `--- script without final newline` is a script whose last line ends the text with
//! no newline (bash's reader adds one, which syntax errors at the end show).
//!
//! A `--- confirm skip` section (its body says why) keeps a case out of the
//! `CONFIRM_BASH=1` run: its expectation is a recorded reference that the machine's
//! own tools cannot reproduce (a tool whose installed version differs, such as
//! ripgrep 13 where shellbox's `rg` follows ripgrep 14; `awk` being mawk rather than
//! gawk; shellbox's virtual clock).
//!
//! Lines before a file's first `===` header are comments.
//!
//! `FIXTURES=util-tee,util-ln cargo test --test fixtures` runs only the files whose
//! names contain one of the comma-separated words.
//!
//! Blank lines just before a `===` header separate cases and are not part of the
//! preceding section.

#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]

use std::path::Path;

#[derive(Debug, Default, Clone)]
struct Case {
    file: String,
    name: String,
    script: String,
    stdin: String,
    files: Vec<(String, String)>,
    stdout: String,
    stderr: Option<String>,
    status: i32,
    confirm_skip: bool,
}

fn parse_file(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut cases = Vec::new();
    let mut cur: Option<Case> = None;
    let mut section: Option<(String, String)> = None;
    let flush = |cur: &mut Option<Case>, section: &mut Option<(String, String)>| {
        if let (Some(c), Some((name, body))) = (cur.as_mut(), section.take()) {
            match name.as_str() {
                "script" => c.script = body,
                // For what bash does at the end of a text whose last line has no newline.
                "script without final newline" => {
                    c.script = body.strip_suffix('\n').unwrap_or(&body).to_owned();
                }
                "stdin" => c.stdin = body,
                "stdout" => c.stdout = body,
                "stderr" => c.stderr = Some(body),
                "status" => c.status = body.trim().parse().unwrap_or(0),
                "confirm skip" => c.confirm_skip = true,
                n if n.starts_with("file ") => c.files.push((n[5..].trim().to_owned(), body)),
                other => panic!("{file}: unknown section {other}"),
            }
        }
    };
    for line in text.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix("=== ") {
            // Blank lines before a case header only separate cases.
            if let Some((_, body)) = section.as_mut() {
                while body.ends_with("\n\n") {
                    body.pop();
                }
            }
            flush(&mut cur, &mut section);
            if let Some(c) = cur.take() {
                cases.push(c);
            }
            cur = Some(Case {
                file: file.clone(),
                name: name.trim().to_owned(),
                ..Case::default()
            });
        } else if let Some(name) = line.strip_prefix("--- ") {
            flush(&mut cur, &mut section);
            section = Some((name.trim().to_owned(), String::new()));
        } else if let Some((_, body)) = section.as_mut() {
            body.push_str(line);
        }
    }
    flush(&mut cur, &mut section);
    if let Some(c) = cur.take() {
        cases.push(c);
    }
    cases
}

fn all_cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|e| e == "test"));
    if let Ok(only) = std::env::var("FIXTURES") {
        let words: Vec<&str> = only.split(',').filter(|w| !w.is_empty()).collect();
        files.retain(|p| {
            let name = p
                .file_name()
                .map(|f| f.to_string_lossy())
                .unwrap_or_default();
            words.is_empty() || words.iter().any(|w| name.contains(w))
        });
    }
    files.sort();
    files.iter().flat_map(|p| parse_file(p)).collect()
}

fn run_shellbox(c: &Case) -> (String, String, i32) {
    let mut b = shellbox::Shell::builder();
    for (p, content) in &c.files {
        b = b.file(p.clone(), content.clone().into_bytes());
    }
    let mut sh = b.build();
    let out = sh.exec_with_stdin(&c.script, c.stdin.clone().into_bytes());
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.exit_code,
    )
}

fn run_bash(c: &Case) -> (String, String, i32) {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!(
        "shellbox-confirm-{}-{}",
        std::process::id(),
        c.name.len()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let work = dir.join("workspace");
    std::fs::create_dir_all(&work).ok();
    for (p, content) in &c.files {
        let full = work.join(p);
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent).ok();
        }
        std::fs::write(full, content).ok();
    }
    use std::os::unix::process::CommandExt;
    let mut child = std::process::Command::new("/bin/bash")
        .arg0("bash")
        .arg("-c")
        .arg(&c.script)
        .current_dir(&work)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", dir.to_string_lossy().as_ref())
        .env("LC_ALL", "C.UTF-8")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run /bin/bash");
    if let Some(mut si) = child.stdin.take() {
        si.write_all(c.stdin.as_bytes()).ok();
    }
    let out = child.wait_with_output().expect("wait for bash");
    let _ = std::fs::remove_dir_all(&dir);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn compare(who: &str, c: &Case, got: &(String, String, i32)) -> Option<String> {
    let mut diffs = Vec::new();
    if got.0 != c.stdout {
        diffs.push(format!(
            "stdout:\n  want {:?}\n  got  {:?}",
            c.stdout, got.0
        ));
    }
    if let Some(e) = &c.stderr
        && &got.1 != e
    {
        diffs.push(format!("stderr:\n  want {:?}\n  got  {:?}", e, got.1));
    }
    if got.2 != c.status {
        diffs.push(format!(
            "status: want {} got {} (stderr {:?})",
            c.status, got.2, got.1
        ));
    }
    if diffs.is_empty() {
        None
    } else {
        Some(format!(
            "[{who}] {} / {}:\n{}",
            c.file,
            c.name,
            diffs.join("\n")
        ))
    }
}

#[test]
fn fixtures_match_expectations() {
    let cases = all_cases();
    assert!(!cases.is_empty(), "no fixture cases found");
    let confirm = std::env::var("CONFIRM_BASH").is_ok_and(|v| v == "1");
    let mut failures = Vec::new();
    for c in &cases {
        if let Some(f) = compare("shellbox", c, &run_shellbox(c)) {
            failures.push(f);
        }
        if confirm
            && !c.confirm_skip
            && let Some(f) = compare("bash", c, &run_bash(c))
        {
            failures.push(f);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} fixture checks failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
}
