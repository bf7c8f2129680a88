//! `sort`: sorts lines by keys (`-k`, `-t`) with GNU's orderings (text in byte order,
//! `-n`, `-g`, `-h`, `-M`, `-V`, `-R`) and its last-resort whole-line comparison;
//! also `-u`, `-c`/`-C`, `-o`, `-s`, `-z`.

use std::cmp::Ordering;

use std::sync::Arc;

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{lq, quotef, records};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("ignore-leading-blanks", HasArg::No, "b"),
    long("dictionary-order", HasArg::No, "d"),
    long("ignore-case", HasArg::No, "f"),
    long("general-numeric-sort", HasArg::No, "g"),
    long("ignore-nonprinting", HasArg::No, "i"),
    long("month-sort", HasArg::No, "M"),
    long("human-numeric-sort", HasArg::No, "h"),
    long("numeric-sort", HasArg::No, "n"),
    long("random-sort", HasArg::No, "R"),
    long("random-source", HasArg::Required, "random-source"),
    long("reverse", HasArg::No, "r"),
    long("sort", HasArg::Required, "sort"),
    long("version-sort", HasArg::No, "V"),
    long("batch-size", HasArg::Required, "batch-size"),
    long("check", HasArg::Optional, "c"),
    long("compress-program", HasArg::Required, "compress-program"),
    long("debug", HasArg::No, "debug"),
    long("files0-from", HasArg::Required, "files0-from"),
    long("key", HasArg::Required, "k"),
    long("merge", HasArg::No, "m"),
    long("output", HasArg::Required, "o"),
    long("stable", HasArg::No, "s"),
    long("buffer-size", HasArg::Required, "S"),
    long("field-separator", HasArg::Required, "t"),
    long("temporary-directory", HasArg::Required, "T"),
    long("parallel", HasArg::Required, "parallel"),
    long("unique", HasArg::No, "u"),
    long("zero-terminated", HasArg::No, "z"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: sort [OPTION]... [FILE]...
  or:  sort [OPTION]... --files0-from=F
Write sorted concatenation of all FILE(s) to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
Ordering options:

  -b, --ignore-leading-blanks  ignore leading blanks
  -d, --dictionary-order      consider only blanks and alphanumeric characters
  -f, --ignore-case           fold lower case to upper case characters
  -g, --general-numeric-sort  compare according to general numerical value
  -i, --ignore-nonprinting    consider only printable characters
  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'
  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)
  -n, --numeric-sort          compare according to string numerical value
  -R, --random-sort           shuffle, but group identical keys.  See shuf(1)
      --random-source=FILE    get random bytes from FILE
  -r, --reverse               reverse the result of comparisons
      --sort=WORD             sort according to WORD:
                                general-numeric -g, human-numeric -h, month -M,
                                numeric -n, random -R, version -V
  -V, --version-sort          natural sort of (version) numbers within text

Other options:

      --batch-size=NMERGE   merge at most NMERGE inputs at once;
                            for more use temp files
  -c, --check, --check=diagnose-first  check for sorted input; do not sort
  -C, --check=quiet, --check=silent  like -c, but do not report first bad line
      --compress-program=PROG  compress temporaries with PROG;
                              decompress them with PROG -d
      --debug               annotate the part of the line used to sort,
                              and warn about questionable usage to stderr
      --files0-from=F       read input from the files specified by
                            NUL-terminated names in file F;
                            If F is - then read names from standard input
  -k, --key=KEYDEF          sort via a key; KEYDEF gives location and type
  -m, --merge               merge already sorted files; do not sort
  -o, --output=FILE         write result to FILE instead of standard output
  -s, --stable              stabilize sort by disabling last-resort comparison
  -S, --buffer-size=SIZE    use SIZE for main memory buffer
  -t, --field-separator=SEP  use SEP instead of non-blank to blank transition
  -T, --temporary-directory=DIR  use DIR for temporaries, not $TMPDIR or /tmp;
                              multiple options specify multiple directories
      --parallel=N          change the number of sorts run concurrently to N
  -u, --unique              with -c, check for strict ordering;
                              without -c, output only the first of an equal run
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

KEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a
field number and C a character position in the field; both are origin 1, and
the stop position defaults to the line's end.  If neither -t nor -b is in
effect, characters in a field are counted from the beginning of the preceding
whitespace.  OPTS is one or more single-letter ordering options [bdfgiMhnRrV],
which override global ordering options for that key.  If no key is given, use
the entire line as the key.  Use --debug to diagnose incorrect key usage.

SIZE may be followed by the following multiplicative suffixes:
% 1% of memory, b 1, K 1024 (default), and so on for M, G, T, P, E, Z, Y.

