//! The awk interpreter: values with awk's string/number/strnum rules, records and
//! fields, arrays (iterated in insertion order), user functions (arrays by reference),
//! getline in all its forms, output redirection to files and commands, and the
//! built-in functions.

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::rc::Rc;
use std::sync::Arc;

use ::regex::Regex;

use super::format::{Arg, num_to_str, sprintf};
use super::parser::{
    Arith, Builtin, Cmp, Expr, Func, GetlineSrc, LValue, Pattern, Program, Redirect, Stmt, Var,
    slot,
};
use crate::commands::Stdio;
use crate::fs::SharedFs;

#[derive(Clone, Debug)]
pub enum Value {
    Uninit,
    Num(f64),
    Str(Rc<str>),
    /// Input text that looks like a number.
    StrNum(Rc<str>),
}

/// The leading number of a string, as strtod reads it (0 if none).
pub fn str_to_num(s: &str) -> f64 {
    let t = s.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let b = t.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits_start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    if i == digits_start || (i == digits_start + 1 && b.get(digits_start) == Some(&b'.')) {
        // Maybe inf/nan.
        let rest = t.get(digits_start..).unwrap_or("").to_ascii_lowercase();
        let neg = b.first() == Some(&b'-');
        if rest.starts_with("inf") {
            return if neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
        }
        if rest.starts_with("nan") {
            return f64::NAN;
        }
        return 0.0;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let save = i;
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if b.get(i).is_some_and(u8::is_ascii_digit) {
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        } else {
            i = save;
        }
    }
    t.get(..i).and_then(|n| n.parse().ok()).unwrap_or(0.0)
}

/// Whether a whole string (blanks aside) is a number: input that is becomes a strnum.
pub fn looks_numeric(s: &str) -> bool {
    let t = s.trim_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    if t.is_empty() {
        return false;
    }
    let b = t.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let start = i;
    let mut digits = 0;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
        digits += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        let rest = t.get(start..).unwrap_or("").to_ascii_lowercase();
        return rest == "inf" || rest == "infinity" || rest == "nan";
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let e = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if e == i {
            return false;
        }
    }
    i == b.len()
}

/// Whether two values are one string or the same number: what a cache keyed by a
/// variable checks (a cache refreshed from an equal string then shares it, so later
/// checks compare pointers, not text).
fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Str(x) | Value::StrNum(x), Value::Str(y) | Value::StrNum(y)) => Rc::ptr_eq(x, y),
        (Value::Num(x), Value::Num(y)) => x.to_bits() == y.to_bits(),
        (Value::Uninit, Value::Uninit) => true,
        _ => false,
    }
}

/// A value as a number.
pub fn to_num(v: &Value) -> f64 {
    match v {
        Value::Uninit => 0.0,
        Value::Num(n) => *n,
        Value::Str(s) | Value::StrNum(s) => str_to_num(s),
    }
}

pub fn input_value(s: &str) -> Value {
    if looks_numeric(s) {
        Value::StrNum(s.into())
    } else {
        Value::Str(s.into())
    }
}

/// An array with insertion-ordered keys.
#[derive(Default, Debug)]
pub struct Array {
    index: HashMap<Rc<str>, usize>,
    entries: Vec<Option<(Rc<str>, Value)>>,
}

impl Array {
    pub fn get(&self, k: &str) -> Option<&Value> {
        let &i = self.index.get(k)?;
        self.entries.get(i)?.as_ref().map(|(_, v)| v)
    }
    pub fn set(&mut self, k: &str, v: Value) {
        if let Some(&i) = self.index.get(k)
            && let Some(Some(e)) = self.entries.get_mut(i)
        {
            e.1 = v;
            return;
        }
        let key: Rc<str> = k.into();
        self.index.insert(key.clone(), self.entries.len());
        self.entries.push(Some((key, v)));
    }
    pub fn remove(&mut self, k: &str) {
        if let Some(i) = self.index.remove(k)
            && let Some(e) = self.entries.get_mut(i)
        {
            *e = None;
        }
        if self.entries.len() > 32 && self.index.len() * 2 < self.entries.len() {
            self.entries.retain(Option::is_some);
            for (i, e) in self.entries.iter().enumerate() {
                if let Some((k, _)) = e {
                    self.index.insert(k.clone(), i);
                }
            }
        }
    }
    pub fn clear(&mut self) {
        self.index.clear();
        self.entries.clear();
    }
    pub fn len(&self) -> usize {
        self.index.len()
    }
    pub fn keys(&self) -> Vec<Rc<str>> {
        self.entries
            .iter()
            .flatten()
            .map(|(k, _)| k.clone())
            .collect()
    }
}

#[derive(Clone, Debug)]
pub enum Cell {
    Val(Value),
    Arr(Rc<RefCell<Array>>),
}

/// Why [`Interp::run_records`] returned.
pub enum RecordsEnd {
    Done,
    Read(io::Error),
    Item(R<Ctrl>),
}

/// Why statement execution stopped early.
pub enum Ctrl {
    Normal,
    Break,
    Continue,
    Next,
    NextFile,
    Exit,
    Return(Value),
}

/// An awk runtime error (`awk: fatal: ...`, status 2).
#[derive(Debug)]
pub struct AwkError(pub String);

impl std::fmt::Display for AwkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for AwkError {}

/// `exit`, `next` or `nextfile` run inside a function, unwinding to the statement
/// that called it.
#[derive(Debug)]
struct Unwind(u8);

impl std::fmt::Display for Unwind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unwind {}", self.0)
    }
}
impl std::error::Error for Unwind {}

pub fn fatal(msg: impl Into<String>) -> io::Error {
    io::Error::other(AwkError(msg.into()))
}

type R<T> = io::Result<T>;

/// How much of an in-memory input is checked as UTF-8 at a time.
const WINDOW_BYTES: usize = 64 << 10;

/// Splits records out of a byte source.
pub struct Records {
    /// Bytes read from a stream (stdin) and not yet dropped.
    data: Vec<u8>,
    /// In-memory input (a file's contents), shared with the filesystem, not copied.
    whole: Option<Arc<Vec<u8>>>,
    /// Text of `whole` from byte `window.0` on, checked as UTF-8 a block at a time,
    /// that records are sliced from (one check per block, not per record). Shared:
    /// `$0` can be a view of it rather than a copy; refilled in place when it is not.
    window: (usize, Rc<String>),
    /// Whether the window is all ASCII (so its records' lengths are their byte counts).
    window_ascii: bool,
    /// Whether the record last returned came from an ASCII window.
    pub last_ascii: bool,
    pos: usize,
    /// For a regex RS: the rest of the input from `pos`, decoded once (so finding each
    /// record does not decode the whole remainder again), and where in it `pos` is.
    decoded: Option<(String, usize)>,
    /// Where more bytes come from (stdin); `None` when all is in `data`.
    streaming: bool,
    eof: bool,
    /// The stream this input reads instead of stdin (a FIFO, a process substitution).
    own: Option<Box<dyn Read + Send>>,
}

#[derive(Clone)]
pub enum RsMode {
    Char(u8),
    Paragraph,
    Regex(Rc<Regex>),
}

impl Records {
    pub fn memory(whole: Arc<Vec<u8>>) -> Records {
        Records {
            data: Vec::new(),
            whole: Some(whole),
            window: (0, Rc::default()),
            window_ascii: false,
            last_ascii: false,
            pos: 0,
            decoded: None,
            streaming: false,
            eof: true,
            own: None,
        }
    }
    pub fn stream() -> Records {
        Records {
            data: Vec::new(),
            whole: None,
            window: (0, Rc::default()),
            window_ascii: false,
            last_ascii: false,
            pos: 0,
            decoded: None,
            streaming: true,
            eof: false,
            own: None,
        }
    }

    /// Records of a named input: a stream read as it comes, or a file's bytes.
    pub fn named(input: crate::commands::util::Input) -> Records {
        use crate::commands::util::Input;
        match input {
            Input::Stream(r) => Records {
                own: Some(r),
                ..Records::stream()
            },
            Input::Bytes(d) => Records::memory(d),
            _ => Records::memory(Arc::default()),
        }
    }

    fn fill(&mut self, src: &mut dyn Read) -> R<bool> {
        if self.eof || !self.streaming {
            return Ok(false);
        }
        if self.pos > 65536 {
            self.data.drain(..self.pos);
            self.pos = 0;
        }
        let mut chunk = [0u8; 8192];
        let n = match &mut self.own {
            Some(r) => r.read(&mut chunk)?,
            None => src.read(&mut chunk)?,
        };
        if n == 0 {
            self.eof = true;
            return Ok(false);
        }
        self.data.extend_from_slice(chunk.get(..n).unwrap_or(&[]));
        Ok(true)
    }

    /// The input not yet split into records.
    fn rest<'r>(whole: &'r Option<Arc<Vec<u8>>>, data: &'r [u8], pos: usize) -> &'r [u8] {
        let all = whole.as_ref().map_or(data, |w| w.as_slice());
        all.get(pos..).unwrap_or(&[])
    }

    /// The `len` bytes at `pos` as text: sliced from the checked window when they are
    /// UTF-8 (the window moves on when they lie past it), else decoded.
    fn cut(&mut self, len: usize, out: &mut String) {
        out.clear();
        let end = self.pos + len;
        if let Some(whole) = &self.whole {
            let (start, text) = &self.window;
            if self.pos < *start || end > start + text.len() {
                let stop = (self.pos + WINDOW_BYTES).max(end).min(whole.len());
                let bytes = whole.get(self.pos..stop).unwrap_or(&[]);
                let valid = match std::str::from_utf8(bytes) {
                    Ok(text) => text,
                    Err(e) => bytes
                        .get(..e.valid_up_to())
                        .and_then(|b| std::str::from_utf8(b).ok())
                        .unwrap_or(""),
                };
                self.window.0 = self.pos;
                match Rc::get_mut(&mut self.window.1) {
                    Some(text) => {
                        text.clear();
                        text.push_str(valid);
                    }
                    None => self.window.1 = Rc::new(valid.to_owned()),
                }
                self.window_ascii = valid.is_ascii();
            }
            let at = self.pos - self.window.0;
            if let Some(rec) = self.window.1.get(at..at + len) {
                out.push_str(rec);
                self.last_ascii = self.window_ascii;
                return;
            }
        }
        let rest = Self::rest(&self.whole, &self.data, self.pos);
        out.push_str(&crate::text::decode(rest.get(..len).unwrap_or(&[])));
    }

