//! `hash [-lr] [-p pathname] [-dt] [name ...]` (bash manual, "Bourne Shell
//! Builtins"): the table of remembered command locations, filled by PATH searches
//! under `set -h` and shown in bash's order and formats.

use super::super::{Hashed, Interp, R};

pub fn hash(sh: &mut Interp, args: &[String]) -> R {
    let usage = "hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]";
    if !sh.set.hashall {
        sh.builtin_error("hash", "hashing disabled");
        return Ok(1);
    }
    let (given, start) = match super::options(sh, "hash", args, "dlp:rt", usage) {
        Ok(x) => x,
        Err(status) => return Ok(status),
    };
    let has = |c: char| given.iter().any(|(g, _)| *g == c);
    let (delete, portable, reset, targets) = (has('d'), has('l'), has('r'), has('t'));
    let pathname = given
        .iter()
        .rev()
        .find_map(|(c, v)| if *c == 'p' { v.clone() } else { None });
    let names = &args[start..];
    if names.is_empty() && (delete || targets) {
        let opt = if delete { "-d" } else { "-t" };
        sh.builtin_error("hash", &format!("{opt}: option requires an argument"));
        return Ok(1);
    }
    if names.is_empty() && !reset {
        let mut out = String::new();
        if sh.hash.is_empty() {
            // `hash -l` says nothing of an empty table, nor does posix mode.
            if !sh.set.posix && !portable {
                out = "hash: hash table empty\n".to_owned();
            }
        } else {
            if !portable {
                out.push_str("hits\tcommand\n");
            }
            for (name, h) in listing_order(&sh.hash) {
                if portable {
                    out.push_str(&format!("builtin hash -p {} {name}\n", h.path));
                } else {
                    out.push_str(&format!("{:4}\t{}\n", h.hits, h.path));
                }
            }
        }
        sh.out(out.as_bytes())?;
        return Ok(0);
    }
    if reset {
        sh.hash = imbl::OrdMap::new();
    }
    if targets {
        return show_targets(sh, names, portable);
    }
    let mut status = 0;
    for name in names {
        if name.contains('/') {
            continue;
        }
        if let Some(path) = &pathname {
            let full = crate::fs::path::join(&sh.cwd, path);
            if sh.restricted && path.contains('/') {
                sh.builtin_error("hash", &format!("{path}: restricted"));
                status = 1;
            } else if sh.restricted && sh.path_search(path).is_none() {
                // A restricted shell hashes only what it could run by name.
                sh.builtin_error("hash", &format!("{path}: not found"));
                status = 1;
            } else if sh.fs.lock().stat(&full).is_ok_and(|m| m.is_dir()) {
                sh.builtin_error("hash", &format!("{path}: Is a directory"));
                status = 1;
            } else {
                remember(sh, name, path.clone());
            }
        } else if delete {
            if sh.hash.remove(name).is_none() {
                sh.builtin_error("hash", &format!("{name}: not found"));
                status = 1;
            }
        } else if sh.funcs.get(name).is_none() && sh.builtin(name).is_none() {
            sh.hash.remove(name);
            match sh.path_search(name) {
                Some(path) => remember(sh, name, path),
                None => {
                    sh.builtin_error("hash", &format!("{name}: not found"));
                    status = 1;
                }
            }
        }
    }
    Ok(status)
}

/// Enters `name` as the newest entry, not yet run.
fn remember(sh: &mut Interp, name: &str, path: String) {
    let seq = sh.hash.values().map(|h| h.seq + 1).max().unwrap_or(0);
    sh.hash
        .insert(name.to_owned(), Hashed { path, hits: 0, seq });
}

/// `hash -t`: each name's remembered location (after its name when there are
/// several), or with `-l` as a `hash -p` command.
fn show_targets(sh: &mut Interp, names: &[String], portable: bool) -> R {
    let mut status = 0;
    for name in names {
        let Some(target) = super::describe::hashed(sh, name) else {
            sh.builtin_error("hash", &format!("{name}: not found"));
            status = 1;
            continue;
        };
        let line = if portable {
            format!("builtin hash -p {target} {name}\n")
        } else if names.len() > 1 {
            format!("{name}\t{target}\n")
        } else {
            format!("{target}\n")
        };
        sh.out(line.as_bytes())?;
    }
    Ok(status)
}

/// The hash table in the order bash lists it: by bucket of its 256-bucket table
/// (FNV-1 of the name), newest first within a bucket.
fn listing_order(table: &imbl::OrdMap<String, Hashed>) -> Vec<(&String, &Hashed)> {
    let bucket = |name: &str| {
        let mut h: u32 = 2_166_136_261;
        for b in name.bytes() {
            h = h.wrapping_mul(16_777_619) ^ u32::from(b);
        }
        h & 255
    };
    let mut rows: Vec<_> = table.iter().collect();
    rows.sort_by_key(|(name, h)| (bucket(name), std::cmp::Reverse(h.seq)));
    rows
}
