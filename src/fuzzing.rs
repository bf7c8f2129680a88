//! Fuzz checkers (issue 6): one `check_*` function per fuzz target. Each takes arbitrary
//! bytes, drives one layer with them and returns `Err` when a property fails; a panic
//! is a failure too. The cargo-fuzz targets under `fuzz/` are thin wrappers over these,
//! and `tests/fuzz_replay.rs` replays the saved corpus through them on stable.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::Value;

use crate::expand::arith::{ArithFail, ArithHost};
use crate::expand::pattern::{MatchOpts, Pattern, escape};
use crate::fs::{Clock, Fs};
use crate::limits::Limits;
use crate::syntax::parser::{ParseOptions, ParseWarningKind};
use crate::syntax::printer::script_to_string;

/// A checker: `Err` says which property failed.
pub type Checker = fn(&[u8]) -> Result<(), String>;

/// Every checker, by target name (the folder name under `fuzz/corpus/`).
pub const TARGETS: &[(&str, Checker)] = &[
    ("parse", check_parse),
    ("print_roundtrip", check_print_roundtrip),
    ("expand", check_expand),
    ("arith", check_arith),
    ("pattern", check_pattern),
    ("script", check_script),
    ("fs_ops", check_fs_ops),
    ("tool_json", check_tool_json),
    ("store_load", check_store_load),
];

/// Limits under which any input finishes in milliseconds.
pub fn tight_limits() -> Limits {
    let mut l = Limits::hardened();
    l.max_commands = 5_000;
    l.max_loop_iterations = 2_000;
    l.max_call_depth = 50;
    l.max_subshell_depth = 8;
    l.max_output_bytes = 64 << 10;
    l.max_string_len = 64 << 10;
    l.max_words = 5_000;
    l.max_array_len = 5_000;
    l.max_brace_words = 5_000;
    l.max_glob_reads = 200;
    l.max_parse_depth = 100;
    l.max_source_bytes = 64 << 10;
    l.max_heredoc_bytes = 64 << 10;
    l.max_threads = 8;
    l.max_background_jobs = 4;
    l.max_file_bytes = 256 << 10;
    l.max_fs_bytes = 1 << 20;
    l.max_files = 500;
    l.timeout = Some(Duration::from_secs(2));
    l
}

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

fn parse_options() -> ParseOptions {
    ParseOptions {
        max_depth: 100,
        ..ParseOptions::default()
    }
}

fn parse(src: &str) -> Result<crate::syntax::Script, crate::syntax::parser::ParseError> {
    crate::syntax::parse_with(src, parse_options())
}

/// The parser never panics and always ends, whatever the input.
pub fn check_parse(data: &[u8]) -> Result<(), String> {
    let _ = parse(&text(data));
    Ok(())
}

/// What the printer prints parses back, and printing that gives the same text.
///
/// One kind of script is let off: a here-document whose delimiter holds a newline can
/// never be ended by a line, and when its body comes from after the `)` of a `$( )`
/// inside `(( ))`, the text bash keeps for the expression does not read back either
/// (bash reports `unexpected EOF while looking for matching )` when it runs it).
pub fn check_print_roundtrip(data: &[u8]) -> Result<(), String> {
    let src = text(data);
    let mut parser = crate::syntax::Parser::new(&src, parse_options());
    let mut commands = Vec::new();
    loop {
        match parser.next_command() {
            Ok(Some(c)) => commands.push(c),
            Ok(None) => break,
            Err(_) => return Ok(()),
        }
    }
    let never_ending_heredoc = parser.take_warnings().iter().any(|w| {
        matches!(&w.kind, ParseWarningKind::HereDocEof { delimiter, .. } if delimiter.contains('\n'))
    });
    let printed = script_to_string(&crate::syntax::Script { commands });
    let again = match parse(&printed) {
        Ok(again) => again,
        Err(_) if never_ending_heredoc => return Ok(()),
        Err(e) => return Err(format!("printed text does not parse ({e}):\n{printed}")),
    };
    let reprinted = script_to_string(&again);
    if reprinted != printed {
        return Err(format!(
            "printing is not stable:\nfirst:\n{printed}\nsecond:\n{reprinted}"
        ));
    }
    Ok(())
}

/// Runs `script` in a fresh shell under [`tight_limits`]: the exit status, stdout and
/// stderr.
fn run(script: &str) -> (i32, Vec<u8>, Vec<u8>) {
    let mut sh = crate::Shell::builder()
        .limits(tight_limits())
        .file("a.txt", "alpha\nbeta\n")
        .file("dir/b.txt", "gamma\n")
        .build();
    let out = sh.exec(script);
    (out.exit_code, out.stdout, out.stderr)
}

fn check_status(status: i32) -> Result<(), String> {
    if (0..=255).contains(&status) {
        Ok(())
    } else {
        Err(format!("exit status {status} is out of range"))
    }
}

