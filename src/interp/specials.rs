//! bash's special variables (the manual's "Shell Variables" that bash computes or
//! watches: `RANDOM`, `SRANDOM`, `SECONDS`, `EPOCHSECONDS`, `EPOCHREALTIME`, `BASHPID`,
//! `BASH_SUBSHELL`, `HISTCMD`, `GROUPS`, `DIRSTACK`, `BASH_ALIASES`, `BASH_CMDS`,
//! `BASH_ARGV0`). Each is an ordinary variable marked [`Attrs::SPECIAL`]: reading it
//! computes a value and stores it (so `set` and `declare -p` list the last value, as
//! bash's do), assigning it has its side effect, and `unset` takes the mark away for
//! good.

use super::Interp;
use crate::expand::{Assoc, Attrs, Value, Var};

/// bash 5.2's `$RANDOM` generator (lib/sh/random.c): the Park–Miller "minimal
/// standard" generator, its 32 bits folded to 15, never the same value twice in a row.
/// `SRANDOM` draws from a separate stream that no assignment can seed.
#[derive(Clone, Debug)]
pub struct Rng {
    seed: u32,
    last: u32,
    /// The `$BASHPID` of the shell that last seeded `seed`: a subshell reseeds before
    /// its first draw, so `$(echo $RANDOM)` differs from the parent's next value.
    seeded_pid: u32,
    strong: u64,
}

impl Default for Rng {
    fn default() -> Rng {
        Rng {
            seed: 0x2545_F491,
            last: 0,
            seeded_pid: 0,
            strong: 0x9E37_79B9_7F4A_7C15,
        }
    }
}

impl Rng {
    /// `sbrand`: what `RANDOM=n` does (the seed is truncated to 32 bits, as bash's
    /// `u_bits32_t` is).
    pub fn seed(&mut self, n: i64, pid: u32) {
        self.seed = n as u32;
        self.last = 0;
        self.seeded_pid = pid;
    }

    /// One step of `intrand32`: x' = 16807 x mod (2^31 - 1), by Schrage's method.
    fn step(last: u32) -> u32 {
        let x = if last == 0 { 123_459_876 } else { last };
        let h = i64::from(x / 127_773);
        let l = i64::from(x) - 127_773 * h;
        let t = 16_807 * l - 2_836 * h;
        (if t < 0 { t + 0x7fff_ffff } else { t }) as u32
    }

    /// The next `$RANDOM` (0..=32767) of the shell whose `$BASHPID` is `pid`.
    pub fn next(&mut self, pid: u32, in_subshell: bool) -> u32 {
        if in_subshell && self.seeded_pid != pid {
            let mix = u64::from(pid).wrapping_mul(0x9E37_79B9) ^ self.strong_next();
            self.seed(mix as i64, pid);
        }
        loop {
            self.seed = Rng::step(self.seed);
            let v = ((self.seed >> 16) ^ (self.seed & 0xffff)) & 0x7fff;
            if v != self.last {
                self.last = v;
                return v;
            }
        }
    }

