//! `md5sum`, `sha1sum`, `sha224sum`, `sha256sum`, `sha384sum`, `sha512sum` and `b2sum`
//! (`-l` picks BLAKE2b's length): print or (`-c`) check message digests, in GNU's
//! text, binary (`*`) and `--tag` formats, with GNU's escaping of names holding `\`,
//! CR or newlines. The line format and the checking are shared with `cksum -a`.

use super::about::{HELP, VERSION, write_help, write_version};
use super::args::{HasArg, LongOpt, Parsed, Spec, long, parse_or_usage, usage_error};
use super::digest::Algo;
use super::util::{chomp, quotef, records, strtoumax_prefix};
use super::{CmdResult, Ctx};

/// `b2sum`'s options; the fixed-length programs take the same without `--length`.
const LONG_B2: &[LongOpt] = &[
    long("length", HasArg::Required, "l"),
    long("binary", HasArg::No, "b"),
    long("check", HasArg::No, "c"),
    long("ignore-missing", HasArg::No, "ignore-missing"),
    long("quiet", HasArg::No, "quiet"),
    long("status", HasArg::No, "status"),
    long("strict", HasArg::No, "strict"),
    long("tag", HasArg::No, "tag"),
    long("text", HasArg::No, "t"),
    long("warn", HasArg::No, "w"),
    long("zero", HasArg::No, "z"),
    HELP,
    VERSION,
];
const LONG: &[LongOpt] = LONG_B2.split_at(1).1;

/// BLAKE2b's longest digest, in bits.
pub(super) const BLAKE2B_MAX_BITS: u64 = 512;

fn usage(name: &str, algo: Algo) -> String {
    let length = if algo == Algo::Blake2b {
        "\nMandatory arguments to long options are mandatory for short options too.\n"
    } else {
        ""
    };
    let reference = match algo {
        Algo::Md5 => "RFC 1321",
        Algo::Sha1 => "FIPS-180-1",
        Algo::Sha224 => "RFC 3874",
        Algo::Sha256 | Algo::Sha384 | Algo::Sha512 | Algo::Sm3 => "FIPS-180-2",
        Algo::Blake2b => "RFC 7693",
    };
    let length_opt = if algo == Algo::Blake2b {
        LENGTH_HELP
    } else {
        ""
    };
    format!(
        "\
Usage: {name} [OPTION]... [FILE]...
Print or check {} ({}-bit) checksums.

With no FILE, or when FILE is -, read standard input.
{length}  -b, --binary          read in binary mode
  -c, --check           read checksums from the FILEs and check them
{length_opt}      --tag             create a BSD-style checksum
  -t, --text            read in text mode (default)
{CHECK_HELP}
The sums are computed as described in {reference}.
When checking, the input should be a former output of this program.
The default mode is to print a line with: checksum, a space,
a character indicating input mode ('*' for binary, ' ' for text
or where binary is insignificant), and name for each FILE.

Note: There is no difference between binary mode and text mode on GNU systems.
",
        algo.tag(),
        algo.bits()
    )
}

/// The end of the options in `--help` of the `*sum` programs and `cksum`.
pub(super) const CHECK_HELP: &str = "  \
-z, --zero            end each output line with NUL, not newline,
                          and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet           don't print OK for each successfully verified file
      --status          don't output anything, status code shows success
      --strict          exit non-zero for improperly formatted checksum lines
  -w, --warn            warn about improperly formatted checksum lines

      --help        display this help and exit
      --version     output version information and exit
";

/// The `-l` lines of `b2sum --help` and `cksum --help`.
pub(super) const LENGTH_HELP: &str = "  \
-l, --length=BITS     digest length in bits; must not exceed the max for
                          the blake2 algorithm and must be a multiple of 8
";

pub fn md5sum(ctx: &mut Ctx) -> CmdResult {
    run(ctx, Algo::Md5)
}
pub fn sha1sum(ctx: &mut Ctx) -> CmdResult {
    run(ctx, Algo::Sha1)
}
pub fn sha224sum(ctx: &mut Ctx) -> CmdResult {
    run(ctx, Algo::Sha224)
}
pub fn sha256sum(ctx: &mut Ctx) -> CmdResult {
    run(ctx, Algo::Sha256)
}
pub fn sha384sum(ctx: &mut Ctx) -> CmdResult {
    run(ctx, Algo::Sha384)
}
pub fn sha512sum(ctx: &mut Ctx) -> CmdResult {
    run(ctx, Algo::Sha512)
}
pub fn b2sum(ctx: &mut Ctx) -> CmdResult {
    run(ctx, Algo::Blake2b)
}

