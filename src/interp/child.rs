//! `bash` and `sh` as commands: a new shell process, simulated by a fresh interpreter
//! that inherits only what a real child would (exported variables and functions, the
//! working directory, open descriptors) and shares the filesystem.

use std::sync::Arc;

use super::{Flow, Interp, R, SetOpts, Shopts};
use crate::expand::{Attrs, Value};

impl Interp {
    /// A fresh shell for a child process of this one; with `exec`, the process this
    /// one is (it was going to end with this command, so bash runs the new program in
    /// it without forking).
    pub(crate) fn child_process(&self, exec: bool) -> Result<Interp, Flow> {
        let at = if exec {
            super::exec::Placement::Exec
        } else {
            super::exec::Placement::Inline
        };
        let mut child = self.fork_process(super::procs::Kind::Shell, at)?;
        let mut fresh = super::vars::Scopes::new();
        // What a new process gets: the environment (no arrays, no functions here).
        let mut env = self.vars.exported();
        if exec && self.lower_on_exec {
            self.lower_shlvl(&mut env);
        }
        let level = env.get("SHLVL").cloned();
        // The new shell's `$_` starts as the path it was run by.
        if let Some(path) = &self.exec_path {
            child.last_arg = path.clone();
        }
        for (k, s) in env {
            let var = fresh.entry(&k, false);
            var.value = Some(Value::Str(s));
            var.attrs.set(Attrs::EXPORT, true);
        }
        child.vars = fresh;
        child.init_vars_keep();
        // A new shell reads BASH_XTRACEFD from its environment, if it got one (not
        // the parent's setting: forgotten, not closed).
        child.xtrace_fd = None;
        child.sync_xtrace_fd();
        child.enter_shell_level(level.as_deref());
        // Without an inherited PWD a new shell finds its directory afresh, with
        // symlinks resolved (getcwd).
        let pwd = match self.get_str("PWD") {
            Some(_) => self.cwd.clone(),
            None => self
                .fs
                .lock()
                .canonicalize(&self.cwd)
                .unwrap_or_else(|_| self.cwd.clone()),
        };
        child.cwd = pwd.clone();
        let _ = child.assign_scalar("PWD", pwd, false);
        child
            .vars
            .entry("PWD", false)
            .attrs
            .set(Attrs::EXPORT, true);
        // A restricted shell passes no functions on.
        let exported = if self.restricted {
            imbl::OrdSet::new()
        } else {
            self.exported_funcs.clone()
        };
        child.funcs = self
            .funcs
            .iter()
            .filter(|(k, _)| exported.contains(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        child.exported_funcs = exported;
        child.set = SetOpts {
            braceexpand: true,
            hashall: true,
            interactive_comments: true,
            ..SetOpts::default()
        };
        child.shopt = Shopts::default();
        child.posix_shopts = false;
        child.restricted = false;
        child.reads_stdin = false;
        child.restricted_shopt_latch = None;
        child.aliases = Arc::new(Default::default());
        // Signals ignored when a shell starts stay ignored, and show as such.
        child.entry_ignored = self.proc.mailbox().ignored();
        child.os_ignored = 0;
        child.traps = (1..=64)
            .filter(|&sig| child.entry_ignored & super::procs::bit(sig) != 0)
            .map(|sig| (super::builtins::signal_name(sig), String::new()))
            .collect();
        child.parent_traps = imbl::OrdMap::new();
        child.sync_dispositions();
        child.positional = Arc::new(Vec::new());
        child.frames = Vec::new();
        child.call_depth = 0;
        child.loop_depth = 0;
        child.no_errexit = 0;
        child.negating = 0;
        child.sourcing = 0;
        child.subshell = 0;
        child.in_subshell = false;
        child.reports_lost_scopes = true;
        child.script_name = None;
        child.status = 0;
        child.dir_stack = Vec::new();
        child.command_number = 1;
        child.disabled_builtins = imbl::OrdSet::new();
        child.jobs = Arc::new(std::sync::Mutex::new(super::JobTable::default()));
        child.pid = child.bashpid;
        let ppid = match at {
            super::exec::Placement::Exec => self.proc.info().map_or(self.bashpid, |i| i.ppid),
            _ => self.bashpid,
        };
        child.define(
            "PPID",
            crate::expand::Var {
                value: Some(Value::Str(ppid.to_string())),
                attrs: Attrs(Attrs::READONLY | Attrs::INTEGER),
            },
        );
        child.last_bg = None;
        child.start_time = self.fs.lock().clock().now().secs;
        child.seconds_offset = 0;
        Ok(child)
    }

    /// Runs the file `BASH_ENV` names, as a non-interactive bash does before its
    /// script (not in POSIX mode): the value expanded first, a file that is not there
    /// passed over in silence, a directory reported. `return` leaves the file.
    pub(crate) fn run_bash_env(&mut self) -> Result<(), Flow> {
        if self.set.posix {
            return Ok(());
        }
        let Some(raw) = self.get_str("BASH_ENV") else {
            return Ok(());
        };
        let file = self.expand_prompt_string(&raw);
        if file.is_empty() {
            return Ok(());
        }
        let path = crate::fs::path::join(&self.cwd, &file);
        let meta = self.fs.lock().stat(&path);
        match meta {
            Err(_) => return Ok(()),
            Ok(m) if m.file_type == crate::fs::FileType::Dir => {
                let name = self.error_source_name();
                self.errln(&format!("{name}: {file}: is a directory"));
                return Ok(());
            }
            Ok(_) => {}
        }
        // The file runs before the shell names its script (BASH_SOURCE holds the
        // file alone) and before a restricted shell's rules apply.
        let name = self.script_name.take();
        let string_mode = std::mem::replace(&mut self.command_string_mode, true);
        let restricted = std::mem::take(&mut self.restricted);
        let r = super::builtins::misc::source(self, &[".".to_owned(), file]);
        self.restricted = restricted;
        self.command_string_mode = string_mode;
        self.script_name = name;
        match r {
            Ok(_) | Err(Flow::Return(_)) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Prints the listing of builtin `name` (`set` or `shopt`) with `flag`. Line
    /// editing is still on while bash reads its arguments (unless `vi` was asked for):
    /// the listing shows `emacs` on.
    fn list_options(&mut self, name: &str, flag: &str) {
        if let Some(b) = super::builtins::lookup(name) {
            let mut args = vec![name.to_owned()];
            if !flag.is_empty() {
                args.push(flag.to_owned());
            }
            let editing = (self.set.emacs, self.set.vi);
            if !self.set.vi {
                self.set.emacs = true;
            }
            let _ = super::builtins::call(self, name, b, &args);
            (self.set.emacs, self.set.vi) = editing;
        }
    }

    /// SHLVL in the environment of a program about to take this process's place:
    /// one lower than the shell's (and exported), as bash lowers it before such an
    /// exec; a readonly SHLVL stays as it is, with bash's error.
    pub(crate) fn lower_shlvl(&self, env: &mut std::collections::BTreeMap<String, String>) {
        if self
            .vars
            .get_raw("SHLVL")
            .is_some_and(|v| v.attrs.has(Attrs::READONLY))
        {
            self.error("SHLVL: readonly variable");
            return;
        }
        let (level, warning) = shell_level_step(self.get_str("SHLVL").as_deref(), -1);
        if let Some(w) = warning {
            self.error(&w);
        }
        env.insert("SHLVL".to_owned(), level.to_string());
    }

    /// A new shell's SHLVL: one more than its environment gave it (`old`), exported.
    pub(crate) fn enter_shell_level(&mut self, old: Option<&str>) {
        let (level, warning) = shell_level_step(old, 1);
        if let Some(w) = warning {
            self.errln(&format!("{}: {w}", self.shell_name));
        }
        let _ = self.assign_scalar("SHLVL", level.to_string(), false);
        self.vars
            .entry("SHLVL", false)
            .attrs
            .set(Attrs::EXPORT, true);
    }

    /// Whether the program the running command names takes this process's place
    /// (bash runs it without forking); consumes the mark.
    pub(crate) fn take_no_fork(&mut self) -> bool {
        std::mem::take(&mut self.no_fork) && (self.exec_builtin || self.can_exec())
    }

    /// Runs `bash [options] [-c script [name args] | file args]`.
    pub(crate) fn run_bash(&mut self, words: &[String]) -> R {
        let prog = words[0].clone();
        let exec = self.take_no_fork();
        let mut child = self.child_process(exec)?;
        child.proc.set_command("bash", &words.join(" "));
        if prog == "sh" || prog.ends_with("/sh") {
            child.set.posix = true;
        }
        // A shell started as `rbash` is restricted.
        if prog.rsplit('/').next() == Some("rbash") {
            child.restricted = true;
        }
        // An exported SHELLOPTS / BASHOPTS turns its options on in the new shell.
        let env = self.vars.exported();
        for name in env.get("SHELLOPTS").into_iter().flat_map(|s| s.split(':')) {
            child.set.set_named(name, true);
        }
        for name in env.get("BASHOPTS").into_iter().flat_map(|s| s.split(':')) {
            child.shopt.set(name, true);
        }
        child.update_shellopts();
        // Only `-l` / `--login` make a login shell, whatever the parent was.
        child.shopt.set("login_shell", false);
        let mut i = 1;
        let mut want_c = false;
        let mut read_stdin = false;
        let mut rcfile: Option<String> = None;
        let mut norc = false;
        while i < words.len() {
            let a = words[i].as_str();
            match a {
                "--" | "-" => {
                    i += 1;
                    break;
                }
                "--norc" => norc = true,
                "--noprofile" | "--noediting" => {}
                "--login" => {
                    child.shopt.set("login_shell", true);
                }
                "--rcfile" | "--init-file" => {
                    i += 1;
                    match words.get(i) {
                        Some(f) => rcfile = Some(f.clone()),
                        None => {
                            self.errln(&format!("{prog}: {a}: option requires an argument"));
                            return Ok(2);
                        }
                    }
                }
                "--posix" => child.set.posix = true,
                "--restricted" => child.restricted = true,
                "--help" => {
                    let _ = self.write_fd(1, BASH_HELP.as_bytes());
                    return Ok(0);
                }
                "--version" => {
                    let _ = self.write_fd(
                        1,
                        b"GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)\n",
                    );
                    return Ok(0);
                }
                "-o" | "+o" => {
                    i += 1;
                    let Some(name) = words.get(i) else {
                        // With no name, bash lists the options as `set -o` / `set +o`
                        // would and goes on.
                        child.list_options("set", a);
                        continue;
                    };
                    if !child.set.set_named(name, a == "-o") {
                        self.errln(&format!(
                            "{prog}: line 0: {prog}: {name}: invalid option name"
                        ));
                        return Ok(2);
                    }
                }
                "-O" | "+O" => {
                    i += 1;
                    if words.get(i).is_none() {
                        child.list_options("shopt", if a == "-O" { "" } else { "-p" });
                    }
                    if let Some(name) = words.get(i)
                        && !child.shopt.set(name, a == "-O")
                    {
                        self.errln(&format!(
                            "{prog}: line 0: {name}: invalid shell option name"
                        ));
                        return Ok(2);
                    }
                }
                _ if (a.starts_with('-') || a.starts_with('+'))
                    && a.len() > 1
                    && !a.starts_with("--") =>
                {
                    let on = a.starts_with('-');
                    for c in a[1..].chars() {
                        match c {
                            'c' => want_c = true,
                            's' => read_stdin = true,
                            'i' => child.interactive = on,
                            'l' => {
                                child.shopt.set("login_shell", true);
                            }
                            'r' => child.restricted = on,
                            'D' => {}
                            // Each `o` or `O` in a group takes the next word as its
                            // option name: `-oo errexit noglob`.
                            'o' | 'O' => {
                                i += 1;
                                let Some(name) = words.get(i) else {
                                    self.errln(&format!(
                                        "{prog}: -{c}: option requires an argument"
                                    ));
                                    return Ok(2);
                                };
                                let known = if c == 'o' {
                                    child.set.set_named(name, on)
                                } else {
                                    child.shopt.set(name, on)
                                };
                                if !known {
                                    self.errln(&format!(
                                        "{prog}: line 0: {prog}: {name}: invalid option name"
                                    ));
                                    return Ok(2);
                                }
                            }
                            _ => match child.set.by_letter(c) {
                                Some(b) => *b = on,
                                None => {
                                    self.errln(&format!("{prog}: -{c}: invalid option"));
                                    self.errln(bash_usage());
                                    return Ok(2);
                                }
                            },
                        }
                    }
                }
                _ if a.starts_with("--") => {
                    self.errln(&format!("{prog}: {a}: invalid option"));
                    self.errln(bash_usage());
                    return Ok(2);
                }
                _ => break,
            }
            i += 1;
        }
        child.update_shellopts();
        let argv0_override = self.argv0_override.take();
        // A shell whose argv[0] starts with `-` (as `exec -l` makes it) is a login shell.
        if argv0_override.as_deref().unwrap_or(&prog).starts_with('-') {
            child.shopt.set("login_shell", true);
        }
        let rest = &words[i.min(words.len())..];
        let script;
        if want_c {
            let Some(s) = rest.first() else {
                self.errln(&format!("{prog}: -c: option requires an argument"));
                return Ok(2);
            };
            script = s.clone();
            child.command_string_mode = true;
            child.vars.entry("BASH_EXECUTION_STRING", false).value =
                Some(Value::Str(script.clone()));
            child.arg0 = rest
                .get(1)
                .cloned()
                .or(argv0_override)
                .unwrap_or_else(|| prog.clone());
            child.positional = Arc::new(rest.iter().skip(2).cloned().collect());
        } else if let (Some(file), false) = (rest.first(), read_stdin) {
            let path = crate::fs::path::join(&self.cwd, file);
            // A directory opens, and the read fails: reported as the script's error.
            let is_dir = self
                .fs
                .lock()
                .stat(&path)
                .is_ok_and(|m| m.file_type == crate::fs::FileType::Dir);
            if is_dir {
                self.errln(&format!("{file}: {file}: Is a directory"));
                return Ok(126);
            }
            let read = self.read_whole_path(&path)?;
            let content = match read {
                Ok(c) => c,
                Err(e) => {
                    self.errln(&format!("{prog}: {file}: {e}"));
                    return Ok(127);
                }
            };
            if crate::text::looks_binary(&content) {
                self.errln(&format!("{file}: {file}: cannot execute binary file"));
                return Ok(126);
            }
            script = crate::text::decode(&content);
            child.command_string_mode = false;
            child.arg0 = file.clone();
            child.script_name = Some(file.clone());
            child.positional = Arc::new(rest[1..].to_vec());
        } else {
            // The script comes from stdin.
            let mut buf = Vec::new();
            let mut chunk = [0u8; 8192];
            if let Some(f) = self.fds.get(0).cloned() {
                loop {
                    match f.read(&self.fs, &mut chunk, &self.budget.cancel) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                }
            }
            script = crate::text::decode(&buf);
            child.command_string_mode = false;
            child.reads_stdin = true;
            child.arg0 = argv0_override.unwrap_or_else(|| prog.clone());
            child.positional = Arc::new(rest.to_vec());
        }
        if child.extdebug() {
            // bash -O extdebug binds BASH_ARGV and starts its debugger (bashdb's
            // start file), which is not installed here: bash then carries on without.
            child.init_args();
            let name = child.arg0.clone();
            child.errln(&format!(
                "{name}: /usr/share/bashdb/bashdb-main.inc: No such file or directory"
            ));
            child.errln(&format!(
                "{name}: warning: cannot start debugger; debugging mode disabled"
            ));
            child.shopt.set("extdebug", false);
            child.extdebug_changed();
            child.update_shellopts();
        }
        if child.set.noexec {
            // Parse only: the reader reports a syntax error as it would when running.
            return Ok(child.run_script(&script));
        }
        let shell = prog.rsplit('/').next().unwrap_or(&prog).to_owned();
        if child.set.verbose {
            // `-v` echoes what the shell reads, the imported functions' text first.
            let names: Vec<String> = child.exported_funcs.iter().cloned().collect();
            for name in names {
                if let Some(def) = child.funcs.get(name.as_str()).cloned() {
                    let text = crate::syntax::printer::function_env_value(&def);
                    child.errln(&format!("{name} {text}"));
                }
            }
        }
        child.report_bad_imports(&shell);
        if child.interactive {
            child.become_interactive();
            if !norc {
                let file = rcfile.unwrap_or_else(|| {
                    format!("{}/.bashrc", child.get_str("HOME").unwrap_or_default())
                });
                let path = crate::fs::path::join(&child.cwd, &file);
                let content = child.fs.lock().read_file(&path).ok();
                if let Some(c) = content {
                    let saved = child.script_name.replace(file.clone());
                    let saved_mode = std::mem::replace(&mut child.command_string_mode, true);
                    let ran = child.run_source(&crate::text::decode(&c), None);
                    child.command_string_mode = saved_mode;
                    child.script_name = saved;
                    // `exit` in the startup file ends the shell there.
                    if let Err(Flow::Exit(s)) = ran {
                        return child.finish_subshell(Err(Flow::Exit(s)));
                    }
                }
            }
        }
        if !child.interactive
            && let Err(e) = child.run_bash_env()
        {
            return child.finish_subshell(Err(e));
        }
        // A shell started restricted becomes so once its startup files have run.
        if child.restricted {
            child.shopt.set("restricted_shell", true);
            child.freeze_restricted_vars();
        }
        let histfile = if child.interactive {
            child.get_str("HISTFILE").filter(|f| !f.is_empty())
        } else {
            None
        };
        if let Some(f) = &histfile {
            let path = crate::fs::path::join(&child.cwd, f);
            if child.fs.lock().exists(&path) {
                let _ = super::builtins::history::history(
                    &mut child,
                    &["history".to_owned(), "-r".to_owned()],
                );
            }
        }
        let status = child.run_script(&script);
        self.reaped |= !exec;
        if !exec && let Some(sig) = child.proc.mailbox().died_of() {
            self.fg_death = Some((child.bashpid, sig));
        }
        if histfile.is_some() && child.set.history {
            // `shopt -s histappend` adds this session's lines; otherwise the list
            // replaces the file.
            let how = if child
                .shopt
                .has(const { crate::interp::Shopts::flag("histappend") })
            {
                "-a"
            } else {
                "-w"
            };
            let _ = super::builtins::history::history(
                &mut child,
                &["history".to_owned(), how.to_owned()],
            );
        }
        Ok(status)
    }
}

/// What `bash --help` prints.
const BASH_HELP: &str = "GNU bash, version 5.2.15(1)-release-(x86_64-pc-linux-gnu)
Usage:\tbash [GNU long option] [option] ...
\tbash [GNU long option] [option] script-file ...
GNU long options:
\t--debug
\t--debugger
\t--dump-po-strings
\t--dump-strings
\t--help
\t--init-file
\t--login
\t--noediting
\t--noprofile
\t--norc
\t--posix
\t--pretty-print
\t--rcfile
\t--restricted
\t--verbose
\t--version
Shell options:
\t-ilrsD or -c command or -O shopt_option\t\t(invocation only)
\t-abefhkmnptuvxBCEHPT or -o option
Type `bash -c \"help set\"' for more information about shell options.
Type `bash -c help' for more information about shell builtin commands.
Use the `bashbug' command to report bugs.

bash home page: <http://www.gnu.org/software/bash>
General help using GNU software: <http://www.gnu.org/gethelp/>
";

/// The usage bash prints after an invalid option: `--help`'s text from its
/// `Usage:` line to the list of option letters.
fn bash_usage() -> &'static str {
    let start = BASH_HELP.find("Usage:").unwrap_or(0);
    let end = BASH_HELP.find("\nType `bash").unwrap_or(BASH_HELP.len());
    BASH_HELP.get(start..end).unwrap_or_default()
}

/// bash's step of the shell level: SHLVL's value as a shell starts (`step` 1) or
/// before a program takes its process's place (`step` -1). A value that is no decimal
/// integer counts as 0, a result below 0 is 0, and one past 999 starts again at 1,
/// with the warning to print.
fn shell_level_step(old: Option<&str>, step: i64) -> (i64, Option<String>) {
    let old = old
        .and_then(super::builtins::read::legal_number)
        .unwrap_or(0);
    let level = old.saturating_add(step).max(0);
    if level >= 1000 {
        let warning = format!("warning: shell level ({level}) too high, resetting to 1");
        return (1, Some(warning));
    }
    (level, None)
}