    /// The next `$SRANDOM`: 32 bits of a splitmix64 stream.
    pub fn strong_next(&mut self) -> u64 {
        self.strong = self.strong.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.strong;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The special variables bash creates at start, with their attributes, and whether
/// they start with a value (the arrays start empty; the rest unset until first read).
const SPECIALS: &[(&str, u16)] = &[
    ("RANDOM", Attrs::INTEGER),
    ("SRANDOM", Attrs::INTEGER),
    ("SECONDS", Attrs::INTEGER),
    ("EPOCHSECONDS", 0),
    ("EPOCHREALTIME", 0),
    ("BASHPID", Attrs::INTEGER),
    ("BASH_SUBSHELL", 0),
    ("HISTCMD", Attrs::INTEGER),
    ("GROUPS", Attrs::ARRAY),
    ("DIRSTACK", Attrs::ARRAY),
    ("BASH_ALIASES", Attrs::ASSOC),
    ("BASH_CMDS", Attrs::ASSOC),
    ("BASH_ARGV0", 0),
    ("LINENO", 0),
    ("BASH_COMMAND", 0),
];

/// The characters readline treats as word separators (bash's default).
const COMP_WORDBREAKS: &str = " \t\n\"'@><=;|&(:";

impl Interp {
    /// Creates the special variables and the plain ones bash sets at start.
    pub(crate) fn init_special_vars(&mut self) {
        for &(name, attrs) in SPECIALS {
            let value = if attrs & Attrs::ARRAY != 0 {
                Some(Value::Indexed(imbl::OrdMap::new()))
            } else if attrs & Attrs::ASSOC != 0 {
                Some(Value::Assoc(Assoc::default()))
            } else {
                None
            };
            *self.vars.entry(name, false) = Var {
                value,
                attrs: Attrs(attrs | Attrs::SPECIAL),
            };
        }
        for (name, value) in [
            ("COMP_WORDBREAKS", COMP_WORDBREAKS),
            ("OPTERR", "1"),
            (
                "BASH_LOADABLES_PATH",
                "/usr/local/lib/bash:/usr/lib/bash:/opt/local/lib/bash:/usr/pkg/lib/bash:/opt/pkg/lib/bash:.",
            ),
        ] {
            self.vars.entry(name, false).value = Some(Value::Str(value.to_owned()));
        }
        // The ids are read-only integers.
        for name in ["UID", "EUID", "PPID"] {
            self.vars
                .entry(name, false)
                .attrs
                .set(Attrs::INTEGER | Attrs::READONLY, true);
        }
    }

    /// The current value of special variable `name`, or None when `name` is not one.
    fn special_value(&mut self, name: &str) -> Option<Value> {
        let s = match name {
            "RANDOM" => self.next_random().to_string(),
            "SRANDOM" => (self.rng.strong_next() as u32).to_string(),
            "SECONDS" => {
                let now = self.fs.lock().clock().now().secs;
                (now - self.start_time + self.seconds_offset).to_string()
            }
            "EPOCHSECONDS" => self.fs.lock().clock().now().secs.to_string(),
            "EPOCHREALTIME" => {
                let t = self.fs.lock().clock().now();
                format!("{}.{:06}", t.secs, t.nanos / 1000)
            }
            "BASHPID" => self.bashpid.to_string(),
            "BASH_SUBSHELL" => self.subshell.to_string(),
            // The line being run is the last entry when history is on (or the last
            // line read before it, `set -o history` not recording its own line).
            "HISTCMD" if self.set.history => self.history.last_number().to_string(),
            "HISTCMD" => "0".to_owned(),
            "BASH_ARGV0" => self.arg0.clone(),
            "LINENO" => self.line.to_string(),
            "BASH_COMMAND" => self.bash_command.clone(),
            "GROUPS" => {
                let gid = self
                    .vars
                    .get_raw("UID")
                    .and_then(Var::as_scalar)
                    .unwrap_or_default();
                return Some(Value::Indexed(imbl::OrdMap::unit(0, gid)));
            }
            "DIRSTACK" => {
                let mut a = imbl::OrdMap::new();
                a.insert(0, self.cwd.clone());
                for (i, d) in self.dir_stack.iter().rev().enumerate() {
                    a.insert(i as i64 + 1, d.clone());
                }
                return Some(Value::Indexed(a));
            }
            "BASH_ALIASES" => {
                let mut a = Assoc::default();
                let mut names: Vec<_> = self.aliases.iter().collect();
                names.sort();
                for (k, v) in names {
                    a.insert(k.clone(), v.clone());
                }
                return Some(Value::Assoc(a));
            }
            "BASH_CMDS" => {
                let mut a = Assoc::default();
                for (k, h) in &self.hash {
                    a.insert(k.clone(), h.path.clone());
                }
                return Some(Value::Assoc(a));
            }
            _ => return None,
        };
        Some(Value::Str(s))
    }

    /// The variable `name` as a read sees it: a special one gets its current value,
    /// which is also kept (for the listings of `set` and `declare`).
    pub(crate) fn read_special(&mut self, name: &str) -> Option<Var> {
        let raw = self.vars.get_raw(name)?;
        if !raw.attrs.has(Attrs::SPECIAL) {
            return None;
        }
        let value = self.special_value(name)?;
        let stored = value.clone();
        self.vars
            .with_entry(name, false, |v| v.value = Some(stored));
        self.vars.get_raw(name).cloned().map(|mut v| {
            v.value = Some(value);
            v
        })
    }

    /// The side effect of assigning `value` to special variable `name` (already
    /// evaluated as arithmetic when the variable is an integer). True when the
    /// assignment is done: the variable keeps its computed value.
    pub(crate) fn assign_special(&mut self, name: &str, value: &str) -> bool {
        if !self
            .vars
            .get_raw(name)
            .is_some_and(|v| v.attrs.has(Attrs::SPECIAL))
        {
            return false;
        }
        let n = value.trim().parse::<i64>().ok();
        match name {
            "RANDOM" => {
                if let Some(n) = n {
                    let pid = self.bashpid;
                    self.rng.seed(n, pid);
                }
            }
            "SECONDS" => {
                if let Some(n) = n {
                    let now = self.fs.lock().clock().now().secs;
                    self.seconds_offset = n - (now - self.start_time);
                }
            }
            "BASH_SUBSHELL" => {
                if let Some(n) = n {
                    self.subshell = u32::try_from(n).unwrap_or(0);
                }
            }
            "BASH_ARGV0" => {
                self.arg0 = value.to_owned();
                return false;
            }
            // The others ignore assignment.
            _ => {}
        }
        true
    }

    /// The side effect of assigning `name[key]` of a special array: `BASH_ALIASES`
    /// defines an alias, `BASH_CMDS` remembers a command's path; the others ignore it.
    /// None when `name` is not special.
    pub(crate) fn assign_special_element(
        &mut self,
        name: &str,
        key: &str,
        value: &str,
    ) -> Option<()> {
        if !self.vars.get_raw(name)?.attrs.has(Attrs::SPECIAL) {
            return None;
        }
        match name {
            "BASH_ALIASES" => {
                std::sync::Arc::make_mut(&mut self.aliases)
                    .insert(key.to_owned(), value.to_owned());
            }
            "BASH_CMDS" => {
                let seq = self.hash.values().map(|h| h.seq + 1).max().unwrap_or(0);
                self.hash.insert(
                    key.to_owned(),
                    super::Hashed {
                        path: value.to_owned(),
                        hits: 0,
                        seq,
                    },
                );
            }
            _ => {}
        }
        Some(())
    }

    /// Next `$RANDOM` (0..32767): bash's generator, deterministic from the seed.
    pub fn next_random(&mut self) -> u32 {
        let (pid, sub) = (self.bashpid, self.in_subshell);
        self.rng.next(pid, sub)
    }
}
