//! Pathname expansion (bash manual, "Filename Expansion"): matches a pattern against
//! the filesystem one path component at a time, with `dotglob`, `nocaseglob`, `globstar`
//! and `GLOBIGNORE`-free defaults. Results are sorted.

use super::pattern::{MatchOpts, Pattern, has_meta, unescape};
use super::{ExpandOpts, Host};

/// The default bound on directory reads per glob (a bound on hostile patterns).
pub const MAX_DIR_READS: usize = 100_000;

/// Expands `pat` (a pattern string with backslash escapes) into matching paths; a
/// pattern needing more than [`MAX_DIR_READS`] directory reads matches nothing.
pub fn glob<H: Host + ?Sized>(host: &mut H, pat: &str, opts: ExpandOpts) -> Vec<String> {
    glob_limited(host, pat, opts, MAX_DIR_READS).unwrap_or_default()
}

/// Expands `pat` into matching paths, or `Err(max_reads)` when that would take more
/// than `max_reads` directory reads.
pub fn glob_limited<H: Host + ?Sized>(
    host: &mut H,
    pat: &str,
    opts: ExpandOpts,
    max_reads: usize,
) -> Result<Vec<String>, usize> {
    let absolute = pat.starts_with('/');
    let comps: Vec<&str> = pat.split('/').filter(|c| !c.is_empty()).collect();
    let trailing_slash = pat.ends_with('/') && !comps.is_empty();
    let cwd = host.cwd();
    // Each candidate: (display path, real absolute path).
    let mut cands: Vec<(String, String)> = vec![if absolute {
        ("/".to_owned(), "/".to_owned())
    } else {
        (String::new(), cwd.clone())
    }];
    let mut reads = 0usize;
    let mopts = MatchOpts {
        extglob: opts.extglob,
        nocase: opts.nocaseglob,
        dot_special: true,
        bytes: opts.bytes,
    };
    for (ci, comp) in comps.iter().enumerate() {
        let last = ci + 1 == comps.len();
        let mut next = Vec::new();
        if opts.globstar && *comp == "**" {
            let literal_prefix = comps[..ci]
                .iter()
                .all(|c| *c != "**" && !has_meta(c, opts.extglob));
            for (disp, real) in &cands {
                // Zero or more directories.
                if !last {
                    next.push((disp.clone(), real.clone()));
                }
                let mut stack = vec![(disp.clone(), real.clone())];
                let mut top = true;
                while let Some((d, r)) = stack.pop() {
                    reads += 1;
                    if reads > max_reads {
                        return Err(max_reads);
                    }
                    let Some(entries) = host.read_dir(&r) else {
                        continue;
                    };
                    // A final `**` after a directory matches that directory too, as
                    // bash's glob does: spelled out (`a/**`) it keeps its slash
                    // (`a/`), matched by a pattern (`*/**`) it is the bare name.
                    if std::mem::take(&mut top) && last && !d.is_empty() && d != "/" {
                        let shown = if literal_prefix && !trailing_slash {
                            format!("{d}/")
                        } else {
                            d.clone()
                        };
                        next.push((shown, r.clone()));
                    }
                    let mut subdirs = Vec::new();
                    for (name, is_dir) in entries {
                        if name.starts_with('.') && !opts.dotglob {
                            continue;
                        }
                        let nd = join_disp(&d, &name);
                        let nr = join_real(&r, &name);
                        if is_dir {
                            subdirs.push((nd.clone(), nr.clone()));
                            next.push((nd, nr));
                        } else if last {
                            next.push((nd, nr));
                        }
                    }
                    for s in subdirs.into_iter().rev() {
                        stack.push(s);
                    }
                }
            }
            if last {
                next.sort();
                next.dedup();
            }
            cands = next;
            continue;
        }
        if !has_meta(comp, opts.extglob) {
            let name = unescape(comp);
            for (disp, real) in &cands {
                let nr = join_real(real, &name);
                if last || host.exists(&nr) {
                    next.push((join_disp(disp, &name), nr));
                }
            }
            cands = next;
            continue;
        }
        let p = Pattern::new(comp, mopts);
        for (disp, real) in &cands {
            reads += 1;
            if reads > max_reads {
                return Err(max_reads);
            }
            let Some(mut entries) = host.read_dir(real) else {
                continue;
            };
            if !opts.globskipdots {
                entries.insert(0, ("..".to_owned(), true));
                entries.insert(0, (".".to_owned(), true));
            }
            for (name, is_dir) in entries {
                if !last && !is_dir {
                    continue;
                }
                // A leading dot is matched only by a `.` in the pattern (always
                // for `.` and `..`, for other names without `dotglob`).
                let period = !opts.dotglob || name == "." || name == "..";
                if p.matches_name(&name, period) {
                    next.push((join_disp(disp, &name), join_real(real, &name)));
                }
            }
        }
        cands = next;
    }
    let mut out: Vec<String> = cands
        .into_iter()
        .filter(|(d, _)| !d.is_empty())
        .map(|(d, _)| if trailing_slash { format!("{d}/") } else { d })
        .collect();
    if trailing_slash {
        // Only directories match a pattern ending in `/`.
        out.retain(|d| {
            let real = crate::fs::path::join(&cwd, d);
            host.read_dir(&real).is_some()
        });
    }
    // The literal parts were checked only where they were not last.
    out.retain(|d| {
        let real = crate::fs::path::join(&cwd, d);
        host.exists(&real)
    });
    out.sort();
    out.dedup();
    Ok(out)
}

fn join_disp(d: &str, name: &str) -> String {
    if d.is_empty() {
        name.to_owned()
    } else if d.ends_with('/') {
        format!("{d}{name}")
    } else {
        format!("{d}/{name}")
    }
}

fn join_real(r: &str, name: &str) -> String {
    if r.ends_with('/') {
        format!("{r}{name}")
    } else {
        format!("{r}/{name}")
    }
}
