//! The `shellbox` command line: `shellbox -c 'script' [name args...]`, `shellbox FILE
//! args...`, or a script on stdin, run like `bash -c` over an in-memory filesystem.

use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use shellbox::Shell;
use shellbox::interp::io::{Capture, OpenFile};

const USAGE: &str = "usage: shellbox [--root DIR] [--cwd PATH] [--env K=V]... [--json] [-euxv] [-o opt] (-c SCRIPT [NAME [ARG...]] | FILE [ARG...])";

struct Options {
    root: Option<String>,
    cwd: Option<String>,
    env: Vec<(String, String)>,
    json: bool,
    command: Option<String>,
    file: Option<String>,
    args: Vec<String>,
    set_flags: Vec<(String, bool)>,
}

fn parse_args(argv: &[String]) -> Result<Options, String> {
    let mut o = Options {
        root: None,
        cwd: None,
        env: Vec::new(),
        json: false,
        command: None,
        file: None,
        args: Vec::new(),
        set_flags: Vec::new(),
    };
    let mut i = 0;
    let mut want_c = false;
    while i < argv.len() {
        let a = argv[i].as_str();
        let mut value = |name: &str| -> Result<String, String> {
            i += 1;
            argv.get(i)
                .cloned()
                .ok_or_else(|| format!("shellbox: {name} needs an argument"))
        };
        match a {
            "--root" => o.root = Some(value("--root")?),
            "--cwd" => o.cwd = Some(value("--cwd")?),
            "--env" => {
                let kv = value("--env")?;
                match kv.split_once('=') {
                    Some((k, v)) => o.env.push((k.to_owned(), v.to_owned())),
                    None => return Err(format!("shellbox: --env expects K=V, got '{kv}'")),
                }
            }
            "--json" => o.json = true,
            "--help" | "-h" => return Err(USAGE.to_owned()),
            "-o" | "+o" => {
                let name = value(a)?;
                o.set_flags.push((name, a == "-o"));
            }
            "--" => {
                i += 1;
                break;
            }
            _ if a.starts_with('-') && a.len() > 1 && !a.starts_with("--") => {
                for c in a[1..].chars() {
                    match c {
                        'c' => want_c = true,
                        's' | 'i' | 'l' => {}
                        'e' => o.set_flags.push(("errexit".into(), true)),
                        'u' => o.set_flags.push(("nounset".into(), true)),
                        'x' => o.set_flags.push(("xtrace".into(), true)),
                        'v' => o.set_flags.push(("verbose".into(), true)),
                        'f' => o.set_flags.push(("noglob".into(), true)),
                        'n' => o.set_flags.push(("noexec".into(), true)),
                        'a' => o.set_flags.push(("allexport".into(), true)),
                        'C' => o.set_flags.push(("noclobber".into(), true)),
                        _ => return Err(format!("shellbox: -{c}: invalid option\n{USAGE}")),
                    }
                }
            }
            _ if a.starts_with("--") => {
                return Err(format!("shellbox: {a}: invalid option\n{USAGE}"));
            }
            _ => break,
        }
        i += 1;
    }
    let rest = &argv[i.min(argv.len())..];
    if want_c {
        let Some(script) = rest.first() else {
            return Err("bash: -c: option requires an argument".to_owned());
        };
        o.command = Some(script.clone());
        o.args = rest[1..].to_vec();
    } else if let Some(file) = rest.first() {
        o.file = Some(file.clone());
        o.args = rest[1..].to_vec();
    }
    Ok(o)
}

fn json_string(b: &[u8]) -> String {
    serde_json::to_string(&String::from_utf8_lossy(b)).unwrap_or_else(|_| "\"\"".to_owned())
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| shellbox::text::decode(a.as_encoded_bytes()))
        .collect();
    let o = match parse_args(&argv) {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitCode::from(2);
        }
    };
    let mut builder = Shell::builder();
    for (k, v) in &o.env {
        builder = builder.env(k.clone(), v.clone());
    }
    if let Some(c) = &o.cwd {
        builder = builder.cwd(c.clone());
    }
    let mut sh = builder.build();
    if let Some(root) = &o.root {
        let dest = sh.cwd().to_owned();
        let mut fs = sh.fs_mut();
        if let Err(e) = shellbox::session::copy_host_dir(
            &mut fs,
            std::path::Path::new(root),
            &dest,
            &[".git", "target"],
        ) {
            eprintln!("shellbox: --root {root}: {e}");
            return ExitCode::from(2);
        }
    }
    let (script, name) = match (&o.command, &o.file) {
        (Some(c), _) => (c.clone(), None),
        (None, Some(f)) => match std::fs::read(f) {
            Ok(b) => (shellbox::text::decode(&b), Some(f.clone())),
            Err(e) => {
                eprintln!("bash: {f}: {e}");
                return ExitCode::from(127);
            }
        },
        (None, None) => {
            let mut b = Vec::new();
            if let Err(e) = std::io::stdin().read_to_end(&mut b) {
                eprintln!("shellbox: reading stdin: {e}");
                return ExitCode::from(2);
            }
            (shellbox::text::decode(&b), None)
        }
    };
    let interp = sh.interp_mut();
    for (flag, on) in &o.set_flags {
        if let Some(b) = interp.set.get_mut(flag) {
            *b = *on;
        }
    }
    interp.update_shellopts();
    if o.command.is_some() {
        if let Some((first, rest)) = o.args.split_first() {
            interp.arg0 = first.clone();
            interp.positional = Arc::new(rest.to_vec());
        }
    } else {
        interp.command_string_mode = false;
        if let Some(n) = &name {
            interp.arg0 = n.clone();
            interp.script_name = Some(n.clone());
        }
        interp.positional = Arc::new(o.args.clone());
    }
    let stdin_file: Arc<OpenFile> = if o.command.is_some() || o.file.is_some() {
        Arc::new(OpenFile::HostIn(Mutex::new(Box::new(std::io::stdin()))))
    } else {
        Arc::new(OpenFile::Device(shellbox::fs::Device::Null))
    };
    let code = if o.json {
        let out = Capture::new(u64::MAX);
        let err = Capture::new(u64::MAX);
        interp.set_stdio(
            stdin_file,
            Arc::new(OpenFile::Capture(out.clone())),
            Arc::new(OpenFile::Capture(err.clone())),
        );
        let code = interp.run_script(&script);
        println!(
            "{{\"stdout\":{},\"stderr\":{},\"exitCode\":{}}}",
            json_string(&out.take()),
            json_string(&err.take()),
            code
        );
        code
    } else {
        interp.set_stdio(
            stdin_file,
            Arc::new(OpenFile::HostOut(Mutex::new(Box::new(std::io::stdout())))),
            Arc::new(OpenFile::HostOut(Mutex::new(Box::new(std::io::stderr())))),
        );
        let code = interp.run_script(&script);
        let _ = std::io::stdout().flush();
        code
    };
    ExitCode::from((code & 0xff) as u8)
}
