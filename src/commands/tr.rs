//! `tr`: translates, deletes (`-d`) or squeezes (`-s`) bytes from stdin to stdout, with
//! GNU set syntax: escapes, ranges, `[:class:]`, `[=c=]`, `[c*n]` and complements.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::lq;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("complement", HasArg::No, "c"),
    long("delete", HasArg::No, "d"),
    long("squeeze-repeats", HasArg::No, "s"),
    long("truncate-set1", HasArg::No, "t"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: tr [OPTION]... STRING1 [STRING2]
Translate, squeeze, and/or delete characters from standard input,
writing to standard output.  STRING1 and STRING2 specify arrays of
characters ARRAY1 and ARRAY2 that control the action.

  -c, -C, --complement    use the complement of ARRAY1
  -d, --delete            delete characters in ARRAY1, do not translate
  -s, --squeeze-repeats   replace each sequence of a repeated character
                            that is listed in the last specified ARRAY,
                            with a single occurrence of that character
  -t, --truncate-set1     first truncate ARRAY1 to length of ARRAY2
      --help        display this help and exit
      --version     output version information and exit

ARRAYs are specified as strings of characters.  Most represent themselves.
Interpreted sequences are:

  \\NNN            character with octal value NNN (1 to 3 octal digits)
  \\\\              backslash
  \\a              audible BEL
  \\b              backspace
  \\f              form feed
  \\n              new line
  \\r              return
  \\t              horizontal tab
  \\v              vertical tab
  CHAR1-CHAR2     all characters from CHAR1 to CHAR2 in ascending order
  [CHAR*]         in ARRAY2, copies of CHAR until length of ARRAY1
  [CHAR*REPEAT]   REPEAT copies of CHAR, REPEAT octal if starting with 0
  [:alnum:]       all letters and digits
  [:alpha:]       all letters
  [:blank:]       all horizontal whitespace
  [:cntrl:]       all control characters
  [:digit:]       all digits
  [:graph:]       all printable characters, not including space
  [:lower:]       all lower case letters
  [:print:]       all printable characters, including space
  [:punct:]       all punctuation characters
  [:space:]       all horizontal or vertical whitespace
  [:upper:]       all upper case letters
  [:xdigit:]      all hexadecimal digits
  [=CHAR=]        all characters which are equivalent to CHAR

Translation occurs if -d is not given and both STRING1 and STRING2 appear.
-t may be used only when translating.  ARRAY2 is extended to length of
ARRAY1 by repeating its last character as necessary.  Excess characters
of ARRAY2 are ignored.  Character classes expand in unspecified order;
while translating, [:lower:] and [:upper:] may be used in pairs to
specify case conversion.  Squeezing occurs after translation or deletion.
";

#[derive(Debug, Clone, PartialEq, Eq)]
enum Elem {
    Byte(u8),
    Range(u8, u8),
    Class(&'static str),
    /// `[c*n]`; `None` fills up to the length of SET1.
    Repeat(u8, Option<usize>),
}

const CLASSES: &[&str] = &[
    "alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space",
    "upper", "xdigit",
];

fn class_has(name: &str, b: u8) -> bool {
    match name {
        "alnum" => b.is_ascii_alphanumeric(),
        "alpha" => b.is_ascii_alphabetic(),
        "blank" => b == b' ' || b == b'\t',
        "cntrl" => b.is_ascii_control(),
        "digit" => b.is_ascii_digit(),
        "graph" => b.is_ascii_graphic(),
        "lower" => b.is_ascii_lowercase(),
        "print" => b.is_ascii_graphic() || b == b' ',
        "punct" => b.is_ascii_punctuation(),
        "space" => b.is_ascii_whitespace() || b == 0x0b,
        "upper" => b.is_ascii_uppercase(),
        "xdigit" => b.is_ascii_hexdigit(),
        _ => false,
    }
}

/// Resolves backslash escapes into (byte, was_escaped) pairs.
fn unescape(s: &[u8], warnings: &mut Vec<String>) -> Vec<(u8, bool)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        i += 1;
        if c != b'\\' {
            out.push((c, false));
            continue;
        }
        let Some(&n) = s.get(i) else {
            warnings
                .push("warning: an unescaped backslash at end of string is not portable".into());
            out.push((b'\\', true));
            break;
        };
        i += 1;
        let b = match n {
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'v' => 11,
            b'0'..=b'7' => {
                let mut v = u32::from(n - b'0');
                let mut digits = 1;
                while digits < 3 {
                    match s.get(i) {
                        Some(&d @ b'0'..=b'7') if v * 8 + u32::from(d - b'0') <= 255 => {
                            v = v * 8 + u32::from(d - b'0');
                            i += 1;
                            digits += 1;
                        }
                        _ => break,
                    }
                }
                v as u8
            }
            other => other,
        };
        out.push((b, true));
    }
    out
}

