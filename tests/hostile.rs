#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! Hostile scripts (issue 6): each one runs under tight limits and must end within its
//! limit — status 126 with a message naming the limit, or bash's own behaviour — quickly,
//! on a thread with an ordinary stack, leaving the host process healthy.

use std::time::{Duration, Instant};

use shellbox::{Limits, Shell};

/// The stack a spawned Rust thread gets by default: every hostile script runs on one.
const STACK: usize = 2 << 20;

/// Limits tight enough that every runaway ends in well under a second.
fn tight() -> Limits {
    let mut l = Limits::hardened();
    l.max_commands = 200_000;
    l.max_loop_iterations = 100_000;
    l.max_output_bytes = 1 << 20;
    l.max_string_len = 1 << 20;
    l.max_words = 100_000;
    l.max_array_len = 50_000;
    l.max_brace_words = 50_000;
    l.max_glob_reads = 1_000;
    l.max_heredoc_bytes = 1 << 20;
    l.max_file_bytes = 1 << 20;
    l.max_fs_bytes = 4 << 20;
    l.max_files = 2_000;
    l.max_threads = 32;
    l.max_background_jobs = 16;
    l.timeout = Some(Duration::from_secs(20));
    l
}

struct Outcome {
    status: i32,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

/// Runs `script` under `limits` on a fresh thread with a [`STACK`]-sized stack.
fn run_with(limits: Limits, script: String) -> Outcome {
    std::thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let start = Instant::now();
            let mut sh = Shell::builder().limits(limits).build();
            let out = sh.exec(&script);
            Outcome {
                status: out.exit_code,
                stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
                elapsed: start.elapsed(),
            }
        })
        .unwrap()
        .join()
        .expect("the script overflowed the stack or panicked")
}

/// Asserts that `script` is stopped by the limit whose message contains `limit`.
fn stopped_by(script: &str, limit: &str) -> Outcome {
    let o = run_with(tight(), script.to_owned());
    let shown: String = script.chars().take(80).collect();
    assert_eq!(o.status, 126, "{shown}: stderr {:?}", tail(&o.stderr));
    assert!(
        o.stderr.contains(limit),
        "{shown}: wanted {limit:?} in stderr {:?}",
        tail(&o.stderr)
    );
    assert!(
        o.elapsed < Duration::from_secs(10),
        "{shown}: took {:?}",
        o.elapsed
    );
    healthy();
    o
}

fn tail(s: &str) -> &str {
    let start = s.len().saturating_sub(400);
    s.get(start..).unwrap_or(s)
}

/// The host still runs scripts normally.
fn healthy() {
    let mut sh = Shell::builder().limits(tight()).build();
    let out = sh.exec("echo ok");
    assert_eq!(out.stdout, b"ok\n");
}

#[test]
fn fork_bomb_ends_at_the_job_limit() {
    stopped_by(":(){ :|:& };:", "limit exceeded");
}

#[test]
fn endless_loops_end_at_the_iteration_limit() {
    stopped_by("while :; do :; done", "loop iteration limit exceeded");
    stopped_by("until false; do :; done", "loop iteration limit exceeded");
    stopped_by("for ((;;)); do :; done", "loop iteration limit exceeded");
}

/// More pipeline stages at once than `max_threads` allows end like every other limit,
/// with its name and "limit exceeded" (this or the depth limits is what a runaway
/// `f(){ echo x | f; }` meets first, depending on how fast its stages finish).
#[test]
fn too_many_pipeline_stages_end_at_the_thread_limit() {
    // Each level's first stage runs the next level and holds its thread meanwhile.
    stopped_by(
        "f(){ if (( $1 < 40 )); then f $(( $1 + 1 )) | cat; fi; }; f 0",
        "concurrent pipeline stage and job limit exceeded (32 threads)",
    );
}

#[test]
fn infinite_recursion_ends_at_the_call_depth_limit() {
    stopped_by("f(){ f; }; f", "function call depth limit exceeded");
    stopped_by("f(){ echo x | f; }; f", "limit exceeded");
    stopped_by(
        "echo 'source /tmp/s' > /tmp/s; source /tmp/s",
        "limit exceeded",
    );
    stopped_by("s='eval \"$s\"'; eval \"$s\"", "limit exceeded");
    stopped_by("f(){ ( f ); }; f", "subshell nesting limit exceeded");
    stopped_by("f(){ x=$(f); }; f", "subshell nesting limit exceeded");
}

#[test]
fn filling_a_file_ends_at_the_file_size_limit() {
    stopped_by("yes > f", "file size limit exceeded (1048576 bytes)");
    stopped_by(
        "while :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done >> f",
        "file size limit exceeded",
    );
}

