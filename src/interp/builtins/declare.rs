//! `declare`/`typeset`, `local`, `export`, `readonly` and `unset` (bash manual, "Bash
//! Builtins"): attributes, array declarations and bash's listing formats.

use super::super::{AssignError, Flow, Interp, R};
use crate::expand::param::{declare_line, dquote};
use crate::expand::{Attrs, Value, Var};
use crate::syntax::{ArrayElem, Assign, AssignValue, Word, WordPart};

/// Prefix that marks an assignment argument whose AST travels beside the words.
pub const ASSIGN_MARK: &str = "\u{0}assign:";

#[derive(Clone, Default)]
struct Flags {
    set: u16,
    unset: u16,
    print: bool,
    funcs: bool,
    func_names: bool,
    global: bool,
}

impl Flags {
    /// No option given.
    fn is_plain(&self) -> bool {
        self.set == 0
            && self.unset == 0
            && !self.print
            && !self.funcs
            && !self.func_names
            && !self.global
    }
}

fn flag_bit(c: char) -> Option<u16> {
    Some(match c {
        'a' => Attrs::ARRAY,
        'A' => Attrs::ASSOC,
        'i' => Attrs::INTEGER,
        'l' => Attrs::LOWER,
        'u' => Attrs::UPPER,
        'n' => Attrs::NAMEREF,
        'r' => Attrs::READONLY,
        'x' => Attrs::EXPORT,
        't' => Attrs::TRACE,
        _ => return None,
    })
}

/// Prints one variable in `declare -p` form.
pub fn print_var(name: &str, v: &Var) -> String {
    let mut line = declare_line(name, v);
    if let Some(Value::Assoc(a)) = &v.value
        && !a.is_empty()
    {
        return line;
    }
    if line.ends_with(" )") {
        line = line.replace(" )", ")");
    }
    line
}

fn parse_flags(sh: &mut Interp, name: &str, args: &[String]) -> Result<(Flags, usize), R> {
    let mut f = Flags::default();
    let mut i = 1;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            i += 1;
            break;
        }
        let (on, rest) = if let Some(r) = a.strip_prefix('-') {
            (true, r)
        } else if let Some(r) = a.strip_prefix('+') {
            (false, r)
        } else {
            break;
        };
        if rest.is_empty() {
            break;
        }
        for c in rest.chars() {
            match c {
                'p' => f.print = true,
                // `+f` names variables: `declare +ft f` leaves function f traced.
                'f' => f.funcs |= on,
                'F' => f.func_names = true,
                'g' => f.global = true,
                'I' => {}
                _ => match flag_bit(c) {
                    Some(b) => {
                        if on {
                            f.set |= b;
                        } else {
                            f.unset |= b;
                        }
                    }
                    None => {
                        sh.builtin_error(name, &format!("-{c}: invalid option"));
                        sh.errln(&format!(
                            "{name}: usage: {name} [-aAfFgiIlnrtux] [name[=value] ...] or {name} -p [-aAfFilnrtux] [name ...]"
                        ));
                        return Err(Ok(2));
                    }
                },
            }
        }
        i += 1;
    }
    Ok((f, i))
}

pub fn declare(sh: &mut Interp, args: &[String]) -> R {
    declare_impl(sh, args, &args[0].clone(), false)
}

pub fn local(sh: &mut Interp, args: &[String]) -> R {
    if sh.call_depth == 0 || !sh.in_function() {
        sh.builtin_error("local", "can only be used in a function");
        outside_function_arrays(sh, args);
        return Ok(1);
    }
    declare_impl(sh, args, "local", true)
}

/// Bash makes a `local` argument's compound array assignment (`local -a x=(1 2)`) as
/// its words are expanded, so outside a function, where `local` itself fails, the array
/// is still assigned in the current scope with the attributes that shape its values
/// (`-aAilu`; not `-r`, `-x`, `-n` or `-t`).
fn outside_function_arrays(sh: &mut Interp, args: &[String]) {
    let mut kept = vec!["local".to_owned()];
    let mut flags = String::new();
    let mut operands = Vec::new();
    let mut in_flags = true;
    for a in args.iter().skip(1) {
        if in_flags && a == "--" {
            in_flags = false;
        } else if in_flags && a.len() > 1 && a.starts_with('-') && !a.starts_with(ASSIGN_MARK) {
            flags.extend(a.chars().skip(1).filter(|c| "aAilu".contains(*c)));
        } else {
            in_flags = false;
            if sh
                .stashed_decl_assign(a)
                .is_some_and(|(x, _)| x.index.is_none() && matches!(x.value, AssignValue::Array(_)))
            {
                operands.push(a.clone());
            }
        }
    }
    if operands.is_empty() {
        return;
    }
    if !flags.is_empty() {
        kept.push(format!("-{flags}"));
    }
    kept.push("--".to_owned());
    kept.extend(operands);
    let _ = declare_impl(sh, &kept, "local", false);
}

fn declare_impl(sh: &mut Interp, args: &[String], name: &str, force_local: bool) -> R {
    let (f, start) = match parse_flags(sh, name, args) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let operands = &args[start..];
    if f.funcs || f.func_names {
        return print_functions(sh, name, operands, &f);
    }
    if operands.is_empty() && force_local {
        // `local` lists the function's locals, whatever attributes it was given, with
        // `local -` first when the function saved the options.
        let mut out = String::new();
        if sh
            .frames
            .iter()
            .rev()
            .find(|f| f.function)
            .is_some_and(|f| f.saved_opts.is_some())
        {
            out.push_str("local -\n");
        }
        for (k, v) in sh.vars.locals() {
            out.push_str(&print_var(&k, &v));
            out.push('\n');
        }
        sh.out(out.as_bytes())?;
        return Ok(0);
    }
    if operands.is_empty() {
        // List variables with the requested attributes.
        let mut out = String::new();
        if f.print && f.set == 0 {
            // The options `local -` saved show as the variable `-`: a local of the
            // running function or one of a caller.
            let mut calls = sh.frames.iter().rev().filter(|f| f.function);
            if let Some(i) = calls.position(|f| f.saved_opts.is_some()) {
                out.push_str(if i == 0 {
                    "local -\n"
                } else {
                    "declare -- -\n"
                });
            }
        }
        for (k, v) in listed_vars(sh) {
            if f.set != 0
                && v.attrs.0 & f.set == 0
                && !(f.set & Attrs::ARRAY != 0 && v.is_array())
                && !(f.set & Attrs::ASSOC != 0 && v.is_assoc())
            {
                continue;
            }
            if k.starts_with("__SHELLBOX") {
                continue;
            }
            if f.print || f.set != 0 {
                out.push_str(&print_var(&k, &v));
            } else {
                match &v.value {
                    Some(Value::Str(s)) => out.push_str(&format!(
                        "{k}={}",
                        super::misc::shell_quote(s, sh.set.posix)
                    )),
                    Some(_) => {
                        let l = print_var(&k, &v);
                        out.push_str(
                            l.split_once(' ')
                                .map(|x| x.1)
                                .and_then(|r| r.split_once(' ').map(|x| x.1))
                                .unwrap_or(&l),
                        );
                    }
                    None => continue,
                }
            }
            out.push('\n');
        }
        sh.out(&crate::text::encode(&out))?;
        return Ok(0);
    }
    if f.print {
        let mut status = 0;
        for n in operands {
            // A special variable is read first, as bash's lookup computes it.
            let special = sh.read_special(n).or_else(|| sh.stack_var(n)).or_else(|| {
                // Computed when read, with the attributes any assignment gave them.
                matches!(n.as_str(), "LINENO" | "BASH_COMMAND" | "_")
                    .then(|| sh.dynamic_var(n))
                    .flatten()
                    .map(|mut v| {
                        v.attrs = sh.vars.get_raw(n).map(|r| r.attrs).unwrap_or_default();
                        v
                    })
            });
            match special.as_ref().or(sh.vars.get_raw(n)) {
                // Each as it is found: bash flushes after every variable, so its
                // lines and the errors for missing names interleave.
                Some(v) => {
                    let line = print_var(n, v) + "\n";
                    sh.out(line.as_bytes())?;
                }
                None => {
                    sh.builtin_error(name, &format!("{n}: not found"));
                    status = 1;
                }
            }
        }
        return Ok(status);
    }
    let local = (force_local || sh.call_depth > 0 && sh.in_function()) && !f.global;
    let mut status = 0;
    for op in operands {
        // `-g` declares and assigns the global variable, leaving the locals and
        // temporary bindings that shadow it as they were.
        let hidden = f.global.then(|| sh.vars.hide_locals());
        let r = declare_one(sh, name, op, &f, local);
        if let Some(h) = hidden {
            sh.vars.restore(h);
        }
        // `v=1 declare -x v` (or `-r`) does what `v=1 export v` does: the temporary
        // binding outlives the command, as `declare` left it.
        if r.is_ok() && !f.global && f.set & (Attrs::EXPORT | Attrs::READONLY) != 0 {
            let var = match sh.stashed_decl_assign(op) {
                Some((a, _)) => Some(a.name.clone()),
                None => op.split(['=', '+', '[']).next().map(str::to_owned),
            };
            if let Some(var) = var {
                sh.vars.propagate_declared(&var);
            }
        }
        if let Err(s) = r {
            match code_flow(s) {
                Some(flow) => return Err(flow),
                None => status = s,
            }
        }
    }
    Ok(status)
}

