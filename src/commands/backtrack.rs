//! A small backtracking regex matcher for the patterns the `regex` crate cannot run:
//! those with back-references (`\(a\)\1`). It reads the `regex`-crate syntax that
//! [`super::grep::regex::translate_full`] and `tac`'s separator translation produce
//! (literals, escapes, bracket classes with `[:name:]` or `\s \S \w \W`, `(?-s:.)`,
//! groups, `|`, `* + ? {m,n}`, `^ $ \b \B \b{start} \b{end} \A \z \s \S \w \W`,
//! `\1`..`\9`) and runs it on bytes with a step budget, so a pathological pattern gives
//! an error instead of running forever. Searches are leftmost-first, like the `regex`
//! crate; [`Backtrack::longest_at`] gives POSIX's longest match at one place.

/// Steps one search may take before giving up.
pub const STEP_BUDGET: u64 = 5_000_000;

/// Instructions a compiled pattern may have (counted repetitions are unrolled).
const MAX_PROGRAM: usize = 50_000;

/// The error a search returns when the step budget is spent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exhausted;

impl std::fmt::Display for Exhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("regular expression too complex to match (backtracking limit)")
    }
}

impl std::error::Error for Exhausted {}

#[derive(Debug, Clone)]
enum ClassItem {
    Range(char, char),
    Named(String),
    /// A character outside a named class (`\S`, `\W`).
    NotNamed(String),
}

#[derive(Debug, Clone)]
struct Class {
    negated: bool,
    items: Vec<ClassItem>,
}

fn named_class(name: &str, c: char) -> bool {
    match name {
        "alpha" => c.is_alphabetic(),
        "digit" => c.is_ascii_digit(),
        "alnum" => c.is_alphanumeric(),
        "upper" => c.is_uppercase(),
        "lower" => c.is_lowercase(),
        "space" => c.is_whitespace(),
        "blank" => c == ' ' || c == '\t',
        "punct" => c.is_ascii_punctuation(),
        "print" => !c.is_control(),
        "graph" => !c.is_control() && !c.is_whitespace(),
        "cntrl" => c.is_control(),
        "xdigit" => c.is_ascii_hexdigit(),
        "word" => c.is_alphanumeric() || c == '_',
        _ => false,
    }
}

impl Class {
    fn matches(&self, c: char, icase: bool) -> bool {
        let test = |c: char| {
            self.items.iter().any(|it| match it {
                ClassItem::Range(a, b) => (*a..=*b).contains(&c),
                ClassItem::Named(n) => named_class(n, c),
                ClassItem::NotNamed(n) => !named_class(n, c),
            })
        };
        let mut hit = test(c);
        if !hit && icase {
            hit = c.to_lowercase().any(test) || c.to_uppercase().any(test);
        }
        hit != self.negated
    }
}

#[derive(Debug, Clone)]
enum Node {
    Char(char),
    Any { newline: bool },
    Class(Class),
    Group(Box<Node>, Option<usize>),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat(Box<Node>, u32, Option<u32>),
    LineStart,
    LineEnd,
    TextStart,
    TextEnd,
    WordBoundary,
    NotWordBoundary,
    WordStart,
    WordEnd,
    Backref(usize),
}

/// The class a Perl escape (`\s \S \w \W`) names, as a class item.
fn perl_class(e: char) -> Option<ClassItem> {
    match e {
        's' => Some(ClassItem::Named("space".to_owned())),
        'S' => Some(ClassItem::NotNamed("space".to_owned())),
        'w' => Some(ClassItem::Named("word".to_owned())),
        'W' => Some(ClassItem::NotNamed("word".to_owned())),
        _ => None,
    }
}