#[test]
fn filling_the_filesystem_ends_at_its_limits() {
    stopped_by(
        "for i in {1..100}; do head -c 900000 /dev/zero > f$i; done",
        "filesystem size limit exceeded (4194304 bytes)",
    );
    stopped_by(
        "i=0; while :; do : > f$((i++)); done",
        "file count limit exceeded (2000 files)",
    );
    stopped_by(
        "mkdir -p a; while :; do mkdir a/$RANDOM$RANDOM; done",
        "limit exceeded",
    );
}

#[test]
fn endless_output_ends_at_the_output_limit() {
    stopped_by("cat /dev/zero", "output limit exceeded");
    stopped_by("yes", "output limit exceeded");
    stopped_by("x=$(cat /dev/zero)", "output limit exceeded");
    stopped_by("yes | cat | cat", "output limit exceeded");
    // The report of the limit still gets through on the stream that hit it.
    stopped_by("cat /dev/zero >&2", "output limit exceeded");
    stopped_by("yes >&2", "output limit exceeded");
}

#[test]
fn huge_brace_expansions_end_at_the_brace_limit() {
    stopped_by(
        "echo {1..1000000000}",
        "brace expansion limit exceeded (50000 words)",
    );
    stopped_by(
        "echo {a..z}{a..z}{a..z}{a..z}",
        "brace expansion limit exceeded",
    );
    // A product's words hold 24 tokens each: the memory budget stops it first.
    let product = "{a,b}".repeat(24);
    stopped_by(
        &format!("echo {product}"),
        "memory limit exceeded (67108864 bytes)",
    );
    stopped_by(
        "echo {-9223372036854775807..9223372036854775807}",
        "brace expansion limit exceeded",
    );
}

#[test]
fn giant_strings_end_at_the_string_limit() {
    stopped_by(
        "x=$(printf '%*s' 1000000000); echo ${#x}",
        "string length limit exceeded",
    );
    stopped_by(
        "printf -v x '%*s' 1000000000",
        "string length limit exceeded",
    );
    stopped_by("printf '%.*f' 1000000000 1", "string length limit exceeded");
    stopped_by(
        "x=a; while :; do x=$x$x; done",
        "string length limit exceeded",
    );
    stopped_by(
        "x=a; while :; do x+=$x; done; echo unreachable",
        "string length limit exceeded",
    );
}

#[test]
fn a_million_arguments_end_at_a_limit() {
    stopped_by("set -- $(seq 1000000); echo $#", "limit exceeded");
    stopped_by("a=($(seq 60000))", "limit exceeded");
    stopped_by(
        "for ((i=0;;i++)); do a[i]=x; done",
        "array size limit exceeded",
    );
    stopped_by(
        "declare -A m; for ((i=0;;i++)); do m[k$i]=x; done",
        "array size limit exceeded",
    );
    stopped_by(
        "seq 60000 | mapfile a",
        "array size limit exceeded (50000 elements)",
    );
    stopped_by("mapfile a < /dev/zero", "string length limit exceeded");
    stopped_by("read x < /dev/zero", "string length limit exceeded");
    stopped_by("yes | tr -d '\\n' | read x", "string length limit exceeded");
    // Under the limit the arguments all arrive.
    let o = run_with(tight(), "set -- $(seq 50000); echo $#".to_owned());
    assert_eq!((o.status, o.stdout.as_str()), (0, "50000\n"));
}

#[test]
fn a_100_mb_here_document_is_refused() {
    let body = "x".repeat(100 << 20);
    let script = format!("cat <<'EOF'\n{body}\nEOF\n");
    let mut l = tight();
    l.max_source_bytes = 4 << 20;
    let o = run_with(l, script);
    assert_eq!(o.status, 126);
    assert!(
        o.stderr.contains("source size limit exceeded"),
        "{}",
        o.stderr
    );
    // A here-document that only grows when expanded meets its own limit.
    stopped_by(
        "x=$(printf '%*s' 900000)\ncat <<EOF\n$x$x$x\nEOF\n",
        "here-document size limit exceeded (1048576 bytes)",
    );
    stopped_by(
        "x=$(printf '%*s' 900000); cat <<< \"$x$x\"",
        "here-document size limit exceeded",
    );
}

#[test]
fn deep_nesting_is_refused_by_the_parser_limit() {
    let n = 100_000;
    let cases = [
        format!("echo {}hi{}", "$(".repeat(n), ")".repeat(n)),
        format!("{}echo hi{}", "( ".repeat(n), " )".repeat(n)),
        format!("{}echo hi;{}", "{ ".repeat(n), " }".repeat(n)),
        format!("[[ {}a{} ]]", "( ".repeat(n), " )".repeat(n)),
        format!("[[ {}a ]]", "! ".repeat(n)),
        format!("x={}{}", "${x:-".repeat(n), "}".repeat(n)),
        format!("{}:{}", "if :; then ".repeat(n), "; fi".repeat(n)),
        format!("{}:{}", "f(){ ".repeat(n), " ;}".repeat(n)),
        format!("{}:{}", "while :; do ".repeat(n), "; done".repeat(n)),
    ];
    for script in cases {
        stopped_by(&script, "parser nesting limit exceeded (200)");
    }
}