/// What [`declare_one`] fails with when the whole command line is to be abandoned.
const ABANDON_LINE: i32 = -1;

/// What [`declare_one`] fails with when the shell is to exit with status 1; below
/// it, `EXIT_SHELL - n` exits with status `1 + n`.
const EXIT_SHELL: i32 = -2;

/// The flow a failure code of [`declare_one`] stands for, if it is not a status.
fn code_flow(code: i32) -> Option<Flow> {
    match code {
        ABANDON_LINE => Some(Flow::Abort),
        c if c <= EXIT_SHELL => Some(Flow::Exit(1 + (EXIT_SHELL - c))),
        _ => None,
    }
}

/// Every variable as bash's listings (`set`, `declare`, `declare -p`) show them: the
/// stored ones, with the call-stack arrays and `$_`, which are computed when read.
/// `BASH_ARGC`/`BASH_ARGV` show what their stacks hold without starting them.
pub(crate) fn listed_vars(sh: &mut Interp) -> Vec<(String, Var)> {
    let mut all = sh.vars.all();
    let mut extra: Vec<(String, Var)> = Vec::new();
    for name in ["BASH_LINENO", "BASH_SOURCE", "FUNCNAME"] {
        if sh.vars.get_raw(name).is_none()
            && let Some(v) = sh.stack_var(name)
        {
            extra.push((name.to_owned(), v));
        }
    }
    let st = &sh.arg_stack;
    let counts: Vec<String> = st.counts.iter().rev().map(usize::to_string).collect();
    let args: Vec<String> = st.args.iter().rev().cloned().collect();
    for (name, items) in [("BASH_ARGC", counts), ("BASH_ARGV", args)] {
        if sh.vars.get_raw(name).is_none() {
            let a = items
                .into_iter()
                .enumerate()
                .map(|(i, s)| (i as i64, s))
                .collect();
            let mut v = Var {
                value: Some(Value::Indexed(a)),
                ..Var::default()
            };
            v.attrs.set(Attrs::ARRAY, true);
            extra.push((name.to_owned(), v));
        }
    }
    if sh.vars.get_raw("_").is_none() {
        extra.push(("_".to_owned(), Var::scalar(sh.last_arg.clone())));
    }
    if !extra.is_empty() {
        all.extend(extra);
        all.sort_by(|a, b| a.0.cmp(&b.0));
    }
    all
}

/// What the declaration before a refused list assignment to readonly `name` does:
/// with `-a` or `-A` a scalar becomes an array of its value (an array of the other
/// kind cannot, which is the error then), and `-i`, `-l` and `-u` are added.
/// Returns the error that replaces "readonly variable", if any.
fn readonly_list_declaration(sh: &mut Interp, name: &str, local: bool, set: u16) -> Option<String> {
    let var = sh.vars.entry(name, local);
    if set & Attrs::ASSOC != 0 && var.is_array() {
        return Some(format!(
            "{name}: cannot convert indexed to associative array"
        ));
    }
    if set & Attrs::ARRAY != 0 && var.is_assoc() {
        return Some(format!(
            "{name}: cannot convert associative to indexed array"
        ));
    }
    if set & (Attrs::ARRAY | Attrs::ASSOC) != 0 && !var.is_array() && !var.is_assoc() {
        let assoc = set & Attrs::ASSOC != 0;
        if let Some(Value::Str(s)) = &var.value {
            var.value = Some(if assoc {
                let mut a = crate::expand::Assoc::default();
                a.insert("0".to_owned(), s.clone());
                Value::Assoc(a)
            } else {
                let mut a = imbl::OrdMap::new();
                a.insert(0, s.clone());
                Value::Indexed(a)
            });
        }
        var.attrs
            .set(if assoc { Attrs::ASSOC } else { Attrs::ARRAY }, true);
    }
    let shaping = set & (Attrs::INTEGER | Attrs::LOWER | Attrs::UPPER | Attrs::CAPITALIZE);
    if shaping & Attrs::UPPER != 0 {
        var.attrs.set(Attrs::LOWER, false);
    }
    if shaping & Attrs::LOWER != 0 {
        var.attrs.set(Attrs::UPPER, false);
    }
    var.attrs.0 |= shaping;
    None
}