*** WARNING ***
The locale specified by the environment affects sort order.
Set LC_ALL=C to get the traditional sort order that uses
native byte values.
";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Mode {
    #[default]
    Text,
    Numeric,
    General,
    Human,
    Month,
    Version,
    Random,
}

#[derive(Clone, Copy, Debug, Default)]
struct KeyOpts {
    skip_start_blanks: bool,
    skip_end_blanks: bool,
    dictionary: bool,
    fold: bool,
    nonprinting: bool,
    mode: Mode,
    reverse: bool,
}

impl KeyOpts {
    fn is_default(&self) -> bool {
        !(self.skip_start_blanks
            || self.skip_end_blanks
            || self.dictionary
            || self.fold
            || self.nonprinting
            || self.reverse
            || self.mode != Mode::Text)
    }
    /// Applies one modifier letter; false if it is not one.
    fn set(&mut self, c: char, start: bool) -> bool {
        match c {
            'b' => {
                if start {
                    self.skip_start_blanks = true;
                } else {
                    self.skip_end_blanks = true;
                }
            }
            'd' => self.dictionary = true,
            'f' => self.fold = true,
            'i' => self.nonprinting = true,
            'g' => self.mode = Mode::General,
            'h' => self.mode = Mode::Human,
            'M' => self.mode = Mode::Month,
            'n' => self.mode = Mode::Numeric,
            'R' => self.mode = Mode::Random,
            'V' => self.mode = Mode::Version,
            'r' => self.reverse = true,
            _ => return false,
        }
        true
    }
}

#[derive(Clone, Copy, Debug)]
struct Key {
    /// 0-based start field and char offset.
    sword: usize,
    schar: usize,
    /// 0-based end field (None: end of line) and 1-based end char (0: end of field).
    eword: Option<usize>,
    echar: usize,
    opts: KeyOpts,
}

fn parse_count(s: &str) -> (Option<usize>, &str) {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 {
        return (None, s);
    }
    let n = s[..end].parse::<usize>().unwrap_or(usize::MAX);
    (Some(n), &s[end..])
}

fn parse_key(spec: &str) -> Result<Key, String> {
    let bad = |why: &str| format!("{why}: invalid field specification {}", lq(spec));
    let (sword, rest) = parse_count(spec);
    let Some(sword) = sword else {
        return Err(format!(
            "invalid number at field start: invalid count at start of {}",
            lq(spec)
        ));
    };
    if sword == 0 {
        return Err(bad("field number is zero"));
    }
    let mut key = Key {
        sword: sword - 1,
        schar: 0,
        eword: None,
        echar: 0,
        opts: KeyOpts::default(),
    };
    let mut rest = rest;
    if let Some(r) = rest.strip_prefix('.') {
        let (c, r) = parse_count(r);
        let Some(c) = c else {
            return Err(format!(
                "invalid number after '.': invalid count at start of {}",
                lq(r)
            ));
        };
        if c == 0 {
            return Err(bad("character offset is zero"));
        }
        key.schar = c - 1;
        rest = r;
    }
    let mut chars = rest.char_indices();
    let mut after = "";
    loop {
        match chars.next() {
            None => break,
            Some((i, ',')) => {
                after = &rest[i + 1..];
                break;
            }
            Some((_, c)) => {
                if !key.opts.set(c, true) {
                    return Err(bad("stray character in field spec"));
                }
            }
        }
    }
    if rest.contains(',') {
        let (e, r) = parse_count(after);
        let Some(e) = e else {
            return Err(format!(
                "invalid number after ',': invalid count at start of {}",
                lq(after)
            ));
        };
        if e == 0 {
            return Err(bad("field number is zero"));
        }
        key.eword = Some(e - 1);
        let mut r = r;
        if let Some(r2) = r.strip_prefix('.') {
            let (c, r3) = parse_count(r2);
            let Some(c) = c else {
                return Err(format!(
                    "invalid number after '.': invalid count at start of {}",
                    lq(r2)
                ));
            };
            key.echar = c;
            r = r3;
        }
        for c in r.chars() {
            if !key.opts.set(c, false) {
                return Err(bad("stray character in field spec"));
            }
        }
    }
    Ok(key)
}

