//! `time` as a command (GNU time, reached as `command time`, `env time` or through
//! `xargs`; the shell keyword is the interpreter's): runs a command and reports its
//! resource use on stderr (or `-o FILE`, `-a`) in GNU's default format, `-p`'s POSIX
//! `real/user/sys` lines or a `-f` format. Elapsed time is read from the virtual
//! clock (so `sleep` shows up); CPU times and memory figures are zero.

use super::about::write_version;
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::quotef;
use super::{CmdResult, Ctx, Stdio};

const LONG: &[LongOpt] = &[
    long("append", HasArg::No, "a"),
    long("format", HasArg::Required, "f"),
    long("output", HasArg::Required, "o"),
    long("portability", HasArg::No, "p"),
    long("quiet", HasArg::No, "q"),
    long("verbose", HasArg::No, "v"),
    long("help", HasArg::No, "h"),
    long("version", HasArg::No, "V"),
];

const DEFAULT_FORMAT: &str = "%Uuser %Ssystem %Eelapsed %PCPU (%Xavgtext+%Davgdata %Mmaxresident)k\n\
                              %Iinputs+%Ooutputs (%Fmajor+%Rminor)pagefaults %Wswaps";
const POSIX_FORMAT: &str = "real %e\nuser %U\nsys %S";
const VERBOSE_FORMAT: &str = "\tCommand being timed: \"%C\"\n\
\tUser time (seconds): %U\n\
\tSystem time (seconds): %S\n\
\tPercent of CPU this job got: %P\n\
\tElapsed (wall clock) time (h:mm:ss or m:ss): %E\n\
\tAverage shared text size (kbytes): %X\n\
\tAverage unshared data size (kbytes): %D\n\
\tAverage stack size (kbytes): %p\n\
\tAverage total size (kbytes): %K\n\
\tMaximum resident set size (kbytes): %M\n\
\tAverage resident set size (kbytes): %t\n\
\tMajor (requiring I/O) page faults: %F\n\
\tMinor (reclaiming a frame) page faults: %R\n\
\tVoluntary context switches: %w\n\
\tInvoluntary context switches: %c\n\
\tSwaps: %W\n\
\tFile system inputs: %I\n\
\tFile system outputs: %O\n\
\tSocket messages sent: %s\n\
\tSocket messages received: %r\n\
\tSignals delivered: %k\n\
\tPage size (bytes): %Z\n\
\tExit status: %x";

fn usage(name: &str) -> String {
    format!(
        "\
Usage: {name} [OPTIONS] COMMAND [ARG]...
Run COMMAND, then print system resource usage.

  -a, --append              with -o FILE, append instead of overwriting
  -f, --format=FORMAT       use the specified FORMAT instead of the default
  -o, --output=FILE         write to FILE instead of STDERR
  -p, --portability         print POSIX standard 1003.2 conformant string:
                              real %%e
                              user %%U
                              sys %%S
  -q, --quiet               do not print information about abnormal program
                            termination (non-zero exit codes or signals)
  -v, --verbose             print all resource usage information instead of
                            the default format
  -h,  --help               display this help and exit
  -V,  --version            output version information and exit

Commonly usaged format sequences for -f/--format:
(see documentation for full list)
  %%   a literal '%'
  %C   command line and arguments
  %c   involuntary context switches
  %E   elapsed real time (wall clock) in [hour:]min:sec
  %e   elapsed real time (wall clock) in seconds
  %F   major page faults
  %M   maximum resident set size in KB
  %P   percent of CPU this job got
  %R   minor page faults
  %S   system (kernel) time in seconds
  %U   user time in seconds
  %w   voluntary context switches
  %x   exit status of command

Default output format:
%Uuser %Ssystem %Eelapsed %PCPU (%Xavgtext+%Davgdata %Mmaxresident)k
%Iinputs+%Ooutputs (%Fmajor+%Rminor)pagefaults %Wswaps
"
    )
}