/// Declares one operand: `name`, `name=value`, or a marked assignment.
fn declare_one(
    sh: &mut Interp,
    builtin: &str,
    op: &str,
    f: &Flags,
    local: bool,
) -> Result<(), i32> {
    // `-a` with `-A`: bash makes the associative array (values and all) and then
    // refuses to turn it into an indexed one.
    if f.set & Attrs::ARRAY != 0 && f.set & Attrs::ASSOC != 0 {
        let mut assoc_only = f.clone();
        assoc_only.set &= !Attrs::ARRAY;
        declare_one(sh, builtin, op, &assoc_only, local)?;
        let vname = match sh.stashed_decl_assign(op) {
            Some((a, _)) => a.name.clone(),
            None => op.split(['=', '[', '+']).next().unwrap_or(op).to_owned(),
        };
        sh.builtin_error(
            builtin,
            &format!("{vname}: cannot convert associative to indexed array"),
        );
        return Err(1);
    }
    // `local -`: the function's `set` options are put back as they are now when it
    // returns (a later `local -` in the same call saves them again).
    if op == "-" && local && builtin == "local" {
        let now = sh.set;
        if let Some(frame) = sh.frames.iter_mut().rev().find(|f| f.function) {
            frame.saved_opts = Some(now);
        }
        return Ok(());
    }
    if local
        && f.is_plain()
        && let Some((lhs, v)) = op.split_once('=')
        && let Some(done) = new_plain_local(sh, builtin, lhs, v)
    {
        return done;
    }
    let (assign, early_value): (Option<Assign>, Option<String>) =
        match sh.stashed_decl_assign(op).cloned() {
            Some((a, v)) => (Some(a), v),
            None => (None, None),
        };
    let (vname, index_text, rest): (String, Option<String>, Option<(bool, String)>) = match &assign
    {
        Some(a) => (a.name.clone(), None, None),
        None => match op.split_once('=') {
            Some((lhs, v)) => {
                let (lhs, append) = match lhs.strip_suffix('+') {
                    Some(l) => (l, true),
                    None => (lhs, false),
                };
                let (n, idx) = match lhs.find('[') {
                    Some(p) if lhs.ends_with(']') => (
                        lhs[..p].to_owned(),
                        Some(lhs[p + 1..lhs.len() - 1].to_owned()),
                    ),
                    _ => (lhs.to_owned(), None),
                };
                (n, idx, Some((append, v.to_owned())))
            }
            // `declare a[1]` (no value) makes `a` an array.
            None => match crate::interp::host::split_element_ref(op) {
                Some((n, sub)) if crate::syntax::is_name(n) => {
                    (n.to_owned(), Some(sub.to_owned()), None)
                }
                _ => (op.to_owned(), None, None),
            },
        },
    };
    if !crate::syntax::is_name(&vname) {
        sh.builtin_error(builtin, &format!("`{op}': not a valid identifier"));
        return Err(1);
    }
    let mut index_text = index_text;
    let mut assign = assign;
    let mut rest = rest;
    let subscripted = index_text.is_some() || assign.as_ref().is_some_and(|a| a.index.is_some());
    let has_value = assign.is_some() || rest.is_some();
    // The text a scalar assignment gives, as the nameref checks see it.
    let scalar_value: Option<String> = match (&assign, &rest) {
        (Some(a), _) => matches!(a.value, AssignValue::Scalar(_))
            .then(|| early_value.clone().unwrap_or_default()),
        (None, Some((_, v))) => Some(v.clone()),
        _ => None,
    };
    if f.set & Attrs::NAMEREF != 0 {
        if subscripted {
            let lhs = op.split('=').next().unwrap_or(op).trim_end_matches('+');
            let lhs = match &assign {
                Some(a) => a
                    .text
                    .split('=')
                    .next()
                    .unwrap_or(&a.text)
                    .trim_end_matches('+'),
                None => lhs,
            };
            sh.builtin_error(
                builtin,
                &format!("{lhs}: reference variable cannot be an array"),
            );
            return Err(1);
        }
        // `declare -n r=r` (or `r=r[1]`): refused at the top level, a warning in a
        // function (where the name can still reach an outer `r`).
        if let Some(v) = &scalar_value
            && self_reference(&vname, v)
        {
            if !sh.in_function() {
                sh.builtin_error(
                    builtin,
                    &format!("{vname}: nameref variable self references not allowed"),
                );
                return Err(1);
            }
            sh.builtin_error(
                builtin,
                &format!("warning: {vname}: circular name reference"),
            );
        }
    }
    let raw_nameref = |sh: &Interp, n: &str| {
        sh.vars
            .get_raw(n)
            .is_some_and(|v| v.attrs.has(Attrs::NAMEREF))
    };
    // Attributes and values given to a nameref (but not `-n`/`+n` themselves) go to
    // the variable it names; `+n` with a value assigns the value there too, and then
    // takes the attribute off the nameref (`refvar`).
    let mut vname = vname;
    let mut refvar: Option<String> = None;
    if f.set & Attrs::NAMEREF == 0
        && raw_nameref(sh, &vname)
        && (!local || sh.vars.is_local_here(&vname))
    {
        if f.unset & Attrs::NAMEREF != 0 {
            let raw = sh.vars.get_raw(&vname);
            if raw.is_some_and(|v| v.attrs.has(Attrs::READONLY) && v.value.is_some()) {
                sh.builtin_error(builtin, &format!("{vname}: readonly variable"));
                return Err(1);
            }
            if f.set == 0 && f.unset == Attrs::NAMEREF && !has_value {
                let local_ref = sh.vars.is_local_here(&vname);
                sh.vars
                    .entry(&vname, local_ref)
                    .attrs
                    .set(Attrs::NAMEREF, false);
                return Ok(());
            }
            if let Ok(t) = sh.vars.resolve_name_checked(&vname)
                && crate::syntax::is_name(&t)
            {
                refvar = Some(std::mem::replace(&mut vname, t));
            }
        } else if subscripted && has_value {
            // `declare r[1]=v` makes the nameref itself the array.
            sh.error(&format!("warning: {vname}: removing nameref attribute"));
            let local_ref = sh.vars.is_local_here(&vname);
            let var = sh.vars.entry(&vname, local_ref);
            var.value = None;
            var.attrs.set(Attrs::NAMEREF, false);
        } else if let Ok(t) = sh.vars.resolve_name_checked(&vname) {
            if crate::syntax::is_name(&t) {
                vname = t;
            } else if let Some((base, sub)) = crate::interp::host::split_element_ref(&t)
                && crate::syntax::is_name(base)
                && !subscripted
            {
                // A nameref to `a[1]`: the operand is that element.
                let (base, sub) = (base.to_owned(), sub.to_owned());
                if let Some(a) = assign.take() {
                    match &a.value {
                        AssignValue::Scalar(_) => {
                            rest = Some((a.append, early_value.clone().unwrap_or_default()));
                        }
                        AssignValue::Array(_) => assign = Some(a),
                    }
                }
                if assign.is_none() {
                    vname = base;
                    index_text = Some(sub);
                }
            }
        }
    }
    // A nameref must name a variable: `declare -n r=1` and `x=1; declare -n x` fail.
    if f.set & Attrs::NAMEREF != 0 {
        let target = match (&rest, &assign) {
            (Some((_, v)), _) => Some(v.clone()),
            (None, None) => sh.vars.get_raw(&vname).and_then(|v| v.as_scalar()),
            _ => None,
        };
        if let Some(t) = target
            && !super::super::vars::valid_ref(&t)
        {
            sh.builtin_error(
                builtin,
                &format!("`{t}': invalid variable name for name reference"),
            );
            return Err(1);
        }
    }
    // Creating the variable in the right scope.
    let exists_here = if local {
        sh.vars.is_local_here(&vname)
    } else {
        sh.vars.get_raw(&vname).is_some()
    };
    // Only the attributes: cloning the variable (maybe a large array) made `local`
    // cost as much as what it shadows.
    let current = sh.vars.get_raw(&vname).map(|v| v.attrs);
    if f.set & Attrs::NAMEREF != 0
        && (exists_here || !local)
        && let Some(cur) = sh.vars.get_raw(&vname)
    {
        let msg = if cur.is_array() || cur.is_assoc() {
            "reference variable cannot be an array"
        } else if cur.attrs.has(Attrs::READONLY) {
            "readonly variable"
        } else {
            ""
        };
        if !msg.is_empty() {
            sh.builtin_error(builtin, &format!("{vname}: {msg}"));
            return Err(1);
        }
    }
    if let Some(cur) = current
        && cur.has(Attrs::READONLY)
        && (rest.is_some()
            || assign.is_some()
            || f.unset & Attrs::READONLY != 0
            // A new local may not shadow a readonly global (an outer function's
            // readonly local it may).
            || (local && !exists_here && sh.vars.is_global(&vname)))
    {
        let msg = format!("{vname}: readonly variable");
        // A list is assigned as a statement of its own before the declaration (see
        // the kind check below): refused there, it abandons the command line, unless
        // the readonly variable is an outer one a new local would shadow, where the
        // statement fails under the function's name and the declaration after it.
        if assign
            .as_ref()
            .is_some_and(|a| matches!(a.value, AssignValue::Array(_)))
        {
            if !local || exists_here {
                // The declaration before that statement gives the variable its kind
                // and the attributes that shape values (`-a`, `-A`, `-i`, `-l`, `-u`,
                // `-c`); only the list's assignment is refused.
                let msg = readonly_list_declaration(sh, &vname, local, f.set).unwrap_or(msg);
                sh.error(&msg);
                return Err(ABANDON_LINE);
            }
            if let Some(fr) = sh.frames.iter().rev().find(|fr| fr.function) {
                let func = fr.func.clone();
                sh.builtin_error(&func, &msg);
            }
            sh.builtin_error(builtin, &msg);
            return Err(1);
        }
        // `readonly` and `export` assign through bash's bind_variable, whose
        // message names no builtin; `declare`, `typeset` and `local` check first.
        if matches!(builtin, "readonly" | "export") {
            sh.error(&msg);
            // `export` still gives the variable its attribute.
            if builtin == "export" && f.set & Attrs::EXPORT != 0 {
                sh.vars.entry(&vname, false).attrs.set(Attrs::EXPORT, true);
            }
            // POSIX: an assignment error in a special builtin ends a non-interactive
            // shell, tested or not (`command` makes it an ordinary error).
            if sh.set.posix && !sh.interactive && !sh.under_command {
                return Err(EXIT_SHELL);
            }
        } else {
            sh.builtin_error(builtin, &msg);
        }
        return Err(1);
    }
    let created = if local {
        !exists_here
    } else {
        current.is_none()
    };
    if local && !exists_here {
        let mut v = Var::default();
        // A local shadowing a temporary binding starts with its value.
        let from_binding =
            current.is_some() && f.set & Attrs::NAMEREF == 0 && sh.vars.is_temp_binding(&vname);
        if from_binding {
            v.value = sh.vars.get_raw(&vname).and_then(|c| c.value.clone());
        }
        v.attrs = local_attrs(current);
        // `shopt -s localvar_inherit`: the local starts with the value and attributes
        // of the variable it shadows, all but a nameref's.
        if !from_binding
            && localvar_inherit(sh)
            && let Some(c) = sh.vars.get_raw(&vname)
        {
            v.value = c.value.clone();
            v.attrs = c.attrs;
            v.attrs.set(Attrs::NAMEREF, false);
        }
        *sh.vars.entry(&vname, true) = v;
        if from_binding {
            // The local is what the rest of the declaration assigns and what stays.
            sh.vars.drop_command_binding(&vname);
        }
    } else if (!local && current.is_none()) || (f.global && sh.vars.get_raw(&vname).is_none()) {
        *sh.vars.entry(&vname, false) = Var::default();
    }
    // An array's kind cannot change, nor can it stop being an array.
    if let Some(cur) = sh.vars.get_raw(&vname) {
        if (f.unset & Attrs::ARRAY != 0 && cur.is_array())
            || (f.unset & Attrs::ASSOC != 0 && cur.is_assoc())
        {
            sh.builtin_error(
                builtin,
                &format!("{vname}: cannot destroy array variables in this way"),
            );
            return Err(1);
        }
        let msg = if f.set & Attrs::ASSOC != 0 && cur.is_array() {
            Some(format!(
                "{vname}: cannot convert indexed to associative array"
            ))
        } else if f.set & Attrs::ARRAY != 0 && cur.is_assoc() {
            Some(format!(
                "{vname}: cannot convert associative to indexed array"
            ))
        } else {
            None
        };
        if let Some(msg) = msg {
            // With a list to assign, bash first declares the name alone, while the
            // words are expanded (where the command's name is not yet set): that
            // declaration fails first. Outside a function its failure abandons the
            // command line.
            if assign
                .as_ref()
                .is_some_and(|a| matches!(a.value, AssignValue::Array(_)))
            {
                if !sh.in_function() {
                    sh.error(&msg);
                    return Err(ABANDON_LINE);
                }
                match sh.frames.iter().rev().find(|fr| fr.function) {
                    Some(fr) if f.global => {
                        let func = fr.func.clone();
                        sh.builtin_error(&func, &msg);
                    }
                    _ => sh.error(&msg),
                }
            }
            sh.builtin_error(builtin, &msg);
            return Err(1);
        }
    }
    // Apply attributes.
    // `declare a[1]` makes `a` an array, and so does `declare a[i]=v` before its
    // subscript is evaluated.
    let element_value = (index_text.is_some() && rest.is_some())
        || assign
            .as_ref()
            .is_some_and(|a| a.index.is_some() && matches!(a.value, AssignValue::Scalar(_)));
    let making_array =
        (index_text.is_some() && rest.is_none() && assign.is_none()) || element_value;
    let was_ref = raw_nameref(sh, &vname);
    {
        let var = sh.vars.entry(&vname, local);
        if f.set & Attrs::ARRAY != 0 && !var.is_array() {
            if let Some(Value::Str(s)) = &var.value {
                let mut a = imbl::OrdMap::new();
                a.insert(0, s.clone());
                var.value = Some(Value::Indexed(a));
            }
            var.attrs.set(Attrs::ARRAY, true);
        }
        // (With `-A`, the subscript is a key of the associative array made below.)
        if making_array && !var.is_array() && !var.is_assoc() && f.set & Attrs::ASSOC == 0 {
            if let Some(Value::Str(s)) = &var.value {
                let mut a = imbl::OrdMap::new();
                a.insert(0, s.clone());
                var.value = Some(Value::Indexed(a));
            }
            var.attrs.set(Attrs::ARRAY, true);
            // The array is there (empty) even if the subscript turns out bad.
            if element_value && var.value.is_none() {
                var.value = Some(Value::Indexed(imbl::OrdMap::new()));
            }
        }
        if f.set & Attrs::ASSOC != 0 && !var.is_assoc() {
            match &var.value {
                Some(Value::Str(s)) => {
                    let mut a = crate::expand::Assoc::default();
                    a.insert("0".to_owned(), s.clone());
                    var.value = Some(Value::Assoc(a));
                }
                Some(Value::Indexed(_)) => {
                    let _ = builtin;
                }
                _ => {}
            }
            var.attrs.set(Attrs::ASSOC, true);
        }
        // A nameref's value is a name: `-n` takes `-i`, `-l`, `-u` and `-c` off what
        // it had (those given with it still apply, to the name assigned).
        if f.set & Attrs::NAMEREF != 0 {
            var.attrs.0 &= !(Attrs::INTEGER | Attrs::LOWER | Attrs::UPPER | Attrs::CAPITALIZE);
        }
        let plain = f.set & !(Attrs::ARRAY | Attrs::ASSOC | Attrs::READONLY);
        var.attrs.0 |= plain;
        if plain & Attrs::UPPER != 0 {
            var.attrs.set(Attrs::LOWER, false);
        }
        if plain & Attrs::LOWER != 0 {
            var.attrs.set(Attrs::UPPER, false);
        }
        var.attrs.0 &= !(f.unset & !(Attrs::ARRAY | Attrs::ASSOC));
    }
    // Under `set -a` a global scalar the declaration creates without a value is
    // exported at once, as is a nameref given its name; other values are exported
    // by their assignment.
    let valued = assign.is_some() || rest.is_some();
    if sh.set.allexport
        && f.unset & Attrs::EXPORT == 0
        && ((created && !local && !valued) || (valued && f.set & Attrs::NAMEREF != 0))
    {
        let var = sh.vars.entry(&vname, local);
        if !var.is_array() && !var.is_assoc() {
            var.attrs.set(Attrs::EXPORT, true);
        }
    }
    // Assign.
    let result = if let Some(a) = &assign {
        match &a.value {
            AssignValue::Array(elems) => {
                if f.set & Attrs::NAMEREF != 0 {
                    Ok(())
                } else {
                    match sh.assign_array(&vname, elems, a.append) {
                        Ok(r) => r,
                        // The expansion error's flow, as a code `declare_impl` turns
                        // back into it.
                        Err(e) => {
                            return Err(match sh.expand_error(e) {
                                Ok(s) => s,
                                Err(Flow::Exit(s)) if s >= 1 => EXIT_SHELL - (s - 1),
                                Err(_) => ABANDON_LINE,
                            });
                        }
                    }
                }
            }
            AssignValue::Scalar(_) => {
                let v = early_value.unwrap_or_default();
                match &a.index {
                    Some(iw) => match sh.decl_subscript_key(&vname, iw) {
                        Ok(k) => sh.assign_element(&vname, &k, v, a.append),
                        // declare sees the word expanded: an empty key shows as `m[]`.
                        Err(e) if e.message.ends_with("]: bad array subscript") => {
                            sh.error(&format!("{vname}[]: bad array subscript"));
                            return Err(1);
                        }
                        Err(e) => {
                            let _ = sh.expand_error(e);
                            return Err(1);
                        }
                    },
                    None => assign_value(sh, &vname, v, a.append, f),
                }
            }
        }
    } else if let Some((append, v)) = rest {
        match index_text {
            Some(k) => sh.assign_element(&vname, &k, v, append),
            None => assign_value(sh, &vname, v, append, f),
        }
    } else {
        Ok(())
    };
    if let Err(e) = result {
        if e != AssignError::Silent {
            sh.assign_error(builtin, &e);
        } else if created {
            // A nameref that could not take its value is not left behind.
            let _ = sh.vars.unset(&vname);
        } else if !was_ref {
            // bash sets `-n` only once the name is assigned; the rest stays.
            let here = local || sh.vars.is_local_here(&vname);
            sh.vars.entry(&vname, here).attrs.set(Attrs::NAMEREF, false);
        }
        return Err(1);
    }
    if f.set & Attrs::READONLY != 0 {
        sh.vars
            .entry(&vname, local)
            .attrs
            .set(Attrs::READONLY, true);
    }
    // `declare +n r=v` assigned `v` to what `r` named; now `r` stops being a nameref.
    if let Some(r) = refvar {
        let local_ref = sh.vars.is_local_here(&r);
        let var = sh.vars.entry(&r, local_ref);
        var.attrs.0 &= !(f.unset & !Attrs::READONLY);
    }
    Ok(())
}

