//! `glob` (find files by name pattern) and `grep` (look inside files for a regular
//! expression). Both walk a directory in sorted order with hidden files included, `.git`
//! directories and `.gitignore`d paths left out and symbolic links not followed; both
//! return at most `limit` rows (default 50, at most 200) and say when they cut.
//! Patterns use `globset` and `regex`, which run in linear time.

use globset::{GlobBuilder, GlobMatcher};
use regex::bytes::{Regex, RegexBuilder};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::paths::in_workspace;
use super::{ErrorKind, ToolError, ToolHost, WORKSPACE, at_least_one, cut_line, is_binary};
use crate::commands::rg::{IgnoreFile, ignored, parse_ignore};
use crate::fs::Fs;

/// Rows returned when the call gives no `limit`.
pub const DEFAULT_LIMIT: u64 = 50;
/// Most rows one call returns, whatever `limit` says.
pub const MAX_LIMIT: u64 = 200;
/// Most bytes of `grep` output.
pub const MAX_OUTPUT_BYTES: usize = 50 * 1024;
/// Most lines of `grep` output (context and separators included).
pub const MAX_OUTPUT_LINES: usize = 2000;

pub(super) const GLOB_DESCRIPTION: &str = "\
Find files by path pattern, such as `**/*.rs`, `src/**/test_*.py` or `*.{json,yaml}`.

- A pattern without `/` matches file names at any depth; a pattern with `/` matches the path relative to the search directory. `*` stays within one directory, `**` spans any number, `{a,b}` gives alternatives.
- path: the directory to search, default /workspace; absolute, relative to /workspace, or starting with $HOME/.
- Hidden files are included; .git directories and files ignored by .gitignore are left out, and symbolic links are not followed.
- Returns the matching paths, sorted, up to `limit` (default 50, at most 200), with a note when more matched.
- Run several searches in parallel when you have several patterns.";

pub(super) const GREP_DESCRIPTION: &str = "\
Search the contents of files under /workspace with a regular expression (Rust regex syntax: `fn\\s+\\w+`, `log.*Error`, `^import`).

- outputMode: `files_with_matches` (the default) lists the files that match; `content` shows matching lines as `path:line:text` (with context lines as `path-line-text` and `--` between groups); `count` shows `path:count` for each file.
- A pattern that looks like a plain name (`parse_args`, `user.name`, `std::fs`, `$scope`) is searched for literally unless literal is false. Set literal to true to search for any text exactly.
- path: a directory or file inside /workspace, default /workspace. glob: only search files matching it, such as `*.ts` or `*.{ts,tsx}`.
- ignoreCase: match regardless of case. context: lines to show before and after each match (content mode).
- Returns up to `limit` rows (default 50, at most 200; in content mode, up to that many matching lines) and at most 50 KiB, with a note at the end when the results were cut. Lines longer than 2000 characters are shortened.
- Hidden files are searched; .git directories, files ignored by .gitignore, binary files and symbolic links are skipped.
- Run several searches in parallel when they are independent.";

pub(super) fn glob_schema() -> Value {
    super::object_schema(
        json!({
            "pattern": {
                "type": "string",
                "description": "The glob pattern, e.g. **/*.ts or src/*.rs."
            },
            "path": {
                "type": "string",
                "description": "The directory to search. Default /workspace."
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "description": "Most paths to return. Default 50; at most 200 are returned."
            }
        }),
        &["pattern"],
    )
}