/// Expands a GNU time format for a run that took `nanos` of virtual time.
fn render(format: &str, nanos: i64, status: i32, argv: &[String]) -> String {
    let secs = nanos / 1_000_000_000;
    let centis = (nanos % 1_000_000_000) / 10_000_000;
    let mut out = String::new();
    let mut cs = format.chars();
    while let Some(c) = cs.next() {
        match c {
            '%' => match cs.next() {
                Some('%') => out.push('%'),
                Some('C') => out.push_str(&argv.join(" ")),
                Some('e') => out.push_str(&format!("{secs}.{centis:02}")),
                Some('E') => {
                    if secs >= 3600 {
                        out.push_str(&format!(
                            "{}:{:02}:{:02}",
                            secs / 3600,
                            secs % 3600 / 60,
                            secs % 60
                        ));
                    } else {
                        out.push_str(&format!("{}:{:02}.{centis:02}", secs / 60, secs % 60));
                    }
                }
                Some('U' | 'S') => out.push_str("0.00"),
                Some('P') => out.push_str(if nanos > 0 { "0%" } else { "?%" }),
                Some('x') => out.push_str(&status.to_string()),
                Some('Z') => out.push_str("4096"),
                Some(
                    'c' | 'D' | 'F' | 'I' | 'k' | 'K' | 'M' | 'O' | 'p' | 'r' | 'R' | 's' | 't'
                    | 'w' | 'W' | 'X',
                ) => out.push('0'),
                Some(other) => {
                    out.push('?');
                    out.push(other);
                }
                None => out.push('?'),
            },
            '\\' => match cs.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some(other) => {
                    out.push('?');
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('?'),
            },
            c => out.push(c),
        }
    }
    out.push('\n');
    out
}

pub fn time(ctx: &mut Ctx) -> CmdResult {
    let mut spec = Spec::new("af:o:pqvhV", LONG);
    spec.permute = false;
    let parsed = match super::args::parse(&spec, ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 125),
    };
    let mut format = DEFAULT_FORMAT.to_owned();
    let mut posix = false;
    let mut quiet = false;
    let mut output: Option<String> = None;
    let mut append = false;
    for (k, v) in &parsed.opts {
        match k.as_str() {
            "h" => {
                let text = usage(ctx.name);
                ctx.stdout.write_all(text.as_bytes())?;
                return Ok(0);
            }
            "V" => {
                write_version(ctx)?;
                return Ok(0);
            }
            "f" => {
                format = v.clone().unwrap_or_default();
                posix = false;
            }
            "p" => {
                format = POSIX_FORMAT.to_owned();
                posix = true;
            }
            "v" => format = VERBOSE_FORMAT.to_owned(),
            "q" => quiet = true,
            "o" => output = v.clone(),
            "a" => append = true,
            _ => {}
        }
    }
    let argv = parsed.operands;
    let Some(program) = argv.first() else {
        return usage_error(ctx, "missing program to run", 125);
    };
    let clock = ctx.fs.lock().clock().clone();
    let start = clock.now().as_nanos();
    let status = if ctx.find_program(program) {
        ctx.host.run(
            &argv,
            Stdio::Own(&mut *ctx.stdin),
            Stdio::Own(&mut *ctx.stdout),
            Stdio::Own(&mut *ctx.stderr),
        )?
    } else {
        ctx.err(format!("cannot run {program}: No such file or directory"))?;
        127
    };
    let elapsed = clock.now().as_nanos().saturating_sub(start).max(0);
    let mut report = String::new();
    if status != 0 && !quiet && !posix {
        if status > 128 {
            report.push_str(&format!("Command terminated by signal {}\n", status - 128));
        } else {
            report.push_str(&format!("Command exited with non-zero status {status}\n"));
        }
    }
    report.push_str(&render(&format, elapsed, status, &argv));
    match output {
        None => ctx.stderr.write_all(report.as_bytes())?,
        Some(file) => {
            let path = ctx.path(&file);
            let mode = ctx.file_mode();
            let written = {
                let mut fs = ctx.fs.lock();
                if append {
                    fs.append_file_mode(&path, report.as_bytes(), mode)
                } else {
                    fs.write_file_mode(&path, report.as_bytes(), mode)
                }
            };
            if let Err(e) = written {
                ctx.err(format!("{}: {e}", quotef(&file)))?;
            }
        }
    }
    Ok(status)
}