/// The attributes a new local starts with: none but the export of the variable it
/// shadows (bash's make_local_variable).
fn local_attrs(shadowed: Option<Attrs>) -> Attrs {
    let mut a = Attrs::default();
    a.set(
        Attrs::EXPORT,
        shadowed.is_some_and(|s| s.has(Attrs::EXPORT)),
    );
    a
}

fn localvar_inherit(sh: &Interp) -> bool {
    sh.shopt
        .has(const { crate::interp::Shopts::flag("localvar_inherit") })
}

/// `local name=value` with no options, for a name this function has not made local
/// and whose visible variable (if any) is neither a nameref nor readonly nor a
/// temporary binding: the usual first line of a function. What the general path does
/// in that case, without its copies and repeated lookups (measured: it was most of
/// the cost of a `local`). `None` when the case does not apply.
fn new_plain_local(sh: &mut Interp, builtin: &str, name: &str, v: &str) -> Option<Result<(), i32>> {
    if !crate::syntax::is_name(name) || sh.vars.is_local_here(name) || localvar_inherit(sh) {
        return None;
    }
    let shadowed = sh.vars.get_raw(name).map(|cur| cur.attrs);
    if shadowed.is_some_and(|a| a.has(Attrs::NAMEREF) || a.has(Attrs::READONLY))
        || (shadowed.is_some() && sh.vars.is_temp_binding(name))
    {
        return None;
    }
    *sh.vars.entry(name, true) = Var {
        attrs: local_attrs(shadowed),
        ..Var::default()
    };
    Some(match sh.assign_scalar(name, v.to_owned(), false) {
        Ok(()) => Ok(()),
        Err(e) => {
            if e == AssignError::Silent {
                let _ = sh.vars.unset(name);
            } else {
                sh.assign_error(builtin, &e);
            }
            Err(1)
        }
    })
}

