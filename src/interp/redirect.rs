//! Redirections (bash manual, "Redirections"): opening virtual files, duplicating and
//! closing descriptors, here-documents and here-strings, `{var}` descriptors, and the
//! special `/dev/...` paths.

use std::sync::Arc;

use super::io::{FdTable, OpenFile, for_file_type};
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
            self.set_redirected(fd, Some(OpenFile::bytes(crate::text::encode(&text))));
            return Ok(true);
        }
        let RedirTarget::Word(w) = &r.target else {
            return Ok(true);
        };
        if r.op == RedirOp::HereString {
            // Expanded as an assignment's value is: `$@` joins with spaces, `$*` with
            // IFS's first character (`cat <<<$@` with `IFS=:` reads `a b`).
            let text = match Expander::new(self).assign_value(w) {
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
            self.set_redirected(fd, Some(OpenFile::bytes(bytes)));
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
                if target == "-" {
                    // `{var}>&-` closes the descriptor the variable names.
                    let fd = match &r.fd {
                        Some(RedirFd::Var(name)) => match self.var_fd(name) {
                            Some(fd) => fd,
                            None => {
                                self.error(&format!("{name}: ambiguous redirect"));
                                return Ok(false);
                            }
                        },
                        _ => match self.redir_fd(&r.fd, default_fd) {
                            Some(fd) => fd,
                            None => return Ok(false),
                        },
                    };
                    self.set_redirected(fd, None);
                    self.coproc_fd_closed(fd);
                    return Ok(true);
                }
                let (num, close) = match target.strip_suffix('-') {
                    Some(n) => (n, true),
                    None => (target.as_str(), false),
                };
                if let Ok(src) = num.parse::<i32>() {
                    let named = matches!(r.fd, Some(RedirFd::Var(_)));
                    // bash duplicates the source before it assigns `{var}`, so a
                    // closed source leaves the variable alone.
                    if named && self.fds.get(src).is_none() {
                        self.errln(&format!(
                            "{}: redirection error: cannot duplicate fd: Bad file descriptor",
                            self.error_source_name()
                        ));
                        self.error(&format!("{src}: Bad file descriptor"));
                        return Ok(false);
                    }
                    let fd = match self.redir_fd(&r.fd, default_fd) {
                        Some(fd) => fd,
                        None => {
                            if named {
                                self.error(&format!("{src}: Too many open files"));
                            }
                            return Ok(false);
                        }
                    };
                    // `N>&N` (and `N>&N-`) is left alone, open or not.
                    if src == fd && !named {
                        return Ok(true);
                    }
                    let was_open = self.fds.get(fd).is_some();
                    let Some(f) = self.fds.get(src).cloned() else {
                        // Moving onto an open descriptor in the shell, bash first
                        // keeps a copy of the source to put back, which fails too.
                        if close && was_open && !self.redirecting_utility {
                            self.errln(&format!(
                                "{}: redirection error: cannot duplicate fd: Bad file descriptor",
                                self.error_source_name()
                            ));
                        }
                        // A source that came from an expansion is named by the
                        // word as written where the descriptor is the operator's own
                        // (`>&$i`, `0<&$i`), else by the descriptor (`3>&$i`, `>&$i-`).
                        let written = crate::syntax::printer::word_to_string(w);
                        let literal = written
                            .strip_suffix('-')
                            .unwrap_or(&written)
                            .bytes()
                            .all(|b| b.is_ascii_digit());
                        let name = match (literal, close || fd != default_fd) {
                            (true, _) => src.to_string(),
                            (false, true) => fd.to_string(),
                            (false, false) => written,
                        };
                        self.error(&format!("{name}: Bad file descriptor"));
                        return Ok(false);
                    };
                    self.set_redirected(fd, Some(f.clone()));
                    if close && src != fd {
                        // bash keeps a copy of the source only when it kept one of
                        // `N`: moved onto a closed `N`, nothing of `M` is kept.
                        if was_open {
                            self.save_copy(src);
                        }
                        self.fds.set(src, None);
                        // Moved to a `{var}` descriptor, the source comes back after
                        // the command as any other redirection's would.
                        let undo = if named {
                            Undo::Restore(Some(f))
                        } else {
                            Undo::MovedAway {
                                was_open,
                                prev: Some(f),
                            }
                        };
                        self.redirected.push((src, undo));
                    }
                    return Ok(true);
                }
                let to_file =
                    r.op == RedirOp::DupWrite && matches!(r.fd, None | Some(RedirFd::Number(1)));
                if to_file && self.restricted {
                    self.restricted_redirect(r, w);
                    return Ok(false);
                }
                if self.redir_fd(&r.fd, default_fd).is_none() {
                    return Ok(false);
                }
                if to_file {
                    // `>& file` and `1>& file` are `&> file`.
                    return self.open_redirect(&target, RedirOp::WriteBoth, &None, 1);
                }
                self.error(&format!("{target}: ambiguous redirect"));
                Ok(false)
            }
            op if self.restricted && op != RedirOp::Read => {
                self.restricted_redirect(r, w);
                Ok(false)
            }
            op => self.open_redirect(&target, op, &r.fd, default_fd),
        }
    }

    /// The descriptor `{name}>&-` closes: the variable's value read as bash's
    /// legal_number does (surrounding blanks allowed; anything else is 0), `None` when
    /// it is unset, empty or negative.
    fn var_fd(&mut self, name: &str) -> Option<i32> {
        let v = match super::host::split_element_ref(name) {
            Some((base, sub)) => {
                let (base, sub) = (base.to_owned(), sub.to_owned());
                crate::expand::ArithHost::arith_get(self, &base, Some(&sub))
                    .ok()
                    .flatten()
            }
            None => self.get_str(name),
        };
        let v = v.filter(|v| !v.is_empty())?;
        let n = v
            .trim_matches([' ', '\t', '\n'])
            .parse::<i64>()
            .map_or(0, |n| n as i32);
        (n >= 0).then_some(n)
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
                // bash's F_DUPFD fails past `ulimit -n`; so an endless `exec {fd}<f`
                // fails each time instead of growing the table.
                if n >= super::builtins::ulimit::open_files_limit(self) {
                    self.errln(&format!(
                        "{}: redirection error: cannot duplicate fd: Too many open files",
                        self.error_source_name()
                    ));
                    return None;
                }
                if let Err(e) = self.assign_scalar(name, n.to_string(), false) {
                    self.report_assign_error(&e);
                    return None;
                }
                if !self
                    .shopt
                    .has(const { crate::interp::Shopts::flag("varredir_close") })
                {
                    self.redirected.push((n, Undo::KeepOpen));
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
                Some(f) => match self.reopen(&f, op) {
                    Some(Ok(f)) => f,
                    Some(Err(msg)) => {
                        self.error(&format!("{target}: {msg}"));
                        return Ok(false);
                    }
                    None => f,
                },
                None => {
                    self.error(&format!("{target}: No such file or directory"));
                    return Ok(false);
                }
            }
        } else {
            // The file would be opened at the lowest free descriptor, which the soft
            // `ulimit -n` must allow (EMFILE before anything is created, as in bash).
            if self.fds.free_from(0) >= super::builtins::ulimit::open_files_limit(self) {
                self.error(&format!("{target}: Too many open files"));
                return Ok(false);
            }
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
            // A file the redirection creates is mode 0666 less the umask, as bash opens it.
            let mut opts = OpenOptions {
                mode: Some(0o666 & !self.umask),
                ..opts
            };
            // noclobber still allows writing to non-regular files (/dev/null).
            if opts.exclusive
                && let Ok(m) = fs.stat(&path)
                && m.file_type != crate::fs::FileType::File
            {
                opts.exclusive = false;
            }
            match fs.open(&path, opts) {
                Ok(ino) => {
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
                    if ft == crate::fs::FileType::Fifo {
                        drop(fs);
                        let writing = opts.write || opts.append;
                        match self.open_fifo(ino, opts.read || !writing, writing) {
                            Ok(f) => Arc::new(f),
                            Err(e) => return self.fifo_open_failed(target, e),
                        }
                    } else {
                        Arc::new(for_file_type(ft, ino, opts.read, opts.write, opts.append))
                    }
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
            // With stderr closed, bash's copy of it to put back is the file `&>`
            // opened (it took the lowest free descriptor), so stderr stays on the
            // file after a builtin, function or group.
            let adopt = self.fds.get(2).is_none() && !self.redirecting_utility;
            self.set_redirected(1, Some(file.clone()));
            if adopt {
                self.fds.set(2, Some(file.clone()));
                self.redirected.push((2, Undo::Adopted(file)));
            } else {
                self.set_redirected(2, Some(file));
            }
            return Ok(true);
        }
        let full = matches!(fd, Some(RedirFd::Var(_)))
            && self.fds.free_from(10) >= super::builtins::ulimit::open_files_limit(self);
        let fd = match self.redir_fd(fd, default_fd) {
            Some(fd) => fd,
            None => {
                if full {
                    self.error(&format!("{target}: Too many open files"));
                }
                return Ok(false);
            }
        };
        self.set_redirected(fd, Some(file));
        Ok(true)
    }

    /// Linux opens `/dev/fd/N` (and `/dev/stdout`, ...) naming a regular file or a
    /// directory as the file itself, anew: its own offset, `>` truncating it (and
    /// refused under noclobber), access checked against the file's mode. `None` for
    /// anything else (a pipe, a here-document, a device), which is shared as it is.
    fn reopen(&self, f: &OpenFile, op: RedirOp) -> Option<Result<Arc<OpenFile>, String>> {
        let OpenFile::File { ino, .. } = f else {
            return None;
        };
        let ino = *ino;
        let (read, write, append, truncate) = match op {
            RedirOp::Read => (true, false, false, false),
            RedirOp::ReadWrite => (true, true, false, false),
            RedirOp::Append | RedirOp::AppendBoth => (false, true, true, false),
            _ => (false, true, false, true),
        };
        let mut fs = self.fs.lock();
        let ft = fs.stat_ino(ino).ok()?.file_type;
        if ft == crate::fs::FileType::Dir && write {
            return Some(Err(crate::fs::Errno::EISDIR.to_string()));
        }
        if self.set.noclobber
            && matches!(op, RedirOp::Write | RedirOp::WriteBoth)
            && ft == crate::fs::FileType::File
        {
            return Some(Err("cannot overwrite existing file".to_owned()));
        }
        if let Err(e) = fs.access_ino(ino, read, write, false) {
            return Some(Err(e.to_string()));
        }
        if truncate && let Err(e) = fs.truncate_ino(ino, 0) {
            return Some(Err(e.to_string()));
        }
        Some(Ok(Arc::new(for_file_type(ft, ino, read, write, append))))
    }

    /// Opens FIFO `ino` for the shell or a utility it runs, waiting for the other end
    /// as long as the run's limits, cancellation and signals allow.
    pub(crate) fn open_fifo(
        &self,
        ino: crate::fs::Ino,
        read: bool,
        write: bool,
    ) -> std::io::Result<OpenFile> {
        let budget = self.budget.clone();
        let mailbox = self.proc.mailbox().clone();
        let check = move || -> std::io::Result<()> {
            if let Err(m) = budget.check() {
                // Whatever the opener does with the error, the run stops.
                budget.trip(&m);
                return Err(crate::commands::fatal(m));
            }
            super::procs::check_utility()?;
            match mailbox.interrupted() {
                Some((sig, _)) => Err(super::procs::killed_error(sig)),
                None => Ok(()),
            }
        };
        super::fifo::open(&self.fs, ino, read, write, &self.budget, &check)
    }

    /// Reads the whole of a file the shell reads itself (`source`, `bash FILE`).
    /// `/dev/stdin` and `/dev/fd/N` naming one of its readable descriptors (a process
    /// substitution `<(...)`, an `exec 3<` file) and a FIFO are read from the descriptor
    /// until its writers close it, as read(2) through Linux's `/dev/fd` would; anything
    /// else through the filesystem. The outer error ends the run (a limit, a signal).
    pub(crate) fn read_whole_path(
        &mut self,
        path: &str,
    ) -> Result<Result<Arc<Vec<u8>>, crate::fs::FsError>, Flow> {
        let fd = match path {
            "/dev/stdin" => Some(0),
            p => p
                .strip_prefix("/dev/fd/")
                .and_then(|n| n.parse::<i32>().ok()),
        };
        let file = match fd {
            Some(fd) => self.fds.get(fd).filter(|f| f.readable()).cloned(),
            None => match self.open_fifo_path(path, false) {
                Some(Ok(f)) => Some(Arc::new(f)),
                Some(Err(e)) => match self.read_failed(e) {
                    Some(flow) => return Err(flow),
                    None => return Ok(Err(crate::fs::Errno::EIO.into())),
                },
                None => None,
            },
        };
        let Some(file) = file else {
            return Ok(self.fs.lock().read_file(path));
        };
        let mut reader = super::io::FdReader {
            file: Some(file),
            fs: self.fs.clone(),
            budget: self.budget.clone(),
        };
        let limit = self.budget.limits.max_string_len as u64;
        let mut data = Vec::new();
        if let Err(e) =
            std::io::Read::read_to_end(&mut std::io::Read::take(&mut reader, limit + 1), &mut data)
            && let Some(flow) = self.read_failed(e)
        {
            return Err(flow);
        }
        if data.len() as u64 > limit {
            return Err(Flow::Fatal(format!(
                "{path}: string length limit exceeded ({limit} bytes)"
            )));
        }
        Ok(Ok(Arc::new(data)))
    }

    /// A read or open that a limit or a signal cut short ends the run or the shell
    /// (`Some`); any other failure ends the data (`None`).
    fn read_failed(&mut self, e: std::io::Error) -> Option<Flow> {
        if let Some(sig) = super::procs::as_killed(&e) {
            return Some(self.die_of(sig));
        }
        crate::commands::as_fatal(&e).map(|f| Flow::Fatal(f.0.clone()))
    }

    /// Opens `path` for a utility if it is a FIFO it may open (`None` otherwise).
    pub(crate) fn open_fifo_path(
        &self,
        path: &str,
        write: bool,
    ) -> Option<std::io::Result<OpenFile>> {
        let ino = {
            let mut fs = self.fs.lock();
            let meta = fs.stat(path).ok()?;
            if meta.file_type != crate::fs::FileType::Fifo {
                return None;
            }
            let opts = OpenOptions {
                read: !write,
                write,
                ..OpenOptions::default()
            };
            // One it may not open is refused by the ordinary open, in its words.
            fs.open(path, opts).ok()?
        };
        Some(self.open_fifo(ino, !write, write))
    }

    /// A redirection's FIFO open that a limit or a signal cut short: the run or the
    /// shell ends; anything else fails the redirection.
    fn fifo_open_failed(&mut self, target: &str, e: std::io::Error) -> Result<bool, Flow> {
        if let Some(f) = crate::commands::as_fatal(&e) {
            return Err(Flow::Fatal(f.0.clone()));
        }
        if let Some(sig) = super::procs::as_killed(&e) {
            return Err(self.die_of(sig));
        }
        self.error(&format!("{target}: {e}"));
        Ok(false)
    }

    /// Closes the descriptors of process substitutions opened since `saved` was taken.
    pub(crate) fn close_new_procsubs(&mut self, saved: &FdTable) {
        while let Some(&fd) = self.procsub_fds.last() {
            if saved.get(fd).is_some() {
                break;
            }
            self.procsub_fds.pop();
            self.fds.set(fd, None);
        }
    }

    /// Closes the descriptors of process substitutions not in `keep` (the list before
    /// a command's words were expanded).
    pub(crate) fn close_procsubs_except(&mut self, keep: &[i32]) {
        if self.procsub_fds.len() <= keep.len() && self.procsub_fds.iter().all(|f| keep.contains(f))
        {
            return;
        }
        for fd in std::mem::take(&mut self.procsub_fds) {
            if keep.contains(&fd) {
                self.procsub_fds.push(fd);
            } else {
                self.fds.set(fd, None);
            }
        }
    }

    /// Sets descriptor `fd` for a redirection, noting what it held for
    /// [`restore_redirected`](Self::restore_redirected).
    fn set_redirected(&mut self, fd: i32, f: Option<Arc<OpenFile>>) {
        let prev = self.fds.get(fd).cloned();
        if prev.is_some() {
            self.save_copy(fd);
        }
        self.fds.set(fd, f);
        self.redirected.push((fd, Undo::Restore(prev)));
    }

    /// bash keeps a copy of an open descriptor a redirection in the shell replaces at
    /// the lowest free descriptor from 10, until the command ends: a `{var}` opened
    /// later in the same command, or in it, takes the next one (`{ ...; } <f {v}<g`
    /// gives `v` 11). A program's or subshell's redirections, and those of a command
    /// its process ends with, keep none.
    fn save_copy(&mut self, fd: i32) {
        if self.redirecting_utility {
            return;
        }
        let Some(cur) = self.fds.get(fd).cloned() else {
            return;
        };
        let slot = self.fds.free_from(10);
        if slot >= super::builtins::ulimit::open_files_limit(self) {
            return;
        }
        self.fds.set(slot, Some(cur));
        self.redirected.push((slot, Undo::Copy));
    }

    /// Lets go of what the redirections since `mark` replaced, in a process that
    /// will not put it back (it ends with the command): holding it would keep a
    /// pipe's writing end open after the process moved away from it, and a reader
    /// waiting for its end would wait as long as the process runs.
    pub(crate) fn release_undo(&mut self, mark: usize) {
        for (_, u) in self.redirected.iter_mut().skip(mark) {
            match u {
                Undo::Restore(prev) | Undo::MovedAway { prev, .. } => *prev = None,
                _ => {}
            }
        }
    }

    /// Drops the log of redirections since `mark` without putting anything back (the
    /// command's descriptors stay as it left them: `exec`), closing the copies kept.
    pub(crate) fn forget_redirected(&mut self, mark: usize) {
        let log = self.redirected.split_off(mark.min(self.redirected.len()));
        for (fd, undo) in log {
            if matches!(undo, Undo::Copy) {
                self.fds.set(fd, None);
            }
        }
    }

    /// After a command: puts back, last first, what the descriptors its redirections
    /// set since `mark` (a length of the log) held before each, as bash's undo list
    /// does; the others keep what the command did to them (`exec 3>f` inside a
    /// function stays open). A descriptor a `{var}` redirection opened stays open
    /// (unless `shopt -s varredir_close`), and with `in_shell` (a builtin, function or
    /// compound command) one moved away by `N>&M-` to an `N` that was closed stays
    /// closed, whatever later redirections of the command set `M` to: bash restores `N`
    /// but not `M`. The copies kept are closed, and so are
    /// the descriptors process substitutions opened for the redirections (those not in
    /// `saved`, the table before them).
    pub(crate) fn restore_redirected(&mut self, mark: usize, saved: &FdTable, in_shell: bool) {
        self.close_new_procsubs(saved);
        let log = self.redirected.split_off(mark.min(self.redirected.len()));
        let named: Vec<i32> = log
            .iter()
            .filter(|(_, u)| matches!(u, Undo::KeepOpen))
            .map(|(fd, _)| *fd)
            .collect();
        for (fd, undo) in log.into_iter().rev() {
            let back = match undo {
                Undo::Restore(prev) if !named.contains(&fd) => prev,
                Undo::Adopted(f) if !named.contains(&fd) => Some(f),
                Undo::MovedAway { was_open, prev } if !in_shell || was_open => prev,
                Undo::Copy => None,
                _ => continue,
            };
            self.fds.set(fd, back);
        }
    }
}

/// How a descriptor a redirection touched is treated when the command ends.
#[derive(Clone, Debug)]
pub(crate) enum Undo {
    /// Put back to what it held before the redirection.
    Restore(Option<Arc<OpenFile>>),
    /// Opened by `{var}>file`: left open.
    KeepOpen,
    /// Closed by `N>&M-`: put back after a utility, or when `N` was open before
    /// (bash's undo of `N` then brings `M` back too).
    MovedAway {
        was_open: bool,
        prev: Option<Arc<OpenFile>>,
    },
    /// A copy of a descriptor the shell kept to put back (see `save_copy`): closed.
    Copy,
    /// Set by `&>` while closed: put back as that file (bash saved the file's own
    /// descriptor for it).
    Adopted(Arc<OpenFile>),
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