#[test]
fn deep_arithmetic_is_bash_recursion_error() {
    let n = 100_000;
    for script in [
        format!("echo $(({}1{}))", "(".repeat(n), ")".repeat(n)),
        format!("(({}1{}))", "(".repeat(n), ")".repeat(n)),
        format!("echo $(({}1))", "-".repeat(n)),
        format!("echo $(({}1))", "!".repeat(n)),
        format!("x='{}1{}'; echo $((x))", "(".repeat(n), ")".repeat(n)),
    ] {
        let o = run_with(tight(), script);
        assert_eq!(o.status, 1, "{}", tail(&o.stderr));
        assert!(
            o.stderr.contains("expression recursion level exceeded"),
            "{}",
            tail(&o.stderr)
        );
    }
    // A recursive variable reference is bash's error too, not a stack overflow.
    let o = run_with(tight(), "x=x; echo $((x))".to_owned());
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("expression recursion level exceeded"),
        "{}",
        o.stderr
    );
}

/// Nesting just under the parser limit parses and runs correctly on an ordinary
/// 2 MiB thread: the depth limit keeps recursion well inside the stack (the parser and
/// interpreter also grow their stack on the heap when it runs low).
#[test]
fn nesting_at_the_default_limit_fits_the_stack() {
    let limits = Limits::default();
    // A level of `$(echo ...)` takes several parser levels; an eighth of the limit is
    // still accepted for every construct below.
    let n = limits.max_parse_depth / 8;
    for (script, want) in [
        (
            format!("echo {}hi{}", "$(echo ".repeat(n), ")".repeat(n)),
            "hi\n",
        ),
        (
            format!("{}echo hi{}", "( ".repeat(n), " )".repeat(n)),
            "hi\n",
        ),
        (
            format!("echo {}hi{}", "${x:-".repeat(n), "}".repeat(n)),
            "hi\n",
        ),
        (
            format!("{}echo hi;{}", "{ ".repeat(n), " }".repeat(n)),
            "hi\n",
        ),
        (
            format!("[[ {}a{} ]] && echo hi", "( ".repeat(n), " )".repeat(n)),
            "hi\n",
        ),
        (
            format!("{}echo hi{}", "if :; then ".repeat(n), "; fi".repeat(n)),
            "hi\n",
        ),
        (
            format!("echo $(({}1{}))", "(".repeat(n), ")".repeat(n)),
            "1\n",
        ),
        // Just under the arithmetic parser's own depth limit (its frames are large:
        // a parse error that records the work done before it once overflowed here).
        (
            format!("echo $(({}1{}))", "(".repeat(255), ")".repeat(255)),
            "1\n",
        ),
        (format!("echo $(({}1))", "- ".repeat(500)), "1\n"),
    ] {
        let o = run_with(limits.clone(), script);
        assert_eq!(
            (o.status, o.stdout.as_str()),
            (0, want),
            "{}",
            tail(&o.stderr)
        );
    }
    // Recursion up to the call depth limit runs on the same stack.
    let depth = limits.max_call_depth - 10;
    let o = run_with(
        limits.clone(),
        format!("f(){{ (( $1 > 0 )) && f $(($1 - 1)); }}; f {depth}; echo done"),
    );
    assert_eq!(
        (o.status, o.stdout.as_str()),
        (0, "done\n"),
        "{}",
        tail(&o.stderr)
    );
}

#[test]
fn regex_bombs_end_quickly() {
    let a40 = "a".repeat(40);
    for script in [
        format!("[[ {a40} =~ ^(a+)+b$ ]]; echo $?"),
        format!("[[ {a40} =~ ^(a|a)*(a|aa)*b$ ]]; echo $?"),
        format!("echo {a40} | grep -E '^(a+)+b$'; echo $?"),
        format!("echo {a40} | grep '^\\(a*\\)*\\1b$'; echo $?"),
        format!("echo {a40} | sed -E 's/^(a|aa)+\\1b//'; echo $?"),
        format!("echo {a40} | grep -E '(a*)*(a*)*(a*)*b'; echo $?"),
        format!("x={a40}; echo ${{x//+(a|aa)b/y}}"),
        format!("case {a40} in *(*(a)|a)b) echo m;; *) echo n;; esac"),
    ] {
        let o = run_with(tight(), script.clone());
        assert!(
            o.elapsed < Duration::from_secs(5),
            "{script}: {:?}",
            o.elapsed
        );
        assert_ne!(o.status, 126, "{script}: {}", o.stderr);
    }
    healthy();
}