/// Whether nameref `name` given `value` would name itself (`r=r`, `r=r[1]`).
fn self_reference(name: &str, value: &str) -> bool {
    let base = crate::interp::host::split_element_ref(value).map_or(value, |(b, _)| b);
    base == name
}

fn assign_value(
    sh: &mut Interp,
    name: &str,
    v: String,
    append: bool,
    f: &Flags,
) -> Result<(), AssignError> {
    if f.set & Attrs::NAMEREF != 0 {
        let (attrs, old) = sh
            .vars
            .get_raw(name)
            .map(|x| (x.attrs, x.as_scalar()))
            .unwrap_or_default();
        let v = match old {
            Some(o) if append => o + &v,
            _ => v,
        };
        // The name is assigned under the attributes given with `-n`: `-i` makes it
        // a number, which names nothing (bash fails without a word), `-l`/`-u` fold it.
        if attrs.has(Attrs::INTEGER) {
            sh.eval_int_value(&v).map_err(|e| e.render())?;
            return Err(AssignError::Silent);
        }
        let v = super::super::vars::apply_case(attrs, v);
        let var = sh.vars.entry(name, sh.vars.is_local_here(name));
        if !super::super::vars::valid_ref(&v) {
            var.attrs.set(Attrs::NAMEREF, false);
            return Err(format!("`{v}': invalid variable name for name reference").into());
        }
        var.value = Some(Value::Str(v));
        return Ok(());
    }
    let is_array = sh
        .vars
        .get(name)
        .is_some_and(|x| x.is_array() || x.is_assoc());
    if is_array && v.starts_with('(') && v.ends_with(')') {
        // `declare -a x='(1 2)'` re-parses the value as a compound assignment.
        if let Ok(script) = crate::syntax::parse(&format!("__x={v}"))
            && let Some(a) = first_assign(&script)
            && let AssignValue::Array(elems) = a.value
        {
            return match sh.assign_array(name, &elems, append) {
                Ok(r) => r,
                Err(e) => Err(e.message.into()),
            };
        }
    }
    if is_array {
        return sh.assign_element(name, "0", v, append);
    }
    sh.assign_scalar(name, v, append)
}

fn first_assign(s: &crate::syntax::Script) -> Option<Assign> {
    let c = s
        .commands
        .first()?
        .items
        .first()?
        .and_or
        .first
        .commands
        .first()?;
    match &c.kind {
        crate::syntax::CommandKind::Simple(sc) => sc.assigns.first().cloned(),
        _ => None,
    }
}

/// The attribute letters bash shows for function `name` (`ft`, `fx`, `ftx`).
fn function_attrs(sh: &Interp, name: &str) -> String {
    let mut a = String::from("f");
    if sh.readonly_funcs.contains(name) {
        a.push('r');
    }
    if sh.traced_funcs.contains(name) {
        a.push('t');
    }
    if sh.exported_funcs.contains(name) {
        a.push('x');
    }
    a
}

