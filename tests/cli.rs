#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! The command line of issue 4: `shellbox tool NAME 'JSON'` (or JSON on stdin), and
//! `--store DIR --session NAME` keeping a session — files and read stamps — across
//! runs of `tool` and `-c`, with damaged snapshots skipped and reported.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

mod common;

use common::TempDir;
use serde_json::{Value, json};

/// Runs the binary: stdout, stderr and exit status.
fn shellbox(args: &[&str], stdin: &str) -> (String, String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shellbox"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// Runs `shellbox ... tool ...` and parses its JSON output.
fn tool(args: &[&str], stdin: &str) -> (Value, i32) {
    let (out, err, code) = shellbox(args, stdin);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out:?} {err:?}"));
    (v, code)
}

#[test]
fn tool_prints_the_json_result_or_a_structured_error() {
    let cases: &[(&[&str], &str, Value, i32)] = &[
        (
            &["tool", "read_file", r#"{"filePath": "/etc/hostname"}"#],
            "",
            json!({"content": "1: shellbox", "path": "/etc/hostname", "totalLines": 1, "truncated": false}),
            0,
        ),
        (
            &["tool", "bash"],
            r#"{"command": "echo hi; echo no >&2; exit 3"}"#,
            json!({"status": "completed", "exitCode": 3, "stdout": "hi\n", "stderr": "no\n", "truncated": false}),
            0,
        ),
        (
            &[
                "--env",
                "WHO=me",
                "tool",
                "bash",
                r#"{"command": "echo $WHO"}"#,
            ],
            "",
            json!({"status": "completed", "exitCode": 0, "stdout": "me\n", "stderr": "", "truncated": false}),
            0,
        ),
        (
            &["tool", "read_file", r#"{"filePath": "/nope"}"#],
            "",
            json!({"error": {"kind": "not_found", "message": "/nope: No such file or directory", "path": "/nope"}}),
            1,
        ),
    ];
    for (args, stdin, want, code) in cases {
        assert_eq!(tool(args, stdin), (want.clone(), *code), "{args:?}");
    }
    for (args, kind) in [
        (&["tool", "read_file", "{not json"][..], "invalid_input"),
        (
            &["tool", "read_file", r#"{"filePath": "a", "extra": 1}"#],
            "invalid_input",
        ),
        (&["tool", "frobnicate", "{}"], "unknown_tool"),
    ] {
        let (v, code) = tool(args, "");
        assert_eq!(
            (v["error"]["kind"].as_str(), code),
            (Some(kind), 1),
            "{args:?}"
        );
    }
    for args in [&["tool"][..], &["--session", "s", "tool", "bash", "{}"]] {
        let (_, err, code) = shellbox(args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}

#[test]
fn a_store_keeps_files_and_read_stamps_across_runs() {
    let store = TempDir::new("cli");
    fn with_store<'a>(store: &'a TempDir, rest: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec!["--store", store.arg(), "--session", "agent"];
        args.extend_from_slice(rest);
        args
    }
    let write = |content: &str| json!({"filePath": "a.txt", "content": content}).to_string();
    let steps: Vec<(Vec<String>, Value, i32)> = vec![
        (
            vec!["tool".into(), "write_file".into(), write("one\n")],
            json!({"existed": false, "path": "/workspace/a.txt"}),
            0,
        ),
        // The stamp from the first run's write still vouches for the file.
        (
            vec!["tool".into(), "write_file".into(), write("two\n")],
            json!({"existed": true, "path": "/workspace/a.txt"}),
            0,
        ),
    ];
    for (args, want, code) in &steps {
        let rest: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(
            tool(&with_store(&store, &rest), ""),
            (want.clone(), *code),
            "{args:?}"
        );
    }
    // A script run continues the same filesystem and changes the file.
    let (out, _, code) = shellbox(
        &with_store(&store, &["-c", "cat a.txt; echo three >> a.txt"]),
        "",
    );
    assert_eq!((out.as_str(), code), ("two\n", 0));
    let edit = json!({"filePath": "a.txt", "oldString": "two", "newString": "2"}).to_string();
    let (v, code) = tool(&with_store(&store, &["tool", "edit_file", &edit]), "");
    assert_eq!(
        (v["error"]["kind"].as_str(), code),
        (Some("changed_since_read"), 1)
    );
    tool(
        &with_store(&store, &["tool", "read_file", r#"{"filePath": "a.txt"}"#]),
        "",
    );
    let (v, code) = tool(&with_store(&store, &["tool", "edit_file", &edit]), "");
    assert_eq!(
        (v, code),
        (json!({"path": "/workspace/a.txt", "replacements": 1}), 0)
    );
    let (out, _, _) = shellbox(&with_store(&store, &["-c", "cat a.txt"]), "");
    assert_eq!(out, "2\nthree\n");
    // Another session name is another filesystem.
    let (out, _, _) = shellbox(
        &["--store", store.arg(), "--session", "other", "-c", "ls"],
        "",
    );
    assert_eq!(out, "");
}

#[test]
fn root_seeds_a_new_session_from_the_host() {
    let host = TempDir::new("cli");
    std::fs::write(host.path().join("x.txt"), "from host\n").unwrap();
    let (v, code) = tool(
        &[
            "--root",
            host.arg(),
            "tool",
            "read_file",
            r#"{"filePath": "x.txt"}"#,
        ],
        "",
    );
    assert_eq!((v["content"].as_str(), code), (Some("1: from host"), 0));
    // With a store, the seed applies to a new session only.
    let store = TempDir::new("cli");
    let args = |script: &'static str| ["--store", store.arg(), "--root", host.arg(), "-c", script];
    assert_eq!(shellbox(&args("rm x.txt; ls"), "").0, "");
    assert_eq!(shellbox(&args("ls"), "").0, "", "the removal persisted");
}

/// `--root` keeps the host's permission bits: a script with its exec bit runs, a
/// read-only file stays read-only.
#[test]
fn root_keeps_the_host_permission_bits() {
    use std::os::unix::fs::PermissionsExt;
    let host = TempDir::new("cli");
    host.write("build.sh", "#!/bin/bash\necho built\n");
    host.write("ro.txt", "keep\n");
    host.write("d/x", "x\n");
    let mode = |rel: &str, m: u32| {
        std::fs::set_permissions(host.path().join(rel), std::fs::Permissions::from_mode(m))
            .unwrap();
    };
    mode("build.sh", 0o755);
    mode("ro.txt", 0o444);
    mode("d", 0o555);
    let (out, err, code) = shellbox(
        &[
            "--root",
            host.arg(),
            "-c",
            "./build.sh; stat -c '%a %n' build.sh ro.txt d d/x; echo x > d/new",
        ],
        "",
    );
    mode("d", 0o755);
    assert_eq!(out, "built\n755 build.sh\n444 ro.txt\n555 d\n644 d/x\n");
    assert_eq!(err, "bash: line 1: d/new: Permission denied\n");
    assert_eq!(code, 1);
}

/// What the host process may not read shows as a real process sees it (a directory it
/// cannot list is empty and unlistable, a file it cannot open is unreadable, whatever
/// its mode says), with one warning, instead of ending the run. The binary runs as
/// nobody: the test needs root to drop to it (root itself reads everything).
#[test]
fn root_shows_unreadable_host_entries_as_unreadable_with_one_warning() {
    use std::os::unix::fs::PermissionsExt;
    let uid = Command::new("id").arg("-u").output().unwrap().stdout;
    if uid != b"0\n" {
        eprintln!("skipped: needs root to run the binary as nobody");
        return;
    }
    let host = TempDir::new("cli");
    host.write("ok.txt", "fine\n");
    host.write("locked/secret", "s\n");
    host.write("closed.txt", "c\n");
    host.write("private.txt", "p\n");
    let mode = |rel: &str, m: u32| {
        std::fs::set_permissions(host.path().join(rel), std::fs::Permissions::from_mode(m))
            .unwrap();
    };
    mode("", 0o755);
    mode("locked", 0o000);
    mode("closed.txt", 0o000);
    // Root's, readable by its owner only: the sandbox's user owns it by its mode, but
    // the host refuses the read.
    mode("private.txt", 0o600);
    let script = "cat ok.txt; ls locked; cat closed.txt; cat private.txt; \
                  stat -c '%a %n' locked closed.txt private.txt";
    let out = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(env!("CARGO_BIN_EXE_shellbox"))
        .args(["--root", host.arg(), "-c", script])
        .output();
    mode("locked", 0o755);
    let Ok(out) = out else {
        eprintln!("skipped: no setpriv to drop root with");
        return;
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stdout, "fine\n0 locked\n0 closed.txt\n600 private.txt\n");
    assert_eq!(
        stderr,
        format!(
            "shellbox: warning: --root {0}: cannot read {0}/locked: Permission denied \
             (shown empty or unreadable)\n\
             ls: cannot open directory 'locked': Permission denied\n\
             cat: closed.txt: Permission denied\n\
             cat: private.txt: Permission denied\n",
            host.arg()
        )
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_damaged_newest_snapshot_is_skipped_with_a_warning() {
    let store = TempDir::new("cli");
    let run = |script: &str| shellbox(&["--store", store.arg(), "-c", script], "");
    run("echo first > f");
    run("echo second > f");
    let dir = store.path().join("sessions/default");
    let mut manifests: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    manifests.sort();
    let newest = manifests.last().unwrap();
    let data = std::fs::read(newest).unwrap();
    std::fs::write(newest, &data[..data.len() / 2]).unwrap();
    let (out, err, code) = run("cat f");
    assert_eq!((out.as_str(), code), ("first\n", 0));
    assert!(
        err.contains("skipped damaged snapshot") && err.contains(newest.to_str().unwrap()),
        "{err}"
    );
}

#[test]
fn an_interactive_shell_prompts_reads_continuations_and_keeps_history() {
    let script = "x=1\nif true; then\necho $x\nfi\nls /nope\nexit 3\necho never\n";
    let (out, err, code) = shellbox(&["-i"], script);
    assert_eq!((out.as_str(), code), ("1\n", 3));
    assert_eq!(
        err,
        "bash-5.2$ bash-5.2$ > > bash-5.2$ ls: cannot access '/nope': No such file or directory\nbash-5.2$ "
    );
    // End of input ends the shell; with a store, history survives in $HISTFILE.
    let store = TempDir::new("cli");
    let (_, err, code) = shellbox(&["--store", store.arg(), "-i"], "echo one\n");
    assert_eq!((err.ends_with("exit\n"), code), (true, 0));
    let (out, _, _) = shellbox(&["--store", store.arg(), "-i"], "history\n");
    assert_eq!(out, "    1  echo one\n    2  history\n");
}

#[test]
fn process_substitution_files_last_only_as_long_as_their_command() {
    let (out, err, code) = shellbox(&["-c", "cat <(echo a) <(echo b); ls /dev/fd | wc -l"], "");
    assert_eq!((out.as_str(), err.as_str(), code), ("a\nb\n0\n", "", 0));
}

#[test]
fn endless_output_to_the_real_stdout_stops_at_the_output_limit() {
    for script in ["cat /dev/zero; echo never", "yes; echo never"] {
        let out = Command::new(env!("CARGO_BIN_EXE_shellbox"))
            .args(["-c", script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(126), "{script}: {err}");
        assert!(
            err.contains("output limit exceeded (268435456 bytes)"),
            "{err}"
        );
    }
    // --json captures both streams under the same cap.
    let out = Command::new(env!("CARGO_BIN_EXE_shellbox"))
        .args(["--json", "-c", "cat /dev/zero >&2"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exitCode"], 126);
    assert!(
        v["stderr"]
            .as_str()
            .unwrap()
            .ends_with("output limit exceeded (268435456 bytes)\n")
    );
}

#[test]
fn the_cli_sets_its_own_limits() {
    // --version and --help answer on stdout with status 0; --help lists every limit.
    let (out, _, code) = shellbox(&["--version"], "");
    assert_eq!(
        (out.as_str(), code),
        (concat!("shellbox ", env!("CARGO_PKG_VERSION"), "\n"), 0)
    );
    let (out, _, code) = shellbox(&["--help"], "");
    assert_eq!(code, 0);
    for (name, _) in shellbox::Limits::FIELDS {
        assert!(out.contains(name), "--help lists {name}");
    }
    let cases: &[(&[&str], &str, &str, i32)] = &[
        (
            &[
                "--limit",
                "max_loop_iterations=10",
                "-c",
                "while :; do :; done",
            ],
            "",
            "bash: loop iteration limit exceeded (10 iterations)\n",
            126,
        ),
        (
            &["--limits", "hardened", "-c", "echo {1..200000} >/dev/null"],
            "",
            "bash: brace expansion limit exceeded (100000 words)\n",
            126,
        ),
        // A later --limit changes the profile whichever comes first.
        (
            &[
                "--limit",
                "max_commands=3",
                "--limits",
                "hardened",
                "-c",
                "echo 1; echo 2; echo 3; echo 4",
            ],
            "1\n2\n3\n",
            "bash: command limit exceeded (3 commands)\n",
            126,
        ),
        (
            &[
                "--limit",
                "max_fs_bytes=1K",
                "-c",
                "head -c 2048 /dev/zero > f",
            ],
            "",
            "bash: line 1: f: No space left on device\nbash: filesystem size limit exceeded (1024 bytes)\n",
            126,
        ),
        (
            &[
                "--limit",
                "max_memory_bytes=1M",
                "-c",
                "x=a; while :; do x=$x$x; done",
            ],
            "",
            "bash: memory limit exceeded (1048576 bytes)\n",
            126,
        ),
        (
            &[
                "--limit",
                "max_io_bytes=1M",
                "-c",
                "cat /dev/zero > /dev/null",
            ],
            "",
            "bash: I/O limit exceeded (1048576 bytes)\n",
            126,
        ),
        (
            &["--timeout", "0.2", "-c", "while :; do :; done"],
            "",
            "bash: time limit exceeded (0 s)\n",
            126,
        ),
        (&["--limit", "nope=1", "-c", "true"], "", "", 2),
        (
            &["--limit", "max_files", "-c", "true"],
            "",
            "shellbox: --limit expects NAME=VALUE, got 'max_files'\n",
            2,
        ),
        (
            &["--limit", "max_files=many", "-c", "true"],
            "",
            "shellbox: --limit max_files=many: max_files must be a whole number (64, 64K, 64M, 1G), not \"many\"\n",
            2,
        ),
        (
            &["--timeout", "soon", "-c", "true"],
            "",
            "shellbox: --timeout soon: timeout must be seconds (0 or more), not \"soon\"\n",
            2,
        ),
        (
            &["--limits", "tight", "-c", "true"],
            "",
            "shellbox: --limits takes default or hardened, not 'tight'\n",
            2,
        ),
    ];
    for (args, want_out, want_err, want_code) in cases {
        let (out, err, code) = shellbox(args, "");
        assert_eq!(code, *want_code, "{args:?}: {err}");
        assert_eq!(out, *want_out, "{args:?}");
        if !want_err.is_empty() {
            assert_eq!(err, *want_err, "{args:?}");
        } else if *want_code == 2 {
            assert!(err.starts_with("shellbox: "), "{args:?}: {err}");
        }
    }
    // The same options for `tool`.
    let (v, code) = tool(
        &[
            "--limit",
            "max_loop_iterations=5",
            "tool",
            "bash",
            r#"{"command": "while :; do :; done"}"#,
        ],
        "",
    );
    assert_eq!((v["exitCode"].clone(), code), (json!(126), 0));
    assert!(
        v["stderr"]
            .as_str()
            .unwrap()
            .contains("loop iteration limit exceeded (5 iterations)")
    );
}

/// Waits for a child to exit, for at most `patience`.
fn wait_for(
    child: &mut std::process::Child,
    patience: std::time::Duration,
) -> Option<std::process::ExitStatus> {
    let started = std::time::Instant::now();
    while started.elapsed() < patience {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    None
}

#[test]
fn a_session_is_held_by_one_process_at_a_time() {
    let dir = TempDir::new("cli-lock");
    let store = ["--store", dir.arg(), "--session", "s"];
    // A script waiting on its stdin holds the session; a tool call on it is refused.
    let mut holder = Command::new(env!("CARGO_BIN_EXE_shellbox"))
        .args(store)
        .args(["-c", "echo ready; read line; echo \"$line\" > kept.txt"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Once it runs, it holds the session (it locks before running anything).
    let mut ready = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(holder.stdout.take().unwrap()),
        &mut ready,
    )
    .unwrap();
    assert_eq!(ready, "ready\n");
    let refused = |args: &[&str]| {
        let started = std::time::Instant::now();
        loop {
            let (_, err, code) = shellbox(args, "");
            if code == 2 && err.contains("in use by another process") {
                return err;
            }
            assert!(started.elapsed().as_secs() < 30, "{code}: {err}");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    };
    let err = refused(
        &[
            store.as_slice(),
            &["tool", "bash", r#"{"command": "true"}"#],
        ]
        .concat(),
    );
    assert!(
        err.starts_with("shellbox: --session s: session \"s\" is in use"),
        "{err}"
    );
    // And the other way round: an MCP server holds it against a script.
    holder
        .stdin
        .take()
        .unwrap()
        .write_all(b"from the first\n")
        .unwrap();
    assert!(
        wait_for(&mut holder, std::time::Duration::from_secs(30))
            .unwrap()
            .success()
    );
    let mut server = Command::new(env!("CARGO_BIN_EXE_shellbox"))
        .args(store)
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Once it answers, it holds the session (it locks before anything else).
    let mut to_server = server.stdin.take().unwrap();
    writeln!(to_server, r#"{{"jsonrpc":"2.0","id":1,"method":"ping"}}"#).unwrap();
    let mut from_server = std::io::BufReader::new(server.stdout.take().unwrap());
    let mut answer = String::new();
    std::io::BufRead::read_line(&mut from_server, &mut answer).unwrap();
    assert!(answer.contains("\"id\":1"), "{answer}");
    refused(&[store.as_slice(), &["-c", "cat kept.txt"]].concat());
    drop(to_server);
    assert!(
        wait_for(&mut server, std::time::Duration::from_secs(30))
            .unwrap()
            .success()
    );
    // Released: the next process gets the session, with the first one's work in it.
    let (out, err, code) = shellbox(&[store.as_slice(), &["-c", "cat kept.txt"]].concat(), "");
    assert_eq!((out.as_str(), code), ("from the first\n", 0), "{err}");
}

#[test]
fn sigterm_stops_the_mcp_server_saving_its_session() {
    let dir = TempDir::new("cli-sigterm");
    let store = ["--store", dir.arg(), "--session", "s"];
    let mut server = Command::new(env!("CARGO_BIN_EXE_shellbox"))
        .args(store)
        .args(["--bash-wait", "600", "mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(server.stdout.take().unwrap()));
    let mut send = |msg: &str| {
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
    };
    send(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#,
    );
    lines.next().unwrap().unwrap();
    // A call still running when the signal comes: its changes so far are saved too.
    send(
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"echo partial > work.txt; while :; do :; done"}}}"#,
    );
    send(
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"glob","arguments":{"pattern":"work.txt"}}}"#,
    );
    let started = std::time::Instant::now();
    loop {
        let line = lines.next().unwrap().unwrap();
        if line.contains("\"id\":3") && line.contains("\"count\":1") {
            break;
        }
        send(
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"glob","arguments":{"pattern":"work.txt"}}}"#,
        );
        assert!(started.elapsed().as_secs() < 30);
    }
    let pid = server.id().to_string();
    let signalled = std::time::Instant::now();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status =
        wait_for(&mut server, std::time::Duration::from_secs(5)).expect("the server exits");
    assert!(status.success(), "{status}");
    assert!(
        signalled.elapsed() < std::time::Duration::from_secs(1),
        "{:?}",
        signalled.elapsed()
    );
    let (out, err, code) = shellbox(&[store.as_slice(), &["-c", "cat work.txt"]].concat(), "");
    assert_eq!((out.as_str(), code), ("partial\n", 0), "{err}");
}

#[test]
fn a_script_file_that_cannot_be_read_is_reported_as_bash_reports_it() {
    let dir = std::env::temp_dir().join(format!("shellbox-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.sh");
    let missing = missing.to_str().unwrap();
    let (out, err, code) = shellbox(&[missing], "");
    assert_eq!(
        (out.as_str(), err, code),
        (
            "",
            format!("bash: {missing}: No such file or directory\n"),
            127
        )
    );
    let d = dir.to_str().unwrap();
    let (_, err, code) = shellbox(&[d], "");
    assert_eq!((err, code), (format!("{d}: {d}: Is a directory\n"), 126));
    let _ = std::fs::remove_dir_all(&dir);
}