/// Whether a name needs GNU's escaping in a checksum line (`\`, newline or CR).
fn problematic(name: &str) -> bool {
    name.contains(['\\', '\n', '\r'])
}

/// GNU's escaping of a name in a checksum line: `\`, newline and CR escaped (the line
/// then starts with `\`).
fn escape(name: &str) -> String {
    name.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
}

/// GNU's `filename_unescape`: `\\`, `\n` and `\r` decoded; any other escape, a final
/// lone `\` or a NUL makes the line misformatted.
fn unescape(name: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(name.len());
    let mut bytes = name.iter();
    while let Some(&b) = bytes.next() {
        match b {
            b'\\' => out.push(match bytes.next()? {
                b'n' => b'\n',
                b'r' => b'\r',
                b'\\' => b'\\',
                _ => return None,
            }),
            0 => return None,
            _ => out.push(b),
        }
    }
    Some(out)
}

/// The name a `--tag` line gives the digest: BLAKE2b shorter than its longest says
/// its length (`BLAKE2b-128`).
pub(super) fn tag_name(algo: Algo, bits: usize) -> String {
    if algo == Algo::Blake2b && bits < algo.bits() {
        format!("{}-{bits}", algo.tag())
    } else {
        algo.tag().to_owned()
    }
}

/// One output line: `TAG (name) = hex` when `tag` is given, else `hex  name` (`hex
/// *name` in binary mode), escaped unless lines end with NUL (`-z`).
pub(super) fn sum_line(
    tag: Option<&str>,
    hex: &str,
    name: &str,
    binary: bool,
    zero: bool,
) -> String {
    let escaped = !zero && problematic(name);
    let shown = if escaped {
        escape(name)
    } else {
        name.to_owned()
    };
    let prefix = if escaped { "\\" } else { "" };
    let end = if zero { '\0' } else { '\n' };
    match tag {
        Some(tag) => format!("{prefix}{tag} ({shown}) = {hex}{end}"),
        None => {
            let mode = if binary { '*' } else { ' ' };
            format!("{prefix}{hex} {mode}{shown}{end}")
        }
    }
}

/// GNU's `-l`/`--length` value, checked as the option is met: a decimal number that
/// is a multiple of 8 (0 means the longest). The upper limit is checked later.
pub(super) fn parse_length(ctx: &mut Ctx, value: &str) -> std::io::Result<Result<u64, i32>> {
    let shown = ctx.lquote(value);
    let n = match strtoumax_prefix(value.as_bytes(), 10) {
        Some((Some(n), used)) if used == value.len() => n,
        Some((None, used)) if used == value.len() => {
            ctx.err(format!(
                "invalid length: {shown}: Value too large for defined data type"
            ))?;
            return Ok(Err(1));
        }
        _ => {
            ctx.err(format!("invalid length: {shown}"))?;
            return Ok(Err(1));
        }
    };
    if n % 8 != 0 {
        ctx.err(format!("invalid length: {shown}"))?;
        ctx.err("length is not a multiple of 8")?;
        return Ok(Err(1));
    }
    Ok(Ok(n))
}

/// GNU's check of the final `-l` value against BLAKE2b's longest digest; the bits to
/// use (the longest for 0), or the status after the message.
pub(super) fn length_bits(
    ctx: &mut Ctx,
    length: u64,
    text: &str,
) -> std::io::Result<Result<usize, i32>> {
    if length > BLAKE2B_MAX_BITS {
        ctx.err(format!("invalid length: {}", ctx.lquote(text)))?;
        ctx.err(format!(
            "maximum digest length for {} is {BLAKE2B_MAX_BITS} bits",
            ctx.lquote(Algo::Blake2b.tag())
        ))?;
        return Ok(Err(1));
    }
    Ok(Ok(usize::try_from(length).unwrap_or(0)))
}

