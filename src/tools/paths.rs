//! How the tools read a model-supplied path: `$HOME` is the only expansion, relative
//! paths start at `/workspace`, and the result is normalised lexically; a `..` that
//! would climb above `/` is refused rather than clamped.

use super::{ErrorKind, ToolError};

/// The directory relative paths start from, and the one `bash` runs in.
pub const WORKSPACE: &str = "/workspace";

/// Resolves `input` to a normalised absolute path, with `$HOME` meaning `home`.
///
/// ```
/// use shellbox::tools::resolve;
/// assert_eq!(resolve("src/./a.rs", "/home/user").as_deref(), Ok("/workspace/src/a.rs"));
/// assert_eq!(resolve("$HOME/.bashrc", "/home/user").as_deref(), Ok("/home/user/.bashrc"));
/// assert_eq!(resolve("/tmp//x/../y/", "/home/user").as_deref(), Ok("/tmp/y"));
/// assert!(resolve("/../etc", "/home/user").is_err());
/// assert!(resolve("~/x", "/home/user").is_err());
/// ```
pub fn resolve(input: &str, home: &str) -> Result<String, ToolError> {
    let invalid = |why: &str| {
        ToolError::new(
            ErrorKind::InvalidPath,
            format!(
                "invalid path {input:?}: {why}; give an absolute path (/workspace/src/main.rs), \
                 a path relative to /workspace (src/main.rs) or one starting with $HOME/"
            ),
        )
    };
    if input.trim().is_empty() {
        return Err(invalid("it is empty"));
    }
    if input.contains('\0') {
        return Err(invalid("it contains a NUL character"));
    }
    let (base, rest) = if input == "$HOME" {
        (home, "")
    } else if let Some(rest) = input.strip_prefix("$HOME/") {
        (home, rest)
    } else if input.starts_with('$') {
        return Err(invalid("only $HOME is expanded"));
    } else if input.starts_with('~') {
        return Err(invalid("~ is not expanded (use $HOME/ instead)"));
    } else if input.starts_with('/') {
        ("/", input)
    } else {
        (WORKSPACE, input)
    };
    let mut parts: Vec<&str> = Vec::new();
    for comp in base.split('/').chain(rest.split('/')) {
        match comp {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(invalid("it climbs above /"));
                }
            }
            name => parts.push(name),
        }
    }
    if parts.is_empty() {
        return Ok("/".to_owned());
    }
    Ok(parts.iter().fold(String::new(), |mut s, p| {
        s.push('/');
        s.push_str(p);
        s
    }))
}

/// Whether normalised absolute `path` is `/workspace` or inside it.
pub(crate) fn in_workspace(path: &str) -> bool {
    path == WORKSPACE
        || path
            .strip_prefix(WORKSPACE)
            .is_some_and(|rest| rest.starts_with('/'))
}
