//! Variable scopes: the global table and one frame per function call (bash's dynamic
//! scoping), with namerefs, attributes and bash's assignment rules.

use std::borrow::Cow;

use crate::expand::{Assoc, Attrs, Value, Var};

/// One frame's table. Variable lookups dominate loops, so the hasher is foldhash
/// rather than SipHash (measured: about a fifth of a tight arithmetic loop went to
/// hashing names).
type Frame = imbl::GenericHashMap<
    String,
    Var,
    foldhash::fast::RandomState,
    imbl::shared_ptr::DefaultSharedPtr,
>;

/// The variable tables, innermost last. Cloning is O(frames).
#[derive(Clone, Debug, Default)]
pub struct Scopes {
    frames: Vec<Frame>,
}

/// Why an assignment failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AssignError {
    Readonly(String),
    /// Other failures carry bash's message.
    Message(String),
}

impl Scopes {
    pub fn new() -> Scopes {
        Scopes {
            frames: vec![Frame::default()],
        }
    }

    pub fn depth(&self) -> usize {
        self.frames.len() - 1
    }

    pub fn push_frame(&mut self) {
        self.frames.push(Frame::default());
    }

    pub fn pop_frame(&mut self) {
        if self.frames.len() > 1 {
            self.frames.pop();
        }
    }

    /// Follows namerefs from `name` to the variable name it finally refers to.
    pub fn resolve_name(&self, name: &str) -> String {
        self.resolve_name_checked(name)
            .unwrap_or_else(|_| name.to_owned())
    }

    /// Like [`Scopes::resolve_name`], but a chain of namerefs that comes back to itself
    /// is an error (bash refuses to assign through it).
    pub fn resolve_name_checked(&self, name: &str) -> Result<String, String> {
        self.resolve_name_cow(name).map(Cow::into_owned)
    }

