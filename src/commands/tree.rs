//! `tree`: draws directory trees as the `tree` tool does with UTF-8 line drawing
//! (`├── `, `└── `, `│` followed by two no-break spaces), then the `N directories, M
//! files` report (which counts the named directory too, as tree 2.x does);
//! `-a -d -f -i -F -L N -I PATTERN -P PATTERN --noreport --dirsfirst`. Symlinks show
//! their target and are not followed; one to a directory counts as a directory.
//!
//! The expectations follow tree 2.1 (`linedraw` set for UTF-8, `alnum` name order,
//! exit status 2 when a named directory cannot be opened).

use super::args::{HasArg, LongOpt, Spec, long};
use super::fnmatch::fnmatch;
use super::{CmdResult, Ctx};
use crate::fs::Fs;

const LONG: &[LongOpt] = &[
    long("noreport", HasArg::No, "noreport"),
    long("dirsfirst", HasArg::No, "dirsfirst"),
    long("help", HasArg::No, "help"),
];

const USAGE: &str = "\
usage: tree [-adfiF] [-L level] [-P pattern] [-I pattern] [--noreport] [--dirsfirst]
\t[--help] [--] [directory ...]
  ------- Listing options -------
  -a            All files are listed.
  -d            List directories only.
  -f            Print the full path prefix for each file.
  -i            Don't print indentation lines.
  -F            Appends '/' or '*' as per ls -F.
  -L level      Descend only level directories deep.
  -P pattern    List only those files that match the pattern given.
  -I pattern    Do not list files that match the given pattern.
  --noreport    Turn off file/directory count at end of tree listing.
  ------- Sorting options -------
  --dirsfirst   List directories before files.
  ------- Miscellaneous options -------
  --help        Print usage and this help message and exit.
  --            Options processing terminator.
";

struct Opts {
    all: bool,
    dirs_only: bool,
    max_level: Option<usize>,
    full_path: bool,
    no_indent: bool,
    classify: bool,
    only: Vec<String>,
    ignore: Vec<String>,
    dirs_first: bool,
}

struct Counts {
    dirs: u64,
    files: u64,
}

fn matches_any(patterns: &[String], name: &str) -> bool {
    patterns
        .iter()
        .any(|pats| pats.split('|').any(|p| fnmatch(p, name, false)))
}

/// The `-F` mark for what `path` leads to: `/` directory, `*` executable file.
fn class_mark(fs: &Fs, path: &str) -> &'static str {
    match fs.stat(path) {
        Ok(m) if m.is_dir() => "/",
        Ok(m) if m.file_type.is_file() && m.mode & 0o111 != 0 => "*",
        _ => "",
    }
}

#[allow(clippy::too_many_arguments)]
fn list(
    ctx_host: &mut dyn super::Host,
    fs: &Fs,
    o: &Opts,
    path: &str,
    shown: &str,
    prefix: &str,
    level: usize,
    counts: &mut Counts,
    out: &mut Vec<u8>,
) -> std::io::Result<usize> {
    let Ok(entries) = fs.read_dir(path) else {
        return Ok(0);
    };
    let mut items = Vec::new();
    for e in entries {
        if !o.all && e.name.starts_with('.') {
            continue;
        }
        let child = crate::fs::path::join(path, &e.name);
        let is_dir = fs.stat(&child).is_ok_and(|m| m.is_dir());
        if o.dirs_only && !is_dir {
            continue;
        }
        if matches_any(&o.ignore, &e.name) {
            continue;
        }
        // -P keeps every directory (a symlink to one is not) and the matching rest.
        let real_dir = is_dir && !e.file_type.is_symlink();
        if !o.only.is_empty() && !real_dir && !matches_any(&o.only, &e.name) {
            continue;
        }
        items.push((e, child, is_dir));
    }
    if o.dirs_first {
        items.sort_by_key(|(_, _, d)| !*d);
    }
    let n = items.len();
    for (i, (e, child, is_dir)) in items.into_iter().enumerate() {
        ctx_host.check()?;
        let last = i + 1 == n;
        let child_shown = if shown.ends_with('/') {
            format!("{shown}{}", e.name)
        } else {
            format!("{shown}/{}", e.name)
        };
        if !o.no_indent {
            out.extend_from_slice(prefix.as_bytes());
            out.extend_from_slice(if last { "└── " } else { "├── " }.as_bytes());
        }
        let label = if o.full_path { &child_shown } else { &e.name };
        out.extend_from_slice(&crate::text::encode(label));
        let link = e.file_type.is_symlink();
        if link && let Ok(t) = fs.readlink(&child) {
            out.extend_from_slice(b" -> ");
            out.extend_from_slice(&crate::text::encode(&t));
        }
        if o.classify {
            out.extend_from_slice(class_mark(fs, &child).as_bytes());
        }
        out.push(b'\n');
        if is_dir {
            counts.dirs += 1;
        } else {
            counts.files += 1;
        }
        if is_dir && !link && o.max_level.is_none_or(|m| level < m) {
            let next = format!("{prefix}{}", if last { "    " } else { "│\u{a0}\u{a0} " });
            list(
                ctx_host,
                fs,
                o,
                &child,
                &child_shown,
                &next,
                level + 1,
                counts,
                out,
            )?;
        }
    }
    Ok(n)
}

