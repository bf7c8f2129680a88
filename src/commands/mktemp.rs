//! `mktemp`: creates a uniquely named file (mode 0600) or directory (`-d`, 0700) from a
//! template whose trailing `X`s are replaced. Names come from a generator seeded by the
//! template and the virtual clock, so runs are reproducible; a name already taken is
//! skipped, so they never collide.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::lq;
use super::{CmdResult, Ctx};
use crate::fs::{Errno, FsError, OpenOptions};

const LONG: &[LongOpt] = &[
    long("directory", HasArg::No, "d"),
    long("dry-run", HasArg::No, "u"),
    long("quiet", HasArg::No, "q"),
    long("suffix", HasArg::Required, "suffix"),
    long("tmpdir", HasArg::Optional, "p"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: mktemp [OPTION]... [TEMPLATE]
Create a temporary file or directory, safely, and print its name.
TEMPLATE must contain at least 3 consecutive 'X's in last component.
If TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.
Files are created u+rw, and directories u+rwx, minus umask restrictions.

  -d, --directory     create a directory, not a file
  -u, --dry-run       do not create anything; merely print a name (unsafe)
  -q, --quiet         suppress diagnostics about file/dir-creation failure
      --suffix=SUFF   append SUFF to TEMPLATE; SUFF must not contain a slash.
                        This option is implied if TEMPLATE does not end in X
  -p DIR, --tmpdir[=DIR]  interpret TEMPLATE relative to DIR; if DIR is not
                        specified, use $TMPDIR if set, else /tmp.  With
                        this option, TEMPLATE must not be an absolute name;
                        unlike with -t, TEMPLATE may contain slashes, but
                        mktemp creates only the final component
  -t                  interpret TEMPLATE as a single file name component,
                        relative to a directory: $TMPDIR, if set; else the
                        directory specified via -p; else /tmp [deprecated]
      --help     display this help and exit
      --version  output version information and exit
";

const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// A splitmix64 step.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

pub fn mktemp(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("dp:qtu", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if let Some(extra) = parsed.operands.get(1) {
        let _ = extra;
        return usage_error(ctx, "too many templates", 1);
    }
    let quiet = parsed.has("q");
    let dir_mode = parsed.has("d");
    let env_tmp = ctx.env.get("TMPDIR").filter(|d| !d.is_empty()).cloned();
    let p_dir: Option<String> = parsed
        .opts
        .iter()
        .rev()
        .find(|(k, _)| k == "p")
        .map(|(_, v)| v.clone().unwrap_or_default());
    let use_t = parsed.has("t");
    let (template, implied) = match parsed.operands.first() {
        Some(t) => (t.clone(), false),
        None => ("tmp.XXXXXXXXXX".to_owned(), true),
    };
    let explicit_suffix = parsed.last("suffix");
    let (stem, suffix) = match explicit_suffix {
        Some(s) => {
            if !template.ends_with('X') {
                ctx.err(format!(
                    "with --suffix, template {} must end in X",
                    lq(&template)
                ))?;
                return Ok(1);
            }
            (template.clone(), s.to_owned())
        }
        None => {
            let end = template.rfind('X').map_or(0, |i| i + 1);
            (template[..end].to_owned(), template[end..].to_owned())
        }
    };
    if suffix.contains('/') {
        ctx.err(format!(
            "invalid suffix {}, contains directory separator",
            lq(&suffix)
        ))?;
        return Ok(1);
    }
    let xs = stem.len() - stem.trim_end_matches('X').len();
    if xs < 3 {
        ctx.err(format!(
            "too few X's in template {}",
            lq(&format!("{stem}{suffix}"))
        ))?;
        return Ok(1);
    }
    let full_template = format!("{stem}{suffix}");
    let dir: Option<String> = if use_t {
        if full_template.contains('/') {
            ctx.err(format!(
                "invalid template, {}, contains directory separator",
                lq(&full_template)
            ))?;
            return Ok(1);
        }
        Some(
            env_tmp
                .or(p_dir.filter(|d| !d.is_empty()))
                .unwrap_or_else(|| "/tmp".to_owned()),
        )
    } else if p_dir.is_some() || implied {
        if full_template.starts_with('/') {
            ctx.err(format!(
                "invalid template, {}; with --tmpdir, it may not be absolute",
                lq(&full_template)
            ))?;
            return Ok(1);
        }
        Some(
            p_dir
                .filter(|d| !d.is_empty())
                .or(env_tmp)
                .unwrap_or_else(|| "/tmp".to_owned()),
        )
    } else {
        None
    };
    let prefix = match &dir {
        Some(d) if d.ends_with('/') => d.clone(),
        Some(d) => format!("{d}/"),
        None => String::new(),
    };
    let base = &stem[..stem.len() - xs];
    let now = ctx.fs.lock().clock().now();
    let mut state = now.as_nanos() as u64;
    for b in full_template.bytes().chain(prefix.bytes()) {
        state = (state ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
    }
    let what = if dir_mode { "directory" } else { "file" };
    for _ in 0..10_000 {
        let mut name = format!("{prefix}{base}");
        for _ in 0..xs {
            let i = (next(&mut state) % ALPHABET.len() as u64) as usize;
            name.push(char::from(ALPHABET.get(i).copied().unwrap_or(b'x')));
        }
        name.push_str(&suffix);
        let path = ctx.path(&name);
        let umask = ctx.umask;
        let made: Result<(), FsError> = {
            let mut fs = ctx.fs.lock();
            if parsed.has("u") {
                if fs.lstat(&path).is_ok() {
                    Err(Errno::EEXIST.into())
                } else {
                    Ok(())
                }
            } else if dir_mode {
                // mkdtemp and mkstemp ask for 0700 and 0600; the umask still applies.
                fs.mkdir(&path, 0o700 & !umask)
            } else {
                let opts = OpenOptions {
                    write: true,
                    create: true,
                    exclusive: true,
                    mode: Some(0o600 & !umask),
                    ..OpenOptions::default()
                };
                fs.open(&path, opts).map(|_| ())
            }
        };
        match made {
            Ok(()) => {
                let mut line = crate::text::encode(&name);
                line.push(b'\n');
                ctx.stdout.write_all(&line)?;
                return Ok(0);
            }
            Err(e) if e.is(Errno::EEXIST) => continue,
            Err(e) => {
                if !quiet {
                    ctx.err(format!(
                        "failed to create {what} via template {}: {e}",
                        lq(&format!("{prefix}{full_template}"))
                    ))?;
                }
                return Ok(1);
            }
        }
    }
    if !quiet {
        ctx.err(format!(
            "failed to create {what} via template {}: File exists",
            lq(&format!("{prefix}{full_template}"))
        ))?;
    }
    Ok(1)
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use crate::commands::testing::{check, fs_with, run_in};

    fn shape(out: &str) -> String {
        out.chars()
            .map(|c| if c.is_ascii_alphanumeric() { 'x' } else { c })
            .collect()
    }

    #[test]
    fn mktemp_names() {
        let fs = fs_with(&[("d/", "")]);
        fs.lock().mkdir_all("/tmp", 0o1777).expect("tmp");
        for (line, want) in [
            ("mktemp", "/xxx/xxx.xxxxxxxxxx\n"),
            ("mktemp fooXXX", "xxxxxx\n"),
            ("mktemp -d", "/xxx/xxx.xxxxxxxxxx\n"),
            ("mktemp -p d", "x/xxx.xxxxxxxxxx\n"),
            ("mktemp -p d aXXXX.txt", "x/xxxxx.xxx\n"),
            ("mktemp -t aXXX", "/xxx/xxxx\n"),
            ("mktemp --suffix=.c bXXX", "xxxx.x\n"),
            ("mktemp XXXa", "xxxx\n"),
            (
                "env TMPDIR=/workspace/d mktemp -t",
                "/xxxxxxxxx/x/xxx.xxxxxxxxxx\n",
            ),
        ] {
            let (out, err, status) = run_in(&fs, line, b"");
            let out = String::from_utf8_lossy(&out).into_owned();
            assert_eq!(
                (shape(&out).as_str(), err.as_str(), status),
                (want, "", 0),
                "{line}"
            );
        }
        let (a, _, _) = run_in(&fs, "mktemp -d", b"");
        let (b, _, _) = run_in(&fs, "mktemp -d", b"");
        assert_ne!(a, b, "never the same name twice");
        let name = String::from_utf8_lossy(&b).trim().to_owned();
        let meta = fs.lock().stat(&name).expect("made");
        assert!(meta.is_dir() && meta.mode == 0o700);
        let (f, _, _) = run_in(&fs, "mktemp", b"");
        let name = String::from_utf8_lossy(&f).trim().to_owned();
        let meta = fs.lock().stat(&name).expect("made");
        assert!(meta.is_file() && meta.mode == 0o600);
    }

    #[test]
    fn mktemp_errors() {
        for (line, err) in [
            ("mktemp fooXX", "mktemp: too few X's in template 'fooXX'\n"),
            (
                "mktemp nope/xXXX",
                "mktemp: failed to create file via template 'nope/xXXX': No such file or directory\n",
            ),
            (
                "mktemp a b",
                "mktemp: too many templates\nTry 'mktemp --help' for more information.\n",
            ),
            (
                "mktemp -p d /abs/XXX",
                "mktemp: invalid template, '/abs/XXX'; with --tmpdir, it may not be absolute\n",
            ),
            (
                "mktemp --tmpdir=d a/XXX",
                "mktemp: failed to create file via template 'd/a/XXX': No such file or directory\n",
            ),
            ("mktemp -q nope/xXXX", ""),
        ] {
            check(&[("d/", "")], line, "", ("", err, 1));
        }
    }
}