/// One word of arbitrary text expanded by the shell (with a few variables, arrays and
/// files to expand against) ends normally or with an error, never a panic.
pub fn check_expand(data: &[u8]) -> Result<(), String> {
    let word: String = text(data).chars().filter(|c| *c != '\n').collect();
    let script = format!(
        "x='a b  c'; y=; a=(1 '2 3' 4); declare -A m=([k]=v); set -- p1 'p 2'\n\
         printf '<%s>' {word}"
    );
    let (status, _, _) = run(&script);
    check_status(status)
}

/// A host for arithmetic with variables in a map.
#[derive(Default)]
struct ArithVars(std::collections::HashMap<String, String>);

impl ArithHost for ArithVars {
    fn arith_get(&mut self, name: &str, index: Option<&str>) -> Result<Option<String>, ArithFail> {
        let key = match index {
            Some(i) => format!("{name}[{i}]"),
            None => name.to_owned(),
        };
        Ok(self.0.get(&key).cloned())
    }
    fn arith_set(&mut self, name: &str, index: Option<&str>, value: i64) -> Result<(), ArithFail> {
        let key = match index {
            Some(i) => format!("{name}[{i}]"),
            None => name.to_owned(),
        };
        self.0.insert(key, value.to_string());
        Ok(())
    }
}

/// Arithmetic never panics (division by zero, overflow, deep nesting, recursive
/// variables are errors or wrap), and parenthesising a valid expression keeps its value.
pub fn check_arith(data: &[u8]) -> Result<(), String> {
    let expr = text(data);
    let vars = || {
        let mut v = ArithVars::default();
        v.0.insert("x".into(), "7".into());
        v.0.insert("r".into(), "r".into());
        v.0.insert("e".into(), "x*2".into());
        v
    };
    let first = crate::expand::arith::eval_str(&expr, &mut vars());
    if let Ok(n) = first
        && !expr.trim().is_empty()
    {
        let wrapped = format!("({expr})");
        match crate::expand::arith::eval_str(&wrapped, &mut vars()) {
            Ok(m) if m == n => {}
            other => return Err(format!("{expr:?} is {n} but ({expr}) gives {other:?}")),
        }
    }
    Ok(())
}

/// Pattern matching never panics and ends (step budget); an escaped text matches itself.
/// The input is a pattern and a subject separated by the first NUL.
pub fn check_pattern(data: &[u8]) -> Result<(), String> {
    let t = text(data);
    let (pat, subject) = t.split_once('\0').unwrap_or((t.as_str(), ""));
    for extglob in [false, true] {
        for nocase in [false, true] {
            let opts = MatchOpts {
                extglob,
                nocase,
                dot_special: false,
                bytes: false,
            };
            let _ = Pattern::new(pat, opts).matches(subject);
            if !Pattern::new(&escape(subject), opts).matches(subject) {
                return Err(format!("escaped {subject:?} does not match itself"));
            }
        }
    }
    Ok(())
}

/// Any script runs to an end under tight limits: no panic, no stack overflow, a status
/// in 0..=255, and a limit stop always says which limit.
pub fn check_script(data: &[u8]) -> Result<(), String> {
    let (status, _, stderr) = run(&text(data));
    check_status(status)?;
    let err = String::from_utf8_lossy(&stderr);
    if err.contains("panicked") {
        return Err(format!("a panic was reported: {err}"));
    }
    Ok(())
}

/// Filesystem operations from a byte program: whatever they do, the filesystem stays
/// consistent (its image reloads to the same image).
pub fn check_fs_ops(data: &[u8]) -> Result<(), String> {
    // The session user may write under /workspace and /tmp only.
    const NAMES: &[&str] = &[
        "/workspace/a",
        "/workspace/a/b",
        "/workspace/a/b/c",
        "/workspace/l",
        "/workspace/a/l2",
        "/tmp/x",
        "/workspace/a/../x",
        "/workspace/a/./b/../c",
        "/",
        "",
        "/workspace/a/b/c/d/e",
        "/dev/null",
        "/workspace/l/b",
        "a",
        "../../workspace/a",
        "/tmp",
    ];
    let mut fs = Fs::new(Clock::virtual_at(0)).with_limits(crate::fs::FsLimits {
        max_total_bytes: 1 << 16,
        max_file_bytes: 1 << 14,
        max_files: 64,
        max_path_depth: 16,
        max_name_len: 32,
    });
    let name = |b: u8| {
        NAMES
            .get(usize::from(b) % NAMES.len())
            .copied()
            .unwrap_or("/")
    };
    for op in data.chunks(4) {
        let [code, a, b, c] = [0, 1, 2, 3].map(|i| op.get(i).copied().unwrap_or(0));
        let (pa, pb) = (name(a), name(b));
        let _ = match code % 14 {
            0 => fs.mkdir(pa, 0o755).map(drop),
            1 => fs.mkdir_all(pa, 0o700 | u32::from(c)).map(drop),
            2 => fs.write_file(pa, &vec![c; usize::from(b) * 64]).map(drop),
            3 => fs.append_file(pa, &[c; 100]).map(drop),
            4 => fs.remove_file(pa).map(drop),
            5 => fs.remove_dir(pa).map(drop),
            6 => fs.remove_all(pa).map(drop),
            7 => fs.rename(pa, pb).map(drop),
            8 => fs.link(pa, pb).map(drop),
            9 => fs.symlink(pb, pa).map(drop),
            10 => fs.read_file(pa).map(drop),
            11 => fs.truncate(pa, u64::from(c) * 300).map(drop),
            12 => fs.canonicalize(pa).map(drop),
            _ => fs.read_dir(pa).map(drop),
        };
    }
    let image = fs.to_image();
    let back = Fs::from_image(image.clone(), Clock::virtual_at(0))
        .map_err(|e| format!("the image does not reload: {e}"))?;
    if back.to_image() != image {
        return Err("the reloaded image differs".to_owned());
    }
    Ok(())
}