pub(super) fn grep_schema() -> Value {
    super::object_schema(
        json!({
            "pattern": {
                "type": "string",
                "description": "The regular expression (or literal text) to search for."
            },
            "path": {
                "type": "string",
                "description": "A directory or file inside /workspace to search. Default /workspace."
            },
            "glob": {
                "type": "string",
                "description": "Only search files matching this glob, e.g. *.py or *.{ts,tsx}."
            },
            "ignoreCase": {
                "type": "boolean",
                "description": "Match regardless of case. Default false."
            },
            "literal": {
                "type": "boolean",
                "description": "true: search for the text exactly; false: treat it as a regular expression. Default: literal for plain names, a regular expression otherwise."
            },
            "context": {
                "type": "integer",
                "minimum": 0,
                "description": "Lines of context before and after each match in content mode. Default 0."
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "description": "Most rows to return. Default 50; at most 200 are returned."
            },
            "outputMode": {
                "type": "string",
                "enum": ["files_with_matches", "content", "count"],
                "description": "What to return. Default files_with_matches."
            }
        }),
        &["pattern"],
    )
}

/// The input of `glob`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GlobInput {
    pub pattern: String,
    #[serde(default)]
    pub path: Option<String>,
    #[serde(default)]
    pub limit: Option<u64>,
}

/// The output of `glob`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GlobOutput {
    /// The paths, one a line, or `No files found`, plus a note when cut.
    pub content: String,
    /// How many paths were returned.
    pub count: u64,
    /// The directory searched.
    pub path: String,
    /// Whether more files matched than were returned.
    pub truncated: bool,
}

/// What `grep` returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputMode {
    #[default]
    FilesWithMatches,
    Content,
    Count,
}

/// The input of `grep`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GrepInput {
    pub pattern: String,
    #[serde(default)]
    pub path: Option<String>,
    #[serde(default)]
    pub glob: Option<String>,
    #[serde(default)]
    pub ignore_case: Option<bool>,
    #[serde(default)]
    pub literal: Option<bool>,
    #[serde(default)]
    pub context: Option<u64>,
    #[serde(default)]
    pub limit: Option<u64>,
    #[serde(default)]
    pub output_mode: Option<OutputMode>,
}

/// The output of `grep`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GrepOutput {
    /// The rows, or `No matches found`, plus a note when cut.
    pub content: String,
    /// Matching lines shown (content), counted (count), or matching files (files).
    pub match_count: u64,
    pub output_mode: OutputMode,
    /// The directory or file searched.
    pub path: String,
    /// Whether the results were cut by the limit or the size bounds.
    pub truncated: bool,
}

/// Compiles a glob where `*` stays within one path component.
fn compile_glob(pattern: &str) -> Result<GlobMatcher, ToolError> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| {
            ToolError::new(
                ErrorKind::InvalidPattern,
                format!("invalid glob {pattern:?}: {e}"),
            )
        })
}

/// A compiled file pattern: against the base name when it has no `/`, else against the
/// path relative to the search root (or the absolute path, for an absolute pattern).
struct FilePattern {
    glob: GlobMatcher,
    by_name: bool,
    absolute: bool,
}

impl FilePattern {
    fn new(pattern: &str) -> Result<FilePattern, ToolError> {
        let trimmed = pattern.strip_prefix("./").unwrap_or(pattern);
        Ok(FilePattern {
            glob: compile_glob(trimmed)?,
            by_name: !trimmed.contains('/'),
            absolute: trimmed.starts_with('/'),
        })
    }

    fn matches(&self, root: &str, path: &str) -> bool {
        if self.absolute {
            return self.glob.is_match(path);
        }
        if self.by_name {
            return self.glob.is_match(crate::fs::path::file_name(path));
        }
        let rel = path
            .strip_prefix(root)
            .unwrap_or(path)
            .trim_start_matches('/');
        self.glob.is_match(rel)
    }
}

/// Lists the regular files under directory `root`, sorted by path, skipping `.git`,
/// symbolic links and what `.gitignore` files (in `root`, below it, or above it) ignore.
fn list_files(fs: &Fs, root: &str) -> Vec<String> {
    let mut walker = Walker {
        fs,
        ignores: Vec::new(),
        files: Vec::new(),
    };
    let mut ancestors = Vec::new();
    let mut dir = root;
    while dir != "/" {
        dir = crate::fs::path::parent(dir);
        ancestors.push(dir);
    }
    for dir in ancestors.into_iter().rev() {
        walker.load_ignore(dir);
    }
    walker.walk(root, 0);
    let mut files = walker.files;
    files.sort_unstable();
    files
}

