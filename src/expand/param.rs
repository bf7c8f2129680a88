//! Parameter expansion (bash manual, "Shell Parameter Expansion"): every `${...}` form,
//! arrays, indirection, and the `@` transformations.

use super::pattern::{MatchOpts, Pattern};
use super::{
    ErrorKind, ExpResult, ExpandError, Expander, Field, Host, Piece, Q, Value, Var, join_pieces,
};
use crate::syntax::{CaseTo, Param, ParamExp, ParamOp, ReplaceMode, Subscript, Word, WordPart};

/// The values a parameter names before any operator applies.
#[derive(Clone, Debug)]
struct PVal {
    vals: Vec<String>,
    /// `$@`, `${a[@]}`: separate fields even in double quotes.
    at: bool,
    /// `$*`, `${a[*]}`: joined by the first IFS character in double quotes.
    star: bool,
    /// Whether the parameter is set at all.
    set: bool,
    /// The indices of an indexed array's elements (slices count by index).
    keys: Option<Vec<i64>>,
    /// For `${!ref...}`: the name `ref` resolved to (where `:=` assigns).
    target: Option<String>,
    /// `${v[@]}` or `${v[*]}` of a variable that is no array: bash takes it as the
    /// string it is (a substring counts characters), yet as a list of one that can
    /// come to none (bash's quoted `$@` with a null result).
    scalar: bool,
    /// Text before the first value that bash leaves unquoted in a quoted `@A` of a
    /// list (`declare -a a=`, `set -- `): it is split into words on IFS (on spaces
    /// when IFS is null), as bash splits its quoted `$@`.
    bare_prefix: Option<String>,
    /// The warning an out-of-range element subscript gave: bash's `@a` and `@A` look
    /// the element up again, and warn again.
    bad_subscript: Option<String>,
}

impl PVal {
    fn scalar(v: Option<String>) -> PVal {
        PVal {
            set: v.is_some(),
            vals: v.into_iter().collect(),
            at: false,
            star: false,
            keys: None,
            target: None,
            scalar: false,
            bare_prefix: None,
            bad_subscript: None,
        }
    }
    fn list(vals: Vec<String>, at: bool, set: bool) -> PVal {
        PVal {
            vals,
            at,
            star: !at,
            set,
            keys: None,
            target: None,
            scalar: false,
            bare_prefix: None,
            bad_subscript: None,
        }
    }
    fn is_list(&self) -> bool {
        self.at || self.star
    }
    /// Null for the `:` tests: unset, or expanding to the empty string. Several empty
    /// elements of `${a[@]}` are not null; of `"${a[*]}"` only when IFS is empty. A
    /// list reached through `${!ref}` is null only when it has no elements.
    fn null(&self, ifs_empty_in_dq: bool) -> bool {
        if self.target.is_some() && self.is_list() {
            return self.vals.is_empty();
        }
        let all_empty = self.vals.iter().all(|v| v.is_empty());
        !self.set || (all_empty && (self.vals.len() <= 1 || (self.star && ifs_empty_in_dq)))
    }
}

/// The parameter as messages name it: `!ref` for an indirect expansion.
fn param_label(p: &ParamExp) -> String {
    if p.indirect {
        format!("!{}", param_text(p))
    } else {
        param_text(p)
    }
}

fn param_text(p: &ParamExp) -> String {
    let name = match &p.param {
        Param::Name(n) => n.clone(),
        // Bash names `$1` as written but `${1}` as the bare number.
        Param::Positional(n) if p.braced => n.to_string(),
        Param::Positional(n) => format!("${n}"),
        Param::Special(c) => c.to_string(),
    };
    match &p.index {
        Some(Subscript::At) => format!("{name}[@]"),
        Some(Subscript::Star) => format!("{name}[*]"),
        Some(Subscript::Expr(w)) => {
            format!("{name}[{}]", crate::syntax::printer::word_to_string(w))
        }
        None => name,
    }
}

/// Expands one parameter expansion into pieces.
/// The value of a bare `$name`, `${name}` or `$1` that is set (a plain stored
/// variable or a positional parameter), or the length `${#name}` of such a variable,
/// without the general path's intermediate
/// values; `None` sends everything else (unset, namerefs, computed variables,
/// operators) to [`expand`].
pub fn simple_value<H: Host + ?Sized>(ex: &mut Expander<'_, H>, pe: &ParamExp) -> Option<String> {
    if pe.indirect || pe.index.is_some() || !matches!(pe.op, ParamOp::None) {
        return None;
    }
    if pe.length {
        // `${#name}` of a set scalar (the usual `$(( ${#s} ))`): its length, without
        // the general path's pieces.
        let Param::Name(name) = &pe.param else {
            return None;
        };
        let v = ex.host.plain_scalar(name).flatten()?;
        let n = if ex.host.opts().bytes {
            crate::text::byte_len(&v)
        } else {
            v.chars().count()
        };
        return Some(n.to_string());
    }
    match &pe.param {
        Param::Positional(n) if *n > 0 => {
            let i = (*n as usize).checked_sub(1)?;
            ex.host.positional().get(i).cloned()
        }
        Param::Name(name) => ex.host.plain_scalar(name).flatten(),
        _ => None,
    }
}

