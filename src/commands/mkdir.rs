//! `mkdir`: creates directories (`-p` with missing parents, `-m` mode, `-v` verbose).

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{apply_mode, lq, quote};
use super::{CmdResult, Ctx};
use crate::fs::Errno;

const LONG: &[LongOpt] = &[
    long("mode", HasArg::Required, "m"),
    long("parents", HasArg::No, "p"),
    long("verbose", HasArg::No, "v"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: mkdir [OPTION]... DIRECTORY...
Create the DIRECTORY(ies), if they do not already exist.

Mandatory arguments to long options are mandatory for short options too.
  -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask
  -p, --parents     no error if existing, make parent directories as needed,
                    with their file modes unaffected by any -m option.
  -v, --verbose     print a message for each created directory
  -Z                   set SELinux security context of each created directory
                         to the default type
      --context[=CTX]  like -Z, or if CTX is specified then set the SELinux
                         or SMACK security context to CTX
      --help        display this help and exit
      --version     output version information and exit
";

pub fn mkdir(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("m:pvZ", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let parents = parsed.has("p");
    let verbose = parsed.has("v");
    let mode = match parsed.last("m") {
        None => ctx.dir_mode(),
        Some(spec) => match apply_mode(spec, 0o777, true, ctx.umask) {
            Some(m) => m,
            None => {
                ctx.err(format!("invalid mode {}", lq(spec)))?;
                return Ok(1);
            }
        },
    };
    if parsed.operands.is_empty() {
        return usage_error(ctx, "missing operand", 1);
    }
    let mut status = 0;
    for name in &parsed.operands {
        let path = ctx.path(name);
        let mut created = Vec::new();
        let result = {
            let mut fs = ctx.fs.lock();
            if parents {
                // Create component by component to report each one like GNU -v.
                let mut prefix = String::new();
                let mut shown = String::new();
                let comps: Vec<&str> = name.split('/').filter(|c| !c.is_empty()).collect();
                if name.starts_with('/') {
                    prefix.push('/');
                    shown.push('/');
                }
                let mut res = Ok(());
                for (i, comp) in comps.iter().enumerate() {
                    if !shown.is_empty() && !shown.ends_with('/') {
                        shown.push('/');
                    }
                    shown.push_str(comp);
                    prefix = ctx.path(&shown);
                    let last = i + 1 == comps.len();
                    let m = if last { mode } else { ctx.dir_mode() | 0o300 };
                    match fs.mkdir(&prefix, m) {
                        Ok(()) => created.push(shown.clone()),
                        Err(e) if e.errno == Errno::EEXIST => match fs.stat(&prefix) {
                            Ok(meta) if meta.is_dir() => {}
                            Ok(_) => {
                                res = Err((
                                    shown.clone(),
                                    if last { Errno::EEXIST } else { Errno::ENOTDIR },
                                ));
                                break;
                            }
                            Err(e) => {
                                res = Err((shown.clone(), e.errno));
                                break;
                            }
                        },
                        Err(e) => {
                            res = Err((shown.clone(), e.errno));
                            break;
                        }
                    }
                }
                let _ = prefix;
                res
            } else {
                match fs.mkdir(&path, mode) {
                    Ok(()) => {
                        created.push(name.clone());
                        Ok(())
                    }
                    Err(e) => Err((name.clone(), e.errno)),
                }
            }
        };
        if verbose {
            for c in &created {
                writeln!(ctx.stdout, "mkdir: created directory {}", quote(c))?;
            }
        }
        if let Err((which, errno)) = result {
            let shown = if parents && errno == Errno::ENOTDIR {
                // GNU names the component that is not a directory.
                which
                    .rsplit_once('/')
                    .map_or(which.clone(), |(p, _)| p.to_owned())
            } else if parents {
                which
            } else {
                name.clone()
            };
            ctx.err(format!(
                "cannot create directory {}: {}",
                lq(&shown),
                errno.strerror()
            ))?;
            status = 1;
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, fs_with, run_in};

    const FILES: &[(&str, &str)] = &[("f", ""), ("d/", "")];

    #[test]
    fn mkdir_table() {
        for (line, out, err, status) in [
            ("mkdir n", "", "", 0),
            (
                "mkdir d",
                "",
                "mkdir: cannot create directory 'd': File exists\n",
                1,
            ),
            (
                "mkdir a/b",
                "",
                "mkdir: cannot create directory 'a/b': No such file or directory\n",
                1,
            ),
            ("mkdir -p a/b", "", "", 0),
            ("mkdir -p d", "", "", 0),
            (
                "mkdir -pv x/y",
                "mkdir: created directory 'x'\nmkdir: created directory 'x/y'\n",
                "",
                0,
            ),
            ("mkdir -v z", "mkdir: created directory 'z'\n", "", 0),
            ("mkdir -m bad r", "", "mkdir: invalid mode 'bad'\n", 1),
            (
                "mkdir -p f/g",
                "",
                "mkdir: cannot create directory 'f': Not a directory\n",
                1,
            ),
            (
                "mkdir f",
                "",
                "mkdir: cannot create directory 'f': File exists\n",
                1,
            ),
            (
                "mkdir",
                "",
                "mkdir: missing operand\nTry 'mkdir --help' for more information.\n",
                1,
            ),
        ] {
            check(FILES, line, "", (out, err, status));
        }
    }

    #[test]
    fn modes() {
        let fs = fs_with(&[]);
        run_in(&fs, "mkdir -m 700 q", b"");
        run_in(&fs, "mkdir -m u=rwx,g=rx s", b"");
        run_in(&fs, "mkdir -p -m 700 p/q", b"");
        let g = fs.lock();
        let mode = |p: &str| g.stat(p).map(|m| m.mode).unwrap_or(0);
        assert_eq!(mode("/workspace/q"), 0o700);
        assert_eq!(mode("/workspace/s"), 0o757);
        assert_eq!(mode("/workspace/p"), 0o755);
        assert_eq!(mode("/workspace/p/q"), 0o700);
    }
}
