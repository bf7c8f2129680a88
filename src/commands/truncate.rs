//! `truncate`: sets file sizes (`-s [+-<>/%]SIZE`, or `-r FILE`'s size), creating
//! missing files unless `-c`.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{lq, parse_size, quote};
use super::{CmdResult, Ctx};
use crate::fs::OpenOptions;

const LONG: &[LongOpt] = &[
    long("no-create", HasArg::No, "c"),
    long("io-blocks", HasArg::No, "o"),
    long("reference", HasArg::Required, "r"),
    long("size", HasArg::Required, "s"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: truncate OPTION... FILE...
Shrink or extend the size of each FILE to the specified size

  -c, --no-create        do not create any files
  -r, --reference=RFILE  base size on RFILE
  -s, --size=SIZE        set or adjust the file size by SIZE bytes
      --help     display this help and exit
      --version  output version information and exit

SIZE may also be prefixed by one of the following modifying characters:
'+' extend by, '-' reduce by, '<' at most, '>' at least,
'/' round down to multiple of, '%' round up to multiple of.
";

pub fn truncate(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("cor:s:", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let size_arg = parsed.last("s").map(str::to_owned);
    let reference = parsed.last("r").map(str::to_owned);
    if size_arg.is_none() && reference.is_none() {
        return usage_error(
            ctx,
            &format!(
                "you must specify either {} or {}",
                lq("--size"),
                lq("--reference")
            ),
            1,
        );
    }
    let blocks = parsed.has("o");
    if blocks && size_arg.is_none() {
        return usage_error(
            ctx,
            &format!(
                "{} was specified but {} was not",
                lq("--io-blocks"),
                lq("--size")
            ),
            1,
        );
    }
    if parsed.operands.is_empty() {
        return usage_error(ctx, "missing file operand", 1);
    }
    let mut op = '=';
    let mut amount = 0u64;
    if let Some(s) = &size_arg {
        let t = s.trim_start();
        let (o, rest) = match t.chars().next() {
            Some(c @ ('+' | '-' | '<' | '>' | '/' | '%')) => (c, &t[1..]),
            _ => ('=', t),
        };
        op = o;
        match parse_size(rest.trim_start()) {
            Some(n) => amount = n,
            None => {
                ctx.err(format!("Invalid number: {}", lq(s)))?;
                return Ok(1);
            }
        }
        if op == '=' && reference.is_some() {
            return usage_error(
                ctx,
                &format!(
                    "you must specify a relative {} with {}",
                    lq("--size"),
                    lq("--reference")
                ),
                1,
            );
        }
        if blocks {
            // The virtual filesystem's I/O block, as `stat -c %o` reports it.
            amount = amount.saturating_mul(4096);
        }
        if matches!(op, '/' | '%') && amount == 0 {
            ctx.err("division by zero")?;
            return Ok(1);
        }
    }
    let ref_size = match &reference {
        Some(r) => {
            let meta = ctx.fs.lock().stat(&ctx.path(r));
            match meta {
                Ok(m) => Some(m.size),
                Err(e) => {
                    ctx.err(format!("cannot stat {}: {e}", quote(r)))?;
                    return Ok(1);
                }
            }
        }
        None => None,
    };
    let mut status = 0;
    for name in &parsed.operands {
        let path = ctx.path(name);
        let mut fs = ctx.fs.lock();
        let current = match fs.stat(&path) {
            Ok(m) => m.size,
            Err(e) if e.is(crate::fs::Errno::ENOENT) && parsed.has("c") => continue,
            Err(_) => 0,
        };
        let base = match (ref_size, size_arg.is_some()) {
            (Some(r), true) => r,
            (Some(r), false) => {
                amount = r;
                current
            }
            (None, _) => current,
        };
        let new = match op {
            '+' => base.saturating_add(amount),
            '-' => base.saturating_sub(amount),
            '<' => base.min(amount),
            '>' => base.max(amount),
            '/' => base / amount * amount,
            '%' => base.div_ceil(amount).saturating_mul(amount),
            _ => amount,
        };
        let opts = OpenOptions {
            write: true,
            create: !parsed.has("c"),
            mode: Some(ctx.file_mode()),
            ..OpenOptions::default()
        };
        let result = fs
            .open(&path, opts)
            .and_then(|ino| fs.truncate_ino(ino, new));
        drop(fs);
        if let Err(e) = result {
            ctx.err(format!("cannot open {} for writing: {e}", quote(name)))?;
            status = 1;
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, fs_with, run_in};

    #[test]
    fn truncate_table() {
        let fs = fs_with(&[("h", "hello\n"), ("r", "12345678")]);
        let size = |p: &str| fs.lock().stat(&format!("/workspace/{p}")).map(|m| m.size);
        for (line, file, want) in [
            ("truncate -s 3 h", "h", 3),
            ("truncate -s +2 h", "h", 5),
            ("truncate -s -1 h", "h", 4),
            ("truncate -s %3 h", "h", 6),
            ("truncate -s /4 h", "h", 4),
            ("truncate -s '<2' h", "h", 2),
            ("truncate -s '>3' h", "h", 3),
            ("truncate -r r h", "h", 8),
            ("truncate -s 1K new", "new", 1024),
        ] {
            let (_, err, status) = run_in(&fs, line, b"");
            assert_eq!((err.as_str(), status), ("", 0), "{line}");
            assert_eq!(size(file), Ok(want), "{line}");
        }
        assert_eq!(
            fs.lock().read_file("/workspace/h").map(|d| d.to_vec()),
            Ok(b"he\0\0\0\0\0\0".to_vec())
        );
        let (_, _, status) = run_in(&fs, "truncate -c -s 1 absent", b"");
        assert_eq!(status, 0);
        assert!(fs.lock().stat("/workspace/absent").is_err());
        for (line, err) in [
            (
                "truncate h",
                "truncate: you must specify either '--size' or '--reference'\nTry 'truncate --help' for more information.\n",
            ),
            ("truncate -s x h", "truncate: Invalid number: 'x'\n"),
            (
                "truncate -s 1 nope/x",
                "truncate: cannot open 'nope/x' for writing: No such file or directory\n",
            ),
        ] {
            check(&[("h", "")], line, "", ("", err, 1));
        }
    }
}
