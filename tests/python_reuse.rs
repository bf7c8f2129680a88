//! `python3` called many times in one process (issue 28): each call gets a fresh
//! interpreter on a reused interpreter thread, sees none of the state an earlier call
//! left, has working builtins and imports, and the process does not keep what each call
//! used. In a test binary of its own, so that the process's memory is this test's.
#![cfg(feature = "python")]
#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]

use shellbox::Shell;

/// The process's peak resident memory (VmHWM) in KiB.
fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// One call: it must not see the module-level state, imported modules, environment,
/// working directory or recursion limit an earlier call changed, then changes them all.
/// It uses builtins and imports modules of several kinds (frozen Python, native, and a
/// .py file in the sandbox), as every interpreter on a reused thread must be able to.
const CALL: &str = r##"python3 -c '
import sys, os, json, re, collections, dataclasses, mod_in_sandbox
seen = [n for n in ("leftover_global",) if n in globals()]
seen += [m for m in ("leftover_module", "decimal") if m in sys.modules]
seen += ["json.dumps"] if json.dumps.__name__ != "dumps" else []
seen += ["environ"] if "LEFTOVER" in os.environ else []
seen += ["cwd"] if os.getcwd() != "/workspace" else []
seen += ["recursionlimit"] if sys.getrecursionlimit() == 123 else []
@dataclasses.dataclass
class P:
    x: int
work = [len("abc"), sorted({3, 1, 2}), dict(a=1)["a"], max(map(int, "123")),
        collections.Counter("aab")["a"], re.sub(r"\d", "#", "a1b2"),
        json.loads(json.dumps({"k": [1, 2]}))["k"], str(P(1)), mod_in_sandbox.VALUE,
        isinstance(1, int), getattr(sys, "argv")]
assert work == [3, [1, 2, 3], 1, 3, 2, "a#b#", [1, 2], "P(x=1)", 42, True, ["-c"]], work
print(seen or "fresh")
leftover_global = 1
sys.modules["leftover_module"] = sys
import decimal
json.dumps = print
os.environ["LEFTOVER"] = "1"
os.chdir("/tmp")
sys.setrecursionlimit(123)
'"##;

/// Runs [`CALL`] `n` times, one after another (so all on one reused interpreter thread).
fn check_calls(sh: &mut Shell, n: usize) {
    for i in 0..n {
        let out = sh.exec(CALL);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "fresh\n",
            "call {i}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.exit_code, 0);
    }
}

fn shell() -> Shell {
    let mut sh = Shell::new();
    let setup = sh.exec("echo 'VALUE = 42' > /workspace/mod_in_sandbox.py");
    assert_eq!(setup.exit_code, 0);
    sh
}

/// The interpreters after the second on a thread once found `builtins` empty (the
/// thread's interned strings kept hashes made with another interpreter's hash seed).
#[test]
fn many_interpreters_on_one_thread_work() {
    check_calls(&mut shell(), 20);
}

#[test]
#[ignore = "issue 28: each interpreter on a reused thread still leaves most of its objects \
            behind (about 10 MB a call), see vendor/rustpython-vm/README.shellbox.md"]
fn memory_stays_bounded() {
    let mut sh = shell();
    // Warm up: the first calls build the thread's type objects and caches.
    check_calls(&mut sh, 10);
    let warm = peak_kib();
    let calls = 60;
    check_calls(&mut sh, calls);
    let grown = peak_kib().saturating_sub(warm);
    eprintln!("peak RSS after warm-up {warm} KiB, grew {grown} KiB over {calls} calls");
    // A thread (and its RustPython statics) per call kept about 15 MB a call.
    assert!(
        grown < 256 * calls as u64,
        "peak RSS grew {grown} KiB over {calls} calls"
    );
}