struct Sorter {
    keys: Vec<Key>,
    tab: Option<u8>,
    stable: bool,
    unique: bool,
    reverse: bool,
    seed: u64,
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

impl Sorter {
    fn begfield(&self, line: &[u8], key: &Key) -> usize {
        let lim = line.len();
        let mut p = 0;
        let mut sword = key.sword;
        match self.tab {
            Some(t) => {
                while p < lim && sword > 0 {
                    sword -= 1;
                    while p < lim && line[p] != t {
                        p += 1;
                    }
                    if p < lim {
                        p += 1;
                    }
                }
            }
            None => {
                while p < lim && sword > 0 {
                    sword -= 1;
                    while p < lim && is_blank(line[p]) {
                        p += 1;
                    }
                    while p < lim && !is_blank(line[p]) {
                        p += 1;
                    }
                }
            }
        }
        if key.opts.skip_start_blanks {
            while p < lim && is_blank(line[p]) {
                p += 1;
            }
        }
        p.saturating_add(key.schar).min(lim)
    }

    fn limfield(&self, line: &[u8], key: &Key) -> usize {
        let lim = line.len();
        let Some(mut eword) = key.eword else {
            return lim;
        };
        let echar = key.echar;
        if echar == 0 {
            eword = eword.saturating_add(1);
        }
        let mut p = 0;
        match self.tab {
            Some(t) => {
                while p < lim && eword > 0 {
                    eword -= 1;
                    while p < lim && line[p] != t {
                        p += 1;
                    }
                    if p < lim && (eword > 0 || echar > 0) {
                        p += 1;
                    }
                }
            }
            None => {
                while p < lim && eword > 0 {
                    eword -= 1;
                    while p < lim && is_blank(line[p]) {
                        p += 1;
                    }
                    while p < lim && !is_blank(line[p]) {
                        p += 1;
                    }
                }
            }
        }
        if echar != 0 {
            if key.opts.skip_end_blanks {
                while p < lim && is_blank(line[p]) {
                    p += 1;
                }
            }
            p = p.saturating_add(echar).min(lim);
        }
        p
    }

    fn key_text<'a>(&self, line: &'a [u8], key: &Key) -> &'a [u8] {
        let b = self.begfield(line, key);
        let e = self.limfield(line, key).max(b);
        line.get(b..e).unwrap_or(&[])
    }

    fn compare_key(&self, a: &[u8], b: &[u8], o: &KeyOpts) -> Ordering {
        match o.mode {
            Mode::Numeric => numeric_cmp(a, b),
            Mode::General => general_cmp(a, b),
            Mode::Human => human_cmp(a, b),
            Mode::Month => month(a).cmp(&month(b)),
            Mode::Version => version_cmp(a, b),
            Mode::Random => {
                let (ha, hb) = (hash(self.seed, a, o), hash(self.seed, b, o));
                ha.cmp(&hb).then_with(|| text_cmp(a, b, o))
            }
            Mode::Text => text_cmp(a, b, o),
        }
    }

    /// Key comparison; `None` when every key is equal.
    fn compare_keys(&self, a: &[u8], b: &[u8]) -> Ordering {
        for key in &self.keys {
            let ka = self.key_text(a, key);
            let kb = self.key_text(b, key);
            let ord = self.compare_key(ka, kb, &key.opts);
            if ord != Ordering::Equal {
                return if key.opts.reverse { ord.reverse() } else { ord };
            }
        }
        Ordering::Equal
    }

    /// Whether lines are compared as whole byte strings: one key, the whole line, as
    /// text with no modifier other than `-r`.
    fn whole_lines_as_bytes(&self) -> bool {
        match self.keys.as_slice() {
            [key] => {
                let opts = KeyOpts {
                    reverse: false,
                    ..key.opts
                };
                key.sword == 0
                    && key.schar == 0
                    && key.eword.is_none()
                    && key.echar == 0
                    && opts.is_default()
                    && key.opts.reverse == self.reverse
            }
            _ => false,
        }
    }

    fn compare(&self, a: &[u8], b: &[u8]) -> Ordering {
        let ord = self.compare_keys(a, b);
        if ord != Ordering::Equal || self.stable || self.unique {
            return ord;
        }
        let last = a.cmp(b);
        if self.reverse { last.reverse() } else { last }
    }
}

fn text_cmp(a: &[u8], b: &[u8], o: &KeyOpts) -> Ordering {
    if !(o.fold || o.dictionary || o.nonprinting) {
        return a.cmp(b);
    }
    let keep = |c: &u8| {
        !(o.dictionary && !(c.is_ascii_alphanumeric() || is_blank(*c)))
            && (!o.nonprinting || (0x20..0x7f).contains(c))
    };
    let tr = |c: &u8| if o.fold { c.to_ascii_uppercase() } else { *c };
    a.iter()
        .filter(|c| keep(c))
        .map(tr)
        .cmp(b.iter().filter(|c| keep(c)).map(tr))
}

