#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! What the language bindings of issues 21 and 22 need from the Rust API, pinned in
//! Rust first: run options (cancellation tokens, words for the first command, the
//! variables a run leaves), why a run stopped (a limit by name, cancellation, a bug in
//! shellbox), spawned processes with a writable stdin, O(1) forks, persistent shells
//! over a sandbox's filesystem, file operations with `rm`/`cp` choices and limit
//! errors, deleting a stored session, commands registered on a live sandbox or
//! shell, a shell forked with its sandbox, and MCP-shaped tool results.

mod common;

use std::time::Duration;

use common::TempDir;
use shellbox::commands::Registry;
use shellbox::interp::Stopped;
use shellbox::session::{
    CancelToken, INTERNAL_ERROR, RemoveOptions, RunOptions, Sandbox, SandboxErrorKind, TERMINATED,
};
use shellbox::store::Store;
use shellbox::{Limits, Shell};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[tokio::test]
async fn args_go_to_the_first_command_only_and_unparsed() {
    let sb = Sandbox::new();
    let cases: &[(&str, &[&str], &str)] = &[
        ("printf '<%s>'", &["a b", "*", "$HOME"], "<a b><*><$HOME>"),
        ("x=1; printf '%s.' $x; echo", &["y"], "1.y.\n"),
        ("echo one; echo two", &["extra"], "one extra\ntwo\n"),
        ("echo a | cat; echo b", &["-n"], "a -n\nb\n"),
        ("echo plain", &[], "plain\n"),
    ];
    for (script, args, want) in cases {
        let out = sb
            .run(RunOptions::new(*script).args(args.iter().copied()))
            .await
            .unwrap();
        assert_eq!(text(&out.stdout), *want, "{script} {args:?}");
    }
    let mut sh = Shell::new();
    let out = sh.run(RunOptions::new("grep -c x").args(["-"]).stdin("x\ny\nx\n"));
    assert_eq!(text(&out.stdout), "2\n");
    // Taken by that run: the next one runs as written.
    assert_eq!(sh.exec("echo next").stdout, b"next\n");
}

#[tokio::test]
async fn capture_env_reports_the_shell_variables_at_the_end() {
    let sb = Sandbox::builder().env("BASE", "b").build();
    let out = sb
        .run(RunOptions::new("x=1; export Y=2; cd /tmp; arr=(1 2)").capture_env())
        .await
        .unwrap();
    let env = out.env.unwrap();
    assert_eq!(env["x"], "1");
    assert_eq!(env["Y"], "2");
    assert_eq!(env["BASE"], "b");
    assert_eq!(env["PWD"], "/tmp");
    assert!(!env.contains_key("arr"), "arrays are not scalars");
    assert_eq!(sb.run("true").await.unwrap().env, None, "only when asked");
}

#[tokio::test]
async fn shell_run_options_last_for_that_run_only() {
    let mut sh = Shell::new();
    sh.exec("mkdir -p /workspace/sub; V=keep");
    let out = sh.run(
        RunOptions::new("pwd; echo $V $W; cd /tmp")
            .cwd("sub")
            .env("V", "tmp")
            .env("W", "w"),
    );
    assert_eq!(text(&out.stdout), "/workspace/sub\ntmp w\n");
    // The directory given for the run is put back, and so are the variables; the
    // script's own `cd` happened inside that run's directory and is undone with it.
    let out = sh.exec("pwd; echo $V ${W-unset}");
    assert_eq!(text(&out.stdout), "/workspace\nkeep unset\n");
    let out = sh.run(RunOptions::new("pwd").cwd("/nowhere"));
    assert_eq!(out.exit_code, 1);
    assert_eq!(
        text(&out.stderr),
        "shellbox: working directory /nowhere does not exist\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_token_stops_a_run_at_its_next_command() {
    let mut limits = Limits::default();
    limits.max_loop_iterations = u64::MAX;
    let sb = Sandbox::builder().limits(limits.clone()).build();
    let token = CancelToken::new();
    let run = sb.run(RunOptions::new("echo started; while :; do :; done").cancel(token.clone()));
    let canceller = async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        token.cancel();
    };
    let (out, ()) = tokio::join!(run, canceller);
    let out = out.unwrap();
    assert_eq!(out.exit_code, TERMINATED);
    assert_eq!(out.stopped, Some(Stopped::Cancelled));
    assert_eq!(text(&out.stdout), "started\n");

    let mut sh = Shell::builder().limits(limits).build();
    let token = CancelToken::new();
    let t = token.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        t.cancel();
    });
    let out = sh.run(RunOptions::new("while :; do :; done").cancel(token));
    stopper.join().unwrap();
    assert_eq!(
        (out.exit_code, out.stopped),
        (TERMINATED, Some(Stopped::Cancelled))
    );
    // The shell is usable afterwards, with a fresh budget.
    assert_eq!(sh.exec("echo again").stdout, b"again\n");
}

