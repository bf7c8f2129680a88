//! The interpreter as the host of word expansion: variables (with bash's dynamic ones),
//! positional and special parameters, substitutions and filesystem access for globbing.

use std::sync::Arc;

use super::Interp;
use super::io::{OpenFile, pipe_in};
use crate::expand::{
    ArithFail, ArithHost, ErrorKind, ExpResult, ExpandError, ExpandOpts, Host, Value, Var,
};
use crate::syntax::Script;

impl Interp {
    /// Variables whose value is computed when read.
    pub(crate) fn dynamic_var(&mut self, name: &str) -> Option<Var> {
        if let Some(v) = self.read_special(name) {
            return Some(v);
        }
        let s = match name {
            "LINENO" => self.line.to_string(),
            "PIPESTATUS" => {
                let mut a = imbl::OrdMap::new();
                for (i, s) in self.pipestatus.iter().enumerate() {
                    a.insert(i as i64, s.to_string());
                }
                return Some(Var {
                    value: Some(Value::Indexed(a)),
                    attrs: Default::default(),
                });
            }
            // BASH_SOURCE and BASH_LINENO are set arrays even when empty (`set -u`
            // allows `${#BASH_SOURCE[@]}`); FUNCNAME has no value outside a function.
            "FUNCNAME" => return self.call_stack(name, true).map(array_var),
            "BASH_SOURCE" | "BASH_LINENO" => {
                return Some(array_var(self.call_stack(name, true).unwrap_or_default()));
            }
            "BASH_ARGC" | "BASH_ARGV" => {
                // bash's get_bashargcv: a read outside any function starts the stacks
                // even without extdebug.
                if !self.extdebug() && !self.in_function() {
                    self.init_args();
                }
                let st = &self.arg_stack;
                let a: Vec<String> = if name == "BASH_ARGC" {
                    st.counts.iter().rev().map(usize::to_string).collect()
                } else {
                    st.args.iter().rev().cloned().collect()
                };
                return Some(array_var(a));
            }
            "_" => self.last_arg.clone(),
            "BASH_COMMAND" => self.bash_command.clone(),
            _ => return None,
        };
        Some(Var::scalar(s))
    }
}

/// An indexed array of `items`, as the call-stack variables are read.
fn array_var(items: Vec<String>) -> Var {
    Var {
        value: Some(Value::Indexed(
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| (i as i64, v))
                .collect(),
        )),
        attrs: Default::default(),
    }
}

impl Interp {
    /// Whether `shopt -s extdebug` is on (bash's `debugging_mode`).
    pub(crate) fn extdebug(&self) -> bool {
        self.shopt.has(const { super::Shopts::flag("extdebug") })
    }

    /// bash's `shopt_set_debug_mode`: extdebug turns `set -E` and `set -T` on or off
    /// with it, and starts BASH_ARGC/BASH_ARGV.
    pub(crate) fn extdebug_changed(&mut self) {
        let on = self.extdebug();
        self.set.errtrace = on;
        self.set.functrace = on;
        if on {
            self.init_args();
        }
    }

    /// bash's `init_bash_argv`: starts BASH_ARGC/BASH_ARGV, once, with the positional
    /// parameters of the time.
    pub(crate) fn init_args(&mut self) {
        let st = &mut self.arg_stack;
        if !st.started {
            st.started = true;
            // It goes on top of whatever a `source` in a function pushed before.
            st.counts.push(self.positional.len());
            st.args.extend(self.positional.iter().cloned());
        }
    }

    /// A function call or `source` with arguments pushes them on BASH_ARGV under
    /// extdebug; true when it did (the return pops them then).
    pub(crate) fn push_args(&mut self, args: &[String]) -> bool {
        if !self.extdebug() {
            return false;
        }
        self.init_args();
        self.push_arg_frame(args);
        true
    }

    fn push_arg_frame(&mut self, args: &[String]) {
        self.arg_stack.counts.push(args.len());
        self.arg_stack.args.extend(args.iter().cloned());
    }

