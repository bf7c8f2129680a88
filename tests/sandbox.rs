#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! The embedding API of issue 4: `Sandbox` (eve's session operations over one
//! filesystem — run, spawn, files, stop, id, network policy, cancellation) and
//! `Template` (bootstrap once, fork per session, rebuild when the key or seed changes).

use std::sync::{Arc, Mutex};
use std::time::Duration;

mod common;

use common::TempDir;
use shellbox::Limits;
use shellbox::session::{
    NetworkPolicy, RunOptions, Sandbox, SandboxError, SandboxErrorKind, TERMINATED, Template,
};

/// Limits under which `while :; do :; done` runs until it is stopped.
fn endless() -> Limits {
    let mut limits = Limits::default();
    limits.max_loop_iterations = u64::MAX;
    limits
}

#[tokio::test]
async fn run_is_a_fresh_shell_over_a_shared_filesystem() {
    let sb = Sandbox::builder().env("GREETING", "hello").build();
    let cases: &[(&str, &str, &str, i32)] = &[
        ("pwd", "/workspace\n", "", 0),
        (
            "cd /tmp && x=1 && f() { :; } && echo data > file",
            "",
            "",
            0,
        ),
        (
            "pwd; echo ${x-unset}; type f 2>/dev/null || echo no-f; cat /tmp/file",
            "/workspace\nunset\nno-f\ndata\n",
            "",
            0,
        ),
        (
            "echo $GREETING; echo oops >&2; exit 7",
            "hello\n",
            "oops\n",
            7,
        ),
    ];
    for (command, stdout, stderr, code) in cases {
        let out = sb.run(*command).await.unwrap();
        assert_eq!(
            (
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr),
                out.exit_code
            ),
            ((*stdout).into(), (*stderr).into(), *code),
            "{command}"
        );
    }
    sb.run("mkdir sub").await.unwrap();
    let opts = RunOptions::new("cat; pwd; echo $K $GREETING")
        .cwd("sub")
        .env("K", "v")
        .stdin("in\n");
    assert_eq!(
        sb.run(opts).await.unwrap().stdout,
        b"in\n/workspace/sub\nv hello\n"
    );
    let missing = sb
        .run(RunOptions::new("true").cwd("nope"))
        .await
        .unwrap_err();
    assert_eq!(missing.kind(), SandboxErrorKind::NotFound);
}

