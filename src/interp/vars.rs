//! Variable scopes: the global table and one frame per function call (bash's dynamic
//! scoping), with namerefs, attributes and bash's assignment rules.

use std::borrow::Cow;

use crate::expand::{Assoc, Attrs, Value, Var};

/// The hash map of a frame with many variables. Variable lookups dominate loops, so
/// the hasher is foldhash rather than SipHash (measured: about a fifth of a tight
/// arithmetic loop went to hashing names).
type BigTable = imbl::GenericHashMap<
    String,
    Var,
    foldhash::fast::RandomState,
    imbl::shared_ptr::DefaultSharedPtr,
>;

/// How many variables a frame keeps in a plain list before it takes a hash map.
const SMALL_TABLE: usize = 8;

/// One frame's variables: a short list while there are few (a function's locals, a
/// command's temporary bindings), a persistent hash map beyond (the globals). A
/// function call allocates no hash-map node (measured: a new map's first insert
/// was most of the cost of a `local`), and a subshell's copy still shares the globals.
#[derive(Clone, Debug)]
enum Table {
    Small(Vec<(String, Var)>),
    Big(BigTable),
}

impl Default for Table {
    fn default() -> Table {
        Table::Small(Vec::new())
    }
}

impl Table {
    fn get(&self, name: &str) -> Option<&Var> {
        match self {
            Table::Small(list) => list.iter().find(|(k, _)| k == name).map(|(_, v)| v),
            Table::Big(map) => map.get(name),
        }
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut Var> {
        match self {
            Table::Small(list) => list.iter_mut().find(|(k, _)| k == name).map(|(_, v)| v),
            Table::Big(map) => map.get_mut(name),
        }
    }

    fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Moves a full list into a hash map, when `name` would be one more entry.
    fn make_room(&mut self, name: &str) {
        if let Table::Small(list) = self
            && list.len() >= SMALL_TABLE
            && !list.iter().any(|(k, _)| k == name)
        {
            *self = Table::Big(std::mem::take(list).into_iter().collect());
        }
    }

    /// The variable `name`, created unset if missing.
    fn entry(&mut self, name: &str) -> &mut Var {
        self.make_room(name);
        match self {
            Table::Small(list) => {
                let at = match list.iter().position(|(k, _)| k == name) {
                    Some(at) => at,
                    None => {
                        list.push((name.to_owned(), Var::default()));
                        list.len() - 1
                    }
                };
                &mut list[at].1
            }
            Table::Big(map) => map.entry(name.to_owned()).or_default(),
        }
    }

    fn remove(&mut self, name: &str) {
        match self {
            Table::Small(list) => list.retain(|(k, _)| k != name),
            Table::Big(map) => {
                map.remove(name);
            }
        }
    }

    fn iter(&self) -> impl Iterator<Item = (&String, &Var)> {
        let (small, big) = match self {
            Table::Small(list) => (Some(list.iter().map(|(k, v)| (k, v))), None),
            Table::Big(map) => (None, Some(map.iter())),
        };
        small.into_iter().flatten().chain(big.into_iter().flatten())
    }
}

/// The variable tables, innermost last. Cloning is O(frames).
#[derive(Clone, Debug, Default)]
pub struct Scopes {
    frames: Vec<Frame>,
    /// What the locale variables made of the character set, kept between their
    /// changes (every expansion asks; see [`Scopes::locale_cache`]).
    locale: LocaleCache,
}

/// Frames [`Scopes::hide_locals`] set aside.
pub struct HiddenFrames(Vec<Frame>);

/// The names whose values decide the character set.
const LOCALE_VARS: [&str; 3] = ["LC_ALL", "LC_CTYPE", "LANG"];

/// A remembered answer about the locale variables: unknown (0), or 1 + the answer.
#[derive(Debug, Default)]
struct LocaleCache(std::sync::atomic::AtomicU8);

impl Clone for LocaleCache {
    fn clone(&self) -> LocaleCache {
        LocaleCache(std::sync::atomic::AtomicU8::new(
            self.0.load(std::sync::atomic::Ordering::Relaxed),
        ))
    }
}

/// What pushed a frame. bash keeps temporary bindings (`v=x cmd`) in scopes of their own:
/// a function call's bindings become part of the function's frame, those of `eval`,
/// `source`, `unset` and `mapfile` form a scope the builtin's commands see and can
/// `local` into, and any other command's are only consulted first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FrameKind {
    #[default]
    Global,
    Function,
    /// The bindings of `eval`/`source`/`unset`/`mapfile`.
    BuiltinEnv,
    /// The bindings of any other command.
    Temp,
}

