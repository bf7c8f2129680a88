//! Redirections (bash manual, "Redirections"): opening virtual files, duplicating and
//! closing descriptors, here-documents and here-strings, `{var}` descriptors, and the
//! special `/dev/...` paths.

use std::sync::Arc;

use super::io::{OpenFile, for_file_type};
use super::{Flow, Interp};
use crate::expand::Expander;
use crate::fs::{Device, OpenOptions};
use crate::syntax::{RedirFd, RedirOp, RedirTarget, Redirect};

impl Interp {
    /// Applies redirections in order. Returns `Ok(false)` (after printing bash's error)
    /// if one failed; the caller restores the fd table.
    pub(crate) fn apply_redirects(&mut self, rs: &[Redirect]) -> Result<bool, Flow> {
        for r in rs {
            if !self.apply_redirect(r)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Ends the run when a here-document or here-string is larger than allowed.
    fn check_heredoc_len(&self, len: usize) -> Result<(), Flow> {
        let max = self.budget.limits.max_heredoc_bytes;
        if len > max {
            let m = format!("here-document size limit exceeded ({max} bytes)");
            self.budget.trip(&m);
            return Err(Flow::Fatal(m));
        }
        Ok(())
    }

    fn apply_redirect(&mut self, r: &Redirect) -> Result<bool, Flow> {
        let default_fd = default_fd(r.op);
        // Here-documents and here-strings.
        if let RedirTarget::HereDoc(h) = &r.target {
            let text = if h.quoted {
                match h.body().parts.first() {
                    Some(crate::syntax::WordPart::Quoted(s)) => s.clone(),
                    _ => String::new(),
                }
            } else {
                match Expander::new(self).string(h.body()) {
                    Ok(s) => s,
                    Err(e) => {
                        self.expand_error(e)?;
                        return Ok(false);
                    }
                }
            };
            self.check_heredoc_len(text.len())?;
            let fd = match self.redir_fd(&r.fd, default_fd) {
                Some(fd) => fd,
                None => return Ok(false),
            };
            self.fds
                .set(fd, Some(OpenFile::bytes(crate::text::encode(&text))));
            return Ok(true);
        }
        let RedirTarget::Word(w) = &r.target else {
            return Ok(true);
        };
        if r.op == RedirOp::HereString {
            let text = match Expander::new(self).string(w) {
                Ok(s) => s,
                Err(e) => {
                    self.expand_error(e)?;
                    return Ok(false);
                }
            };
            self.check_heredoc_len(text.len())?;
            let fd = match self.redir_fd(&r.fd, default_fd) {
                Some(fd) => fd,
                None => return Ok(false),
            };
            let mut bytes = crate::text::encode(&text);
            bytes.push(b'\n');
            self.fds.set(fd, Some(OpenFile::bytes(bytes)));
            return Ok(true);
        }
        let target = match Expander::new(self).redirect_target(w) {
            Ok(Ok(t)) => t,
            Ok(Err(src)) => {
                self.error(&format!("{src}: ambiguous redirect"));
                return Ok(false);
            }
            Err(e) => {
                self.expand_error(e)?;
                return Ok(false);
            }
        };
        match r.op {
            RedirOp::DupRead | RedirOp::DupWrite => {
                let fd = match self.redir_fd(&r.fd, default_fd) {
                    Some(fd) => fd,
                    None => return Ok(false),
                };
                if target == "-" {
                    self.fds.set(fd, None);
                    return Ok(true);
                }
                let (num, close) = match target.strip_suffix('-') {
                    Some(n) => (n, true),
                    None => (target.as_str(), false),
                };
                if let Ok(src) = num.parse::<i32>() {
                    let Some(f) = self.fds.get(src).cloned() else {
                        self.error(&format!("{src}: Bad file descriptor"));
                        return Ok(false);
                    };
                    self.fds.set(fd, Some(f));
                    if close && src != fd {
                        self.fds.set(src, None);
                    }
                    return Ok(true);
                }
                if r.op == RedirOp::DupWrite && matches!(r.fd, None | Some(RedirFd::Number(1))) {
                    // `>& file` and `1>& file` are `&> file`.
                    return self.open_redirect(&target, RedirOp::WriteBoth, &None, 1);
                }
                self.error(&format!("{target}: ambiguous redirect"));
                Ok(false)
            }
            op => self.open_redirect(&target, op, &r.fd, default_fd),
        }
    }

    /// The descriptor a redirection applies to (allocating one for `{var}`).
    fn redir_fd(&mut self, fd: &Option<RedirFd>, default: i32) -> Option<i32> {
        match fd {
            None => Some(default),
            Some(RedirFd::Number(n)) => {
                if *n >= super::builtins::ulimit::open_files_limit(self) {
                    self.error(&format!("{n}: Bad file descriptor"));
                    return None;
                }
                Some(*n)
            }
            Some(RedirFd::Var(name)) => {
                let n = self.fds.free_from(10);
                if let Err(m) = self.assign_scalar(name, n.to_string(), false) {
                    self.error(&m);
                    return None;
                }
                Some(n)
            }
        }
    }

    fn open_redirect(
        &mut self,
        target: &str,
        op: RedirOp,
        fd: &Option<RedirFd>,
        default_fd: i32,
    ) -> Result<bool, Flow> {
        if target.is_empty() {
            self.error(": No such file or directory");
            return Ok(false);
        }
        let path = crate::fs::path::join(&self.cwd, target);
        // /dev/stdin, /dev/fd/N and friends duplicate existing descriptors.
        let dup_of = match path.as_str() {
            "/dev/stdin" => Some(0),
            "/dev/stdout" => Some(1),
            "/dev/stderr" => Some(2),
            p => p
                .strip_prefix("/dev/fd/")
                .and_then(|n| n.parse::<i32>().ok()),
        };
        let file: Arc<OpenFile> = if let Some(src) = dup_of {
            match self.fds.get(src).cloned() {
                Some(f) => f,
                None => {
                    self.error(&format!("{target}: No such file or directory"));
                    return Ok(false);
                }
            }
        } else {
            let opts = match op {
                RedirOp::Read => OpenOptions {
                    read: true,
                    ..OpenOptions::default()
                },
                RedirOp::ReadWrite => OpenOptions {
                    read: true,
                    write: true,
                    create: true,
                    ..OpenOptions::default()
                },
                RedirOp::Append | RedirOp::AppendBoth => OpenOptions {
                    write: true,
                    append: true,
                    create: true,
                    ..OpenOptions::default()
                },
                _ => OpenOptions {
                    write: true,
                    create: true,
                    truncate: true,
                    exclusive: self.set.noclobber
                        && matches!(op, RedirOp::Write | RedirOp::WriteBoth),
                    ..OpenOptions::default()
                },
            };
            let mut fs = self.fs.lock();
            // noclobber still allows writing to non-regular files (/dev/null).
            let mut opts = opts;
            if opts.exclusive
                && let Ok(m) = fs.stat(&path)
                && m.file_type != crate::fs::FileType::File
            {
                opts.exclusive = false;
            }
            let existed = fs.exists(&path);
            match fs.open(&path, opts) {
                Ok(ino) => {
                    if !existed && opts.create {
                        let _ = fs.chmod(&path, 0o666 & !self.umask);
                    }
                    let ft = fs
                        .stat_ino(ino)
                        .map(|m| m.file_type)
                        .unwrap_or(crate::fs::FileType::File);
                    if let crate::fs::FileType::Device(
                        Device::Stdin | Device::Stdout | Device::Stderr,
                    ) = ft
                    {
                        drop(fs);
                        return Ok(true);
                    }
                    Arc::new(for_file_type(ft, ino, opts.read, opts.write, opts.append))
                }
                Err(e) => {
                    drop(fs);
                    let msg = if e.errno == crate::fs::Errno::EEXIST && opts.exclusive {
                        "cannot overwrite existing file".to_owned()
                    } else {
                        e.to_string()
                    };
                    self.error(&format!("{target}: {msg}"));
                    return Ok(false);
                }
            }
        };
        if matches!(op, RedirOp::WriteBoth | RedirOp::AppendBoth) {
            self.fds.set(1, Some(file.clone()));
            self.fds.set(2, Some(file));
            return Ok(true);
        }
        let fd = match self.redir_fd(fd, default_fd) {
            Some(fd) => fd,
            None => return Ok(false),
        };
        self.fds.set(fd, Some(file));
        Ok(true)
    }
}

/// The descriptor a redirection applies to when it names none: 0 for input, 1 else.
pub(crate) fn default_fd(op: RedirOp) -> i32 {
    match op {
        RedirOp::Read
        | RedirOp::ReadWrite
        | RedirOp::DupRead
        | RedirOp::HereString
        | RedirOp::HereDoc => 0,
        _ => 1,
    }
}