fn parse_set(s: &str, set2: bool, warnings: &mut Vec<String>) -> Result<Vec<Elem>, String> {
    let raw = crate::text::encode(s);
    let chars = unescape(&raw, warnings);
    let mut out = Vec::new();
    let mut i = 0;
    let at = |k: usize| chars.get(k).copied();
    while i < chars.len() {
        let (c, esc) = chars[i];
        if c == b'[' && !esc {
            // [:class:], [=c=], [c*n]
            if let Some((b':' | b'=', false)) = at(i + 1) {
                let kind = chars[i + 1].0;
                let mut j = i + 2;
                while j + 1 < chars.len()
                    && !(chars[j] == (kind, false) && chars[j + 1] == (b']', false))
                {
                    j += 1;
                }
                if j + 1 < chars.len() && j > i + 2 {
                    let body: Vec<u8> = chars[i + 2..j].iter().map(|p| p.0).collect();
                    let name = String::from_utf8_lossy(&body).into_owned();
                    if kind == b':' {
                        let Some(cls) = CLASSES.iter().find(|c| **c == name) else {
                            return Err(format!("invalid character class {}", lq(&name)));
                        };
                        out.push(Elem::Class(cls));
                    } else {
                        if body.len() != 1 {
                            return Err(format!(
                                "{}: equivalence class operand must be a single character",
                                name
                            ));
                        }
                        out.push(Elem::Byte(body[0]));
                    }
                    i = j + 2;
                    continue;
                }
            }
            if let (Some((ch, _)), Some((b'*', false))) = (at(i + 1), at(i + 2)) {
                let mut j = i + 3;
                while j < chars.len() && chars[j] != (b']', false) {
                    j += 1;
                }
                if j < chars.len() {
                    let digits: Vec<u8> = chars[i + 3..j].iter().map(|p| p.0).collect();
                    let text = String::from_utf8_lossy(&digits).into_owned();
                    let count = if text.is_empty() {
                        None
                    } else {
                        let radix = if text.starts_with('0') { 8 } else { 10 };
                        match usize::from_str_radix(&text, radix) {
                            Ok(0) => None,
                            Ok(n) => Some(n),
                            Err(_) => {
                                return Err(format!(
                                    "invalid repeat count {} in [c*n] construct",
                                    lq(&text)
                                ));
                            }
                        }
                    };
                    if !set2 {
                        return Err(
                            "the [c*] repeat construct may not appear in string1".to_owned()
                        );
                    }
                    out.push(Elem::Repeat(ch, count));
                    i = j + 1;
                    continue;
                }
            }
        }
        if let (Some((b'-', false)), Some((hi, _))) = (at(i + 1), at(i + 2)) {
            if hi < c {
                let show = |b: u8| {
                    let v = [b];
                    String::from_utf8_lossy(&v).into_owned()
                };
                return Err(format!(
                    "range-endpoints of '{}-{}' are in reverse collating sequence order",
                    show(c),
                    show(hi)
                ));
            }
            out.push(Elem::Range(c, hi));
            i += 3;
            continue;
        }
        out.push(Elem::Byte(c));
        i += 1;
    }
    Ok(out)
}