pub fn expand<H: Host + ?Sized>(
    ex: &mut Expander<'_, H>,
    pe: &ParamExp,
    in_dq: bool,
) -> ExpResult<Vec<Piece>> {
    if let (ParamOp::Invalid(text), Param::Name(n)) = (&pe.op, &pe.param)
        && n.is_empty()
    {
        // A malformed `${...}` with no parameter abandons the command.
        return Err(ExpandError::abort(format!("{text}: bad substitution")));
    }
    if let ParamOp::AssignWord(a) = &pe.op {
        // A declaration argument used as a plain word: its source text.
        return Ok(vec![Piece::Text(a.text.clone(), Q::Quoted)]);
    }
    if let ParamOp::Names { at } = &pe.op {
        let Param::Name(prefix) = &pe.param else {
            return Ok(Vec::new());
        };
        let names = ex.host.var_names(prefix);
        return Ok(list_pieces(ex, names, !*at, in_dq, EmptyIfsJoin::Nothing));
    }
    // `${!a[@]}`: the keys of an array (with an operator, it is an indirection).
    if pe.indirect
        && matches!(pe.op, ParamOp::None)
        && matches!(pe.index, Some(Subscript::At | Subscript::Star))
        && let Param::Name(n) = &pe.param
    {
        // (A nameref to an element has no keys bash finds.)
        let element_ref = final_nameref_target(ex, n)
            .is_some_and(|t| t.ends_with(']') && !t.ends_with("[@]") && !t.ends_with("[*]"));
        let keys = match ex.host.var(n) {
            Some(v) if !element_ref => v.keys(),
            _ => Vec::new(),
        };
        let at = matches!(pe.index, Some(Subscript::At));
        let pv = PVal::list(keys, at, true);
        return finish(ex, pe, pv, in_dq);
    }
    let pv = if pe.indirect {
        // `${!ref}` on a nameref gives the name it refers to.
        if let (Param::Name(n), None) = (&pe.param, &pe.index)
            && let Some(target) = ex.host.nameref_target(n)
        {
            return finish(ex, pe, PVal::scalar(Some(target)), in_dq);
        }
        let base = lookup(ex, pe)?;
        if !base.set {
            // Only a variable that does not exist at all is an error; a declared one
            // without a value, or an unset positional parameter, refers to nothing.
            let exists = match &pe.param {
                // (An element of an array that exists refers to nothing.)
                Param::Name(n) if pe.index.is_none() || !base.is_list() => ex.host.var(n).is_some(),
                // `${!@}` with no positional parameters refers to nothing.
                Param::Positional(_) | Param::Special(_) => pe.index.is_none(),
                _ => pe.index.is_some() && !base.is_list(),
            };
            if !exists {
                return Err(ExpandError::abort(format!(
                    "{}: invalid indirect expansion",
                    param_text(pe)
                )));
            }
            let mut pv = PVal::scalar(None);
            pv.target = Some(String::new());
            return finish(ex, pe, pv, in_dq);
        }
        // `${!*}` names what `"$*"` joins (on IFS's first character), `${!@}` what
        // `$@` joins on blanks.
        let sep = match &pe.param {
            Param::Special('*') => match ex.host.var("IFS").and_then(|v| v.ifs_text()) {
                Some(s) => s.chars().next().map(String::from).unwrap_or_default(),
                None => " ".to_owned(),
            },
            _ => " ".to_owned(),
        };
        let target = base.vals.join(&sep);
        let mut pv = lookup_ref(ex, &target)?;
        pv.target = Some(target);
        pv
    } else {
        lookup(ex, pe)?
    };
    if let ParamOp::Invalid(text) = &pe.op {
        // `${x@Z}`: bash looks the parameter up first (through an indirection), and
        // an unset one expands to nothing without a complaint, unless `set -u` finds
        // it unbound; for a set one the error ends the shell, as an unbound variable
        // does.
        if pv.set && !pv.vals.is_empty() {
            return Err(ExpandError::fatal(format!("{text}: bad substitution")));
        }
        if !pv.set && !pv.is_list() && ex.host.opts().nounset {
            return Err(ExpandError::fatal(format!(
                "{}: unbound variable",
                param_label(pe)
            )));
        }
        return Ok(Vec::new());
    }
    finish(ex, pe, pv, in_dq)
}

/// Parses `name`, `name[sub]`, `N` or a special character and looks it up (indirection).
fn lookup_ref<H: Host + ?Sized>(ex: &mut Expander<'_, H>, r: &str) -> ExpResult<PVal> {
    let bad = || ExpandError::abort(format!("{r}: invalid variable name"));
    if let Some(open) = r.find('[') {
        if !r.ends_with(']') {
            return Err(bad());
        }
        let name = &r[..open];
        if !crate::syntax::is_name(name) {
            return Err(bad());
        }
        // The subscript is expanded like one written in `${name[...]}`.
        let parsed =
            crate::syntax::parser::parse_template(&format!("${{{r}}}"), Default::default());
        let parts = match parsed.as_ref().map(|w| w.parts.as_slice()) {
            Ok([WordPart::DQuoted(inner)]) => inner.as_slice(),
            _ => &[],
        };
        let pe = match parts {
            [WordPart::Param(pe)] if pe.op == ParamOp::None && !pe.indirect && !pe.length => {
                pe.clone()
            }
            _ => return Err(ExpandError::abort(format!("{r}: bad substitution"))),
        };
        return lookup(ex, &pe);
    }
    let param = if crate::syntax::is_name(r) {
        Param::Name(r.to_owned())
    } else if !r.is_empty() && r.chars().all(|c| c.is_ascii_digit()) {
        match r.parse::<u32>() {
            Ok(0) => Param::Special('0'),
            Ok(n) => Param::Positional(n),
            Err(_) => return Err(bad()),
        }
    } else if r.len() == 1 && "@*#?-$!".contains(r) {
        Param::Special(r.chars().next().unwrap_or('@'))
    } else {
        return Err(bad());
    };
    let pe = ParamExp {
        param,
        index: None,
        indirect: false,
        length: false,
        op: ParamOp::None,
        braced: true,
    };
    lookup(ex, &pe)
}

/// What a chain of namerefs starting at `name` finally names (`None` if `name` is not
/// a nameref). A chain that loops stops where it started.
fn final_nameref_target<H: Host + ?Sized>(ex: &mut Expander<'_, H>, name: &str) -> Option<String> {
    let mut t = ex.host.nameref_target(name)?;
    // bash follows at most this many links.
    for _ in 0..8 {
        if t == name || !crate::syntax::is_name(&t) {
            break;
        }
        match ex.host.nameref_target(&t) {
            Some(next) => t = next,
            None => break,
        }
    }
    Some(t)
}

