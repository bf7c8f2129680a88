//! `write_file` (whole-file create or replace) and `edit_file` (replace an exact piece
//! of text). Both refuse to touch an existing file unless its read stamp matches the
//! current content, create missing parents, write bytes exactly as given, and refresh
//! the stamp afterwards. The check and the write happen under one filesystem lock, so a
//! command running at the same time cannot slip a change in between.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{ErrorKind, ToolError, ToolHost, object_schema};
use crate::fs::{Errno, Fs};

pub(super) const WRITE_DESCRIPTION: &str = "\
Create a file, or replace a file's whole content, in the sandbox.

- filePath: an absolute path, a path relative to /workspace, or one starting with $HOME/. Missing parent directories are created.
- A new file can be written straight away. To replace an existing file you must have read it with read_file in this session, and it must not have changed since; otherwise the call fails and tells you to read it (again).
- To change part of an existing file, use edit_file instead: it only needs the text that changes.
- The content is written exactly as given: nothing is added (not even a final newline) and line endings are kept.";

pub(super) const EDIT_DESCRIPTION: &str = "\
Change part of an existing file: replace an exact piece of text (oldString) with new text (newString).

- filePath: an absolute path, a path relative to /workspace, or one starting with $HOME/.
- Read the file with read_file first; the edit fails if you have not, or if the file changed since you read it.
- oldString must match the file exactly, including whitespace, indentation and line endings. Leave out the `<number>: ` prefixes that read_file puts before each line.
- oldString must occur exactly once. If it occurs several times, add surrounding lines until it singles out one place, or set replaceAll to true to replace every occurrence (for a rename, say).
- newString is inserted literally: `$`, `\\` and the like have no special meaning. Nothing else in the file changes.
- The result says how many replacements were made. Use write_file to create a file.";

pub(super) fn write_schema() -> Value {
    object_schema(
        json!({
            "filePath": {
                "type": "string",
                "description": "The file to write: absolute, relative to /workspace, or starting with $HOME/."
            },
            "content": {
                "type": "string",
                "description": "The complete new content of the file."
            }
        }),
        &["filePath", "content"],
    )
}

pub(super) fn edit_schema() -> Value {
    object_schema(
        json!({
            "filePath": {
                "type": "string",
                "description": "The file to edit: absolute, relative to /workspace, or starting with $HOME/."
            },
            "oldString": {
                "type": "string",
                "description": "The exact text to replace; it must occur exactly once unless replaceAll is true."
            },
            "newString": {
                "type": "string",
                "description": "The text to put in its place (taken literally)."
            },
            "replaceAll": {
                "type": "boolean",
                "description": "Replace every occurrence of oldString instead of requiring exactly one. Default false."
            }
        }),
        &["filePath", "oldString", "newString"],
    )
}

/// The input of `write_file`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WriteFileInput {
    pub file_path: String,
    pub content: String,
}

/// The output of `write_file`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WriteFileOutput {
    /// Whether the file was there before.
    pub existed: bool,
    pub path: String,
}

/// The input of `edit_file`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EditFileInput {
    pub file_path: String,
    pub old_string: String,
    pub new_string: String,
    #[serde(default)]
    pub replace_all: Option<bool>,
}

/// The output of `edit_file`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EditFileOutput {
    pub path: String,
    /// How many occurrences were replaced.
    pub replacements: u64,
}

/// The current content of existing regular file `path`, or `None` if nothing is there.
fn existing(fs: &Fs, path: &str) -> Result<Option<std::sync::Arc<Vec<u8>>>, ToolError> {
    match fs.stat(path) {
        Ok(meta) if meta.is_dir() => Err(ToolError::at(
            ErrorKind::IsDirectory,
            path,
            format!("{path} is a directory"),
        )),
        Ok(meta) if !meta.is_file() => Err(ToolError::at(
            ErrorKind::NotAFile,
            path,
            format!("{path} is not a regular file"),
        )),
        Ok(_) => fs
            .read_file(path)
            .map(Some)
            .map_err(|e| ToolError::fs(path, &e)),
        Err(e) if e.is(Errno::ENOENT) => Ok(None),
        Err(e) => Err(ToolError::fs(path, &e)),
    }
}