    /// `source FILE` without arguments pushes FILE as its one argument, with or
    /// without extdebug (bash's `_evalfile`, whose look-up of BASH_ARGV outside any
    /// function starts the stacks first).
    pub(crate) fn push_source_name(&mut self, file: &str) -> bool {
        if !self.extdebug() && !self.in_function() {
            self.init_args();
        }
        self.push_arg_frame(&[file.to_owned()]);
        true
    }

    /// Drops the innermost call's arguments from BASH_ARGC/BASH_ARGV.
    pub(crate) fn pop_args(&mut self) {
        let st = &mut self.arg_stack;
        if let Some(n) = st.counts.pop() {
            st.args.truncate(st.args.len().saturating_sub(n));
        }
    }

    /// The call-stack arrays (`FUNCNAME`, `BASH_SOURCE`, `BASH_LINENO`, `BASH_ARGC`,
    /// `BASH_ARGV`) as `declare -p` shows them: they always exist, empty when nothing
    /// is on the stack, and `FUNCNAME` outside a function has no value at all.
    pub(crate) fn stack_var(&mut self, name: &str) -> Option<Var> {
        if !matches!(
            name,
            "FUNCNAME" | "BASH_SOURCE" | "BASH_LINENO" | "BASH_ARGC" | "BASH_ARGV"
        ) {
            return None;
        }
        match self.dynamic_var(name) {
            Some(v) => Some(v),
            None if name == "FUNCNAME" => {
                let mut v = Var::default();
                v.attrs.set(crate::expand::Attrs::ARRAY, true);
                Some(v)
            }
            None => Some(array_var(Vec::new())),
        }
    }

    /// `FUNCNAME`, `BASH_SOURCE` or `BASH_LINENO` (innermost frame first), or None when
    /// it has no elements. With `visible`, as expansion sees them: FUNCNAME only inside
    /// a function (the others in sourced files and at a script's top level too). Without
    /// it, as `caller` reads bash's arrays, where a sourced file has its `source` and
    /// `main` frames in FUNCNAME too.
    pub(crate) fn call_stack(&self, name: &str, visible: bool) -> Option<Vec<String>> {
        // Under `bash -c` there is no `main` frame at the bottom.
        let has_main = !self.command_string_mode || self.script_name.is_some();
        if (self.frames.is_empty() && !has_main)
            || (name == "FUNCNAME" && (self.frames.is_empty() || visible && !self.in_function()))
        {
            return None;
        }
        let mut a: Vec<String> = self
            .frames
            .iter()
            .rev()
            .map(|f| match name {
                "FUNCNAME" => f.func.clone(),
                "BASH_SOURCE" => f.source.to_string(),
                _ => f.call_line.to_string(),
            })
            .collect();
        if has_main {
            a.push(match name {
                "FUNCNAME" => "main".to_owned(),
                "BASH_SOURCE" => self.arg0.clone(),
                _ => "0".to_owned(),
            });
        }
        Some(a)
    }
}

impl Interp {
    /// An array element arithmetic read: under `set -u` a missing element of a set
    /// variable is 0, and only a variable with no value at all is unbound (named
    /// without its subscript).
    fn arith_element_or_unbound(
        &self,
        name: &str,
        v: &Var,
        found: Option<String>,
    ) -> Result<Option<String>, ArithFail> {
        if found.is_some() || !self.set.nounset {
            return Ok(found);
        }
        let set = match &v.value {
            Some(Value::Indexed(a)) => !a.is_empty(),
            Some(Value::Assoc(a)) => !a.is_empty(),
            Some(Value::Str(_)) => true,
            None => false,
        };
        if set {
            return Ok(Some(String::new()));
        }
        let mut f = ArithFail::new(name, "unbound variable", None);
        f.fatal = true;
        Err(f)
    }
}

