//! Test support for the utilities: runs a command line against a fresh filesystem holding
//! given files, with given stdin, and returns what it printed and its status.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::collections::BTreeMap;
use std::io::{self, Read, Write};

use super::{CmdResult, Ctx, Host, Stdio, builtin_table};
use crate::fs::{Clock, Fs, SharedFs};

/// The virtual time tests start at: 2023-11-14 22:13:20 UTC.
pub const NOW: i64 = 1_700_000_000;

/// The working directory of every test command.
pub const CWD: &str = "/workspace";

/// A host whose `run` dispatches to the built-in table.
pub struct TestHost {
    pub fs: SharedFs,
    pub env: BTreeMap<String, String>,
    pub cwd: String,
}

impl Host for TestHost {
    fn run(
        &mut self,
        argv: &[String],
        stdin: Stdio<'_, dyn Read>,
        stdout: Stdio<'_, dyn Write>,
        stderr: Stdio<'_, dyn Write>,
    ) -> CmdResult {
        let env = self.env.clone();
        self.run_env(argv, &env, stdin, stdout, stderr)
    }
    fn run_env(
        &mut self,
        argv: &[String],
        env: &BTreeMap<String, String>,
        mut stdin: Stdio<'_, dyn Read>,
        mut stdout: Stdio<'_, dyn Write>,
        mut stderr: Stdio<'_, dyn Write>,
    ) -> CmdResult {
        let Some((name, args)) = argv.split_first() else {
            return Ok(0);
        };
        // Stand-ins for shell builtins that live outside this module.
        match name.as_str() {
            "echo" => {
                writeln!(stdout.stream(), "{}", args.join(" "))?;
                return Ok(0);
            }
            // `sh -c 'cmd args'` runs one simple command (for awk's system() and pipes).
            "sh" if args.first().is_some_and(|a| a == "-c") => {
                let line = args.get(1).map_or(Vec::new(), |l| words(l));
                return self.run(&line, stdin, stdout, stderr);
            }
            _ => {}
        }
        let Some((_, f)) = builtin_table().into_iter().find(|(n, _)| n == name) else {
            writeln!(stderr.stream(), "bash: {name}: command not found")?;
            return Ok(127);
        };
        let fs = self.fs.clone();
        let cwd = self.cwd.clone();
        let mut ctx = Ctx {
            name,
            args,
            stdin: stdin.stream(),
            stdout: stdout.stream(),
            stderr: stderr.stream(),
            env,
            cwd: &cwd,
            fs: &fs,
            host: self,
            umask: super::util::UMASK,
            shared: None,
        };
        f(&mut ctx)
    }
    fn check(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Splits a command line into words: whitespace separates, `'…'` and `"…"` quote,
/// `\` escapes one character.
pub fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut have = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if have {
                    out.push(std::mem::take(&mut cur));
                    have = false;
                }
            }
            '\'' => {
                have = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    cur.push(c);
                }
            }
            '"' => {
                have = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => {
                            if let Some(n) = chars.next() {
                                if !matches!(n, '"' | '\\' | '$' | '`') {
                                    cur.push('\\');
                                }
                                cur.push(n);
                            }
                        }
                        c => cur.push(c),
                    }
                }
            }
            '\\' => {
                have = true;
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            c => {
                have = true;
                cur.push(c);
            }
        }
    }
    if have {
        out.push(cur);
    }
    out
}

/// A filesystem holding `files` under [`CWD`]: `("d/", "")` makes a directory,
/// `("l", "->target")` a symlink, anything else a file with that content.
pub fn fs_with(files: &[(&str, &str)]) -> SharedFs {
    let mut fs = Fs::new(Clock::virtual_at(NOW));
    for (name, content) in files {
        let path = crate::fs::path::join(CWD, name);
        let parent = crate::fs::path::parent(&path).to_owned();
        fs.mkdir_all(&parent, 0o755).expect("mkdir parent");
        if name.ends_with('/') {
            fs.mkdir_all(&path, 0o755).expect("mkdir");
        } else if let Some(target) = content.strip_prefix("->") {
            fs.symlink(target, &path).expect("symlink");
        } else {
            fs.write_file(&path, content.as_bytes()).expect("write");
        }
    }
    SharedFs::new(fs)
}