fn hash(seed: u64, s: &[u8], o: &KeyOpts) -> u64 {
    let mut h = seed ^ 0xcbf2_9ce4_8422_2325;
    for &c in s {
        let c = if o.fold { c.to_ascii_uppercase() } else { c };
        h ^= u64::from(c);
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// A decimal number as GNU `-n` reads it: sign, integer digits without leading zeros,
/// fraction digits without trailing zeros.
fn parse_num(s: &[u8]) -> (bool, &[u8], &[u8], usize) {
    let mut i = 0;
    while i < s.len() && (is_blank(s[i]) || s[i] == b'\n') {
        i += 1;
    }
    let neg = s.get(i) == Some(&b'-');
    if neg {
        i += 1;
    }
    let start = i;
    while i < s.len() && s[i].is_ascii_digit() {
        i += 1;
    }
    let mut int = &s[start..i];
    while let [b'0', rest @ ..] = int {
        int = rest;
    }
    // An empty fraction still points into `s`: glibc's AVX-512 memcmp, given the
    // dangling pointer of a literal `&[]`, takes a masked load from page zero that
    // costs about 75 ns on some CPUs, and `sort -n` compares fractions a million times.
    let mut frac = &s[i..i];
    if s.get(i) == Some(&b'.') {
        let fs = i + 1;
        let mut j = fs;
        while j < s.len() && s[j].is_ascii_digit() {
            j += 1;
        }
        frac = &s[fs..j];
        while let [rest @ .., b'0'] = frac {
            frac = rest;
        }
        i = j;
    }
    (neg, int, frac, i)
}

fn unsigned_cmp(ai: &[u8], af: &[u8], bi: &[u8], bf: &[u8]) -> Ordering {
    ai.len()
        .cmp(&bi.len())
        .then_with(|| ai.cmp(bi))
        .then_with(|| af.cmp(bf))
}

fn numeric_cmp(a: &[u8], b: &[u8]) -> Ordering {
    let (an, ai, af, _) = parse_num(a);
    let (bn, bi, bf, _) = parse_num(b);
    let a_zero = ai.is_empty() && af.is_empty();
    let b_zero = bi.is_empty() && bf.is_empty();
    let an = an && !a_zero;
    let bn = bn && !b_zero;
    match (an, bn) {
        (false, true) => Ordering::Greater,
        (true, false) => Ordering::Less,
        (false, false) => unsigned_cmp(ai, af, bi, bf),
        (true, true) => unsigned_cmp(bi, bf, ai, af),
    }
}

fn human_cmp(a: &[u8], b: &[u8]) -> Ordering {
    let suffix = |s: &[u8]| -> (bool, usize) {
        let (neg, int, frac, end) = parse_num(s);
        let zero = int.is_empty() && frac.is_empty();
        let power = s
            .get(end)
            .and_then(|c| b"KMGTPEZYRQ".iter().position(|x| x == c).map(|p| p + 1))
            .or_else(|| (s.get(end) == Some(&b'k')).then_some(1))
            .unwrap_or(0);
        (neg && !zero, if zero { 0 } else { power })
    };
    let (an, ap) = suffix(a);
    let (bn, bp) = suffix(b);
    let sign = |neg: bool, zero: bool| {
        if neg {
            -1
        } else if zero {
            0
        } else {
            1
        }
    };
    let (_, ai, af, _) = parse_num(a);
    let (_, bi, bf, _) = parse_num(b);
    let sa = sign(an, ai.is_empty() && af.is_empty());
    let sb = sign(bn, bi.is_empty() && bf.is_empty());
    if sa != sb {
        return sa.cmp(&sb);
    }
    let mag = ap.cmp(&bp).then_with(|| unsigned_cmp(ai, af, bi, bf));
    if sa < 0 { mag.reverse() } else { mag }
}

/// The numeric prefix of `s` as strtod reads it, or None when there is none.
fn strtod_prefix(s: &[u8]) -> Option<f64> {
    let text = String::from_utf8_lossy(s);
    let t = text.trim_start();
    let lower = t.to_ascii_lowercase();
    let (sign, body) = match lower.as_bytes().first() {
        Some(b'-') => (-1.0, &lower[1..]),
        Some(b'+') => (1.0, &lower[1..]),
        _ => (1.0, lower.as_str()),
    };
    if body.starts_with("inf") {
        return Some(sign * f64::INFINITY);
    }
    if body.starts_with("nan") {
        return Some(f64::NAN);
    }
    let b = body.as_bytes();
    let mut i = 0;
    let mut digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if b.get(j).is_some_and(u8::is_ascii_digit) {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            i = j;
        }
    }
    body.get(..i)
        .and_then(|n| n.parse::<f64>().ok())
        .map(|v| sign * v)
}

fn general_cmp(a: &[u8], b: &[u8]) -> Ordering {
    let rank = |v: Option<f64>| match v {
        None => (0, 0.0),
        Some(x) if x.is_nan() => (1, 0.0),
        Some(x) => (2, x),
    };
    let (ra, va) = rank(strtod_prefix(a));
    let (rb, vb) = rank(strtod_prefix(b));
    ra.cmp(&rb)
        .then_with(|| va.partial_cmp(&vb).unwrap_or(Ordering::Equal))
}

fn month(s: &[u8]) -> usize {
    let t: Vec<u8> = s
        .iter()
        .skip_while(|c| is_blank(**c))
        .take(3)
        .map(u8::to_ascii_uppercase)
        .collect();
    const MONTHS: [&[u8]; 12] = [
        b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN", b"JUL", b"AUG", b"SEP", b"OCT", b"NOV",
        b"DEC",
    ];
    MONTHS
        .iter()
        .position(|m| *m == t.as_slice())
        .map_or(0, |p| p + 1)
}

fn order(c: u8) -> i32 {
    if c.is_ascii_digit() {
        0
    } else if c.is_ascii_alphabetic() {
        i32::from(c)
    } else if c == b'~' {
        -1
    } else {
        i32::from(c) + 256
    }
}

fn verrevcmp(s1: &[u8], s2: &[u8]) -> Ordering {
    let (mut i, mut j) = (0, 0);
    let digit = |s: &[u8], k: usize| s.get(k).is_some_and(u8::is_ascii_digit);
    while i < s1.len() || j < s2.len() {
        while (i < s1.len() && !digit(s1, i)) || (j < s2.len() && !digit(s2, j)) {
            let c1 = s1.get(i).map_or(0, |&c| order(c));
            let c2 = s2.get(j).map_or(0, |&c| order(c));
            if c1 != c2 {
                return c1.cmp(&c2);
            }
            i += 1;
            j += 1;
        }
        while s1.get(i) == Some(&b'0') {
            i += 1;
        }
        while s2.get(j) == Some(&b'0') {
            j += 1;
        }
        let mut first_diff = Ordering::Equal;
        while digit(s1, i) && digit(s2, j) {
            if first_diff == Ordering::Equal {
                first_diff = s1[i].cmp(&s2[j]);
            }
            i += 1;
            j += 1;
        }
        if digit(s1, i) {
            return Ordering::Greater;
        }
        if digit(s2, j) {
            return Ordering::Less;
        }
        if first_diff != Ordering::Equal {
            return first_diff;
        }
    }
    Ordering::Equal
}

fn file_prefixlen(s: &[u8]) -> usize {
    let n = s.len();
    let mut prefix = 0;
    let mut i = 0;
    loop {
        if i >= n {
            return prefix;
        }
        i += 1;
        prefix = i;
        while i + 1 < n && s[i] == b'.' && (s[i + 1].is_ascii_alphabetic() || s[i + 1] == b'~') {
            i += 2;
            while i < n && (s[i].is_ascii_alphanumeric() || s[i] == b'~') {
                i += 1;
            }
        }
    }
}

/// GNU `filevercmp`, the `-V` order (also `ls -v`).
pub fn version_cmp(a: &[u8], b: &[u8]) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    if a.is_empty() {
        return Ordering::Less;
    }
    if b.is_empty() {
        return Ordering::Greater;
    }
    let rank = |s: &[u8]| match s {
        b"." => 0,
        b".." => 1,
        [b'.', ..] => 2,
        _ => 3,
    };
    let (ra, rb) = (rank(a), rank(b));
    if ra != rb || ra < 2 {
        return ra.cmp(&rb);
    }
    let (a, b) = if ra == 2 { (&a[1..], &b[1..]) } else { (a, b) };
    let (pa, pb) = (file_prefixlen(a), file_prefixlen(b));
    let result = verrevcmp(&a[..pa], &b[..pb]);
    if result != Ordering::Equal || (pa == a.len() && pb == b.len()) {
        return result;
    }
    verrevcmp(a, b)
}