    /// The usual case: the next line of a file, when it lies in the checked window, as
    /// the span of it in [`Records::window_text`]; `None` when it does not (then `next`
    /// takes the general path).
    #[inline]
    pub fn next_in_window(&mut self, c: u8) -> Option<(usize, usize)> {
        let at = self.pos.wrapping_sub(self.window.0);
        let text = self.window.1.as_bytes().get(at..)?;
        let len = memchr::memchr(c, text)?;
        // Both ends on character boundaries (RS's byte may be part of a character).
        self.window.1.get(at..at + len)?;
        self.pos += len + 1;
        self.last_ascii = self.window_ascii;
        Some((at, at + len))
    }

    /// The checked window the spans of [`Records::next_in_window`] are in.
    #[inline]
    pub fn window_text(&self) -> &Rc<String> {
        &self.window.1
    }

    /// The next record, without its terminator, into `out` (reusing its buffer);
    /// false, with `out` untouched, when the input is done.
    pub fn next(&mut self, mode: &RsMode, src: &mut dyn Read, out: &mut String) -> R<bool> {
        self.last_ascii = false;
        if !matches!(mode, RsMode::Regex(_)) {
            self.decoded = None;
        }
        loop {
            let rest = Self::rest(&self.whole, &self.data, self.pos);
            match mode {
                RsMode::Char(c) => {
                    if let Some(p) = memchr::memchr(*c, rest) {
                        self.cut(p, out);
                        self.pos += p + 1;
                        return Ok(true);
                    }
                }
                RsMode::Paragraph => {
                    let lead = rest.iter().take_while(|&&b| b == b'\n').count();
                    let body = rest.get(lead..).unwrap_or(&[]);
                    if let Some(p) = body.windows(2).position(|w| w == b"\n\n") {
                        let mut end = p + 2;
                        while body.get(end) == Some(&b'\n') {
                            end += 1;
                        }
                        // Need to know the run of newlines has ended.
                        if end < body.len() || self.eof || !self.streaming {
                            *out = crate::text::decode(body.get(..p).unwrap_or(&[]));
                            self.pos += lead + end;
                            return Ok(true);
                        }
                    }
                }
                RsMode::Regex(re) => {
                    if self.eof || !self.streaming {
                        let (text, at) = self
                            .decoded
                            .get_or_insert_with(|| (crate::text::decode(rest), 0));
                        let tail = text.get(*at..).unwrap_or("");
                        if let Some(m) = re.find(tail).filter(|m| m.end() > m.start()) {
                            out.clear();
                            out.push_str(tail.get(..m.start()).unwrap_or(""));
                            self.pos +=
                                crate::text::encode(tail.get(..m.end()).unwrap_or("")).len();
                            *at += m.end();
                            return Ok(true);
                        }
                        self.decoded = None;
                    }
                }
            }
            if !self.fill(src)? {
                let rest = Self::rest(&self.whole, &self.data, self.pos);
                if rest.is_empty() {
                    return Ok(false);
                }
                let mut rec = rest.to_vec();
                self.pos += rest.len();
                if matches!(mode, RsMode::Paragraph) {
                    let lead = rec.iter().take_while(|&&b| b == b'\n').count();
                    rec.drain(..lead);
                    while rec.last() == Some(&b'\n') {
                        rec.pop();
                    }
                    if rec.is_empty() {
                        return Ok(false);
                    }
                }
                *out = crate::text::decode(&rec);
                return Ok(true);
            }
        }
    }
}

/// `$0`'s text: a buffer of its own, or a line of the main input's checked window
/// (shared, not copied: most records are only read, many only measured).
enum RecordText {
    Own(String),
    View(Rc<String>, usize, usize),
}

impl RecordText {
    #[inline]
    fn as_str(&self) -> &str {
        match self {
            RecordText::Own(s) => s,
            RecordText::View(w, a, b) => w.get(*a..*b).unwrap_or(""),
        }
    }

    /// The length in bytes.
    #[inline]
    fn len(&self) -> usize {
        match self {
            RecordText::Own(s) => s.len(),
            RecordText::View(_, a, b) => b.saturating_sub(*a),
        }
    }
}

enum OutKind {
    /// A file, FIFO or `>(...)` path, written as its buffer fills, at `fflush` and at
    /// `close` (as gawk's stdio buffering does).
    File(crate::commands::util::Output),
    Pipe(String),
    Stdout,
    Stderr,
}

/// How many bytes a file output holds before they are written.
const OUT_BUF: usize = 8192;

struct OutStream {
    kind: OutKind,
    buf: Vec<u8>,
}

pub struct Io<'a> {
    pub stdin: &'a mut dyn Read,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
    pub host: &'a mut dyn super::super::Host,
    pub fs: &'a SharedFs,
    pub cwd: &'a str,
    /// The mode of a file `print >` creates (0666 less the umask).
    pub file_mode: u32,
    /// Local time for `strftime` and `mktime` (the `TZ` awk was given).
    pub zone: crate::timefmt::Zone,
}

pub struct Interp<'p, 'a> {
    pub prog: &'p Program,
    pub globals: Vec<Cell>,
    frames: Vec<Vec<Cell>>,
    /// Locals outside any call (never used by a valid program).
    scratch: Vec<Cell>,
    record: RecordText,
    /// Known to be all ASCII, so `length` is its byte count (false: not known).
    record_ascii: bool,
    /// The buffer of the record before, to read the next one into.
    spare: String,
    fields: Vec<String>,
    split_done: bool,
    /// FS and whether RS was empty when the record was read: they split it.
    record_fs: Value,
    record_paragraph: bool,
    /// `$0` as a value, made when first read.
    record_value: Option<Value>,
    rs_cache: Option<(Value, RsMode)>,
    pub io: Io<'a>,
    out: Vec<u8>,
    outputs: HashMap<String, OutStream>,
    readers: HashMap<String, Records>,
    /// Compiled regexes by source. Shared rather than cloned: a cloned `Regex` starts
    /// with no search cache of its own and builds one on first use.
    regexes: HashMap<String, Rc<Regex>>,
    range_active: Vec<bool>,
    /// Main input state.
    main: Option<Records>,
    arg_index: usize,
    main_done: bool,
    pub exit_code: i32,
    rand_state: u64,
    seed: f64,
    prev_seed: f64,
    steps: u32,
    depth: usize,
    stdin_used: bool,
}

impl<'p, 'a> Interp<'p, 'a> {
    pub fn new(prog: &'p Program, io: Io<'a>) -> Interp<'p, 'a> {
        let mut globals = vec![Cell::Val(Value::Uninit); prog.globals.len()];
        let set = |g: &mut Vec<Cell>, k: usize, v: Value| {
            if let Some(c) = g.get_mut(k) {
                *c = Cell::Val(v);
            }
        };
        set(&mut globals, slot::FS, Value::Str(" ".into()));
        set(&mut globals, slot::OFS, Value::Str(" ".into()));
        set(&mut globals, slot::ORS, Value::Str("\n".into()));
        set(&mut globals, slot::RS, Value::Str("\n".into()));
        set(&mut globals, slot::SUBSEP, Value::Str("\x1c".into()));
        set(&mut globals, slot::CONVFMT, Value::Str("%.6g".into()));
        set(&mut globals, slot::OFMT, Value::Str("%.6g".into()));
        set(&mut globals, slot::NR, Value::Num(0.0));
        set(&mut globals, slot::FNR, Value::Num(0.0));
        set(&mut globals, slot::NF, Value::Num(0.0));
        set(&mut globals, slot::RSTART, Value::Num(0.0));
        set(&mut globals, slot::RLENGTH, Value::Num(-1.0));
        let range_active = vec![false; prog.items.len()];
        Interp {
            prog,
            globals,
            frames: Vec::new(),
            scratch: Vec::new(),
            record: RecordText::Own(String::new()),
            record_ascii: false,
            spare: String::new(),
            fields: Vec::new(),
            split_done: true,
            record_fs: Value::Str(" ".into()),
            record_paragraph: false,
            record_value: None,
            rs_cache: None,
            io,
            out: Vec::new(),
            outputs: HashMap::new(),
            readers: HashMap::new(),
            regexes: HashMap::new(),
            range_active,
            main: None,
            arg_index: 1,
            main_done: false,
            exit_code: 0,
            rand_state: 0x853c_49e6_748f_ea9b,
            seed: 0.0,
            prev_seed: 0.0,
            steps: 0,
            depth: 0,
            stdin_used: false,
        }
    }

    // ----- variables -----

    fn cell(&mut self, v: &Var) -> &mut Cell {
        match v {
            Var::Global(k) => {
                if *k >= self.globals.len() {
                    self.globals.resize(*k + 1, Cell::Val(Value::Uninit));
                }
                &mut self.globals[*k]
            }
            Var::Local(k) => {
                let frame = self.frames.last_mut().unwrap_or(&mut self.scratch);
                if *k >= frame.len() {
                    frame.resize(*k + 1, Cell::Val(Value::Uninit));
                }
                &mut frame[*k]
            }
        }
    }

    pub fn set_global(&mut self, k: usize, v: Value) {
        if let Some(c) = self.globals.get_mut(k) {
            *c = Cell::Val(v);
        }
    }