/// Runs `line` (split by [`words`]) over `fs` with `stdin`; returns (stdout, stderr,
/// status), an `Err` status printed as `Err(kind)` on stderr and status -1.
pub fn run_in(fs: &SharedFs, line: &str, stdin: &[u8]) -> (Vec<u8>, String, i32) {
    let argv = words(line);
    let mut host = TestHost {
        fs: fs.clone(),
        env: BTreeMap::new(),
        cwd: CWD.to_owned(),
    };
    let mut input = stdin;
    let mut out = Vec::new();
    let mut err = Vec::new();
    let status = match host.run(
        &argv,
        Stdio::Given(&mut input),
        Stdio::Given(&mut out),
        Stdio::Given(&mut err),
    ) {
        Ok(s) => s,
        Err(e) => {
            err.extend_from_slice(format!("Err({e})").as_bytes());
            -1
        }
    };
    (out, String::from_utf8_lossy(&err).into_owned(), status)
}

/// Runs `line` over a fresh filesystem holding `files`.
pub fn run(files: &[(&str, &str)], line: &str, stdin: &str) -> (String, String, i32) {
    let fs = fs_with(files);
    let (out, err, status) = run_in(&fs, line, stdin.as_bytes());
    (String::from_utf8_lossy(&out).into_owned(), err, status)
}

/// Asserts what `line` prints and returns: `want` is (stdout, stderr, status).
#[track_caller]
pub fn check(files: &[(&str, &str)], line: &str, stdin: &str, want: (&str, &str, i32)) {
    let (out, err, status) = run(files, line, stdin);
    assert_eq!(
        (out.as_str(), err.as_str(), status),
        want,
        "\ncommand: {line}\nstdin: {stdin:?}"
    );
}

/// A writer that accepts `limit` bytes then fails with `BrokenPipe`, like a pipe whose
/// reader has exited.
pub struct ClosingPipe {
    pub limit: usize,
    pub got: Vec<u8>,
}

impl Write for ClosingPipe {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.got.len() >= self.limit {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        let n = buf.len().min(self.limit - self.got.len());
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// An endless reader repeating `pattern`, counting how much was read.
pub struct Endless {
    pub pattern: Vec<u8>,
    pub pos: usize,
    pub read: usize,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        for b in buf.iter_mut() {
            *b = self.pattern[self.pos % self.pattern.len()];
            self.pos += 1;
        }
        self.read += buf.len();
        Ok(buf.len())
    }
}

/// Runs `line` with an endless stdin and a stdout that closes after `limit` bytes.
pub fn run_endless(line: &str, pattern: &[u8], limit: usize) -> (Vec<u8>, i32, usize) {
    run_endless_in(fs_with(&[]), line, pattern, limit)
}

/// [`run_endless`] over a prepared `fs`.
pub fn run_endless_in(
    fs: SharedFs,
    line: &str,
    pattern: &[u8],
    limit: usize,
) -> (Vec<u8>, i32, usize) {
    let argv = words(line);
    let mut host = TestHost {
        fs,
        env: BTreeMap::new(),
        cwd: CWD.to_owned(),
    };
    let mut input = Endless {
        pattern: pattern.to_vec(),
        pos: 0,
        read: 0,
    };
    let mut out = ClosingPipe {
        limit,
        got: Vec::new(),
    };
    let mut err = Vec::new();
    let status = match host.run(
        &argv,
        Stdio::Given(&mut input),
        Stdio::Given(&mut out),
        Stdio::Given(&mut err),
    ) {
        Ok(s) => s,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 141,
        Err(_) => -1,
    };
    (out.got, status, input.read)
}