fn parse_tab(ctx: &mut Ctx, t: &str) -> Result<u8, i32> {
    let bytes = crate::text::encode(t);
    match bytes.as_slice() {
        [b] => Ok(*b),
        b"\\0" => Ok(0),
        [] => {
            let _ = ctx.err("empty tab");
            Err(2)
        }
        _ => {
            let _ = ctx.err(format!("multi-character tab {}", lq(t)));
            Err(2)
        }
    }
}

pub fn sort(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("bdfghiMnRrVcCmuszS:T:t:k:o:", LONG), ctx.args)
    {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 2),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut global = KeyOpts::default();
    let mut keys = Vec::new();
    let mut tab = None;
    let mut check = None;
    let mut output = None;
    let mut stable = false;
    let mut unique = false;
    let mut delim = b'\n';
    let mut modes = String::new();
    for (k, v) in &parsed.opts {
        let v = v.as_deref();
        match k.as_str() {
            "c" => {
                check = Some(match v {
                    None | Some("diagnose-first") => true,
                    Some("quiet" | "silent") => false,
                    Some(other) => {
                        ctx.err(format!(
                            "invalid argument {} for '--check'\nValid arguments are:\n  - 'diagnose-first'\n  - 'quiet', 'silent'",
                            lq(other)
                        ))?;
                        return usage_error(ctx, "", 2);
                    }
                })
            }
            "C" => check = Some(false),
            "k" => match parse_key(v.unwrap_or("")) {
                Ok(key) => keys.push(key),
                Err(msg) => {
                    ctx.err(msg)?;
                    return Ok(2);
                }
            },
            "t" => match parse_tab(ctx, v.unwrap_or("")) {
                Ok(t) => {
                    if tab.is_some_and(|old| old != t) {
                        ctx.err("incompatible tabs")?;
                        return Ok(2);
                    }
                    tab = Some(t);
                }
                Err(s) => return Ok(s),
            },
            "o" => output = v.map(str::to_owned),
            "s" => stable = true,
            "u" => unique = true,
            "z" => delim = 0,
            "sort" => {
                let c = match v.unwrap_or("") {
                    "general-numeric" => 'g',
                    "human-numeric" => 'h',
                    "month" => 'M',
                    "numeric" => 'n',
                    "random" => 'R',
                    "version" => 'V',
                    other => {
                        ctx.err(format!(
                            "invalid argument {} for '--sort'\nValid arguments are:\n  - 'general-numeric'\n  - 'human-numeric'\n  - 'month'\n  - 'numeric'\n  - 'random'\n  - 'version'",
                            lq(other)
                        ))?;
                        return usage_error(ctx, "", 2);
                    }
                };
                global.set(c, true);
                modes.push(c);
            }
            s if s.len() == 1 => {
                if let Some(c) = s.chars().next() {
                    if "ghMnRV".contains(c) && !modes.contains(c) {
                        modes.push(c);
                    }
                    global.set(c, true);
                    if c == 'b' {
                        global.skip_end_blanks = true;
                    }
                }
            }
            _ => {}
        }
    }
    if modes.len() > 1 {
        let mut sorted: Vec<char> = modes.chars().collect();
        sorted.sort_by_key(|c| "dfghiMnRV".find(*c));
        let s: String = sorted.into_iter().collect();
        ctx.err(format!("options '-{s}' are incompatible"))?;
        return Ok(2);
    }
    for key in &mut keys {
        if key.opts.is_default() {
            key.opts = global;
        }
    }
    if keys.is_empty() {
        keys.push(Key {
            sword: 0,
            schar: 0,
            eword: None,
            echar: 0,
            opts: global,
        });
    }
    let sorter = Sorter {
        keys,
        tab,
        stable,
        unique,
        reverse: global.reverse,
        seed: 0x5eed,
    };

    let files = if parsed.operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    };

    if let Some(diagnose) = check {
        if let Some(extra) = files.get(1) {
            ctx.err(format!(
                "extra operand {} not allowed with -{}",
                super::util::quote(extra),
                if diagnose { 'c' } else { 'C' }
            ))?;
            return Ok(2);
        }
        let name = files.first().map_or("-", String::as_str).to_owned();
        let data = match read_one(ctx, &name)? {
            Ok(d) => d,
            Err(status) => return Ok(status),
        };
        let lines: Vec<&[u8]> = records(&data, delim)
            .map(|r| super::util::chomp(r, delim))
            .collect();
        for (i, pair) in lines.windows(2).enumerate() {
            if let [a, b] = pair {
                let ord = sorter.compare(a, b);
                if ord == Ordering::Greater || (unique && ord == Ordering::Equal) {
                    if diagnose {
                        let mut msg =
                            format!("{}: {}:{}: disorder: ", ctx.name, name, i + 2).into_bytes();
                        msg.extend_from_slice(b);
                        msg.push(b'\n');
                        ctx.stderr.write_all(&msg)?;
                    }
                    return Ok(1);
                }
            }
        }
        return Ok(0);
    }

    let mut datas: Vec<Arc<Vec<u8>>> = Vec::new();
    for name in &files {
        ctx.host.check()?;
        match read_one(ctx, name)? {
            Ok(d) => datas.push(d),
            Err(status) => return Ok(status),
        }
    }
    let mut lines: Vec<&[u8]> = Vec::new();
    for d in &datas {
        lines.extend(records(d, delim).map(|r| super::util::chomp(r, delim)));
    }
    if sorter.whole_lines_as_bytes() {
        // Lines that compare equal are the same bytes, so an unstable sort gives the
        // same output, faster, and the comparison needs no key extraction.
        if sorter.reverse {
            lines.sort_unstable_by(|a, b| b.cmp(a));
        } else {
            lines.sort_unstable();
        }
    } else {
        lines.sort_by(|a, b| sorter.compare(a, b));
    }
    if unique {
        lines.dedup_by(|later, earlier| sorter.compare_keys(earlier, later) == Ordering::Equal);
    }
    let mut out = Vec::with_capacity(datas.iter().map(|d| d.len() + 1).sum());
    for l in &lines {
        out.extend_from_slice(l);
        out.push(delim);
    }
    match output {
        Some(path) if path != "-" => {
            if let Err(e) = ctx.write_output(&path, &out, false, ctx.file_mode())? {
                ctx.err(format!("open failed: {}: {e}", quotef(&path)))?;
                return Ok(2);
            }
        }
        _ => match ctx.shared {
            // A pipe takes the sorted bytes as they are, not a copy, and its reader
            // reads on without waking this stage for every pipe's worth.
            Some(sh) if !out.is_empty() => {
                sh.write_shared(super::SharedBytes::whole(Arc::new(out)))?
            }
            _ => ctx.stdout.write_all(&out)?,
        },
    }
    Ok(0)
}

