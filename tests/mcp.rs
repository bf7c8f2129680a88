#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! `shellbox mcp` end to end, driven over pipes the way an MCP client does (issues 4
//! and 24): the handshake and protocol revisions, tools/list with the strict input
//! schemas, titles, annotations and output schemas, tools/call for every tool with
//! results that read as text and validate against their schemas, tool errors,
//! JSON-RPC errors, concurrency, cancellation (also at end of input), and a session
//! kept in a store across server runs.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

mod common;

use common::TempDir;
use serde_json::{Value, json};

/// A running `shellbox mcp` with a line reader on its stdout.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
}

const PATIENCE: Duration = Duration::from_secs(60);

impl Client {
    fn start(args: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shellbox"))
            .args(args)
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if tx.send(line.unwrap()).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Client {
            child,
            stdin,
            lines,
        }
    }

    fn send_raw(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, msg: Value) {
        self.send_raw(&msg.to_string());
    }

    fn recv(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(PATIENCE)
            .expect("a response in time");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    /// Sends a request and returns its response (which must be the next message).
    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let msg = self.recv();
        assert_eq!(msg["id"], id, "{msg}");
        assert_eq!(msg["jsonrpc"], "2.0");
        msg
    }

    fn call(&mut self, id: u64, tool: &str, args: Value) -> Value {
        let msg = self.request(id, "tools/call", json!({"name": tool, "arguments": args}));
        msg["result"].clone()
    }

    fn initialize(&mut self) {
        let init = self.request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
        );
        assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    /// Closes stdin and returns whatever else the server wrote before it exited.
    fn finish(mut self) -> Vec<Value> {
        drop(self.stdin.take());
        let started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(started.elapsed() < PATIENCE, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "{status}");
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(5)) {
            rest.push(serde_json::from_str(&line).unwrap());
        }
        rest
    }
}

#[test]
fn handshake_and_tool_list() {
    let mut c = Client::start(&[]);
    for (asked, got) in [
        ("2025-03-26", "2025-03-26"),
        ("2024-11-05", "2024-11-05"),
        ("2025-11-25", "2025-11-25"),
        ("1999-01-01", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
    ] {
        let init = c.request(
            1,
            "initialize",
            json!({"protocolVersion": asked, "capabilities": {}}),
        );
        let r = &init["result"];
        assert_eq!(r["protocolVersion"], got);
        assert_eq!(r["serverInfo"]["name"], "shellbox");
        assert_eq!(r["capabilities"]["tools"], json!({"listChanged": false}));
    }
    // Notifications get no answer: the next message is the ping's.
    c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    assert_eq!(c.request(2, "ping", json!({}))["result"], json!({}));
    let list = c.request(3, "tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "read_file",
            "write_file",
            "edit_file",
            "glob",
            "grep",
            "bash"
        ]
    );
    for t in tools {
        assert_eq!(t["inputSchema"]["type"], "object");
        assert_eq!(
            t["inputSchema"]["additionalProperties"], false,
            "{}",
            t["name"]
        );
        assert!(t["description"].as_str().unwrap().len() > 100);
        // 2025-06-18 entries carry a title, an output schema and annotations.
        assert!(!t["title"].as_str().unwrap().is_empty());
        assert_eq!(t["annotations"]["title"], t["title"]);
        assert_eq!(t["outputSchema"]["type"], "object");
        assert!(
            jsonschema::meta::is_valid(&t["outputSchema"]),
            "{}",
            t["name"]
        );
        assert_eq!(t["annotations"]["openWorldHint"], false);
    }
    let hint = |name: &str, key: &str| {
        let t = tools.iter().find(|t| t["name"] == name).unwrap();
        t["annotations"].get(key).cloned().unwrap_or(Value::Null)
    };
    for reader in ["read_file", "glob", "grep"] {
        assert_eq!(hint(reader, "readOnlyHint"), true, "{reader}");
        assert_eq!(hint(reader, "destructiveHint"), Value::Null, "{reader}");
    }
    for (writer, idempotent) in [("write_file", true), ("edit_file", false), ("bash", false)] {
        assert_eq!(hint(writer, "readOnlyHint"), false, "{writer}");
        assert_eq!(hint(writer, "destructiveHint"), true, "{writer}");
        assert_eq!(hint(writer, "idempotentHint"), idempotent, "{writer}");
    }
    // Clients of older revisions get the entries those define.
    c.request(
        4,
        "initialize",
        json!({"protocolVersion": "2024-11-05", "capabilities": {}}),
    );
    let old = c.request(5, "tools/list", json!({}));
    for t in old["result"]["tools"].as_array().unwrap() {
        let keys: Vec<&String> = t.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["description", "inputSchema", "name"]);
    }
    assert!(c.finish().is_empty());
}