#[test]
fn find_over_a_symlink_loop_ends() {
    let o = run_with(
        tight(),
        "mkdir d; ln -s ../d d/loop; find -L d; echo rc=$?; find d; echo rc=$?".to_owned(),
    );
    assert_eq!(o.stdout, "d\nrc=1\nd\nd/loop\nrc=0\n");
    assert!(
        o.stderr.contains("File system loop detected"),
        "{}",
        o.stderr
    );
    // Symlinks that resolve to each other end with ELOOP.
    let o = run_with(
        tight(),
        "ln -s a b; ln -s b a; cat a; echo rc=$?; ls -L a; echo rc=$?".to_owned(),
    );
    assert!(
        o.stderr.contains("Too many levels of symbolic links"),
        "{}",
        o.stderr
    );
    assert!(o.stdout.contains("rc=1"), "{}", o.stdout);
}

#[test]
fn cp_r_into_itself_is_refused() {
    let o = run_with(
        tight(),
        "mkdir e; touch e/f; cp -r e e/sub; echo rc=$?; ls e".to_owned(),
    );
    assert_eq!(o.stdout, "rc=1\nf\n");
    assert_eq!(
        o.stderr,
        "cp: cannot copy a directory, 'e', into itself, 'e/sub'\n"
    );
    // Growing a tree by copying it into a deeper path still ends.
    let o = run_with(
        tight(),
        "mkdir -p t; while :; do cp -r t t2 && mv t2 t/; done".to_owned(),
    );
    assert_eq!(o.status, 126, "{}", tail(&o.stderr));
}

#[test]
fn glob_bombs_end_at_the_glob_limit() {
    stopped_by(
        "mkdir -p a/b/c; for i in {1..50}; do mkdir -p d$i/e; done; shopt -s globstar; while :; do echo **/*/**/*/** >/dev/null; mkdir x$RANDOM; done",
        "limit exceeded",
    );
    let o = run_with(
        tight(),
        "for i in {1..1100}; do mkdir d$i; done; echo */*".to_owned(),
    );
    assert_eq!(o.status, 126);
    assert!(
        o.stderr
            .contains("glob limit exceeded (1000 directory reads)"),
        "{}",
        o.stderr
    );
}

#[test]
fn background_jobs_are_bounded() {
    stopped_by("while :; do sleep 1000 & done", "limit exceeded");
}

#[test]
fn a_limit_hit_in_a_background_job_ends_the_run() {
    let o = run_with(
        tight(),
        "{ while :; do :; done; } & wait; echo after".to_owned(),
    );
    assert_eq!(o.status, 126);
    assert!(o.stderr.contains("limit exceeded"), "{}", o.stderr);
    assert!(!o.stdout.contains("after"), "{}", o.stdout);
}

#[test]
fn the_time_limit_ends_a_run() {
    let mut l = tight();
    l.max_loop_iterations = u64::MAX;
    l.max_commands = u64::MAX;
    l.timeout = Some(Duration::from_millis(300));
    let o = run_with(l, "while :; do :; done".to_owned());
    assert_eq!(o.status, 126);
    assert!(o.stderr.contains("time limit exceeded"), "{}", o.stderr);
    assert!(o.elapsed < Duration::from_secs(5));
}

#[test]
fn the_time_limit_ends_a_utility_that_loops_without_output() {
    // GNU pr loops for ever when a double-spaced page has room for no line.
    let mut l = tight();
    l.timeout = Some(Duration::from_millis(300));
    let o = run_with(
        l,
        "printf 'a\\nb\\n' > f; pr -l 1 -d f; echo after".to_owned(),
    );
    assert_eq!(o.status, 126);
    assert!(o.stderr.contains("time limit exceeded"), "{}", o.stderr);
    assert!(!o.stdout.contains("after"), "{}", o.stdout);
    assert!(o.elapsed < Duration::from_secs(5));
}

#[test]
fn the_hardened_profile_is_tighter_than_the_default() {
    let (d, h) = (Limits::default(), Limits::hardened());
    assert!(h.max_commands < d.max_commands);
    assert!(h.max_string_len < d.max_string_len);
    assert!(h.max_fs_bytes < d.max_fs_bytes);
    assert!(h.max_parse_depth < d.max_parse_depth);
    assert!(h.max_background_jobs < d.max_background_jobs);
    assert!(h.max_brace_words < d.max_brace_words);
    assert!(h.max_memory_bytes < d.max_memory_bytes);
    assert!(h.max_io_bytes < d.max_io_bytes);
    // The memory budget keeps a run well under 1 GiB by default.
    assert!(d.max_memory_bytes < 1 << 30);
    assert!(h.timeout < d.timeout);
}