    fn global(&self, k: usize) -> Value {
        match self.globals.get(k) {
            Some(Cell::Val(v)) => v.clone(),
            _ => Value::Uninit,
        }
    }

    fn global_str(&self, k: usize) -> String {
        let v = self.global(k);
        self.to_str(&v)
    }

    pub fn array(&mut self, v: &Var) -> R<Rc<RefCell<Array>>> {
        let name = self.var_name(v);
        let cell = self.cell(v);
        match cell {
            Cell::Arr(a) => Ok(a.clone()),
            Cell::Val(Value::Uninit) => {
                let a = Rc::new(RefCell::new(Array::default()));
                *cell = Cell::Arr(a.clone());
                Ok(a)
            }
            Cell::Val(_) => Err(fatal(format!("attempt to use scalar `{name}' as an array"))),
        }
    }

    fn var_name(&self, v: &Var) -> String {
        match v {
            Var::Global(k) => self.prog.globals.get(*k).cloned().unwrap_or_default(),
            Var::Local(_) => "parameter".to_owned(),
        }
    }

    fn read_var(&mut self, v: &Var) -> R<Value> {
        if let Var::Global(slot::NF) = v {
            self.split();
        }
        match self.cell(v) {
            Cell::Val(val) => Ok(val.clone()),
            Cell::Arr(_) => Err(fatal(format!(
                "attempt to use array `{}' in a scalar context",
                self.var_name(v)
            ))),
        }
    }

    fn write_var(&mut self, v: &Var, val: Value) -> R<()> {
        let cell = self.cell(v);
        if let Cell::Arr(_) = cell {
            return Err(fatal(format!(
                "attempt to use array `{}' in a scalar context",
                self.var_name(v)
            )));
        }
        let nf = matches!(v, Var::Global(slot::NF)).then(|| to_num(&val).max(0.0) as usize);
        *cell = Cell::Val(val);
        if let Some(n) = nf {
            self.split();
            self.fields.resize(n, String::new());
            self.rebuild();
            self.set_global(slot::NF, Value::Num(n as f64));
        }
        Ok(())
    }

    // ----- conversions -----

    pub fn to_num(&self, v: &Value) -> f64 {
        to_num(v)
    }

    pub fn to_str(&self, v: &Value) -> String {
        match v {
            Value::Uninit => String::new(),
            Value::Num(n) => {
                let fmt = match self.globals.get(slot::CONVFMT) {
                    Some(Cell::Val(Value::Str(s))) => s,
                    _ => "%.6g",
                };
                num_to_str(*n, fmt)
            }
            Value::Str(s) | Value::StrNum(s) => String::from(&**s),
        }
    }

    fn to_out_str(&self, v: &Value) -> String {
        match v {
            Value::Num(n) => {
                let fmt = match self.globals.get(slot::OFMT) {
                    Some(Cell::Val(Value::Str(s))) => s,
                    _ => "%.6g",
                };
                num_to_str(*n, fmt)
            }
            other => self.to_str(other),
        }
    }

    fn truthy(&self, v: &Value) -> bool {
        match v {
            Value::Uninit => false,
            Value::Num(n) => *n != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::StrNum(s) => str_to_num(s) != 0.0,
        }
    }

