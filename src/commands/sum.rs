//! `md5sum`, `sha1sum`, `sha224sum`, `sha256sum`, `sha384sum`, `sha512sum`: print or
//! (`-c`) check message digests, in GNU's text, binary (`*`) and `--tag` formats, with
//! GNU's escaping of names holding `\` or newlines.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::digest::Algo;
use super::util::{chomp, quotef, records};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
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

fn usage(name: &str, algo: Algo) -> String {
    format!(
        "\
Usage: {name} [OPTION]... [FILE]...
Print or check {} checksums.

  -b, --binary         read in binary mode
  -c, --check          read checksums from the FILEs and check them
      --tag            create a BSD-style checksum
  -t, --text           read in text mode (default)
  -z, --zero           end each output line with NUL, not newline,
                       and disable file name escaping

The following five options are useful only when verifying checksums:
      --ignore-missing  don't fail or report status for missing files
      --quiet          don't print OK for each successfully verified file
      --status         don't output anything, status code shows success
      --strict         exit non-zero for improperly formatted checksum lines
  -w, --warn           warn about improperly formatted checksum lines

      --help     display this help and exit
      --version  output version information and exit
",
        algo.tag()
    )
}

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

/// GNU's escaping of a name in a checksum line: `\` and newline escaped, and the line
/// then starts with `\`.
fn escape(name: &str) -> (bool, String) {
    if !name.contains(['\\', '\n', '\r']) {
        return (false, name.to_owned());
    }
    let s = name
        .replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r");
    (true, s)
}

fn unescape(name: &str) -> String {
    let mut out = String::new();
    let mut cs = name.chars();
    while let Some(c) = cs.next() {
        if c == '\\' {
            match cs.next() {
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Splits a checksum line into (hex digest, file name).
fn parse_line(line: &str, algo: Algo) -> Option<(String, String)> {
    let (escaped, line) = match line.strip_prefix('\\') {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let fix = |n: &str| if escaped { unescape(n) } else { n.to_owned() };
    if let Some(rest) = line.strip_prefix(algo.tag())
        && let Some(rest) = rest.strip_prefix(" (")
        && let Some((name, hash)) = rest.rsplit_once(") = ")
    {
        if hash.len() == algo.hex_len() && hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Some((hash.to_ascii_lowercase(), fix(name)));
        }
        return None;
    }
    let hash = line.get(..algo.hex_len())?;
    if !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let rest = line.get(algo.hex_len()..)?;
    let name = rest
        .strip_prefix("  ")
        .or_else(|| rest.strip_prefix(" *"))?;
    if name.is_empty() {
        return None;
    }
    Some((hash.to_ascii_lowercase(), fix(name)))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn run(ctx: &mut Ctx, algo: Algo) -> CmdResult {
    let usage = usage(ctx.name, algo);
    let parsed = match parse_std(ctx, &Spec::new("bctwz", LONG), 1, &usage)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let files = if parsed.operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    };
    if let Some(msg) = misused_option(&parsed) {
        return usage_error(ctx, msg, 1);
    }
    if parsed.has("c") {
        return check(ctx, algo, &parsed, &files);
    }
    let binary = parsed
        .opts
        .iter()
        .rev()
        .find(|(k, _)| k == "b" || k == "t")
        .is_some_and(|(k, _)| k == "b");
    let zero = parsed.has("z");
    let mut status = 0;
    for name in &files {
        let data = match ctx.read_input(name)? {
            Ok(d) => d,
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                status = 1;
                continue;
            }
        };
        ctx.host.check()?;
        let hex = algo.hex(&data);
        let (escaped, shown) = if zero {
            (false, name.clone())
        } else {
            escape(name)
        };
        let prefix = if escaped { "\\" } else { "" };
        let end = if zero { '\0' } else { '\n' };
        let line = if parsed.has("tag") {
            format!("{prefix}{} ({shown}) = {hex}{end}", algo.tag())
        } else {
            let mode = if binary { '*' } else { ' ' };
            format!("{prefix}{hex} {mode}{shown}{end}")
        };
        ctx.stdout.write_all(&crate::text::encode(&line))?;
    }
    Ok(status)
}

/// GNU's usage errors for options that contradict the mode, checked in its order.
fn misused_option(parsed: &super::args::Parsed) -> Option<&'static str> {
    let checking = parsed.has("c");
    let text_mode = parsed
        .opts
        .iter()
        .rev()
        .find(|(k, _)| k == "b" || k == "t")
        .is_some_and(|(k, _)| k == "t");
    if parsed.has("tag") && text_mode {
        return Some("--tag does not support --text mode");
    }
    if checking {
        if parsed.has("z") {
            return Some("the --zero option is not supported when verifying checksums");
        }
        if parsed.has("tag") {
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
fn last_verbosity(parsed: &super::args::Parsed) -> Option<&str> {
    parsed
        .opts
        .iter()
        .rev()
        .map(|(k, _)| k.as_str())
        .find(|k| matches!(*k, "status" | "quiet" | "w"))
}

pub(super) fn check(
    ctx: &mut Ctx,
    algo: Algo,
    parsed: &super::args::Parsed,
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
        let (mut bad_lines, mut unreadable, mut mismatched, mut good_lines) = (0, 0, 0, 0);
        let mut matched_any = false;
        for (i, rec) in records(&data, b'\n').enumerate() {
            ctx.host.check()?;
            let line = crate::text::decode(chomp(rec, b'\n'));
            let line = line.strip_suffix('\r').unwrap_or(&line).to_owned();
            let Some((want, name)) = parse_line(&line, algo) else {
                bad_lines += 1;
                if warn {
                    ctx.err(format!(
                        "{}: {}: improperly formatted {} checksum line",
                        quotef(list),
                        i + 1,
                        algo.tag()
                    ))?;
                }
                continue;
            };
            good_lines += 1;
            let got = match ctx.open_input(&name) {
                Ok(input) => Some(algo.hex(&input.read_all(&mut *ctx.stdin)?)),
                Err(e) => {
                    if ignore_missing && e.is(crate::fs::Errno::ENOENT) {
                        continue;
                    }
                    ctx.err(format!("{}: {e}", quotef(&name)))?;
                    None
                }
            };
            let (escaped, shown) = escape(&name);
            let prefix = if escaped { "\\" } else { "" };
            let verdict = match got {
                None => {
                    unreadable += 1;
                    Some("FAILED open or read")
                }
                Some(h) if h == want => {
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
                let text = format!("{prefix}{shown}: {v}\n");
                ctx.stdout.write_all(&crate::text::encode(&text))?;
            }
        }
        let shown_list = quotef(if list == "-" { "standard input" } else { list });
        if good_lines == 0 {
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
        }
        if ignore_missing && !matched_any && unreadable == 0 && mismatched == 0 {
            ctx.err(format!("{shown_list}: no file was verified"))?;
            status = 1;
        }
        if unreadable > 0 || mismatched > 0 || (parsed.has("strict") && bad_lines > 0) {
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