struct Walker<'a> {
    fs: &'a Fs,
    ignores: Vec<IgnoreFile>,
    files: Vec<String>,
}

/// Directory depth below the search root at which the walk stops.
const MAX_DEPTH: usize = 256;

impl Walker<'_> {
    fn load_ignore(&mut self, dir: &str) {
        if let Ok(data) = self.fs.read_file(&crate::fs::path::join(dir, ".gitignore")) {
            self.ignores
                .push(parse_ignore(dir, &String::from_utf8_lossy(&data)));
        }
    }

    fn walk(&mut self, dir: &str, depth: usize) {
        let Ok(entries) = self.fs.read_dir(dir) else {
            return;
        };
        if depth > MAX_DEPTH {
            return;
        }
        let pushed = self.ignores.len();
        self.load_ignore(dir);
        for e in entries {
            if e.name == ".git" || e.file_type.is_symlink() {
                continue;
            }
            let child = crate::fs::path::join(dir, &e.name);
            let is_dir = e.file_type.is_dir();
            if ignored(&self.ignores, &child, is_dir) {
                continue;
            }
            if is_dir {
                self.walk(&child, depth + 1);
            } else if e.file_type.is_file() {
                self.files.push(child);
            }
        }
        self.ignores.truncate(pushed);
    }
}

/// The effective row limit of a call.
fn row_limit(limit: Option<u64>) -> Result<usize, ToolError> {
    at_least_one("limit", limit)?;
    let limit = limit.unwrap_or(DEFAULT_LIMIT).min(MAX_LIMIT);
    Ok(usize::try_from(limit).unwrap_or(usize::MAX))
}

/// Resolves a search root that must exist, with a snapshot of the filesystem.
fn search_root(host: &dyn ToolHost, path: Option<&str>) -> Result<(String, Fs), ToolError> {
    let root = super::resolve(path.unwrap_or(WORKSPACE), host.home())?;
    let fs = host.fs().snapshot();
    fs.stat(&root).map_err(|e| ToolError::fs(&root, &e))?;
    Ok((root, fs))
}

/// Finds files by glob pattern.
pub fn glob(host: &dyn ToolHost, input: GlobInput) -> Result<GlobOutput, ToolError> {
    let limit = row_limit(input.limit)?;
    let pattern = FilePattern::new(&input.pattern)?;
    let (root, fs) = search_root(host, input.path.as_deref())?;
    if !fs.stat(&root).is_ok_and(|m| m.is_dir()) {
        return Err(ToolError::at(
            ErrorKind::InvalidPath,
            &root,
            format!("{root} is not a directory; glob searches a directory"),
        ));
    }
    let found: Vec<String> = list_files(&fs, &root)
        .into_iter()
        .filter(|p| pattern.matches(&root, p))
        .collect();
    let truncated = found.len() > limit;
    let shown = found.get(..limit).unwrap_or(&found);
    let mut content = if shown.is_empty() {
        "No files found".to_owned()
    } else {
        shown.join("\n")
    };
    if truncated {
        content.push_str(&format!(
            "\n\n(Showing the first {limit} of {} matching files. Use a more specific \
             pattern or path to see the others.)",
            found.len()
        ));
    }
    Ok(GlobOutput {
        content,
        count: shown.len() as u64,
        path: root,
        truncated,
    })
}

/// Whether a pattern reads as a name rather than a regular expression: word characters
/// with `.`, `:`, `-`, `/`, `@`, `#`, and `$` only at the start.
fn identifier_like(pattern: &str) -> bool {
    let body = pattern.strip_prefix('$').unwrap_or(pattern);
    !body.is_empty()
        && body.chars().any(|c| c.is_alphanumeric() || c == '_')
        && body
            .chars()
            .all(|c| c.is_alphanumeric() || "_.:-/@#".contains(c))
}