/// Writes or replaces a whole file.
pub fn write_file(
    host: &dyn ToolHost,
    input: WriteFileInput,
) -> Result<WriteFileOutput, ToolError> {
    let path = super::resolve(&input.file_path, host.home())?;
    let data = input.content.as_bytes();
    let mut fs = host.fs().lock();
    let existed = match existing(&fs, &path)? {
        Some(current) => {
            host.stamps().check(&path, &current, "write_file")?;
            true
        }
        None => {
            let parent = crate::fs::path::parent(&path);
            fs.mkdir_all(parent, 0o755)
                .map_err(|e| ToolError::fs(parent, &e))?;
            false
        }
    };
    fs.write_file(&path, data)
        .map_err(|e| ToolError::fs(&path, &e))?;
    drop(fs);
    host.stamps().record(&path, data);
    Ok(WriteFileOutput { existed, path })
}

/// Replaces `old_string` with `new_string` in an existing file.
pub fn edit_file(host: &dyn ToolHost, input: EditFileInput) -> Result<EditFileOutput, ToolError> {
    let path = super::resolve(&input.file_path, host.home())?;
    let (old, new) = (input.old_string.as_bytes(), input.new_string.as_bytes());
    if old.is_empty() {
        return Err(ToolError::at(
            ErrorKind::EmptyOldString,
            &path,
            "oldString is empty; give the exact text to replace, or use write_file to create \
             the file or replace all of it",
        ));
    }
    if old == new {
        return Err(ToolError::at(
            ErrorKind::NoChange,
            &path,
            "oldString and newString are the same, so the edit would change nothing",
        ));
    }
    let mut fs = host.fs().lock();
    let Some(current) = existing(&fs, &path)? else {
        return Err(ToolError::at(
            ErrorKind::NotFound,
            &path,
            format!("{path} does not exist; create it with write_file"),
        ));
    };
    host.stamps().check(&path, &current, "edit_file")?;
    let starts = crate::text::occurrences(&current, old);
    let replace_all = input.replace_all.unwrap_or(false);
    match starts.len() {
        0 => {
            let mut msg = format!(
                "oldString does not occur in {path}; read the file again and copy the text \
                 exactly, including whitespace and indentation, without the line-number \
                 prefixes"
            );
            let crlf = |s: &[u8]| s.windows(2).any(|w| w == b"\r\n");
            if crlf(&current) && old.contains(&b'\n') && !crlf(old) {
                msg.push_str(
                    ". The file has CRLF line endings: put \\r before each \\n in oldString \
                     (and in newString)",
                );
            }
            return Err(ToolError::at(ErrorKind::NoMatch, &path, msg));
        }
        n if n > 1 && !replace_all => {
            return Err(ToolError::at(
                ErrorKind::MultipleMatches,
                &path,
                format!(
                    "oldString occurs {n} times in {path}; add surrounding text to oldString \
                     so it matches exactly one place, or set replaceAll to true to replace \
                     all {n}"
                ),
            ));
        }
        _ => {}
    }
    let chosen = if replace_all {
        &starts
    } else {
        starts.get(..1).unwrap_or_default()
    };
    let mut out = Vec::with_capacity(current.len() + chosen.len() * new.len());
    let mut from = 0;
    for &at in chosen {
        out.extend_from_slice(current.get(from..at).unwrap_or_default());
        out.extend_from_slice(new);
        from = at + old.len();
    }
    out.extend_from_slice(current.get(from..).unwrap_or_default());
    fs.write_file(&path, &out)
        .map_err(|e| ToolError::fs(&path, &e))?;
    drop(fs);
    host.stamps().record(&path, &out);
    Ok(EditFileOutput {
        path,
        replacements: chosen.len() as u64,
    })
}
