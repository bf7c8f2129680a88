//! How the tools present themselves to clients and their results to models: a title
//! and behaviour hints per tool (MCP's tool annotations), a JSON Schema of each
//! result, and each result as the plain text a chat client hands the model (the
//! numbered lines of a read, a command's output and exit status, the rows of a
//! search), while the JSON stays for programs.

use serde_json::{Value, json};

/// What a client may assume about a tool before calling it (MCP `ToolAnnotations`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hints {
    /// A human-friendly name.
    pub title: &'static str,
    /// It changes nothing.
    pub read_only: bool,
    /// It may overwrite or remove what was there (meaningful when not read-only).
    pub destructive: bool,
    /// Calling it again with the same input changes nothing more.
    pub idempotent: bool,
}

impl Hints {
    /// The MCP `annotations` object. No tool reaches outside the sandbox, so
    /// `openWorldHint` is false for all.
    pub fn to_json(self) -> Value {
        let mut a = json!({
            "title": self.title,
            "readOnlyHint": self.read_only,
            "openWorldHint": false,
        });
        if !self.read_only {
            a["destructiveHint"] = json!(self.destructive);
            a["idempotentHint"] = json!(self.idempotent);
        }
        a
    }
}

pub(super) const READ: Hints = Hints {
    title: "Read a file",
    read_only: true,
    destructive: false,
    idempotent: true,
};
pub(super) const WRITE: Hints = Hints {
    title: "Write a file",
    read_only: false,
    destructive: true,
    idempotent: true,
};
pub(super) const EDIT: Hints = Hints {
    title: "Edit a file",
    read_only: false,
    destructive: true,
    idempotent: false,
};
pub(super) const GLOB: Hints = Hints {
    title: "Find files by name",
    read_only: true,
    destructive: false,
    idempotent: true,
};
pub(super) const GREP: Hints = Hints {
    title: "Search file contents",
    read_only: true,
    destructive: false,
    idempotent: true,
};
pub(super) const BASH: Hints = Hints {
    title: "Run a shell command",
    read_only: false,
    destructive: true,
    idempotent: false,
};

/// An object schema of these properties, all required but `optional`, no others.
fn object(properties: Value, optional: &[&str]) -> Value {
    let required: Vec<&String> = properties
        .as_object()
        .map(|p| {
            p.keys()
                .filter(|k| !optional.contains(&k.as_str()))
                .collect()
        })
        .unwrap_or_default();
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// The schema of `read_file`'s result: a window of text, or a whole image or PDF.
pub(super) fn read_schema() -> Value {
    let text = object(
        json!({
            "content": {"type": "string"},
            "path": {"type": "string"},
            "totalLines": {"type": "integer", "minimum": 0},
            "truncated": {"type": "boolean"},
            "nextOffset": {"type": "integer", "minimum": 1},
        }),
        &["nextOffset"],
    );
    let media = object(
        json!({
            "path": {"type": "string"},
            "mediaType": {"type": "string"},
            "data": {"type": "string", "contentEncoding": "base64"},
            "size": {"type": "integer", "minimum": 0},
        }),
        &[],
    );
    json!({"type": "object", "anyOf": [text, media]})
}

pub(super) fn write_schema() -> Value {
    object(
        json!({"existed": {"type": "boolean"}, "path": {"type": "string"}}),
        &[],
    )
}

pub(super) fn edit_schema() -> Value {
    object(
        json!({"path": {"type": "string"}, "replacements": {"type": "integer", "minimum": 1}}),
        &[],
    )
}

pub(super) fn glob_schema() -> Value {
    object(
        json!({
            "content": {"type": "string"},
            "count": {"type": "integer", "minimum": 0},
            "path": {"type": "string"},
            "truncated": {"type": "boolean"},
        }),
        &[],
    )
}

pub(super) fn grep_schema() -> Value {
    object(
        json!({
            "content": {"type": "string"},
            "matchCount": {"type": "integer", "minimum": 0},
            "outputMode": {"type": "string", "enum": ["files_with_matches", "content", "count"]},
            "path": {"type": "string"},
            "truncated": {"type": "boolean"},
        }),
        &[],
    )
}

pub(super) fn bash_schema() -> Value {
    let completed = object(
        json!({
            "status": {"const": "completed"},
            "exitCode": {"type": "integer"},
            "stdout": {"type": "string"},
            "stderr": {"type": "string"},
            "truncated": {"type": "boolean"},
        }),
        &[],
    );
    let running = object(
        json!({
            "status": {"const": "running"},
            "pid": {"type": "integer"},
            "outputDirectory": {"type": "string"},
            "message": {"type": "string"},
            "stdout": {"type": "string"},
            "stderr": {"type": "string"},
            "truncated": {"type": "boolean"},
        }),
        &[],
    );
    json!({"type": "object", "anyOf": [completed, running]})
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

fn int_of(v: &Value, key: &str) -> i64 {
    v.get(key).and_then(Value::as_i64).unwrap_or_default()
}

/// `read_file`'s numbered lines, with where to continue when the read stopped early.
pub(super) fn read_text(v: &Value) -> String {
    let content = str_of(v, "content");
    if int_of(v, "totalLines") == 0 {
        return format!("({} is empty)", str_of(v, "path"));
    }
    match v.get("nextOffset").and_then(Value::as_i64) {
        Some(next) => format!(
            "{content}\n\n(The file has {} lines; this read stopped before line {next}. \
             Read on with offset {next}.)",
            int_of(v, "totalLines")
        ),
        None => content.to_owned(),
    }
}

pub(super) fn write_text(v: &Value) -> String {
    let verb = if v.get("existed").and_then(Value::as_bool) == Some(true) {
        "Replaced"
    } else {
        "Created"
    };
    format!("{verb} {}.", str_of(v, "path"))
}

pub(super) fn edit_text(v: &Value) -> String {
    let n = int_of(v, "replacements");
    let s = if n == 1 { "" } else { "s" };
    format!("Edited {}: {n} replacement{s}.", str_of(v, "path"))
}

/// `glob`'s and `grep`'s rows (their notices are part of the content already).
pub(super) fn search_text(v: &Value) -> String {
    str_of(v, "content").to_owned()
}

/// A command's output as a terminal would show it, then its exit status; for one left
/// running, the output so far and how to follow it.
pub(super) fn bash_text(v: &Value) -> String {
    let mut text = String::new();
    for (name, stream) in [
        ("stdout", str_of(v, "stdout")),
        ("stderr", str_of(v, "stderr")),
    ] {
        if stream.is_empty() {
            continue;
        }
        if name == "stderr" {
            text.push_str("[stderr]\n");
        }
        text.push_str(stream);
        if !stream.ends_with('\n') {
            text.push('\n');
        }
    }
    if str_of(v, "status") == "running" {
        text.push_str(&format!("[{}]", str_of(v, "message")));
    } else {
        match int_of(v, "exitCode") {
            0 if text.is_empty() => text.push_str("[exit code 0, no output]"),
            code => text.push_str(&format!("[exit code {code}]")),
        }
    }
    text
}