    fn compare(&self, a: &Value, b: &Value) -> std::cmp::Ordering {
        let numeric = |v: &Value| matches!(v, Value::Num(_) | Value::StrNum(_) | Value::Uninit);
        if numeric(a) && numeric(b) {
            let (x, y) = (self.to_num(a), self.to_num(b));
            return x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal);
        }
        self.to_str(a).cmp(&self.to_str(b))
    }

    // ----- records -----

    /// A new `$0`. Fields are split when first needed (NF counts as a need), with the
    /// FS of now.
    pub fn set_record(&mut self, text: String) {
        self.start_record(text);
        self.record_paragraph = match self.globals.get(slot::RS) {
            Some(Cell::Val(Value::Str(s) | Value::StrNum(s))) => s.is_empty(),
            Some(Cell::Val(Value::Num(_))) => false,
            _ => true,
        };
    }

    /// `set_record` but for whether RS is empty (known by a caller that has RS's mode).
    #[inline]
    fn start_record(&mut self, text: String) {
        if let RecordText::Own(old) = std::mem::replace(&mut self.record, RecordText::Own(text)) {
            self.spare = old;
        }
        self.begin_record();
    }

    /// What every new `$0` resets.
    #[inline(always)]
    fn begin_record(&mut self) {
        self.record_ascii = false;
        self.record_value = None;
        self.split_done = false;
        // Usually the FS of the record before: the same value, not cloned again.
        let fs = match self.globals.get(slot::FS) {
            Some(Cell::Val(v)) => v,
            _ => &Value::Uninit,
        };
        if !identical(fs, &self.record_fs) {
            self.record_fs = fs.clone();
        }
    }

    /// Reads the next main-input record into `$0` (NR and FNR advanced); false at the
    /// end of the input. A line of a file in its reader's checked window, with RS as
    /// it was, is taken without the general path's steps (most records, most runs).
    #[inline]
    pub fn next_input_record(&mut self) -> R<bool> {
        if let (Some(r), Some((key, RsMode::Char(c))), Some(Cell::Val(rs))) =
            (&mut self.main, &self.rs_cache, self.globals.get(slot::RS))
            && identical(key, rs)
            && let Some((a, b)) = r.next_in_window(*c)
        {
            let ascii = r.last_ascii;
            // `$0` views the window: the same one as the record before's, mostly.
            match &mut self.record {
                RecordText::View(w, x, y) if Rc::ptr_eq(w, r.window_text()) => (*x, *y) = (a, b),
                rec => {
                    let view = RecordText::View(r.window_text().clone(), a, b);
                    if let RecordText::Own(old) = std::mem::replace(rec, view)
                        && old.capacity() > self.spare.capacity()
                    {
                        self.spare = old;
                    }
                }
            }
            self.begin_record();
            // RS is one character: not paragraph mode.
            self.record_paragraph = false;
            self.record_ascii = ascii;
            self.count(slot::NR);
            self.count(slot::FNR);
            return Ok(true);
        }
        // `$0` stops viewing the window, which can then be refilled in place (`$0` stays
        // as it is when the input has ended, for END).
        if let RecordText::View(..) = self.record {
            let mut own = std::mem::take(&mut self.spare);
            own.clear();
            own.push_str(self.record.as_str());
            self.record = RecordText::Own(own);
        }
        let mut text = self.spare_buffer();
        if !self.next_main_record(&mut text)? {
            return Ok(false);
        }
        self.set_record(text);
        self.record_ascii = self.main.as_ref().is_some_and(|r| r.last_ascii);
        Ok(true)
    }

    /// A buffer for the next record: the one the record before last was in.
    fn spare_buffer(&mut self) -> String {
        std::mem::take(&mut self.spare)
    }

    fn split(&mut self) {
        if self.split_done {
            return;
        }
        self.split_done = true;
        let fs = self.to_str(&self.record_fs.clone());
        let paragraph = self.record_paragraph;
        let record = std::mem::replace(&mut self.record, RecordText::Own(String::new()));
        let mut fields = self.split_with(record.as_str(), &fs);
        self.record = record;
        if paragraph && fs == " " {
            // Newlines already separate fields with the default FS.
        } else if paragraph {
            fields = fields
                .into_iter()
                .flat_map(|f| f.split('\n').map(str::to_owned).collect::<Vec<_>>())
                .collect();
        }
        self.fields = fields;
        let n = self.fields.len() as f64;
        self.set_global(slot::NF, Value::Num(n));
    }

    /// Splits text by a field separator as FS does.
    fn split_with(&mut self, text: &str, fs: &str) -> Vec<String> {
        if fs == " " {
            return text
                .split([' ', '\t', '\n'])
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
        }
        if text.is_empty() {
            return Vec::new();
        }
        if fs.is_empty() {
            return text.chars().map(String::from).collect();
        }
        // POSIX: any other single character separates fields wherever it occurs, taken
        // literally even when it is a regex metacharacter or a backslash (gawk alike);
        // only longer values are regular expressions.
        let mut chars = fs.chars();
        if let (Some(c), None) = (chars.next(), chars.next()) {
            return text.split(c).map(str::to_owned).collect();
        }
        match self.regex(fs) {
            Ok(re) => {
                let mut out = Vec::new();
                let mut last = 0;
                for m in re.find_iter(text) {
                    if m.end() == m.start() {
                        continue;
                    }
                    out.push(text.get(last..m.start()).unwrap_or("").to_owned());
                    last = m.end();
                }
                out.push(text.get(last..).unwrap_or("").to_owned());
                out
            }
            Err(_) => vec![text.to_owned()],
        }
    }

    fn rebuild(&mut self) {
        let ofs = self.global_str(slot::OFS);
        self.record = RecordText::Own(self.fields.join(&ofs));
        self.record_ascii = false;
        self.record_value = None;
    }

    /// The field number `$e` names (a negative one is fatal).
    fn field_index(&mut self, e: &Expr) -> R<usize> {
        let i = match e {
            // `$0`, the commonest, without a float conversion.
            Expr::Num(n) if *n == 0.0 => return Ok(0),
            Expr::Num(n) => *n,
            e => {
                let v = self.eval(e)?;
                to_num(&v)
            }
        };
        if i < 0.0 {
            return Err(fatal(format!("attempt to access field {}", i as i64)));
        }
        Ok(i as usize)
    }

    /// The text of field `i` (`$0` is the record), `None` past the last field.
    fn field_text(&mut self, i: usize) -> Option<&str> {
        if i == 0 {
            return Some(self.record.as_str());
        }
        self.split();
        self.fields.get(i - 1).map(String::as_str)
    }

    fn get_field(&mut self, i: usize) -> Value {
        if i == 0 {
            return self
                .record_value
                .get_or_insert_with(|| input_value(self.record.as_str()))
                .clone();
        }
        self.field_text(i).map_or(Value::Uninit, input_value)
    }

    fn set_field(&mut self, i: usize, v: &Value) {
        let s = self.to_str(v);
        if i == 0 {
            self.set_record(s);
            return;
        }
        self.split();
        if self.fields.len() < i {
            self.fields.resize(i, String::new());
            self.set_global(slot::NF, Value::Num(i as f64));
        }
        if let Some(f) = self.fields.get_mut(i - 1) {
            *f = s;
        }
        self.rebuild();
    }

    // ----- regexes -----

    pub fn regex(&mut self, src: &str) -> R<Rc<Regex>> {
        if let Some(r) = self.regexes.get(src) {
            return Ok(r.clone());
        }
        let t = crate::posix_regex::translate(src, true)
            .map_err(|e| fatal(format!("invalid regex /{src}/: {e}")))?;
        let re = Regex::new(&t).map_err(|e| {
            let msg = e.to_string();
            fatal(format!(
                "invalid regex /{src}/: {}",
                msg.lines()
                    .last()
                    .unwrap_or("")
                    .trim()
                    .trim_start_matches("error: ")
            ))
        })?;
        if self.regexes.len() > 500 {
            self.regexes.clear();
        }
        let re = Rc::new(re);
        self.regexes.insert(src.to_owned(), re.clone());
        Ok(re)
    }

    /// The regex an expression stands for (a literal, or a dynamic string).
    fn regex_of(&mut self, e: &Expr) -> R<Rc<Regex>> {
        match e {
            Expr::Regex(r) => self.regex(r),
            other => {
                let v = self.eval(other)?;
                let s = self.to_str(&v);
                self.regex(&s)
            }
        }
    }

    // ----- evaluation -----

    fn tick(&mut self) -> R<()> {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(1024) {
            self.io.host.check()?;
            if self.out.len() > 1 << 16 {
                self.io.stdout.write_all(&self.out)?;
                self.out.clear();
            }
        }
        Ok(())
    }

    fn subscript(&mut self, idx: &[Expr]) -> R<String> {
        if let [one] = idx {
            let v = self.eval(one)?;
            return Ok(self.to_str(&v));
        }
        let sep = self.global_str(slot::SUBSEP);
        let mut parts = Vec::new();
        for e in idx {
            let v = self.eval(e)?;
            parts.push(self.to_str(&v));
        }
        Ok(parts.join(&sep))
    }

    fn read_lvalue(&mut self, lv: &LValue) -> R<Value> {
        match lv {
            LValue::Var(v) => self.read_var(v),
            LValue::Index(v, idx) => {
                let k = self.subscript(idx)?;
                let arr = self.array(v)?;
                let got = arr.borrow().get(&k).cloned();
                match got {
                    Some(val) => Ok(val),
                    None => {
                        // Referencing an element creates it.
                        arr.borrow_mut().set(&k, Value::Uninit);
                        Ok(Value::Uninit)
                    }
                }
            }
            LValue::Field(e) => {
                let i = self.field_index(e)?;
                Ok(self.get_field(i))
            }
        }
    }

    fn write_lvalue(&mut self, lv: &LValue, val: Value) -> R<()> {
        match lv {
            LValue::Var(v) => self.write_var(v, val),
            LValue::Index(v, idx) => {
                let k = self.subscript(idx)?;
                let arr = self.array(v)?;
                arr.borrow_mut().set(&k, val);
                Ok(())
            }
            LValue::Field(e) => {
                let i = self.field_index(e)?;
                self.set_field(i, &val);
                Ok(())
            }
        }
    }

    /// Resolves an lvalue's index once so compound assignments evaluate it once.
    fn pin(&mut self, lv: &LValue) -> R<LValue> {
        Ok(match lv {
            LValue::Var(v) => LValue::Var(v.clone()),
            LValue::Index(v, idx) => {
                let k = self.subscript(idx)?;
                LValue::Index(v.clone(), vec![Expr::Str(k.into())])
            }
            LValue::Field(e) => {
                let v = self.eval(e)?;
                LValue::Field(Box::new(Expr::Num(self.to_num(&v))))
            }
        })
    }

    fn arith(op: Arith, x: f64, y: f64) -> R<f64> {
        Ok(match op {
            Arith::Add => x + y,
            Arith::Sub => x - y,
            Arith::Mul => x * y,
            Arith::Div => {
                if y == 0.0 {
                    return Err(fatal("division by zero attempted"));
                }
                x / y
            }
            Arith::Mod => {
                if y == 0.0 {
                    return Err(fatal("division by zero attempted in `%'"));
                }
                x % y
            }
            Arith::Pow => x.powf(y),
        })
    }

    pub fn eval(&mut self, e: &Expr) -> R<Value> {
        Ok(match e {
            Expr::Num(n) => Value::Num(*n),
            Expr::Str(s) => Value::Str(s.clone()),
            Expr::Regex(r) => {
                let re = self.regex(r)?;
                Value::Num(f64::from(u8::from(re.is_match(self.record.as_str()))))
            }
            Expr::Group(inner) => self.eval(inner)?,
            Expr::LValue(lv) => self.read_lvalue(lv)?,
            Expr::Assign(lv, op, rhs) => self.assign(lv, *op, rhs)?,
            Expr::Cond(c, a, b) => {
                let cv = self.eval(c)?;
                if self.truthy(&cv) {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            Expr::And(a, b) => {
                let av = self.eval(a)?;
                let r = self.truthy(&av) && {
                    let bv = self.eval(b)?;
                    self.truthy(&bv)
                };
                Value::Num(f64::from(u8::from(r)))
            }
            Expr::Or(a, b) => {
                let av = self.eval(a)?;
                let r = self.truthy(&av) || {
                    let bv = self.eval(b)?;
                    self.truthy(&bv)
                };
                Value::Num(f64::from(u8::from(r)))
            }
            Expr::In(keys, v) => {
                let k = self.subscript(keys)?;
                let arr = self.array(v)?;
                let has = arr.borrow().get(&k).is_some();
                Value::Num(f64::from(u8::from(has)))
            }
            Expr::Match(neg, l, r) => {
                let lv = self.eval(l)?;
                let s = self.to_str(&lv);
                let re = self.regex_of(r)?;
                Value::Num(f64::from(u8::from(re.is_match(&s) != *neg)))
            }
            Expr::Compare(op, l, r) => {
                use std::cmp::Ordering::*;
                let lv = self.eval(l)?;
                let rv = self.eval(r)?;
                let o = self.compare(&lv, &rv);
                let b = match op {
                    Cmp::Lt => o == Less,
                    Cmp::Le => o != Greater,
                    Cmp::Gt => o == Greater,
                    Cmp::Ge => o != Less,
                    Cmp::Eq => o == Equal,
                    Cmp::Ne => o != Equal,
                };
                Value::Num(f64::from(u8::from(b)))
            }
            Expr::Arith(op, l, r) => {
                let x = self.eval_num(l)?;
                let y = self.eval_num(r)?;
                Value::Num(Self::arith(*op, x, y)?)
            }
            Expr::Concat(a, b) => {
                let av = self.eval(a)?;
                let mut s = self.to_str(&av);
                let bv = self.eval(b)?;
                s.push_str(&self.to_str(&bv));
                Value::Str(s.into())
            }
            Expr::Neg(a) => Value::Num(-self.eval_num(a)?),
            Expr::Plus(a) => {
                let v = self.eval(a)?;
                Value::Num(self.to_num(&v))
            }
            Expr::Not(a) => {
                let v = self.eval(a)?;
                Value::Num(f64::from(u8::from(!self.truthy(&v))))
            }
            Expr::IncDec { pre, delta, target } => {
                let lv = self.pin(target)?;
                let cur = self.read_lvalue(&lv)?;
                let n = self.to_num(&cur);
                self.write_lvalue(&lv, Value::Num(n + delta))?;
                Value::Num(if *pre { n + delta } else { n })
            }
            Expr::Call(f, args) => self.call(*f, args)?,
            Expr::Builtin(Builtin::Length, args) => self.length(args)?,
            Expr::Builtin(b, args) => self.builtin(*b, args)?,
            // The parser keeps a list only as the keys of `in`.
            Expr::List(_) => return Err(fatal("syntax error: a list outside `(...) in array'")),
            Expr::Getline(var, src) => self.getline(var.as_deref(), src)?,
        })
    }

    /// `e` as a number: what `to_num(eval(e))` gives, without making values for the
    /// commonest operands of arithmetic (numbers, variables, `length`, arithmetic).
    fn eval_num(&mut self, e: &Expr) -> R<f64> {
        match e {
            Expr::Num(n) => Ok(*n),
            Expr::Group(inner) => self.eval_num(inner),
            Expr::Arith(op, l, r) => {
                let x = self.eval_num(l)?;
                let y = self.eval_num(r)?;
                Self::arith(*op, x, y)
            }
            Expr::Neg(a) => Ok(-self.eval_num(a)?),
            Expr::Builtin(Builtin::Length, args) => Ok(self.length_of(args)? as f64),
            Expr::LValue(LValue::Var(v)) if !matches!(v, Var::Global(slot::NF)) => {
                match self.cell(v) {
                    Cell::Val(val) => Ok(to_num(val)),
                    Cell::Arr(_) => self.read_var(v).map(|v| to_num(&v)),
                }
            }
            e => self.eval(e).map(|v| to_num(&v)),
        }
    }

    /// `lv = rhs`, or `lv op= rhs`; the assigned value.
    fn assign(&mut self, lv: &LValue, op: Option<Arith>, rhs: &Expr) -> R<Value> {
        if let (LValue::Var(v), Some(op)) = (lv, op) {
            let y = self.eval_num(rhs)?;
            // A plain scalar is updated where it is (NF rebuilds the record: below).
            if !matches!(v, Var::Global(slot::NF))
                && let Cell::Val(cur) = self.cell(v)
            {
                let n = Self::arith(op, to_num(cur), y)?;
                *cur = Value::Num(n);
                return Ok(Value::Num(n));
            }
            let cur = self.read_var(v)?;
            let val = Value::Num(Self::arith(op, to_num(&cur), y)?);
            self.write_var(v, val.clone())?;
            return Ok(val);
        }
        self.assign_lvalue(lv, op, rhs)
    }

    /// `assign` to an element, a field, or with `=`.
    #[inline(never)]
    fn assign_lvalue(&mut self, lv: &LValue, op: Option<Arith>, rhs: &Expr) -> R<Value> {
        let lv = self.pin(lv)?;
        let r = self.eval(rhs)?;
        let val = match op {
            // Assigning a strnum keeps it a strnum.
            None => r,
            Some(op) => {
                let cur = self.read_lvalue(&lv)?;
                Value::Num(Self::arith(op, to_num(&cur), to_num(&r))?)
            }
        };
        self.write_lvalue(&lv, val.clone())?;
        Ok(val)
    }

    fn call(&mut self, f: usize, args: &[Expr]) -> R<Value> {
        let prog = self.prog;
        let Some(func) = prog.funcs.get(f) else {
            return Err(fatal("call of undefined function"));
        };
        if args.len() > func.params {
            return Err(fatal(format!(
                "function `{}' called with more arguments than declared",
                func.name
            )));
        }
        if self.depth > 2000 {
            return Err(fatal("function call nesting too deep"));
        }
        let mut frame = Vec::with_capacity(func.params);
        for (k, a) in args.iter().enumerate() {
            let wants_array = func.array_params.get(k).copied().unwrap_or(false);
            let cell = match a {
                Expr::LValue(LValue::Var(v)) => {
                    let is_arr = matches!(self.cell(v), Cell::Arr(_));
                    if is_arr || wants_array {
                        Cell::Arr(self.array(v)?)
                    } else {
                        Cell::Val(self.read_var(v)?)
                    }
                }
                other => Cell::Val(self.eval(other)?),
            };
            frame.push(cell);
        }
        frame.resize(func.params, Cell::Val(Value::Uninit));
        self.frames.push(frame);
        self.depth += 1;
        let r = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.run_func(func));
        self.depth -= 1;
        self.frames.pop();
        match r? {
            Ctrl::Return(v) => Ok(v),
            Ctrl::Exit => Err(io::Error::other(Unwind(0))),
            Ctrl::Next => Err(io::Error::other(Unwind(1))),
            Ctrl::NextFile => Err(io::Error::other(Unwind(2))),
            _ => Ok(Value::Uninit),
        }
    }

    fn run_func(&mut self, func: &Func) -> R<Ctrl> {
        self.exec_block(&func.body)
    }

    // ----- statements -----

    pub fn exec_block(&mut self, stmts: &[Stmt]) -> R<Ctrl> {
        for s in stmts {
            match self.exec(s)? {
                Ctrl::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Ctrl::Normal)
    }

    #[inline]
    fn exec(&mut self, s: &Stmt) -> R<Ctrl> {
        // The usual statement, without the frame of every other kind's code.
        let r = match s {
            Stmt::Expr(Expr::Assign(lv, op, rhs)) => {
                self.tick().and_then(|()| self.assign_stmt(lv, *op, rhs))
            }
            s => self.exec_inner(s),
        };
        r.or_else(Self::unwound)
    }

    /// An assignment as a statement (its value unused): `var op= expr` on a global
    /// scalar, the usual one in a record loop, updates the number where it is.
    #[inline]
    fn assign_stmt(&mut self, lv: &LValue, op: Option<Arith>, rhs: &Expr) -> R<Ctrl> {
        if let (LValue::Var(v @ Var::Global(k)), Some(op)) = (lv, op)
            && *k != slot::NF
        {
            let y = self.eval_num(rhs)?;
            if let Some(Cell::Val(cur)) = self.globals.get_mut(*k) {
                *cur = Value::Num(Self::arith(op, to_num(cur), y)?);
                return Ok(Ctrl::Normal);
            }
            let cur = self.read_var(v)?;
            let val = Value::Num(Self::arith(op, to_num(&cur), y)?);
            self.write_var(v, val)?;
            return Ok(Ctrl::Normal);
        }
        self.assign(lv, op, rhs).map(|_| Ctrl::Normal)
    }

    /// `next`, `nextfile` and `exit` unwind as errors (from inside expressions too);
    /// here they become what the statement did.
    #[cold]
    fn unwound(e: io::Error) -> R<Ctrl> {
        match e.get_ref().and_then(|i| i.downcast_ref::<Unwind>()) {
            Some(Unwind(0)) => Ok(Ctrl::Exit),
            Some(Unwind(1)) => Ok(Ctrl::Next),
            Some(_) => Ok(Ctrl::NextFile),
            None => Err(e),
        }
    }

    #[inline(never)]
    fn exec_inner(&mut self, s: &Stmt) -> R<Ctrl> {
        self.tick()?;
        match s {
            Stmt::Expr(e) => {
                self.eval(e)?;
            }
            Stmt::Print(args, redir) => {
                let text = if args.is_empty() {
                    self.record.as_str().to_owned()
                } else {
                    let ofs = self.global_str(slot::OFS);
                    let mut parts = Vec::new();
                    for a in args {
                        let v = self.eval(a)?;
                        parts.push(self.to_out_str(&v));
                    }
                    parts.join(&ofs)
                };
                let mut bytes = crate::text::encode(&text);
                bytes.extend_from_slice(&crate::text::encode(&self.global_str(slot::ORS)));
                self.emit(redir.as_ref(), &bytes)?;
            }
            Stmt::Printf(args, redir) => {
                let text = self.sprintf_args(args)?;
                self.emit(redir.as_ref(), &crate::text::encode(&text))?;
            }
            Stmt::If(c, a, b) => {
                let v = self.eval(c)?;
                if self.truthy(&v) {
                    return self.exec(a);
                } else if let Some(b) = b {
                    return self.exec(b);
                }
            }
            Stmt::While(c, body) => loop {
                let v = self.eval(c)?;
                if !self.truthy(&v) {
                    break;
                }
                match self.exec(body)? {
                    Ctrl::Break => break,
                    Ctrl::Normal | Ctrl::Continue => {}
                    other => return Ok(other),
                }
                self.tick()?;
            },
            Stmt::DoWhile(body, c) => loop {
                match self.exec(body)? {
                    Ctrl::Break => break,
                    Ctrl::Normal | Ctrl::Continue => {}
                    other => return Ok(other),
                }
                let v = self.eval(c)?;
                if !self.truthy(&v) {
                    break;
                }
            },
            Stmt::For(init, cond, step, body) => {
                if let Some(i) = init {
                    self.exec(i)?;
                }
                loop {
                    if let Some(c) = cond {
                        let v = self.eval(c)?;
                        if !self.truthy(&v) {
                            break;
                        }
                    }
                    match self.exec(body)? {
                        Ctrl::Break => break,
                        Ctrl::Normal | Ctrl::Continue => {}
                        other => return Ok(other),
                    }
                    if let Some(st) = step {
                        self.exec(st)?;
                    }
                    self.tick()?;
                }
            }
            Stmt::ForIn(k, arr, body) => {
                let a = self.array(arr)?;
                let keys = a.borrow().keys();
                for key in keys {
                    if a.borrow().get(&key).is_none() {
                        continue;
                    }
                    self.write_var(k, input_value(&key))?;
                    match self.exec(body)? {
                        Ctrl::Break => break,
                        Ctrl::Normal | Ctrl::Continue => {}
                        other => return Ok(other),
                    }
                }
            }
            Stmt::Block(b) => return self.exec_block(b),
            Stmt::Next => return Ok(Ctrl::Next),
            Stmt::NextFile => return Ok(Ctrl::NextFile),
            Stmt::Exit(e) => {
                if let Some(e) = e {
                    let v = self.eval(e)?;
                    self.exit_code = (self.to_num(&v) as i64 & 0xff) as i32;
                }
                return Ok(Ctrl::Exit);
            }
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Value::Uninit,
                };
                return Ok(Ctrl::Return(v));
            }
            Stmt::Break => return Ok(Ctrl::Break),
            Stmt::Continue => return Ok(Ctrl::Continue),
            Stmt::Delete(v, idx) => {
                let arr = self.array(v)?;
                match idx {
                    Some(idx) => {
                        let k = self.subscript(idx)?;
                        arr.borrow_mut().remove(&k);
                    }
                    None => arr.borrow_mut().clear(),
                }
            }
        }
        Ok(Ctrl::Normal)
    }

    fn sprintf_args(&mut self, args: &[Expr]) -> R<String> {
        let Some((f, rest)) = args.split_first() else {
            return Ok(String::new());
        };
        let fv = self.eval(f)?;
        let fmt = self.to_str(&fv);
        let mut vals = Vec::new();
        for a in rest {
            let v = self.eval(a)?;
            vals.push(match v {
                Value::Num(n) => Arg::Num(n),
                Value::Str(s) => Arg::Str(s.to_string()),
                Value::StrNum(s) => Arg::Both(s.to_string(), str_to_num(&s)),
                Value::Uninit => Arg::Both(String::new(), 0.0),
            });
        }
        Ok(sprintf(&fmt, &vals))
    }

    // ----- output -----

    fn emit(&mut self, redir: Option<&Redirect>, bytes: &[u8]) -> R<()> {
        let Some(r) = redir else {
            self.out.extend_from_slice(bytes);
            return Ok(());
        };
        let (target, append, pipe) = match r {
            Redirect::File(e) => (e, false, false),
            Redirect::Append(e) => (e, true, false),
            Redirect::Pipe(e) => (e, false, true),
        };
        let v = self.eval(target)?;
        let name = self.to_str(&v);
        if !self.outputs.contains_key(&name) {
            let kind = if pipe {
                OutKind::Pipe(name.clone())
            } else if name == "/dev/stdout" || name == "-" {
                OutKind::Stdout
            } else if name == "/dev/stderr" {
                OutKind::Stderr
            } else {
                let path = crate::fs::path::join(self.io.cwd, &name);
                let opened = crate::commands::util::Output::open(
                    &*self.io.host,
                    self.io.fs,
                    &path,
                    append,
                    self.io.file_mode,
                )?;
                match opened {
                    Ok(out) => OutKind::File(out),
                    Err(e) => return Err(fatal(format!("can't redirect to `{name}' ({e})"))),
                }
            };
            self.outputs.insert(
                name.clone(),
                OutStream {
                    kind,
                    buf: Vec::new(),
                },
            );
        }
        if let Some(o) = self.outputs.get_mut(&name) {
            match o.kind {
                OutKind::Stdout => self.out.extend_from_slice(bytes),
                OutKind::Stderr => {
                    self.io.stdout.write_all(&self.out)?;
                    self.out.clear();
                    self.io.stderr.write_all(bytes)?;
                }
                OutKind::File(_) => {
                    o.buf.extend_from_slice(bytes);
                    if o.buf.len() >= OUT_BUF {
                        self.flush_file(&name)?;
                    }
                }
                OutKind::Pipe(_) => o.buf.extend_from_slice(bytes),
            }
        }
        Ok(())
    }

    /// Writes what a file output holds in its buffer.
    fn flush_file(&mut self, name: &str) -> R<()> {
        let Some(o) = self.outputs.get_mut(name) else {
            return Ok(());
        };
        let OutKind::File(out) = &mut o.kind else {
            return Ok(());
        };
        if o.buf.is_empty() {
            return Ok(());
        }
        let res = out.write(self.io.fs, &o.buf)?;
        o.buf.clear();
        match res {
            Ok(()) => Ok(()),
            Err(e) => Err(fatal(format!("can't write to `{name}' ({e})"))),
        }
    }

    /// `fflush()`: standard output and every file output.
    fn flush_all(&mut self) -> R<()> {
        self.flush_stdout()?;
        let mut names: Vec<String> = self.outputs.keys().cloned().collect();
        names.sort();
        for n in names {
            self.flush_file(&n)?;
        }
        Ok(())
    }

    pub fn flush_stdout(&mut self) -> R<()> {
        if !self.out.is_empty() {
            self.io.stdout.write_all(&self.out)?;
            self.out.clear();
        }
        self.io.stdout.flush()
    }

    /// Closes one output; returns the command's status for a pipe.
    fn close_output(&mut self, name: &str) -> R<Option<i32>> {
        self.flush_file(name)?;
        let Some(o) = self.outputs.remove(name) else {
            return Ok(None);
        };
        match o.kind {
            OutKind::File(_) => Ok(Some(0)),
            OutKind::Pipe(cmd) => {
                self.flush_stdout()?;
                let argv = vec!["sh".to_owned(), "-c".to_owned(), cmd];
                let mut input: &[u8] = &o.buf;
                let st = self.io.host.run(
                    &argv,
                    Stdio::Given(&mut input),
                    Stdio::Own(&mut *self.io.stdout),
                    Stdio::Own(&mut *self.io.stderr),
                )?;
                Ok(Some(st))
            }
            _ => Ok(Some(0)),
        }
    }

    pub fn close_all(&mut self) -> R<()> {
        let mut names: Vec<String> = self.outputs.keys().cloned().collect();
        names.sort();
        for n in names {
            self.close_output(&n)?;
        }
        self.flush_stdout()
    }

    // ----- input -----

    /// How RS splits records, worked out again only when RS has changed.
    #[inline]
    fn rs_mode(&mut self) -> R<&RsMode> {
        let current = match (&self.rs_cache, self.globals.get(slot::RS)) {
            (Some((key, _)), Some(Cell::Val(rs))) => identical(key, rs),
            _ => false,
        };
        if !current {
            self.refresh_rs_mode()?;
        }
        match &self.rs_cache {
            Some((_, mode)) => Ok(mode),
            None => Err(fatal("no record separator")),
        }
    }

    #[cold]
    fn refresh_rs_mode(&mut self) -> R<()> {
        let rs = self.global(slot::RS);
        let mode = self.rs_mode_of(&self.to_str(&rs))?;
        self.rs_cache = Some((rs, mode));
        Ok(())
    }

    fn rs_mode_of(&mut self, rs: &str) -> R<RsMode> {
        let mut chars = rs.chars();
        Ok(match (chars.next(), chars.next()) {
            (None, _) => RsMode::Paragraph,
            (Some(c), None) => RsMode::Char(
                crate::text::encode(&c.to_string())
                    .first()
                    .copied()
                    .unwrap_or(b'\n'),
            ),
            _ => RsMode::Regex(self.regex(rs)?),
        })
    }

    /// Opens the next main input file; false when there is none.
    fn open_next_main(&mut self) -> R<bool> {
        loop {
            let argc = {
                let v = self.global(slot::ARGC);
                self.to_num(&v) as usize
            };
            if self.arg_index >= argc {
                if !self.stdin_used {
                    self.stdin_used = true;
                    // Only when no file operand was ever named.
                    if !self.main_done {
                        self.main = Some(Records::stream());
                        self.set_global(slot::FILENAME, Value::Str("".into()));
                        return Ok(true);
                    }
                }
                return Ok(false);
            }
            let k = self.arg_index;
            self.arg_index += 1;
            let argv = self.array(&Var::Global(slot::ARGV))?;
            let arg = argv.borrow().get(&k.to_string()).cloned();
            let Some(arg) = arg else { continue };
            let name = self.to_str(&arg);
            if name.is_empty() {
                continue;
            }
            if let Some((var, val)) = name.split_once('=')
                && !var.is_empty()
                && var.chars().all(|c| c.is_alphanumeric() || c == '_')
                && !var.starts_with(|c: char| c.is_ascii_digit())
            {
                self.assign_command_line(var, val)?;
                continue;
            }
            self.main_done = true;
            self.stdin_used = true;
            self.set_global(slot::FNR, Value::Num(0.0));
            self.set_global(slot::FILENAME, Value::Str(name.as_str().into()));
            if name == "-" || name == "/dev/stdin" {
                self.main = Some(Records::stream());
                return Ok(true);
            }
            let path = crate::fs::path::join(self.io.cwd, &name);
            let data = crate::commands::util::open_named(&*self.io.host, self.io.fs, &path)?;
            match data {
                Ok(d) => {
                    self.main = Some(Records::named(d));
                    return Ok(true);
                }
                Err(e) => {
                    self.flush_stdout()?;
                    writeln!(
                        self.io.stderr,
                        "awk: fatal: cannot open file `{name}' for reading: {e}"
                    )?;
                    return Err(fatal(String::new()));
                }
            }
        }
    }

    /// `var=value` from the command line or `-v`: escapes processed, a strnum.
    pub fn assign_command_line(&mut self, var: &str, val: &str) -> R<()> {
        let text = unescape(val);
        let Some(k) = self.prog.globals.iter().position(|g| g == var) else {
            return Ok(());
        };
        self.write_var(&Var::Global(k), input_value(&text))
    }

    /// The next main-input record into `out` (NR and FNR advanced); false at the end
    /// of the input.
    pub fn next_main_record(&mut self, out: &mut String) -> R<bool> {
        loop {
            if self.main.is_none() && !self.open_next_main()? {
                return Ok(false);
            }
            self.rs_mode()?;
            let got = match (&mut self.main, &self.rs_cache) {
                (Some(r), Some((_, mode))) => r.next(mode, &mut *self.io.stdin, out)?,
                _ => false,
            };
            if got {
                self.count(slot::NR);
                self.count(slot::FNR);
                return Ok(true);
            }
            self.main = None;
        }
    }

    /// Adds one to the number in a global (NR, FNR).
    #[inline]
    fn count(&mut self, k: usize) {
        match self.globals.get_mut(k) {
            Some(Cell::Val(Value::Num(n))) => *n += 1.0,
            _ => self.count_text(k),
        }
    }

    /// `count` of a global the program set to a string.
    #[cold]
    fn count_text(&mut self, k: usize) {
        if let Some(Cell::Val(v)) = self.globals.get_mut(k) {
            *v = Value::Num(to_num(v) + 1.0);
        }
    }

    pub fn skip_file(&mut self) {
        self.main = None;
    }

    fn getline(&mut self, var: Option<&LValue>, src: &GetlineSrc) -> R<Value> {
        let text = match src {
            GetlineSrc::Main => {
                let mut text = String::new();
                if !self.next_main_record(&mut text)? {
                    return Ok(Value::Num(0.0));
                }
                text
            }
            GetlineSrc::File(e) | GetlineSrc::Cmd(e) => {
                let v = self.eval(e)?;
                let name = self.to_str(&v);
                if !self.readers.contains_key(&name) {
                    let rec = if matches!(src, GetlineSrc::Cmd(_)) {
                        self.flush_stdout()?;
                        let argv = vec!["sh".to_owned(), "-c".to_owned(), name.clone()];
                        // Like awk's own children, the command shares awk's stdin.
                        let mut out = Vec::new();
                        self.io.host.run(
                            &argv,
                            Stdio::Own(&mut *self.io.stdin),
                            Stdio::Given(&mut out),
                            Stdio::Own(&mut *self.io.stderr),
                        )?;
                        Records::memory(Arc::new(out))
                    } else if name == "-" || name == "/dev/stdin" {
                        Records::stream()
                    } else {
                        let path = crate::fs::path::join(self.io.cwd, &name);
                        let data =
                            crate::commands::util::open_named(&*self.io.host, self.io.fs, &path)?;
                        match data {
                            Ok(d) => Records::named(d),
                            Err(_) => return Ok(Value::Num(-1.0)),
                        }
                    };
                    self.readers.insert(name.clone(), rec);
                }
                self.rs_mode()?;
                let mut text = String::new();
                let got = match (self.readers.get_mut(&name), &self.rs_cache) {
                    (Some(r), Some((_, mode))) => r.next(mode, &mut *self.io.stdin, &mut text)?,
                    _ => false,
                };
                if !got {
                    return Ok(Value::Num(0.0));
                }
                if matches!(src, GetlineSrc::Cmd(_)) {
                    self.count(slot::NR);
                }
                text
            }
        };
        match var {
            Some(lv) => self.write_lvalue(lv, input_value(&text))?,
            None => {
                self.set_record(text);
            }
        }
        Ok(Value::Num(1.0))
    }

    // ----- built-ins -----

    fn arg(&mut self, args: &[Expr], k: usize) -> R<Value> {
        match args.get(k) {
            Some(e) => self.eval(e),
            None => Ok(Value::Uninit),
        }
    }

    fn arg_str(&mut self, args: &[Expr], k: usize) -> R<String> {
        let v = self.arg(args, k)?;
        Ok(self.to_str(&v))
    }

    fn arg_num(&mut self, args: &[Expr], k: usize) -> R<f64> {
        let v = self.arg(args, k)?;
        Ok(self.to_num(&v))
    }

    /// `length`, `length(x)`: characters in a string, elements in an array (kept out of
    /// `builtin`'s large frame: it is the one called once a record).
    fn length(&mut self, args: &[Expr]) -> R<Value> {
        Ok(Value::Num(self.length_of(args)? as f64))
    }

    fn length_of(&mut self, args: &[Expr]) -> R<usize> {
        // `length` and `length($0)`, the commonest, first.
        let whole = match args {
            [] => true,
            [Expr::LValue(LValue::Field(e))] => matches!(**e, Expr::Num(n) if n == 0.0),
            _ => false,
        };
        if whole {
            return Ok(if self.record_ascii {
                self.record.len()
            } else {
                char_count(self.record.as_str())
            });
        }
        if let Some(Expr::LValue(LValue::Var(v))) = args.first()
            && let Cell::Arr(a) = self.cell(v)
        {
            return Ok(a.borrow().len());
        }
        // `length`, `length($k)`: the field's text, without a value made of it.
        let field = match args.first() {
            None => Some(0),
            Some(Expr::LValue(LValue::Field(e))) => Some(self.field_index(e)?),
            Some(_) => None,
        };
        let n = match field {
            Some(0) if self.record_ascii => self.record.len(),
            Some(i) => self.field_text(i).map_or(0, char_count),
            None => match self.arg(args, 0)? {
                Value::Str(s) | Value::StrNum(s) => char_count(&s),
                v => char_count(&self.to_str(&v)),
            },
        };
        Ok(n)
    }

    fn builtin(&mut self, b: Builtin, args: &[Expr]) -> R<Value> {
        let num = |x: f64| Ok(Value::Num(x));
        match b {
            Builtin::Length => self.length(args),
            Builtin::Substr => {
                let s = self.arg_str(args, 0)?;
                let chars: Vec<char> = s.chars().collect();
                let m = self.arg_num(args, 1)?;
                // POSIX: characters from position m (rounded) for n (rounded).
                let start = round_half_even(m);
                let end = if args.len() > 2 {
                    let n = self.arg_num(args, 2)?;
                    if n.is_nan() {
                        start
                    } else {
                        start + round_half_even(n)
                    }
                } else {
                    f64::INFINITY
                };
                let from = start.max(1.0);
                let to = end.min(chars.len() as f64 + 1.0);
                if to <= from {
                    return Ok(Value::Str("".into()));
                }
                let (a, b) = (from as usize - 1, to as usize - 1);
                let out: String = chars.get(a..b).unwrap_or(&[]).iter().collect();
                Ok(Value::Str(out.into()))
            }
            Builtin::Index => {
                let s = self.arg_str(args, 0)?;
                let t = self.arg_str(args, 1)?;
                num(match s.find(&t) {
                    Some(p) => (s.get(..p).unwrap_or("").chars().count() + 1) as f64,
                    None => 0.0,
                })
            }
            Builtin::Split => {
                let s = self.arg_str(args, 0)?;
                let Some(Expr::LValue(LValue::Var(v))) = args.get(1) else {
                    return Err(fatal("split: second argument is not an array"));
                };
                let parts = match args.get(2) {
                    None => {
                        let fs = self.global_str(slot::FS);
                        self.split_with(&s, &fs)
                    }
                    Some(Expr::Regex(r)) => {
                        let r = r.clone();
                        self.split_regex(&s, &r)?
                    }
                    Some(e) => {
                        let fv = self.eval(e)?;
                        let fs = self.to_str(&fv);
                        self.split_with(&s, &fs)
                    }
                };
                let arr = self.array(v)?;
                let mut a = arr.borrow_mut();
                a.clear();
                for (k, p) in parts.iter().enumerate() {
                    a.set(&(k + 1).to_string(), input_value(p));
                }
                num(parts.len() as f64)
            }
            Builtin::Sub | Builtin::Gsub => self.sub(b == Builtin::Gsub, args),
            Builtin::Match => {
                let s = self.arg_str(args, 0)?;
                let re = match args.get(1) {
                    Some(e) => self.regex_of(e)?,
                    None => return Err(fatal("match: needs two arguments")),
                };
                let (start, len) = match re.captures(&s) {
                    Some(caps) => {
                        let m = caps.get(0);
                        let (ms, me) = m.map_or((0, 0), |m| (m.start(), m.end()));
                        if let Some(Expr::LValue(LValue::Var(v))) = args.get(2) {
                            let arr = self.array(v)?;
                            let mut a = arr.borrow_mut();
                            a.clear();
                            for (k, g) in caps.iter().enumerate() {
                                if let Some(g) = g {
                                    a.set(&k.to_string(), input_value(g.as_str()));
                                }
                            }
                        }
                        let cstart = s.get(..ms).unwrap_or("").chars().count() + 1;
                        let clen = s.get(ms..me).unwrap_or("").chars().count();
                        (cstart as f64, clen as f64)
                    }
                    None => (0.0, -1.0),
                };
                self.set_global(slot::RSTART, Value::Num(start));
                self.set_global(slot::RLENGTH, Value::Num(len));
                num(start)
            }
            Builtin::Sprintf => {
                let s = self.sprintf_args(args)?;
                Ok(Value::Str(s.into()))
            }
            Builtin::Tolower => {
                let s = self.arg_str(args, 0)?;
                Ok(Value::Str(s.to_lowercase().into()))
            }
            Builtin::Toupper => {
                let s = self.arg_str(args, 0)?;
                Ok(Value::Str(s.to_uppercase().into()))
            }
            Builtin::Int => num(self.arg_num(args, 0)?.trunc()),
            Builtin::Sqrt => num(self.arg_num(args, 0)?.sqrt()),
            Builtin::Exp => num(self.arg_num(args, 0)?.exp()),
            Builtin::Log => num(self.arg_num(args, 0)?.ln()),
            Builtin::Sin => num(self.arg_num(args, 0)?.sin()),
            Builtin::Cos => num(self.arg_num(args, 0)?.cos()),
            Builtin::Atan2 => {
                let y = self.arg_num(args, 0)?;
                let x = self.arg_num(args, 1)?;
                num(y.atan2(x))
            }
            Builtin::Rand => {
                // xorshift64*: deterministic for a given seed.
                let mut x = self.rand_state;
                x ^= x >> 12;
                x ^= x << 25;
                x ^= x >> 27;
                self.rand_state = x;
                let r = x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11;
                num(r as f64 / (1u64 << 53) as f64)
            }
            Builtin::Srand => {
                let prev = self.seed;
                let seed = if args.is_empty() {
                    self.io.fs.lock().clock().now().secs as f64
                } else {
                    self.arg_num(args, 0)?
                };
                self.prev_seed = prev;
                self.seed = seed;
                self.rand_state = (seed.to_bits() ^ 0x9E37_79B9_7F4A_7C15) | 1;
                num(prev)
            }
            Builtin::System => {
                let cmd = self.arg_str(args, 0)?;
                self.flush_stdout()?;
                let argv = vec!["sh".to_owned(), "-c".to_owned(), cmd];
                let st = self.io.host.run(
                    &argv,
                    Stdio::Own(&mut *self.io.stdin),
                    Stdio::Own(&mut *self.io.stdout),
                    Stdio::Own(&mut *self.io.stderr),
                )?;
                num(f64::from(st))
            }
            Builtin::Close => {
                let name = self.arg_str(args, 0)?;
                let mut r = -1.0;
                if self.readers.remove(&name).is_some() {
                    r = 0.0;
                }
                if let Some(st) = self.close_output(&name)? {
                    r = f64::from(st);
                }
                num(r)
            }
            Builtin::Fflush => {
                self.flush_all()?;
                num(0.0)
            }
            Builtin::Systime => num(self.io.fs.lock().clock().now().secs as f64),
            Builtin::Strftime => {
                let fmt = if args.is_empty() {
                    "%a %b %e %H:%M:%S %Z %Y".to_owned()
                } else {
                    self.arg_str(args, 0)?
                };
                let t = if args.len() > 1 {
                    self.arg_num(args, 1)? as i64
                } else {
                    self.io.fs.lock().clock().now().secs
                };
                // A true third argument asks for UTC, which C's gmtime names GMT.
                let utc = args.len() > 2 && self.arg_num(args, 2)? != 0.0;
                let s = if utc {
                    crate::timefmt::Zone::from_tz(Some("GMT0")).strftime(&fmt, t, 0)
                } else {
                    self.io.zone.strftime(&fmt, t, 0)
                };
                Ok(Value::Str(s.into()))
            }
            Builtin::Mktime => {
                let spec = self.arg_str(args, 0)?;
                let p: Vec<i64> = spec
                    .split_whitespace()
                    .filter_map(|x| x.parse().ok())
                    .collect();
                // Local time, out-of-range fields carried over as C's mktime does.
                let local = match p.as_slice() {
                    [y, mo, d, h, mi, s, ..] => (|| {
                        let months = y.checked_mul(12)?.checked_add(mo.checked_sub(1)?)?;
                        // Years C's time_t cannot hold make mktime fail.
                        if months.unsigned_abs() > 12_000_000_000 {
                            return None;
                        }
                        let first = crate::commands::util::epoch(
                            months.div_euclid(12),
                            months.rem_euclid(12) as u32 + 1,
                            1,
                            0,
                            0,
                            0,
                        );
                        let secs = d
                            .checked_sub(1)?
                            .checked_mul(86_400)?
                            .checked_add(h.checked_mul(3600)?)?
                            .checked_add(mi.checked_mul(60)?)?
                            .checked_add(*s)?;
                        first.checked_add(secs)
                    })(),
                    _ => None,
                };
                let zone = &self.io.zone;
                match local {
                    Some(l) => num(zone
                        .to_utc(l)
                        .unwrap_or_else(|| l.saturating_sub(zone.offset(l)))
                        as f64),
                    None => num(-1.0),
                }
            }
            Builtin::Gensub => self.gensub(args),
        }
    }

    fn split_regex(&mut self, s: &str, r: &str) -> R<Vec<String>> {
        if s.is_empty() {
            return Ok(Vec::new());
        }
        let re = self.regex(r)?;
        let mut out = Vec::new();
        let mut last = 0;
        for m in re.find_iter(s) {
            if m.end() == m.start() {
                continue;
            }
            out.push(s.get(last..m.start()).unwrap_or("").to_owned());
            last = m.end();
        }
        out.push(s.get(last..).unwrap_or("").to_owned());
        Ok(out)
    }

    fn sub(&mut self, global: bool, args: &[Expr]) -> R<Value> {
        let Some(re_e) = args.first() else {
            return Err(fatal("sub: needs two arguments"));
        };
        let re = self.regex_of(re_e)?;
        let repl = self.arg_str(args, 1)?;
        let target = match args.get(2) {
            Some(Expr::LValue(lv)) => self.pin(lv)?,
            Some(Expr::Group(g)) => match g.as_ref() {
                Expr::LValue(lv) => self.pin(lv)?,
                _ => return Err(fatal("sub third parameter is not a changeable object")),
            },
            Some(_) => return Err(fatal("sub third parameter is not a changeable object")),
            None => LValue::Field(Box::new(Expr::Num(0.0))),
        };
        let cur = self.read_lvalue(&target)?;
        let text = self.to_str(&cur);
        let (out, n) = substitute(&re, &text, &repl, global);
        if n > 0 {
            self.write_lvalue(&target, Value::Str(out.into()))?;
        }
        Ok(Value::Num(n as f64))
    }

    fn gensub(&mut self, args: &[Expr]) -> R<Value> {
        let Some(re_e) = args.first() else {
            return Err(fatal("gensub: needs three arguments"));
        };
        let re = self.regex_of(re_e)?;
        let repl = self.arg_str(args, 1)?;
        let how = self.arg_str(args, 2)?;
        let text = if args.len() > 3 {
            self.arg_str(args, 3)?
        } else {
            self.record.as_str().to_owned()
        };
        let which = if how.starts_with(['g', 'G']) {
            0
        } else {
            (str_to_num(&how) as usize).max(1)
        };
        let mut out = String::new();
        let mut last = 0;
        let mut count = 0;
        for caps in re.captures_iter(&text) {
            let Some(m) = caps.get(0) else { continue };
            count += 1;
            if which != 0 && count != which {
                continue;
            }
            out.push_str(text.get(last..m.start()).unwrap_or(""));
            let mut chars = repl.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => match chars.next() {
                        Some(d @ '0'..='9') => {
                            let k = d.to_digit(10).unwrap_or(0) as usize;
                            out.push_str(caps.get(k).map_or("", |g| g.as_str()));
                        }
                        Some('&') => out.push('&'),
                        Some(o) => out.push(o),
                        None => out.push('\\'),
                    },
                    '&' => out.push_str(m.as_str()),
                    o => out.push(o),
                }
            }
            last = m.end();
        }
        out.push_str(text.get(last..).unwrap_or(""));
        Ok(Value::Str(out.into()))
    }

    // ----- the main loop -----

    pub fn run_items(&mut self, begin: bool) -> R<Ctrl> {
        let prog = self.prog;
        for item in &prog.items {
            let hit = begin && matches!(item.pattern, Pattern::Begin);
            if hit
                && let Some(a) = &item.action
                && let Ctrl::Exit = self.exec_block(a)?
            {
                return Ok(Ctrl::Exit);
            }
        }
        Ok(Ctrl::Normal)
    }

    pub fn run_end(&mut self) -> R<Ctrl> {
        let prog = self.prog;
        for item in &prog.items {
            if matches!(item.pattern, Pattern::End)
                && let Some(a) = &item.action
                && let Ctrl::Exit = self.exec_block(a)?
            {
                return Ok(Ctrl::Exit);
            }
        }
        Ok(Ctrl::Normal)
    }

    /// Reads the main input's records and runs the items over each, in one loop, until
    /// the input ends (`Done`), reading fails (`Read`), or an item ends otherwise than
    /// normally or with `next` (`Item`: an error, `exit`, `nextfile`...).
    pub fn run_records(&mut self) -> RecordsEnd {
        loop {
            match self.next_input_record() {
                Ok(true) => {}
                Ok(false) => return RecordsEnd::Done,
                Err(e) => return RecordsEnd::Read(e),
            }
            match self.run_record() {
                Ok(Ctrl::Normal | Ctrl::Next) => {}
                done => return RecordsEnd::Item(done),
            }
        }
    }

    /// Runs the pattern-action items over one record.
    #[inline]
    pub fn run_record(&mut self) -> R<Ctrl> {
        let prog = self.prog;
        for &k in &prog.main_items {
            let Some(item) = prog.items.get(k) else {
                continue;
            };
            // No pattern, the usual case, is told apart without a jump table.
            let hit = matches!(item.pattern, Pattern::All) || self.pattern_hit(k, &item.pattern)?;
            if !hit {
                continue;
            }
            match &item.action {
                None => {
                    let mut bytes = crate::text::encode(self.record.as_str());
                    bytes.extend_from_slice(&crate::text::encode(&self.global_str(slot::ORS)));
                    self.out.extend_from_slice(&bytes);
                }
                Some(a) => match self.exec_block(a)? {
                    Ctrl::Normal | Ctrl::Break | Ctrl::Continue | Ctrl::Return(_) => {}
                    other => return Ok(other),
                },
            }
        }
        Ok(Ctrl::Normal)
    }

    /// Whether item `k`'s pattern selects this record (a range's state moves on).
    fn pattern_hit(&mut self, k: usize, pattern: &Pattern) -> R<bool> {
        Ok(match pattern {
            Pattern::Begin | Pattern::End => false,
            Pattern::All => true,
            Pattern::Expr(e) => {
                let v = self.eval(e)?;
                self.truthy(&v)
            }
            Pattern::Range(a, b) => {
                let active = self.range_active.get(k).copied().unwrap_or(false);
                if active {
                    let v = self.eval(b)?;
                    if self.truthy(&v)
                        && let Some(r) = self.range_active.get_mut(k)
                    {
                        *r = false;
                    }
                    true
                } else {
                    let v = self.eval(a)?;
                    if self.truthy(&v) {
                        let e = self.eval(b)?;
                        if !self.truthy(&e)
                            && let Some(r) = self.range_active.get_mut(k)
                        {
                            *r = true;
                        }
                        true
                    } else {
                        false
                    }
                }
            }
        })
    }
}