#[tokio::test]
async fn spawn_streams_output_and_reports_the_exit_code() {
    let sb = Sandbox::builder().limits(endless()).build();
    let mut quick = sb.spawn("echo a; echo b >&2; exit 5").await.unwrap();
    assert_eq!(quick.stdout.read_to_end().await, b"a\n");
    assert_eq!(quick.stderr.read_to_end().await, b"b\n");
    assert_eq!(quick.wait().await, 5);
    quick.kill().await; // killing an ended process changes nothing
    assert_eq!((quick.try_status(), quick.wait().await), (Some(5), 5));

    let mut slow = sb.spawn("echo up; while :; do :; done").await.unwrap();
    assert_ne!(slow.pid(), quick.pid());
    assert_eq!(slow.stdout.next_chunk().await.unwrap(), b"up\n");
    assert_eq!(slow.try_status(), None);
    slow.kill().await;
    slow.kill().await; // idempotent
    assert_eq!(slow.wait().await, TERMINATED);
    assert_eq!(
        slow.stdout.next_chunk().await,
        None,
        "the stream ends with the process"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_redirected_away_does_not_hold_the_output_open() {
    // As under bash, the output ends with the command when no process still running
    // holds it: a job whose redirections replaced stdout, or one started in a
    // subshell that did, keeps no hold on the stream.
    let sb = Sandbox::builder().limits(endless()).build();
    for script in [
        "(until [ -e /tmp/go ]; do sleep 1; done) > /dev/null 2>&1 &",
        "( (until [ -e /tmp/go ]; do sleep 1; done &) ) > /dev/null 2>&1",
        "until [ -e /tmp/go ]; do sleep 1; done > /dev/null 2>&1 &",
    ] {
        let mut p = sb.spawn(&format!("echo up; {script}")).await.unwrap();
        let out = tokio::time::timeout(Duration::from_secs(20), p.stdout.read_to_end()).await;
        assert_eq!(out.as_deref(), Ok(&b"up\n"[..]), "{script}");
        assert_eq!(p.wait().await, 0);
    }
    sb.write_text_file("/tmp/go", "").await.unwrap();
}

#[tokio::test]
async fn file_operations_resolve_paths_and_create_parents() {
    let sb = Sandbox::new();
    for (given, want) in [
        ("repo/build.py", "/workspace/repo/build.py"),
        ("./a/../b", "/workspace/b"),
        ("/etc/hostname", "/etc/hostname"),
        ("../../..", "/"),
    ] {
        assert_eq!(sb.resolve_path(given), want);
    }
    sb.write_text_file("a/b/c.txt", "text\n").await.unwrap();
    sb.write_binary_file("/tmp/deep/bin", [0xff, 0, 1])
        .await
        .unwrap();
    assert_eq!(
        sb.read_text_file("/workspace/a/b/c.txt").await.unwrap(),
        "text\n"
    );
    assert_eq!(
        sb.read_binary_file("/tmp/deep/bin").await.unwrap(),
        [0xff, 0, 1]
    );
    assert_eq!(sb.run("cat a/b/c.txt").await.unwrap().stdout, b"text\n");
    fn kind<T: std::fmt::Debug>(r: Result<T, SandboxError>) -> SandboxErrorKind {
        r.unwrap_err().kind()
    }
    assert_eq!(
        kind(sb.read_text_file("/tmp/deep/bin").await),
        SandboxErrorKind::InvalidUtf8
    );
    assert_eq!(
        kind(sb.read_text_file("missing").await),
        SandboxErrorKind::NotFound
    );
    assert_eq!(
        kind(sb.read_binary_file("a").await),
        SandboxErrorKind::IsDirectory
    );
    assert_eq!(
        kind(sb.write_text_file("/etc/x", "").await),
        SandboxErrorKind::PermissionDenied
    );
    sb.remove_path("a/b/c.txt").await.unwrap();
    sb.write_text_file("a/b/d.txt", "").await.unwrap();
    sb.remove_path("a").await.unwrap();
    assert_eq!(kind(sb.remove_path("a").await), SandboxErrorKind::NotFound);
    assert_eq!(
        sb.run("ls /workspace | wc -l").await.unwrap().stdout,
        b"0\n"
    );
}

#[tokio::test]
async fn stop_ends_every_command_and_the_sandbox_stays_usable() {
    let sb = Sandbox::builder().limits(endless()).build();
    let a = sb.spawn("while :; do :; done").await.unwrap();
    let b = sb.spawn("while :; do :; done").await.unwrap();
    sb.stop().await;
    assert_eq!(
        (a.try_status(), b.try_status()),
        (Some(TERMINATED), Some(TERMINATED))
    );
    assert_eq!(sb.run("echo after").await.unwrap().stdout, b"after\n");
}

/// The size of `/tmp/log`, which a cancelled writer must stop growing.
async fn stops_growing(sb: &Sandbox) -> bool {
    tokio::time::sleep(Duration::from_millis(150)).await;
    let before = sb.read_binary_file("/tmp/log").await.map_or(0, |d| d.len());
    tokio::time::sleep(Duration::from_millis(300)).await;
    let after = sb.read_binary_file("/tmp/log").await.map_or(0, |d| d.len());
    before > 0 && before == after
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_aborting_or_releasing_cancels_work() {
    let writer = "while :; do echo x >> /tmp/log; done";
    // Dropping the future of run (here by a timeout) stops the command.
    let sb = Sandbox::builder().limits(endless()).build();
    let timed_out = tokio::time::timeout(Duration::from_millis(200), sb.run(writer)).await;
    assert!(timed_out.is_err());
    assert!(stops_growing(&sb).await, "dropped run keeps writing");
    // So does aborting a task that runs it.
    let sb = Sandbox::builder().limits(endless()).build();
    let task = tokio::spawn({
        let sb = sb.clone();
        async move { sb.run(writer).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    task.abort();
    assert!(stops_growing(&sb).await, "aborted run keeps writing");
    // Releasing the last handle of a sandbox stops its background processes.
    let sb = Sandbox::builder().limits(endless()).build();
    let p = sb.spawn("while :; do :; done").await.unwrap();
    drop(sb);
    assert_eq!(p.wait().await, TERMINATED);
}

#[tokio::test]
async fn ids_are_stable_per_session_and_distinct_across_sessions() {
    let a = Sandbox::new();
    let b = Sandbox::new();
    assert_eq!(a.id(), a.clone().id());
    assert_ne!(a.id(), b.id());
    assert!(
        a.id().starts_with("sbx_") && a.id().len() == 20,
        "{}",
        a.id()
    );
    assert_eq!(Sandbox::builder().id("session-7").build().id(), "session-7");
}

#[tokio::test]
async fn network_policies_are_refused() {
    let sb = Sandbox::new();
    for policy in [
        NetworkPolicy::AllowAll,
        NetworkPolicy::DenyAll,
        NetworkPolicy::Allow(vec!["*.github.com".into()]),
    ] {
        let err = sb.set_network_policy(policy).await.unwrap_err();
        assert_eq!(err.kind(), SandboxErrorKind::Unsupported);
        assert!(err.message().contains("no network"), "{}", err.message());
    }
}

#[tokio::test]
async fn template_bootstraps_once_and_forks_sessions() {
    let seed = TempDir::new("seed");
    seed.write("schema.sql", "create table t;\n");
    seed.write("scripts/run.sh", "echo run\n");
    let key = Arc::new(Mutex::new("v1".to_owned()));
    let template = Template::builder()
        .seed_dir(seed.path())
        .revalidation_key({
            let key = key.clone();
            move || key.lock().unwrap().clone()
        })
        .bootstrap(|sb| async move {
            // Bootstrap sees the seed files.
            sb.run("cat schema.sql > boot.txt; mkdir -p /home/user/cache")
                .await?;
            Ok(())
        })
        .build();
    assert_eq!(
        template.builds(),
        0,
        "nothing runs before the first session"
    );
    let s1 = template.session().await.unwrap();
    let s2 = template.session().await.unwrap();
    assert_eq!(template.builds(), 1);
    assert_ne!(s1.id(), s2.id());
    for s in [&s1, &s2] {
        let out = s
            .run("cat boot.txt; bash scripts/run.sh; test -d $HOME/cache && echo cached")
            .await
            .unwrap();
        assert_eq!(out.stdout, b"create table t;\nrun\ncached\n");
    }
    // Sessions are isolated forks.
    s1.write_text_file("boot.txt", "changed\n").await.unwrap();
    assert_eq!(
        s2.read_text_file("boot.txt").await.unwrap(),
        "create table t;\n"
    );
    // Nothing changed: no rebuild.
    assert!(!template.revalidate().await.unwrap());
    // A new key rebuilds; so does new seed content.
    *key.lock().unwrap() = "v2".to_owned();
    assert!(template.revalidate().await.unwrap());
    assert_eq!(template.builds(), 2);
    let before = template.fingerprint().unwrap();
    seed.write("schema.sql", "create table u;\n");
    assert_ne!(template.fingerprint().unwrap(), before);
    assert!(template.revalidate().await.unwrap());
    assert_eq!(template.builds(), 3);
    let s3 = template.session().await.unwrap();
    assert_eq!(
        s3.read_text_file("boot.txt").await.unwrap(),
        "create table u;\n"
    );
    assert_eq!(
        s1.read_text_file("boot.txt").await.unwrap(),
        "changed\n",
        "old sessions keep theirs"
    );
}

#[tokio::test]
async fn a_failed_bootstrap_is_reported() {
    let template = Template::builder()
        .bootstrap(|sb| async move {
            sb.read_text_file("missing.txt").await?;
            Ok(())
        })
        .build();
    let err = template.session().await.unwrap_err();
    assert_eq!(err.kind(), SandboxErrorKind::Bootstrap);
    assert!(err.message().contains("missing.txt"), "{}", err.message());
}

/// eve's `bash` tool launcher (its script as eve runs it through `spawn`, `$1` the
/// job directory and `$2` the agent's command, wrapped as eve wraps it).
fn eve_launcher(dir: &str, command: &str) -> String {
    let launcher = r#"d=$1
mkdir -p "$d" 2>/dev/null || { eval "$2"; exit; }
trap 'exit 0' USR1
echo "$$" > "$d/launcher"
set -m
(
  trap : TERM INT
  (eval "$2") > "$d/stdout" 2> "$d/stderr"
  code=$?
  echo "$code" > "$d/exit"
  exit "$code"
) < /dev/null > /dev/null 2>&1 &
pid=$!
set +m
echo "$pid" > "$d/pid"
wait "$pid" 2> /dev/null
code=$?
mkdir "$d/claimed" 2> /dev/null || exit 0
cat "$d/stdout"
cat "$d/stderr" >&2
rm -rf "$d"
exit "$code""#;
    let q = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    format!(
        "if command -v bash >/dev/null 2>&1 && kill -0 \"$$\" 2>/dev/null; then set -- {} {}; eval {}; fi; eval {}",
        q(dir),
        q(command),
        q(launcher),
        q(command)
    )
}

/// Waits (a few seconds at most) until `path` exists and returns its text.
async fn appears(sb: &Sandbox, path: &str) -> String {
    for _ in 0..500 {
        if let Ok(text) = sb.read_text_file(path).await {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{path} never appeared");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eve_launcher_completes_or_is_claimed_and_its_job_goes_on() {
    let sb = Sandbox::builder().limits(endless()).build();
    // A command that ends by itself: the launcher prints its output and status.
    let mut quick = sb
        .spawn(eve_launcher("/tmp/j1", "echo out; echo err >&2; exit 5"))
        .await
        .unwrap();
    assert_eq!(quick.stdout.read_to_end().await, b"out\n");
    assert_eq!(quick.stderr.read_to_end().await, b"err\n");
    assert_eq!(quick.wait().await, 5);
    assert!(
        sb.read_text_file("/tmp/j1/pid").await.is_err(),
        "cleaned up"
    );

    // One that runs until told: another run claims it and signals the launcher,
    // which exits at once while the job (a process group of its own) goes on.
    let waits = "until [ -e /tmp/go ]; do sleep 1; done; echo finished";
    let mut slow = sb.spawn(eve_launcher("/tmp/j2", waits)).await.unwrap();
    let pid = appears(&sb, "/tmp/j2/pid").await.trim().to_owned();
    let launcher = sb.read_text_file("/tmp/j2/launcher").await.unwrap();
    assert_eq!(launcher.trim(), slow.pid().to_string());
    let claim = sb
        .run("cd /tmp/j2 && mkdir claimed && kill -USR1 \"$(cat launcher)\"")
        .await
        .unwrap();
    assert_eq!((claim.exit_code, claim.stderr), (0, Vec::new()));
    assert_eq!(slow.wait().await, 0);
    assert_eq!(slow.stdout.read_to_end().await, b"");
    let probe = format!("kill -0 {pid} && kill -s 0 -- -{pid} && echo running");
    assert_eq!(sb.run(probe.as_str()).await.unwrap().stdout, b"running\n");
    sb.write_text_file("/tmp/go", "").await.unwrap();
    assert_eq!(appears(&sb, "/tmp/j2/exit").await, "0\n");
    assert_eq!(
        sb.read_text_file("/tmp/j2/stdout").await.unwrap(),
        "finished\n"
    );

    // A claimed job stopped as eve stops one: `kill -- -PID` from a later run.
    let mut stuck = sb
        .spawn(eve_launcher(
            "/tmp/j3",
            "echo begin; until false; do sleep 1; done",
        ))
        .await
        .unwrap();
    let pid = appears(&sb, "/tmp/j3/pid").await.trim().to_owned();
    sb.run("cd /tmp/j3 && mkdir claimed && kill -USR1 \"$(cat launcher)\"")
        .await
        .unwrap();
    assert_eq!(stuck.wait().await, 0);
    let stop = format!("kill -- -{pid}");
    assert_eq!(sb.run(stop.as_str()).await.unwrap().exit_code, 0);
    assert_eq!(appears(&sb, "/tmp/j3/exit").await, "143\n");
    assert_eq!(
        sb.read_text_file("/tmp/j3/stdout").await.unwrap(),
        "begin\n"
    );
    assert_eq!(stuck.stdout.read_to_end().await, b"");
}