#[derive(Clone, Debug, Default)]
struct Frame {
    kind: FrameKind,
    vars: Table,
    /// One bit (see [`name_bit`]) for every name ever put in `vars`: a lookup skips the
    /// frames whose mask lacks its bit, so reading a global from deep recursion does not
    /// hash the name once per frame.
    mask: u64,
    /// Whether every variable of this frame is local: a function's own frame (not one
    /// that took over a call's temporary bindings), where `locals` is not kept.
    all_local: bool,
    /// Names made local (by `local`/`declare`) in this frame; the others are temporary
    /// bindings. Not kept when `all_local`.
    locals: imbl::GenericHashSet<
        String,
        foldhash::fast::RandomState,
        imbl::shared_ptr::DefaultSharedPtr,
    >,
    /// Temporary bindings that `export`/`readonly` asked to outlive the command.
    propagate: Vec<String>,
    /// In a function's frame, the names of the call's temporary bindings it took
    /// over: bash keeps them temporary (exporting one makes it outlive the call)
    /// even after `local` claims them.
    adopted: Vec<String>,
    /// Set when a special builtin in POSIX mode keeps these bindings: they are then
    /// assigned like plain assignments, and go no further (bash's push_builtin_var).
    kept: bool,
}

impl Frame {
    fn new(kind: FrameKind) -> Frame {
        Frame {
            kind,
            ..Frame::default()
        }
    }
    /// Whether `vars` may hold the name with bit `bit`.
    fn may_hold(&self, bit: u64) -> bool {
        self.mask & bit != 0
    }
    fn insert(&mut self, name: &str, v: Var) {
        self.mask |= name_bit(name);
        *self.vars.entry(name) = v;
    }
    fn entry(&mut self, name: &str) -> &mut Var {
        self.mask |= name_bit(name);
        self.vars.entry(name)
    }
    /// Whether `name` was made local in this frame.
    fn is_local(&self, name: &str) -> bool {
        self.all_local || self.locals.contains(name)
    }
}