fn runtime() -> Result<&'static tokio::runtime::Runtime, String> {
    static RT: std::sync::OnceLock<Option<tokio::runtime::Runtime>> = std::sync::OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .ok()
    })
    .as_ref()
    .ok_or_else(|| "no tokio runtime".to_owned())
}

/// A tool call from arbitrary JSON: the first line names the tool, the rest is its
/// input. Every call gives a JSON result or a structured error, never a panic.
pub fn check_tool_json(data: &[u8]) -> Result<(), String> {
    let t = text(data);
    let (name, input) = t.split_once('\n').unwrap_or((t.as_str(), "{}"));
    let Ok(input) = serde_json::from_str::<Value>(input) else {
        return Ok(());
    };
    let sb = crate::Sandbox::builder()
        .limits(tight_limits())
        .bash_wait(Some(Duration::from_secs(2)))
        .file("a.txt", "alpha\nbeta\n")
        .file("dir/b.rs", "fn main() {}\n")
        .build();
    let rt = runtime()?;
    match rt.block_on(sb.call_tool(name.trim(), input)) {
        Ok(v) => {
            serde_json::to_string(&v).map_err(|e| format!("unprintable result: {e}"))?;
        }
        Err(e) => {
            let _ = e.to_json();
            if e.message.is_empty() {
                return Err(format!("an error without a message: {:?}", e.kind));
            }
        }
    }
    rt.block_on(sb.stop());
    Ok(())
}

/// A store whose files were damaged (the input says which file, and how: cut short, or
/// overwritten by the rest of the input) loads the newest intact snapshot exactly, with
/// what it discarded reported, or fails with an error; never a panic or a wrong load.
pub fn check_store_load(data: &[u8]) -> Result<(), String> {
    static N: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "shellbox-fuzz-store-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let r = store_case(&dir, data);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

fn store_case(dir: &std::path::Path, data: &[u8]) -> Result<(), String> {
    use crate::store::{Snapshot, Store};
    let e = |e: &dyn std::fmt::Display| e.to_string();
    let store = Store::open(dir).map_err(|x| e(&x))?;
    let mut fs = Fs::new(Clock::virtual_at(5));
    fs.mkdir_all("/workspace/d", 0o755).map_err(|x| e(&x))?;
    fs.write_file("/workspace/a", b"first").map_err(|x| e(&x))?;
    fs.write_file("/workspace/d/big", &[7u8; 3000])
        .map_err(|x| e(&x))?;
    let first = fs.to_image();
    let meta = serde_json::json!({"n": 1});
    store
        .save(
            "s",
            &Snapshot {
                fs: fs.clone(),
                meta: meta.clone(),
            },
        )
        .map_err(|x| e(&x))?;
    fs.write_file("/workspace/a", b"second")
        .map_err(|x| e(&x))?;
    fs.symlink("d", "/workspace/l").map_err(|x| e(&x))?;
    let second = fs.to_image();
    store.save("s", &Snapshot { fs, meta }).map_err(|x| e(&x))?;
    let mut files = Vec::new();
    collect_files(dir, &mut files);
    files.sort();
    let [pick, how, rest @ ..] = data else {
        return Ok(());
    };
    if files.is_empty() {
        return Err("the store wrote no files".to_owned());
    }
    let Some(victim) = files.get(usize::from(*pick) % files.len()) else {
        return Ok(());
    };
    let original = std::fs::read(victim).map_err(|x| e(&x))?;
    let damaged = if how % 2 == 0 {
        let cut = rest.first().map_or(0, |b| usize::from(*b)) * original.len() / 256;
        original.get(..cut).unwrap_or_default().to_vec()
    } else {
        rest.to_vec()
    };
    // Stored files are read-only; the damage comes from outside the store.
    let mut perms = std::fs::metadata(victim).map_err(|x| e(&x))?.permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(victim, perms).map_err(|x| e(&x))?;
    std::fs::write(victim, &damaged).map_err(|x| e(&x))?;
    match Store::open(dir).and_then(|s| s.load("s")) {
        Ok(loaded) => {
            let got = loaded.fs.to_image();
            let intact = damaged == original;
            if got == second {
                return Ok(());
            }
            if got == first && (!loaded.report.discarded.is_empty() || intact) {
                return Ok(());
            }
            Err(format!(
                "damaging {} loaded a filesystem that was never saved",
                victim.display()
            ))
        }
        Err(_) => Ok(()),
    }
}

fn collect_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_files(&p, out);
        } else {
            out.push(p);
        }
    }
}
