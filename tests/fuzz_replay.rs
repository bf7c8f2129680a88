#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! The fuzz corpus on the stable toolchain (issue 6): every saved input under
//! `fuzz/corpus/<target>/` goes through its checker in `shellbox::fuzzing`, so
//! `cargo test` covers the seeds and every crash ever found.
//!
//! `fuzz_for_a_while` (ignored by default) is the stable stand-in for `cargo fuzz run`:
//! it mutates the corpus at random and throws the results at every checker for
//! `FUZZ_SECONDS` per target (default 20), saving any failing input as a new corpus file:
//! `FUZZ_SECONDS=60 cargo test --release --test fuzz_replay -- --ignored --nocapture`
//! (`FUZZ_TARGET=name` for one target; `FUZZ_LAST=file` writes each input to `file`
//! before it runs, so an input that hangs is left there).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use shellbox::fuzzing::TARGETS;

fn corpus_dir(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target)
}

fn corpus(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir(target))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let data = std::fs::read(&p).unwrap();
            (p, data)
        })
        .collect()
}

/// Runs a checker, turning a panic into an error.
fn checked(check: fn(&[u8]) -> Result<(), String>, data: &[u8]) -> Result<(), String> {
    match catch_unwind(AssertUnwindSafe(|| check(data))) {
        Ok(r) => r,
        Err(p) => Err(format!(
            "panic: {}",
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_default()
        )),
    }
}

#[test]
fn every_saved_input_passes_its_checker() {
    let mut failures = Vec::new();
    for (target, check) in TARGETS {
        let inputs = corpus(target);
        assert!(!inputs.is_empty(), "fuzz/corpus/{target} has no seeds");
        for (path, data) in inputs {
            if let Err(e) = checked(*check, &data) {
                failures.push(format!("{}: {e}", path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A small deterministic generator (xorshift), so a run can be repeated by its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Tokens that make mutations likelier to reach deep into each layer.
const DICT: &[&str] = &[
    "$(",
    ")",
    "${",
    "}",
    "$((",
    "))",
    "((",
    "[[",
    "]]",
    "<<EOF\n",
    "\nEOF\n",
    "<<<",
    "|",
    "&",
    ";",
    "&&",
    "||",
    "'",
    "\"",
    "`",
    "\\",
    "{a,b}",
    "{1..9}",
    "*",
    "?",
    "[a-z]",
    "@(a|b)",
    "!(x)",
    "+(",
    "*(",
    "if ",
    "then ",
    "fi",
    "for i in ",
    "do ",
    "done",
    "case x in ",
    "esac",
    "while ",
    "f(){ ",
    "; }",
    "$x",
    "${x:-y}",
    "${a[@]}",
    "${#x}",
    "${x//a/b}",
    "${x^^}",
    "$@",
    "$#",
    "$?",
    "=",
    "+=",
    "a=(",
    "declare -A m",
    "<(",
    ">(",
    ">",
    ">>",
    "2>&1",
    "<",
    "**",
    "/",
    "..",
    "-",
    "%",
    "<<",
    ">>=",
    "?:",
    ",",
    "x++",
    "0x",
    "#",
    "!",
    "~",
    "\n",
    " ",
    "\0",
    "\"filePath\"",
    "\"pattern\"",
    "\"content\"",
    "read_file\n",
    "write_file\n",
    "edit_file\n",
    "glob\n",
    "grep\n",
    "bash\n",
    "{\"command\":\"",
    "\"}",
    "null",
    "[",
    "]",
    "9223372036854775807",
    "-1",
    "1e9",
];

fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut data = seeds
        .get(rng.below(seeds.len()))
        .cloned()
        .unwrap_or_default();
    for _ in 0..=rng.below(8) {
        let at = rng.below(data.len() + 1);
        match rng.below(7) {
            0 if !data.is_empty() => {
                let end = (at + rng.below(8)).min(data.len());
                data.drain(at.min(end)..end);
            }
            1 => data.insert(at, rng.next() as u8),
            2 if at < data.len() => data[at] ^= 1 << rng.below(8),
            3 | 4 => {
                let tok = DICT[rng.below(DICT.len())].as_bytes();
                data.splice(at..at, tok.iter().copied());
            }
            5 => {
                // Splice in a piece of another seed.
                let other = &seeds[rng.below(seeds.len())];
                let s = rng.below(other.len() + 1);
                let e = (s + rng.below(32)).min(other.len());
                data.splice(at..at, other[s..e].iter().copied());
            }
            _ if !data.is_empty() => {
                // Repeat a slice (nesting, long inputs).
                let s = rng.below(data.len());
                let e = (s + 1 + rng.below(16)).min(data.len());
                let piece = data[s..e].to_vec();
                for _ in 0..rng.below(20) {
                    data.splice(at..at, piece.iter().copied());
                }
            }
            _ => {}
        }
    }
    data.truncate(4096);
    data
}

#[test]
#[ignore = "a long stable fuzzing run; see the module docs"]
fn fuzz_for_a_while() {
    let secs: u64 = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let only = std::env::var("FUZZ_TARGET").ok();
    // Each input is written here before it runs, so a hang leaves it behind.
    let last = std::env::var("FUZZ_LAST").ok();
    let seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_1234_abcd_0001);
    // Panics are caught and counted; keep their messages off the console.
    std::panic::set_hook(Box::new(|_| {}));
    let mut report = Vec::new();
    for (target, check) in TARGETS {
        if only.as_deref().is_some_and(|t| t != *target) {
            continue;
        }
        let seeds: Vec<Vec<u8>> = corpus(target).into_iter().map(|(_, d)| d).collect();
        let mut rng = Rng((seed ^ fxhash(target.as_bytes())) | 1);
        let start = Instant::now();
        let (mut runs, mut found) = (0u64, 0u64);
        while start.elapsed() < Duration::from_secs(secs) {
            let data = mutate(&mut rng, &seeds);
            if let Some(path) = &last {
                std::fs::write(path, &data).unwrap();
            }
            runs += 1;
            let t = Instant::now();
            let r = checked(*check, &data);
            let slow = t.elapsed() > Duration::from_secs(5);
            if r.is_err() || slow {
                found += 1;
                let name = format!("found-{:016x}", fxhash(&data));
                let path = corpus_dir(target).join(&name);
                std::fs::write(&path, &data).unwrap();
                let why = r
                    .err()
                    .unwrap_or_else(|| format!("slow: {:?}", t.elapsed()));
                eprintln!(
                    "{target}: {name}: {}",
                    why.chars().take(300).collect::<String>()
                );
            }
        }
        report.push(format!(
            "{target}: {runs} inputs in {secs} s, {found} failing"
        ));
    }
    let _ = std::panic::take_hook();
    eprintln!("{}", report.join("\n"));
}

fn fxhash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x1000_0000_01b3)
    })
}