fn lookup<H: Host + ?Sized>(ex: &mut Expander<'_, H>, pe: &ParamExp) -> ExpResult<PVal> {
    match &pe.param {
        Param::Special('@') | Param::Special('*') => {
            let at = pe.param == Param::Special('@');
            let vals = ex.host.positional().to_vec();
            // With no positional parameters, `${@-x}` takes the default.
            let set = !vals.is_empty();
            Ok(PVal::list(vals, at, set))
        }
        Param::Special('#') => Ok(PVal::scalar(Some(ex.host.positional().len().to_string()))),
        Param::Special('0') => Ok(PVal::scalar(Some(ex.host.arg0()))),
        Param::Special(c) => {
            let v = ex.host.special(*c);
            if *c == '!' && v.is_empty() {
                return Ok(PVal::scalar(None));
            }
            Ok(PVal::scalar(Some(v)))
        }
        Param::Positional(0) => Ok(PVal::scalar(Some(ex.host.arg0()))),
        Param::Positional(n) => {
            let pos = ex.host.positional();
            let at = (*n as usize).checked_sub(1);
            Ok(PVal::scalar(at.and_then(|i| pos.get(i)).cloned()))
        }
        Param::Name(name) => {
            if pe.index.is_none()
                && let Some(v) = ex.host.plain_scalar(name)
            {
                return Ok(PVal::scalar(v));
            }
            if let Some(t) = final_nameref_target(ex, name)
                && t.ends_with(']')
                && t.contains('[')
            {
                // A nameref to `a[@]` reads as that whole list.
                if pe.index.is_none() && (t.ends_with("[@]") || t.ends_with("[*]")) {
                    return lookup_ref(ex, &t);
                }
                // One to an element is a scalar that bash's length and subscript
                // lookups do not find: `${#r}` is 0, `${r[0]}` and `${r[@]}` empty.
                match &pe.index {
                    Some(Subscript::At) | Some(Subscript::Star) => {
                        return Ok(PVal::list(
                            Vec::new(),
                            matches!(pe.index, Some(Subscript::At)),
                            false,
                        ));
                    }
                    Some(Subscript::Expr(_)) => return Ok(PVal::scalar(None)),
                    None if pe.length => return Ok(PVal::scalar(Some(String::new()))),
                    None => {}
                }
            }
            let var = ex.host.var(name);
            match &pe.index {
                None => Ok(PVal::scalar(var.and_then(Var::into_scalar))),
                Some(Subscript::At) | Some(Subscript::Star) => {
                    let at = matches!(pe.index, Some(Subscript::At));
                    match var {
                        Some(v) if v.value.is_some() => {
                            let vals = v.values();
                            // An empty array counts as unset for `-` and `+`.
                            let set = !vals.is_empty();
                            let mut pv = PVal::list(vals, at, set);
                            match &v.value {
                                Some(Value::Indexed(a)) => {
                                    pv.keys = Some(a.keys().copied().collect());
                                }
                                Some(Value::Str(_)) => pv.scalar = true,
                                _ => {}
                            }
                            Ok(pv)
                        }
                        _ => Ok(PVal::list(Vec::new(), at, false)),
                    }
                }
                Some(Subscript::Expr(w)) => {
                    let var = var.unwrap_or_default();
                    if var.is_assoc() {
                        let key = ex.string(w)?;
                        let v = match &var.value {
                            Some(Value::Assoc(a)) => a.get(&key).cloned(),
                            _ => None,
                        };
                        return Ok(PVal::scalar(v));
                    }
                    let text = ex.index_text(w)?;
                    let i = super::arith::eval_str(&text, ex.host).map_err(|mut f| {
                        f.discard = true;
                        f
                    })?;
                    // The subscript may have assigned to the array (`${a[a[7]=-1]}`):
                    // the element, and the end a negative index counts from, are read
                    // after it.
                    let var = ex.host.var(name).unwrap_or_default();
                    let Some(idx) = var.read_index(i) else {
                        // `${#a[-9]}` of a variable that exists abandons the command line,
                        // naming the subscript as written.
                        // (Of a variable that does not exist it is 0, without a word.)
                        if pe.length && ex.host.var(name).is_none() {
                            return Ok(PVal::scalar(None));
                        }
                        if pe.length {
                            return Err(ExpandError::abort(format!(
                                "{}]: bad array subscript",
                                crate::syntax::printer::word_to_string(w)
                            )));
                        }
                        let msg = format!("{name}: bad array subscript");
                        ex.host.report_error(&msg)?;
                        let mut pv = PVal::scalar(None);
                        pv.bad_subscript = Some(msg);
                        return Ok(pv);
                    };
                    let v = match &var.value {
                        Some(Value::Indexed(a)) => a.get(&idx).cloned(),
                        Some(Value::Str(s)) if idx == 0 => Some(s.clone()),
                        _ => None,
                    };
                    Ok(PVal::scalar(v))
                }
            }
        }
    }
}

/// How a `*`-style list joins when IFS is empty and it is not quoted.
#[derive(Clone, Copy, PartialEq, Eq)]
enum EmptyIfsJoin {
    /// Separate words (`$*`, `${a[*]}`).
    Separate,
    /// Joined with nothing (`${!prefix*}`).
    Nothing,
    /// Joined with a space (`${!a[*]}`).
    Space,
    /// Joined with a space, `@` or `*`: an array's elements with a pattern removed
    /// (`${a[@]#p}`, `${a[*]%p}`), which bash makes one string before splitting.
    SpaceEither,
}

/// Turns a list of values into pieces, honouring `@`/`*`, double quotes and IFS.
fn list_pieces<H: Host + ?Sized>(
    ex: &mut Expander<'_, H>,
    vals: Vec<String>,
    star: bool,
    in_dq: bool,
    empty_ifs: EmptyIfsJoin,
) -> Vec<Piece> {
    // IFS declared without a value joins as unset IFS does.
    let ifs: Option<String> = ex.host.var("IFS").and_then(|v| v.ifs_text());
    let sep = match &ifs {
        Some(s) => s.chars().next().map(String::from).unwrap_or_default(),
        None => " ".to_owned(),
    };
    if star && (in_dq || ex.assign_ctx) {
        return vec![Piece::Text(vals.join(&sep), Q::Quoted)];
    }
    let mut out = Vec::new();
    if in_dq || ex.assign_ctx {
        if in_dq && ex.rhs_at.on {
            ex.rhs_at.quoted = true;
        }
        for (i, v) in vals.into_iter().enumerate() {
            if i > 0 {
                out.push(Piece::Break);
            }
            out.push(Piece::Text(v, Q::Quoted));
        }
        return out;
    }
    if ex.rhs_at.on && !star {
        // Each element whole, joined on IFS's first character, to be split there.
        ex.rhs_at.unquoted = true;
        for (i, v) in vals.into_iter().enumerate() {
            if i > 0 {
                out.push(Piece::Text(sep.clone(), Q::Exp));
            }
            out.push(Piece::Text(v, Q::Quoted));
        }
        return out;
    }
    if vals.is_empty() {
        return out;
    }
    match ifs.as_deref() {
        Some("") => match empty_ifs {
            EmptyIfsJoin::Nothing if star => out.push(Piece::Text(vals.concat(), Q::Exp)),
            EmptyIfsJoin::Space if star => out.push(Piece::Text(vals.join(" "), Q::Exp)),
            // bash 5.2 marks each space inside an element with its internal quoting
            // byte (\x01) under a null IFS and leaves the mark in the result.
            EmptyIfsJoin::SpaceEither => {
                let marked: Vec<String> = vals.iter().map(|v| v.replace(' ', "\x01 ")).collect();
                out.push(Piece::Text(marked.join(" "), Q::Exp))
            }
            _ => {
                for (i, v) in vals.into_iter().enumerate() {
                    if i > 0 {
                        out.push(Piece::Break);
                    }
                    out.push(Piece::Text(v, Q::Exp));
                }
            }
        },
        // Unquoted lists join on the first IFS character and are split again, so
        // empty elements survive when IFS has non-whitespace delimiters.
        _ => out.push(Piece::Text(vals.join(&sep), Q::Exp)),
    }
    out
}

/// `${a@a}` or `${a@A}` of an array with elements but none at index 0 (or an
/// associative one): `set -u` lets bash describe the array it finds.
fn array_attrs_of_set_array<H: Host + ?Sized>(ex: &mut Expander<'_, H>, pe: &ParamExp) -> bool {
    let (ParamOp::Transform('a' | 'A'), None, Param::Name(n)) = (&pe.op, &pe.index, &pe.param)
    else {
        return false;
    };
    if pe.indirect {
        return false;
    }
    ex.host.var(n).is_some_and(|v| match &v.value {
        Some(Value::Indexed(a)) => !a.is_empty(),
        Some(Value::Assoc(a)) => !a.is_empty(),
        _ => false,
    })
}