/// `declare -f`/`-F`: with attribute options and names, sets (`-t`, `-x`) or clears
/// (`+t`, `+x`) them; otherwise prints definitions or names. A definition printed with
/// its attributes is followed by the `declare -ft name` line that restores them.
fn print_functions(sh: &mut Interp, cmd: &str, names: &[String], f: &Flags) -> R {
    let names_only = f.func_names;
    let mut out = String::new();
    let mut status = 0;
    const FUNC_ATTRS: u16 = Attrs::TRACE | Attrs::EXPORT | Attrs::READONLY;
    if !names.is_empty() && !f.print && (f.set | f.unset) & FUNC_ATTRS != 0 {
        for n in names {
            if !sh.funcs.contains_key(n.as_str()) {
                status = 1;
                continue;
            }
            if f.unset & Attrs::READONLY != 0 && sh.readonly_funcs.contains(n) {
                sh.builtin_error(cmd, &format!("{n}: readonly function"));
                status = 1;
                continue;
            }
            if f.set & Attrs::READONLY != 0 {
                sh.readonly_funcs.insert(n.clone());
            }
            for (bit, set) in [
                (Attrs::TRACE, &mut sh.traced_funcs),
                (Attrs::EXPORT, &mut sh.exported_funcs),
            ] {
                if f.set & bit != 0 {
                    set.insert(n.clone());
                } else if f.unset & bit != 0 {
                    set.remove(n);
                }
            }
        }
        return Ok(status);
    }
    let listing = names.is_empty();
    let list: Vec<String> = if listing {
        let mut v: Vec<String> = sh.funcs.keys().cloned().collect();
        v.sort();
        v
    } else {
        names.to_vec()
    };
    for n in list {
        let Some(def) = sh.funcs.get(&n).cloned() else {
            // Asked to print (`-p`), a missing function is an error; plain `-f`/`-F`
            // answers only with the status.
            if f.print {
                sh.out(out.as_bytes())?;
                out.clear();
                sh.builtin_error(cmd, &format!("{n}: not found"));
            }
            status = 1;
            continue;
        };
        let attrs = function_attrs(sh, &n);
        // A listing asked for attributes shows the functions with any of them.
        let wanted = [
            (Attrs::READONLY, 'r'),
            (Attrs::TRACE, 't'),
            (Attrs::EXPORT, 'x'),
        ];
        if listing
            && f.set & FUNC_ATTRS != 0
            && !wanted
                .iter()
                .any(|&(bit, c)| f.set & bit != 0 && attrs.contains(c))
        {
            continue;
        }
        if names_only && (listing || f.print) {
            out.push_str(&format!("declare -{attrs} {n}\n"));
        } else if names_only && sh.extdebug() {
            // Where it was defined, for a debugger.
            let file = def.source.as_deref().unwrap_or("environment");
            out.push_str(&format!("{n} {} {file}\n", def.line));
        } else if names_only {
            // `declare -F name` prints just the name.
            out.push_str(&format!("{n}\n"));
        } else {
            out.push_str(&crate::syntax::printer::function_to_string(&def));
            out.push('\n');
            if (listing || f.print) && attrs != "f" {
                out.push_str(&format!("declare -{attrs} {n}\n"));
            }
        }
    }
    sh.out(out.as_bytes())?;
    Ok(status)
}

pub fn export(sh: &mut Interp, args: &[String]) -> R {
    attr_builtin(sh, args, "export", Attrs::EXPORT, "-x")
}

pub fn readonly(sh: &mut Interp, args: &[String]) -> R {
    attr_builtin(sh, args, "readonly", Attrs::READONLY, "-r")
}

/// `export` and `readonly`: set an attribute (optionally assigning), or list.
/// A `declare -p` line as POSIX mode's `export -p` / `readonly -p` print it: the
/// builtin's name, keeping only the array flags.
fn posix_listing_line(line: &str, builtin: &str) -> Option<String> {
    let rest = line.strip_prefix("declare -")?;
    let (flags, tail) = rest.split_once(' ')?;
    let kept: String = flags.chars().filter(|c| matches!(c, 'a' | 'A')).collect();
    Some(if kept.is_empty() {
        format!("{builtin} {tail}")
    } else {
        format!("{builtin} -{kept} {tail}")
    })
}

fn attr_builtin(sh: &mut Interp, args: &[String], name: &str, bit: u16, flag: &str) -> R {
    let mut i = 1;
    let mut remove = false;
    let mut funcs = false;
    let mut extra = 0u16;
    while i < args.len() && args[i].starts_with('-') && args[i].len() > 1 {
        if args[i] == "--" {
            i += 1;
            break;
        }
        for c in args[i][1..].chars() {
            match c {
                'n' => remove = true,
                'f' => funcs = true,
                'p' => {}
                'a' => extra |= Attrs::ARRAY,
                'A' => extra |= Attrs::ASSOC,
                _ => {
                    sh.builtin_error(name, &format!("-{c}: invalid option"));
                    // readonly's usage names its array flags, export's its -n.
                    let flags = if name == "readonly" { "-aAf" } else { "-fn" };
                    sh.errln(&format!(
                        "{name}: usage: {name} [{flags}] [name[=value] ...] or {name} -p"
                    ));
                    return Ok(2);
                }
            }
        }
        i += 1;
    }
    let operands = &args[i..];
    if operands.is_empty() && funcs && !remove {
        // The functions with the attribute, each defined and then given it back.
        let flags = Flags {
            set: bit,
            print: true,
            funcs: true,
            ..Flags::default()
        };
        return print_functions(sh, name, &[], &flags);
    }
    if operands.is_empty() {
        let mut out = String::new();
        for (k, v) in sh.vars.all() {
            if v.attrs.has(bit) {
                let line = print_var(&k, &v);
                match posix_listing_line(&line, name) {
                    Some(posix) if sh.set.posix => out.push_str(&posix),
                    _ => out.push_str(&line),
                }
                out.push('\n');
            }
        }
        sh.out(out.as_bytes())?;
        return Ok(0);
    }
    if funcs {
        let mut status = 0;
        for op in operands {
            if sh.funcs.contains_key(op.as_str()) {
                let set = if bit == Attrs::READONLY {
                    &mut sh.readonly_funcs
                } else {
                    &mut sh.exported_funcs
                };
                if remove {
                    set.remove(op);
                } else {
                    set.insert(op.clone());
                }
            } else {
                sh.builtin_error(name, &format!("{op}: not a function"));
                status = 1;
            }
        }
        return Ok(status);
    }
    let mut status = 0;
    for op in operands {
        // An unset name has nothing to unexport; an invalid one is still reported.
        if remove
            && crate::syntax::parser::is_name(op)
            && sh.vars.get_raw(&sh.vars.resolve_name(op)).is_none()
            && !op.contains('=')
            && !op.starts_with(ASSIGN_MARK)
        {
            continue;
        }
        // `export -n name=value` still assigns, then drops the attribute.
        let fl = if remove {
            Flags {
                unset: bit,
                ..Flags::default()
            }
        } else {
            // `readonly -a name` without a value leaves the name as it was (bash prints
            // `declare -r name`); `-a`/`-A` shape only what is assigned.
            let assigns = op.contains('=') || op.starts_with(ASSIGN_MARK);
            Flags {
                set: bit | if assigns { extra } else { 0 },
                ..Flags::default()
            }
        };
        let _ = flag;
        let local = false;
        // `export a[7]=8`: an element cannot carry the attribute.
        let stashed = sh.stashed_decl_assign(op).map(|(a, _)| a.clone());
        let element = match &stashed {
            Some(a) => a
                .index
                .as_ref()
                .map(|w| format!("{}[{}]", a.name, crate::syntax::printer::word_to_string(w))),
            None => {
                let lhs = op.split('=').next().unwrap_or(op);
                lhs.contains('[')
                    .then(|| lhs.trim_end_matches('+').to_owned())
            }
        };
        if let Some(e) = element {
            sh.builtin_error(name, &format!("`{e}': not a valid identifier"));
            status = 1;
            continue;
        }
        let redirected;
        let op: &str = match nameref_operand(sh, op, stashed.as_ref(), remove, name) {
            RefOperand::Plain => op,
            RefOperand::Done => continue,
            RefOperand::Target(var) => {
                redirected = var;
                &redirected
            }
        };
        if let Err(s) = declare_one(sh, name, op, &fl, local) {
            match code_flow(s) {
                Some(flow) => return Err(flow),
                None => status = s,
            }
        }
        // Exporting a temporary binding (`v=1 export v`) makes it outlive the command.
        let var = match stashed {
            Some(a) => Some(a.name),
            None => op.split(['=', '+', '[']).next().map(str::to_owned),
        };
        // `export -n name=value` under `set -a`: the attribute goes after the value
        // is assigned (which exported it).
        if remove
            && let Some(var) = &var
            && sh.vars.get_raw(var).is_some()
        {
            sh.vars.entry(var, false).attrs.set(bit, false);
        }
        // `export -n`/`+r` of a temporary binding changes only the binding.
        if let Some(var) = var.filter(|_| !remove) {
            sh.vars.propagate(&var, sh.set.posix);
        }
    }
    Ok(status)
}