impl ArithHost for Interp {
    fn arith_int(&mut self, name: &str) -> Option<i64> {
        let raw = self.vars.get_raw(name)?;
        if raw.attrs.has(crate::expand::Attrs::NAMEREF) || is_dynamic(name, raw) {
            return None;
        }
        match &raw.value {
            Some(Value::Str(s)) => crate::expand::arith::plain_int(s),
            _ => None,
        }
    }

    fn arith_get(&mut self, name: &str, index: Option<&str>) -> Result<Option<String>, ArithFail> {
        if index.is_none()
            && let Some(raw) = self.vars.get_raw(name)
            && !raw.attrs.has(crate::expand::Attrs::NAMEREF)
            && !is_dynamic(name, raw)
        {
            return Ok(raw.as_scalar());
        }
        let var = Host::var(self, name);
        match index {
            None => Ok(var.and_then(crate::expand::Var::into_scalar)),
            Some(sub) => {
                // An unset name is an indexed array: its subscript is still evaluated.
                let v = var.unwrap_or_default();
                if v.is_assoc() {
                    let key = self
                        .expand_subscript_for(true, sub)
                        .map_err(|e| ArithFail::new(sub, e.message, None))?;
                    let found = match &v.value {
                        Some(Value::Assoc(a)) => a.get(&key).cloned(),
                        _ => None,
                    };
                    return self.arith_element_or_unbound(name, &v, found);
                }
                let i = self.eval_index_text(sub)?;
                // Read after the subscript, which may have assigned to the array.
                let v = Host::var(self, name).unwrap_or_default();
                let Some(idx) = v.read_index(i) else {
                    let msg = format!("{name}: bad array subscript");
                    if self.errexit_reports() {
                        return Err(ArithFail::report(msg));
                    }
                    self.error(&msg);
                    // Reported already: the element reads as 0, even under `set -u`.
                    return Ok(Some(String::new()));
                };
                let found = match &v.value {
                    Some(Value::Indexed(a)) => a.get(&idx).cloned(),
                    Some(Value::Str(s)) if idx == 0 => Some(s.clone()),
                    _ => None,
                };
                self.arith_element_or_unbound(name, &v, found)
            }
        }
    }

    fn arith_set(&mut self, name: &str, index: Option<&str>, value: i64) -> Result<(), ArithFail> {
        let r = match index {
            None => self
                .assign_scalar(name, value.to_string(), false)
                .map(|()| self.bind_through(name)),
            Some(sub) => {
                let assoc = self.vars.get(name).is_some_and(|v| v.is_assoc());
                let key = if assoc {
                    self.expand_subscript_for(true, sub)
                        .map_err(|e| ArithFail::new(sub, e.message, None))?
                } else {
                    // The index is evaluated here, so that its failure is the
                    // subscript's (no `((: `, the command line abandoned).
                    self.eval_index_text(sub)?.to_string()
                };
                match self.assign_element(name, &key, value.to_string(), false) {
                    // bash reports a negative index past the start and goes on.
                    Err(crate::interp::AssignError::BadSubscript { .. }) => {
                        let msg = format!("{name}[{sub}]: bad array subscript");
                        if self.errexit_reports() {
                            return Err(ArithFail::report(msg));
                        }
                        self.error(&msg);
                        return Ok(());
                    }
                    r => r,
                }
            }
        };
        r.map_err(|e| match e {
            // An assignment refused (`r: readonly variable`) is the shell's own error.
            crate::interp::AssignError::Message(m) => ArithFail::report(m),
            e @ crate::interp::AssignError::Readonly(_) => ArithFail::report(e.to_string()),
            e => {
                // Other assignment errors carry their own "name: message" text.
                let m = e.to_string();
                let (expr, msg) = match m.split_once(": ") {
                    Some((a, b)) => (a.to_owned(), b.to_owned()),
                    None => (name.to_owned(), m),
                };
                ArithFail::new(&expr, msg, None)
            }
        })
    }

    fn nounset(&self) -> bool {
        self.set.nounset
    }
}

