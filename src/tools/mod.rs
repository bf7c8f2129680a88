//! The agent file tools — `read_file`, `write_file`, `edit_file`, `glob`, `grep` and
//! `bash` — as a model sees them: a JSON Schema and a description per tool, serde input
//! and output types, structured errors, and one dispatch entry, [`call_tool`].
//!
//! The tools work on anything that implements [`ToolHost`]: a shared filesystem, the
//! session's [`ReadStamps`], a home directory and a way to run a command. The session
//! layer's `Sandbox` is the usual host.
//!
//! Paths: absolute, `$HOME/...`, or relative to `/workspace`; normalised lexically, and a
//! `..` that would climb above `/` is an error.

mod bash;
mod edit;
mod paths;
mod present;
mod read;
mod search;
mod stamps;

use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::fs::{Errno, FsError, SharedFs};

pub use bash::{BashCompleted, BashInput, BashOutput, BashRun, BashRunning, bash, tail};
pub use edit::{
    EditFileInput, EditFileOutput, WriteFileInput, WriteFileOutput, edit_file, write_file,
};
pub use paths::{WORKSPACE, resolve};
pub use read::{MediaRead, ReadFileInput, ReadFileOutput, TextRead, read_file};
pub use search::{GlobInput, GlobOutput, GrepInput, GrepOutput, OutputMode, glob, grep};
pub use stamps::{ReadStamp, ReadStamps};

/// What the tools need from a session.
pub trait ToolHost: Send + Sync {
    /// The filesystem the tools read and write.
    fn fs(&self) -> &SharedFs;
    /// The read stamps of this session.
    fn stamps(&self) -> &ReadStamps;
    /// What `$HOME` means in tool paths.
    fn home(&self) -> &str {
        "/home/user"
    }
    /// Runs a command for the `bash` tool: to completion, or until the host's wait runs
    /// out (then the command keeps running and its output goes to files).
    fn run_bash(&self, command: &str) -> BashRun;
}

/// Why a tool call failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// No tool has that name.
    UnknownTool,
    /// The input does not match the tool's schema.
    InvalidInput,
    /// The path is empty, uses unsupported syntax, or climbs above `/`.
    InvalidPath,
    /// The tool only works inside `/workspace` and the path is elsewhere.
    OutsideWorkspace,
    NotFound,
    IsDirectory,
    /// Not a regular file (a device, say).
    NotAFile,
    /// The file holds NUL bytes and is not a recognised image or PDF.
    BinaryFile,
    /// The file is over a size limit of the tool.
    TooLarge,
    /// `offset` is after the last line.
    OffsetPastEnd,
    /// The file exists but was not read in this session.
    NotRead,
    /// The file changed after it was last read.
    ChangedSinceRead,
    /// `oldString` is empty.
    EmptyOldString,
    /// `oldString` and `newString` are the same.
    NoChange,
    /// `oldString` does not occur in the file.
    NoMatch,
    /// `oldString` occurs more than once and `replaceAll` is not set.
    MultipleMatches,
    /// The regular expression or glob does not compile.
    InvalidPattern,
    PermissionDenied,
    /// Any other filesystem failure (no space, file too large for the filesystem, ...).
    Io,
}

impl ErrorKind {
    /// The snake_case code used in JSON (`not_read`, `no_match`, ...).
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::UnknownTool => "unknown_tool",
            ErrorKind::InvalidInput => "invalid_input",
            ErrorKind::InvalidPath => "invalid_path",
            ErrorKind::OutsideWorkspace => "outside_workspace",
            ErrorKind::NotFound => "not_found",
            ErrorKind::IsDirectory => "is_directory",
            ErrorKind::NotAFile => "not_a_file",
            ErrorKind::BinaryFile => "binary_file",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::OffsetPastEnd => "offset_past_end",
            ErrorKind::NotRead => "not_read",
            ErrorKind::ChangedSinceRead => "changed_since_read",
            ErrorKind::EmptyOldString => "empty_old_string",
            ErrorKind::NoChange => "no_change",
            ErrorKind::NoMatch => "no_match",
            ErrorKind::MultipleMatches => "multiple_matches",
            ErrorKind::InvalidPattern => "invalid_pattern",
            ErrorKind::PermissionDenied => "permission_denied",
            ErrorKind::Io => "io",
        }
    }
}