fn run(ctx: &mut Ctx, algo: Algo) -> CmdResult {
    let usage = usage(ctx.name, algo);
    let spec = if algo == Algo::Blake2b {
        Spec::new("l:bctwz", LONG_B2)
    } else {
        Spec::new("bctwz", LONG)
    };
    let parsed = match parse_or_usage(ctx, &spec, 1)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    // GNU acts on these as getopt meets them, so the first one given wins.
    let (mut length, mut length_text) = (0, "");
    for (key, value) in &parsed.opts {
        match (key.as_str(), value) {
            ("help", _) => {
                write_help(ctx, &usage)?;
                return Ok(0);
            }
            ("version", _) => {
                write_version(ctx)?;
                return Ok(0);
            }
            ("l", Some(v)) => match parse_length(ctx, v)? {
                Ok(n) => (length, length_text) = (n, v.as_str()),
                Err(s) => return Ok(s),
            },
            _ => {}
        }
    }
    let bits = match length_bits(ctx, length, length_text)? {
        Ok(0) => algo.bits(),
        Ok(n) => n,
        Err(s) => return Ok(s),
    };
    if let Some(msg) = misused_option(&parsed, false) {
        return usage_error(ctx, msg, 1);
    }
    let files = operands(&parsed);
    if parsed.has("c") {
        let reader = if algo == Algo::Blake2b {
            Reader::B2sum
        } else {
            Reader::Fixed
        };
        return check(
            ctx,
            &mut Checker::new(reader, Some(algo), bits),
            &parsed,
            &files,
        );
    }
    let binary = last_of(&parsed, &["b", "t", "tag"]).is_some_and(|k| k != "t");
    let tag = parsed.has("tag").then(|| tag_name(algo, bits));
    ctx.each_input(&files, |ctx, name, data| {
        let hex = algo.hex_bits(data, bits);
        let line = sum_line(tag.as_deref(), &hex, name, binary, parsed.has("z"));
        ctx.stdout.write_all(&crate::text::encode(&line))
    })
}

/// The file operands, standard input when there are none.
pub(super) fn operands(parsed: &Parsed) -> Vec<String> {
    if parsed.operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    }
}

/// Which of `keys` was given last.
fn last_of<'p>(parsed: &'p Parsed, keys: &[&str]) -> Option<&'p str> {
    parsed
        .opts
        .iter()
        .rev()
        .map(|(k, _)| k.as_str())
        .find(|k| keys.contains(k))
}

/// GNU's usage errors for options that contradict the mode, checked in its order.
/// `cksum` has no `-b`/`-t` and takes `--tag` when checking.
pub(super) fn misused_option(parsed: &Parsed, cksum: bool) -> Option<&'static str> {
    let checking = parsed.has("c");
    // `--tag` selects binary mode, as `-b` does, so only a later `-t` contradicts it.
    let text_mode = last_of(parsed, &["b", "t", "tag"]) == Some("t");
    if !cksum && parsed.has("tag") && text_mode {
        return Some("--tag does not support --text mode");
    }
    if checking {
        if parsed.has("z") {
            return Some("the --zero option is not supported when verifying checksums");
        }
        if !cksum && parsed.has("tag") {
            return Some("the --tag option is meaningless when verifying checksums");
        }
        if parsed.has("b") || parsed.has("t") {
            return Some(
                "the --binary and --text options are meaningless when verifying checksums",
            );
        }
        return None;
    }
    if parsed.has("ignore-missing") {
        return Some("the --ignore-missing option is meaningful only when verifying checksums");
    }
    match last_verbosity(parsed) {
        Some("w") => return Some("the --warn option is meaningful only when verifying checksums"),
        Some("quiet") => {
            return Some("the --quiet option is meaningful only when verifying checksums");
        }
        Some("status") => {
            return Some("the --status option is meaningful only when verifying checksums");
        }
        _ => {}
    }
    parsed
        .has("strict")
        .then_some("the --strict option is meaningful only when verifying checksums")
}

/// `--status`, `--quiet` and `--warn` cancel each other in GNU: the last one counts.
fn last_verbosity(parsed: &Parsed) -> Option<&str> {
    last_of(parsed, &["status", "quiet", "w"])
}

/// Which program reads checksum lines: GNU builds one source three ways, and they
/// differ in the tags they take and in whether the digest's width varies.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Reader {
    /// `md5sum` and the SHA programs: one algorithm, one width.
    Fixed,
    /// `b2sum`: BLAKE2b of any width, read from the tag or the digest's length.
    B2sum,
    /// `cksum`: the `-a` algorithm, or without `-a` the one each line's tag names.
    Cksum,
}

/// What GNU keeps across the lines (and files) of one `-c` run: the algorithm and
/// width the last line set, and whether the lines use the BSD reversed layout
/// (`hash name`, one space) — a run may not mix it with the standard one.
pub(super) struct Checker {
    reader: Reader,
    /// `None` is `cksum`'s CRC, before a line's tag names an algorithm.
    algo: Option<Algo>,
    /// `cksum` without `-a`: each line's tag picks the algorithm.
    from_tags: bool,
    /// The digest's width in bits.
    bits: usize,
    reversed: Option<bool>,
}