/// What `export`/`readonly` do with an operand that is a nameref.
enum RefOperand {
    /// Not a nameref, or one the ordinary path handles.
    Plain,
    /// Dealt with here.
    Done,
    /// The nameref just got its name: the attribute goes to what it names now.
    Target(String),
}

/// `export r` / `readonly r[=v]` where nameref `r` names an array element or nothing
/// yet. A value is assigned through it (giving a nameref with no name its name), but
/// the attribute cannot go on an element or on no name, which bash reports without
/// failing.
fn nameref_operand(
    sh: &mut Interp,
    op: &str,
    stashed: Option<&Assign>,
    remove: bool,
    builtin: &str,
) -> RefOperand {
    let (var, value) = match stashed {
        Some(a) => {
            let v = match &a.value {
                AssignValue::Scalar(_) => sh
                    .stashed_decl_assign(op)
                    .and_then(|(_, v)| v.clone())
                    .map(|v| (a.append, v)),
                AssignValue::Array(_) => return RefOperand::Plain,
            };
            (a.name.clone(), v)
        }
        None => match op.split_once('=') {
            Some((l, v)) => match l.strip_suffix('+') {
                Some(l) => (l.to_owned(), Some((true, v.to_owned()))),
                None => (l.to_owned(), Some((false, v.to_owned()))),
            },
            None => (op.to_owned(), None),
        },
    };
    let Some(raw) = sh.vars.get_raw(&var) else {
        return RefOperand::Plain;
    };
    if !raw.attrs.has(Attrs::NAMEREF) {
        return RefOperand::Plain;
    }
    let unnamed = raw.value.is_none();
    let target = |sh: &Interp| sh.vars.resolve_name_checked(&var).ok();
    let element = |t: &str| crate::interp::host::split_element_ref(t).is_some();
    if !unnamed && !target(sh).is_some_and(|t| element(&t)) {
        return RefOperand::Plain;
    }
    match value {
        Some((append, v)) => {
            if let Err(e) = sh.assign_scalar(&var, v, append) {
                sh.report_assign_error(&e);
                return RefOperand::Done;
            }
        }
        None if unnamed => {
            if !remove {
                sh.builtin_error(builtin, "`': not a valid identifier");
            }
            return RefOperand::Done;
        }
        None => {}
    }
    match target(sh) {
        Some(t) if element(&t) => {
            if !remove {
                sh.builtin_error(builtin, &format!("`{t}': not a valid identifier"));
            }
            RefOperand::Done
        }
        _ => RefOperand::Target(var),
    }
}

pub fn unset(sh: &mut Interp, args: &[String]) -> R {
    let mut funcs = false;
    let mut vars_only = false;
    let mut nameref = false;
    let mut i = 1;
    while i < args.len() && args[i].starts_with('-') {
        // A lone `-` ends the options as `--` does.
        if args[i] == "--" || args[i] == "-" {
            i += 1;
            break;
        }
        for c in args[i][1..].chars() {
            match c {
                'f' => funcs = true,
                'v' => vars_only = true,
                'n' => nameref = true,
                _ => {
                    sh.builtin_error("unset", &format!("-{c}: invalid option"));
                    sh.errln("unset: usage: unset [-f] [-v] [-n] [name ...]");
                    return Ok(2);
                }
            }
        }
        i += 1;
    }
    let mut status = 0;
    for n in &args[i..] {
        if funcs {
            status |= unset_function(sh, n);
            continue;
        }
        // `a[]` is no element reference, only a name that is not valid.
        if let Some((base, sub)) = crate::interp::host::split_element_ref(n)
            && !sub.is_empty()
        {
            if let Err(m) = unset_element(sh, base, sub) {
                if !m.is_empty() {
                    sh.builtin_error("unset", &m);
                }
                status = 1;
            }
            continue;
        }
        if !crate::syntax::is_name(n) {
            // Without `-v` the name may be a function's, which need not be a valid
            // identifier (bash tries one once no variable has the name).
            if vars_only {
                sh.builtin_error("unset", &format!("`{n}': not a valid identifier"));
                status = 1;
            } else {
                status |= unset_function(sh, n);
            }
            continue;
        }
        // `unset -n` removes only a nameref; it leaves any other variable alone
        // (but still refuses a readonly one).
        if nameref
            && let Some(v) = sh.vars.get_raw(n)
            && !v.attrs.has(Attrs::NAMEREF)
        {
            if v.attrs.has(Attrs::READONLY) {
                sh.builtin_error("unset", &format!("{n}: cannot unset: readonly variable"));
                status = 1;
            }
            continue;
        }
        let target = if nameref {
            n.clone()
        } else {
            sh.vars.resolve_name(n)
        };
        // A nameref to `a[1]` unsets that element.
        if let Some((base, sub)) = crate::interp::host::split_element_ref(&target) {
            let (base, sub) = (base.to_owned(), sub.to_owned());
            if let Err(m) = unset_element(sh, &base, &sub) {
                if !m.is_empty() {
                    sh.builtin_error("unset", &m);
                }
                status = 1;
            }
            continue;
        }
        if sh.vars.get_raw(&target).is_none() && !vars_only && sh.readonly_funcs.contains(n) {
            status |= unset_function(sh, n);
            continue;
        }
        if sh.vars.get_raw(&target).is_none() && !vars_only && sh.funcs.remove(n.as_str()).is_some()
        {
            // bash keeps the trace attribute for a later definition here (not with -f).
            continue;
        }
        if let Err(super::super::vars::AssignError::Readonly(v)) = sh.vars.unset(&target) {
            sh.builtin_error("unset", &format!("{v}: cannot unset: readonly variable"));
            status = 1;
        } else if target == "BASH_XTRACEFD" {
            // What shows through now (an outer scope's value, or nothing) takes effect.
            sh.sync_xtrace_fd();
        } else if target == "GLOBIGNORE" {
            sh.shopt.set("dotglob", false);
        }
    }
    Ok(status)
}