// Issue 25: the built binary under the default limits, in an address space capped at
// 4 GiB as a host might cap it. Each hostile script ends by itself within 20 s, stays
// under 1 GiB peak resident memory, never dies by a signal, and ends as it should: a
// runaway with status 126 and the message of the limit that stopped it.

/// How a child run should end.
enum Ends {
    /// Status 126, with this text in stderr.
    AtLimit(&'static str),
    /// This status, with no limit reported (the script is bounded the way bash's is).
    With(i32),
}

struct ChildRun {
    status: i32,
    stdout: String,
    stderr: String,
    peak_kib: u64,
    signalled: bool,
    elapsed: Duration,
}

/// Runs `shellbox -c script` with `ulimit -v 4194304`, measured by `/usr/bin/time`.
fn run_child(script: &str) -> ChildRun {
    let dir = std::env::temp_dir().join(format!("shellbox-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join(format!("time-{:x}", {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        script.hash(&mut h);
        h.finish()
    }));
    let start = Instant::now();
    let out = std::process::Command::new("bash")
        .arg("-c")
        .arg(r#"ulimit -v 4194304; exec /usr/bin/time -f "peak=%M" -o "$1" "$2" -c "$3""#)
        .arg("bash")
        .arg(&report)
        .arg(env!("CARGO_BIN_EXE_shellbox"))
        .arg(script)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    let timing = std::fs::read_to_string(&report).unwrap_or_default();
    let _ = std::fs::remove_file(&report);
    let peak_kib = timing
        .lines()
        .find_map(|l| l.strip_prefix("peak="))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(u64::MAX);
    ChildRun {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        peak_kib,
        signalled: timing.contains("signal") || out.status.code().is_none(),
        elapsed,
    }
}

fn ends_bounded(script: &str, ends: Ends) -> ChildRun {
    let r = run_child(script);
    let shown: String = script.chars().take(60).collect();
    assert!(
        !r.signalled,
        "{shown}: died by a signal; stderr {:?}",
        tail(&r.stderr)
    );
    assert!(
        r.elapsed < Duration::from_secs(20),
        "{shown}: took {:?}",
        r.elapsed
    );
    assert!(
        r.peak_kib < 1 << 20,
        "{shown}: peak RSS {} KiB; stderr {:?}",
        r.peak_kib,
        tail(&r.stderr)
    );
    match ends {
        Ends::AtLimit(msg) => {
            assert_eq!(r.status, 126, "{shown}: stderr {:?}", tail(&r.stderr));
            assert!(
                r.stderr.contains(msg),
                "{shown}: wanted {msg:?} in {:?}",
                tail(&r.stderr)
            );
        }
        Ends::With(status) => {
            assert_eq!(r.status, status, "{shown}: stderr {:?}", tail(&r.stderr));
            assert!(
                !r.stderr.contains("limit exceeded"),
                "{shown}: {:?}",
                tail(&r.stderr)
            );
        }
    }
    r
}

#[test]
fn by_default_a_fork_bomb_ends_at_a_limit() {
    ends_bounded(":(){ :|:& };:", Ends::AtLimit("limit exceeded"));
}

#[test]
fn by_default_a_limit_is_final_whatever_the_exit_trap_does() {
    ends_bounded(
        "trap 'exit $?' EXIT; :(){ :|:& };:",
        Ends::AtLimit("limit exceeded"),
    );
    ends_bounded(
        "trap 'exit 0' EXIT; (trap 'exit 0' EXIT; while :; do :; done); exit 0",
        Ends::AtLimit("limit exceeded"),
    );
    ends_bounded(
        "trap 'exit 0' EXIT; x=$(trap 'exit 0' EXIT; while :; do :; done)",
        Ends::AtLimit("limit exceeded"),
    );
    let r = ends_bounded(
        "trap 'echo bye; :(){ :|:& };:' EXIT; :(){ :|:& };:",
        Ends::AtLimit("limit exceeded"),
    );
    assert_eq!(r.stdout, "bye\n");
}

/// After a limit the EXIT trap still runs, to clean up, and sees status 126.
#[test]
fn after_a_limit_the_exit_trap_runs_to_clean_up() {
    let o = stopped_by(
        "trap 'echo \"cleaned after $?\"; rm -f /tmp/lock' EXIT; touch /tmp/lock; while :; do :; done",
        "command limit exceeded (200000 commands)",
    );
    assert_eq!(o.stdout, "cleaned after 126\n");
    assert_eq!(
        o.stderr.matches("limit exceeded").count(),
        1,
        "{}",
        o.stderr
    );
}

/// ...on a small budget of its own: a trap that is itself a runaway ends at once, and
/// the run still ends with the first limit's status and message.
#[test]
fn after_a_limit_the_exit_trap_cannot_restart_the_runaway() {
    for trap in [
        "while :; do :; done",
        ":(){ :|:& };:",
        "f(){ f; }; f",
        "sleep 100",
        "yes > /dev/null",
        "cat /dev/zero > /dev/null",
        "x=a; while :; do x=$x$x; done",
    ] {
        let o = stopped_by(
            &format!("trap '{trap}' EXIT; while :; do :; done"),
            "command limit exceeded (200000 commands)",
        );
        assert!(
            o.elapsed < Duration::from_secs(3),
            "{trap}: took {:?}",
            o.elapsed
        );
    }
}

#[test]
fn by_default_a_pipeline_of_2000_stages_ends_at_the_thread_limit() {
    let stages = vec!["cat"; 2000].join(" | ");
    // Every stage's bytes count too: on a loaded machine the I/O budget may end it
    // before the 513th stage starts; either limit ends it.
    ends_bounded(&format!("yes | {stages}"), Ends::AtLimit("limit exceeded"));
}

#[test]
fn by_default_a_30_factor_brace_expansion_ends_at_the_memory_limit() {
    let factors = "{a,b}".repeat(30);
    ends_bounded(
        &format!("echo {factors} | wc -c"),
        Ends::AtLimit("memory limit exceeded (536870912 bytes)"),
    );
}

#[test]
fn by_default_a_doubling_string_ends_at_the_memory_limit() {
    ends_bounded(
        "x=a; while :; do x=$x$x; done",
        Ends::AtLimit("memory limit exceeded (536870912 bytes)"),
    );
    ends_bounded(
        r#"x=a; while :; do x="$x$x"; done"#,
        Ends::AtLimit("memory limit exceeded"),
    );
}

#[test]
fn by_default_arrays_of_many_elements_end_at_the_memory_limit() {
    // Each element counts its bytes and its overhead: a million 1 kB elements would
    // hold about 1.2 GB, so the budget (512 MiB) stops them, by either way of adding.
    ends_bounded(
        r#"k=$(printf 'x%.0s' {1..1000}); a=(); for ((i=0; i<1000000; i++)); do a+=("$k"); done"#,
        Ends::AtLimit("memory limit exceeded (536870912 bytes)"),
    );
    ends_bounded(
        r#"k=$(printf 'x%.0s' {1..1000}); declare -A a; for ((i=0; i<1000000; i++)); do a[k$i]=$k; done"#,
        Ends::AtLimit("memory limit exceeded"),
    );
    // While a million short elements (about 130 MB) still fit.
    let r = ends_bounded(
        "for ((i=0; i<1000000; i++)); do a[i]=$i; done; echo ${#a[@]}",
        Ends::With(0),
    );
    assert_eq!(r.stdout, "1000000\n");
}

#[test]
fn by_default_a_string_grown_by_appends_ends_at_the_string_limit() {
    // Each `s+=` grows the value in place; copying it per append made this quadratic.
    ends_bounded(
        r#"k=$(printf 'x%.0s' {1..1000}); s=; for ((i=0; i<1000000; i++)); do s+=$k; done"#,
        Ends::AtLimit("string length limit exceeded (268435456 bytes)"),
    );
    let r = ends_bounded(
        r#"k=$(printf 'x%.0s' {1..1000}); s=; for ((i=0; i<100000; i++)); do s+=$k; done; echo ${#s}"#,
        Ends::With(0),
    );
    assert_eq!(r.stdout, "100000000\n");
}

#[test]
fn by_default_an_endless_copy_ends_at_the_io_limit() {
    ends_bounded(
        "cat /dev/zero > /dev/null",
        Ends::AtLimit("I/O limit exceeded (17179869184 bytes)"),
    );
    ends_bounded("yes | cat > /dev/null", Ends::AtLimit("I/O limit exceeded"));
    // While a pipeline over hundreds of megabytes runs to its end.
    let r = ends_bounded(
        "head -c 300000000 /dev/zero | cat | tr '\\0' a | wc -c",
        Ends::With(0),
    );
    assert_eq!(r.stdout, "300000000\n");
}

#[test]
fn by_default_rereading_a_file_by_name_ends_at_the_io_limit() {
    // `wc -c f` writes a few bytes per round: only its reads of `f` (200 MB each,
    // charged as reading them from stdin is) bring the loop to the 16 GiB budget.
    ends_bounded(
        "head -c 200000000 /dev/zero > f; while :; do wc -c f; done > /dev/null",
        Ends::AtLimit("I/O limit exceeded (17179869184 bytes)"),
    );
    ends_bounded(
        "head -c 200000000 /dev/zero > f; while :; do grep -c x f; done > /dev/null",
        Ends::AtLimit("I/O limit exceeded (17179869184 bytes)"),
    );
    // While pipelines over a few hundred megabytes of named files still finish.
    let r = ends_bounded(
        "head -c 200000000 /dev/zero > f; wc -c f; cat f | tr '\\0' a > g; rm f; grep -c a g; sort g | wc -c",
        Ends::With(0),
    );
    assert_eq!(r.stdout, "200000000 f\n1\n200000001\n");
}

#[test]
fn by_default_deep_recursion_and_nesting_end_at_their_limits() {
    ends_bounded(
        "f(){ f; }; f",
        Ends::AtLimit("function call depth limit exceeded"),
    );
    ends_bounded("f(){ echo x | f; }; f", Ends::AtLimit("limit exceeded"));
    ends_bounded(
        "f(){ x=$(f); }; f",
        Ends::AtLimit("subshell nesting limit exceeded"),
    );
    ends_bounded(
        r#"s='$(echo x)'; for i in $(seq 1000); do s="\$(echo $s)"; done; eval "echo $s""#,
        Ends::AtLimit("limit exceeded"),
    );
}

#[test]
fn by_default_a_regex_bomb_ends_at_once() {
    // Matching takes linear time: no match, and no limit needed.
    ends_bounded(
        r#"x=$(printf 'a%.0s' {1..20000}); [[ ${x}b =~ ^(a|aa)*(a|aa)*c$ ]]"#,
        Ends::With(1),
    );
    ends_bounded(
        r#"printf 'a%.0s' {1..20000} | grep -E '^(a*)*(a|aa)*c$'"#,
        Ends::With(1),
    );
}

#[test]
fn by_default_descriptors_run_out_as_under_ulimit_n() {
    let r = ends_bounded(
        "while exec {fd}</dev/null; do :; done 2>/dev/null; echo last $fd",
        Ends::With(0),
    );
    assert_eq!(r.stdout, "last 1023\n");
}

#[test]
fn by_default_a_flood_of_background_jobs_ends_at_the_job_limit() {
    ends_bounded(
        "while :; do sleep 100 & done",
        Ends::AtLimit("background job limit exceeded (256 jobs)"),
    );
    ends_bounded(
        "while :; do { while :; do :; done; } & done",
        Ends::AtLimit("limit exceeded"),
    );
}

/// A decompression bomb (a few hundred bytes that inflate past the file size limit)
/// stops at that limit with its message instead of inflating into memory: `gunzip`
/// and `zcat` hold at most the limit, and `tar -z` at most the filesystem's size.
#[test]
fn decompression_bombs_stop_at_the_size_limits() {
    // 8 MiB of zeros is 8 KiB of gzip; the file size limit here is 1 MiB.
    let make = "head -c 8388608 /dev/zero | gzip -c > /tmp/bomb.gz";
    let o = stopped_by(
        &format!("{make}; gunzip /tmp/bomb.gz"),
        "gzip: file size limit exceeded (1048576 bytes)",
    );
    assert!(o.stderr.contains("gzip: /tmp/bomb.gz: File too large"));
    stopped_by(
        &format!("{make}; zcat /tmp/bomb.gz | wc -c"),
        "gzip: file size limit exceeded (1048576 bytes)",
    );
    stopped_by(
        &format!("{make}; gzip -dc < /tmp/bomb.gz > /dev/null"),
        "gzip: file size limit exceeded (1048576 bytes)",
    );
    // A tar member of 8 MiB cannot be made under these limits, so the bomb is a gzip of
    // zeros presented as a .tar.gz: it must inflate no further than the 4 MiB filesystem.
    stopped_by(
        &format!("{make}; tar -xzf /tmp/bomb.gz"),
        "tar: filesystem size limit exceeded (4194304 bytes)",
    );
    // Within the limits the same commands still work.
    let o = run_with(
        tight(),
        "head -c 1000 /dev/zero | gzip -c > /tmp/s.gz; zcat /tmp/s.gz | wc -c".to_owned(),
    );
    assert_eq!((o.status, o.stdout.as_str()), (0, "1000\n"));
}

/// The same bomb as bzip2 data: `bunzip2` and `bzcat` stop at the file size limit, and
/// `bzip2 -t`, which keeps no output, reads it to the end.
#[test]
fn bzip2_bombs_stop_at_the_file_size_limit() {
    let make = "head -c 8388608 /dev/zero | bzip2 -c > /tmp/bomb.bz2";
    let o = stopped_by(
        &format!("{make}; bunzip2 /tmp/bomb.bz2"),
        "bunzip2: file size limit exceeded (1048576 bytes)",
    );
    assert!(o.stderr.contains("bunzip2: /tmp/bomb.bz2: File too large"));
    stopped_by(
        &format!("{make}; bzcat /tmp/bomb.bz2 | wc -c"),
        "bzcat: file size limit exceeded (1048576 bytes)",
    );
    stopped_by(
        &format!("{make}; bzip2 -dc < /tmp/bomb.bz2 > /dev/null"),
        "bzip2: file size limit exceeded (1048576 bytes)",
    );
    let o = run_with(tight(), format!("{make}; bzip2 -t /tmp/bomb.bz2; echo $?"));
    assert_eq!((o.status, o.stdout.as_str()), (0, "0\n"));
}

/// The same bomb as xz data: `unxz` and `xzcat` stop at the file size limit, and
/// `xz -t`, which keeps no output, reads it to the end.
#[test]
fn xz_bombs_stop_at_the_file_size_limit() {
    let make = "head -c 2097152 /dev/zero | xz -c > /tmp/bomb.xz";
    let o = stopped_by(
        &format!("{make}; unxz /tmp/bomb.xz"),
        "unxz: file size limit exceeded (1048576 bytes)",
    );
    assert!(o.stderr.contains("unxz: /tmp/bomb.xz: File too large"));
    stopped_by(
        &format!("{make}; xzcat /tmp/bomb.xz | wc -c"),
        "xzcat: file size limit exceeded (1048576 bytes)",
    );
    stopped_by(
        &format!("{make}; xz -dc < /tmp/bomb.xz > /dev/null"),
        "xz: file size limit exceeded (1048576 bytes)",
    );
    let o = run_with(tight(), format!("{make}; xz -t /tmp/bomb.xz; echo $?"));
    assert_eq!((o.status, o.stdout.as_str()), (0, "0\n"));
}

/// A key or index that holds shell code is data (issue 23): arithmetic, `[[ -v ]]`,
/// `[[ -eq ]]` and subscripts in expansions read it once and never run it, however it
/// is quoted, nested or combined, in the contexts where bash 5.2 expands it once.
#[test]
fn subscripts_holding_code_are_never_run() {
    let payloads = [
        "$(touch /tmp/pwned)",
        "`touch /tmp/pwned`",
        "$(touch /tmp/pwned)]",
        "x]+$(touch /tmp/pwned)",
        "'$(touch /tmp/pwned)'",
        "\"$(touch /tmp/pwned)\"",
        "\\$(touch /tmp/pwned)",
        "${x:=$(touch /tmp/pwned)}",
        "$(touch /tmp/pwned\n)",
        "a[$(touch /tmp/pwned)]",
    ];
    let uses = [
        "(( A[$k]++ ))",
        "(( A[$k] = 1, A[$k] += A[$k] ))",
        ": $(( A[$k] ))",
        ": \"$(( A[$k] + 1 ))\"",
        "for (( n = 0; A[$k] < 3 && n < 3; A[$k]++, n++ )); do :; done",
        "(( a[A[$k]] ))",
        ": ${s:A[$k]:1}",
        ": ${a[A[$k]]}",
        "[[ -v A[$k] ]]",
        "[[ A[$k] -eq 1 ]]",
        "[[ a[A[$k]] -ge 0 ]]",
        "(( a[$k] )) 2>/dev/null",
    ];
    for p in payloads {
        for u in uses {
            let script = format!(
                "declare -A A; a=(1 2); s=abc; k='{}'\n{u}\n[ -e /tmp/pwned ] && echo RAN",
                p.replace('\'', "'\\''")
            );
            let o = run_with(tight(), script.clone());
            assert!(!o.stdout.contains("RAN"), "{script}\nran the key's code");
        }
    }
}

/// Opening a FIFO nobody else opens waits for ever in bash; here the time limit ends
/// the wait, whether the shell opens it (a redirection) or a utility does.
#[test]
fn the_time_limit_ends_a_fifo_open_with_no_partner() {
    for script in [
        "mkfifo p; cat < p; echo after",
        "mkfifo p; echo x > p; echo after",
        "mkfifo p; cat p; echo after",
        "mkfifo p; echo x | tee p; echo after",
    ] {
        let mut l = tight();
        l.timeout = Some(Duration::from_millis(300));
        let o = run_with(l, script.to_owned());
        assert_eq!(o.status, 126, "{script}: {}", o.stderr);
        assert!(
            o.stderr.contains("time limit exceeded"),
            "{script}: {}",
            o.stderr
        );
        assert!(!o.stdout.contains("after"), "{script}: {}", o.stdout);
        assert!(
            o.elapsed < Duration::from_secs(5),
            "{script}: {:?}",
            o.elapsed
        );
    }
}