struct Parser<'a> {
    cs: &'a [char],
    i: usize,
    groups: usize,
    multi_line: bool,
    dot_all: bool,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.cs.get(self.i).copied()
    }
    fn eat(&mut self, s: &str) -> bool {
        let n = s.chars().count();
        let ok = self
            .cs
            .get(self.i..self.i + n)
            .is_some_and(|w| w.iter().copied().eq(s.chars()));
        if ok {
            self.i += n;
        }
        ok
    }

    fn alt(&mut self) -> Result<Node, String> {
        let mut arms = vec![self.concat()?];
        while self.peek() == Some('|') {
            self.i += 1;
            arms.push(self.concat()?);
        }
        Ok(if arms.len() == 1 {
            arms.pop().unwrap_or(Node::Concat(Vec::new()))
        } else {
            Node::Alt(arms)
        })
    }

    fn concat(&mut self) -> Result<Node, String> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            let atom = self.quantifiers(atom)?;
            items.push(atom);
        }
        Ok(Node::Concat(items))
    }

    fn quantifiers(&mut self, mut atom: Node) -> Result<Node, String> {
        loop {
            let (min, max) = match self.peek() {
                Some('*') => (0, None),
                Some('+') => (1, None),
                Some('?') => (0, Some(1)),
                Some('{') => {
                    let start = self.i;
                    self.i += 1;
                    let mut body = String::new();
                    while let Some(c) = self.peek() {
                        self.i += 1;
                        if c == '}' {
                            break;
                        }
                        body.push(c);
                    }
                    let parse = |s: &str| {
                        s.parse::<u32>()
                            .map_err(|_| format!("bad repetition {{{body}}}"))
                    };
                    let (lo, hi) = match body.split_once(',') {
                        Some((lo, "")) => (parse(lo)?, None),
                        Some((lo, hi)) => (parse(lo)?, Some(parse(hi)?)),
                        None => {
                            let n = parse(&body)?;
                            (n, Some(n))
                        }
                    };
                    if start == self.i {
                        return Err("bad repetition".to_owned());
                    }
                    self.i -= 1;
                    (lo, hi)
                }
                _ => return Ok(atom),
            };
            self.i += 1;
            // A lazy marker never comes from the translator; accept and ignore it.
            if self.peek() == Some('?') {
                self.i += 1;
            }
            atom = Node::Repeat(Box::new(atom), min, max);
        }
    }

    fn atom(&mut self) -> Result<Node, String> {
        if self.eat("(?-s:.)") {
            return Ok(Node::Any { newline: false });
        }
        if self.eat("(?s:.)") {
            return Ok(Node::Any { newline: true });
        }
        if self.eat("(?s)") {
            self.dot_all = true;
            return Ok(Node::Concat(Vec::new()));
        }
        if self.eat("(?m)") {
            self.multi_line = true;
            return Ok(Node::Concat(Vec::new()));
        }
        let Some(c) = self.peek() else {
            return Err("unexpected end of pattern".to_owned());
        };
        self.i += 1;
        Ok(match c {
            '(' => {
                let index = if self.eat("?:") {
                    None
                } else {
                    self.groups += 1;
                    Some(self.groups)
                };
                let inner = self.alt()?;
                if self.peek() != Some(')') {
                    return Err("unclosed group".to_owned());
                }
                self.i += 1;
                Node::Group(Box::new(inner), index)
            }
            '.' => Node::Any {
                newline: self.dot_all,
            },
            '^' => {
                if self.multi_line {
                    Node::LineStart
                } else {
                    Node::TextStart
                }
            }
            '$' => {
                if self.multi_line {
                    Node::LineEnd
                } else {
                    Node::TextEnd
                }
            }
            '[' => Node::Class(self.class()?),
            '\\' => {
                let Some(e) = self.peek() else {
                    return Err("trailing backslash".to_owned());
                };
                self.i += 1;
                if let Some(item) = perl_class(e) {
                    return Ok(Node::Class(Class {
                        negated: false,
                        items: vec![item],
                    }));
                }
                match e {
                    'b' if self.eat("{start}") => Node::WordStart,
                    'b' if self.eat("{end}") => Node::WordEnd,
                    'b' => Node::WordBoundary,
                    'B' => Node::NotWordBoundary,
                    'A' => Node::TextStart,
                    'z' => Node::TextEnd,
                    'n' => Node::Char('\n'),
                    't' => Node::Char('\t'),
                    d @ '1'..='9' => Node::Backref(d.to_digit(10).unwrap_or(1) as usize),
                    o => Node::Char(o),
                }
            }
            o => Node::Char(o),
        })
    }

    /// A bracket class after its `[`.
    fn class(&mut self) -> Result<Class, String> {
        let mut class = Class {
            negated: false,
            items: Vec::new(),
        };
        if self.peek() == Some('^') {
            class.negated = true;
            self.i += 1;
        }
        loop {
            let Some(c) = self.peek() else {
                return Err("unclosed class".to_owned());
            };
            self.i += 1;
            let lo = match c {
                ']' => return Ok(class),
                '[' if self.peek() == Some(':') => {
                    let rest: String = self.cs.get(self.i + 1..).unwrap_or(&[]).iter().collect();
                    let Some(end) = rest.find(":]") else {
                        return Err("unclosed class".to_owned());
                    };
                    let name = rest.get(..end).unwrap_or("").to_owned();
                    self.i += 1 + name.chars().count() + 2;
                    class.items.push(ClassItem::Named(name));
                    continue;
                }
                '\\' => {
                    let Some(e) = self.peek() else {
                        return Err("unclosed class".to_owned());
                    };
                    self.i += 1;
                    if let Some(item) = perl_class(e) {
                        class.items.push(item);
                        continue;
                    }
                    match e {
                        'n' => '\n',
                        't' => '\t',
                        o => o,
                    }
                }
                o => o,
            };
            if self.peek() == Some('-') && self.cs.get(self.i + 1).is_some_and(|&n| n != ']') {
                self.i += 1;
                let mut hi = self.peek().unwrap_or(lo);
                self.i += 1;
                if hi == '\\' {
                    hi = self.peek().unwrap_or(lo);
                    self.i += 1;
                }
                class.items.push(ClassItem::Range(lo, hi));
            } else {
                class.items.push(ClassItem::Range(lo, lo));
            }
        }
    }
}