/// `unset 'name[sub]'`, as bash's `unbind_array_element` does it: `[@]` or `[*]`
/// empties an indexed array and is a key like any other of an associative one; a
/// variable that is no array has only element 0 (unsetting it unsets the variable),
/// and any other subscript, or `[@]`, is refused.
/// Removes function `name` with its attributes; a readonly one stays, with an error
/// (status 1).
fn unset_function(sh: &mut Interp, name: &str) -> i32 {
    if sh.readonly_funcs.contains(name) {
        sh.builtin_error("unset", &format!("{name}: cannot unset: readonly function"));
        return 1;
    }
    sh.funcs.remove(name);
    sh.traced_funcs.remove(name);
    sh.exported_funcs.remove(name);
    0
}

fn unset_element(sh: &mut Interp, base: &str, sub: &str) -> Result<(), String> {
    let base = sh.vars.resolve_name(base);
    let Some(var) = sh.vars.get(&base).cloned() else {
        return Ok(());
    };
    if var.attrs.has(Attrs::READONLY) {
        return Err(format!("{base}: cannot unset: readonly variable"));
    }
    let not_array = || format!("{base}: not an array variable");
    let all = sub == "@" || sub == "*";
    if var.is_assoc() {
        // The key is expanded as a word: `unset 'a["$k"]'` removes the key in `$k`.
        let key = if all {
            sub.to_owned()
        } else {
            sh.expand_subscript_for(true, sub).map_err(|e| e.message)?
        };
        if let Some(Value::Assoc(a)) = &mut sh.vars.entry(&base, false).value {
            a.remove(&key);
        }
        return Ok(());
    }
    if all {
        if !var.is_array() {
            return Err(not_array());
        }
        if let Some(Value::Indexed(a)) = &mut sh.vars.entry(&base, false).value {
            *a = imbl::OrdMap::new();
        }
        return Ok(());
    }
    // An arithmetic error is the expression's own, not unset's (an empty message
    // tells the caller it is reported); it ends the command as an arithmetic
    // expansion's error does.
    let idx = sh.eval_index_text(sub).map_err(|e| {
        sh.error(&e.render());
        sh.int_assign_failed = true;
        String::new()
    })?;
    // The subscript may have assigned to the array (`unset 'a[a[7]=-1]'`).
    let Some(var) = sh.vars.get(&base).cloned() else {
        return Ok(());
    };
    if !var.is_array() {
        if idx != 0 {
            return Err(not_array());
        }
        let _ = sh.vars.unset(&base);
        return Ok(());
    }
    let max = match &var.value {
        Some(Value::Indexed(a)) => a.keys().next_back().copied().unwrap_or(-1),
        _ => -1,
    };
    let idx = if idx < 0 {
        if max + 1 + idx < 0 {
            return Err(format!("[{sub}]: bad array subscript"));
        }
        max + 1 + idx
    } else {
        idx
    };
    if let Some(Value::Indexed(a)) = &mut sh.vars.entry(&base, false).value {
        a.remove(&idx);
    }
    Ok(())
}

/// Quotes for `export -p` style lines (kept for other listings).
pub fn quoted(s: &str) -> String {
    dquote(s)
}

impl Interp {
    /// Replaces declaration-argument words with markers pointing at their ASTs.
    /// Keeps a declaration builtin's assignment argument for the builtin. A scalar
    /// value is expanded now, with the other words, before the builtin runs: in
    /// `export A=1 B=$(cmd)` the command does not see `A` yet.
    /// The assignment a declaration argument stands for, if it is a marker made by
    /// [`Interp::stash_decl_assign`].
    pub(crate) fn stashed_decl_assign(&self, word: &str) -> Option<&(Assign, Option<String>)> {
        word.strip_prefix(ASSIGN_MARK)
            .and_then(|i| i.parse::<usize>().ok())
            .and_then(|i| self.decl_assigns.get(i))
    }

    /// `assoc`: an option word before it asks for `-A`, which decides how an array
    /// value is expanded here.
    pub(crate) fn stash_decl_assign(
        &mut self,
        a: &Assign,
        assoc: bool,
    ) -> Result<String, crate::expand::ExpandError> {
        let (a, value) = match &a.value {
            AssignValue::Scalar(_) => {
                let v = self.eval_assign_value(a)?.into_iter().next();
                (a.clone(), Some(v.unwrap_or_default()))
            }
            AssignValue::Array(elems) if a.index.is_none() => {
                (self.expand_decl_array(a, elems, assoc)?, None)
            }
            AssignValue::Array(_) => (a.clone(), None),
        };
        self.decl_assigns.push((a, value));
        Ok(format!("{ASSIGN_MARK}{}", self.decl_assigns.len() - 1))
    }

    /// Expands a declaration builtin's `name=(...)` argument as its words are
    /// expanded, the way bash does it: into a list of quoted words (traced with
    /// `set -x` then), which the builtin reads as the array's value. With `-A` a
    /// plain word is not split, globbed, or brace- or tilde-expanded, nor is a
    /// value; without it, a plain word expands as any word, and `[k]=v` with braces
    /// becomes plain words.
    fn expand_decl_array(
        &mut self,
        a: &Assign,
        elems: &[ArrayElem],
        assoc: bool,
    ) -> Result<Assign, crate::expand::ExpandError> {
        use crate::expand::Expander;
        let quoted = |s: String| Word {
            parts: vec![WordPart::Quoted(s)],
        };
        let mut out = Vec::new();
        // An associative list of `[k]=v` pairs refuses a plain word unexpanded: the
        // builtin's message shows the word as written, quoted.
        let keyed = assoc && elems.first().is_some_and(|e| e.key.is_some());
        for e in elems {
            match &e.key {
                None if keyed => out.push(ArrayElem {
                    key: None,
                    append: false,
                    value: quoted(crate::syntax::printer::word_to_string(&e.value)),
                }),
                Some(k)
                    if !assoc
                        && self.set.braceexpand
                        && let Some(word) = crate::interp::exec::keyed_with_braces(
                            k,
                            e,
                            self.budget.limits.max_brace_words,
                        ) =>
                {
                    for v in Expander::new(self).words(std::slice::from_ref(&word))? {
                        out.push(ArrayElem {
                            key: None,
                            append: false,
                            value: quoted(v),
                        });
                    }
                }
                Some(k) => {
                    let key = Expander::new(self).string(k)?;
                    let value = if assoc {
                        crate::interp::exec::untilde(&e.value)
                    } else {
                        e.value.clone()
                    };
                    let value = Expander::new(self).assign_value(&value)?;
                    out.push(ArrayElem {
                        key: Some(quoted(key)),
                        append: e.append,
                        value: quoted(value),
                    });
                }
                None if assoc => {
                    let w = crate::interp::exec::untilde(&e.value);
                    let v = Expander::new(self).string(&w)?;
                    out.push(ArrayElem {
                        key: None,
                        append: false,
                        value: quoted(v),
                    });
                }
                None => {
                    for v in Expander::new(self).words(std::slice::from_ref(&e.value))? {
                        out.push(ArrayElem {
                            key: None,
                            append: false,
                            value: quoted(v),
                        });
                    }
                }
            }
        }
        let a = Assign {
            value: AssignValue::Array(out),
            ..a.clone()
        };
        if self.set.xtrace
            && let AssignValue::Array(elems) = &a.value
        {
            let line = crate::interp::exec::array_literal_trace(&a, elems);
            self.xtrace_line(&line);
        }
        Ok(a)
    }
}
