//! The public embedding API: [`Shell`], a persistent shell session over an in-memory
//! filesystem. Variables, functions and the working directory carry across
//! [`Shell::exec`] calls.
//!
//! ```
//! use shellbox::Shell;
//! let mut sh = Shell::new();
//! let out = sh.exec("x=41; echo $((x + 1)) > /tmp/n; cat /tmp/n");
//! assert_eq!(out.stdout, b"42\n");
//! assert_eq!(sh.exec("echo $x").stdout, b"41\n");
//! ```

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::commands::Registry;
use crate::expand::{Attrs, Value, Var};
use crate::fs::{Clock, Fs, SharedFs};
use crate::interp::io::{Capture, OpenFile};
use crate::interp::{ExecOutput, Interp};
use crate::limits::{Budget, Limits};

/// Virtual time at which a new session's clock starts (2026-01-01T00:00:00Z).
pub const DEFAULT_EPOCH: i64 = 1_767_225_600;

/// Builds a [`Shell`] with files, environment, working directory and limits.
#[derive(Clone, Debug, Default)]
pub struct ShellBuilder {
    files: Vec<(String, Vec<u8>)>,
    env: Vec<(String, String)>,
    cwd: Option<String>,
    limits: Option<Limits>,
    registry: Option<Registry>,
    fs: Option<Fs>,
}

impl ShellBuilder {
    /// Adds a file (parents are created).
    pub fn file(mut self, path: impl Into<String>, content: impl Into<Vec<u8>>) -> Self {
        self.files.push((path.into(), content.into()));
        self
    }
    /// Sets an exported environment variable.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }
    /// Sets the working directory (created if missing).
    pub fn cwd(mut self, dir: impl Into<String>) -> Self {
        self.cwd = Some(dir.into());
        self
    }
    /// Sets the resource limits.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = Some(limits);
        self
    }
    /// Uses a custom command registry (e.g. with host-provided commands).
    pub fn registry(mut self, registry: Registry) -> Self {
        self.registry = Some(registry);
        self
    }
    /// Starts from an existing filesystem (e.g. a template's snapshot).
    pub fn filesystem(mut self, fs: Fs) -> Self {
        self.fs = Some(fs);
        self
    }

    /// Builds the shell.
    pub fn build(self) -> Shell {
        let registry = self.registry.unwrap_or_else(Registry::with_builtins);
        let mut fs = match self.fs {
            Some(fs) => fs,
            None => {
                let mut fs = Fs::new(Clock::virtual_at(DEFAULT_EPOCH));
                let mut names: Vec<&str> = registry.names().collect();
                for b in [
                    "echo", "printf", "test", "[", "true", "false", "pwd", "kill", "bash", "sh",
                ] {
                    names.push(b);
                }
                fs.install_commands(&names);
                fs
            }
        };
        for (path, content) in &self.files {
            let p = crate::fs::path::join("/workspace", path);
            let _ = fs.mkdir_all(crate::fs::path::parent(&p), 0o755);
            let _ = fs.write_file(&p, content);
        }
        let limits = self.limits.unwrap_or_default();
        let cwd = self.cwd.unwrap_or_else(|| "/workspace".to_owned());
        let cwd = crate::fs::path::join("/workspace", &cwd);
        let _ = fs.mkdir_all(&cwd, 0o755);
        let shared = SharedFs::new(fs);
        let budget = Budget::new(limits.clone(), Arc::new(AtomicBool::new(false)));
        let mut interp = Interp::new(shared.clone(), Arc::new(registry), budget);
        interp.cwd = cwd.clone();
        interp.define(
            "PWD",
            Var {
                value: Some(Value::Str(cwd)),
                attrs: Attrs(Attrs::EXPORT),
            },
        );
        for (k, v) in &self.env {
            interp.define(
                k,
                Var {
                    value: Some(Value::Str(v.clone())),
                    attrs: Attrs(Attrs::EXPORT),
                },
            );
        }
        Shell {
            interp,
            fs: shared,
            limits,
        }
    }
}

/// A persistent shell session.
pub struct Shell {
    interp: Interp,
    fs: SharedFs,
    limits: Limits,
}

impl Default for Shell {
    fn default() -> Shell {
        Shell::new()
    }
}

impl Shell {
    /// A shell with the default filesystem layout, cwd `/workspace`.
    pub fn new() -> Shell {
        ShellBuilder::default().build()
    }

    /// A builder for a customised shell.
    pub fn builder() -> ShellBuilder {
        ShellBuilder::default()
    }

    /// Runs a script to completion, capturing stdout and stderr. Stdin is empty.
    pub fn exec(&mut self, script: &str) -> ExecOutput {
        self.exec_with_stdin(script, Vec::new())
    }

    /// Runs a script with the given bytes on stdin.
    pub fn exec_with_stdin(&mut self, script: &str, stdin: Vec<u8>) -> ExecOutput {
        let out = Capture::new(self.limits.max_output_bytes);
        let err = Capture::new(self.limits.max_output_bytes);
        self.interp.set_stdio(
            OpenFile::bytes(stdin),
            Arc::new(OpenFile::Capture(out.clone())),
            Arc::new(OpenFile::Capture(err.clone())),
        );
        self.interp.budget = Budget::new(self.limits.clone(), Arc::new(AtomicBool::new(false)));
        let code = self.interp.run_script(script);
        ExecOutput {
            stdout: out.take(),
            stderr: err.take(),
            exit_code: code,
        }
    }

    /// Runs a script on a blocking thread of the tokio runtime.
    ///
    /// Cancel safety: dropping the future does not stop the script; it runs to
    /// completion (bounded by the limits) on the blocking pool.
    pub async fn exec_async(mut self, script: String) -> (Shell, ExecOutput) {
        let r = tokio::task::spawn_blocking(move || {
            let out = self.exec(&script);
            (self, out)
        })
        .await;
        match r {
            Ok(x) => x,
            Err(e) => (
                Shell::new(),
                ExecOutput {
                    stdout: Vec::new(),
                    stderr: format!("shellbox: task failed: {e}\n").into_bytes(),
                    exit_code: 126,
                },
            ),
        }
    }

    /// The filesystem (locked for the guard's lifetime).
    pub fn fs(&self) -> std::sync::MutexGuard<'_, Fs> {
        self.fs.lock()
    }

    /// Mutable access to the filesystem.
    pub fn fs_mut(&mut self) -> std::sync::MutexGuard<'_, Fs> {
        self.fs.lock()
    }

    /// The interpreter (for advanced embedding: direct stdio, variables).
    pub fn interp_mut(&mut self) -> &mut Interp {
        &mut self.interp
    }

    /// The value of a shell variable.
    pub fn var(&self, name: &str) -> Option<String> {
        self.interp.get_str(name)
    }

    /// The working directory.
    pub fn cwd(&self) -> &str {
        &self.interp.cwd
    }
}
