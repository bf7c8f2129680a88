//! A Model Context Protocol server over one [`Sandbox`]: JSON-RPC 2.0 messages, one per
//! line, on stdin and stdout (`initialize`, `ping`, `tools/list`, `tools/call`, and the
//! `initialized` and `cancelled` notifications), serving the six agent tools.
//!
//! Tool calls run concurrently, so a slow `bash` does not hold up a `read_file`;
//! `notifications/cancelled` stops the call it names (a `bash` command that has not yet
//! been left in the background is stopped too) and no response is sent for it. With a
//! store, the session is saved after every tool call, so a crash loses at most the call
//! in flight.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::session::Sandbox;
use crate::store::Store;
use crate::tools::{self, ErrorKind, ToolError};

/// The protocol revisions this server speaks, newest last.
pub const PROTOCOL_VERSIONS: &[&str] = &["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// The revision offered to a client that asks for one this server does not speak.
const NEWEST: &str = "2025-11-25";

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const INTERNAL_ERROR: i64 = -32603;

const INSTRUCTIONS: &str = "\
These tools work on one sandbox: a simulated Linux machine with bash 5.2 and common utilities, \
an in-memory filesystem and no network. The project lives in /workspace, where bash commands \
start and relative paths point. Read a file with read_file before changing it with edit_file or \
replacing it with write_file.";

/// The server: a sandbox, and optionally a store and session name to save it to.
pub struct McpServer {
    sandbox: Sandbox,
    store: Option<(Store, String)>,
    save_lock: tokio::sync::Mutex<()>,
    /// The protocol revision `initialize` agreed on (the newest until then).
    version: Mutex<&'static str>,
}

/// A line-oriented writer shared by the tasks answering requests.
type Output = Arc<Mutex<Box<dyn Write + Send>>>;

fn send(out: &Output, msg: &Value) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    // A closed stdout means the client is gone; there is nobody left to tell.
    let _ = writeln!(w, "{msg}").and_then(|()| w.flush());
}