/// The characters in a string (most are short ASCII lines, counted as bytes).
fn char_count(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

/// sub/gsub over `text`: `&` is the match, `\&` a literal `&`, `\\` a backslash.
fn substitute(re: &Regex, text: &str, repl: &str, global: bool) -> (String, usize) {
    let mut out = String::new();
    let mut last = 0;
    let mut n = 0;
    let mut pos = 0;
    let mut prev_end: Option<usize> = None;
    while pos <= text.len() {
        let Some(m) = re.find_at(text, pos) else {
            break;
        };
        if m.start() == m.end() && prev_end == Some(m.start()) {
            // An empty match right after a match does not count.
            let step = text
                .get(m.start()..)
                .and_then(|r| r.chars().next())
                .map_or(1, char::len_utf8);
            pos = m.start() + step;
            continue;
        }
        out.push_str(text.get(last..m.start()).unwrap_or(""));
        let mut chars = repl.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&'&') => {
                    chars.next();
                    out.push('&');
                }
                '\\' if chars.peek() == Some(&'\\') => {
                    chars.next();
                    out.push('\\');
                }
                '&' => out.push_str(m.as_str()),
                o => out.push(o),
            }
        }
        last = m.end();
        n += 1;
        prev_end = Some(m.end());
        if !global {
            break;
        }
        if m.start() == m.end() {
            let step = text
                .get(m.end()..)
                .and_then(|r| r.chars().next())
                .map_or(1, char::len_utf8);
            if m.end() < text.len() {
                out.push_str(text.get(m.end()..m.end() + step).unwrap_or(""));
            }
            last = m.end() + step;
            pos = m.end() + step;
        } else {
            pos = m.end();
        }
    }
    if last <= text.len() {
        out.push_str(text.get(last..).unwrap_or(""));
    }
    (out, n)
}

/// Processes escapes in `-v` and command-line assignments.
pub fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('/') => out.push('/'),
            Some('a') => out.push('\x07'),
            Some('b') => out.push('\x08'),
            Some('f') => out.push('\x0c'),
            Some('v') => out.push('\x0b'),
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
    out
}