/// A failed tool call: what kind of failure, a message written for the model (saying
/// what to do next where there is something to do), and the resolved path if any.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ToolError {
    pub kind: ErrorKind,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

impl ToolError {
    /// An error with no path.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> ToolError {
        ToolError {
            kind,
            message: message.into(),
            path: None,
        }
    }

    /// An error about `path`.
    pub fn at(kind: ErrorKind, path: &str, message: impl Into<String>) -> ToolError {
        ToolError {
            kind,
            message: message.into(),
            path: Some(path.to_owned()),
        }
    }

    /// A filesystem failure on `path`, classified by its errno.
    pub fn fs(path: &str, e: &FsError) -> ToolError {
        let kind = match e.errno {
            Errno::ENOENT => ErrorKind::NotFound,
            Errno::EISDIR => ErrorKind::IsDirectory,
            Errno::EACCES | Errno::EPERM => ErrorKind::PermissionDenied,
            Errno::ENOTDIR | Errno::ELOOP | Errno::ENAMETOOLONG => ErrorKind::InvalidPath,
            _ => ErrorKind::Io,
        };
        ToolError::at(kind, path, format!("{path}: {e}"))
    }

    /// The JSON form: `{"error": {"kind": ..., "message": ..., "path": ...}}`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({ "error": self })
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

/// A tool as a model and a client see it (serialized as an MCP `tools/list` entry).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ToolSpec {
    pub name: &'static str,
    /// A human-friendly name.
    pub title: &'static str,
    pub description: &'static str,
    /// A JSON Schema for the input object; unknown keys are not allowed.
    #[serde(rename = "inputSchema")]
    pub input_schema: Value,
    /// A JSON Schema for the result object.
    #[serde(rename = "outputSchema")]
    pub output_schema: Value,
    /// MCP tool annotations: `title`, `readOnlyHint`, `destructiveHint`,
    /// `idempotentHint`, `openWorldHint`.
    pub annotations: Value,
}

/// One entry of the tool table.
struct Entry {
    name: &'static str,
    description: &'static str,
    hints: present::Hints,
    schema: fn() -> Value,
    output_schema: fn() -> Value,
    text: fn(&Value) -> String,
    call: fn(&dyn ToolHost, Value) -> Result<Value, ToolError>,
}

/// Deserializes the input, runs the tool and serializes its output.
fn typed<I: DeserializeOwned, O: Serialize>(
    input: Value,
    tool: impl FnOnce(I) -> Result<O, ToolError>,
) -> Result<Value, ToolError> {
    let input: I = serde_json::from_value(input)
        .map_err(|e| ToolError::new(ErrorKind::InvalidInput, format!("invalid input: {e}")))?;
    let output = tool(input)?;
    serde_json::to_value(output)
        .map_err(|e| ToolError::new(ErrorKind::Io, format!("cannot encode the result: {e}")))
}

const TABLE: &[Entry] = &[
    Entry {
        name: "read_file",
        hints: present::READ,
        output_schema: present::read_schema,
        text: present::read_text,
        description: read::DESCRIPTION,
        schema: read::schema,
        call: |h, v| typed(v, |i| read_file(h, i)),
    },
    Entry {
        name: "write_file",
        hints: present::WRITE,
        output_schema: present::write_schema,
        text: present::write_text,
        description: edit::WRITE_DESCRIPTION,
        schema: edit::write_schema,
        call: |h, v| typed(v, |i| write_file(h, i)),
    },
    Entry {
        name: "edit_file",
        hints: present::EDIT,
        output_schema: present::edit_schema,
        text: present::edit_text,
        description: edit::EDIT_DESCRIPTION,
        schema: edit::edit_schema,
        call: |h, v| typed(v, |i| edit_file(h, i)),
    },
    Entry {
        name: "glob",
        hints: present::GLOB,
        output_schema: present::glob_schema,
        text: present::search_text,
        description: search::GLOB_DESCRIPTION,
        schema: search::glob_schema,
        call: |h, v| typed(v, |i| glob(h, i)),
    },
    Entry {
        name: "grep",
        hints: present::GREP,
        output_schema: present::grep_schema,
        text: present::search_text,
        description: search::GREP_DESCRIPTION,
        schema: search::grep_schema,
        call: |h, v| typed(v, |i| grep(h, i)),
    },
    Entry {
        name: "bash",
        hints: present::BASH,
        output_schema: present::bash_schema,
        text: present::bash_text,
        description: bash::DESCRIPTION,
        schema: bash::schema,
        call: |h, v| typed(v, |i| bash(h, i)),
    },
];