#[derive(Debug, Clone)]
enum Inst {
    Char(char),
    Any {
        newline: bool,
    },
    Class(Class),
    /// Try the first target, then the second.
    Split(usize, usize),
    Jmp(usize),
    Save(usize),
    /// Remembers the position in a loop register.
    Mark(usize),
    /// Fails when a loop iteration consumed nothing.
    Progress(usize),
    Backref(usize),
    LineStart,
    LineEnd,
    TextStart,
    TextEnd,
    WordBoundary(bool),
    /// Word characters after and not before (`true`), or before and not after.
    WordEdge(bool),
    Match,
}

struct Compiler {
    prog: Vec<Inst>,
    regs: usize,
}

impl Compiler {
    fn emit(&mut self, i: Inst) -> Result<usize, String> {
        if self.prog.len() >= MAX_PROGRAM {
            return Err("regular expression too big".to_owned());
        }
        self.prog.push(i);
        Ok(self.prog.len() - 1)
    }

    fn patch(&mut self, at: usize, inst: Inst) {
        if let Some(slot) = self.prog.get_mut(at) {
            *slot = inst;
        }
    }

    fn node(&mut self, n: &Node) -> Result<(), String> {
        match n {
            Node::Char(c) => {
                self.emit(Inst::Char(*c))?;
            }
            Node::Any { newline } => {
                self.emit(Inst::Any { newline: *newline })?;
            }
            Node::Class(c) => {
                self.emit(Inst::Class(c.clone()))?;
            }
            Node::Group(inner, index) => {
                if let Some(k) = index {
                    self.emit(Inst::Save(2 * k))?;
                    self.node(inner)?;
                    self.emit(Inst::Save(2 * k + 1))?;
                } else {
                    self.node(inner)?;
                }
            }
            Node::Concat(items) => {
                for it in items {
                    self.node(it)?;
                }
            }
            Node::Alt(arms) => {
                let mut jumps = Vec::new();
                for (k, arm) in arms.iter().enumerate() {
                    if k + 1 < arms.len() {
                        let split = self.emit(Inst::Split(0, 0))?;
                        self.node(arm)?;
                        jumps.push(self.emit(Inst::Jmp(0))?);
                        let next = self.prog.len();
                        self.patch(split, Inst::Split(split + 1, next));
                    } else {
                        self.node(arm)?;
                    }
                }
                let end = self.prog.len();
                for j in jumps {
                    self.patch(j, Inst::Jmp(end));
                }
            }
            Node::Repeat(inner, min, max) => {
                for _ in 0..*min {
                    self.node(inner)?;
                }
                match max {
                    None => {
                        let reg = self.regs;
                        self.regs += 1;
                        let split = self.emit(Inst::Split(0, 0))?;
                        self.emit(Inst::Mark(reg))?;
                        self.node(inner)?;
                        self.emit(Inst::Progress(reg))?;
                        self.emit(Inst::Jmp(split))?;
                        let out = self.prog.len();
                        self.patch(split, Inst::Split(split + 1, out));
                    }
                    Some(max) => {
                        let mut splits = Vec::new();
                        for _ in *min..*max {
                            splits.push(self.emit(Inst::Split(0, 0))?);
                            self.node(inner)?;
                        }
                        let out = self.prog.len();
                        for s in splits {
                            self.patch(s, Inst::Split(s + 1, out));
                        }
                    }
                }
            }
            Node::LineStart => {
                self.emit(Inst::LineStart)?;
            }
            Node::LineEnd => {
                self.emit(Inst::LineEnd)?;
            }
            Node::TextStart => {
                self.emit(Inst::TextStart)?;
            }
            Node::TextEnd => {
                self.emit(Inst::TextEnd)?;
            }
            Node::WordBoundary => {
                self.emit(Inst::WordBoundary(true))?;
            }
            Node::NotWordBoundary => {
                self.emit(Inst::WordBoundary(false))?;
            }
            Node::WordStart => {
                self.emit(Inst::WordEdge(true))?;
            }
            Node::WordEnd => {
                self.emit(Inst::WordEdge(false))?;
            }
            Node::Backref(k) => {
                self.emit(Inst::Backref(*k))?;
            }
        }
        Ok(())
    }
}