fn reply(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn error(id: &Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

/// What to do with one incoming message.
enum Action {
    /// Send this now.
    Reply(Value),
    /// Run a tool call, answering later.
    Call {
        id: Value,
        name: String,
        args: Value,
    },
    /// Stop the call with this id.
    Cancel(Value),
    /// Nothing to send (a notification).
    Nothing,
}

/// The key of a request id in the table of calls in flight.
fn id_key(id: &Value) -> String {
    id.to_string()
}

impl McpServer {
    /// A server for `sandbox`.
    pub fn new(sandbox: Sandbox) -> McpServer {
        McpServer {
            sandbox,
            store: None,
            save_lock: tokio::sync::Mutex::new(()),
            version: Mutex::new(NEWEST),
        }
    }

    /// Saves the session to `store` as `name` after every tool call.
    pub fn with_store(mut self, store: Store, name: impl Into<String>) -> McpServer {
        self.store = Some((store, name.into()));
        self
    }

    /// Serves until `input` ends; calls still in flight then are cancelled (their
    /// commands stopped), as the client that would read their answers is gone.
    ///
    /// Cancel safety: dropping the future abandons the calls in flight (their commands
    /// are stopped); nothing more is written.
    pub async fn serve(
        self,
        input: impl BufRead + Send + 'static,
        output: impl Write + Send + 'static,
    ) -> std::io::Result<()> {
        self.serve_until(input, output, std::future::pending())
            .await
    }

    /// [`serve`](Self::serve) until `input` ends or `shutdown` completes (a signal,
    /// say), whichever comes first: either way the calls in flight are cancelled and
    /// the session is saved.
    ///
    /// Cancel safety: as for [`serve`](Self::serve).
    pub async fn serve_until(
        self,
        input: impl BufRead + Send + 'static,
        output: impl Write + Send + 'static,
        shutdown: impl std::future::Future<Output = ()>,
    ) -> std::io::Result<()> {
        let mut shutdown = std::pin::pin!(shutdown);
        let server = Arc::new(self);
        let out: Output = Arc::new(Mutex::new(Box::new(output)));
        let (tx, mut rx) = mpsc::unbounded_channel::<std::io::Result<String>>();
        std::thread::Builder::new()
            .name("shellbox-mcp-stdin".to_owned())
            .spawn(move || {
                for line in input.lines() {
                    let stop = line.is_err();
                    if tx.send(line).is_err() || stop {
                        return;
                    }
                }
            })?;
        let mut calls = JoinSet::new();
        let mut in_flight: HashMap<String, tokio::task::AbortHandle> = HashMap::new();
        let mut failure = None;
        loop {
            let next = tokio::select! {
                line = rx.recv() => line,
                () = &mut shutdown => None,
            };
            let Some(line) = next else { break };
            let line = match line {
                Ok(line) => line,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            in_flight.retain(|_, h| !h.is_finished());
            match server.dispatch(&line) {
                Action::Reply(msg) => send(&out, &msg),
                Action::Nothing => {}
                Action::Cancel(id) => {
                    if let Some(h) = in_flight.remove(&id_key(&id)) {
                        h.abort();
                    }
                }
                Action::Call { id, name, args } => {
                    let (server, out) = (server.clone(), out.clone());
                    let key = id_key(&id);
                    let handle = calls.spawn(async move {
                        let msg = server.call(&id, &name, args).await;
                        send(&out, &msg);
                    });
                    in_flight.insert(key, handle);
                }
            }
        }
        // End of input (or shutdown): nobody will read the answers of calls still
        // running.
        calls.abort_all();
        while calls.join_next().await.is_some() {}
        // A cancelled call may have changed files without saving them.
        if let Some((store, session)) = &server.store {
            let _guard = server.save_lock.lock().await;
            if let Err(e) = server.sandbox.save(store, session).await {
                failure.get_or_insert(std::io::Error::other(e.to_string()));
            }
        }
        failure.map_or(Ok(()), Err)
    }

    /// Classifies one line of input.
    fn dispatch(&self, line: &str) -> Action {
        let msg: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                return Action::Reply(error(
                    &Value::Null,
                    PARSE_ERROR,
                    format!("parse error: {e}"),
                ));
            }
        };
        let id = msg.get("id").cloned();
        let method = msg.get("method").and_then(Value::as_str);
        let (Some(method), true) = (method, msg.get("jsonrpc") == Some(&json!("2.0"))) else {
            return match id {
                // A response from the client (we send no requests) needs no answer.
                Some(_) if msg.get("result").is_some() || msg.get("error").is_some() => {
                    Action::Nothing
                }
                _ => Action::Reply(error(
                    &id.unwrap_or(Value::Null),
                    INVALID_REQUEST,
                    "invalid request: expected a JSON-RPC 2.0 object with a method",
                )),
            };
        };
        let params = msg.get("params").cloned().unwrap_or(json!({}));
        let Some(id) = id else {
            return match method {
                "notifications/cancelled" => params
                    .get("requestId")
                    .cloned()
                    .map_or(Action::Nothing, Action::Cancel),
                _ => Action::Nothing,
            };
        };
        match method {
            "initialize" => {
                let asked = params.get("protocolVersion").and_then(Value::as_str);
                let version = PROTOCOL_VERSIONS
                    .iter()
                    .copied()
                    .find(|v| Some(*v) == asked)
                    .unwrap_or(NEWEST);
                *self.version.lock().unwrap_or_else(|e| e.into_inner()) = version;
                Action::Reply(reply(
                    &id,
                    json!({
                        "protocolVersion": version,
                        "capabilities": {"tools": {"listChanged": false}},
                        "serverInfo": {
                            "name": "shellbox",
                            "title": "shellbox",
                            "version": env!("CARGO_PKG_VERSION"),
                            "description": "A simulated bash 5.2 sandbox with file tools, in memory and without network",
                        },
                        "instructions": INSTRUCTIONS,
                    }),
                ))
            }
            "ping" => Action::Reply(reply(&id, json!({}))),
            "tools/list" => {
                let version = *self.version.lock().unwrap_or_else(|e| e.into_inner());
                Action::Reply(reply(&id, json!({ "tools": tool_list(version) })))
            }
            "tools/call" => {
                let name = params.get("name").and_then(Value::as_str);
                let args = params.get("arguments").cloned().unwrap_or(json!({}));
                match name {
                    Some(name) if tools::specs().iter().any(|t| t.name == name) => Action::Call {
                        id,
                        name: name.to_owned(),
                        args,
                    },
                    Some(name) => {
                        Action::Reply(error(&id, INVALID_PARAMS, format!("unknown tool: {name}")))
                    }
                    None => {
                        Action::Reply(error(&id, INVALID_PARAMS, "tools/call needs a tool name"))
                    }
                }
            }
            _ => Action::Reply(error(
                &id,
                METHOD_NOT_FOUND,
                format!("method not found: {method}"),
            )),
        }
    }

    /// Runs one tool call and returns its response (saving the session first, if a
    /// store is set).
    async fn call(&self, id: &Value, name: &str, args: Value) -> Value {
        let result = self.sandbox.call_tool(name, args).await;
        if let Some((store, session)) = &self.store {
            let _guard = self.save_lock.lock().await;
            if let Err(e) = self.sandbox.save(store, session).await {
                return error(
                    id,
                    INTERNAL_ERROR,
                    format!("saving the session failed: {e}"),
                );
            }
        }
        reply(id, call_result(name, result))
    }
}

/// The `tools/call` result for a tool's output or error: the output as the text a
/// model reads ([`tools::result_text`]: numbered lines, a command's output and status,
/// search rows; an image or PDF read as an image or resource block) with the JSON in
/// `structuredContent`, or the error's message with `isError: true` and no
/// `structuredContent` (clients check it against the tool's `outputSchema`, which
/// describes results). Public so that hosts serving the tools over MCP themselves (the
/// language bindings) answer in the same shape.
///
/// ```
/// use serde_json::json;
/// use shellbox::tools::{ErrorKind, ToolError};
/// let ok = shellbox::mcp::call_result("glob", Ok(json!({"content": "No files found", "count": 0})));
/// assert_eq!(ok["isError"], false);
/// assert_eq!(ok["content"][0]["text"], "No files found");
/// assert_eq!(ok["structuredContent"]["count"], 0);
/// let err = ToolError::at(ErrorKind::NotRead, "/workspace/a", "read it first");
/// let failed = shellbox::mcp::call_result("write_file", Err(err));
/// assert_eq!(failed["isError"], true);
/// assert_eq!(failed["content"][0]["text"], "read it first (not_read)");
/// assert!(failed.get("structuredContent").is_none());
/// ```
pub fn call_result(tool: &str, result: Result<Value, ToolError>) -> Value {
    match result {
        Ok(value) => {
            let content = match (tool, value.get("mediaType").and_then(Value::as_str)) {
                ("read_file", Some(media)) if media.starts_with("image/") => json!([
                    {"type": "text", "text": format!("{} ({media}, {} bytes)", value["path"], value["size"])},
                    {"type": "image", "data": value["data"], "mimeType": media},
                ]),
                ("read_file", Some(media)) => json!([{
                    "type": "resource",
                    "resource": {
                        "uri": format!("file://{}", value["path"].as_str().unwrap_or_default()),
                        "mimeType": media,
                        "blob": value["data"],
                    },
                }]),
                _ => {
                    let text =
                        tools::result_text(tool, &value).unwrap_or_else(|| value.to_string());
                    json!([{"type": "text", "text": text}])
                }
            };
            json!({"content": content, "structuredContent": value, "isError": false})
        }
        Err(e) => {
            let text = match e.kind {
                ErrorKind::InvalidInput | ErrorKind::UnknownTool => e.message.clone(),
                kind => format!("{} ({})", e.message, kind.code()),
            };
            json!({
                "content": [{"type": "text", "text": text}],
                "isError": true,
            })
        }
    }
}

/// The `tools/list` entries for protocol revision `version`: titles, output schemas
/// and annotations arrived in 2025-03-26 (annotations) and 2025-06-18 (the others), so
/// older clients get the entries they know.
pub fn tool_list(version: &str) -> Vec<Value> {
    tools::specs()
        .into_iter()
        .map(|spec| {
            let mut entry = json!({
                "name": spec.name,
                "description": spec.description,
                "inputSchema": spec.input_schema,
            });
            if version >= "2025-03-26" {
                entry["annotations"] = spec.annotations;
            }
            if version >= "2025-06-18" {
                entry["title"] = json!(spec.title);
                entry["outputSchema"] = spec.output_schema;
            }
            entry
        })
        .collect()
}