/// The tags `cksum -c` recognises without `-a`; the first three are formats it
/// cannot check.
const TAGS: &[(&str, Option<Algo>)] = &[
    ("BSD", None),
    ("SYSV", None),
    ("CRC", None),
    ("MD5", Some(Algo::Md5)),
    ("SHA1", Some(Algo::Sha1)),
    ("SHA224", Some(Algo::Sha224)),
    ("SHA256", Some(Algo::Sha256)),
    ("SHA384", Some(Algo::Sha384)),
    ("SHA512", Some(Algo::Sha512)),
    ("BLAKE2b", Some(Algo::Blake2b)),
    ("SM3", Some(Algo::Sm3)),
];

fn is_white(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

impl Checker {
    /// A checker for `reader` with the algorithm given (`None`: `cksum` without `-a`)
    /// and the width the options chose.
    pub(super) fn new(reader: Reader, algo: Option<Algo>, bits: usize) -> Checker {
        Checker {
            reader,
            algo,
            from_tags: reader == Reader::Cksum && algo.is_none(),
            bits,
            reversed: None,
        }
    }

    /// The algorithm's name in messages.
    fn tag(&self) -> &'static str {
        self.algo.map_or("CRC", Algo::tag)
    }

    /// Whether `digest` is as many hex digits as the current width.
    fn valid_digits(&self, digest: &[u8]) -> bool {
        digest.len() == self.bits / 4 && digest.iter().all(u8::is_ascii_hexdigit)
    }

    /// GNU's `split_3`: a checksum line's digest and file name, in the tagged
    /// (`TAG (name) = hex`, also `TAG(name)= hex`) or the untagged layout, or `None`
    /// when the line is improperly formatted. Updates the state as GNU does.
    fn split<'l>(&mut self, s: &'l [u8]) -> Option<(&'l [u8], Vec<u8>)> {
        let at = |i: usize| s.get(i).copied().unwrap_or(0);
        let mut i = s.iter().take_while(|&&b| is_white(b)).count();
        let escaped = at(i) == b'\\';
        if escaped {
            i += 1;
        }
        if self.from_tags {
            self.algo = Some(algorithm_from_tag(s.get(i..)?)?);
        }
        let algo = self.algo?;
        if s.get(i..)?.starts_with(algo.tag().as_bytes()) {
            i += algo.tag().len();
            if self.reader != Reader::Fixed {
                // GNU ends the tag at the byte after it, whatever it is, unless it is
                // the `(` of the OpenSSL layout.
                let length_given = at(i) == b'-';
                if at(i) != b'(' {
                    i += 1;
                }
                self.bits = algo.bits();
                if length_given {
                    let (n, used) = strtoumax_prefix(s.get(i..)?, 0)?;
                    let n = usize::try_from(n?).ok()?;
                    if n == 0 || n > self.bits || n % 8 != 0 {
                        return None;
                    }
                    i += used;
                    self.bits = n;
                }
            }
            if at(i) == b' ' {
                i += 1;
            }
            if at(i) != b'(' {
                return None;
            }
            return self.split_tagged(s.get(i + 1..)?, escaped);
        }
        let min_len = match self.reader {
            Reader::Fixed => self.bits / 4 + 2,
            Reader::B2sum | Reader::Cksum => 3,
        };
        if s.len().saturating_sub(i) < min_len + usize::from(at(i) == b'\\') {
            return None;
        }
        let start = i;
        if algo == Algo::Blake2b {
            // An untagged BLAKE2b digest's width is its own length.
            let digits = s.get(start..)?.iter().take_while(|b| b.is_ascii_hexdigit());
            let digits = digits.count();
            if digits < 2 || digits % 2 != 0 || digits > algo.bits() / 4 {
                return None;
            }
            self.bits = digits * 4;
        }
        while at(i) != 0 && !is_white(at(i)) {
            i += 1;
        }
        if i == s.len() {
            return None;
        }
        let digest = s.get(start..i)?;
        i += 1;
        if !self.valid_digits(digest) {
            return None;
        }
        if s.len().saturating_sub(i) == 1 || (at(i) != b' ' && at(i) != b'*') {
            if self.reversed == Some(false) {
                return None;
            }
            self.reversed = Some(true);
        } else if self.reversed != Some(true) {
            self.reversed = Some(false);
            i += 1;
        }
        Some((digest, file_name(s.get(i..)?, escaped)?))
    }

    /// GNU's `bsd_split_3`, for what follows `TAG (`: the name up to the last `)`,
    /// then `=` and the digest, white space allowed around the `=`.
    fn split_tagged<'l>(&self, s: &'l [u8], escaped: bool) -> Option<(&'l [u8], Vec<u8>)> {
        let close = s.iter().rposition(|&b| b == b')')?;
        let name = file_name(s.get(..close)?, escaped)?;
        let rest = s.get(close + 1..)?;
        let rest = rest.get(rest.iter().take_while(|&&b| is_white(b)).count()..)?;
        let rest = rest.strip_prefix(b"=")?;
        let digest = rest.get(rest.iter().take_while(|&&b| is_white(b)).count()..)?;
        self.valid_digits(digest).then_some((digest, name))
    }
}