/// The `outputSchema` of each tool, by name.
fn output_schemas(c: &mut Client) -> std::collections::HashMap<String, Value> {
    let list = c.request(90, "tools/list", json!({}));
    list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_owned(),
                t["outputSchema"].clone(),
            )
        })
        .collect()
}

#[test]
fn every_tool_over_tools_call() {
    let mut c = Client::start(&[]);
    c.initialize();
    let schemas = output_schemas(&mut c);
    // A result validates against its tool's output schema, and its text block reads
    // as the model should see it.
    let ok = |tool: &str, r: &Value, text: &str| {
        assert_eq!(r["isError"], false, "{r}");
        let s = &r["structuredContent"];
        let schema = &schemas[tool];
        assert!(
            jsonschema::is_valid(schema, s),
            "{tool}: {s} against {schema}"
        );
        assert_eq!(r["content"][0]["text"], text, "{tool}");
        s.clone()
    };
    let w = c.call(
        10,
        "write_file",
        json!({"filePath": "src/a.rs", "content": "fn a() {}\nfn b() {}\n"}),
    );
    assert_eq!(
        ok("write_file", &w, "Created /workspace/src/a.rs."),
        json!({"existed": false, "path": "/workspace/src/a.rs"})
    );
    let r = c.call(11, "read_file", json!({"filePath": "/workspace/src/a.rs"}));
    // eve's format: no newline after the last numbered line.
    let lines = "1: fn a() {}\n2: fn b() {}";
    assert_eq!(ok("read_file", &r, lines)["content"], lines);
    let r = c.call(16, "read_file", json!({"filePath": "src/a.rs", "limit": 1}));
    let first = "1: fn a() {}\n\n(The file has 2 lines; this read stopped before line 2. Read on with offset 2.)";
    assert_eq!(ok("read_file", &r, first)["nextOffset"], 2);
    let e = c.call(
        12,
        "edit_file",
        json!({"filePath": "src/a.rs", "oldString": "fn b", "newString": "fn c"}),
    );
    assert_eq!(
        ok(
            "edit_file",
            &e,
            "Edited /workspace/src/a.rs: 1 replacement."
        ),
        json!({"path": "/workspace/src/a.rs", "replacements": 1})
    );
    let g = c.call(13, "glob", json!({"pattern": "**/*.rs"}));
    ok("glob", &g, "/workspace/src/a.rs");
    let g = c.call(
        14,
        "grep",
        json!({"pattern": "fn c", "outputMode": "content"}),
    );
    ok("grep", &g, "/workspace/src/a.rs:2:fn c() {}");
    let b = c.call(
        15,
        "bash",
        json!({"command": "wc -l < src/a.rs; echo oops >&2; exit 4"}),
    );
    assert_eq!(
        ok("bash", &b, "2\n[stderr]\noops\n[exit code 4]"),
        json!({"status": "completed", "exitCode": 4, "stdout": "2\n", "stderr": "oops\n", "truncated": false})
    );
    let quiet = c.call(17, "bash", json!({"command": "true"}));
    ok("bash", &quiet, "[exit code 0, no output]");
    // Tool failures are results with isError and the error in words (no structured
    // content, which clients would check against the output schema).
    for (id, tool, args, kind) in [
        (
            20,
            "edit_file",
            json!({"filePath": "src/a.rs", "oldString": "zzz", "newString": "y"}),
            "no_match",
        ),
        (
            21,
            "write_file",
            json!({"filePath": "/etc/hostname", "content": ""}),
            "not_read",
        ),
        (
            22,
            "read_file",
            json!({"filePath": "src/a.rs", "bogus": true}),
            "invalid_input",
        ),
        (
            23,
            "grep",
            json!({"pattern": "x", "path": "/etc"}),
            "outside_workspace",
        ),
    ] {
        let r = c.call(id, tool, args);
        assert_eq!(r["isError"], true, "{r}");
        assert!(r.get("structuredContent").is_none(), "{r}");
        let text = r["content"][0]["text"].as_str().unwrap();
        if kind == "invalid_input" {
            assert!(text.starts_with("invalid input"), "{text}");
        } else {
            assert!(text.ends_with(&format!("({kind})")), "{text}");
        }
    }
    // Protocol errors are JSON-RPC errors.
    let unknown_tool = c.request(30, "tools/call", json!({"name": "nope", "arguments": {}}));
    assert_eq!(unknown_tool["error"]["code"], -32602);
    assert_eq!(
        c.request(31, "resources/list", json!({}))["error"]["code"],
        -32601
    );
    c.send_raw("{this is not json");
    let parse = c.recv();
    assert_eq!(
        (parse["id"].clone(), parse["error"]["code"].clone()),
        (Value::Null, json!(-32700))
    );
    c.send(json!({"jsonrpc": "2.0", "id": 32}));
    assert_eq!(c.recv()["error"]["code"], -32600);
    assert!(c.finish().is_empty());
}