fn finish<H: Host + ?Sized>(
    ex: &mut Expander<'_, H>,
    pe: &ParamExp,
    mut pv: PVal,
    in_dq: bool,
) -> ExpResult<Vec<Piece>> {
    let nounset = ex.host.opts().nounset;
    let is_default_op = matches!(pe.op, ParamOp::Default { .. });
    // `${#a[i]}` and `${#a[@]}` under `set -u` ask for an array: one that has a value
    // (even no elements) counts whatever it holds; anything else (no variable, one
    // declared without a value, a scalar) is an expansion error that abandons the
    // command line, not the fatal unbound-variable error of `$x`.
    if nounset
        && pe.length
        && pe.index.is_some()
        && !pe.indirect
        && let Param::Name(n) = &pe.param
    {
        let array = ex
            .host
            .var(n)
            .is_some_and(|v| matches!(v.value, Some(Value::Indexed(_) | Value::Assoc(_))));
        if !array {
            return Err(ExpandError::abort(format!("{n}: unbound variable")));
        }
    } else if !pv.set && nounset && !is_default_op {
        // `"${a[@]}"` is exempt.
        if !pv.is_list() && !array_attrs_of_set_array(ex, pe) {
            return Err(ExpandError::fatal(format!(
                "{}: unbound variable",
                param_label(pe)
            )));
        }
    }
    if pe.length {
        let n = if pv.is_list() {
            pv.vals.len()
        } else {
            let bytes = ex.host.opts().bytes;
            pv.vals
                .first()
                .map(|v| {
                    if bytes {
                        crate::text::byte_len(v)
                    } else {
                        v.chars().count()
                    }
                })
                .unwrap_or(0)
        };
        return Ok(vec![Piece::Text(
            n.to_string(),
            if in_dq { Q::Quoted } else { Q::Exp },
        )]);
    }
    match &pe.op {
        ParamOp::None | ParamOp::Invalid(_) | ParamOp::AssignWord(_) | ParamOp::Names { .. } => {}
        ParamOp::Default { op, colon, word } => {
            let ifs_empty = ex.host.var("IFS").and_then(|v| v.ifs_text()) == Some(String::new());
            let missing = if *colon {
                pv.null(ifs_empty && in_dq)
            } else {
                !pv.set
            };
            match op {
                '-' | '=' if missing => {
                    if *op == '=' {
                        // The value is expanded as an assignment's: `$@` joins
                        // with spaces.
                        let outer = std::mem::replace(&mut ex.assign_ctx, true);
                        let value = ex.parts(&word.parts, in_dq);
                        ex.assign_ctx = outer;
                        let value = join_pieces(value?);
                        // bash assigns through no special parameter, even one
                        // whose value names a variable (`${!@:=v}`).
                        if let (true, Param::Special(c)) = (pe.indirect, &pe.param) {
                            return Err(ExpandError::abort(format!(
                                "$!{c}: cannot assign in this way"
                            )));
                        }
                        if let Some(t) = &pv.target {
                            if !crate::syntax::is_name(t) {
                                return Err(ExpandError::abort(format!(
                                    "{t}: invalid variable name"
                                )));
                            }
                            ex.host.assign(t, value.clone())?;
                            let q = if in_dq { Q::Quoted } else { Q::Exp };
                            return Ok(vec![Piece::Text(value, q)]);
                        }
                        match (&pe.param, &pe.index) {
                            (Param::Name(n), None) => ex.host.assign(n, value.clone())?,
                            (Param::Name(n), Some(Subscript::Expr(w))) => {
                                let key = ex.string(w)?;
                                ex.host.assign_index(n, &key, value.clone())?;
                            }
                            (Param::Name(n), Some(sub @ (Subscript::At | Subscript::Star))) => {
                                let key = if *sub == Subscript::At { "@" } else { "*" };
                                // bash's assignment takes `@` or `*` as an associative
                                // array's key, and as no index of any other variable.
                                if !ex.host.var(n).is_some_and(|v| v.is_assoc()) {
                                    return Err(ExpandError::abort(format!(
                                        "{n}[{key}]: bad array subscript"
                                    )));
                                }
                                ex.host.assign_index(n, key, value.clone())?;
                            }
                            _ => {
                                // This one message names `${1=x}` as `$1`, `${!=x}`
                                // as `$!`.
                                let what = match &pe.param {
                                    Param::Positional(n) => format!("${n}"),
                                    Param::Special(c) if pe.index.is_none() => format!("${c}"),
                                    _ => param_text(pe),
                                };
                                return Err(ExpandError::abort(format!(
                                    "{what}: cannot assign in this way"
                                )));
                            }
                        }
                        let q = if in_dq { Q::Quoted } else { Q::Exp };
                        return Ok(vec![Piece::Text(value, q)]);
                    }
                    return word_pieces(ex, word, in_dq);
                }
                '?' if missing => {
                    // The word expands as a command's words do, quoted or not (no
                    // pathname expansion), and its fields join with spaces.
                    let pieces = ex.parts(&word.parts, false)?;
                    let fields = ex.split(pieces);
                    let msg = fields.iter().map(Field::text).collect::<Vec<_>>().join(" ");
                    let msg = if word.parts.is_empty() {
                        if *colon {
                            "parameter null or not set".to_owned()
                        } else {
                            "parameter not set".to_owned()
                        }
                    } else {
                        msg
                    };
                    return Err(ExpandError {
                        message: format!("{}: {}", param_label(pe), msg),
                        kind: ErrorKind::Fatal(127),
                    });
                }
                '+' => {
                    if missing {
                        // `"${a[@]+x}"` of nothing is no word at all, like `"$@"`.
                        return Ok(if in_dq && !pv.at {
                            vec![Piece::Text(String::new(), Q::Quoted)]
                        } else {
                            Vec::new()
                        });
                    }
                    return word_pieces(ex, word, in_dq);
                }
                _ => {}
            }
        }
        ParamOp::Strip {
            suffix,
            longest,
            pattern,
        } => {
            let pat = ex.pattern(pattern)?;
            let opts = match_opts(ex, false);
            let p = Pattern::cached(&pat, opts);
            for v in pv.vals.iter_mut() {
                let viewed = opts.bytes && !v.is_ascii();
                if viewed {
                    *v = crate::text::byte_chars(v).into_owned();
                }
                let cs = crate::text::char_vec(v);
                // What is kept is cut out of the value in place.
                let bytes = |n: usize| -> usize {
                    if cs.len() == v.len() {
                        n
                    } else {
                        cs.iter().take(n).map(|c| c.len_utf8()).sum()
                    }
                };
                if *suffix {
                    if let Some(st) = p.match_suffix(&cs, cs.len(), *longest) {
                        let at = bytes(st);
                        v.truncate(at);
                    }
                } else if let Some(end) = p.match_prefix(&cs, 0, *longest) {
                    let at = bytes(end);
                    v.replace_range(..at, "");
                }
                if viewed {
                    *v = crate::text::from_byte_chars(std::mem::take(v));
                }
            }
        }
        ParamOp::Replace {
            mode,
            pattern,
            replacement,
        } => {
            let pat = ex.pattern(pattern)?;
            let rep = match replacement {
                Some(r) => Some(ex.replacement(r)?),
                None => None,
            };
            let amp = ex.host.opts().patsub_replacement;
            let opts = match_opts(ex, true);
            let p = Pattern::cached(&pat, opts);
            for v in pv.vals.iter_mut() {
                if opts.bytes && !v.is_ascii() {
                    let viewed = crate::text::byte_chars(v);
                    let out = replace(&viewed, &p, *mode, rep.as_deref(), pat.is_empty(), amp);
                    *v = crate::text::from_byte_chars(out);
                } else {
                    *v = replace(v, &p, *mode, rep.as_deref(), pat.is_empty(), amp);
                }
            }
        }
        ParamOp::Case { to, all, pattern } => {
            let p = match pattern {
                Some(w) => Some(Pattern::cached(&ex.pattern(w)?, match_opts(ex, false))),
                None => None,
            };
            let bytes = ex.host.opts().bytes;
            for v in pv.vals.iter_mut() {
                *v = in_locale(bytes, v, |v| change_case(v, *to, *all, p.as_deref()));
            }
        }
        // bash evaluates no offset for an unset parameter or an array with nothing in
        // it (the positional parameters excepted).
        ParamOp::Slice { .. }
            if !matches!(pe.param, Param::Special('@' | '*'))
                && (!pv.set || (pv.is_list() && pv.vals.is_empty())) => {}
        ParamOp::Slice { offset, length } => {
            // An error in the offset or length names the parameter first.
            // A subscript's failure is its own, not the expansion's.
            let named = |mut f: super::arith::ArithFail| {
                if !f.fatal && !f.discard {
                    f.expr = format!("{}: {}", param_label(pe), f.expr);
                }
                f
            };
            let off_text = ex.arith_text(offset)?;
            let off = super::arith::eval_str(&off_text, ex.host).map_err(named)?;
            // The length is evaluated only for an offset in range; a negative one is
            // named as written.
            let eval_len = |ex: &mut Expander<'_, H>| -> ExpResult<Option<i64>> {
                match length {
                    Some(l) => {
                        let t = ex.arith_text(l)?;
                        Ok(Some(super::arith::eval_str(&t, ex.host).map_err(named)?))
                    }
                    None => Ok(None),
                }
            };
            let negative = || {
                let text = length
                    .as_ref()
                    .map(crate::syntax::printer::word_to_string)
                    .unwrap_or_default();
                ExpandError::abort(format!("{text}: substring expression < 0"))
            };
            if pv.scalar {
                // The string's characters, as `${v:off:len}` takes them; an offset
                // out of range leaves nothing at all.
                let v = pv.vals.first().cloned().unwrap_or_default();
                pv.vals = substring(ex, &v, off, eval_len, negative)?
                    .into_iter()
                    .collect();
            } else if let (true, Some(_)) = (pv.is_list(), &pv.keys) {
                // The offset and the length may change the array: bash takes its
                // elements after evaluating each.
                let refetch = |ex: &mut Expander<'_, H>, pv: &mut PVal| -> ExpResult<()> {
                    if !pe.indirect {
                        let fresh = lookup(ex, pe)?;
                        if fresh.is_list() && fresh.keys.is_some() {
                            *pv = fresh;
                        }
                    }
                    Ok(())
                };
                refetch(ex, &mut pv)?;
                let keys = pv.keys.clone().unwrap_or_default();
                // Indexed arrays slice by index: elements at or after `offset`.
                let max = keys.last().copied().unwrap_or(-1);
                let start = if off < 0 { max + 1 + off } else { off };
                if start < 0 || start > max {
                    pv.vals = Vec::new();
                } else {
                    let len = eval_len(ex)?;
                    if len.is_some_and(|l| l < 0) {
                        return Err(negative());
                    }
                    refetch(ex, &mut pv)?;
                    let keys = pv.keys.clone().unwrap_or_default();
                    pv.vals = keys
                        .iter()
                        .zip(pv.vals.iter())
                        .filter(|(k, _)| **k >= start)
                        .map(|(_, v)| v.clone())
                        .take(len.map(|l| l as usize).unwrap_or(usize::MAX))
                        .collect();
                }
            } else if pv.is_list() {
                let positional = matches!(pe.param, Param::Special('@' | '*'));
                // As for indexed arrays, the elements are taken after the offset and
                // the length are evaluated.
                let refetch = |ex: &mut Expander<'_, H>, pv: &mut PVal| -> ExpResult<()> {
                    if !pe.indirect && !positional {
                        let fresh = lookup(ex, pe)?;
                        if fresh.is_list() {
                            *pv = fresh;
                        }
                    }
                    Ok(())
                };
                refetch(ex, &mut pv)?;
                let mut vals = pv.vals.clone();
                if positional {
                    vals.insert(0, ex.host.arg0());
                }
                let n = vals.len() as i64;
                let mut start = if off < 0 { n + off } else { off };
                if !positional {
                    // An associative array counts its elements from 1, as the
                    // positional parameters do, with nothing at 0: offsets 0 and 1
                    // both start at the first element, and -N counts N from the end
                    // as if there were one more.
                    start = if off < 0 { n + 1 + off } else { off };
                    if start >= 0 {
                        start = (start - 1).max(0);
                    }
                }
                if start < 0 || start > n {
                    pv.vals = Vec::new();
                } else {
                    let len = eval_len(ex)?;
                    if len.is_some_and(|l| l < 0) {
                        return Err(negative());
                    }
                    if !positional {
                        refetch(ex, &mut pv)?;
                        vals = pv.vals.clone();
                    }
                    let n = vals.len() as i64;
                    let start = start.min(n);
                    let end = match len {
                        // (bash takes a length of 0 as 1 for an associative array.)
                        Some(0) if !positional => start.saturating_add(1).min(n),
                        Some(l) => start.saturating_add(l).min(n),
                        None => n,
                    };
                    pv.vals = vals
                        .get(start as usize..end.max(start) as usize)
                        .unwrap_or_default()
                        .to_vec();
                }
            } else if let Some(v) = pv.vals.first_mut() {
                *v = substring(ex, v, off, eval_len, negative)?.unwrap_or_default();
            }
        }
        ParamOp::Transform(t) => {
            let t = *t;
            if let (Some(msg), 'a' | 'A') = (&pv.bad_subscript, t) {
                ex.host.warn(msg);
            }
            match t {
                'Q' => {
                    for v in pv.vals.iter_mut() {
                        *v = quote(v);
                    }
                }
                'E' => {
                    for v in pv.vals.iter_mut() {
                        *v = crate::syntax::parser::ansi_c_unescape(v);
                    }
                }
                'P' => {
                    // bash's prompt decoding of an empty string is null.
                    if pv.scalar && pv.vals.iter().all(String::is_empty) {
                        pv.vals.clear();
                    }
                    for v in pv.vals.iter_mut() {
                        *v = ex.host.prompt(v);
                    }
                }
                'U' | 'u' | 'L' => {
                    let bytes = ex.host.opts().bytes;
                    for v in pv.vals.iter_mut() {
                        *v = in_locale(bytes, v, |v| match t {
                            'U' => v.to_uppercase(),
                            'L' => v.to_lowercase(),
                            _ => change_case(v, CaseTo::Upper, false, None),
                        });
                    }
                }
                'a' => {
                    // The attributes of the variable named, even when it has no value;
                    // for `${!ref@a}` those of the variable `ref` names.
                    let name = match (&pv.target, &pe.param) {
                        (Some(t), _) => t.split('[').next(),
                        (None, Param::Name(n)) => Some(n.as_str()),
                        _ => None,
                    };
                    let var = name.and_then(|n| ex.host.var(n));
                    // A list gives one word per element; a declared array with no
                    // value still gives one.
                    let count = match (&var, pv.is_list()) {
                        (_, false) => 1,
                        (Some(v), true) if v.value.is_none() => 1,
                        (_, true) => pv.vals.len(),
                    };
                    let flags = var.map(|v| attr_flags(&v)).unwrap_or_default();
                    // No attributes is a null result, which `"${v[@]@a}"` makes no word.
                    let count = if pv.scalar && flags.is_empty() {
                        0
                    } else {
                        count
                    };
                    pv.vals = vec![flags; count];
                }
                'A' | 'K' | 'k' => transform_declared(ex, pe, &mut pv, t, in_dq),
                _ => {}
            }
        }
    }
    if pv.is_list() {
        // In an assignment's value (and a here-string), a quoted `@` list that went
        // through a substring, pattern, case or `@` operator joins as `*` does, with
        // IFS's first character unless IFS is null: `x="${a[@]:1}"`, while a plain
        // `"${a[@]}"` (or `"${a[@]-d}"`) joins with spaces.
        let star = pv.star
            || (ex.assign_ctx
                && in_dq
                && matches!(
                    pe.op,
                    ParamOp::Strip { .. }
                        | ParamOp::Replace { .. }
                        | ParamOp::Case { .. }
                        | ParamOp::Slice { .. }
                        | ParamOp::Transform(_)
                )
                && !ifs_null(ex));
        let join = if pe.indirect && matches!(pe.index, Some(Subscript::Star)) {
            EmptyIfsJoin::Space
        } else if matches!(pe.op, ParamOp::Strip { .. }) && matches!(pe.param, Param::Name(_)) {
            EmptyIfsJoin::SpaceEither
        } else {
            EmptyIfsJoin::Separate
        };
        let mut pieces = list_pieces(ex, pv.vals, star, in_dq, join);
        if let Some(prefix) = pv.bare_prefix {
            let mut front = Vec::new();
            if ifs_null(ex) {
                for (i, w) in prefix.split(' ').enumerate() {
                    if i > 0 {
                        front.push(Piece::Break);
                    }
                    front.push(Piece::Text(w.to_owned(), Q::Quoted));
                }
            } else {
                front.push(Piece::Text(prefix, Q::Exp));
            }
            pieces.splice(0..0, front);
        }
        return Ok(pieces);
    }
    let q = if in_dq { Q::Quoted } else { Q::Exp };
    match pv.vals.into_iter().next() {
        Some(v) => Ok(vec![Piece::Text(v, q)]),
        None => Ok(if in_dq {
            vec![Piece::Text(String::new(), Q::Quoted)]
        } else {
            Vec::new()
        }),
    }
}