/// A compiled backtracking pattern.
#[derive(Debug, Clone)]
pub struct Backtrack {
    prog: Vec<Inst>,
    groups: usize,
    regs: usize,
    icase: bool,
}

/// Capture positions: `caps[2k]..caps[2k+1]` is group `k` (group 0 the whole match).
pub type Captures = Vec<Option<usize>>;

/// The character at `pos` and its length in bytes (an invalid byte stands for itself).
fn char_at(hay: &[u8], pos: usize) -> Option<(char, usize)> {
    let first = *hay.get(pos)?;
    if first < 0x80 {
        return Some((first as char, 1));
    }
    let len = match first {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    };
    if let Some(bytes) = hay.get(pos..pos + len)
        && let Ok(s) = std::str::from_utf8(bytes)
        && let Some(c) = s.chars().next()
    {
        return Some((c, len));
    }
    Some((crate::text::raw_char(first), 1))
}

/// The character ending at `pos`.
fn char_before(hay: &[u8], pos: usize) -> Option<char> {
    let start = (pos.saturating_sub(4)..pos)
        .find(|&s| char_at(hay, s).is_some_and(|(_, l)| s + l == pos))?;
    char_at(hay, start).map(|(c, _)| c)
}

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

fn fold_eq(a: char, b: char) -> bool {
    a == b || a.to_lowercase().eq(b.to_lowercase())
}

enum Undo {
    Branch(usize, usize),
    Cap(usize, Option<usize>),
    Reg(usize, usize),
}

impl Backtrack {
    /// Compiles a pattern in `regex`-crate syntax (as the POSIX translators emit it).
    pub fn new(pattern: &str, icase: bool) -> Result<Backtrack, String> {
        let cs: Vec<char> = pattern.chars().collect();
        let mut p = Parser {
            cs: &cs,
            i: 0,
            groups: 0,
            multi_line: false,
            dot_all: false,
        };
        let node = p.alt()?;
        if p.i < cs.len() {
            return Err("unmatched )".to_owned());
        }
        let mut c = Compiler {
            prog: Vec::new(),
            regs: 0,
        };
        c.emit(Inst::Save(0))?;
        c.node(&node)?;
        c.emit(Inst::Save(1))?;
        c.emit(Inst::Match)?;
        Ok(Backtrack {
            prog: c.prog,
            groups: p.groups,
            regs: c.regs,
            icase,
        })
    }

    /// Number of capture groups, not counting the whole match.
    pub fn groups(&self) -> usize {
        self.groups
    }

    /// The leftmost match starting at or after `start`, with its captures.
    pub fn captures_at(&self, hay: &[u8], start: usize) -> Result<Option<Captures>, Exhausted> {
        let mut steps = 0u64;
        let mut pos = start;
        while pos <= hay.len() {
            if let Some(caps) = self.exec(hay, pos, &mut steps, false)? {
                return Ok(Some(caps));
            }
            // Only start at character boundaries.
            pos += char_at(hay, pos).map_or(1, |(_, l)| l);
        }
        Ok(None)
    }

    /// Whether the pattern matches anywhere in `hay`.
    pub fn is_match(&self, hay: &[u8]) -> Result<bool, Exhausted> {
        Ok(self.captures_at(hay, 0)?.is_some())
    }

    /// The end of the longest match that starts exactly at `start`: POSIX's rule for
    /// a match's length, found by trying every way the pattern can match there (with
    /// a step budget of its own).
    pub fn longest_at(&self, hay: &[u8], start: usize) -> Result<Option<usize>, Exhausted> {
        let mut steps = 0u64;
        let caps = self.exec(hay, start, &mut steps, true)?;
        Ok(caps.and_then(|c| c.get(1).copied().flatten()))
    }