#[tokio::test]
async fn a_limit_is_reported_by_name() {
    let mut limits = Limits::default();
    limits.max_loop_iterations = 50;
    limits.max_commands = 1_000;
    limits.max_call_depth = 20;
    let sb = Sandbox::builder().limits(limits.clone()).build();
    let cases = [
        ("while :; do :; done", "max_loop_iterations"),
        ("for i in $(seq 2000); do :; done", "max_loop_iterations"),
        (
            "f() { :; }; f;f;f;f;f;f;f;f;f;f; eval \"$(printf 'f;%.0s' {1..2000})\"",
            "max_commands",
        ),
        ("x() { x; }; x", "max_call_depth"),
    ];
    for (script, limit) in cases {
        let out = sb.run(script).await.unwrap();
        assert_eq!(out.exit_code, 126, "{script}");
        match out.stopped {
            Some(Stopped::Limit { limit: l, message }) => {
                assert_eq!(l, limit, "{script}");
                assert!(text(&out.stderr).contains(&message), "{script}: {message}");
            }
            other => panic!("{script}: {other:?}"),
        }
    }
    assert_eq!(sb.run("echo fine").await.unwrap().stopped, None);
}

#[tokio::test]
async fn a_bug_in_a_command_is_an_internal_error_not_a_crash() {
    let mut registry = Registry::with_builtins();
    registry.register("boom", |_| panic!("kaboom"));
    let sb = Sandbox::builder().registry(registry.clone()).build();
    let out = sb.run("echo before; boom; echo never").await.unwrap();
    assert_eq!(out.exit_code, INTERNAL_ERROR);
    assert_eq!(out.stopped, Some(Stopped::Internal("kaboom".into())));
    assert_eq!(text(&out.stdout), "before\n");
    assert_eq!(text(&out.stderr), "shellbox: internal error: kaboom\n");
    assert_eq!(sb.run("echo after").await.unwrap().stdout, b"after\n");

    let mut sh = Shell::builder().registry(registry).build();
    let out = sh.exec("boom");
    assert_eq!(out.exit_code, INTERNAL_ERROR);
    assert_eq!(out.stopped, Some(Stopped::Internal("kaboom".into())));
    assert_eq!(sh.exec("echo after").stdout, b"after\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spawn_with_a_stdin_pipe_reads_what_is_written() {
    let sb = Sandbox::new();
    let mut p = sb
        .spawn(
            RunOptions::new("while read -r line; do echo \"got $line\"; done; echo eof")
                .stdin_pipe(),
        )
        .await
        .unwrap();
    let stdin = p.stdin.take().unwrap();
    stdin.write(b"one\n").unwrap();
    assert_eq!(p.stdout.next_chunk().await.unwrap(), b"got one\n");
    // More than a pipe holds: the writer waits for the reader.
    let big = "x".repeat(200_000) + "\n";
    let writer = std::thread::spawn(move || {
        stdin.write(big.as_bytes()).unwrap();
        stdin.close();
        stdin.close(); // closing twice does nothing
        stdin
    });
    let rest = p.stdout.read_to_end().await;
    assert_eq!(rest.len(), "got ".len() + 200_001 + "eof\n".len());
    assert_eq!(p.wait().await, 0);
    let stdin = writer.join().unwrap();
    let err = stdin.write(b"late").unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::BrokenPipe);

    // A killed process's stdin refuses writes instead of blocking.
    let mut p = sb
        .spawn(RunOptions::new("sleep 1; while :; do :; done").stdin_pipe())
        .await;
    if let Ok(p) = &mut p {
        let stdin = p.stdin.take().unwrap();
        p.kill().await;
        let full = vec![b'y'; 1 << 20];
        assert_eq!(
            stdin.write(&full).unwrap_err().kind(),
            std::io::ErrorKind::BrokenPipe
        );
    }
    // Without the option there is no pipe.
    assert!(sb.spawn("true").await.unwrap().stdin.is_none());
}

