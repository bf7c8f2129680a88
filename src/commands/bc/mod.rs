//! `bc`: the arbitrary-precision calculator language (POSIX bc with GNU's extensions:
//! long names, `print`, `else`, `&& || !`, `halt`, `read()`, `last`, `void` functions,
//! arrays by reference). Programs are read from the files named, then standard
//! input; each line (or function definition) is compiled and run in turn, as GNU bc
//! does, with its messages (`(standard_in) 1: syntax error`, `Runtime error (func=
//! (main), adr=3): Divide by zero`). `-l` loads the math library (`s c a l e j`,
//! `scale=20`). Output lines break at 70 columns (`BC_LINE_LENGTH`).

mod code;
mod compile;
mod mathlib;
mod num;
mod vm;

use std::io::Write;

use super::about::write_version;
use super::args::{HasArg, LongOpt, Spec, long};
use super::{CmdResult, Ctx};
use code::Symbols;
use compile::{Item, Parser, Reader};
use vm::{Native, Outcome, Vm};

const LONG: &[LongOpt] = &[
    long("help", HasArg::No, "h"),
    long("interactive", HasArg::No, "i"),
    long("mathlib", HasArg::No, "l"),
    long("quiet", HasArg::No, "q"),
    long("standard", HasArg::No, "s"),
    long("warn", HasArg::No, "w"),
    long("version", HasArg::No, "v"),
];

const USAGE: &str = "\
usage: bc [options] [file ...]
  -h  --help         print this usage and exit
  -i  --interactive  force interactive mode
  -l  --mathlib      use the predefined math routines
  -q  --quiet        don't print initial banner
  -s  --standard     non-standard bc constructs are errors
  -w  --warn         warn about non-standard bc constructs
  -v  --version      print version information and exit
";

pub fn bc(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("hilqswv", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => {
            ctx.err(msg)?;
            ctx.stdout.write_all(USAGE.as_bytes())?;
            return Ok(1);
        }
    };
    let mut mathlib = false;
    for (k, _) in &parsed.opts {
        match k.as_str() {
            "h" => {
                ctx.stdout.write_all(USAGE.as_bytes())?;
                return Ok(0);
            }
            "v" => {
                write_version(ctx)?;
                return Ok(0);
            }
            "l" => mathlib = true,
            _ => {}
        }
    }
    let mut files = Vec::new();
    for name in &parsed.operands {
        let data = ctx.read_input(name)?.ok();
        files.push((name.clone(), data));
    }
    let line_size = match ctx
        .env
        .get("BC_LINE_LENGTH")
        .map(|v| v.trim().parse::<i64>())
    {
        Some(Ok(0)) => 0,
        Some(Ok(n)) if n >= 3 => usize::try_from(n).unwrap_or(70),
        _ => 70,
    };
    let mut syms = Symbols::new();
    let mut vm = Vm::new(line_size);
    if mathlib {
        for (name, native, arity) in [
            ("e", Native::E, 1),
            ("l", Native::L, 1),
            ("s", Native::S, 1),
            ("c", Native::C, 1),
            ("a", Native::A, 1),
            ("j", Native::J, 2),
        ] {
            let index = syms.func(name);
            vm.define_native(index, native, arity);
        }
        vm.scale = 20;
    }
    let Ctx {
        stdin,
        stdout,
        stderr,
        host,
        ..
    } = ctx;
    let mut parser = Parser::new(Reader::new(files, &mut **stdin), syms);
    let status = loop {
        let item = parser.next_item();
        stdout.write_all(&std::mem::take(&mut parser.out))?;
        stderr.write_all(&std::mem::take(&mut parser.err))?;
        match item {
            Item::Run(code) => {
                let reader = &mut parser.reader;
                let outcome = vm.run(code, &parser.syms, &mut || reader.read_byte(), &mut || {
                    host.check()
                });
                stdout.write_all(&std::mem::take(&mut vm.out))?;
                stderr.write_all(&std::mem::take(&mut vm.err))?;
                if let Outcome::Halt = outcome? {
                    break 0;
                }
            }
            Item::Define(def) => vm.define(def),
            Item::Skip => {}
            Item::Eof | Item::Quit => break 0,
            Item::Unavailable(name) => {
                writeln!(stderr, "File {name} is unavailable.")?;
                break 1;
            }
        }
        host.check()?;
    };
    Ok(status)
}