/// A listed file name: unescaped when the line started with `\`; GNU reads it as a C
/// string, so it ends at a NUL.
fn file_name(raw: &[u8], escaped: bool) -> Option<Vec<u8>> {
    if escaped {
        return unescape(raw);
    }
    Some(raw.split(|&b| b == 0).next().unwrap_or_default().to_vec())
}

/// `cksum -c` without `-a`: the algorithm a line's tag names (the tag ends at white
/// space, `-` or `(`), or `None` for no tag or one of the formats it cannot check.
fn algorithm_from_tag(s: &[u8]) -> Option<Algo> {
    const LONGEST: usize = 7;
    let end = s
        .iter()
        .position(|&b| b == 0 || is_white(b) || b == b'-' || b == b'(')
        .unwrap_or(s.len());
    if end > LONGEST {
        return None;
    }
    let tag = s.get(..end)?;
    TAGS.iter()
        .find(|(name, _)| name.as_bytes() == tag)
        .and_then(|(_, algo)| *algo)
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// GNU's `digest_check` over each list in `files`, with `checker`'s state carried from
/// one list to the next as GNU's globals are.
pub(super) fn check(
    ctx: &mut Ctx,
    checker: &mut Checker,
    parsed: &Parsed,
    files: &[String],
) -> CmdResult {
    let verbosity = last_verbosity(parsed);
    let quiet = verbosity == Some("quiet");
    let silent = verbosity == Some("status");
    let warn = verbosity == Some("w");
    let ignore_missing = parsed.has("ignore-missing");
    let mut status = 0;
    for list in files {
        let data = match ctx.read_input(list)? {
            Ok(d) => d,
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(list)))?;
                status = 1;
                continue;
            }
        };
        let shown_list = quotef(if list == "-" { "standard input" } else { list });
        let (mut bad_lines, mut unreadable, mut mismatched) = (0, 0, 0);
        let (mut good_lines, mut matched_any) = (false, false);
        for (i, rec) in records(&data, b'\n').enumerate() {
            ctx.host.check()?;
            if rec.first() == Some(&b'#') {
                continue;
            }
            let line = chomp(rec, b'\n');
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.is_empty() {
                continue;
            }
            let entry = checker
                .split(line)
                .filter(|(_, name)| !(list == "-" && name == b"-"));
            let Some((want, name)) = entry else {
                bad_lines += 1;
                if warn {
                    let tag = checker.tag();
                    ctx.err(format!(
                        "{shown_list}: {}: improperly formatted {tag} checksum line",
                        i + 1
                    ))?;
                }
                continue;
            };
            good_lines = true;
            let name = crate::text::decode(&name);
            let Some(algo) = checker.algo else {
                continue;
            };
            let got = match ctx.open_input(&name) {
                Ok(input) => Some(algo.hex_bits(&input.read_all(&mut *ctx.stdin)?, checker.bits)),
                Err(e) => {
                    if ignore_missing && e.is(crate::fs::Errno::ENOENT) {
                        continue;
                    }
                    ctx.err(format!("{}: {e}", quotef(&name)))?;
                    None
                }
            };
            let verdict = match got {
                None => {
                    unreadable += 1;
                    Some("FAILED open or read")
                }
                Some(h) if want.eq_ignore_ascii_case(h.as_bytes()) => {
                    matched_any = true;
                    if quiet { None } else { Some("OK") }
                }
                Some(_) => {
                    mismatched += 1;
                    Some("FAILED")
                }
            };
            if let Some(v) = verdict
                && !silent
            {
                // GNU 9.1 escapes a verdict's name only when it holds a newline.
                let text = if name.contains('\n') {
                    format!("\\{}: {v}\n", escape(&name))
                } else {
                    format!("{name}: {v}\n")
                };
                ctx.stdout.write_all(&crate::text::encode(&text))?;
            }
        }
        if !good_lines {
            ctx.err(format!(
                "{shown_list}: no properly formatted checksum lines found"
            ))?;
            status = 1;
            continue;
        }
        if !silent {
            if bad_lines > 0 {
                let what = plural(bad_lines, "line is", "lines are");
                ctx.err(format!("WARNING: {what} improperly formatted"))?;
            }
            if unreadable > 0 {
                let what = plural(unreadable, "listed file", "listed files");
                ctx.err(format!("WARNING: {what} could not be read"))?;
            }
            if mismatched > 0 {
                let what = plural(mismatched, "computed checksum", "computed checksums");
                ctx.err(format!("WARNING: {what} did NOT match"))?;
            }
            if ignore_missing && !matched_any {
                ctx.err(format!("{shown_list}: no file was verified"))?;
            }
        }
        let strict_fail = parsed.has("strict") && bad_lines > 0;
        if !matched_any || unreadable > 0 || mismatched > 0 || strict_fail {
            status = 1;
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    const H: &str = "b1946ac92492d2347c6235b4d2611184";

    #[test]
    fn sums_table() {
        let sums = format!("{H}  h\nbad  h\nd41d8cd98f00b204e9800998ecf8427e  nope\ngarbage\n");
        let files: &[(&str, &str)] = &[
            ("h", "hello\n"),
            ("sums", &sums),
            ("g", "garbage\n"),
            ("a\\b", ""),
        ];
        for (line, stdin, out, err, status) in [
            ("md5sum h", "", format!("{H}  h\n"), String::new(), 0),
            ("md5sum -b h", "", format!("{H} *h\n"), String::new(), 0),
            ("md5sum --tag h", "", format!("MD5 (h) = {H}\n"), String::new(), 0),
            ("md5sum -z h", "", format!("{H}  h\0"), String::new(), 0),
            (
                "md5sum 'a\\b'",
                "",
                "\\d41d8cd98f00b204e9800998ecf8427e  a\\\\b\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "sha1sum",
                "x",
                "11f6ad8ec52a2984abaafd7c3b516503785c2072  -\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "sha256sum --tag h",
                "",
                "SHA256 (h) = 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03\n"
                    .to_owned(),
                String::new(),
                0,
            ),
            (
                "sha512sum",
                "",
                "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e  -\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "md5sum nope",
                "",
                String::new(),
                "md5sum: nope: No such file or directory\n".to_owned(),
                1,
            ),
            ("md5sum -c", &format!("{H}  h\n"), "h: OK\n".to_owned(), String::new(), 0),
            ("md5sum -c", &format!("MD5 (h) = {H}\n"), "h: OK\n".to_owned(), String::new(), 0),
            (
                "md5sum -c",
                "b1946ac92492d2347c6235b4d2611180  h\n",
                "h: FAILED\n".to_owned(),
                "md5sum: WARNING: 1 computed checksum did NOT match\n".to_owned(),
                1,
            ),
            (
                "md5sum -c sums",
                "",
                "h: OK\nnope: FAILED open or read\n".to_owned(),
                "md5sum: nope: No such file or directory\nmd5sum: WARNING: 2 lines are improperly formatted\nmd5sum: WARNING: 1 listed file could not be read\n".to_owned(),
                1,
            ),
            (
                "md5sum --quiet -c sums",
                "",
                "nope: FAILED open or read\n".to_owned(),
                "md5sum: nope: No such file or directory\nmd5sum: WARNING: 2 lines are improperly formatted\nmd5sum: WARNING: 1 listed file could not be read\n".to_owned(),
                1,
            ),
            (
                "md5sum --status -c sums",
                "",
                String::new(),
                "md5sum: nope: No such file or directory\n".to_owned(),
                1,
            ),
            (
                "md5sum --ignore-missing -c sums",
                "",
                "h: OK\n".to_owned(),
                "md5sum: WARNING: 2 lines are improperly formatted\n".to_owned(),
                0,
            ),
            (
                "md5sum -c g",
                "",
                String::new(),
                "md5sum: g: no properly formatted checksum lines found\n".to_owned(),
                1,
            ),
        ] {
            check(files, line, stdin, (&out, &err, status));
        }
    }
}
