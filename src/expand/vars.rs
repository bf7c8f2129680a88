//! Shell variables: scalar, indexed and associative values with bash's attributes. The
//! containers are persistent (`imbl`) so shell state forks in O(1).

use imbl::OrdMap;

/// What one element of an indexed array costs beside its text: its `String`, its
/// key, its share of the tree's nodes and the allocator's rounding. Measured: a
/// million short elements made 133 MB of resident memory.
pub const INDEXED_ELEMENT_OVERHEAD: usize = 128;

/// The same for an associative array's entry (a hash-map node with two `String`s and
/// its order number). Measured: a million short entries made 254 MB.
pub const ASSOC_ENTRY_OVERHEAD: usize = 240;

/// What assigning `value` under `key` (none for an indexed element) adds to what
/// the shell holds: its bytes and the element's own cost.
pub fn element_cost(key: Option<&str>, value: &str) -> usize {
    match key {
        Some(k) => k.len() + value.len() + ASSOC_ENTRY_OVERHEAD,
        None => value.len() + INDEXED_ELEMENT_OVERHEAD,
    }
}

/// A variable's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(String),
    /// Sparse indexed array.
    Indexed(OrdMap<i64, String>),
    /// Associative array; iteration order is bash's (see [`Assoc::keys`]).
    Assoc(Assoc),
}

/// An associative array. bash walks its hash buckets from first to last and each bucket
/// from newest to oldest; we keep an insertion counter to reproduce that order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Assoc {
    map: OrdMap<String, (u64, String)>,
    next: u64,
}

/// bash's string hash (FNV-1 over bytes, 32-bit). It XORs in a C `char`, signed on
/// the machines bash runs on, so a byte from 0x80 up is sign-extended (which places
/// non-ASCII keys where bash does).
fn bash_hash(s: &str) -> u32 {
    let mut h: u32 = 2166136261;
    for b in crate::text::encode(s) {
        h = h.wrapping_mul(16777619);
        h ^= i32::from(b as i8) as u32;
    }
    h
}

impl Assoc {
    pub fn get(&self, k: &str) -> Option<&String> {
        self.map.get(k).map(|(_, v)| v)
    }
    pub fn insert(&mut self, k: String, v: String) {
        if let Some(e) = self.map.get_mut(&k) {
            e.1 = v;
            return;
        }
        self.next += 1;
        self.map.insert(k, (self.next, v));
    }
    pub fn remove(&mut self, k: &str) {
        self.map.remove(k);
    }
    /// Bytes the keys and values hold, with what each entry costs besides.
    pub fn held_bytes(&self) -> usize {
        self.map
            .iter()
            .map(|(k, (_, v))| k.capacity() + v.capacity() + ASSOC_ENTRY_OVERHEAD)
            .sum()
    }
    pub fn len(&self) -> usize {
        self.map.len()
    }
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
    /// Keys in the order bash lists them.
    pub fn keys(&self) -> Vec<String> {
        let nbuckets: u32 = if self.map.len() > 1024 * 2 {
            4096
        } else {
            1024
        };
        let mut ks: Vec<(u32, u64, &String)> = self
            .map
            .iter()
            .map(|(k, (seq, _))| (bash_hash(k) & (nbuckets - 1), *seq, k))
            .collect();
        ks.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        ks.into_iter().map(|(_, _, k)| k.clone()).collect()
    }
    /// (key, value) pairs in bash's order.
    pub fn pairs(&self) -> Vec<(String, String)> {
        self.keys()
            .into_iter()
            .filter_map(|k| self.get(&k).cloned().map(|v| (k, v)))
            .collect()
    }
}

/// Variable attributes (`declare -aAilnrtux`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Attrs(pub u16);