/// Accumulates grep's rows within the row, byte and line bounds.
struct Rows {
    text: String,
    lines: usize,
    cut_by_size: bool,
}

impl Rows {
    /// Adds one row; false (and nothing added) once a size bound would be passed.
    fn push(&mut self, row: &str) -> bool {
        if self.cut_by_size
            || self.lines >= MAX_OUTPUT_LINES
            || self.text.len() + row.len() + 1 > MAX_OUTPUT_BYTES
        {
            self.cut_by_size = true;
            return false;
        }
        self.text.push_str(row);
        self.text.push('\n');
        self.lines += 1;
        true
    }
}

/// The lines of `data` without their `\n` or `\r\n` terminators.
fn lines(data: &[u8]) -> Vec<&[u8]> {
    if data.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if data.ends_with(b"\n") {
        out.pop();
    }
    out.into_iter()
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .collect()
}

/// Searches file contents.
pub fn grep(host: &dyn ToolHost, input: GrepInput) -> Result<GrepOutput, ToolError> {
    let limit = row_limit(input.limit)?;
    if input
        .path
        .as_deref()
        .is_some_and(|p| p.starts_with("$HOME"))
    {
        return Err(ToolError::new(
            ErrorKind::OutsideWorkspace,
            "grep searches only inside /workspace; use bash (grep -rn) for other directories",
        ));
    }
    let (root, fs) = search_root(host, input.path.as_deref())?;
    let real = fs.canonicalize(&root).unwrap_or_else(|_| root.clone());
    if !in_workspace(&root) || !in_workspace(&real) {
        return Err(ToolError::at(
            ErrorKind::OutsideWorkspace,
            &root,
            format!(
                "{root} is outside /workspace; grep searches only inside /workspace (use bash \
                 for other directories)"
            ),
        ));
    }
    let literal = input
        .literal
        .unwrap_or_else(|| identifier_like(&input.pattern));
    let source = if literal {
        regex::escape(&input.pattern)
    } else {
        input.pattern.clone()
    };
    let re = RegexBuilder::new(&source)
        .case_insensitive(input.ignore_case.unwrap_or(false))
        .multi_line(true)
        .crlf(true)
        .size_limit(16 << 20)
        .build()
        .map_err(|e| {
            ToolError::new(
                ErrorKind::InvalidPattern,
                format!("invalid regular expression: {e}"),
            )
        })?;
    let filter = input.glob.as_deref().map(FilePattern::new).transpose()?;
    let files = if fs.stat(&real).is_ok_and(|m| m.is_dir()) {
        list_files(&fs, &root)
    } else {
        vec![root.clone()]
    };
    let mode = input.output_mode.unwrap_or_default();
    let context = usize::try_from(input.context.unwrap_or(0)).unwrap_or(usize::MAX);
    let mut rows = Rows {
        text: String::new(),
        lines: 0,
        cut_by_size: false,
    };
    let mut shown = 0usize;
    let mut match_count = 0u64;
    let mut cut_by_limit = false;
    for path in &files {
        if filter.as_ref().is_some_and(|f| !f.matches(&root, path)) {
            continue;
        }
        let Ok(data) = fs.read_file(path) else {
            continue;
        };
        if is_binary(&data) || !re.is_match(&data) {
            continue;
        }
        let lines = lines(&data);
        let hits: Vec<usize> = (0..lines.len())
            .filter(|&i| lines.get(i).is_some_and(|l| re.is_match(l)))
            .collect();
        if hits.is_empty() {
            continue;
        }
        if shown == limit {
            cut_by_limit = true;
            break;
        }
        match mode {
            OutputMode::FilesWithMatches => {
                if !rows.push(path) {
                    break;
                }
                shown += 1;
                match_count += 1;
            }
            OutputMode::Count => {
                if !rows.push(&format!("{path}:{}", hits.len())) {
                    break;
                }
                shown += 1;
                match_count += hits.len() as u64;
            }
            OutputMode::Content => {
                let room = limit - shown;
                if hits.len() > room {
                    cut_by_limit = true;
                }
                let taken = hits.get(..room).unwrap_or(&hits);
                // Context stops short of the first match that did not make the cut.
                let last = hits.get(taken.len()).map_or(lines.len(), |&h| h);
                let file = FileLines {
                    path,
                    lines: lines.get(..last).unwrap_or(&lines),
                };
                let (added, matched) = content_rows(&mut rows, &file, taken, context, &re);
                shown += taken.len();
                match_count += matched;
                if !added || cut_by_limit {
                    break;
                }
            }
        }
    }
    let mut content = if rows.text.is_empty() && !rows.cut_by_size {
        "No matches found".to_owned()
    } else {
        rows.text.trim_end_matches('\n').to_owned()
    };
    let mut notes = Vec::new();
    if cut_by_limit {
        notes.push(format!(
            "[Stopped at the limit of {limit} results; raise limit (at most {MAX_LIMIT}) or \
             narrow the pattern, path or glob.]"
        ));
    }
    if rows.cut_by_size {
        notes.push(
            "[Output cut to stay within 50 KiB / 2000 lines; narrow the pattern, path or glob.]"
                .to_owned(),
        );
    }
    if !notes.is_empty() {
        content.push_str("\n\n");
        content.push_str(&notes.join(" "));
    }
    Ok(GrepOutput {
        content,
        match_count,
        output_mode: mode,
        path: root,
        truncated: cut_by_limit || rows.cut_by_size,
    })
}