    /// [`Scopes::resolve_name_checked`] without allocating when `name` is not a
    /// nameref (the common case, on every assignment).
    pub fn resolve_name_cow<'a>(&self, name: &'a str) -> Result<Cow<'a, str>, String> {
        match self.get_raw(name) {
            Some(v) if v.attrs.has(Attrs::NAMEREF) => {}
            _ => return Ok(Cow::Borrowed(name)),
        }
        let mut cur = name.to_owned();
        let mut seen = vec![name.to_owned()];
        loop {
            match self.get_raw(&cur) {
                Some(v) if v.attrs.has(Attrs::NAMEREF) => match &v.value {
                    Some(Value::Str(t)) if valid_ref(t) => {
                        if seen.contains(t) {
                            return Err(format!("warning: {name}: circular name reference"));
                        }
                        cur = t.clone();
                        seen.push(cur.clone());
                    }
                    _ => return Ok(Cow::Owned(cur)),
                },
                _ => return Ok(Cow::Owned(cur)),
            }
        }
    }

    /// The variable without nameref resolution.
    pub fn get_raw(&self, name: &str) -> Option<&Var> {
        self.frames.iter().rev().find_map(|f| f.get(name))
    }

    /// The variable, resolving namerefs.
    pub fn get(&self, name: &str) -> Option<&Var> {
        let v = self.get_raw(name)?;
        if v.attrs.has(Attrs::NAMEREF) && v.as_scalar().is_some_and(|t| valid_ref(&t)) {
            let target = self.resolve_name(name);
            if target != name {
                // `ref=a[1]` style targets name an element.
                if let Some(open) = target.find('[') {
                    return self.get_raw(&target[..open]);
                }
                return self.get_raw(&target);
            }
        }
        Some(v)
    }

    /// Index of the frame that holds `name`, if any.
    fn frame_of(&self, name: &str) -> Option<usize> {
        (0..self.frames.len())
            .rev()
            .find(|&i| self.frames[i].contains_key(name))
    }

    /// Mutable access to the variable `name` (after nameref resolution), creating it
    /// (unset) in the global frame, or in the current frame if `local`.
    pub fn entry(&mut self, name: &str, local: bool) -> &mut Var {
        let idx = if local {
            self.frames.len() - 1
        } else {
            self.frame_of(name).unwrap_or(0)
        };
        self.frames[idx].entry(name.to_owned()).or_default()
    }

    /// Calls `f` on the variable as [`Scopes::entry`] finds or creates it, without
    /// copying the name when the variable exists (the common case in loops).
    pub fn with_entry<R>(&mut self, name: &str, local: bool, f: impl FnOnce(&mut Var) -> R) -> R {
        let idx = if local {
            self.frames.len() - 1
        } else {
            self.frame_of(name).unwrap_or(0)
        };
        let frame = &mut self.frames[idx];
        if let Some(v) = frame.get_mut(name) {
            return f(v);
        }
        f(frame.entry(name.to_owned()).or_default())
    }

    /// Whether the variable exists in the current (innermost function) frame.
    pub fn is_local_here(&self, name: &str) -> bool {
        self.frames.len() > 1 && self.frames.last().is_some_and(|f| f.contains_key(name))
    }

    /// Removes `name` from the innermost frame that has it. Returns false if readonly.
    pub fn unset(&mut self, name: &str) -> Result<(), AssignError> {
        let Some(idx) = self.frame_of(name) else {
            return Ok(());
        };
        if let Some(v) = self.frames[idx].get(name)
            && v.attrs.has(Attrs::READONLY)
        {
            return Err(AssignError::Readonly(name.to_owned()));
        }
        if idx > 0 && idx == self.frames.len() - 1 {
            // Unsetting a local leaves it declared-but-unset in this scope (bash keeps
            // the local shadowing the global).
            if let Some(v) = self.frames[idx].get_mut(name) {
                v.value = None;
                v.attrs = Attrs::default();
            }
        } else {
            self.frames[idx].remove(name);
        }
        Ok(())
    }

    /// Every visible variable, sorted by name.
    pub fn all(&self) -> Vec<(String, Var)> {
        let mut m: std::collections::BTreeMap<String, Var> = std::collections::BTreeMap::new();
        for f in &self.frames {
            for (k, v) in f.iter() {
                m.insert(k.clone(), v.clone());
            }
        }
        m.into_iter().collect()
    }

    /// Exported variables with a scalar value.
    pub fn exported(&self) -> std::collections::BTreeMap<String, String> {
        // Outer frames first so inner ones shadow them; only exported values are
        // copied (this runs for every utility a script calls).
        let mut m = std::collections::BTreeMap::new();
        for f in &self.frames {
            for (k, v) in f.iter() {
                match v.attrs.has(Attrs::EXPORT).then(|| v.as_scalar()).flatten() {
                    Some(s) => {
                        m.insert(k.clone(), s);
                    }
                    None => {
                        m.remove(k);
                    }
                }
            }
        }
        m
    }
}

/// Whether a nameref's value names a variable (`name` or `name[sub]`); other values
/// leave the nameref behaving like a plain variable.
pub fn valid_ref(t: &str) -> bool {
    let base = match t.find('[') {
        Some(i) if t.ends_with(']') => &t[..i],
        _ => t,
    };
    crate::syntax::is_name(base)
}

/// Applies case attributes to a value being assigned.
pub fn apply_case(attrs: Attrs, s: String) -> String {
    if attrs.has(Attrs::UPPER) {
        s.to_uppercase()
    } else if attrs.has(Attrs::LOWER) {
        s.to_lowercase()
    } else {
        s
    }
}

/// Sets element `key` of an indexed array (converting a scalar to an array).
pub fn set_indexed(var: &mut Var, idx: i64, value: String) {
    match &mut var.value {
        Some(Value::Indexed(a)) => {
            a.insert(idx, value);
        }
        Some(Value::Str(s)) => {
            let mut a = imbl::OrdMap::new();
            a.insert(0, std::mem::take(s));
            a.insert(idx, value);
            var.value = Some(Value::Indexed(a));
        }
        Some(Value::Assoc(a)) => {
            a.insert(idx.to_string(), value);
        }
        None => {
            let mut a = imbl::OrdMap::new();
            a.insert(idx, value);
            var.value = Some(Value::Indexed(a));
        }
    }
}

/// Sets key `key` of an associative array.
pub fn set_assoc(var: &mut Var, key: String, value: String) {
    match &mut var.value {
        Some(Value::Assoc(a)) => a.insert(key, value),
        _ => {
            let mut a = Assoc::default();
            a.insert(key, value);
            var.value = Some(Value::Assoc(a));
        }
    }
}