/// `${v:off:len}` of a string: `None` when the offset is out of range.
/// `v` from `off` for the length `len` gives (read only when the offset is in range;
/// `negative` is the error for a length that ends before the offset).
fn substring<H: Host + ?Sized>(
    ex: &mut Expander<'_, H>,
    v: &str,
    off: i64,
    len: impl FnOnce(&mut Expander<'_, H>) -> ExpResult<Option<i64>>,
    negative: impl FnOnce() -> ExpandError,
) -> ExpResult<Option<String>> {
    // A single-byte locale slices bytes (see `crate::text::byte_chars`).
    let bytes = ex.host.opts().bytes && !v.is_ascii();
    let viewed = if bytes {
        crate::text::byte_chars(v)
    } else {
        std::borrow::Cow::Borrowed(v)
    };
    let n = viewed.chars().count() as i64;
    let start = if off < 0 { n + off } else { off };
    if start < 0 || start > n {
        return Ok(None);
    }
    let end = match len(ex)? {
        Some(l) if l < 0 => {
            let e = n + l;
            if e < start {
                return Err(negative());
            }
            e
        }
        Some(l) => start.saturating_add(l).min(n),
        None => n,
    };
    let cut = char_range(&viewed, start as usize, end as usize).to_owned();
    Ok(Some(if bytes {
        crate::text::from_byte_chars(cut)
    } else {
        cut
    }))
}

fn word_pieces<H: Host + ?Sized>(
    ex: &mut Expander<'_, H>,
    word: &Word,
    in_dq: bool,
) -> ExpResult<Vec<Piece>> {
    if in_dq {
        let mut pieces = ex.parts(&word.parts, in_dq)?;
        pieces.insert(0, Piece::Text(String::new(), Q::Quoted));
        return Ok(pieces);
    }
    // POSIX interpretation 888, as bash 5.2 has it: when IFS is set, not null and does
    // not start with a space, an unquoted `$@` in the word keeps each element whole,
    // the word is split into fields, and the fields join with spaces, which split the
    // result again only if IFS holds a space. (An assignment joins `$@` with spaces
    // anyway.)
    let rhs = !ex.rhs_at.on
        && !ex.assign_ctx
        && ex
            .host
            .var("IFS")
            .and_then(|v| v.ifs_text())
            .is_some_and(|ifs| !ifs.is_empty() && !ifs.starts_with(' '));
    if rhs {
        ex.rhs_at = super::RhsAt {
            on: true,
            ..Default::default()
        };
    }
    let pieces = ex.parts(&word.parts, false);
    let met = if rhs {
        std::mem::take(&mut ex.rhs_at)
    } else {
        super::RhsAt::default()
    };
    // The word's unquoted text is part of the expansion's result: it is split.
    let mut pieces = pieces?;
    for p in pieces.iter_mut() {
        if let Piece::Text(_, q @ Q::Lit) = p {
            *q = Q::Exp;
        }
    }
    if !rhs || !met.unquoted || met.quoted {
        return Ok(pieces);
    }
    let breaks = ex.ifs().unwrap_or_default().contains(' ');
    let mut out = Vec::new();
    for (i, f) in ex.split(pieces).into_iter().enumerate() {
        if i > 0 {
            out.push(if breaks {
                Piece::Break
            } else {
                Piece::Text(" ".to_owned(), Q::Lit)
            });
        }
        if f.frags.is_empty() {
            out.push(Piece::Text(String::new(), Q::Quoted));
        }
        // Split already: what is left unquoted is still a pattern, never split again.
        out.extend(
            f.frags
                .into_iter()
                .map(|(t, q)| Piece::Text(t, if q == Q::Exp { Q::Lit } else { q })),
        );
    }
    Ok(out)
}

/// Pattern options inside `${...}`: nocasematch applies to `${v/pat/rep}` only
/// (`nocase`), never to `#`, `%` or case changes.
fn match_opts<H: Host + ?Sized>(ex: &mut Expander<'_, H>, nocase: bool) -> MatchOpts {
    let opts = ex.host.opts();
    MatchOpts {
        extglob: opts.extglob,
        nocase: nocase && opts.nocasematch,
        dot_special: false,
        bytes: opts.bytes,
    }
}

/// The characters `from..to` of `s` (`from <= to <= ` its length in characters).
fn char_range(s: &str, from: usize, to: usize) -> &str {
    if s.is_ascii() {
        return &s[from..to];
    }
    let mut at = s.char_indices().map(|(i, _)| i).chain([s.len()]);
    let start = at.nth(from).unwrap_or(s.len());
    let end = if to > from {
        at.nth(to - from - 1).unwrap_or(s.len())
    } else {
        start
    };
    &s[start..end]
}

/// `${v/pat/rep}` and friends. `rep` is in pattern form: with `amp` (bash 5.2's
/// `patsub_replacement`) an unescaped `&` stands for the matched text.
fn replace(
    v: &str,
    p: &Pattern,
    mode: ReplaceMode,
    rep: Option<&str>,
    empty_pat: bool,
    amp: bool,
) -> String {
    let render = |m: &[char]| -> String {
        let Some(rep) = rep else {
            return String::new();
        };
        let mut out = String::new();
        let mut it = rep.chars();
        while let Some(c) = it.next() {
            match c {
                '\\' => match it.next() {
                    Some(d) => out.push(d),
                    None => out.push('\\'),
                },
                '&' if amp => out.extend(m.iter()),
                c => out.push(c),
            }
        }
        out
    };
    if !p.substitutable() {
        return v.to_owned();
    }
    let all = mode == ReplaceMode::All;
    if (all || mode == ReplaceMode::First)
        && let Some(l) = p.exact_text().filter(|l| !l.is_empty())
    {
        // Plain text (the usual `${s//a/b}`) is replaced in the string itself, with
        // one rendering of the replacement.
        let with = render(&crate::text::char_vec(l));
        return if all {
            v.replace(l, &with)
        } else {
            v.replacen(l, &with, 1)
        };
    }
    let cs = crate::text::char_vec(v);
    let lead = mode != ReplaceMode::Prefix;
    if !p.reachable(&cs, lead, mode != ReplaceMode::Suffix) {
        return v.to_owned();
    }
    match mode {
        ReplaceMode::Prefix => {
            if cs.is_empty() && !empty_pat && !p.matches_empty_start() {
                return v.to_owned();
            }
            if let Some(end) = p.match_prefix(&cs, 0, true) {
                if end == 0 && !empty_pat && p.literal().is_some_and(|l| !l.is_empty()) {
                    return v.to_owned();
                }
                let mut out = render(&cs[..end]);
                out.extend(cs[end..].iter());
                return out;
            }
            v.to_owned()
        }
        ReplaceMode::Suffix => {
            if let Some(st) = p.match_suffix(&cs, cs.len(), true) {
                let mut out: String = cs[..st].iter().collect();
                out.push_str(&render(&cs[st..]));
                return out;
            }
            v.to_owned()
        }
        ReplaceMode::First | ReplaceMode::All => {
            if empty_pat {
                return v.to_owned();
            }
            let ms = p.find_all(&cs, mode == ReplaceMode::All);
            if ms.is_empty() {
                return v.to_owned();
            }
            let mut out = String::new();
            let mut last = 0;
            for (s, e) in ms {
                out.extend(cs[last..s].iter());
                out.push_str(&render(&cs[s..e]));
                last = e;
            }
            out.extend(cs[last..].iter());
            out
        }
    }
}

/// `f` applied to `v` as the character set sees it: in a single-byte locale each
/// byte above 0x7f is a character of its own, with no case (see
/// [`crate::text::byte_chars`]).
fn in_locale(bytes: bool, v: &str, f: impl FnOnce(&str) -> String) -> String {
    if bytes && !v.is_ascii() {
        crate::text::from_byte_chars(f(&crate::text::byte_chars(v)))
    } else {
        f(v)
    }
}

fn change_case(v: &str, to: CaseTo, all: bool, p: Option<&Pattern>) -> String {
    let mut out = String::with_capacity(v.len());
    for (i, c) in v.chars().enumerate() {
        let applies = (all || i == 0) && p.is_none_or(|p| p.matches(&c.to_string()));
        if applies {
            match to {
                CaseTo::Upper => out.extend(c.to_uppercase()),
                CaseTo::Lower => out.extend(c.to_lowercase()),
                CaseTo::Toggle if c.is_uppercase() => out.extend(c.to_lowercase()),
                CaseTo::Toggle => out.extend(c.to_uppercase()),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `s` holds a character that does not print (a control character, a raw
/// byte, see [`crate::text::is_printable`]), which bash's quoting writes as `$'...'`.
pub fn needs_ansi_c(s: &str) -> bool {
    s.chars().any(|c| !crate::text::is_printable(c))
}

/// Quotes a value the way `${x@Q}` and `declare -p` do.
pub fn quote(s: &str) -> String {
    if needs_ansi_c(s) {
        return ansi_c_quote(s);
    }
    single_quote(s)
}

/// `'text'` with each `'` as `'\''`, whatever the text holds (bash's
/// `sh_single_quote`); a lone quote is written escaped, not as `''\'''`.
pub fn single_quote(s: &str) -> String {
    if s == "'" {
        return "\\'".to_owned();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// A file or command name as bash puts it in a message (printable_filename): as it
/// is, unless it holds a character that does not print (a `\r` from a script with
/// CRLF line ends), then `$'...'`-quoted.
pub fn printable_name(s: &str) -> std::borrow::Cow<'_, str> {
    if needs_ansi_c(s) {
        ansi_c_quote(s).into()
    } else {
        s.into()
    }
}

/// `$'...'` quoting for values holding control characters.
pub fn ansi_c_quote(s: &str) -> String {
    let mut out = String::from("$'");
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0b' => out.push_str("\\v"),
            '\x0c' => out.push_str("\\f"),
            '\x1b' => out.push_str("\\E"),
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            c => match crate::text::raw_byte(c) {
                Some(b) => out.push_str(&format!("\\{:03o}", b)),
                // Each byte of a character that does not print, in octal.
                None if !crate::text::is_printable(c) => {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        out.push_str(&format!("\\{:03o}", b));
                    }
                }
                None => out.push(c),
            },
        }
    }
    out.push('\'');
    out
}

/// Double-quotes a value for `declare -p` (escaping `"`, `\`, `$`, `` ` ``).
pub fn dquote(s: &str) -> String {
    if needs_ansi_c(s) {
        return ansi_c_quote(s);
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The attribute letters of a variable, in bash's order.
pub fn attr_flags(v: &Var) -> String {
    use super::Attrs as A;
    let mut s = String::new();
    if v.is_array() {
        s.push('a');
    }
    if v.is_assoc() {
        s.push('A');
    }
    let a = v.attrs;
    // bash's order: a A i n r t x c l u.
    for (bit, c) in [
        (A::INTEGER, 'i'),
        (A::NAMEREF, 'n'),
        (A::READONLY, 'r'),
        (A::TRACE, 't'),
        (A::EXPORT, 'x'),
        (A::CAPITALIZE, 'c'),
        (A::LOWER, 'l'),
        (A::UPPER, 'u'),
    ] {
        if a.has(bit) {
            s.push(c);
        }
    }
    s
}

/// `declare -a name=([0]="x" ...)` for an array (the text of `declare -p` and `@A`).
pub fn declare_line(name: &str, v: &Var) -> String {
    let flags = attr_flags(v);
    let flags = if flags.is_empty() {
        "-".to_owned()
    } else {
        flags
    };
    match &v.value {
        Some(Value::Indexed(a)) => {
            let items: Vec<String> = a
                .iter()
                .map(|(k, x)| format!("[{k}]={}", dquote(x)))
                .collect();
            format!("declare -{flags} {name}=({})", items.join(" "))
        }
        Some(Value::Assoc(a)) => {
            let items: Vec<String> = a
                .pairs()
                .iter()
                .map(|(k, x)| format!("[{}]={}", assoc_key(k), dquote(x)))
                .collect();
            if items.is_empty() {
                format!("declare -{flags} {name}=()")
            } else {
                format!("declare -{flags} {name}=({} )", items.join(" "))
            }
        }
        Some(Value::Str(s)) => format!("declare -{flags} {name}={}", dquote(s)),
        None => format!("declare -{flags} {name}"),
    }
}

/// Whether IFS is set and empty.
fn ifs_null<H: Host + ?Sized>(ex: &mut Expander<'_, H>) -> bool {
    ex.host.var("IFS").and_then(|v| v.ifs_text()) == Some(String::new())
}

/// Whether `@A` of a whole list leaves its `declare -a name=` (or `set -- `) out of
/// the quoting, to be split into words: in `"${a[@]@A}"`, and unquoted (`@` or `*`)
/// when IFS is null.
fn bare_declaration<H: Host + ?Sized>(ex: &mut Expander<'_, H>, pv: &PVal, in_dq: bool) -> bool {
    let split = if in_dq { pv.at } else { ifs_null(ex) };
    split && !ex.assign_ctx
}

/// `${x@A}`, `${x@K}` and `${x@k}`: bash 5.2 distinguishes an element (`x`, `x[i]`)
/// from a whole array (`x[@]`, `x[*]`) and from the positional parameters.
fn transform_declared<H: Host + ?Sized>(
    ex: &mut Expander<'_, H>,
    pe: &ParamExp,
    pv: &mut PVal,
    t: char,
    in_dq: bool,
) {
    let n = match (&pv.target, &pe.param) {
        (Some(t), _) => t.split('[').next().unwrap_or_default().to_owned(),
        (None, Param::Name(n)) => n.clone(),
        (None, Param::Special('@' | '*')) => {
            // The positional parameters: `set -- 'a' 'b'` for `@A`, else quoted words.
            let mut words: Vec<String> = pv.vals.iter().map(|v| quote(v)).collect();
            if t == 'A' && !words.is_empty() {
                if bare_declaration(ex, pv, in_dq) {
                    pv.bare_prefix = Some("set -- ".to_owned());
                } else {
                    words[0].insert_str(0, "set -- ");
                }
            }
            pv.vals = words;
            return;
        }
        _ => {
            // `$1@A` is nothing; `$1@K` quotes.
            pv.vals = if t == 'A' {
                Vec::new()
            } else {
                pv.vals.iter().map(|v| quote(v)).collect()
            };
            return;
        }
    };
    // The name a nameref leads to is the one `@A` prints.
    let mut name = n;
    for _ in 0..16 {
        match ex.host.nameref_target(&name) {
            Some(next) if !next.is_empty() => name = next,
            _ => break,
        }
    }
    let name = name.split('[').next().unwrap_or_default().to_owned();
    let Some(var) = ex.host.var(&name) else {
        pv.vals.clear();
        return;
    };
    let whole = pv.is_list() && (var.is_array() || var.is_assoc());
    if !whole {
        // One element (or a scalar): its value quoted, or for `@A` the assignment
        // that recreates it.
        let val = pv.vals.first().filter(|_| pv.set).cloned();
        pv.vals = match (t, val) {
            ('A', v) => {
                let flags = attr_flags(&var);
                match (flags.is_empty(), v) {
                    (true, Some(v)) => vec![format!("{name}={}", quote(&v))],
                    (false, Some(v)) => vec![format!("declare -{flags} {name}={}", quote(&v))],
                    (false, None) => vec![format!("declare -{flags} {name}")],
                    (true, None) => Vec::new(),
                }
            }
            (_, v) => v.iter().map(|v| quote(v)).collect(),
        };
        pv.at = false;
        pv.star = false;
        return;
    }
    match t {
        'A' => {
            let line = declare_line(&name, &var);
            pv.vals = if bare_declaration(ex, pv, in_dq) {
                // In `"${a[@]@A}"` bash quotes only the value: `declare -a a=` is
                // split into words.
                let (prefix, value) = match line.find('=') {
                    Some(eq) => line.split_at(eq + 1),
                    None => (line.as_str(), ""),
                };
                pv.bare_prefix = Some(prefix.to_owned());
                vec![value.to_owned()]
            } else {
                vec![line]
            };
        }
        'K' => {
            // One word: keys and values as `declare -p` writes them.
            let mut out = String::new();
            match &var.value {
                Some(Value::Indexed(a)) => {
                    let items: Vec<String> = a
                        .iter()
                        .map(|(k, x)| format!("{k} {}", dquote(x)))
                        .collect();
                    out = items.join(" ");
                }
                Some(Value::Assoc(a)) => {
                    for (k, x) in a.pairs().iter() {
                        out.push_str(&format!("{} {} ", assoc_key(k), dquote(x)));
                    }
                }
                _ => {}
            }
            pv.vals = if out.is_empty() {
                Vec::new()
            } else {
                vec![out]
            };
            pv.at = false;
        }
        _ => {
            // `@k`: key and value as separate words, unquoted.
            let keys = var.keys();
            let vals = var.values();
            pv.vals = keys
                .into_iter()
                .zip(vals)
                .flat_map(|(k, v)| [k, v])
                .collect();
        }
    }
}

/// An associative key as `declare -p` writes it: double-quoted when bash's
/// `sh_contains_shell_metas` finds a metacharacter (`~` only at the start or after `=`
/// or `:`, `#` only at the start), or when it is `@` or `*` alone; `$'...'` when it holds
/// a character that does not print, as values are.
fn assoc_key(k: &str) -> String {
    if needs_ansi_c(k) {
        return ansi_c_quote(k);
    }
    let mut prev: Option<char> = None;
    let meta = k.chars().any(|c| {
        let m = match c {
            '~' => matches!(prev, None | Some('=' | ':')),
            '#' => prev.is_none(),
            _ => " \t\n\"'\\$`[]|&;()<>*?!{}^".contains(c),
        };
        prev = Some(c);
        m
    });
    if meta || k.is_empty() || k == "@" || k == "*" {
        dquote(k)
    } else {
        k.to_owned()
    }
}