/// A name's bit in a frame's mask: a cheap hash of its bytes, one of 64.
fn name_bit(name: &str) -> u64 {
    let h = name
        .bytes()
        .fold(name.len() as u32, |h, b| h.wrapping_mul(31) ^ u32::from(b));
    1 << (h.wrapping_mul(0x9e37_79b9) >> 26)
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
            frames: vec![Frame::new(FrameKind::Global)],
            locale: LocaleCache::default(),
        }
    }

    /// The answer `compute` gives from `LC_ALL`, `LC_CTYPE` and `LANG`, computed again
    /// only after one of them may have changed (assigned, unset, bound for a command,
    /// or a frame holding one left).
    pub fn locale_cache(&self, compute: impl FnOnce(&Scopes) -> bool) -> bool {
        use std::sync::atomic::Ordering;
        match self.locale.0.load(Ordering::Relaxed) {
            1 => false,
            2 => true,
            _ => {
                let v = compute(self);
                self.locale.0.store(1 + u8::from(v), Ordering::Relaxed);
                v
            }
        }
    }

    /// Forgets the locale answer when `name` is one of the variables it comes from.
    fn touch(&self, name: &str) {
        if LOCALE_VARS.contains(&name) {
            self.forget_locale();
        }
    }

    fn forget_locale(&self) {
        self.locale.0.store(0, std::sync::atomic::Ordering::Relaxed);
    }

    /// Enters a function: its frame takes over the temporary bindings of the call when
    /// `adopt_bindings` (the top frame was pushed for this very command).
    pub fn push_function_frame(&mut self, adopt_bindings: bool) {
        if adopt_bindings
            && let Some(top) = self.frames.last_mut()
            && top.kind == FrameKind::Temp
        {
            top.kind = FrameKind::Function;
            top.adopted = top.vars.iter().map(|(k, _)| k.clone()).collect();
            return;
        }
        let mut frame = Frame::new(FrameKind::Function);
        frame.all_local = true;
        self.frames.push(frame);
    }

    /// Sets aside every frame but the global one (see [`Scopes::restore`]), for
    /// `declare -g`, which works on the global variable whatever shadows it.
    pub fn hide_locals(&mut self) -> HiddenFrames {
        self.forget_locale();
        HiddenFrames(self.frames.split_off(1.min(self.frames.len())))
    }

    /// Sets aside the frames opened since there were `count` (see
    /// [`Scopes::restore`]): a command's bindings, while it is traced.
    pub fn hide_from(&mut self, count: usize) -> HiddenFrames {
        self.forget_locale();
        HiddenFrames(self.frames.split_off(count.clamp(1, self.frames.len())))
    }

    /// Puts back the frames [`Scopes::hide_locals`] or [`Scopes::hide_from`] set aside.
    pub fn restore(&mut self, hidden: HiddenFrames) {
        self.forget_locale();
        self.frames.extend(hidden.0);
    }

    /// How many frames are open (see [`Scopes::truncate`]).
    pub fn frame_count(&self) -> usize {
        self.frames.len()
    }

    /// Leaves frames until `count` remain.
    pub fn truncate(&mut self, count: usize) {
        while self.frames.len() > count.max(1) {
            self.pop_frame();
        }
    }

    /// Opens a scope for a command's temporary bindings.
    pub fn push_bindings(&mut self, kind: FrameKind) {
        self.frames.push(Frame::new(kind));
    }

    /// Gives `name` a binding of its own in the top frame: a new variable, exported
    /// and with no other attribute (bash's temporary environment does not inherit
    /// `-i`, `-u`, arrays or namerefs from what it shadows).
    pub fn bind_here(&mut self, name: &str) {
        self.touch(name);
        let mut v = Var::default();
        v.attrs.set(Attrs::EXPORT, true);
        if let Some(top) = self.frames.last_mut() {
            top.insert(name, v);
        }
    }

    /// Leaves the innermost frame. Bindings marked to propagate are assigned in the
    /// scope that remains.
    pub fn pop_frame(&mut self) {
        if self.frames.len() <= 1 {
            return;
        }
        let Some(top) = self.frames.pop() else {
            return;
        };
        if LOCALE_VARS
            .iter()
            .any(|n| top.may_hold(name_bit(n)) && top.vars.contains_key(n))
        {
            self.forget_locale();
        }
        for name in top.propagate {
            let Some(v) = top.vars.get(&name) else {
                continue;
            };
            // The bindings of `eval`/`source` go on only while exported (bash's
            // push_exported_var).
            if top.kind == FrameKind::BuiltinEnv && !top.kept && !v.attrs.has(Attrs::EXPORT) {
                continue;
            }
            // The attributes join those of the variable it lands on.
            let slot = self.entry(&name, false);
            slot.value = v.value.clone();
            slot.attrs.0 |= v.attrs.0;
            // Landing on a binding of an enclosing scope, it goes on from there when
            // that scope ends.
            if let Some(j) = self.frame_of(&name).filter(|_| !top.kept) {
                self.mark_carrier(j, &name);
            }
        }
    }

    /// Marks the running command's binding of `name` to outlive it (what a special
    /// builtin in POSIX mode leaves of its bindings).
    pub fn keep_binding(&mut self, name: &str) {
        if let Some(i) = self.frame_of(name)
            && matches!(self.frames[i].kind, FrameKind::Temp | FrameKind::BuiltinEnv)
        {
            self.frames[i].kept |= self.frames[i].kind == FrameKind::BuiltinEnv;
            self.mark_propagate(i, name);
        }
    }

    /// `export`/`readonly` of `name` (bash's set_var_attribute). The command's own
    /// binding (`v=1 export v`) is copied at once onto the variable beneath it, and
    /// marked to outlive the command only in POSIX mode. Otherwise the binding of an
    /// `eval`/`source` run inside a function (at the top level such a binding has
    /// no scope to go to), or one a function call took over, outlives its scope.
    pub fn propagate(&mut self, name: &str, posix: bool) {
        self.propagate_as(name, posix, false);
    }

    /// `declare -x`/`declare -r` of a name (bash's declare_internal): the command's
    /// own binding is copied onto the variable beneath it and outlives the command;
    /// any other temporary binding outlives its scope, at the top level too.
    pub fn propagate_declared(&mut self, name: &str) {
        self.propagate_as(name, true, true);
    }

    /// [`Scopes::propagate`] (`keep` the command's own binding when `posix`) and
    /// [`Scopes::propagate_declared`] (`declared`).
    fn propagate_as(&mut self, name: &str, keep: bool, declared: bool) {
        if let Some(i) = self.command_binding_frame(name) {
            let j = self.bind_beneath(i, name);
            if keep {
                self.mark_propagate(i, name);
                self.mark_carrier(j, name);
            }
            return;
        }
        let Some(i) = self.frame_of(name) else {
            return;
        };
        let go = match self.frames[i].kind {
            FrameKind::Temp => true,
            FrameKind::BuiltinEnv => {
                declared
                    || self.frames[..i]
                        .iter()
                        .any(|f| f.kind == FrameKind::Function)
            }
            FrameKind::Function => self.frames[i].adopted.iter().any(|n| n == name),
            FrameKind::Global => false,
        };
        if go {
            self.mark_propagate(i, name);
        }
    }

    /// Gives the variable beneath frame `i`'s binding of `name` (the innermost one
    /// below, else a global) the binding's value, joining their attributes (bash's
    /// bind_variable). Returns the frame it landed in.
    fn bind_beneath(&mut self, i: usize, name: &str) -> usize {
        let Some(v) = self.frames.get(i).and_then(|f| f.vars.get(name)).cloned() else {
            return 0;
        };
        self.touch(name);
        let bit = name_bit(name);
        let j = (0..i.min(self.frames.len()))
            .rev()
            .find(|&j| self.frames[j].may_hold(bit) && self.frames[j].vars.contains_key(name))
            .unwrap_or(0);
        let slot = self.frames[j].entry(name);
        slot.value = v.value;
        slot.attrs.0 |= v.attrs.0;
        j
    }

    /// A binding propagated onto frame `j`'s variable goes on from there when that
    /// scope ends, if that variable is itself temporary (bash's push_temp_var).
    fn mark_carrier(&mut self, j: usize, name: &str) {
        if j == 0 {
            return;
        }
        let frame = &self.frames[j];
        let go = match frame.kind {
            FrameKind::Temp | FrameKind::BuiltinEnv => true,
            // Not onto one `local` has claimed: that stays the function's.
            FrameKind::Function => {
                frame.adopted.iter().any(|n| n == name) && !frame.locals.contains(name)
            }
            FrameKind::Global => false,
        };
        if go {
            self.mark_propagate(j, name);
        }
    }

    fn mark_propagate(&mut self, i: usize, name: &str) {
        if !self.frames[i].propagate.iter().any(|n| n == name) {
            self.frames[i].propagate.push(name.to_owned());
        }
    }

    /// The index of the top frame when it holds the running command's own temporary
    /// binding of `name` (bash's temporary_env).
    pub fn command_binding_frame(&self, name: &str) -> Option<usize> {
        let top = self.frames.last()?;
        (top.kind == FrameKind::Temp && top.may_hold(name_bit(name)) && top.vars.contains_key(name))
            .then(|| self.frames.len() - 1)
    }

    /// Removes the command's temporary bindings of `name` above the running
    /// function's frame: a local just made from one takes its place (bash's
    /// make_local_variable copies the binding's value and export into the local, which
    /// the rest of the declaration then assigns).
    pub fn drop_command_binding(&mut self, name: &str) {
        let f = self.function_frame();
        for frame in self.frames[f + 1..].iter_mut() {
            if frame.kind == FrameKind::Temp {
                frame.vars.remove(name);
            }
        }
    }

    /// Index of the innermost function frame (0, the global frame, outside functions).
    fn function_frame(&self) -> usize {
        (0..self.frames.len())
            .rev()
            .find(|&i| self.frames[i].kind == FrameKind::Function)
            .unwrap_or(0)
    }

    /// The frame of an existing variable that `local name` takes over: one in the
    /// current function's frame, or a binding of an `eval`/`source` run inside it.
    fn local_slot(&self, name: &str) -> Option<usize> {
        let f = self.function_frame();
        let bit = name_bit(name);
        (f..self.frames.len())
            .rev()
            .find(|&i| self.frames[i].may_hold(bit) && self.frames[i].vars.contains_key(name))
            .filter(|&i| self.frames[i].kind != FrameKind::Temp)
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
        if let [global] = self.frames.as_slice() {
            return global.vars.get(name);
        }
        let bit = name_bit(name);
        self.frames
            .iter()
            .rev()
            .filter(|f| f.may_hold(bit))
            .find_map(|f| f.vars.get(name))
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
        if let [global] = self.frames.as_slice() {
            return global.vars.contains_key(name).then_some(0);
        }
        let bit = name_bit(name);
        (0..self.frames.len())
            .rev()
            .find(|&i| self.frames[i].may_hold(bit) && self.frames[i].vars.contains_key(name))
    }

    /// Mutable access to the variable `name` (after nameref resolution), creating it
    /// (unset) in the global frame, or, if `local`, in the current function's scope.
    pub fn entry(&mut self, name: &str, local: bool) -> &mut Var {
        self.touch(name);
        let idx = if local {
            let i = self
                .local_slot(name)
                .unwrap_or_else(|| self.function_frame());
            if i > 0 && !self.frames[i].is_local(name) {
                self.frames[i].locals.insert(name.to_owned());
            }
            i
        } else {
            self.frame_of(name).unwrap_or(0)
        };
        self.frames[idx].entry(name)
    }

    /// Whether the visible `name` is a temporary binding (`name=x cmd`), not a global
    /// or a local.
    pub fn is_temp_binding(&self, name: &str) -> bool {
        self.frame_of(name)
            .is_some_and(|i| match self.frames[i].kind {
                FrameKind::Global => false,
                FrameKind::Function => !self.frames[i].is_local(name),
                FrameKind::Temp | FrameKind::BuiltinEnv => true,
            })
    }

    /// Calls `f` on the variable as [`Scopes::entry`] finds or creates it, without
    /// copying the name when the variable exists (the common case in loops).
    pub fn with_entry<R>(&mut self, name: &str, local: bool, f: impl FnOnce(&mut Var) -> R) -> R {
        self.touch(name);
        if !local {
            // One lookup per frame that may hold the name (not a search, then a
            // second lookup to borrow it).
            let bit = name_bit(name);
            for frame in self.frames.iter_mut().rev() {
                if frame.may_hold(bit)
                    && let Some(v) = frame.vars.get_mut(name)
                {
                    return f(v);
                }
            }
        }
        f(self.entry(name, local))
    }

    /// Whether the visible `name` is a global variable.
    pub fn is_global(&self, name: &str) -> bool {
        self.frame_of(name) == Some(0)
    }

    /// Whether `local name` would take over an existing variable of this function.
    pub fn is_local_here(&self, name: &str) -> bool {
        self.function_frame() > 0 && self.local_slot(name).is_some()
    }

    /// Removes `name` from the innermost frame that has it. A local of the running
    /// function stays declared but unset (still shadowing); anything else is removed,
    /// uncovering the next binding down. Fails if readonly.
    pub fn unset(&mut self, name: &str) -> Result<(), AssignError> {
        self.touch(name);
        let Some(idx) = self.frame_of(name) else {
            return Ok(());
        };
        if let Some(v) = self.frames[idx].vars.get(name)
            && v.attrs.has(Attrs::READONLY)
        {
            return Err(AssignError::Readonly(name.to_owned()));
        }
        let f = self.function_frame();
        if f > 0 && idx >= f && self.frames[idx].is_local(name) {
            if let Some(v) = self.frames[idx].vars.get_mut(name) {
                v.value = None;
                v.attrs = Attrs::default();
            }
        } else {
            self.frames[idx].vars.remove(name);
        }
        Ok(())
    }

    /// Bytes the values of every variable hold (names, keys and elements), hidden
    /// ones included: what the memory budget counts for the shell's variables.
    pub fn held_bytes(&self) -> u64 {
        let mut n = 0u64;
        for f in &self.frames {
            for (k, v) in f.vars.iter() {
                let value = match &v.value {
                    Some(crate::expand::Value::Str(s)) => s.len(),
                    Some(crate::expand::Value::Indexed(a)) => a
                        .values()
                        .map(|e| e.capacity() + crate::expand::INDEXED_ELEMENT_OVERHEAD)
                        .sum(),
                    Some(crate::expand::Value::Assoc(a)) => a.held_bytes(),
                    None => 0,
                };
                n = n.saturating_add((k.len() + value) as u64);
            }
        }
        n
    }

    /// Every visible variable, sorted by name.
    pub fn all(&self) -> Vec<(String, Var)> {
        let mut m: std::collections::BTreeMap<String, Var> = std::collections::BTreeMap::new();
        for f in &self.frames {
            for (k, v) in f.vars.iter() {
                m.insert(k.clone(), v.clone());
            }
        }
        m.into_iter().collect()
    }

    /// The running function's local variables, sorted by name: those its own frame
    /// declared and those `local` put into the scope of an `eval`/`source` run inside
    /// it; not the temporary bindings of the call or of a command.
    pub fn locals(&self) -> Vec<(String, Var)> {
        let f = self.function_frame();
        if f == 0 {
            return Vec::new();
        }
        let mut m: std::collections::BTreeMap<String, Var> = std::collections::BTreeMap::new();
        for frame in &self.frames[f..] {
            if frame.kind == FrameKind::Temp {
                continue;
            }
            for (k, v) in frame.vars.iter() {
                if frame.is_local(k) {
                    m.insert(k.clone(), v.clone());
                }
            }
        }
        m.into_iter().collect()
    }

    /// Every visible variable with a string value (not arrays), by name: what an
    /// embedder reads back after a run. Only the strings are copied.
    pub fn scalars(&self) -> std::collections::BTreeMap<String, String> {
        let mut seen: std::collections::BTreeMap<&str, Option<&str>> =
            std::collections::BTreeMap::new();
        for f in &self.frames {
            for (k, v) in f.vars.iter() {
                let s = match &v.value {
                    Some(crate::expand::Value::Str(s)) => Some(s.as_str()),
                    _ => None,
                };
                seen.insert(k.as_str(), s);
            }
        }
        seen.into_iter()
            .filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned())))
            .collect()
    }

    /// Exported variables with a scalar value.
    pub fn exported(&self) -> std::collections::BTreeMap<String, String> {
        // Outer frames first so inner ones shadow them; only exported values are
        // copied (this runs for every utility a script calls).
        let mut m = std::collections::BTreeMap::new();
        for f in &self.frames {
            for (k, v) in f.vars.iter() {
                // An array is never put in the environment, exported or not.
                // The innermost exported variable of a name is the one passed on
                // (bash's visible_and_exported): one not exported, or with no value,
                // lets an outer one show through, an exported array hides it.
                match (&v.value, v.attrs.has(Attrs::EXPORT)) {
                    (Some(crate::expand::Value::Str(s)), true) => {
                        m.insert(k.clone(), s.clone());
                    }
                    (None, _) | (_, false) => {}
                    (Some(_), true) => {
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
pub fn set_indexed(var: &mut Var, idx: i64, mut value: String) {
    // A value built by pushing may hold twice its length; an array keeps many.
    value.shrink_to_fit();
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
pub fn set_assoc(var: &mut Var, key: String, mut value: String) {
    value.shrink_to_fit();
    match &mut var.value {
        Some(Value::Assoc(a)) => a.insert(key, value),
        _ => {
            let mut a = Assoc::default();
            a.insert(key, value);
            var.value = Some(Value::Assoc(a));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame's list turns into a hash map past [`SMALL_TABLE`] variables and keeps
    /// every one of them, locals and temporary bindings told apart as before.
    #[test]
    fn frames_keep_their_variables_past_the_small_list() {
        let mut sc = Scopes::new();
        sc.entry("g", false).value = Some(Value::Str("global".into()));
        sc.push_bindings(FrameKind::Temp);
        sc.bind_here("t");
        sc.push_function_frame(true);
        let n = SMALL_TABLE * 3;
        for i in 0..n {
            sc.entry(&format!("v{i}"), true).value = Some(Value::Str(i.to_string()));
        }
        for i in 0..n {
            let v = sc.get(&format!("v{i}")).and_then(Var::as_scalar);
            assert_eq!(v, Some(i.to_string()));
            assert!(!sc.is_temp_binding(&format!("v{i}")));
        }
        assert!(sc.is_temp_binding("t"));
        assert_eq!(sc.unset("v3"), Ok(()));
        assert!(sc.get("v3").is_some_and(|v| v.value.is_none()));
        assert!(sc.unset("t").is_ok());
        assert!(sc.get("t").is_none());
        sc.with_entry("g", false, |v| v.value = Some(Value::Str("set".into())));
        sc.pop_frame();
        assert!(sc.get("v0").is_none());
        assert_eq!(sc.get("g").and_then(Var::as_scalar), Some("set".into()));
        // A function's own frame: its variables are all local.
        sc.push_function_frame(false);
        sc.entry("l", true).value = Some(Value::Str("x".into()));
        assert!(!sc.is_temp_binding("l"));
        assert!(sc.is_local_here("l"));
        assert_eq!(sc.unset("l"), Ok(()));
        assert!(sc.get("l").is_some_and(|v| v.value.is_none()));
    }
}
