//! `which` (debianutils): the executable files a name would run, searched in `$PATH`
//! (an empty entry means `.`); `-a` prints every match. Status 1 if any name is not
//! found (or none is given), 2 for a bad option.

use super::{CmdResult, Ctx};

fn executable(ctx: &Ctx, path: &str) -> bool {
    let abs = ctx.path(path);
    let fs = ctx.fs.lock();
    fs.stat(&abs).is_ok_and(|m| m.is_file()) && fs.access(&abs, false, false, true).is_ok()
}

pub fn which(ctx: &mut Ctx) -> CmdResult {
    let mut all = false;
    let mut names = ctx.args;
    // getopts as the original shell script uses it: clustered `-a`, `--` ends options.
    while let Some((first, rest)) = names.split_first() {
        if first == "--" {
            names = rest;
            break;
        }
        let Some(flags) = first.strip_prefix('-').filter(|f| !f.is_empty()) else {
            break;
        };
        for c in flags.chars() {
            if c != 'a' {
                writeln!(ctx.stderr, "Illegal option -{c}")?;
                writeln!(ctx.stdout, "Usage: which [-a] args")?;
                return Ok(2);
            }
        }
        all = true;
        names = rest;
    }
    let mut path = ctx.env.get("PATH").cloned().unwrap_or_default();
    if path.ends_with(':') && !path.ends_with("::") && path.len() > 1 {
        // The script's `(*[!:]:) PATH="$PATH:"`: a trailing empty entry survives IFS splitting.
        path.push(':');
    }
    let mut dirs: Vec<&str> = path.split(':').collect();
    // IFS splitting drops the final empty field.
    if dirs.last() == Some(&"") {
        dirs.pop();
    }
    let mut status = if names.is_empty() { 1 } else { 0 };
    let mut out = String::new();
    for name in names {
        let mut found = false;
        if name.contains('/') {
            if executable(ctx, name) {
                out.push_str(&format!("{name}\n"));
                found = true;
            }
        } else {
            for dir in &dirs {
                let dir = if dir.is_empty() { "." } else { dir };
                let candidate = format!("{dir}/{name}");
                if executable(ctx, &candidate) {
                    out.push_str(&format!("{candidate}\n"));
                    found = true;
                    if !all {
                        break;
                    }
                }
            }
        }
        if !found {
            status = 1;
        }
    }
    ctx.stdout.write_all(&crate::text::encode(&out))?;
    Ok(status)
}

#[cfg(test)]
#[allow(clippy::expect_used)]
mod tests {
    use crate::commands::testing::{check, fs_with, run_in};

    #[test]
    fn which_table() {
        let files = &[
            ("bin/ls", "x"),
            ("bin/sh", "x"),
            ("usr/ls", "x"),
            ("f", "x"),
        ];
        let fs = fs_with(files);
        for p in ["bin/ls", "bin/sh", "usr/ls"] {
            fs.lock()
                .chmod(&format!("/workspace/{p}"), 0o755)
                .expect("chmod");
        }
        let path = "env PATH=/workspace/usr:/workspace/bin";
        for (line, out, err, status) in [
            (format!("{path} which ls"), "/workspace/usr/ls\n", "", 0),
            (
                format!("{path} which -a ls sh"),
                "/workspace/usr/ls\n/workspace/bin/ls\n/workspace/bin/sh\n",
                "",
                0,
            ),
            (
                format!("{path} which nope ls"),
                "/workspace/usr/ls\n",
                "",
                1,
            ),
            (format!("{path} which"), "", "", 1),
            (format!("{path} which ./f bin/ls"), "bin/ls\n", "", 1),
            ("env PATH=:/bin which ls".to_owned(), "", "", 1),
            ("env PATH=bin: which ls".to_owned(), "bin/ls\n", "", 0),
            (
                format!("{path} which -x"),
                "Usage: which [-a] args\n",
                "Illegal option -x\n",
                2,
            ),
        ] {
            let (o, e, s) = run_in(&fs, &line, b"");
            assert_eq!(
                (String::from_utf8_lossy(&o).as_ref(), e.as_str(), s),
                (out, err, status),
                "{line}"
            );
        }
        check(&[], "which", "", ("", "", 1));
    }
}