/// The six tools, in a stable order, with their descriptions and input schemas.
///
/// ```
/// let names: Vec<_> = shellbox::tools::specs().iter().map(|t| t.name).collect();
/// assert_eq!(names, ["read_file", "write_file", "edit_file", "glob", "grep", "bash"]);
/// ```
pub fn specs() -> Vec<ToolSpec> {
    TABLE
        .iter()
        .map(|e| ToolSpec {
            name: e.name,
            title: e.hints.title,
            description: e.description,
            input_schema: (e.schema)(),
            output_schema: (e.output_schema)(),
            annotations: e.hints.to_json(),
        })
        .collect()
}

/// Tool `name`'s result as the plain text a model reads: the numbered lines of a read
/// (and where to read on), a command's output and exit status, a search's rows. `None`
/// for an unknown tool.
///
/// ```
/// use serde_json::json;
/// let out = json!({"status": "completed", "exitCode": 2, "stdout": "", "stderr": "nope\n", "truncated": false});
/// assert_eq!(shellbox::tools::result_text("bash", &out).unwrap(), "[stderr]\nnope\n[exit code 2]");
/// ```
pub fn result_text(name: &str, result: &Value) -> Option<String> {
    TABLE
        .iter()
        .find(|e| e.name == name)
        .map(|e| (e.text)(result))
}

/// Calls tool `name` with a JSON input object: the JSON result, or a structured error
/// (an unknown tool, input that does not match the schema, or the tool's own failure).
pub fn call_tool(host: &dyn ToolHost, name: &str, input: Value) -> Result<Value, ToolError> {
    match TABLE.iter().find(|e| e.name == name) {
        Some(e) => (e.call)(host, input),
        None => {
            let known: Vec<&str> = TABLE.iter().map(|e| e.name).collect();
            Err(ToolError::new(
                ErrorKind::UnknownTool,
                format!(
                    "there is no tool named {name:?}; the tools are {}",
                    known.join(", ")
                ),
            ))
        }
    }
}

/// The object schema every tool uses: the given properties, the required ones, and no
/// others.
fn object_schema(properties: Value, required: &[&str]) -> Value {
    serde_json::json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

/// Fails with [`ErrorKind::InvalidInput`] unless an optional count is at least 1.
fn at_least_one(name: &str, value: Option<u64>) -> Result<(), ToolError> {
    match value {
        Some(0) => Err(ToolError::new(
            ErrorKind::InvalidInput,
            format!("invalid input: {name} must be at least 1"),
        )),
        _ => Ok(()),
    }
}

/// Whether `data` looks binary to the text tools (it holds a NUL byte).
fn is_binary(data: &[u8]) -> bool {
    data.contains(&0)
}

/// Lines longer than this many UTF-16 code units (JavaScript's string length, as eve
/// measures them) are cut by `read_file` and `grep`.
pub const MAX_LINE_CHARS: usize = 2000;

/// Cuts `line` as eve's `capLineLength` does: a line of more than [`MAX_LINE_CHARS`]
/// UTF-16 code units keeps its first [`MAX_LINE_CHARS`] of them, then ` [truncated]`.
/// A surrogate pair the cut splits leaves U+FFFD, as the lone surrogate JavaScript
/// keeps there reads once encoded.
fn cut_line(line: &str) -> std::borrow::Cow<'_, str> {
    // Bytes are never fewer than UTF-16 units: most lines need no count at all.
    if line.len() <= MAX_LINE_CHARS || line.encode_utf16().count() <= MAX_LINE_CHARS {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut units = 0;
    for (at, c) in line.char_indices() {
        let width = c.len_utf16();
        if units + width > MAX_LINE_CHARS {
            let head = line.get(..at).unwrap_or(line);
            let fill = if units < MAX_LINE_CHARS {
                "\u{FFFD}"
            } else {
                ""
            };
            return std::borrow::Cow::Owned(format!("{head}{fill} [truncated]"));
        }
        units += width;
    }
    std::borrow::Cow::Borrowed(line)
}