#[tokio::test]
async fn fork_is_an_independent_copy_and_shell_shares_the_filesystem() {
    let sb = Sandbox::builder().file("a.txt", "1").env("E", "e").build();
    sb.call_tool("read_file", serde_json::json!({"filePath": "a.txt"}))
        .await
        .unwrap();
    let fork = sb.fork();
    assert_ne!(fork.id(), sb.id());
    assert_eq!(fork.read_stamps(), sb.read_stamps());
    assert_eq!(
        fork.run("echo $E; cat a.txt").await.unwrap().stdout,
        b"e\n1"
    );
    fork.write_text_file("a.txt", "2").await.unwrap();
    sb.write_text_file("b.txt", "b").await.unwrap();
    assert_eq!(sb.read_text_file("a.txt").await.unwrap(), "1");
    assert!(fork.read_text_file("b.txt").await.is_err());

    let mut sh = sb.shell();
    sh.exec("n=5; f() { echo f$n; }; echo made > made.txt");
    assert_eq!(sh.exec("f; pwd").stdout, b"f5\n/workspace\n");
    assert_eq!(sb.read_text_file("made.txt").await.unwrap(), "made\n");
    assert_eq!(sh.exec("echo $E").stdout, b"e\n");
}

#[tokio::test]
async fn remove_and_copy_follow_rm_and_cp() {
    let sb = Sandbox::builder()
        .file("d/a.txt", "a")
        .file("d/sub/b.txt", "b")
        .file("f.txt", "f")
        .build();
    let kind = |r: Result<(), shellbox::session::SandboxError>| r.unwrap_err().kind();
    assert_eq!(
        kind(sb.remove("nope", RemoveOptions::default())),
        SandboxErrorKind::NotFound
    );
    sb.remove("nope", RemoveOptions::new(false, true)).unwrap();
    assert_eq!(
        kind(sb.remove("d", RemoveOptions::default())),
        SandboxErrorKind::NotEmpty
    );
    assert_eq!(
        kind(sb.copy("d", "e", false)),
        SandboxErrorKind::IsDirectory
    );
    assert_eq!(
        kind(sb.copy("d", "d/sub/x", true)),
        SandboxErrorKind::InvalidArgument
    );
    sb.fs().symlink("a.txt", "/workspace/d/link").unwrap();
    sb.copy("d", "e", true).unwrap();
    let out = sb
        .run("find e | sort; cat e/sub/b.txt; readlink e/link")
        .await
        .unwrap();
    assert_eq!(
        text(&out.stdout),
        "e\ne/a.txt\ne/link\ne/sub\ne/sub/b.txt\nba.txt\n"
    );
    sb.copy("f.txt", "e/a.txt", false).unwrap();
    assert_eq!(sb.read_text_file("e/a.txt").await.unwrap(), "f");
    sb.rename("e", "g").unwrap();
    sb.remove("g", RemoveOptions::new(true, false)).unwrap();
    assert!(sb.run("test -e g").await.unwrap().exit_code != 0);
    sb.remove("f.txt", RemoveOptions::default()).unwrap();
}

#[tokio::test]
async fn a_write_over_a_limit_is_a_limit_error() {
    let mut limits = Limits::default();
    limits.max_file_bytes = 10;
    let sb = Sandbox::builder().limits(limits).build();
    let err = sb
        .write_text_file("big", "more than ten bytes")
        .await
        .unwrap_err();
    assert_eq!(err.kind(), SandboxErrorKind::LimitExceeded);
    assert!(
        err.message()
            .contains("file size limit exceeded (10 bytes)"),
        "{}",
        err.message()
    );
    sb.write_text_file("small", "ok").await.unwrap();
}

#[tokio::test]
async fn a_stored_session_can_be_deleted() {
    let dir = TempDir::new("embedding-delete");
    let store = Store::open(dir.path()).unwrap();
    let sb = Sandbox::builder().file("a", "1").build();
    sb.save(&store, "s1").await.unwrap();
    sb.save(&store, "s2").await.unwrap();
    assert!(store.delete("s1").unwrap());
    assert!(!store.delete("s1").unwrap());
    assert_eq!(store.sessions().unwrap(), ["s2"]);
    assert!(Sandbox::builder().load(&store, "s1").is_err());
    assert!(store.delete("../escape").is_err(), "names are checked");
}

#[tokio::test]
async fn host_commands_are_listed_on_a_filesystem_made_elsewhere() {
    let mut registry = Registry::with_builtins();
    registry.register("greet", |ctx| {
        writeln!(ctx.stdout, "hi")?;
        Ok(0)
    });
    let plain = Sandbox::new();
    let sb = Sandbox::builder()
        .registry(registry.clone())
        .filesystem(plain.snapshot())
        .build();
    let out = sb.run("greet; command -v greet").await.unwrap();
    assert_eq!(text(&out.stdout), "hi\n/usr/bin/greet\n");
    let mut sh = Shell::builder()
        .registry(registry)
        .filesystem(plain.snapshot())
        .build();
    assert_eq!(text(&sh.exec("greet").stdout), "hi\n");
    assert_eq!(plain.run("command -v greet").await.unwrap().exit_code, 1);
}