/// Expands a set; also returns the start index of each `[:upper:]`/`[:lower:]` class.
fn expand(set: &[Elem], fill_to: usize) -> (Vec<u8>, Vec<(usize, &'static str)>) {
    let mut out = Vec::new();
    let mut classes = Vec::new();
    let fixed: usize = set
        .iter()
        .map(|e| match e {
            Elem::Byte(_) => 1,
            Elem::Range(a, b) => usize::from(b - a) + 1,
            Elem::Class(c) => (0..=255u8).filter(|b| class_has(c, *b)).count(),
            Elem::Repeat(_, n) => n.unwrap_or(0),
        })
        .sum();
    let mut filled = false;
    for e in set {
        match e {
            Elem::Byte(b) => out.push(*b),
            Elem::Range(a, b) => out.extend(*a..=*b),
            Elem::Class(c) => {
                classes.push((out.len(), *c));
                out.extend((0..=255u8).filter(|b| class_has(c, *b)));
            }
            Elem::Repeat(b, Some(n)) => out.extend(std::iter::repeat_n(*b, *n)),
            Elem::Repeat(b, None) => {
                if !filled {
                    filled = true;
                    out.extend(std::iter::repeat_n(*b, fill_to.saturating_sub(fixed)));
                }
            }
        }
    }
    (out, classes)
}

pub fn tr(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("cCdst", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let complement = parsed.has("c") || parsed.has("C");
    let delete = parsed.has("d");
    let squeeze = parsed.has("s");
    let truncate = parsed.has("t");
    let ops = &parsed.operands;
    let translating = !delete && ops.len() >= 2;
    let max_ops = if delete && !squeeze { 1 } else { 2 };
    if ops.is_empty() {
        ctx.err("missing operand")?;
        return usage_error(ctx, "", 1);
    }
    if ops.len() == 1 && (!delete && !squeeze || delete && squeeze) {
        let why = if delete {
            "Two strings must be given when both deleting and squeezing repeats."
        } else {
            "Two strings must be given when translating."
        };
        ctx.err(format!("missing operand after {}", lq(&ops[0])))?;
        writeln!(ctx.stderr, "{why}")?;
        return usage_error(ctx, "", 1);
    }
    if let Some(extra) = ops.get(max_ops) {
        ctx.err(format!("extra operand {}", lq(extra)))?;
        if delete && !squeeze && ops.len() == 2 {
            writeln!(
                ctx.stderr,
                "Only one string may be given when deleting without squeezing repeats."
            )?;
        }
        return usage_error(ctx, "", 1);
    }
    let mut warnings = Vec::new();
    let set1 = match parse_set(&ops[0], false, &mut warnings) {
        Ok(s) => s,
        Err(msg) => {
            ctx.err(msg)?;
            return Ok(1);
        }
    };
    let set2 = match ops.get(1).map(|s| parse_set(s, true, &mut warnings)) {
        None => None,
        Some(Ok(s)) => Some(s),
        Some(Err(msg)) => {
            ctx.err(msg)?;
            return Ok(1);
        }
    };
    for w in &warnings {
        ctx.err(w)?;
    }
    let (mut s1, classes1) = expand(&set1, 0);
    if complement {
        let mut in1 = [false; 256];
        for b in &s1 {
            in1[usize::from(*b)] = true;
        }
        s1 = (0..=255u8).filter(|b| !in1[usize::from(*b)]).collect();
    }
    let mut in_set1 = [false; 256];
    for b in &s1 {
        in_set1[usize::from(*b)] = true;
    }

    let mut map: [u8; 256] = std::array::from_fn(|i| i as u8);
    let mut squeeze_set = [false; 256];
    if translating {
        let set2 = set2.clone().unwrap_or_default();
        let (mut s2, classes2) = expand(&set2, s1.len());
        for (pos, name) in &classes2 {
            if !matches!(*name, "upper" | "lower") {
                ctx.err("when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'")?;
                return Ok(1);
            }
            let ok = !complement
                && classes1
                    .iter()
                    .any(|(p, n)| p == pos && matches!(*n, "upper" | "lower"));
            if !ok {
                ctx.err("misaligned [:upper:] and/or [:lower:] construct")?;
                return Ok(1);
            }
        }
        if truncate {
            s1.truncate(s2.len());
        } else if s2.len() < s1.len() {
            let Some(&last) = s2.last() else {
                ctx.err("when not truncating set1, string2 must be non-empty")?;
                return Ok(1);
            };
            s2.resize(s1.len(), last);
        }
        for (a, b) in s1.iter().zip(s2.iter()) {
            map[usize::from(*a)] = *b;
        }
        if squeeze {
            for b in &s2 {
                squeeze_set[usize::from(*b)] = true;
            }
        }
    } else if squeeze {
        let src = if delete {
            set2.as_ref().map(|s| expand(s, 0).0).unwrap_or_default()
        } else {
            s1.clone()
        };
        for b in &src {
            squeeze_set[usize::from(*b)] = true;
        }
    }

    // The bytes a delete-only `tr` removes (all of them when there are few).
    let deleted: Vec<u8> = if delete {
        (0..=255u8).filter(|b| in_set1[usize::from(*b)]).collect()
    } else {
        Vec::new()
    };
    let mut buf = super::util::Scratch::new();
    let mut out = Vec::with_capacity(64 * 1024);
    let mut last: Option<u8> = None;
    loop {
        let n = ctx.stdin.read(&mut buf)?;
        if n == 0 {
            break;
        }
        ctx.host.check()?;
        out.clear();
        let chunk = &buf[..n];
        // The common cases without the per-byte branches: a plain translation is a
        // table lookup per byte, and deleting up to three bytes copies the runs
        // between them.
        if !squeeze && !delete {
            out.extend(chunk.iter().map(|&b| map[usize::from(b)]));
            ctx.stdout.write_all(&out)?;
            continue;
        }
        if !squeeze && deleted.len() <= 3 {
            delete_runs(chunk, &deleted, &mut out);
            ctx.stdout.write_all(&out)?;
            continue;
        }
        for &b in chunk {
            if delete && in_set1[usize::from(b)] {
                continue;
            }
            let t = map[usize::from(b)];
            if squeeze && squeeze_set[usize::from(t)] && last == Some(t) {
                continue;
            }
            last = Some(t);
            out.push(t);
        }
        ctx.stdout.write_all(&out)?;
    }
    Ok(0)
}

/// Appends `chunk` to `out` without the bytes of `gone` (at most three), copying the
/// runs between them whole.
fn delete_runs(chunk: &[u8], gone: &[u8], out: &mut Vec<u8>) {
    let find = |s: &[u8]| match *gone {
        [] => None,
        [a] => memchr::memchr(a, s),
        [a, b] => memchr::memchr2(a, b, s),
        [a, b, c, ..] => memchr::memchr3(a, b, c, s),
    };
    let mut rest = chunk;
    while let Some(i) = find(rest) {
        out.extend_from_slice(&rest[..i]);
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, run_endless};

    #[test]
    fn deleting_few_bytes_copies_the_runs_between_them() {
        let chunk = b"\r\na\rbc\0\0d\ne\r";
        for gone in [&b""[..], b"\r", b"\r\n", b"\r\n\0", b"z"] {
            let mut out = Vec::new();
            super::delete_runs(chunk, gone, &mut out);
            let want: Vec<u8> = chunk
                .iter()
                .copied()
                .filter(|b| !gone.contains(b))
                .collect();
            assert_eq!(out, want, "deleting {gone:?}");
        }
    }

    #[test]
    fn tr_table() {
        for (line, stdin, out, err, status) in [
            ("tr a-y b-z", "hello\n", "ifmmp\n", "", 0),
            ("tr -d l", "hello\n", "heo\n", "", 0),
            ("tr -s l", "hello\n", "helo\n", "", 0),
            ("tr -s ' ' _", "hello  world\n", "hello_world\n", "", 0),
            ("tr -c l x", "hello\n", "xxllxx", "", 0),
            ("tr -cd l", "hello\n", "ll", "", 0),
            ("tr '[:lower:]' '[:upper:]'", "Hello\n", "HELLO\n", "", 0),
            ("tr '[:upper:]' x", "hello\n", "hello\n", "", 0),
            ("tr el '[x*]'", "hello\n", "hxxxo\n", "", 0),
            ("tr abcdefgh '[x*2]Y'", "hello\n", "YYllo\n", "", 0),
            ("tr a-z A-C", "hello\n", "CCCCC\n", "", 0),
            ("tr -t a-z A-C", "hello\n", "hello\n", "", 0),
            ("tr '\\\\' x", "a\\b\n", "axb\n", "", 0),
            ("tr . '\\n'", "a.b\n", "a\nb\n", "", 0),
            ("tr '[=a=]' x", "abc\n", "xbc\n", "", 0),
            ("tr -s '[:alpha:]'", "hello\n", "helo\n", "", 0),
            ("tr x '\\101\\60'", "x\n", "A\n", "", 0),
            ("tr -ds l o", "helloo\n", "heo\n", "", 0),
            ("tr -s a-z A-Z", "aabbc\n", "ABC\n", "", 0),
            ("tr '[:space:]' _", "a b\tc\n", "a_b_c_", "", 0),
            ("tr -d '[:digit:]'", "a1b22\n", "ab\n", "", 0),
            (
                "tr a-c '[:upper:]'",
                "abc\n",
                "",
                "tr: misaligned [:upper:] and/or [:lower:] construct\n",
                1,
            ),
            (
                "tr a '[:digit:]'",
                "",
                "",
                "tr: when translating, the only character classes that may appear in\nstring2 are 'upper' and 'lower'\n",
                1,
            ),
            (
                "tr",
                "",
                "",
                "tr: missing operand\nTry 'tr --help' for more information.\n",
                1,
            ),
            (
                "tr a",
                "",
                "",
                "tr: missing operand after 'a'\nTwo strings must be given when translating.\nTry 'tr --help' for more information.\n",
                1,
            ),
            (
                "tr a b c",
                "",
                "",
                "tr: extra operand 'c'\nTry 'tr --help' for more information.\n",
                1,
            ),
            (
                "tr -d a b",
                "",
                "",
                "tr: extra operand 'b'\nOnly one string may be given when deleting without squeezing repeats.\nTry 'tr --help' for more information.\n",
                1,
            ),
            (
                "tr z-a x",
                "",
                "",
                "tr: range-endpoints of 'z-a' are in reverse collating sequence order\n",
                1,
            ),
            (
                "tr -z a",
                "",
                "",
                "tr: invalid option -- 'z'\nTry 'tr --help' for more information.\n",
                1,
            ),
        ] {
            check(&[], line, stdin, (out, err, status));
        }
    }

    #[test]
    fn streams() {
        let (out, status, _) = run_endless("tr y n", b"y\n", 4);
        assert_eq!((out.as_slice(), status), (&b"n\nn\n"[..], 141));
    }
}
