//! `tee`: copies stdin to stdout and to each named file as it streams (`-a` appends).
//! A file that cannot be opened or written is reported and dropped; the rest go on.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, argmatch, long};
use super::util::Output;
use super::util::quotef;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("append", HasArg::No, "a"),
    long("ignore-interrupts", HasArg::No, "i"),
    long("output-error", HasArg::Optional, "output-error"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: tee [OPTION]... [FILE]...
Copy standard input to each FILE, and also to standard output.

  -a, --append              append to the given FILEs, do not overwrite
  -i, --ignore-interrupts   ignore interrupt signals
  -p                        operate in a more appropriate MODE with pipes
      --output-error[=MODE]   set behavior on write error
      --help     display this help and exit
      --version  output version information and exit
";

struct Out {
    name: String,
    sink: Output,
}

pub fn tee(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("aip", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    // Write errors on an in-memory filesystem do not vary by mode, but a bad mode is
    // still a usage error.
    if let Some(mode) = parsed.last("output-error") {
        let modes = [
            ("warn", 0),
            ("warn-nopipe", 1),
            ("exit", 2),
            ("exit-nopipe", 3),
        ];
        if let Err(s) = argmatch(ctx, "--output-error", mode, &modes)? {
            return Ok(s);
        }
    }
    let append = parsed.has("a");
    let nopipe = parsed.has("p") || parsed.last("output-error").is_some();
    let mut status = 0;
    let mut outs: Vec<Out> = Vec::new();
    for name in &parsed.operands {
        let opened = ctx.open_output(name, append)?;
        match opened {
            Ok(sink) => outs.push(Out {
                name: name.clone(),
                sink,
            }),
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                status = 1;
            }
        }
    }
    let mut buf = vec![0u8; 8192];
    loop {
        ctx.host.check()?;
        let n = match ctx.stdin.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let chunk = buf.get(..n).unwrap_or(&[]);
        ctx.stdout.write_all(chunk)?;
        ctx.stdout.flush()?;
        let mut failed = Vec::new();
        for (i, out) in outs.iter_mut().enumerate() {
            match out.sink.write(ctx.fs, chunk) {
                Ok(Ok(())) => {}
                Ok(Err(e)) => failed.push((i, e.to_string())),
                Err(e) => {
                    if super::as_fatal(&e).is_some()
                        || crate::interp::procs::as_killed(&e).is_some()
                    {
                        return Err(e);
                    }
                    if e.kind() == std::io::ErrorKind::BrokenPipe {
                        // GNU tee dies of SIGPIPE, unless -p or an --output-error mode
                        // says to go on writing to the others.
                        if !nopipe {
                            return Err(e);
                        }
                        failed.push((i, String::new()));
                        continue;
                    }
                    failed.push((i, crate::interp::io_error_text(&e)));
                }
            }
        }
        failed.sort_by_key(|f| f.0);
        for (i, e) in failed.into_iter().rev() {
            if i < outs.len() {
                let out = outs.remove(i);
                // A reader that left is dropped quietly under -p.
                if !e.is_empty() {
                    ctx.err(format!("{}: {e}", quotef(&out.name)))?;
                    status = 1;
                }
            }
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, fs_with, run_in};

    #[test]
    fn tee_table() {
        check(&[], "tee", "abc\n", ("abc\n", "", 0));
        check(
            &[],
            "tee nope/x",
            "abc\n",
            ("abc\n", "tee: nope/x: No such file or directory\n", 1),
        );
        let fs = fs_with(&[("old", "1\n")]);
        let (out, err, status) = run_in(&fs, "tee a b", b"hi\n");
        assert_eq!(
            (out.as_slice(), err.as_str(), status),
            (&b"hi\n"[..], "", 0)
        );
        let (_, _, status) = run_in(&fs, "tee -a old", b"2\n");
        assert_eq!(status, 0);
        let read = |p: &str| fs.lock().read_file(p).map(|d| d.to_vec());
        assert_eq!(read("/workspace/a"), Ok(b"hi\n".to_vec()));
        assert_eq!(read("/workspace/b"), Ok(b"hi\n".to_vec()));
        assert_eq!(read("/workspace/old"), Ok(b"1\n2\n".to_vec()));
        let (_, _, _) = run_in(&fs, "tee old", b"3\n");
        assert_eq!(read("/workspace/old"), Ok(b"3\n".to_vec()));
    }
}