impl Attrs {
    pub const EXPORT: u16 = 1;
    pub const READONLY: u16 = 2;
    pub const INTEGER: u16 = 4;
    pub const LOWER: u16 = 8;
    pub const UPPER: u16 = 16;
    pub const NAMEREF: u16 = 32;
    pub const TRACE: u16 = 64;
    pub const CAPITALIZE: u16 = 128;
    /// Declared as an indexed array (`declare -a`) even while unset.
    pub const ARRAY: u16 = 256;
    /// Declared as an associative array (`declare -A`).
    pub const ASSOC: u16 = 512;
    /// One of bash's special variables (`RANDOM`, `SECONDS`, ...): computed when read,
    /// with a side effect when assigned; `unset` removes the mark with the variable.
    pub const SPECIAL: u16 = 1024;

    pub fn has(self, f: u16) -> bool {
        self.0 & f != 0
    }
    pub fn set(&mut self, f: u16, on: bool) {
        if on {
            self.0 |= f;
        } else {
            self.0 &= !f;
        }
    }
}

/// A variable: a value (or none: declared but unset) and attributes.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Var {
    pub value: Option<Value>,
    pub attrs: Attrs,
}

impl Var {
    pub fn scalar(s: impl Into<String>) -> Var {
        Var {
            value: Some(Value::Str(s.into())),
            attrs: Attrs::default(),
        }
    }

    /// The value as `$name` shows it: a scalar, or element 0 / key "0" of an array.
    pub fn as_scalar(&self) -> Option<String> {
        match &self.value {
            Some(Value::Str(s)) => Some(s.clone()),
            Some(Value::Indexed(a)) => a.get(&0).cloned(),
            Some(Value::Assoc(a)) => a.get("0").cloned(),
            None => None,
        }
    }

    /// The characters this variable stands for as IFS: bash never splits on an
    /// array's elements (an array IFS is empty), and IFS declared without a value
    /// (`local IFS`) is IFS unset (None).
    pub fn ifs_text(&self) -> Option<String> {
        match &self.value {
            Some(Value::Str(s)) => Some(s.clone()),
            Some(_) => Some(String::new()),
            None => None,
        }
    }

    /// The element index `i` names when read: a negative one counts back from one
    /// past the highest index; None when that is before the start. A scalar has no
    /// highest index to count back from (only an assignment takes a scalar as element
    /// 0 of an array).
    pub fn read_index(&self, i: i64) -> Option<i64> {
        if i >= 0 {
            return Some(i);
        }
        let max = match &self.value {
            Some(Value::Indexed(a)) => a.keys().next_back().copied().unwrap_or(-1),
            _ => -1,
        };
        Some(max + 1 + i).filter(|r| *r >= 0)
    }

    /// `as_scalar`, taking the value rather than copying it.
    pub fn into_scalar(self) -> Option<String> {
        match self.value {
            Some(Value::Str(s)) => Some(s),
            _ => self.as_scalar(),
        }
    }

    /// All element values in order (a scalar is a one-element list).
    pub fn values(&self) -> Vec<String> {
        match &self.value {
            Some(Value::Str(s)) => vec![s.clone()],
            Some(Value::Indexed(a)) => a.values().cloned().collect(),
            Some(Value::Assoc(a)) => a.pairs().into_iter().map(|(_, v)| v).collect(),
            None => Vec::new(),
        }
    }

    /// All keys in order (`${!a[@]}`).
    pub fn keys(&self) -> Vec<String> {
        match &self.value {
            Some(Value::Str(_)) => vec!["0".to_owned()],
            Some(Value::Indexed(a)) => a.keys().map(|k| k.to_string()).collect(),
            Some(Value::Assoc(a)) => a.keys(),
            None => Vec::new(),
        }
    }

    pub fn is_array(&self) -> bool {
        matches!(self.value, Some(Value::Indexed(_)))
            || (self.value.is_none() && self.attrs.has(Attrs::ARRAY))
    }

    pub fn is_assoc(&self) -> bool {
        matches!(self.value, Some(Value::Assoc(_)))
            || (self.value.is_none() && self.attrs.has(Attrs::ASSOC))
    }
}