#[test]
fn images_come_back_as_image_content() {
    let mut c = Client::start(&[]);
    c.initialize();
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x02\0\0\0\x02".to_vec();
    png.resize(40, 0);
    let hex: String = png.iter().map(|b| format!("\\x{b:02x}")).collect();
    c.call(
        2,
        "bash",
        json!({"command": format!("printf '{hex}' > pic.png")}),
    );
    let r = c.call(3, "read_file", json!({"filePath": "pic.png"}));
    assert_eq!(r["isError"], false);
    assert_eq!(r["content"][1]["type"], "image");
    assert_eq!(r["content"][1]["mimeType"], "image/png");
    assert_eq!(r["structuredContent"]["size"], 40);
    c.finish();
}

#[test]
fn calls_run_concurrently_and_can_be_cancelled() {
    let mut c = Client::start(&["--bash-wait", "60"]);
    c.initialize();
    // A slow command does not hold up other calls.
    c.send(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                  "params": {"name": "bash", "arguments": {"command": "echo x > started; while :; do :; done"}}}));
    let started = Instant::now();
    loop {
        let r = c.call(8, "glob", json!({"pattern": "started"}));
        if r["structuredContent"]["count"] == 1 {
            break;
        }
        assert!(started.elapsed() < PATIENCE);
    }
    // Cancelling it stops the command and suppresses its response.
    c.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}}),
    );
    assert_eq!(c.request(9, "ping", json!({}))["result"], json!({}));
    let rest = c.finish();
    assert!(
        rest.is_empty(),
        "no response for the cancelled call: {rest:?}"
    );
}

#[test]
fn slow_commands_are_left_running_and_reported() {
    let mut c = Client::start(&["--bash-wait", "0.3"]);
    c.initialize();
    let r = c.call(
        2,
        "bash",
        json!({"command": "echo begun; while :; do :; done"}),
    );
    let s = &r["structuredContent"];
    assert_eq!(
        (s["status"].as_str(), s["stdout"].as_str()),
        (Some("running"), Some("begun\n"))
    );
    let dir = s["outputDirectory"].as_str().unwrap().to_owned();
    let r = c.call(
        3,
        "bash",
        json!({"command": format!("cat {dir}/stdout; touch {dir}/stop")}),
    );
    assert_eq!(r["structuredContent"]["stdout"], "begun\n");
    let started = Instant::now();
    loop {
        let r = c.call(
            4,
            "bash",
            json!({"command": format!("cat {dir}/exit 2>/dev/null")}),
        );
        if r["structuredContent"]["stdout"] == "143\n" {
            break;
        }
        assert!(started.elapsed() < PATIENCE, "{r}");
        std::thread::sleep(Duration::from_millis(50));
    }
    c.finish();
}

#[test]
fn a_store_keeps_the_session_between_server_runs() {
    let dir = TempDir::new("mcp");
    let args = ["--store", dir.arg(), "--session", "chat-1"];
    let mut c = Client::start(&args);
    c.initialize();
    c.call(
        2,
        "write_file",
        json!({"filePath": "notes.md", "content": "draft\n"}),
    );
    c.finish();
    let mut c = Client::start(&args);
    c.initialize();
    // The stamp from the first run's write was kept: no read is needed to replace it.
    let w = c.call(
        2,
        "write_file",
        json!({"filePath": "notes.md", "content": "final\n"}),
    );
    assert_eq!(
        w["structuredContent"],
        json!({"existed": true, "path": "/workspace/notes.md"})
    );
    c.call(3, "bash", json!({"command": "echo more >> notes.md"}));
    c.finish();
    let mut c = Client::start(&args);
    c.initialize();
    let r = c.call(2, "read_file", json!({"filePath": "notes.md"}));
    assert_eq!(r["structuredContent"]["content"], "1: final\n2: more");
    c.finish();
}

#[test]
fn end_of_input_cancels_the_calls_still_running() {
    let mut c = Client::start(&["--bash-wait", "600"]);
    c.initialize();
    c.send(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                  "params": {"name": "bash", "arguments": {"command": "echo x > started; while :; do :; done"}}}));
    let started = Instant::now();
    loop {
        let r = c.call(8, "glob", json!({"pattern": "started"}));
        if r["structuredContent"]["count"] == 1 {
            break;
        }
        assert!(started.elapsed() < PATIENCE);
    }
    // The client goes away: the server stops the command and exits at once, instead
    // of waiting out the bash wait.
    let closed = Instant::now();
    let rest = c.finish();
    assert!(
        closed.elapsed() < Duration::from_secs(10),
        "{:?}",
        closed.elapsed()
    );
    assert!(
        rest.is_empty(),
        "no answer for the cancelled call: {rest:?}"
    );
}