fn read_one(ctx: &mut Ctx, name: &str) -> std::io::Result<Result<Arc<Vec<u8>>, i32>> {
    match ctx.read_input(name)? {
        Ok(d) => Ok(Ok(d)),
        Err(e) if e.is(crate::fs::Errno::EISDIR) => {
            ctx.err(format!("read failed: {}: {e}", quotef(name)))?;
            Ok(Err(2))
        }
        Err(e) => {
            ctx.err(format!("cannot read: {}: {e}", quotef(name)))?;
            Ok(Err(2))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::version_cmp;
    use crate::commands::testing::{check, fs_with, run_in};
    use std::cmp::Ordering;

    #[test]
    fn sort_table() {
        let files: &[(&str, &str)] = &[("f", "b\na\nc\n"), ("g", "z\ny\n"), ("d/", "")];
        for (line, stdin, out, err, status) in [
            ("sort", "b\na\nB\n_\n1\n", "1\nB\n_\na\nb\n", "", 0),
            ("sort -r", "b\na\nc", "c\nb\na\n", "", 0),
            ("sort -f", "b\nB\na\nA\n", "A\na\nB\nb\n", "", 0),
            (
                "sort -n",
                "10\n9\n-1\nx\n1.5\n-0\n",
                "-1\n-0\nx\n1.5\n9\n10\n",
                "",
                0,
            ),
            ("sort -rn", "10\n9\n100\n", "100\n10\n9\n", "", 0),
            ("sort -u", "b\na\nb\na\n", "a\nb\n", "", 0),
            ("sort -uf", "b\nB\na\n", "a\nb\n", "", 0),
            ("sort -k2", "a 2\nb 1\nc 3\n", "b 1\na 2\nc 3\n", "", 0),
            ("sort -k2n", "a 10\nb 9\n", "b 9\na 10\n", "", 0),
            (
                "sort -t: -k2,2 -k1,1r",
                "x:b\ny:a\nz:b\n",
                "y:a\nz:b\nx:b\n",
                "",
                0,
            ),
            ("sort -k1.2", "ab\nba\nac\n", "ba\nab\nac\n", "", 0),
            ("sort -k2,2 -s", "b 1\na 1\nc 0\n", "c 0\nb 1\na 1\n", "", 0),
            ("sort -k2,2", "b 1\na 1\nc 0\n", "c 0\na 1\nb 1\n", "", 0),
            ("sort -t, -k2", "a,b,c\na,a,d\n", "a,a,d\na,b,c\n", "", 0),
            ("sort -h", "1G\n2K\n3M\n1\n", "1\n2K\n3M\n1G\n", "", 0),
            (
                "sort -V",
                "a10\na2\na1.10\na1.9\n",
                "a1.9\na1.10\na2\na10\n",
                "",
                0,
            ),
            (
                "sort -M",
                "Mar\nJan\nfoo\nDec\n",
                "foo\nJan\nMar\nDec\n",
                "",
                0,
            ),
            (
                "sort -g",
                "1e2\n5\nabc\n-inf\n",
                "abc\n-inf\n5\n1e2\n",
                "",
                0,
            ),
            ("sort f g", "", "a\nb\nc\ny\nz\n", "", 0),
            ("sort -z", "b\0a\0", "a\0b\0", "", 0),
            ("sort -c", "b\na\n", "", "sort: -:2: disorder: a\n", 1),
            ("sort -C", "b\na\n", "", "", 1),
            ("sort -c", "a\nb\n", "", "", 0),
            ("sort -cu", "a\na\n", "", "sort: -:2: disorder: a\n", 1),
            ("sort -b -k2", "a  b\nb c\n", "a  b\nb c\n", "", 0),
            ("sort -k2", "a  b\nb c\n", "a  b\nb c\n", "", 0),
            ("sort -k2", "a  c\nb b\n", "a  c\nb b\n", "", 0),
            ("sort -k2b", "a  c\nb b\n", "b b\na  c\n", "", 0),
            (
                "sort -k0",
                "",
                "",
                "sort: field number is zero: invalid field specification '0'\n",
                2,
            ),
            (
                "sort -k1.0",
                "",
                "",
                "sort: character offset is zero: invalid field specification '1.0'\n",
                2,
            ),
            (
                "sort -k a",
                "",
                "",
                "sort: invalid number at field start: invalid count at start of 'a'\n",
                2,
            ),
            (
                "sort -k1,1x",
                "",
                "",
                "sort: stray character in field spec: invalid field specification '1,1x'\n",
                2,
            ),
            ("sort -t ab", "", "", "sort: multi-character tab 'ab'\n", 2),
            (
                "sort nosuch",
                "",
                "",
                "sort: cannot read: nosuch: No such file or directory\n",
                2,
            ),
            (
                "sort d",
                "",
                "",
                "sort: read failed: d: Is a directory\n",
                2,
            ),
            (
                "sort -n -g",
                "",
                "",
                "sort: options '-gn' are incompatible\n",
                2,
            ),
            (
                "sort -x",
                "",
                "",
                "sort: invalid option -- 'x'\nTry 'sort --help' for more information.\n",
                2,
            ),
            ("sort -o out f", "", "", "", 0),
            (
                "sort -r -k1,1 -s",
                "a 2\nb 1\na 1\n",
                "b 1\na 2\na 1\n",
                "",
                0,
            ),
            ("sort -k1,1 -r", "a 1\na 2\nb 0\n", "b 0\na 2\na 1\n", "", 0),
            (
                "sort -k1,1n -k2r",
                "1 a\n1 b\n0 c\n",
                "0 c\n1 b\n1 a\n",
                "",
                0,
            ),
            ("sort -n", "1,000\n2\n", "1,000\n2\n", "", 0),
            (
                "sort -n",
                "0.5\n.4\n-.3\n00.6\n",
                "-.3\n.4\n0.5\n00.6\n",
                "",
                0,
            ),
            (
                "sort -t: -k2.2,2.3",
                "a:xbc:1\nb:ycd:2\nc:aab\n",
                "c:aab\na:xbc:1\nb:ycd:2\n",
                "",
                0,
            ),
            ("sort -d", "b-b\na_c\nab\n", "ab\na_c\nb-b\n", "", 0),
            ("sort -k3", "a b\nc\n", "a b\nc\n", "", 0),
            ("sort -u -k1,1", "a 2\na 1\nb 3\n", "a 2\nb 3\n", "", 0),
            ("sort -R -u", "a\na\n", "a\n", "", 0),
            ("sort", "b\na", "a\nb\n", "", 0),
            ("sort", "", "", "", 0),
            ("sort -h", "-1K\n-1M\n0\n1k\n", "-1M\n-1K\n0\n1k\n", "", 0),
            (
                "sort -V",
                "1.0-rc1\n1.0\n1.0~rc1\n",
                "1.0~rc1\n1.0\n1.0-rc1\n",
                "",
                0,
            ),
            ("sort -bk2", "x  b\ny a\n", "y a\nx  b\n", "", 0),
        ] {
            check(files, line, stdin, (out, err, status));
        }
    }

    #[test]
    fn output_file_may_be_an_input() {
        let fs = fs_with(&[("f", "b\na\n")]);
        let (out, _, status) = run_in(&fs, "sort -o f f", b"");
        assert_eq!((out.as_slice(), status), (&b""[..], 0));
        let got = fs.lock().read_file("/workspace/f").map(|d| d.to_vec());
        assert_eq!(got, Ok(b"a\nb\n".to_vec()));
    }

    #[test]
    fn version_order() {
        for (a, b) in [
            ("a", "b"),
            ("1.2", "1.10"),
            ("a~1", "a"),
            (".", ".."),
            ("..", ".a"),
            (".a", "a"),
            ("x.tar.gz", "x1.tar.gz"),
        ] {
            assert_eq!(
                version_cmp(a.as_bytes(), b.as_bytes()),
                Ordering::Less,
                "{a} < {b}"
            );
        }
    }
}
