//! `bash`: runs a command in the session through [`ToolHost::run_bash`] and reports it
//! the way the model sees it — exit code and the tails of stdout and stderr (the last
//! 2,000 lines / 50 KiB of each, with a note of what was cut), or, for a command still
//! running when the host stops waiting, where its output and exit code will appear.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{ToolError, ToolHost, object_schema};

/// Lines of each stream kept.
pub const MAX_TAIL_LINES: usize = 2000;
/// Bytes of each stream kept.
pub const MAX_TAIL_BYTES: usize = 50 * 1024;

pub(super) const DESCRIPTION: &str = "\
Run a bash command in the sandbox and return its exit code and output.

- Each call starts a fresh shell in /workspace: files persist between calls; variables, functions and cd do not. The shell is a simulation of bash 5.2 with common utilities (grep, sed, awk, find, jq, ...); there is no network and no package manager.
- Non-zero exit codes are reported in exitCode, not as errors.
- Of stdout and stderr, the last 2000 lines and 50 KiB of each are returned, with a note at the start of what was left out; `truncated` says whether anything was.
- A command still running when the wait runs out returns status `running` with the directory where its output and exit code are written; it keeps running, and the message says how to check on it or stop it.";

pub(super) fn schema() -> Value {
    object_schema(
        json!({
            "command": {
                "type": "string",
                "description": "The bash command or script to run."
            }
        }),
        &["command"],
    )
}

/// The input of `bash`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BashInput {
    pub command: String,
}

/// What a host reports after running a command for the tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BashRun {
    /// The command finished.
    Completed {
        exit_code: i32,
        stdout: Vec<u8>,
        stderr: Vec<u8>,
    },
    /// The command is still running; its output goes to `output_directory`.
    Running {
        pid: u32,
        output_directory: String,
        stdout: Vec<u8>,
        stderr: Vec<u8>,
    },
}

/// A finished command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BashCompleted {
    pub exit_code: i32,
    pub stdout: String,
    pub stderr: String,
    /// Whether either stream was cut.
    pub truncated: bool,
}

/// A command left running in the background.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BashRunning {
    pub pid: u32,
    /// Holds `stdout`, `stderr`, and `exit` once the command ends.
    pub output_directory: String,
    /// Output so far.
    pub stdout: String,
    pub stderr: String,
    pub truncated: bool,
    /// How to check on the command and how to stop it.
    pub message: String,
}

/// The output of `bash`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum BashOutput {
    Completed(BashCompleted),
    Running(BashRunning),
}

/// Runs a command.
pub fn bash(host: &dyn ToolHost, input: BashInput) -> Result<BashOutput, ToolError> {
    Ok(match host.run_bash(&input.command) {
        BashRun::Completed {
            exit_code,
            stdout,
            stderr,
        } => {
            let (stdout, cut_out) = tail(&stdout);
            let (stderr, cut_err) = tail(&stderr);
            BashOutput::Completed(BashCompleted {
                exit_code,
                stdout,
                stderr,
                truncated: cut_out || cut_err,
            })
        }
        BashRun::Running {
            pid,
            output_directory: dir,
            stdout,
            stderr,
        } => {
            let (stdout, cut_out) = tail(&stdout);
            let (stderr, cut_err) = tail(&stderr);
            BashOutput::Running(BashRunning {
                pid,
                message: format!(
                    "The command is still running in the background (pid {pid}). Its output \
                     is appended to {dir}/stdout and {dir}/stderr, and {dir}/exit will hold \
                     its exit code when it ends. Check on it with bash, e.g. `tail \
                     {dir}/stdout` or `cat {dir}/exit`; stop it with `touch {dir}/stop`."
                ),
                output_directory: dir,
                stdout,
                stderr,
                truncated: cut_out || cut_err,
            })
        }
    })
}

/// The last [`MAX_TAIL_LINES`] lines and [`MAX_TAIL_BYTES`] bytes of `data` as text
/// (invalid UTF-8 shown as U+FFFD), with a note of what was cut first; and whether
/// anything was.
///
/// ```
/// let many = "x\n".repeat(2500);
/// let (text, cut) = shellbox::tools::tail(many.as_bytes());
/// assert!(cut);
/// assert!(text.starts_with("[… 500 earlier lines (1000 bytes) cut …]\nx\n"));
/// assert_eq!(text.lines().count(), 2001);
/// ```
pub fn tail(data: &[u8]) -> (String, bool) {
    let text = String::from_utf8_lossy(data);
    let mut start = 0;
    let total_lines = text.split_inclusive('\n').count();
    if total_lines > MAX_TAIL_LINES {
        let skip = total_lines - MAX_TAIL_LINES;
        start = text
            .match_indices('\n')
            .nth(skip - 1)
            .map_or(0, |(i, _)| i + 1);
    }
    if text.len() - start > MAX_TAIL_BYTES {
        let mut at = text.len() - MAX_TAIL_BYTES;
        while !text.is_char_boundary(at) {
            at += 1;
        }
        // Prefer to start at a line boundary when one is in reach.
        start = match text.get(at..).and_then(|rest| rest.find('\n')) {
            Some(nl) if at + nl + 1 < text.len() => at + nl + 1,
            _ => at,
        };
    }
    if start == 0 {
        return (text.into_owned(), false);
    }
    let (cut, kept) = text.split_at(start);
    let cut_lines = cut.split_inclusive('\n').count();
    let plural = if cut_lines == 1 { "" } else { "s" };
    (
        format!(
            "[… {cut_lines} earlier line{plural} ({} bytes) cut …]\n{kept}",
            cut.len()
        ),
        true,
    )
}