/// Variables whose value is computed on each read rather than stored.
fn is_dynamic(name: &str, var: &Var) -> bool {
    var.attrs.has(crate::expand::Attrs::SPECIAL) || name == "LINENO"
}

/// Splits a `name[sub]` reference given as text into its name and subscript text.
/// As in bash's `valid_array_reference`, the `]` that matches the `[` (quotes and
/// backslashes skipped) must end the text.
pub(crate) fn split_element_ref(r: &str) -> Option<(&str, &str)> {
    let open = r.find('[')?;
    let sub = r.strip_suffix(']')?.get(open + 1..)?;
    (subscript_len(&r[open + 1..]) == Some(sub.len())).then(|| (&r[..open], sub))
}

/// Where the subscript that `text` (what follows a `[`) begins ends: the index of its
/// matching `]`.
fn subscript_len(text: &str) -> Option<usize> {
    matched_len(text, '[', ']', 0)
}

/// How deep substitutions inside a subscript are followed (the scan recurses into
/// each); deeper text is not a subscript.
const MAX_SUBSCRIPT_NESTING: usize = 64;

/// Where the `close` that ends `text` (what follows an `open`) is, skipping nested
/// pairs, quoted text, escaped characters, and a command substitution (`$(...)` or
/// backquoted) or `${...}` whole (bash's skip_matched_pair: `a[$(echo ])]` names one element).
fn matched_len(text: &str, open: char, close: char, nesting: usize) -> Option<usize> {
    if nesting > MAX_SUBSCRIPT_NESTING {
        return None;
    }
    let mut depth = 0usize;
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '\'' => {
                chars.by_ref().find(|&(_, d)| d == '\'')?;
            }
            q @ ('"' | '`') => loop {
                match chars.next()?.1 {
                    d if d == q => break,
                    '\\' => {
                        chars.next();
                    }
                    _ => {}
                }
            },
            '$' if matches!(text.get(i + 1..i + 2), Some("(" | "{")) => {
                let (o, cl) = if text.get(i + 1..i + 2) == Some("(") {
                    ('(', ')')
                } else {
                    ('{', '}')
                };
                chars.next();
                let len = matched_len(text.get(i + 2..)?, o, cl, nesting + 1)?;
                while chars.next().is_some_and(|(j, _)| j < i + 2 + len) {}
            }
            c if c == open => depth += 1,
            c if c == close && depth == 0 => return Some(i),
            c if c == close => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Whether `r` is `name[subscript]` with a non-empty subscript that ends the text, as
/// the builtins that take a variable name (`read`, `printf -v`) accept it (bash's
/// valid_array_reference).
pub(crate) fn valid_array_reference(r: &str) -> bool {
    split_element_ref(r).is_some_and(|(base, sub)| crate::syntax::is_name(base) && !sub.is_empty())
}

impl Interp {
    /// Expands the subscript `sub` of an element named in text (one the arithmetic
    /// evaluator reads, `unset 'a[$k]'`, `printf -v 'a["k"]'`, `test -v`, nameref
    /// targets), as bash does by the array's kind: for an associative array, the key,
    /// read as a word (quotes removed, expansions done: `expand_subscript_string`); for
    /// an indexed one, the arithmetic text to evaluate, read as the text of `$(( ))`
    /// is (`array_expand_index`), so a `'` in it stays for the evaluator to reject.
    pub(crate) fn expand_subscript_for(
        &mut self,
        assoc: bool,
        sub: &str,
    ) -> Result<String, ExpandError> {
        if !sub.contains(['$', '`', '"', '\'', '\\', '~']) {
            return Ok(sub.to_owned());
        }
        let opts = self.parse_options();
        if assoc {
            let w = crate::syntax::parse_subscript_word(sub, opts)
                .map_err(|e| ExpandError::abort(e.to_string()))?;
            crate::expand::Expander::new(self).string(&w)
        } else {
            match crate::syntax::parse_arith_text(sub, opts) {
                Ok(w) => crate::expand::Expander::new(self).arith_text(&w),
                Err(_) => Ok(sub.to_owned()),
            }
        }
    }

    /// Evaluates an indexed array's subscript given as text. A failure is the
    /// subscript's: reported without the command's name, it abandons the command line
    /// (bash's `array_expand_index`).
    pub(crate) fn eval_index_text(&mut self, sub: &str) -> Result<i64, ArithFail> {
        let text = self
            .expand_subscript_for(false, sub)
            .map_err(|e| ArithFail::new(sub, e.message, None))?;
        crate::expand::arith::eval_str(&text, self).map_err(|mut f| {
            f.discard = true;
            f
        })
    }
}

impl Host for Interp {
    fn var(&mut self, name: &str) -> Option<Var> {
        // The common case first: a plain variable, looked up once.
        if let Some(raw) = self.vars.get_raw(name)
            && !raw.attrs.has(crate::expand::Attrs::NAMEREF)
            && !is_dynamic(name, raw)
        {
            return Some(raw.clone());
        }
        if let Some(v) = self.vars.get(name)
            && (name != "_" || self.vars.get_raw("_").is_some())
        {
            // Namerefs to array elements resolve to that element.
            if let Some(raw) = self.vars.get_raw(name)
                && raw.attrs.has(crate::expand::Attrs::NAMEREF)
                && raw.as_scalar().is_some_and(|t| super::vars::valid_ref(&t))
            {
                let target = self.vars.resolve_name(name);
                if let Some(open) = target.find('[')
                    && target.ends_with(']')
                {
                    let base = target[..open].to_owned();
                    let sub = target[open + 1..target.len() - 1].to_owned();
                    let val = self.arith_get(&base, Some(&sub)).ok().flatten();
                    return val.map(Var::scalar);
                }
                if target == name {
                    return None;
                }
                if let Some(d) = self.dynamic_var(&target) {
                    return Some(d);
                }
                return self.vars.get(&target).cloned();
            }
            if !is_dynamic(name, v) {
                return Some(v.clone());
            }
        }
        self.dynamic_var(name)
    }

    fn assign(&mut self, name: &str, value: String) -> ExpResult<()> {
        self.assign_scalar(name, value, false)
            .map_err(|e| ExpandError::abort(e.to_string()))
    }

    fn assign_index(&mut self, name: &str, key: &str, value: String) -> ExpResult<()> {
        self.assign_element(name, key, value, false)
            .map_err(|e| ExpandError::abort(e.to_string()))
    }

    fn plain_scalar(&mut self, name: &str) -> Option<Option<String>> {
        let raw = self.vars.get_raw(name)?;
        if raw.attrs.has(crate::expand::Attrs::NAMEREF) || is_dynamic(name, raw) {
            return None;
        }
        Some(raw.as_scalar())
    }

    fn ifs_hits(&mut self, text: &str) -> bool {
        if let Some(raw) = self.vars.get_raw("IFS")
            && !raw.attrs.has(crate::expand::Attrs::NAMEREF)
        {
            // IFS declared without a value splits as unset IFS does.
            return match &raw.value {
                Some(crate::expand::Value::Str(ifs)) => text.contains(|c| ifs.contains(c)),
                _ => match raw.ifs_text() {
                    Some(ifs) => text.contains(|c| ifs.contains(c)),
                    None => text.contains([' ', '\t', '\n']),
                },
            };
        }
        match self.var("IFS").and_then(|v| v.ifs_text()) {
            Some(ifs) => text.contains(|c| ifs.contains(c)),
            None => text.contains([' ', '\t', '\n']),
        }
    }

    fn nameref_target(&mut self, name: &str) -> Option<String> {
        let v = self.vars.get_raw(name)?;
        if !v.attrs.has(crate::expand::Attrs::NAMEREF) {
            return None;
        }
        v.as_scalar()
    }

    fn var_names(&mut self, prefix: &str) -> Vec<String> {
        self.vars
            .all()
            .into_iter()
            .filter(|(k, v)| k.starts_with(prefix) && (v.value.is_some()))
            .map(|(k, _)| k)
            .collect()
    }

    fn positional(&self) -> &[String] {
        &self.positional
    }

    fn arg0(&self) -> String {
        self.arg0.clone()
    }

    fn special(&mut self, c: char) -> String {
        match c {
            '?' => self.status.to_string(),
            '$' => self.pid.to_string(),
            '!' => self.last_bg.map(|p| p.to_string()).unwrap_or_default(),
            '-' => self.dash_flags(),
            _ => String::new(),
        }
    }

    fn command_subst(&mut self, body: &Script) -> ExpResult<String> {
        Interp::command_subst(self, body)
    }

    fn command_subst_backquoted(&mut self, body: &Script) -> ExpResult<String> {
        let shift = i64::from(self.line) - 1;
        Interp::command_subst_shifted(self, body, shift)
    }

    fn command_subst_text(&mut self, text: &str) -> ExpResult<String> {
        Interp::command_subst_source(self, text)
    }

    fn process_subst(&mut self, input: bool, body: &Script) -> ExpResult<String> {
        let (r, w) = pipe_in(&self.budget);
        let mut child = self
            .fork_detached()
            .map_err(|_| ExpandError::abort("process substitution failed"))?;
        let fd;
        if input {
            child.fds.set(1, Some(Arc::new(OpenFile::PipeW(w))));
            fd = self.fds.free_below(63);
            self.fds.set(fd, Some(Arc::new(OpenFile::PipeR(r))));
        } else {
            child.fds.set(0, Some(Arc::new(OpenFile::PipeR(r))));
            fd = self.fds.free_below(63);
            self.fds.set(fd, Some(Arc::new(OpenFile::PipeW(w))));
        }
        // Entries for descriptors closed since are dropped, so the list stays short.
        let fds = &self.fds;
        self.procsub_fds
            .retain(|&k| k != fd && fds.get(k).is_some());
        self.procsub_fds.push(fd);
        child.xtrace_level += 1;
        child.line_shift = self.subst_line_shift(body);
        let body = body.clone();
        let pid = child.bashpid;
        // `$!` is the substitution's process, as in bash, so `wait $!` gets its status.
        self.last_bg = Some(pid);
        let mailbox = child.proc.mailbox().clone();
        let lane = self.fs.lock().clock().fork_lane();
        let job_lane = lane.clone();
        let held = lane.hold();
        self.reserve_thread().map_err(super::exec::flow_to_expand)?;
        let budget = self.budget.clone();
        let handle = std::thread::Builder::new()
            .stack_size(super::pool::STACK)
            .spawn(move || {
                let _held = held;
                let _on = job_lane.enter();
                child.proc.mailbox().run_here();
                child.functions_end = true;
                let r = child.exec_body_ending(&body, super::exec::EndRule::PROCSUB);
                let s = child.finish_subshell(r).unwrap_or(126);
                drop(child);
                budget
                    .threads
                    .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
                s
            })
            .map_err(|e| {
                self.budget
                    .threads
                    .fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
                ExpandError::abort(super::pool::refused(
                    "a process substitution",
                    self.budget.limits.max_threads,
                    &e,
                ))
            })?;
        let mut jt = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jt.jobs.push(super::Job::started(
            pid,
            String::new(),
            handle,
            lane,
            mailbox,
            Default::default(),
            String::new(),
        ));
        Ok(format!("/dev/fd/{fd}"))
    }

    fn posix_mode(&self) -> bool {
        self.set.posix
    }

    fn opts(&self) -> ExpandOpts {
        use super::Shopts;
        const NULLGLOB: u64 = Shopts::bit("nullglob");
        const FAILGLOB: u64 = Shopts::bit("failglob");
        const DOTGLOB: u64 = Shopts::bit("dotglob");
        const EXTGLOB: u64 = Shopts::bit("extglob");
        const NOCASEGLOB: u64 = Shopts::bit("nocaseglob");
        const NOCASEMATCH: u64 = Shopts::bit("nocasematch");
        const GLOBSTAR: u64 = Shopts::bit("globstar");
        const GLOBSKIPDOTS: u64 = Shopts::bit("globskipdots");
        const PATSUB: u64 = Shopts::bit("patsub_replacement");
        ExpandOpts {
            nounset: self.set.nounset,
            noglob: self.set.noglob,
            nobrace: !self.set.braceexpand,
            nullglob: self.shopt.has(NULLGLOB),
            failglob: self.shopt.has(FAILGLOB),
            dotglob: self.shopt.has(DOTGLOB),
            extglob: self.shopt.has(EXTGLOB),
            nocaseglob: self.shopt.has(NOCASEGLOB),
            nocasematch: self.shopt.has(NOCASEMATCH),
            globstar: self.shopt.has(GLOBSTAR),
            globskipdots: self.shopt.has(GLOBSKIPDOTS),
            patsub_replacement: self.shopt.has(PATSUB),
            bytes: self.byte_locale(),
        }
    }

    fn read_dir(&mut self, path: &str) -> Option<Vec<(String, bool)>> {
        let fs = self.fs.lock();
        let entries = fs.read_dir(path).ok()?;
        Some(
            entries
                .into_iter()
                .map(|e| {
                    let is_dir = match e.file_type {
                        crate::fs::FileType::Dir => true,
                        crate::fs::FileType::Symlink => fs
                            .stat(&format!("{}/{}", path.trim_end_matches('/'), e.name))
                            .map(|m| m.file_type == crate::fs::FileType::Dir)
                            .unwrap_or(false),
                        _ => false,
                    };
                    (e.name, is_dir)
                })
                .collect(),
        )
    }

    fn exists(&mut self, path: &str) -> bool {
        self.fs.lock().lstat(path).is_ok()
    }

    fn home_dir(&mut self, user: &str) -> Option<String> {
        match user {
            "" => Some("/home/user".to_owned()),
            "root" => Some("/root".to_owned()),
            "user" => Some("/home/user".to_owned()),
            _ => None,
        }
    }

    fn cwd(&self) -> String {
        self.cwd.clone()
    }

    fn max_brace_words(&self) -> usize {
        self.budget.limits.max_brace_words
    }

    fn max_memory_bytes(&self) -> u64 {
        self.budget.limits.max_memory_bytes
    }

    fn check_memory(&mut self, bytes: u64) -> Result<(), String> {
        Interp::check_memory(self, bytes)
    }

    fn max_glob_reads(&self) -> usize {
        self.budget.limits.max_glob_reads
    }

    fn prompt(&mut self, s: &str) -> String {
        super::builtins::prompt::expand_prompt(self, s)
    }

    fn warn(&mut self, msg: &str) {
        self.error(msg);
    }

    fn report_error(&mut self, msg: &str) -> ExpResult<()> {
        if self.errexit_reports() {
            return Err(ExpandError {
                message: msg.to_owned(),
                kind: ErrorKind::Report,
            });
        }
        self.error(msg);
        Ok(())
    }
}

impl Interp {
    /// `$-`: the single-letter options that are on.
    pub fn dash_flags(&self) -> String {
        let mut s = String::new();
        // bash's order: lower-case letters, then upper-case; `i` and `r` are not
        // `set` flags but show among them.
        let order = [
            'a', 'b', 'e', 'f', 'h', 'i', 'k', 'm', 'n', 'p', 'r', 't', 'u', 'v', 'x', 'B', 'C',
            'E', 'H', 'P', 'T',
        ];
        let mut opts = self.set;
        for l in order {
            let on = match l {
                'i' => self.interactive,
                'r' => self.restricted,
                _ => opts.by_letter(l).is_some_and(|b| *b),
            };
            if on {
                s.push(l);
            }
        }
        if self.reads_stdin {
            s.push('s');
        } else if self.command_string_mode {
            s.push('c');
        }
        s
    }
}
