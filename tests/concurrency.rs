#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! Many sessions at once (issue 6): hundreds of sandboxes on one tokio runtime, each
//! running scripts and agent tools concurrently, with no cross-talk in files,
//! environment, output, pids or limits.

use std::time::Duration;

use serde_json::json;
use shellbox::{Limits, Sandbox, Shell};

const SESSIONS: usize = 300;

fn limits() -> Limits {
    let mut l = Limits::hardened();
    l.max_loop_iterations = 20_000;
    l.timeout = Some(Duration::from_secs(60));
    l
}

/// One session's whole life: returns a description of the first thing that went wrong.
/// Returns the pids the session's script printed.
async fn session(n: usize) -> Result<String, String> {
    let id = format!("session-{n}");
    let sb = Sandbox::builder()
        .env("ID", &id)
        .limits(limits())
        .file("own.txt", format!("{id}\n"))
        .build();
    let script = "echo $ID > from-script.txt; for i in {1..50}; do echo \"$ID $i\"; done | tail -1; \
                  cat own.txt; ls; echo $$ $BASHPID; (echo $BASHPID); sleep 1 & echo $!";
    let (a, b) = tokio::join!(
        sb.run(script),
        sb.call_tool(
            "write_file",
            json!({"filePath": "tool.txt", "content": format!("{id} tool\n")})
        )
    );
    let a = a.map_err(|e| format!("{id}: run: {e:?}"))?;
    b.map_err(|e| format!("{id}: write_file: {e:?}"))?;
    let out = String::from_utf8_lossy(&a.stdout).into_owned();
    let want_head = format!("{id} 50\n{id}\n");
    if !out.starts_with(&want_head) || a.exit_code != 0 {
        return Err(format!(
            "{id}: script said {out:?} (status {})",
            a.exit_code
        ));
    }
    // Pids are the session's own: the same in every session (checked by the caller).
    let pids: Vec<&str> = out.lines().rev().take(3).collect();
    let pids = pids.join(" ");
    for line in out.lines() {
        if line.starts_with("session-") && !line.starts_with(&format!("{id} ")) && line != id {
            return Err(format!("{id}: saw another session's output: {line}"));
        }
    }
    // Tools see the script's files, and nobody else's.
    let r = sb
        .call_tool(
            "grep",
            json!({"pattern": "session-", "path": "/workspace", "outputMode": "content"}),
        )
        .await
        .map_err(|e| format!("{id}: grep: {e:?}"))?;
    let text = r.to_string();
    if text.matches("session-").count() != text.matches(id.as_str()).count() {
        return Err(format!("{id}: grep found another session: {text}"));
    }
    sb.call_tool("read_file", json!({"filePath": "tool.txt"}))
        .await
        .map_err(|e| format!("{id}: read_file: {e:?}"))?;
    sb.call_tool(
        "edit_file",
        json!({"filePath": "tool.txt", "oldString": "tool", "newString": "edited"}),
    )
    .await
    .map_err(|e| format!("{id}: edit_file: {e:?}"))?;
    let o = sb
        .run("cat tool.txt from-script.txt")
        .await
        .map_err(|e| format!("{id}: run: {e:?}"))?;
    if o.stdout != format!("{id} edited\n{id}\n").into_bytes() {
        return Err(format!(
            "{id}: files {:?}",
            String::from_utf8_lossy(&o.stdout)
        ));
    }
    // Every tenth session runs away; only it is stopped.
    if n.is_multiple_of(10) {
        let o = sb
            .run("while :; do :; done")
            .await
            .map_err(|e| format!("{e:?}"))?;
        if o.exit_code != 126 {
            return Err(format!("{id}: runaway ended with {}", o.exit_code));
        }
    }
    let o = sb
        .run("echo still $ID")
        .await
        .map_err(|e| format!("{e:?}"))?;
    if o.stdout != format!("still {id}\n").into_bytes() {
        return Err(format!(
            "{id}: after: {:?}",
            String::from_utf8_lossy(&o.stdout)
        ));
    }
    sb.stop().await;
    Ok(pids)
}

#[test]
fn hundreds_of_sessions_run_at_once_without_cross_talk() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap();
    let errors: Vec<String> = rt.block_on(async {
        let tasks: Vec<_> = (0..SESSIONS).map(|n| tokio::spawn(session(n))).collect();
        let mut errors = Vec::new();
        let mut pids = std::collections::BTreeSet::new();
        for t in tasks {
            match t.await {
                Ok(Ok(p)) => {
                    pids.insert(p);
                }
                Ok(Err(e)) => errors.push(e),
                Err(e) => errors.push(format!("task failed: {e}")),
            }
        }
        if pids.len() > 1 {
            errors.push(format!("pids differ between sessions: {pids:?}"));
        }
        errors
    });
    assert!(
        errors.is_empty(),
        "{} sessions failed:\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn persistent_shells_on_one_runtime_keep_their_own_state() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let outs = rt.block_on(async {
        let tasks: Vec<_> = (0..200)
            .map(|n| {
                tokio::spawn(async move {
                    let sh = Shell::builder().limits(limits()).build();
                    let (sh, _) = sh
                        .exec_async(format!("x={n}; cd /tmp; f() {{ echo $x; }}"))
                        .await;
                    let (_, out) = sh.exec_async("f; pwd; echo $RANDOM".to_owned()).await;
                    (n, String::from_utf8_lossy(&out.stdout).into_owned())
                })
            })
            .collect();
        let mut outs = Vec::new();
        for t in tasks {
            outs.push(t.await.unwrap());
        }
        outs
    });
    let random = outs[0].1.lines().nth(2).unwrap().to_owned();
    for (n, out) in outs {
        assert_eq!(out, format!("{n}\n/tmp\n{random}\n"));
    }
}