#[tokio::test]
async fn a_command_registered_later_serves_later_runs_only() {
    let sb = Sandbox::new();
    let before = sb.fork();
    let mut sh = sb.shell();
    sb.register("hello", |ctx| {
        writeln!(ctx.stdout, "hi {}", ctx.args.join(","))?;
        Ok(0)
    });
    let out = sb.run("hello a b; command -v hello").await.unwrap();
    assert_eq!(text(&out.stdout), "hi a,b\n/usr/bin/hello\n");
    // Made before: a fork keeps its commands, and so does a shell.
    assert_eq!(before.run("hello").await.unwrap().exit_code, 127);
    assert_eq!(sh.exec("hello").exit_code, 127);
    assert_eq!(sb.fork().run("hello x").await.unwrap().stdout, b"hi x\n");

    // A shell's own registration replaces a built-in for that shell alone.
    sh.register("wc", |ctx| {
        writeln!(ctx.stdout, "not wc")?;
        Ok(5)
    });
    let out = sh.exec("echo x | wc -l");
    assert_eq!((text(&out.stdout), out.exit_code), ("not wc\n".into(), 5));
    assert_eq!(sb.run("echo x | wc -l").await.unwrap().stdout, b"1\n");
}

#[tokio::test]
async fn a_shell_forked_onto_a_forked_sandbox_is_an_independent_session() {
    let sb = Sandbox::builder().file("f", "0").build();
    let mut sh = sb.shell();
    sh.exec("n=1; f() { echo \"f$n\"; }; alias ll='echo ll'; cd /tmp; sleep 5 &");
    let fork = sb.fork();
    let mut copy = sh.fork_onto(&fork);
    assert_eq!(
        text(&copy.exec("f; pwd; cat /workspace/f").stdout),
        "f1\n/tmp\n0"
    );
    assert_eq!(copy.exec("jobs").stdout, b"", "jobs stay with their shell");
    copy.exec("n=2; echo 1 > /workspace/f");
    assert_eq!(text(&sh.exec("f; cat /workspace/f").stdout), "f1\n0");
    assert_eq!(fork.read_text_file("f").await.unwrap(), "1\n");
    // Same state in, same bytes out.
    let twice = || sh.fork_onto(&sb.fork()).exec("echo $RANDOM $$").stdout;
    assert_eq!(twice(), twice());
}

#[tokio::test]
async fn mcp_call_results_have_the_servers_shape() {
    let sb = Sandbox::builder().file("a.txt", "x\n").build();
    let read = sb
        .call_tool("read_file", serde_json::json!({"filePath": "a.txt"}))
        .await;
    let result = shellbox::mcp::call_result("read_file", read);
    assert_eq!(result["isError"], false);
    assert_eq!(result["structuredContent"]["content"], "1: x");
    let failed = sb
        .call_tool(
            "edit_file",
            serde_json::json!({"filePath": "nope", "oldString": "a", "newString": "b"}),
        )
        .await;
    let result = shellbox::mcp::call_result("edit_file", failed);
    assert_eq!(result["isError"], true);
    assert!(result.get("structuredContent").is_none());
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.ends_with("(not_found)"), "{text}");
}

#[tokio::test]
async fn pids_go_on_across_a_store_round_trip() {
    let dir = TempDir::new("embedding-pids");
    let store = Store::open(dir.path()).unwrap();
    let sb = Sandbox::new();
    let first = sb.spawn("true").await.unwrap();
    first.wait().await;
    sb.save(&store, "s").await.unwrap();
    let (again, _) = Sandbox::builder().load(&store, "s").unwrap();
    let next = again.spawn("echo $$").await.unwrap();
    assert!(
        next.pid() > first.pid(),
        "{} after {}",
        next.pid(),
        first.pid()
    );
    next.wait().await;
}

#[tokio::test]
async fn a_run_whose_last_command_took_the_shells_place_leaves_the_shell_itself() {
    let mut sh = Shell::new();
    // As in `bash -c`, the last command runs as the shell's own process, with SHLVL
    // one lower in its environment...
    assert_eq!(text(&sh.exec("printenv SHLVL").stdout), "0\n");
    assert_eq!(text(&sh.exec("ps -o pid=,comm=").stdout), " 4242 ps\n");
    // ...and the next run finds the session's shell as it was.
    let out = sh.exec("echo $SHLVL; ps -o comm= -p $$; :");
    assert_eq!(text(&out.stdout), "1\nbash\n");
}