    /// Runs the program from `start`: the first match found, or with `longest` the one
    /// that ends last.
    fn exec(
        &self,
        hay: &[u8],
        start: usize,
        steps: &mut u64,
        longest: bool,
    ) -> Result<Option<Captures>, Exhausted> {
        let mut best: Option<Captures> = None;
        let mut caps: Captures = vec![None; 2 * (self.groups + 1)];
        let mut regs = vec![usize::MAX; self.regs];
        let mut stack: Vec<Undo> = Vec::new();
        let mut pc = 0usize;
        let mut pos = start;
        loop {
            *steps += 1;
            if *steps > STEP_BUDGET {
                return Err(Exhausted);
            }
            let ok = match self.prog.get(pc) {
                None => false,
                Some(Inst::Match) if !longest => return Ok(Some(caps)),
                Some(Inst::Match) => {
                    let end = |c: &Captures| c.get(1).copied().flatten();
                    if best.as_ref().is_none_or(|b| end(&caps) > end(b)) {
                        if pos == hay.len() {
                            // Nothing can end later.
                            return Ok(Some(caps));
                        }
                        best = Some(caps.clone());
                    }
                    false
                }
                Some(Inst::Char(want)) => match char_at(hay, pos) {
                    Some((c, l)) if c == *want || (self.icase && fold_eq(c, *want)) => {
                        pos += l;
                        pc += 1;
                        true
                    }
                    _ => false,
                },
                Some(Inst::Any { newline }) => match char_at(hay, pos) {
                    Some((c, l)) if *newline || c != '\n' => {
                        pos += l;
                        pc += 1;
                        true
                    }
                    _ => false,
                },
                Some(Inst::Class(class)) => match char_at(hay, pos) {
                    Some((c, l)) if class.matches(c, self.icase) => {
                        pos += l;
                        pc += 1;
                        true
                    }
                    _ => false,
                },
                Some(Inst::Split(a, b)) => {
                    stack.push(Undo::Branch(*b, pos));
                    pc = *a;
                    true
                }
                Some(Inst::Jmp(t)) => {
                    pc = *t;
                    true
                }
                Some(Inst::Save(slot)) => {
                    let old = caps.get(*slot).copied().flatten();
                    stack.push(Undo::Cap(*slot, old));
                    if let Some(s) = caps.get_mut(*slot) {
                        *s = Some(pos);
                    }
                    pc += 1;
                    true
                }
                Some(Inst::Mark(r)) => {
                    let old = regs.get(*r).copied().unwrap_or(usize::MAX);
                    stack.push(Undo::Reg(*r, old));
                    if let Some(slot) = regs.get_mut(*r) {
                        *slot = pos;
                    }
                    pc += 1;
                    true
                }
                Some(Inst::Progress(r)) => {
                    if regs.get(*r).copied() == Some(pos) {
                        false
                    } else {
                        pc += 1;
                        true
                    }
                }
                Some(Inst::Backref(k)) => {
                    let (s, e) = (
                        caps.get(2 * k).copied().flatten(),
                        caps.get(2 * k + 1).copied().flatten(),
                    );
                    match (s, e) {
                        (Some(s), Some(e)) if s <= e => {
                            let want = hay.get(s..e).unwrap_or(&[]);
                            let len = want.len();
                            let got = hay.get(pos..pos + len);
                            let same = got.is_some_and(|g| {
                                g == want
                                    || (self.icase
                                        && crate::text::decode(g).to_lowercase()
                                            == crate::text::decode(want).to_lowercase())
                            });
                            if same {
                                pos += len;
                                pc += 1;
                            }
                            same
                        }
                        // A group that did not take part matches nothing.
                        _ => false,
                    }
                }
                Some(Inst::LineStart) => {
                    let ok = pos == 0 || hay.get(pos - 1) == Some(&b'\n');
                    pc += 1;
                    ok
                }
                Some(Inst::LineEnd) => {
                    let ok = pos == hay.len() || hay.get(pos) == Some(&b'\n');
                    pc += 1;
                    ok
                }
                Some(Inst::TextStart) => {
                    pc += 1;
                    pos == 0
                }
                Some(Inst::TextEnd) => {
                    pc += 1;
                    pos == hay.len()
                }
                Some(Inst::WordBoundary(want)) => {
                    let before = is_word(char_before(hay, pos));
                    let after = is_word(char_at(hay, pos).map(|(c, _)| c));
                    pc += 1;
                    (before != after) == *want
                }
                Some(Inst::WordEdge(start)) => {
                    let before = is_word(char_before(hay, pos));
                    let after = is_word(char_at(hay, pos).map(|(c, _)| c));
                    pc += 1;
                    after == *start && before != *start
                }
            };
            if ok {
                continue;
            }
            // Backtrack: undo until a pending branch.
            loop {
                match stack.pop() {
                    None => return Ok(best),
                    Some(Undo::Cap(slot, old)) => {
                        if let Some(s) = caps.get_mut(slot) {
                            *s = old;
                        }
                    }
                    Some(Undo::Reg(r, old)) => {
                        if let Some(s) = regs.get_mut(r) {
                            *s = old;
                        }
                    }
                    Some(Undo::Branch(t, p)) => {
                        pc = t;
                        pos = p;
                        break;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;
    use crate::commands::grep::regex::translate_full;

    fn find(pat: &str, ere: bool, hay: &str) -> Option<(usize, usize)> {
        let t = translate_full(pat, ere)
            .map(|t| t.pattern)
            .unwrap_or_default();
        let b = Backtrack::new(&t, false).map_err(|e| format!("{pat}: {e}"));
        let b = b.unwrap_or_else(|e| panic!("{e}"));
        let caps = b.captures_at(hay.as_bytes(), 0).ok().flatten()?;
        Some((caps[0]?, caps[1]?))
    }

    #[test]
    fn backrefs_and_basics() {
        for (pat, ere, hay, want) in [
            ("\\(a\\)\\1", false, "xaay", Some((1, 3))),
            ("\\(ab*\\)c\\1", false, "abbcabb", Some((0, 7))),
            ("(.)\\1", true, "abcdde", Some((3, 5))),
            ("^(.*)\\1$", true, "abcabc", Some((0, 6))),
            ("^(.*)\\1$", true, "abcab", None),
            ("\\([a-c]\\)x\\1", false, "bxa cxc", Some((4, 7))),
            ("a\\{2,3\\}", false, "caaaa", Some((1, 4))),
            ("[[:digit:]]\\+", false, "ab12c", Some((2, 4))),
            ("\\bfoo\\b", false, "a foo b", Some((2, 5))),
            ("(a|ab)(c|bcd)", true, "abcd", Some((0, 4))),
            ("(a*)*b", true, "aaab", Some((0, 4))),
            ("x*", true, "abc", Some((0, 0))),
            ("[^a]", true, "aab", Some((2, 3))),
        ] {
            assert_eq!(find(pat, ere, hay), want, "{pat} on {hay}");
        }
    }

    #[test]
    fn budget_stops_blowups() {
        let t = translate_full("^(a*)*\\1b$", true)
            .map(|t| t.pattern)
            .unwrap_or_default();
        let b = Backtrack::new(&t, false).unwrap_or_else(|e| panic!("{e}"));
        let hay = "a".repeat(40);
        assert_eq!(b.captures_at(hay.as_bytes(), 0), Err(Exhausted));
    }

    #[test]
    fn longest_at_tries_every_way() {
        let compile = |p: &str| Backtrack::new(p, false).unwrap_or_else(|e| panic!("{e}"));
        let alt = compile("(a|ab)");
        assert_eq!(
            alt.captures_at(b"ab", 0).ok().flatten().and_then(|c| c[1]),
            Some(1)
        );
        assert_eq!(alt.longest_at(b"ab", 0), Ok(Some(2)));
        assert_eq!(alt.longest_at(b"ab", 1), Ok(None));
        let twice = compile("(a*)\\1");
        assert_eq!(twice.longest_at(b"aaaaa", 0), Ok(Some(4)));
        let words = compile("\\b{start}\\w+\\b{end}");
        assert_eq!(words.longest_at(b"  ab c", 2), Ok(Some(4)));
        assert_eq!(words.longest_at(b"  ab c", 3), Ok(None));
        let class = compile("[\\S]+\\s[^\\s\\S]?");
        assert_eq!(class.longest_at(b"ab c", 0), Ok(Some(3)));
    }

    #[test]
    fn case_folding() {
        let b = Backtrack::new("(a)\\1", true).unwrap_or_else(|e| panic!("{e}"));
        assert!(b.is_match(b"xAa").unwrap_or(false));
    }
}