pub fn tree(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("adfiFL:P:I:", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => {
            ctx.err(msg)?;
            let synopsis = USAGE.split_inclusive('\n').take(2).collect::<String>();
            ctx.stderr.write_all(synopsis.as_bytes())?;
            return Ok(1);
        }
    };
    if parsed.has("help") {
        ctx.stdout.write_all(USAGE.as_bytes())?;
        return Ok(0);
    }
    let mut o = Opts {
        all: parsed.has("a"),
        dirs_only: parsed.has("d"),
        max_level: None,
        full_path: parsed.has("f"),
        no_indent: parsed.has("i"),
        classify: parsed.has("F"),
        only: Vec::new(),
        ignore: Vec::new(),
        dirs_first: parsed.has("dirsfirst"),
    };
    for (k, v) in &parsed.opts {
        let v = v.as_deref().unwrap_or("");
        match k.as_str() {
            "L" => match v.parse::<usize>() {
                Ok(n) if n > 0 => o.max_level = Some(n),
                _ => {
                    ctx.err("Invalid level, must be greater than 0.")?;
                    return Ok(1);
                }
            },
            "I" => o.ignore.push(v.to_owned()),
            "P" => o.only.push(v.to_owned()),
            _ => {}
        }
    }
    let operands = if parsed.operands.is_empty() {
        vec![".".to_owned()]
    } else {
        parsed.operands.clone()
    };
    let fs = ctx.fs.snapshot();
    let mut counts = Counts { dirs: 0, files: 0 };
    let mut status = 0;
    for name in &operands {
        let path = ctx.path(name);
        let mut out = Vec::new();
        out.extend_from_slice(&crate::text::encode(name));
        match fs.stat(&path) {
            Ok(m) if m.is_dir() => {
                if o.classify {
                    out.push(b'/');
                }
                out.push(b'\n');
                // tree 2.1 counts the named directory only when it lists something.
                if list(ctx.host, &fs, &o, &path, name, "", 1, &mut counts, &mut out)? > 0 {
                    counts.dirs += 1;
                }
            }
            Ok(_) => {
                out.extend_from_slice(b"  [error opening dir]\n");
                counts.files += 1;
            }
            Err(_) => {
                out.extend_from_slice(b"  [error opening dir]\n");
                status = 2;
            }
        }
        ctx.stdout.write_all(&out)?;
    }
    if !parsed.has("noreport") {
        let plural =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let dirs = plural(counts.dirs, "directory", "directories");
        if o.dirs_only {
            writeln!(ctx.stdout, "\n{dirs}")?;
        } else {
            let files = plural(counts.files, "file", "files");
            writeln!(ctx.stdout, "\n{dirs}, {files}")?;
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    const FILES: &[(&str, &str)] = &[
        ("a", ""),
        (".hidden", ""),
        ("d/e/x", ""),
        ("d/g", ""),
        ("f", ""),
        ("l", "->d"),
    ];

    #[test]
    fn tree_table() {
        for (line, out, status) in [
            (
                "tree",
                ".\n├── a\n├── d\n│\u{a0}\u{a0} ├── e\n│\u{a0}\u{a0} │\u{a0}\u{a0} └── x\n│\u{a0}\u{a0} └── g\n├── f\n└── l -> d\n\n4 directories, 4 files\n",
                0,
            ),
            (
                "tree -a -L 1 --noreport",
                ".\n├── .hidden\n├── a\n├── d\n├── f\n└── l -> d\n",
                0,
            ),
            (
                "tree -d",
                ".\n├── d\n│\u{a0}\u{a0} └── e\n└── l -> d\n\n4 directories\n",
                0,
            ),
            (
                "tree -f d",
                "d\n├── d/e\n│\u{a0}\u{a0} └── d/e/x\n└── d/g\n\n2 directories, 2 files\n",
                0,
            ),
            (
                "tree -I 'e|a' -L 1 d",
                "d\n└── g\n\n1 directory, 1 file\n",
                0,
            ),
            (
                "tree nope",
                "nope  [error opening dir]\n\n0 directories, 0 files\n",
                2,
            ),
        ] {
            check(FILES, line, "", (out, "", status));
        }
    }
}