/// One file's lines, as far as content rows may show them.
struct FileLines<'a> {
    path: &'a str,
    lines: &'a [&'a [u8]],
}

/// Adds the content rows of one file: the lines at `hits` and `context` lines around
/// each, with `--` before each group that does not touch the previous one. Returns
/// whether every row fitted, and how many matching lines were added.
fn content_rows(
    rows: &mut Rows,
    file: &FileLines<'_>,
    hits: &[usize],
    context: usize,
    re: &Regex,
) -> (bool, u64) {
    let mut next = 0usize;
    let mut matched = 0u64;
    let mut first = true;
    for &hit in hits {
        let start = hit.saturating_sub(context).max(next);
        let end = hit
            .saturating_add(context)
            .min(file.lines.len().saturating_sub(1));
        if start > end {
            continue;
        }
        let new_group = first || start > next;
        if context > 0 && new_group && !rows.text.is_empty() && !rows.push("--") {
            return (false, matched);
        }
        first = false;
        for i in start..=end {
            let Some(line) = file.lines.get(i) else { break };
            let is_match = re.is_match(line);
            let text = String::from_utf8_lossy(line);
            let sep = if is_match { ':' } else { '-' };
            let row = format!("{}{sep}{}{sep}{}", file.path, i + 1, cut_line(&text));
            if !rows.push(&row) {
                return (false, matched);
            }
            matched += u64::from(is_match);
        }
        next = end + 1;
    }
    (true, matched)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_literal_and_regexes_are_not() {
        for (pattern, want) in [
            ("parse_args", true),
            ("user.name", true),
            ("std::fs", true),
            ("$scope", true),
            ("foo-bar/baz", true),
            ("foo$", false),
            ("log.*Error", false),
            ("^import", false),
            ("fn\\s+", false),
            (".", false),
            ("", false),
        ] {
            assert_eq!(identifier_like(pattern), want, "{pattern}");
        }
    }

    #[test]
    fn lines_drop_terminators() {
        assert_eq!(lines(b"a\r\nb\nc"), vec![&b"a"[..], b"b", b"c"]);
        assert_eq!(lines(b"a\n"), vec![&b"a"[..]]);
        assert!(lines(b"").is_empty());
    }
}
