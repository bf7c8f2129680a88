#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! Mechanism-level differential fuzzer against real bash (issue 23), behind
//! `CONFIRM_BASH=1`: one generator of small scripts per area of the manual (traps ×
//! functions × subshells, namerefs × attributes × scopes, `declare -p` round trips,
//! `getopts`, `printf`/`read`/`mapfile`, parameter expansion operators, redirections and
//! here-documents, `set -e` contexts, arithmetic in every context that evaluates it,
//! `[[ ]]`/`test`/`[` conditionals, word expansion (splitting, `$@`, brace, tilde,
//! globbing, command substitution), commands printed back (`declare -f`, xtrace,
//! `$BASH_COMMAND`, `trap -p`), functions, scoping and control flow (`local`
//! shadowing and `unset`, `return`/`exit`/`break`/`continue`, `$?` after compound
//! commands, `caller`, `PIPESTATUS`, `pipefail`, `lastpipe`), arrays (every assignment
//! form, subscripts, `@`/`*` expansions and their operators, `unset`, `-v`,
//! `declare -p`, `read -a`, `mapfile`), pattern matching (`case` and its terminators,
//! `[[ == ]]`, the `${x#pat}`/`${x/pat/rep}` family, bracket expressions, extglob,
//! pathname expansion over a fixed tree with its shopts and `GLOBIGNORE`, under
//! `LC_ALL=C`), job control (`&`/`$!`, `wait`, `jobs`, `kill`, `disown`, `fg`/`bg`,
//! `set -m`, traps on signals sent to the shell or its jobs, `coproc`, `$BASHPID`,
//! `timeout`; stderr passes through `sed` so that no PID is compared). Each script runs
//! under `target/release/shellbox -c` and `/bin/bash -c` (in a temporary directory, stdin
//! `/dev/null`, a 10 s timeout); stdout, stderr and exit status must agree. Unlike
//! `bash_diff.rs` it does not stop at the first disagreement: it runs every case, prints
//! the first few disagreements in full and the count per area, then fails if any.
//!
//! ```text
//! CONFIRM_BASH=1 cargo test --release --test mech_diff -- --test-threads=1
//! CONFIRM_BASH=1 MECH_DIFF_CASES=2000 MECH_DIFF_SEED=7 cargo test --release \
//!     --test mech_diff namerefs -- --test-threads=1 --nocapture
//! ```
//!
//! `MECH_DIFF_CASES` (default 200) is the number of scripts per area, `MECH_DIFF_SEED`
//! (default 1) picks the sequence, `MECH_DIFF_SHOW` (default 8) how many disagreements
//! are printed in full, and `MECH_DIFF_OUT=dir` writes every disagreeing script there
//! (`AREA-N.sh`). Generated scripts are deterministic: no `$$`, `$RANDOM`, clock or host
//! paths, so any difference is shellbox's.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

type Out = (String, String, i32);

/// One of the fragments of `text`, which are separated by `¦` (and trimmed).
fn pick(text: &'static str) -> BoxedStrategy<String> {
    let items: Vec<String> = text
        .split('¦')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    prop::sample::select(items).boxed()
}

/// One of the fragments of `text`, which are separated by `¦` or line ends (and trimmed).
fn frag(text: &'static str) -> BoxedStrategy<String> {
    let items: Vec<String> = text
        .split(['¦', '\n'])
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    prop::sample::select(items).boxed()
}

/// One of the given fragments.
fn sel(items: &[&'static str]) -> BoxedStrategy<String> {
    prop::sample::select(items.to_vec())
        .prop_map(str::to_owned)
        .boxed()
}

/// Up to `max - 1` of the fragments of `text` (see [`pick`]), joined by spaces.
fn options(text: &'static str, max: usize) -> BoxedStrategy<String> {
    prop::collection::vec(pick(text), 0..max)
        .prop_map(|v| v.join(" "))
        .boxed()
}

/// `n` lines drawn from `line`, joined by newlines.
fn lines(line: BoxedStrategy<String>, n: std::ops::Range<usize>) -> BoxedStrategy<String> {
    prop::collection::vec(line, n)
        .prop_map(|v| v.join("\n"))
        .boxed()
}

/// Runs `cmd` with stdin `/dev/null`: its stdout, stderr and status (-2 when it was
/// killed at the 10 s deadline).
fn run(cmd: &mut Command) -> Out {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start a shell");
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t1 = std::thread::spawn(move || {
        let mut b = Vec::new();
        so.read_to_end(&mut b).ok();
        b
    });
    let t2 = std::thread::spawn(move || {
        let mut b = Vec::new();
        se.read_to_end(&mut b).ok();
        b
    });
    let start = Instant::now();
    let code = loop {
        if let Ok(Some(st)) = child.try_wait() {
            // A shell a signal killed is `128+N` to its parent, as shellbox's CLI
            // exits when its shell dies of one.
            use std::os::unix::process::ExitStatusExt;
            break st.code().or(st.signal().map(|s| 128 + s)).unwrap_or(-1);
        }
        if start.elapsed() > Duration::from_secs(10) {
            child.kill().ok();
            child.wait().ok();
            break -2;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let out = t1.join().unwrap_or_default();
    let err = t2.join().unwrap_or_default();
    (
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
        code,
    )
}

fn shellbox(script: &str) -> Out {
    run(Command::new(env!("CARGO_BIN_EXE_shellbox")).args(["--timeout", "10", "-c", script]))
}

fn bash(script: &str, dir: &std::path::Path) -> Out {
    use std::os::unix::process::CommandExt;
    let work = dir.join("workspace");
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    run(Command::new("/bin/bash")
        .arg0("bash")
        .args(["-c", script])
        .current_dir(&work)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", dir.to_string_lossy().as_ref())
        .env("LC_ALL", "C.UTF-8"))
}

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Runs `MECH_DIFF_CASES` scripts of `area` under both shells and fails listing the
/// disagreements.
fn check_area(area: &str, strategy: BoxedStrategy<String>) {
    if std::env::var("CONFIRM_BASH").is_err() {
        return;
    }
    let cases = env_num("MECH_DIFF_CASES", 200);
    let show = env_num("MECH_DIFF_SHOW", 8) as usize;
    let seed = env_num("MECH_DIFF_SEED", 1);
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    seed_bytes[8..8 + area.len().min(24)].copy_from_slice(&area.as_bytes()[..area.len().min(24)]);
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
    let mut runner = TestRunner::new_with_rng(Config::default(), rng);
    let dir = std::env::temp_dir().join(format!("shellbox-mech-{}-{area}", std::process::id()));
    let out_dir = std::env::var("MECH_DIFF_OUT").ok();
    let mut report = Vec::new();
    let mut count = 0usize;
    for i in 0..cases {
        let src = strategy.new_tree(&mut runner).unwrap().current();
        let want = bash(&src, &dir);
        let got = shellbox(&src);
        if want == got {
            continue;
        }
        count += 1;
        if let Some(d) = &out_dir {
            std::fs::create_dir_all(d).ok();
            std::fs::write(format!("{d}/{area}-{i}.sh"), &src).ok();
        }
        if report.len() < show {
            report.push(format!(
                "--- script {i}:\n{src}\n--- bash:     {want:?}\n--- shellbox: {got:?}"
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("mech_diff {area}: {count} of {cases} scripts disagree");
    assert!(
        count == 0,
        "{area}: {count} of {cases} scripts disagree with bash\n\n{}",
        report.join("\n\n")
    );
}

// ---------------------------------------------------------------- traps

fn trap_line() -> BoxedStrategy<String> {
    prop_oneof![
        pick(
            r#"
            trap 'echo "D:$BASH_COMMAND:${FUNCNAME[*]}"' DEBUG
            trap 'echo "D:$BASH_COMMAND"' DEBUG
            trap 'echo "E:$?:$BASH_COMMAND:${FUNCNAME[0]-main}"' ERR
            trap 'echo "X:$?:$BASH_COMMAND"' EXIT
            trap 'echo "R:${FUNCNAME[*]}:$BASH_COMMAND"' RETURN ¦ trap 'echo R:$?' RETURN
            trap 'return 7' RETURN ¦ trap 'exit 4' ERR ¦ trap 'return 3' ERR
            trap 'echo D; return 1' DEBUG ¦ trap '(( 0 ))' DEBUG ¦ trap 'caller' DEBUG
            trap - DEBUG ¦ trap - ERR ¦ trap - RETURN ¦ trap -p ¦ trap -p DEBUG ERR
            trap -p EXIT RETURN ¦ trap 'echo "sig:$BASH_COMMAND"' USR1 ¦ trap '' ERR
            "#,
        ),
        pick(
            r#"
            set -E ¦ set -T ¦ set +E ¦ set +T ¦ shopt -s extdebug ¦ set -o functrace
            set -o errtrace ¦ set -e ¦ set -o pipefail
            "#,
        ),
    ]
    .boxed()
}

fn trap_cmd() -> BoxedStrategy<String> {
    pick(
        r#"
        false ¦ true ¦ echo a ¦ x=$(false) ¦ x=$(echo s; false); echo "[$x]" ¦ ( false )
        (exit 2) ¦ caller ¦ caller 0 ¦ echo "${FUNCNAME[@]}" ¦ echo "${BASH_LINENO[@]}"
        echo "$BASH_COMMAND" ¦ trap -p ¦ local v=1 ¦ [[ a == b ]] ¦ (( 0 )) ¦ (( 1 ))
        for i in 1 2; do :; done ¦ case x in x) false;; esac ¦ false || true ¦ ! false
        if false; then :; fi ¦ echo $(echo sub) ¦ f ¦ g ¦ return 3 ¦ return ¦ echo "> $(f)"
        f | cat ¦ { false; } ¦ false && true ¦ kill -USR1 $BASHPID ¦ eval false ¦ x=1 y=2
        printf '%s\n' "$x" >/dev/null ¦ echo r$?
        "#,
    )
}

fn traps_script() -> BoxedStrategy<String> {
    (
        lines(trap_line(), 0..4),
        lines(trap_cmd(), 1..4),
        lines(trap_cmd(), 1..4),
        lines(trap_line(), 0..3),
        lines(trap_cmd(), 1..5),
    )
        .prop_map(|(pre, fb, gb, mid, main)| {
            format!("f() {{\n{fb}\n}}\ng() {{\n{gb}\n}}\n{pre}\n{mid}\n{main}\necho \"end:$?\"\n")
                .replace("f() {\n", "f() {\n((depth++ < 3)) || return 9\n")
                .replace("g() {\n", "g() {\n((gdepth++ < 3)) || return 8\n")
        })
        .boxed()
}

// ---------------------------------------------------------------- namerefs

fn nameref_line() -> BoxedStrategy<String> {
    pick(
        r#"
        declare -n r=x ¦ declare -n r='arr[1]' ¦ declare -n r='h[k]' ¦ declare -n r=arr
        declare -n r=h ¦ declare -ni r=n ¦ declare -nl r=x ¦ declare -nu r=x
        declare -nx r=x ¦ declare -nr r=x ¦ declare -n -i r=x ¦ declare -n r=r
        declare -n r=1bad ¦ declare -n r ¦ declare -n s=r ¦ declare +n r ¦ declare -i r
        declare -l r ¦ declare -u x ¦ declare -i n ¦ declare -x r ¦ r=Hello ¦ r+=zz ¦ r=3+4
        r[0]=e0 ¦ r[2]=e2 ¦ s=via-s ¦ x=new ¦ echo "r=$r #=${#r} !=${!r} x=$x"
        echo "${r[@]} ${#r[@]}" ¦ echo "${!r[@]}" ¦ unset r ¦ unset -n r ¦ unset x
        export -n r ¦ export r ¦ readonly r ¦ readonly x ¦ declare -p r ¦ declare -p x
        declare -p r x arr h n 2>&1 ¦ for r in y z; do echo "for:$r"; done
        for r in x n; do echo "for:$r"; r=set; done ¦ f r ¦ f x ¦ f 'arr[0]' ¦ g
        r=tmp declare -p x ¦ r=tmp eval 'echo tmp:$x' ¦ r=tmp h ¦ local -n q=x ¦ echo $?
        declare -n ¦ declare -pn 2>&1 | grep -E ' (r|s|q)='
        "#,
    )
}

fn namerefs_script() -> BoxedStrategy<String> {
    lines(nameref_line(), 2..9)
        .prop_map(|body| {
            format!(
                "x=abc; arr=(a b c); declare -A h=([k]=v); n=5\n\
                 f() {{ local -n l=$1; l=fval; l+=+; echo \"f:$l ${{#l}}\"; declare -p l; }}\n\
                 g() {{ local x=gx; declare -n r=x; r=glocal; echo \"g:$x\"; }}\n\
                 h() {{ echo \"h:$r:$x\"; }}\n{body}\n\
                 declare -p x r arr h n 2>&1\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- declare -p round trips

fn odd_value() -> BoxedStrategy<String> {
    pick(
        r#"
        '' ¦ 'a b' ¦ $'a\nb' ¦ $'tab\there' ¦ $'\001\x7f' ¦ "quote'd" ¦ 'dq"x'
        'back\slash' ¦ '$dollar' ¦ 'é ü 中' ¦ $'\e[0m' ¦ '*?[' ¦ '~' ¦ '!bang' ¦ '`tick`'
        $'\r' ¦ $'x\ty\n' ¦ 12 ¦ -3 ¦ '1+2' ¦ $'\xff' ¦ 'a=b' ¦ '[x]'
        "#,
    )
}

fn odd_key() -> BoxedStrategy<String> {
    pick(
        r#"
        k ¦ 'a b' ¦ $'\n' ¦ '*' ¦ '"' ¦ "'" ¦ 1 ¦ -1 ¦ '$x' ¦ 'é' ¦ '@' ¦ 'a]b' ¦ '\\'
        $'\t' ¦ '!' ¦ ' '
        "#,
    )
}

fn attrs() -> BoxedStrategy<String> {
    sel(&[
        "", "-i", "-l", "-u", "-x", "-r", "-t", "-il", "-lu", "-ix", "-ir", "-xr", "-lx", "-ul",
        "-g", "+x", "-i -u",
    ])
}

fn decl_line() -> BoxedStrategy<String> {
    prop_oneof![
        (attrs(), 0..3usize, odd_value())
            .prop_map(|(a, i, v)| format!("declare {a} v{i}={v}")),
        (attrs(), 0..3usize, prop::collection::vec(odd_value(), 0..4))
            .prop_map(|(a, i, vs)| format!("declare -a {a} a{i}=({})", vs.join(" "))),
        (0..3usize, 0..9usize, odd_value()).prop_map(|(i, k, v)| format!("a{i}[{k}]={v}")),
        (attrs(), 0..3usize, prop::collection::vec((odd_key(), odd_value()), 0..4)).prop_map(
            |(a, i, kv)| {
                let body: Vec<String> = kv.iter().map(|(k, v)| format!("[{k}]={v}")).collect();
                format!("declare -A {a} h{i}=({})", body.join(" "))
            }
        ),
        (0..3usize, odd_key(), odd_value()).prop_map(|(i, k, v)| format!("h{i}[{k}]={v}")),
        (0..3usize, odd_value()).prop_map(|(i, v)| format!("v{i}+={v}")),
        (0..3usize, odd_value()).prop_map(|(i, v)| format!("readonly v{i}={v}")),
        (0..3usize, odd_value()).prop_map(|(i, v)| format!("export v{i}={v}")),
        (0..3usize, odd_value()).prop_map(|(i, v)| format!("local v{i}={v}")),
        (attrs(), 0..3usize).prop_map(|(a, i)| format!("declare {a} v{i}")),
        (attrs(), 0..3usize).prop_map(|(a, i)| format!("declare {a} a{i}")),
        (0..3usize).prop_map(|i| format!("unset v{i} a{i}[1] 'h{i}[k]'")),
        (0..3usize).prop_map(|i| format!("declare -a h{i}")),
        (0..3usize).prop_map(|i| format!("declare -A a{i}")),
        (0..3usize).prop_map(|i| format!("declare -p v{i} a{i} h{i}")),
        (0..3usize).prop_map(|i| format!(
            "s=$(declare -p v{i} a{i} h{i} 2>/dev/null); echo \"$s\"; unset v{i} a{i} h{i} 2>/dev/null; eval \"$s\"; declare -p v{i} a{i} h{i}"
        )),
        (0..3usize).prop_map(|i| format!("echo \"${{v{i}@Q}} ${{a{i}[@]@Q}} ${{h{i}[@]@K}}\"")),
        (0..3usize).prop_map(|i| format!("echo \"${{v{i}@A}}\"; echo \"${{a{i}[@]@A}}\"; echo \"${{h{i}@a}}\"")),
        pick(
        r#"
        readonly -p | grep -E ' (v|a|h)[0-9]' ¦ export -p | grep -E ' (v|a|h)[0-9]'
        declare -p | grep -E '^declare -[^ ]+ (v|a|h)[0-9]'
        declare | grep -E '^(v|a|h)[0-9]=' ¦ declare -x | grep -E ' (v|a|h)[0-9]'
        declare -r | grep -E ' (v|a|h)[0-9]' ¦ declare -a | grep -E ' (v|a|h)[0-9]'
        declare -A | grep -E ' (v|a|h)[0-9]' ¦ declare -i | grep -E ' (v|a|h)[0-9]'
        declare -pl | grep -E ' (v|a|h)[0-9]' ¦ echo $? ¦ f ¦ declare -p nosuch
        declare -z v0
        "#,
    ),
    ]
    .boxed()
}

fn declare_script() -> BoxedStrategy<String> {
    (lines(decl_line(), 1..5), lines(decl_line(), 1..7))
        .prop_map(|(fbody, body)| {
            format!(
                "f() {{\n{fbody}\ndeclare -p v0 v1 a0 h0 2>&1\n}}\n{body}\necho \"st=$?\"\ndeclare -p v0 v1 v2 a0 a1 a2 h0 h1 h2 2>&1\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- getopts

fn getopts_script() -> BoxedStrategy<String> {
    let arg = pick(
        r#"
        -a ¦ -b ¦ -bval ¦ -ab ¦ -ba ¦ -c ¦ -x ¦ -- ¦ - ¦ arg ¦ '' ¦ -a- ¦ -: ¦ -? ¦ -cb
        -acx ¦ '-b x' ¦ -bc
        "#,
    );
    (
        prop::sample::select(vec!["", ":"]),
        prop::collection::vec(sel(&["a", "b:", "c", "c:", "x", "?", ":"]), 0..4),
        prop::collection::vec(arg, 0..6),
        sel(&["", "OPTERR=0", "OPTERR=1", "OPTIND=2", "OPTIND=0", "unset OPTARG"]),
        0..4usize,
    )
        .prop_map(|(silent, letters, args, pre, shape)| {
            let os = format!("{silent}{}", letters.concat());
            let args = args.join(" ");
            let report = "echo \"[$opt] OPTIND=$OPTIND OPTARG=${OPTARG-unset} rc=$?\"";
            match shape {
                0 => format!(
                    "{pre}\nset -- {args}\nn=0; while getopts '{os}' opt && (( n++ < 20 )); do {report}; done\necho \"end rc=$? opt=$opt OPTIND=$OPTIND OPTARG=${{OPTARG-unset}}\"\nshift $((OPTIND-1)); echo \"rest: $*\"\n"
                ),
                1 => format!(
                    "{pre}\nn=0; while getopts '{os}' opt {args} && (( n++ < 20 )); do {report}; done\necho \"end opt=$opt OPTIND=$OPTIND\"\n"
                ),
                2 => format!(
                    "f() {{ local OPTIND=1 opt; n=0; while getopts '{os}' opt \"$@\" && (( n++ < 20 )); do {report}; done; echo \"f OPTIND=$OPTIND\"; }}\n{pre}\nf {args}\nf {args}\necho \"after OPTIND=$OPTIND\"\n"
                ),
                _ => format!(
                    "{pre}\ngetopts '{os}' opt {args}; echo \"1 rc=$? [$opt] $OPTIND ${{OPTARG-u}}\"\ngetopts '{os}' opt {args}; echo \"2 rc=$? [$opt] $OPTIND ${{OPTARG-u}}\"\ngetopts '{os}'; echo \"3 rc=$?\"\ngetopts; echo \"4 rc=$?\"\n"
                ),
            }
        })
        .boxed()
}

// ---------------------------------------------------------------- printf / read / mapfile

fn printf_line() -> BoxedStrategy<String> {
    let fmt = pick(
        r#"
        %s ¦ %d ¦ %5.2f ¦ %x ¦ %o ¦ %e ¦ %g ¦ %b ¦ %q ¦ %c ¦ %i ¦ %u ¦ %X ¦ %% ¦ %-5s|
        %05d ¦ %+d ¦ % d ¦ %*d ¦ %.*s ¦ %10.3s ¦ %#x ¦ %(%Y-%m-%d %H)T ¦ %(%s)T ¦ %-8q|
        %.3b ¦ %#o ¦ %'d ¦ %z ¦ %5% ¦ \n ¦ \t ¦ \x41 ¦ \101 ¦ \u00e9 ¦ \c ¦ %ld ¦ %hhd
        %.0f ¦ %G ¦ %a ¦ [ ¦ %10s ¦ %-+5d ¦ %s%s
        "#,
    );
    let arg = pick(
        r#"
        42 ¦ -7 ¦ 0x1f ¦ 010 ¦ 3.5 ¦ abc ¦ '' ¦ 'a b' ¦ $'a\nb' ¦ "'x" ¦ 1e3
        99999999999999999999 ¦ é ¦ '\t\x41\c' ¦ ' 12' ¦ '12 ' ¦ - ¦ +5 ¦ 0 ¦ '\0101' ¦ "'é"
        3 ¦ -3 ¦ inf ¦ 'a\nb' ¦ '$x' ¦ '\'
        "#,
    );
    (
        prop::collection::vec(fmt, 1..4),
        prop::collection::vec(arg, 0..5),
        0..3usize,
    )
        .prop_map(|(f, a, shape)| {
            let f = f.concat();
            let a = a.join(" ");
            match shape {
                0 => format!("printf '{f}' {a}; echo \" rc=$?\""),
                1 => format!("printf -v out '{f}' {a}; echo \"rc=$? ${{out@Q}}\""),
                _ => format!("printf -- '{f}\\n' {a}; echo \"rc=$?\""),
            }
        })
        .boxed()
}

fn read_line() -> BoxedStrategy<String> {
    let opts = options(
        r#"
        -r ¦ -d '' ¦ -d : ¦ -d x ¦ -n 3 ¦ -N 3 ¦ -n 0 ¦ -N 0 ¦ -a arr ¦ -p 'P> ' ¦ -t 0
        -s ¦ -e ¦ -n x ¦ -u 0 ¦ -d ab
        "#,
        3,
    );
    let input = pick(
        r#"
        $'a b c\nd e' ¦ '  lead  trail  ' ¦ $'x\\\ny z' ¦ 'a:b:c' ¦ '' ¦ $'one\n' ¦ 'é中 ü'
        $'tab\tsep\tend' ¦ 'back\slash x' ¦ 'a,b,,c' ¦ $'\n\n' ¦ 'w1   w2 w3 w4' ¦ $'a\x00b'
        'xyz:abc'
        "#,
    );
    let ifs = sel(&[
        "",
        "IFS= ",
        "IFS=: ",
        "IFS=, ",
        "IFS=$' \\t' ",
        "IFS=' :' ",
        "IFS=x ",
    ]);
    let vars = sel(&["", "v", "v w", "v w z", "-- v"]);
    (opts, input, ifs, vars, 0..3usize)
        .prop_map(|(o, inp, ifs, vars, shape)| {
                        let show = "echo \"rc=$? v=${v@Q} w=${w@Q} z=${z@Q} R=${REPLY@Q}\"; declare -p arr 2>/dev/null";
            match shape {
                0 => format!("{ifs}read {o} {vars} <<< {inp}; {show}"),
                1 => format!(
                    "printf '%s' {inp} > f; n=0; while (( n++ < 6 )) && {ifs}read {o} {vars}; do {show}; done < f; {show}"
                ),
                _ => format!("{ifs}read {o} {vars} < /dev/null; {show}"),
            }
        })
        .boxed()
}

fn mapfile_line() -> BoxedStrategy<String> {
    let opts = options(
        r#"
        -t ¦ -d '' ¦ -d : ¦ -n 2 ¦ -n 0 ¦ -O 3 ¦ -O 1 ¦ -s 1 ¦ -s 5 ¦ -C cb ¦ -c 1
        -c 2 ¦ -C cb -c 1 ¦ -c 0 ¦ -n -1 ¦ -O -1 ¦ -s x ¦ -u 0 ¦ -u 9 ¦ -C ¦ -d
        "#,
        4,
    );
    let input = pick(
        r#"
        $'a\nb\nc\n' ¦ 'x:y:z' ¦ $'l1\nl2' ¦ '' ¦ $'\n\n\n' ¦ $'é\n中\n' ¦ $'a b\n c d \n'
        "#,
    );
    let name = sel(&["", "arr", "MAPFILE", "'bad name'", "arr extra"]);
    let cmd = sel(&["mapfile", "readarray"]);
    (cmd, opts, input, name, 0..2usize)
        .prop_map(|(cmd, o, inp, name, pre)| {
                        let setup = if pre == 1 { "arr=(old0 old1 old2 old3 old4); " } else { "" };
            format!(
                "cb() {{ echo \"cb:$1:${{2@Q}}\"; }}\n{setup}{cmd} {o} {name} <<< {inp}; echo \"rc=$?\"; declare -p arr MAPFILE 2>&1"
            )
        })
        .boxed()
}

fn io_script() -> BoxedStrategy<String> {
    lines(
        prop_oneof![printf_line(), read_line(), mapfile_line()].boxed(),
        1..4,
    )
    .prop_map(|b| format!("export TZ=UTC\n{b}\n"))
    .boxed()
}

// ---------------------------------------------------------------- parameter expansion

fn param_word() -> BoxedStrategy<String> {
    let name = pick(
        r#"
        s ¦ e ¦ u ¦ a[@] ¦ a[*] ¦ a[1] ¦ a[-1] ¦ A[@] ¦ A[*] ¦ A[k] ¦ n ¦ sp ¦ q ¦ a ¦ A
        ctl ¦ uni ¦ A['a b'] ¦ a[9] ¦ e[@] ¦ u[@]
        "#,
    );
    let op = sel(&[
        "",
        "@Q",
        "@E",
        "@P",
        "@A",
        "@a",
        "@U",
        "@u",
        "@L",
        "@K",
        "@k",
        ":-w",
        "-w",
        ":+w",
        "+w",
        ":?",
        "?msg",
        ":1:2",
        ": -2",
        ":1",
        ":0:-1",
        "#?",
        "##*o",
        "%o*",
        "%%[a-z]*",
        "#H",
        "/l/L",
        "//l/L",
        "/#H/J",
        "/%d/D",
        "//ö/oe",
        "/*/x",
        "//?/_",
        "^",
        "^^",
        ",,",
        ",",
        "~~",
        "~",
        "^^[lo]",
        "//[[:space:]]/_",
        "/",
        "//l",
        ":=x",
        "@",
        "@Z",
        "//\\//x",
        "/'l'/\"L\"",
        "#*[ ]",
        ":2:1000",
        ":-1:1",
    ]);
    let whole = pick(
        r#"
        ${!pre*} ¦ ${!pre@} ¦ "${!pre@}" ¦ ${!a[@]} ¦ ${!A[@]} ¦ "${!A[*]}" ¦ ${#a[@]}
        ${#A[*]} ¦ ${#s} ¦ ${#uni} ¦ ${!ind} ¦ ${!ind@Q} ¦ ${#} ¦ ${!#} ¦ ${@:2}
        "${@:1:2}" ¦ ${*@Q} ¦ "$*" ¦ ${#a} ¦ ${!u-x} ¦ ${!nosuch*} ¦ ${a[@]:1}
        "${a[@]: -2:1}" ¦ ${A[@]:0:1} ¦ ${#a[-1]} ¦ ${!a} ¦ ${!preA*} ¦ ${a[@]/#/-}
        "#,
    );
    let quoted = prop::sample::select(vec![true, false]);
    prop_oneof![
        (name, op, quoted).prop_map(|(n, o, q)| {
            if q {
                format!("\"${{{n}{o}}}\"")
            } else {
                format!("${{{n}{o}}}")
            }
        }),
        whole,
    ]
    .boxed()
}

fn param_script() -> BoxedStrategy<String> {
    (
        lines(
            prop::collection::vec(param_word(), 1..4)
                .prop_map(|w| format!("printf '<%s>' {}; echo \" rc=$?\"", w.join(" ")))
                .boxed(),
            1..6,
        ),
        sel(&["", "shopt -s extglob", "shopt -s nocasematch", "shopt -s patsub_replacement", "set -u", "set -- p1 'p 2' '' p4", "IFS=:"]),
    )
        .prop_map(|(body, pre)| {
            format!(
                "s='Hello Wörld'; e=''; unset u; a=(x 'y z' '' é); declare -A A=([k]=v ['a b']=$'c\\td' [é]=ü)\n\
                 n=42; sp=$' a\\tb  '; q=\"it's\"; ctl=$'x\\001y\\e'; uni='日本語テキスト'; ind=s\n\
                 pre1=1 pre2=2 preA=3; set -- one 'two three'\n{pre}\n{body}\necho \"end:$?\"\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- redirections

fn redir_op() -> BoxedStrategy<String> {
    frag(
        r#"
        >f1 ¦ >>f1 ¦ 2>f2 ¦ 2>>f2 ¦ 2>&1 ¦ >&2 ¦ <f1 ¦ <>f1 ¦ &>f1 ¦ &>>f2 ¦ >|f1 ¦ 1>&3
        3>&1 ¦ 3>f3 ¦ 4<f1 ¦ >&- ¦ 2>&- ¦ <&- ¦ 3>&- ¦ 3>&1- ¦ 4<&0- ¦ 2>&1- ¦ >&3-
        {fd}>f2 ¦ {fd}<f1 ¦ {fd}>&- ¦ {fd}>&1 ¦ >$nosuch ¦ >$empty ¦ >$two ¦ >"$two"
        <nosuch ¦ >nodir/x ¦ 5>&6 ¦ <&7 ¦ >&9 ¦ <<<word ¦ <<<"$two" ¦ <<<$two ¦ >/dev/null
        2>/dev/null ¦ >&$empty ¦ >$glob ¦ 0<f2 ¦ 1<>f2 ¦ >&1 ¦ 8>&2 ¦ 2>&8 ¦ >f1 >f2
        2>&1 >f1 ¦ >f1 2>&1 ¦ 3<>f3 ¦ >>f3 ¦ >/dev/stderr ¦ 2>/dev/stdout ¦ >/dev/fd/3
        <${u?unset} ¦ >"$(echo f2)" ¦ >f$((1+1)) ¦ 1>&"$n"
        "#,
    )
}

/// A command the redirections apply to. In a pipeline only the last stage may write
/// anywhere but the pipe or read what the script writes: two stages that both do
/// interleave (or kill the writer with SIGPIPE) as the scheduler decides, so `f`
/// comes last (`: | f`), never first.
fn redir_cmd() -> BoxedStrategy<String> {
    frag(
        r#"
        echo out ¦ echo err >&2 ¦ { echo o; echo e >&2; } ¦ cat ¦ cat f1 ¦ f ¦ g
        ( echo sub; echo se >&2 ) ¦ read -r v; echo "v=$v" ¦ echo to3 >&3 ¦ cat <&4
        printf x >&5 ¦ for i in 1 2; do echo "i$i"; done ¦ if true; then echo t; fi
        m=0; while ((m++ < 4)) && read -r l; do echo "l:$l"; done ¦ echo "fd=$fd" ¦ echo hi >&$fd ¦ :
        cat /dev/fd/3 ¦ echo $(echo cs >&2; echo cso) ¦ true ¦ false ¦ x=1 ¦ echo x$x
        cat <&$fd ¦ : | f ¦ echo pipe | cat ¦ eval 'echo ev' ¦ command echo cmd
        echo "$(cat f1)" ¦ builtin echo bi ¦ case a in a) echo ca;; esac ¦ local l=1
        "#,
    )
}

fn redir_line() -> BoxedStrategy<String> {
    prop_oneof![
        4 => (redir_cmd(), prop::collection::vec(redir_op(), 0..3))
            .prop_map(|(c, r)| format!("{c} {}; echo \"rc=$?\"", r.join(" "))),
        2 => (redir_cmd(), prop::collection::vec(redir_op(), 1..3))
            .prop_map(|(c, r)| format!("{{ {c}; }} {}; echo \"rc=$?\"", r.join(" "))),
        2 => prop::collection::vec(redir_op(), 1..3)
            .prop_map(|r| format!("exec {}; echo \"exec=$?\"", r.join(" "))),
        1 => prop::collection::vec(redir_op(), 1..3)
            .prop_map(|r| format!("{}; echo \"bare=$?\"", r.join(" "))),
        1 => heredoc_piece(),
        2 => frag(
            r#"
            set -C ¦ set +C ¦ echo init >f1 ¦ cat f1 ¦ cat f2 ¦ cat f3 ¦ exec 3>f3
            exec {fd}>f2; echo "fd=$fd" ¦ exec {fd}>&- ¦ exec 4<f1 ¦ exec 3>&- ¦ exec 2>&1
            exec >f2 ¦ exec 1>&8 ¦ exec 8>&1 ¦ exec 6>&- 7<&- ¦ cat f1 f2 f3 2>&1
            shopt -s varredir_close ¦ f >f2 2>&1 ¦ g <f1 ¦ declare -f f g
            "#,
        ),
    ]
    .boxed()
}

fn heredoc_piece() -> BoxedStrategy<String> {
    let body = frag(
        r#"
        plain ¦ $two ¦ ${n} ¦ $(echo cs) ¦ `echo bt` ¦ $((1+2)) ¦ a\$b ¦ back\\slash
        cont\ ¦ 'sq' ¦ "dq" ¦ \x ¦ \" ¦ ${u-dflt} ¦ *
        "#,
    );
    let delim = sel(&["EOF", "'EOF'", "\"EOF\"", "E\\OF", "-"]);
    (
        delim,
        prop::collection::vec(body, 1..4),
        prop::bool::ANY,
        0..5usize,
    )
        .prop_map(|(d, b, dash, shape)| {
            let word = d.replace(['\'', '"', '\\'], "");
            let op = if dash { "<<-" } else { "<<" };
            let tab = if dash { "\t" } else { "" };
            let body: Vec<String> = b.iter().map(|l| format!("{tab}{l}")).collect();
            let doc = format!("{}\n{tab}{word}", body.join("\n"));
            match shape {
                0 => format!("cat {op}{d}\n{doc}\necho \"rc=$?\""),
                1 => format!("x=$(cat {op}{d}\n{doc}\n); echo \"[$x]\""),
                2 => format!("h() {{\ncat {op}{d}\n{doc}\n}}\nh; declare -f h"),
                3 => format!("cat {op}{d} >f1\n{doc}\ncat f1"),
                _ => format!(
                    "while read -r w; do echo \"w=$w\"; done {op}{d}\n{doc}\necho \"rc=$?\""
                ),
            }
        })
        .boxed()
}

fn redirs_script() -> BoxedStrategy<String> {
    (
        lines(redir_line(), 1..4),
        lines(redir_line(), 2..7),
    )
        .prop_map(|(fbody, body)| {
            format!(
                "two='a b'; empty=; n=1; glob='f*'\nf() {{\n((depth++ < 2)) || return 9\n{fbody}\n}}\ng() {{ echo g-out; echo g-err >&2; }}\n\
                 {body}\necho \"end:$?\" >&2\nexec >&2 2>/dev/null; cat f1 f2 f3 2>&1\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- errexit

fn errexit_cmd() -> BoxedStrategy<String> {
    frag(
        r#"
        false ¦ true ¦ echo a ¦ f ¦ g ¦ ! false ¦ ! true ¦ false || echo or ¦ ! f
        false && echo and ¦ true && false ¦ if f; then echo yes; fi ¦ while f; do :; done
        until true; do false; done ¦ ( false; echo in-sub ) ¦ x=$(false; echo cs); echo "x=$x"
        echo "$(false; echo cs2)" ¦ false | true ¦ true | false ¦ { false; echo brace; }
        f || echo f-failed ¦ f && echo f-ok ¦ (set -e; false; echo x) || echo sub-or
        x=$(false) ¦ eval false ¦ eval 'false; echo ev' ¦ (( 0 )) ¦ [[ a == b ]]
        case x in x) false;; esac ¦ for i in 1; do false; done ¦ : >nodir/x ¦ command false
        builtin false ¦ echo "rc=$?" ¦ f; echo "after-f=$?" ¦ set +e ¦ set -e
        shopt -s inherit_errexit ¦ set -o pipefail ¦ ( f ) ¦ g || echo g-or ¦ false; true
        echo $(f) ¦ x=$(f) ¦ r=$(g); echo "r=$r" ¦ f | cat ¦ if ! f; then echo neg; fi
        false >/dev/null ¦ { false; } || echo grp-or ¦ ( exit 3 ) ¦ local v=$(false)
        [ -n "" ] ¦ test 1 -eq 2 ¦ h ¦ h && echo h-ok ¦ trap 'echo ERR:$?' ERR
        "#,
    )
}

fn errexit_script() -> BoxedStrategy<String> {
    (
        lines(errexit_cmd(), 1..4),
        lines(errexit_cmd(), 1..3),
        lines(errexit_cmd(), 1..6),
        sel(&[
            "",
            "set -e",
            "set -e; shopt -s inherit_errexit",
            "set -eo pipefail",
            "set -eE",
        ]),
    )
        .prop_map(|(fbody, gbody, body, pre)| {
            format!(
                "trap 'echo \"EXIT:$?\"' EXIT\n\
                 f() {{\n((fd++ < 3)) || return 9\necho f-in\n{fbody}\necho f-end\n}}\n\
                 g() {{\n((gd++ < 3)) || return 8\necho g-in\n{gbody}\necho g-end\n}}\n\
                 h() {{ false; }}\n{pre}\n{body}\necho \"end:$?\"\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- arithmetic

/// An operand: numbers in every base (and malformed ones), variables whose values are
/// themselves expressions, array elements, expansions and quoted words.
fn arith_leaf() -> BoxedStrategy<String> {
    prop_oneof![
        3 => frag(
            r#"
            0 ¦ 1 ¦ 7 ¦ 42 ¦ 010 ¦ 08 ¦ 0x1F ¦ 0X1f ¦ 0x ¦ 2#101 ¦ 2#2 ¦ 64#@ ¦ 64#_ ¦ 64#Zz
            36#zz ¦ 16#ff ¦ 1#1 ¦ 65#1 ¦ 10#08 ¦ 0#1 ¦ 9223372036854775807 ¦ 9223372036854775808
            99999999999999999999 ¦ 1e3 ¦ 3.5 ¦ 0b1 ¦ 2# ¦ 8#9 ¦ 37#a ¦ 00 ¦ 0x7fffffffffffffff
            0xffffffffffffffff ¦ 64#-
            "#,
        ),
        4 => frag(
            r#"
            a ¦ b ¦ z ¦ e ¦ s ¦ r ¦ rr ¦ n ¦ u ¦ big ¦ neg ¦ sp ¦ bad ¦ cyc ¦ hx ¦ arr ¦ arr[1]
            arr[-1] ¦ arr[7] ¦ arr[a-1] ¦ h[k] ¦ h[nokey] ¦ arr[-9] ¦ badb ¦ neg1 ¦ dot
            "#,
        ),
        1 => frag(
            r#"
            $a ¦ ${z} ¦ "$e" ¦ ${#s} ¦ $((a*2)) ¦ $u ¦ '1' ¦ "2" ¦ ${arr[1]} ¦ $bad ¦ $neg
            "#,
        ),
    ]
    .boxed()
}

fn arith_expr() -> BoxedStrategy<String> {
    let sp = || sel(&["", " ", " ", "  ", "\n"]);
    arith_leaf()
        .prop_recursive(3, 12, 3, move |inner| {
            let binop = frag(
                r#"
                + ¦ - ¦ * ¦ / ¦ % ¦ ** ¦ << ¦ >> ¦ < ¦ <= ¦ > ¦ >= ¦ == ¦ != ¦ & ¦ ^ ¦ | ¦ && ¦ ||
                , ¦ + ¦ - ¦ * ¦ / ¦ % ¦ **
                "#,
            );
            let assign = frag("= ¦ += ¦ -= ¦ *= ¦ /= ¦ %= ¦ <<= ¦ >>= ¦ &= ¦ ^= ¦ |= ¦ =");
            let target = frag("a ¦ b ¦ z ¦ u ¦ arr[1] ¦ h[k] ¦ n ¦ e ¦ arr[z] ¦ 1 ¦ r ¦ arr");
            let unop = frag("- ¦ + ¦ ! ¦ ~ ¦ ++ ¦ -- ¦ - ¦ !");
            prop_oneof![
                5 => (inner.clone(), sp(), binop, sp(), inner.clone())
                    .prop_map(|(l, s1, o, s2, r)| format!("{l}{s1}{o}{s2}{r}")),
                1 => (unop, inner.clone()).prop_map(|(o, x)| format!("{o}{x}")),
                1 => (target.clone(), frag("++ ¦ --")).prop_map(|(t, o)| format!("{t}{o}")),
                1 => (frag("++ ¦ --"), target.clone()).prop_map(|(o, t)| format!("{o}{t}")),
                2 => (target, sp(), assign, sp(), inner.clone())
                    .prop_map(|(t, s1, o, s2, x)| format!("{t}{s1}{o}{s2}{x}")),
                1 => (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(c, a, b)| format!("{c} ? {a} : {b}")),
                1 => inner.clone().prop_map(|x| format!("({x})")),
                1 => (inner, frag(
                    r#"
                    @ ¦ ) ¦ ? ¦ : ¦ $ ¦ ] ¦ ; ¦ = ¦ 1 ¦ # ¦ [ ¦ ` ¦ \ ¦ ? 1 ¦ ~ ¦ ++ ¦ a b ¦ 'x'
                    "#,
                )).prop_map(|(x, junk)| format!("{x} {junk}")),
            ]
        })
        .boxed()
}

/// `text` in single quotes.
fn squote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn arith_line() -> BoxedStrategy<String> {
    (arith_expr(), arith_expr(), 0..14usize)
        .prop_map(|(x, y, shape)| {
            let show = r#"echo "rc=$? a=$a b=$b z=$z u=${u-unset} n=$n arr=${arr[*]} h=${h[k]}""#;
            match shape {
                0 => format!("( echo \"$(( {x} ))\" ); {show}"),
                1 => format!("( echo $(({x})) ); {show}"),
                2 => format!("(( {x} )); {show}"),
                3 => format!("let {} {}; {show}", squote(&x), squote(&y)),
                4 => format!("( declare -i v; v={}; echo \"v=$v\" ); {show}", squote(&x)),
                5 => format!("( echo \"${{str:{x}:{y}}}\" ); {show}"),
                6 => format!("( arr[{x}]=new; declare -p arr ); {show}"),
                7 => format!("( echo \"${{arr[{x}]}}\" \"${{#arr[{y}]}}\" ); {show}"),
                8 => format!(
                    "for (( c=0, k=({x}); c < 3; c++ )); do echo \"c=$c k=$k\"; done; {show}"
                ),
                9 => format!("( echo $[ {x} ] ); {show}"),
                10 => format!("(( {x} )) && echo yes || echo no; {show}"),
                11 => format!(
                    "( unset {}; declare -p arr ); {show}",
                    squote(&format!("arr[{x}]"))
                ),
                12 => format!("echo \"$(( {x} ))\"; {show}"),
                _ => format!("( echo \"${{arr[@]:{x}:{y}}}\" ); {show}"),
            }
        })
        .boxed()
}

fn arith_script() -> BoxedStrategy<String> {
    (
        lines(arith_line(), 1..5),
        sel(&[
            "",
            "",
            "set -u",
            "declare -i u",
            "shopt -s expand_aliases",
            "set -o posix",
        ]),
    )
        .prop_map(|(body, pre)| {
            format!(
                "a=3 b=-2 z=0 e= s=abc r='a+b' rr=r n=010 big=9223372036854775807 \
                 neg=-9223372036854775808 neg1=-1 sp=' 4 ' bad='1 +' badb='2#2' cyc=cyc hx=0x10 \
                 dot=1.5 str=abcdefgh\narr=(10 20 30); declare -A h=([k]=5)\n{pre}\n{body}\n\
                 echo \"end:$? a=$a b=$b z=$z arr=${{arr[*]}}\"\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- conditionals

/// A `[[ ]]` primary: every unary and binary operator of CONDITIONAL EXPRESSIONS.
fn cond_primary() -> BoxedStrategy<String> {
    let file = || {
        frag(
            r#"
            f ¦ d ¦ l ¦ dl ¦ empty ¦ nosuch ¦ x ¦ '' ¦ /dev/null ¦ old ¦ hard ¦ p ¦ suid ¦ sticky
            noperm ¦ ld ¦ d/ ¦ f/ ¦ "$e" ¦ /
            "#,
        )
    };
    let owned = || {
        frag(
            r#"
            f ¦ d ¦ l ¦ dl ¦ empty ¦ nosuch ¦ x ¦ '' ¦ old ¦ hard ¦ p ¦ suid ¦ sticky ¦ ld ¦ d/
            f/ ¦ "$e"
            "#,
        )
    };
    // Times are compared only between the script's own files, which the setup gives
    // fixed times: the host's `/` and `/dev/null` have times of their own, and a file
    // written just after its creation may or may not have been changed after it was
    // last read (`-N`) depending on the clock's grain.
    let timed = || {
        frag(
            r#"
            f ¦ d ¦ l ¦ dl ¦ empty ¦ nosuch ¦ x ¦ '' ¦ old ¦ hard ¦ p ¦ suid ¦ sticky ¦ noperm
            ld ¦ d/ ¦ f/ ¦ "$e"
            "#,
        )
    };
    let word = || {
        frag(
            r#"
            abc ¦ ABC ¦ '' ¦ "a b" ¦ a* ¦ 'a*' ¦ "a*" ¦ $s ¦ "$s" ¦ [ab]c ¦ @(x|abc) ¦ ?bc ¦ *
            10 ¦ 9 ¦ 010 ¦ " 3" ¦ $e ¦ "$e" ¦ $u ¦ b ¦ abd ¦ a\* ¦ !(x) ¦ [[:alpha:]]* ¦ ab
            +(a|b)c ¦ é ¦ Z ¦ "[ab]c" ¦ 'a'bc
            "#,
        )
    };
    let num = || {
        frag(
            r#"
            1 ¦ 01 ¦ 010 ¦ 0x10 ¦ '' ¦ a ¦ "1+2" ¦ 'a*2' ¦ x ¦ " 3 " ¦ 9223372036854775808 ¦ 1/0
            '2#2' ¦ -1 ¦ 8 ¦ "$e" ¦ $u ¦ s ¦ 'a+' ¦ 3 ¦ arr[1] ¦ '(1' ¦ 'z=5'
            "#,
        )
    };
    prop_oneof![
        3 => (frag(
            r#"
            -a ¦ -b ¦ -c ¦ -d ¦ -e ¦ -f ¦ -g ¦ -h ¦ -k ¦ -p ¦ -s ¦ -u ¦ -L ¦ -S
            "#,
        ), file()).prop_map(|(o, f)| format!("{o} {f}")),
        // Access and ownership only of the script's own readable files: bash may run
        // as root, who may read `noperm` and write `/` (shellbox's user is not root).
        1 => (frag("-r ¦ -w ¦ -x ¦ -O ¦ -G"), owned()).prop_map(|(o, f)| format!("{o} {f}")),
        1 => timed().prop_map(|f| format!("-N {f}")),
        1 => frag("-t 0 ¦ -t 1 ¦ -t 2 ¦ -t 9 ¦ -t x ¦ -t '' ¦ -t 99999999999"),
        1 => frag("-z '' ¦ -z abc ¦ -n '' ¦ -n abc ¦ -z $e ¦ -n \"$u\" ¦ -n $s"),
        1 => frag(
            r#"
            -o errexit ¦ -o nounset ¦ -o noglob ¦ -o nosuch ¦ -o posix ¦ -o emacs ¦ -o ''
            -o pipefail ¦ -o braceexpand ¦ -o hashall ¦ -o interactive-comments ¦ -o monitor
            "#,
        ),
        2 => frag(
            r#"
            -v a ¦ -v e ¦ -v u ¦ -v 'arr[1]' ¦ -v 'arr[9]' ¦ -v 'arr[-1]' ¦ -v 'arr[-9]'
            -v 'h[k]' ¦ -v 'h[z]' ¦ -v 'arr[@]' ¦ -v arr ¦ -v h ¦ -v 1 ¦ -v 'arr[a-2]' ¦ -v ''
            -v nr ¦ -v 'arr[x' ¦ -v 'h[@]' ¦ -v 'ea[@]' ¦ -v ea ¦ -v 'arr[*]' ¦ -v 'h[*]'
            -v 'arr[1/0]' ¦ -v 'nosuch[0]' ¦ -v 'a[0]' ¦ -v 'a[1]' ¦ -v 'arr[ 1 ]' ¦ -v '#'
            -v 0 ¦ -v @ ¦ -v 'BASH_VERSINFO[0]' ¦ -v nrbad
            "#,
        ),
        1 => frag("-R nr ¦ -R a ¦ -R u ¦ -R nrbad ¦ -R 'arr[1]' ¦ -R ''"),
        3 => (word(), frag("== ¦ = ¦ != ¦ < ¦ > ¦ == ¦ != ¦ <"), word())
            .prop_map(|(l, o, r)| format!("{l} {o} {r}")),
        3 => (num(), frag("-eq ¦ -ne ¦ -lt ¦ -le ¦ -gt ¦ -ge"), num())
            .prop_map(|(l, o, r)| format!("{l} {o} {r}")),
        1 => (file(), frag("-ef"), file()).prop_map(|(l, o, r)| format!("{l} {o} {r}")),
        1 => (timed(), frag("-nt ¦ -ot"), timed()).prop_map(|(l, o, r)| format!("{l} {o} {r}")),
        3 => (word(), frag(
            r#"
            ^a(b)(c)?$ ¦ 'a.c' ¦ $re ¦ "$re" ¦ ( ¦ [[:alpha:]]+ ¦ a|x ¦ ^$ ¦ b* ¦ "a.c" ¦ \.
            a{2} ¦ (a)|(b) ¦ [ ¦ ^(a)(x)?(b) ¦ () ¦ .* ¦ 'a*' ¦ a\ b ¦ ([0-9])+ ¦ [.]
            ^[^x]*$ ¦ (((a))) ¦ \(a ¦ x{ ¦ $u ¦ "" ¦ a"."c ¦ ^.$ ¦ é ¦ (é)
            "#,
        )).prop_map(|(w, re)| format!("{w} =~ {re}")),
        1 => word(),
    ]
    .boxed()
}

fn cond_expr() -> BoxedStrategy<String> {
    cond_combined(cond_primary(), 6)
}

/// `prim` combined with `&&`, `||`, `!` and parentheses, as `[[ ]]` allows.
fn cond_combined(prim: BoxedStrategy<String>, size: u32) -> BoxedStrategy<String> {
    prim.prop_recursive(2, size, 2, |inner| {
        prop_oneof![
            (inner.clone(), frag("&& ¦ ||"), inner.clone())
                .prop_map(|(l, o, r)| format!("{l} {o} {r}")),
            inner.clone().prop_map(|x| format!("! {x}")),
            inner.prop_map(|x| format!("( {x} )")),
        ]
    })
    .boxed()
}

fn test_args() -> BoxedStrategy<String> {
    prop::collection::vec(
        frag(
            r#"
        ! ¦ ! ¦ '(' ¦ ')' ¦ -a ¦ -o ¦ -n ¦ -z ¦ -e ¦ -f ¦ -d ¦ -h ¦ -L ¦ -t ¦ -v ¦ = ¦ == ¦ !=
        '<' ¦ '>' ¦ -eq ¦ -lt ¦ -ge ¦ -nt ¦ -ef ¦ x ¦ '' ¦ 1 ¦ 02 ¦ -1 ¦ ' 3' ¦ abc ¦ f ¦ d
        nosuch ¦ a ¦ 'arr[1]' ¦ '1+2' ¦ errexit ¦ -G ¦ -O ¦ -N ¦ -R ¦ -x ¦ ']' ¦ - ¦ -- ¦ 'a b'
        -s ¦ -w ¦ ' 3 ' ¦ 0x1 ¦ +2 ¦ 99999999999999999999 ¦ -o ¦ -a ¦ '(' ¦ ')' ¦ = ¦ -k ¦ -p
        -S ¦ -c ¦ -b ¦ -u ¦ -g ¦ -r ¦ -ot ¦ -ne ¦ -le ¦ -gt ¦ '-2' ¦ nr ¦ 'h[k]'
        "#,
        ),
        0..7,
    )
    .prop_map(|v| v.join(" "))
    .boxed()
}

fn cond_line() -> BoxedStrategy<String> {
    let show = r#"echo "rc=$? m=${BASH_REMATCH[*]@Q} n=${#BASH_REMATCH[@]} z=$z""#;
    prop_oneof![
        4 => cond_expr().prop_map(move |x| format!("[[ {x} ]]; {show}")),
        1 => cond_expr().prop_map(move |x| format!("[[ {x} ]] && echo T || echo F; {show}")),
        1 => cond_expr().prop_map(move |x| format!("if [[ {x} ]]; then echo T; fi; {show}")),
        3 => test_args().prop_map(move |a| format!("test {a}; {show}")),
        3 => test_args().prop_map(move |a| format!("[ {a} ]; {show}")),
        1 => test_args().prop_map(move |a| format!("[ {a}; {show}")),
        1 => test_args().prop_map(move |a| format!("builtin test {a}; {show}")),
        1 => frag(
            r#"
            [[ a -eq ]] ¦ [[ ( a ]] ¦ [[ a b ]] ¦ [[ -x ]] ¦ [[ ]] ¦ [[ a == ]] ¦ [[ ! ]]
            [[ a && ]] ¦ [[ -f f -a -d d ]] ¦ [[ a =~ ]] ¦ [[ a < ]] ¦ [[ ( ) ]] ¦ [[ -q a ]]
            [[ a -foo b ]] ¦ [[ a ) ]] ¦ [[ a || b c ]] ¦ [[ -n ]] ¦ [[ -v ]] ¦ [[ ! -e ]]
            [[ 1 -eq 1 -a 2 ]] ¦ [[ x =~ ) ]] ¦ [[ ( a ) b ]] ¦ [[ a
            "#,
        // In a subshell: bash's parser keeps state from a `[[` syntax error inside
        // `eval` and then rejects the next line's `[[` (its bug, not a rule to copy).
        ).prop_map(move |x| format!("( eval {} ); {show}", squote(&x))),
    ]
    .boxed()
}

fn cond_script() -> BoxedStrategy<String> {
    (
        lines(cond_line(), 1..6),
        sel(&[
            "",
            "",
            "shopt -s nocasematch",
            "set -u",
            "shopt -s extglob",
            "set -o posix",
            "shopt -u extglob",
            "set -e",
        ]),
    )
        .prop_map(|(body, pre)| {
            format!(
                "mkdir d ld; echo data > f; : > empty; ln -s f l; ln -s nosuch dl; ln f hard\n\
                 printf '#!/bin/sh\\n' > x; chmod +x x; touch -d @100 old; mkfifo p\n\
                 : > suid; chmod u+s,g+s suid; mkdir sticky; chmod +t sticky; : > noperm\n\
                 touch -d @200 f empty x d ld p suid sticky noperm; chmod 000 noperm\n\
                 a=3 e= s=abc z=0 re='([a-z]+)([0-9]+)'; arr=(10 20 30); declare -A h=([k]=v)\n\
                 declare -a ea; declare -n nr=a nrbad=nosuch; unset u\n{pre}\n{body}\n\
                 echo \"end:$? ${{BASH_REMATCH[@]@Q}}\"\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- printing

/// A word as a script writes it: every quoting form and expansion the printer must
/// give back unchanged.
fn print_word() -> BoxedStrategy<String> {
    frag(
        r#"
        a ¦ "b c" ¦ 'd e' ¦ $'f\tg' ¦ x\ y ¦ $x ¦ "$x" ¦ ${x:-d} ¦ "${arr[@]}" ¦ $(echo sub)
        "$(echo q)" ¦ `echo bq` ¦ $((1+2)) ¦ 'it'\''s' ¦ "a\"b" ¦ \$ ¦ *.none ¦ {1,2} ¦ ''
        "" ¦ $'\'' ¦ "\\" ¦ ${#x} ¦ ${x/a/b} ¦ ${x%%.*} ¦ $1 ¦ "$@" ¦ $# ¦ a=b ¦ -n ¦ é
        $'\001' ¦ $'a\nb' ¦ "x  y" ¦ 'a"b' ¦ "it's" ¦ \' ¦ \" ¦ a\\b ¦ "$x$y" ¦ ${arr[1]}
        "${x@Q}" ¦ $'\e[0m' ¦ "a`echo b`c" ¦ $"loc" ¦ 'tab	in' ¦ ab#c ¦ '#' ¦ \# ¦ x=
        "$(echo "in (x)")" ¦ $(( x + 1 )) ¦ "$((2*3))" ¦ '!' ¦ \* ¦ '*' ¦ a{b,c} ¦ <(echo ps)
        "#,
    )
}

fn print_words(n: std::ops::Range<usize>) -> BoxedStrategy<String> {
    prop::collection::vec(print_word(), n)
        .prop_map(|v| v.join(" "))
        .boxed()
}

fn print_redir() -> BoxedStrategy<String> {
    frag(
        r#"
        >o ¦ >>o ¦ <o ¦ <>o ¦ >|o ¦ &>o ¦ &>>o ¦ 2>&1 ¦ 3<&- ¦ {fd}>o ¦ <<<word ¦ <<<"$x y"
        2>/dev/null ¦ >&2 ¦ 1>&2 ¦ 0<o ¦ 3>o ¦ >"o" ¦ > o ¦ 2> o ¦ 4<>o ¦ >&- ¦ 5>&1-
        <<<$'a\tb' ¦ >$x.out ¦ 2>>o ¦ 1>o ¦ &> /dev/null ¦ 3>&1 ¦ {fd}<&0 ¦ >o 2>&1
        "#,
    )
}

/// A simple command without here-documents (it can sit anywhere on a line).
fn print_simple(exec: bool) -> BoxedStrategy<String> {
    let base = prop_oneof![
        4 => print_words(0..4).prop_map(|w| format!("echo {w}")),
        1 => print_words(1..3).prop_map(|w| format!("printf '%s|' {w}")),
        1 => print_word().prop_map(|w| format!("x={w}")),
        1 => print_word().prop_map(|w| format!("x+={w}")),
        1 => print_words(0..4).prop_map(|w| format!("arr=({w})")),
        1 => print_words(1..3).prop_map(|w| format!("arr+=({w})")),
        1 => print_word().prop_map(|w| format!("arr[1]={w}")),
        1 => (print_word(), print_words(0..3)).prop_map(|(v, w)| format!("x={v} echo {w}")),
        1 => print_word().prop_map(|w| format!("local v={w} n")),
        1 => frag(
            r#"
            true ¦ false ¦ : ¦ declare -i n=1+2 ¦ export e=1 ¦ return 3 ¦ break ¦ continue
            declare -a da=(1 "2 3") ¦ declare -A h=([k]=v ["a b"]=c) ¦ h[k]+=w ¦ readonly ro=1
            x=1 y=2 ¦ command echo c ¦ builtin : ¦ let 'n+=1' ¦ eval 'echo ev' ¦ cat o
            echo a # comment ¦ set -- p q ¦ shift ¦ unset x ¦ test -n "$x" ¦ [ a = b ]
            "#,
        ),
    ];
    let redirs = prop::collection::vec(print_redir(), 0..3);
    let cmd = (base, redirs, 0..6usize).prop_map(|(b, r, w)| {
        if r.is_empty() {
            return b;
        }
        // Redirections go after the words, or, now and then, first.
        if w == 0 {
            format!("{} {b}", r.join(" "))
        } else {
            format!("{b} {}", r.join(" "))
        }
    });
    let inline = prop_oneof![
        6 => cmd.boxed(),
        1 => cond_print().prop_map(|c| format!("[[ {c} ]]")),
        1 => frag(
            r#"
            (( n++ )) ¦ (( x = 3, y = x * 2 )) ¦ ((n>2)) ¦ (( arr[1] += 4 )) ¦ (( ! 0 ))
            (( "1" + $n )) ¦ ((a = b ? 1 : 2))
            "#,
        ),
    ]
    .boxed();
    // The stages of a pipeline trace in the order the processes happen to run, so
    // the functions that run have none.
    let stages = if exec { 1..2 } else { 1..3 };
    let pipe = prop::collection::vec((inline.clone(), frag("| ¦ | ¦ |&")), stages).prop_map(|v| {
        let mut s = String::new();
        for (i, (c, _)) in v.iter().enumerate() {
            if i > 0 {
                s.push_str(&format!(" {} ", v[i - 1].1));
            }
            s.push_str(c);
        }
        s
    });
    // `time` prints clock readings, so only functions that are not run use it.
    let neg = if exec {
        frag("¦ ¦ ¦ !")
    } else {
        frag("¦ ¦ ¦ ! ¦ time ¦ time -p ¦ ! time")
    };
    let pipeline = (neg, pipe).prop_map(|(neg, p)| format!("{neg} {p}").trim().to_owned());
    let list = prop::collection::vec((pipeline, frag("&& ¦ || ¦ && ¦ ;")), 1..3).prop_map(|v| {
        let mut s = String::new();
        for (i, (c, _)) in v.iter().enumerate() {
            if i > 0 {
                s.push_str(&format!(" {} ", v[i - 1].1));
            }
            s.push_str(c);
        }
        s
    });
    if exec {
        list.boxed()
    } else {
        prop_oneof![
            8 => list.clone().boxed(),
            1 => list.prop_map(|l| format!("{l} &")),
            1 => frag("coproc cat ¦ coproc CO { echo in; } ¦ coproc ( cat ) 2>/dev/null"),
        ]
        .boxed()
    }
}

fn cond_print() -> BoxedStrategy<String> {
    let prim = frag(
        r#"
        -n $x ¦ -z "$x" ¦ $x == a* ¦ "$x" = 'a b' ¦ $x != "$y" ¦ a < b ¦ -f o ¦ -v arr[1]
        $x =~ ^a(b|c)$ ¦ $x =~ "lit.x" ¦ $x =~ $re ¦ 1 -lt 2 ¦ -o errexit ¦ $x ¦ a\ b == 'a b'
        x =~ [[:space:]]+ ¦ -e /dev/null ¦ $x == @(a|b)
        "#,
    );
    cond_combined(prim, 4)
}

/// A here-document command: it must end its line.
fn print_heredoc() -> BoxedStrategy<String> {
    let body = frag(
        r#"
        plain ¦ $x ¦ ${x} ¦ $(echo cs) ¦ `echo bt` ¦ $((1+2)) ¦ a\$b ¦ back\\slash ¦ 'sq'
        "dq" ¦ \x ¦ ${u-dflt} ¦ * ¦ # not a comment ¦ EOFX
        "#,
    );
    (
        sel(&["EOF", "'EOF'", "\"EOF\"", "E\\OF", "END"]),
        prop::collection::vec(body, 0..3),
        prop::bool::ANY,
        sel(&[
            "cat",
            "cat >o",
            "cat 2>/dev/null",
            "x=$(cat",
            "read -r v",
            "cat - o",
        ]),
    )
        .prop_map(|(d, b, dash, cmd)| {
            let word = d.replace(['\'', '"', '\\'], "");
            let op = if dash { "<<-" } else { "<<" };
            let tab = if dash { "\t" } else { "" };
            let mut doc: String = b.iter().map(|l| format!("{tab}{l}\n")).collect();
            doc.push_str(&format!("{tab}{word}"));
            if cmd == "x=$(cat" {
                format!("x=$(cat {op}{d}\n{doc}\n)")
            } else {
                format!("{cmd} {op}{d}\n{doc}")
            }
        })
        .boxed()
}

/// A command of a function body or a script: simple lists, here-documents and every
/// compound command, nested.
fn print_stmt(exec: bool) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        6 => print_simple(exec),
        1 => print_heredoc(),
    ];
    let stmt = leaf.prop_recursive(3, 24, 3, move |inner| {
        let body = move || lines(inner.clone(), 1..3);
        let empty_or = {
            let b = body();
            prop_oneof![4 => b, 1 => Just(String::new())].boxed()
        };
        let cond = || {
            frag(
                r#"
                true ¦ false ¦ [[ $x == a ]] ¦ (( n > 1 )) ¦ test -n "$x" ¦ ! false ¦ grep -q a o
                [ -z "$y" ] ¦ true && false ¦ false || true
                "#,
            )
        };
        let redir = || {
            prop_oneof![
                3 => Just(String::new()),
                1 => prop::collection::vec(print_redir(), 1..3).prop_map(|r| format!(" {}", r.join(" "))),
            ]
        };
        prop_oneof![
            (cond(), body(), prop::option::of((cond(), body())), prop::option::of(body()), redir())
                .prop_map(|(c, t, elif, els, r)| {
                    let mut s = format!("if {c}; then\n{t}\n");
                    if let Some((c2, b2)) = elif {
                        s.push_str(&format!("elif {c2}\nthen\n{b2}\n"));
                    }
                    if let Some(e) = els {
                        s.push_str(&format!("else\n{e}\n"));
                    }
                    s.push_str("fi");
                    s.push_str(&r);
                    s
                }),
            // Every loop is bounded by a counter that only grows, whatever `continue` skips.
            (frag("while (( w++ < 2 )) ¦ until (( w++ >= 2 )) ¦ while (( w++ < 3 )) && read -r line ¦ while false ¦ until true"), body(), redir())
                .prop_map(|(c, b, r)| format!("{c}; do\n{b}\ndone{r}")),
            (print_words(0..3), frag("for v in ¦ for v ¦ for v do ¦ for v in ;"), body(), redir())
                .prop_map(|(w, h, b, r)| match h.as_str() {
                    "for v in" => format!("for v in {w}; do\n{b}\ndone{r}"),
                    "for v" => format!("for v\ndo\n{b}\ndone{r}"),
                    "for v do" => format!("for v do\n{b}\ndone{r}"),
                    _ => format!("for v in ; do\n{b}\ndone{r}"),
                }),
            (frag("((k=0; k<2 && w<20; k++)) ¦ (( k = 0 ; k < 2 && w++ < 20 ; k += 1 )) ¦ ((;k<1;k++)) ¦ ((k=5; k && w++ < 20; k--))"), body())
                .prop_map(|(h, b)| format!("for {h}; do\n{b}\ndone")),
            (print_words(0..3), body()).prop_map(|(w, b)| format!("select s in {w}; do\n(( w++ < 3 )) || break\n{b}\nbreak\ndone")),
            (print_word(), prop::collection::vec((frag("a ¦ a|b ¦ *.c|'x y' ¦ \"$y\" ¦ [a-z]* ¦ @(a|b) ¦ * ¦ '' ¦ (a ¦ a\\ b ¦ $'\\t'"), empty_or.clone(), frag(";; ¦ ;; ¦ ;& ¦ ;;&")), 0..4), redir())
                .prop_map(|(w, arms, r)| {
                    let mut s = format!("case {w} in\n");
                    let n = arms.len();
                    for (i, (p, b, t)) in arms.into_iter().enumerate() {
                        // The last arm's terminator is optional.
                        let t = if i + 1 == n && b.len() % 2 == 0 { "" } else { t.as_str() };
                        s.push_str(&format!("{p})\n{b}\n{t}\n"));
                    }
                    s.push_str("esac");
                    s.push_str(&r);
                    s
                }),
            (body(), redir()).prop_map(|(b, r)| format!("(\n{b}\n){r}")),
            (body(), redir()).prop_map(|(b, r)| format!("{{\n{b}\n}}{r}")),
            (frag("g() ¦ function g ¦ function g() ¦ g ()"), frag("{ ¦ ( "), body(), redir())
                .prop_map(|(h, o, b, r)| {
                    let c = if o == "{" { "}" } else { ")" };
                    format!("{h} {o}\n{b}\n{c}{r}")
                }),
            (body(), frag("| cat ¦ && echo ok ¦ || echo no ¦ ; echo after")).prop_map(|(b, t)| format!("{{\n{b}\n}} {t}")),
        ]
    });
    // A process substitution or a pipeline runs alongside its command, so those are
    // only printed.
    stmt.prop_map(move |s| {
        if exec {
            s.replace("<(echo ps)", "$(echo ps)")
                .replace("} | cat", "} >o")
        } else {
            s
        }
    })
    .boxed()
}

fn printing_script() -> BoxedStrategy<String> {
    let head = frag("f() ¦ function f ¦ function f() ¦ f ()");
    let open = frag("{ ¦ { ¦ { ¦ (");
    let wrap = frag("¦ ¦ ¦ >o ¦ 2>/dev/null ¦ <o >o ¦ >>o 2>&1");
    let show = frag(
        r#"
        declare -f f ¦ type f ¦ declare -pf f ¦ typeset -f f ¦ declare -f
        "#,
    );
    let pre = "x='a b'; y=; n=2; arr=(1 2 3); re='a.c'; echo seed >o\n";
    prop_oneof![
        // Functions printed back, re-read and printed again.
        4 => (head.clone(), open.clone(), lines(print_stmt(false), 1..4), wrap.clone(), show.clone())
            .prop_map(move |(h, o, b, w, s)| {
                let c = if o == "{" { "}" } else { ")" };
                format!(
                    "{pre}{h} {o}\n{b}\n{c} {w}\n{s}\necho \"rc=$?\"\n\
                     eval \"$(declare -f f)\"; echo \"eval=$?\"\ndeclare -f f\n"
                )
            }),
        // Functions traced while they run.
        2 => (head, open, lines(print_stmt(true), 1..4), wrap, frag("¦ PS4='> ' ¦ PS4='+$LINENO ' ¦ PS4='[${FUNCNAME[0]:-main}] ' ¦ PS4='' ¦ PS4='x$((n+1))+ '"))
            .prop_map(move |(h, o, b, w, ps4)| {
                let c = if o == "{" { "}" } else { ")" };
                format!(
                    "{pre}{ps4}\n{h} {o}\n((depth++ < 2)) || return 9\n{b}\n{c} {w}\n\
                     set -x\nf a 'b c'\necho \"rc=$?\"\nx=$(f) \n( f )\nset +x\necho \"end:$?\"\n"
                )
            }),
        // Top-level traces.
        2 => (lines(print_stmt(true), 1..5), frag("¦ PS4='> ' ¦ PS4='+$LINENO ' ¦ PS4='$x ' ¦ PS4='-${#arr[@]}- '"))
            .prop_map(move |(b, ps4)| format!("{pre}{ps4}\nset -x\n{b}\nset +x\necho \"end:$?\"\n")),
        // What the DEBUG and ERR traps see of each command.
        2 => (lines(print_stmt(true), 1..5), frag(
            r#"
            trap 'echo "D:$BASH_COMMAND" >&2' DEBUG
            trap 'echo "E:$?:$BASH_COMMAND" >&2' ERR
            trap 'echo "D:$BASH_COMMAND" >&2' DEBUG; set -T
            trap 'echo "E:$BASH_COMMAND"' ERR; set -E
            "#,
        ))
            .prop_map(move |(b, t)| format!("{pre}g() {{\n{b}\n}}\n{t}\n{b}\ng\necho \"end:$?\"\n")),
        // Trap and alias strings printed back.
        1 => lines(frag(
            r#"
            trap 'echo "a b"' USR1 ¦ trap $'echo one\necho two' USR2 ¦ trap "echo 'q'" HUP
            trap 'echo \$x; echo "$y"' INT ¦ trap '' TERM ¦ trap - USR1 ¦ trap -p ¦ trap
            trap -p USR1 USR2 ¦ trap $'\t#c\n' QUIT ¦ trap 'it'\''s' EXIT ¦ trap -- '-x' USR1
            alias a='echo "x"' ¦ alias b=$'x\ny' ¦ alias c="it's" ¦ alias ¦ alias -p
            alias d='' ¦ alias -p a b ¦ alias e='$x `y`' ¦ unalias a ¦ alias 'f=g h'
            alias g=\\ ¦ alias h=é ¦ alias i=$'\001' ¦ trap "echo \\\\" USR1
            "#,
        ), 1..8).prop_map(|b| format!("{b}\necho \"end:$?\"\n")),
    ]
    .boxed()
}

// ---------------------------------------------------------------- word expansion

/// A word exercising one of the manual's "Shell Expansions" (splitting, `$@`/`$*` and
/// arrays, quote removal, brace, tilde, pathname expansion, command substitution).
fn words_word() -> BoxedStrategy<String> {
    prop_oneof![
        3 => frag(
            r##"
            $s ¦ "$s" ¦ $c ¦ "$c" ¦ $m ¦ "$m" ¦ $t ¦ $u ¦ "$u" ¦ $nl ¦ "$nl" ¦ $e ¦ "$e"
            $@ ¦ "$@" ¦ $* ¦ "$*" ¦ ${@} ¦ "${@:2}" ¦ "${@:2:2}" ¦ ${@:3} ¦ "${*:2}"
            "x$@y" ¦ "$@$@" ¦ "$*$*" ¦ x$@y ¦ x$*y ¦ "${@}x" ¦ "$#"
            ${arr[@]} ¦ "${arr[@]}" ¦ ${arr[*]} ¦ "${arr[*]}" ¦ "x${arr[@]}y" ¦ ${arr[@]:1}
            "${ea[@]}" ¦ ${ea[@]} ¦ "${ea[*]}" ¦ "x${ea[@]}y" ¦ "${emp[@]}" ¦ ${emp[@]}
            "${emp[*]}" ¦ "${one[@]}" ¦ "${one[*]}x" ¦ "${arr[@]:1:2}" ¦ "${arr[@]}${arr[@]}"
            $(echo ' a  b ') ¦ "$(echo ' a  b ')" ¦ $(printf 'a\n\n') ¦ "$(printf 'x\n\n\n')"
            "$(printf '\n\nx')" ¦ $((1+2)) ¦ $((-5)) ¦ $((x=3))$x ¦ $(echo 'a:b  c')
            ${u:-a b} ¦ "${u:-a b}" ¦ ${u:-"a b"} ¦ ${u-$s} ¦ ${s:+"$@"} ¦ ${u:-$@}
            "${u:-$@}" ¦ ${u:-"$@"} ¦ ${s:+x y} ¦ ${c%%:*} ¦ "${u:-'q'}" ¦ ${u:-'a  b'}
            '' ¦ "" ¦ ''$u ¦ a'' ¦ "a"'b'c ¦ a\ b ¦ "a\ b" ¦ "\$x" ¦ "a\\b" ¦ "\a\"\`"
            $'a\tb' ¦ $'\x41\101\u00e9' ¦ $'a\'b' ¦ $'\cA'x ¦ $'x\0y' ¦ $'\e' ¦ "$'x'"
            a"$u"b ¦ "$u"$u ¦ ''"" ¦ \' ¦ "'" ¦ '\' ¦ \\ ¦ "\\" ¦ a\
            `echo a\\b` ¦ `echo "\$s"` ¦ `echo '\$x'` ¦ "`echo \"q  q\"`" ¦ $(printf 'a\0b')
            "$(echo "a  b")" ¦ "$(echo '$s')" ¦ $(echo "*") ¦ "$(echo ~)"
            "##,
        ),
        2 => frag(
            r##"
            {a,b} ¦ {a,b{c,d}} ¦ x{1..3}y ¦ {1..10..3} ¦ {a..e} ¦ {05..10} ¦ {-3..3..2}
            {z..a..2} ¦ {a,} ¦ {,a} ¦ {a} ¦ {1..a} ¦ {1..3..0} ¦ {a..Z} ¦ "{a,b}" ¦ {a,"b c"}
            $s{1,2} ¦ {$c,x} ¦ pre{x,y}$u ¦ {3..1} ¦ {-05..5..5} ¦ {a..c}{1..2} ¦ \{a,b}
            {a,b}\ c ¦ {'a,b',c} ¦ {a..f..-2} ¦ {x,y}{,} ¦ a{b}c ¦ {} ¦ {,} ¦ {a,b}{ ¦ }{a,b}
            {0..2}"$u" ¦ {"$@"} ¦ {1..03} ¦ {Y..b}
            "##,
        ),
        2 => frag(
            r##"
            ~ ¦ ~/x ¦ ~- ¦ ~+/q ¦ x=~ ¦ x=~/a:~/b ¦ a:~ ¦ ~nosuch_user ¦ ~nosuch_user/x
            "~" ¦ \~ ¦ ~/"x y" ¦ "$HOME" ¦ ~'' ¦ ~"" ¦ x=a:~- ¦ --opt=~ ¦ ~/$s ¦ ~$u
            "##,
        ),
        3 => frag(
            r##"
            * ¦ ? ¦ a* ¦ [ab]* ¦ [!a]* ¦ [^a]* ¦ [a-c] ¦ [[:upper:]] ¦ [[:digit:]]* ¦ x?
            \* ¦ "*" ¦ $g ¦ "$g" ¦ $gb ¦ "$gb" ¦ */ ¦ d/* ¦ d/** ¦ ** ¦ **/ ¦ .* ¦ *.none
            @(a|b) ¦ !(a*) ¦ +(a|b)c ¦ *(x)1 ¦ ?(a)b ¦ d/e/* ¦ d/*/* ¦ x[0-9]* ¦ []a]*
            [a\]* ¦ [[:alpha:][:digit:]]? ¦ *[ ]* ¦ 'a'* ¦ "a"? ¦ a\? ¦ [A-Z] ¦ [a-]
            x* ¦ [x]1 ¦ $gq ¦ ${g}b ¦ .? ¦ d/.* ¦ d/e/f/* ¦ [!.]* ¦ [.]* ¦ **/3 ¦ d/**/
            "##,
        ),
    ]
    .boxed()
}

/// A `case`/`[[` pattern.
fn words_pattern() -> BoxedStrategy<String> {
    frag(
        r##"
        * ¦ "$s" ¦ $s ¦ "$@" ¦ $@ ¦ "$*" ¦ $* ¦ ${arr[*]} ¦ "${arr[@]}" ¦ $g ¦ "$g" ¦ one*
        o?e ¦ [a-z]* ¦ *" "* ¦ '' ¦ "" ¦ $u ¦ *three ¦ x ¦ *:* ¦ \* ¦ ~ ¦ "~" ¦ $gb
        @(one|two)* ¦ {a,b} ¦ *$'\t'*
        "##,
    )
}

fn words_line() -> BoxedStrategy<String> {
    let w = words_word;
    let ws = || prop::collection::vec(words_word(), 1..4).prop_map(|v| v.join(" "));
    prop_oneof![
        8 => ws().prop_map(|v| format!("show {v}")),
        2 => ws().prop_map(|v| format!("printf '[%s]' {v}; echo \" rc=$?\"")),
        3 => frag(
            r##"
            IFS=: ¦ IFS=': ' ¦ IFS=' :' ¦ IFS= ¦ unset IFS ¦ IFS=' ' ¦ IFS=$' \t\n' ¦ IFS=:,
            IFS=$'\n' ¦ IFS=' :,' ¦ IFS=a ¦ IFS=$'\t' ¦ IFS=' ' ¦ IFS=::
            set -- ¦ set -- '' ¦ set -- a ¦ set -- '' '' ¦ set -- 'a b' '' c ¦ set -- '*' x
            shopt -s nullglob ¦ shopt -s failglob ¦ shopt -s dotglob ¦ shopt -s nocaseglob
            shopt -s globstar ¦ GLOBIGNORE='a*' ¦ GLOBIGNORE=.hid:b ¦ unset GLOBIGNORE
            set -f ¦ set +f ¦ set +B ¦ set -B ¦ set -u ¦ shopt -u nullglob ¦ arr=() ¦ unset arr
            shopt -s extglob ¦ shopt -u failglob ¦ shopt -s nocasematch ¦ HOME=/no/other/
            "##,
        ),
        1 => (w(), w()).prop_map(|(a, b)| format!("x={a}; show \"$x\"; x+={b}; show \"$x\"")),
        1 => (w(), sel(&["local", "declare", "export", "local -a", "readonly", "typeset"]))
            .prop_map(|(a, d)| format!("f() {{ {d} x={a} y; show \"$x\" \"${{x[@]}}\"; }}; f")),
        1 => (w(), sel(&["local", "declare", "export"]))
            .prop_map(|(a, d)| format!("f() {{ {d} v {a}; echo \"rc=$?\"; }}; f 2>&1 | head -3")),
        1 => (w(), sel(&[":", " ", ":,", "", "x"]), w())
            .prop_map(|(a, i, b)| format!("f() {{ local IFS='{i}'; show {a} {b}; }}; f \"$@\"; show {a}")),
        1 => w().prop_map(|a| format!("cat <<<{a}; echo \"rc=$?\"")),
        1 => ws().prop_map(|a| format!("cat <<EOF\n{a}\n'{a}' \"{a}\"\nEOF")),
        1 => ws().prop_map(|a| format!("cat <<'EOF'\n{a}\nEOF")),
        1 => (w(), words_pattern())
            .prop_map(|(a, p)| format!("case {a} in {p}) echo m1;; *) echo m2;; esac")),
        1 => (w(), words_pattern())
            .prop_map(|(a, p)| format!("[[ {a} == {p} ]] && echo y || echo \"n$?\"")),
        1 => (w(), w()).prop_map(|(a, b)| format!("[[ {a} ]]; echo \"$?\"; [[ -n {a}{b} ]]; echo \"$?\"")),
        2 => ws().prop_map(|a| format!("for w in {a}; do printf '<%s>' \"$w\"; done; echo")),
        1 => ws().prop_map(|a| format!("b=({a}); show \"${{b[@]}}\"; declare -p b")),
        1 => ws().prop_map(|a| format!("set -- {a}; show \"$@\"")),
        1 => w().prop_map(|a| format!("echo hi >{a}; echo \"rc=$?\"; show *")),
        1 => w().prop_map(|a| format!("cat <{a}; echo \"rc=$?\"")),
        1 => w().prop_map(|a| format!("x=$(show {a}); show \"$x\" $x")),
        1 => w().prop_map(|a| format!("eval 'show '{}; echo \"rc=$?\"", squote(&a))),
        1 => w().prop_map(|a| format!("x=({a}); show \"${{#x[@]}}\" {a}")),
        1 => w().prop_map(|a| format!("(show {a}); echo \"rc=$?\"")),
    ]
    .boxed()
}

fn words_script() -> BoxedStrategy<String> {
    (
        lines(words_line(), 2..7),
        sel(&["", "", "", "shopt -u extglob", "set -- a 'b  c' '' d", "set --", "IFS=:", "set -- ''"]),
    )
        .prop_map(|(body, pre)| {
            format!(
                "HOME=/no/t; OLDPWD=/no/old; PWD=/no/pw; unset CDPATH u; shopt -s extglob\n\
                 show() {{ printf '<%s>' \"$@\"; echo \" #$#\"; }}\n\
                 touch a b c ab abc .hid 'sp ace' A B x1 x2 x10; mkdir -p d/e/f\n\
                 touch d/1 d/e/2 d/e/f/3 d/.h\n\
                 set -- one 'two  three' '' four; arr=(x 'y z' '' w); ea=(); one=(solo); emp=('')\n\
                 s='  lead  mid  trail  '; c='a:b::c:'; m=' a : b :: c '; t=$'\\ta\\t\\tb '\n\
                 nl=$'l1\\n\\nl2\\n'; e=; g='*'; gb='[ab]*'; gq='\\*'\n{pre}\n{body}\necho \"end:$?\"\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- functions and control flow

/// A statement exercising one rule of "Shell Functions", "Pipelines", "Lists",
/// "Compound Commands" and "Exit Status": dynamic scoping of `local`/`declare -g`/`unset`,
/// `return`/`exit`/`break`/`continue` and their bad arguments, `$?` after each compound
/// command, `FUNCNAME`/`BASH_LINENO`/`caller`, `PIPESTATUS`, `pipefail`, `lastpipe`,
/// functions named like builtins and `$_`.
fn flow_stmt() -> BoxedStrategy<String> {
    prop_oneof![
        // Scoping.
        4 => frag(
            r#"
            local x=loc ¦ local x ¦ local x; echo "[${x-unset}]" ¦ local y=ly; show ¦ declare x=dx
            declare -g x=dg; echo "dg:$x" ¦ declare -g y=gy2 ¦ unset x; echo "u:${x-unset}"
            unset -v y; echo "uy:${y-unset}" ¦ local x=l1; unset x; echo "lu:${x-unset}"
            local -; set -u ¦ local -; set -o pipefail ¦ local IFS=:; v=a:b; echo $v
            local OPTIND=1 o; getopts ab o -b; echo "go:$o:$OPTIND" ¦ local -i n=2+3; echo $n
            show ¦ outer ¦ inner ¦ x=tmp show ¦ x=tmp inner ¦ echo "x=${x-unset} y=${y-unset}"
            local z=1; echo "lz:$?" ¦ local -r x=ro; x=2; echo "ro:$?" ¦ local x=$x-more; show
            local x=a y=$x; echo "xy:$x:$y" ¦ declare -p x y 2>&1 ¦ local; echo "lo:$?"
            local -p ¦ local -a x=(1 2); echo "${x[@]}" ¦ typeset x=tx; show ¦ local 1bad=2
            x=assign; show ¦ unset x; local x; echo "ul:${x-unset}" ¦ export x=ex; show
            local IFS; set -- a b; echo "$*" ¦ local -n rx=y; rx=viaref; show
            local x=l2; declare -g x=dg2; echo "dg2:$x" ¦ declare -gi y; y=2+3; echo "gi:$y"
            x=tmp declare -g x=dgt; echo "dgt:$x" ¦ IFS=(); x="1 2"; printf "<%s>" $x; unset IFS
            "#,
        ),
        // return and exit.
        3 => frag(
            r#"
            return ¦ return 0 ¦ return 3 ¦ return 256 ¦ return -1 ¦ return x ¦ return 1 2
            false; return ¦ return 300 ¦ (return 4); echo "sr:$?" ¦ return -- 5 ¦ return +7
            (exit 7); echo "se:$?" ¦ x=$(exit 5); echo "cs:$?" ¦ x=$(echo a; exit 6); echo "cs:$?:$x"
            exit 3 | cat; echo "pe:$?" ¦ true | exit 4; echo "pe:$? ${PIPESTATUS[*]}"
            (exit 256); echo "$?" ¦ (exit -1); echo "$?" ¦ (exit x); echo "$?" ¦ (exit 1 2); echo "$?"
            (false; exit); echo "ex:$?" ¦ echo "$(f)" ¦ v=$(return 2); echo "cr:$?"
            ( return 2 2>&1 ); echo "r:$?" ¦ { (exit 9); }; echo "$?" ¦ (exit 300); echo "$?"
            "#,
        ),
        // $? after compound commands.
        4 => frag(
            r#"
            false; if false; then :; fi; echo "if:$?" ¦ false; for i in; do :; done; echo "for:$?"
            false; case x in y) ;; esac; echo "case:$?" ¦ false; while false; do :; done; echo "wh:$?"
            false; until true; do :; done; echo "un:$?" ¦ (exit 3); echo "sub:$?"
            { false; }; echo "br:$?" ¦ false; h() { :; }; echo "def:$?" ¦ false; [[ -n x ]]; echo "$?"
            if (exit 5); then :; fi; echo "if5:$?" ¦ if false; then :; else (exit 4); fi; echo "el:$?"
            false; for ((i=0;i<0;i++)); do :; done; echo "cf:$?" ¦ for i in 1 2; do (exit $i); done; echo "fl:$?"
            while (exit 2); do :; done; echo "w2:$?" ¦ case a in a) (exit 6);; esac; echo "c6:$?"
            case a in a) false;& b) ;; esac; echo "ft:$?" ¦ false; (( 1 )); echo "ar:$?"
            false; ! { true; }; echo "nb:$?" ¦ false; { :; } >/dev/null; echo "$?"
            if ! false; then (exit 2); fi; echo "$?" ¦ false; case x in *) ;; esac; echo "ce:$?"
            "#,
        ),
        // Loops, break and continue.
        3 => frag(
            r#"
            for i in 1 2 3; do for j in a b; do [ $j = b ] && continue 2; echo "$i$j"; done; done
            for i in 1 2; do break 3; done; echo "b3:$?" ¦ for i in 1 2; do break 0; done; echo "b0:$?"
            for i in 1; do continue 0; done; echo "c0:$?" ¦ break; echo "b:$?" ¦ continue; echo "c:$?"
            for i in 1 2; do break -1; done; echo "$?" ¦ for i in 1 2; do break x; done; echo "$?"
            while :; do f; break; done ¦ for i in 1 2; do g; echo "l$i"; done
            for i in 1 2; do for j in 1 2; do break 2; done; echo no; done; echo "b2:$i$j"
            i=0; while (( i++ < 3 )); do (( i == 2 )) && continue; echo "w$i"; done
            for i in a b; do bk; echo "after-bk$i"; done ¦ for i in a b; do ck; echo "after-ck$i"; done
            until false; do break 1 2; done; echo "$?" ¦ for i in 1 2; do continue 5; echo no; done; echo "c5:$?"
            for i in 1 2; do ( break ); echo "sb$i:$?"; done ¦ for i in 1 2; do (exit 3) | break; echo "pb$i"; done; echo "pb:$? ${PIPESTATUS[*]}"
            for i in 1 2; do { break; } | cat; echo "bp$i"; done ¦ for i in 1; do (exit 5); x=$(break x); echo "s:$?"; done
            for i in 1 2; do (exit 3); continue y; done ¦ while :; do while :; do break -3; done; echo no; done; echo "$?"
            "#,
        ),
        // Call stack introspection.
        3 => frag(
            r#"
            echo "F:${FUNCNAME[*]-none} L:${BASH_LINENO[*]-none} S:${#BASH_SOURCE[@]}" ¦ caller
            caller 0 ¦ caller 1 ¦ caller 2; echo "c2:$?" ¦ caller x; echo "cx:$?" ¦ rec 2
            rec 0 ¦ rec 3 | tail -2 ¦ echo "${FUNCNAME[0]-main}:$LINENO" ¦ echo "${FUNCNAME-unset}"
            echo "${BASH_LINENO[0]-none}" ¦ inner ¦ (inner) ¦ echo "$(caller 0)" ¦ caller -1
            "#,
        ),
        // PIPESTATUS, pipefail, lastpipe.
        4 => frag(
            r#"
            true | false | (exit 3); echo "ps:${PIPESTATUS[*]}" ¦ ! true | false; echo "np:$? ${PIPESTATUS[*]}"
            false; echo "ps:${PIPESTATUS[*]}" ¦ (exit 2); echo "ps:${PIPESTATUS[@]}"
            { false; }; echo "ps:${PIPESTATUS[@]}" ¦ if false; then :; fi; echo "ps:${PIPESTATUS[@]}"
            x=$(false); echo "ps:${PIPESTATUS[@]}" ¦ x=1; echo "ps:${PIPESTATUS[@]}" ¦ ! false; echo "ps:${PIPESTATUS[*]}"
            set -o pipefail ¦ set +o pipefail ¦ false | true; echo "pf:$?" ¦ true | (exit 3) | true; echo "pf:$?"
            (exit 2) | (exit 3) | true; echo "pf:$? ${PIPESTATUS[*]}" ¦ ! false | true; echo "pf:$?"
            shopt -s lastpipe ¦ shopt -u lastpipe ¦ set +m ¦ echo lp | read v; echo "v=${v-unset}"
            printf '1\n2\n' | while read n; do last=$n; done; echo "last=${last-unset}"
            echo a | { read w; y=$w; }; echo "y=$y" ¦ : | x=piped; echo "x=$x"
            { x=inpipe; echo s; } | cat; echo "x=$x" ¦ ( x=sub ); echo "x=$x" ¦ x=1 | cat; echo "x=$x"
            echo q | f; echo "fp:$? x=$x" ¦ f | cat; echo "${PIPESTATUS[*]}" ¦ true | return 4; echo "rp:$?"
            for i in 1; do false; done | true; echo "${PIPESTATUS[*]}" ¦ (false | true); echo "sp:$? ${PIPESTATUS[*]}"
            while read a b; do echo "[$a|$b]"; done <<< $'1 2\n3' ¦ seq 3 | while read l; do echo "<$l>"; x=$l; done; echo "x=$x"
            true | { false; echo "PS:${PIPESTATUS[*]}"; } ¦ echo "ps:${PIPESTATUS[*]}" | cat
            time_less() { false | true; }; time_less; echo "tl:$? ${PIPESTATUS[*]}"
            echo ${nosuch:?gone} | cat; echo "u:${PIPESTATUS[*]}" ¦ ( : ${nosuch:?gone} ) | cat; echo "u:${PIPESTATUS[*]}"
            { (exit 2) | (exit 6); }; echo "bp:${PIPESTATUS[*]}" ¦ case a in a) (exit 6) | true;; esac; echo "${PIPESTATUS[*]}"
            "#,
        ),
        // Functions named like builtins, redefinition, unset -f, $_, && || chains.
        3 => frag(
            r#"
            echo() { builtin echo "E:$*"; } ¦ echo hi ¦ command echo c ¦ builtin echo b ¦ unset -f echo
            declare -F ¦ declare -F f; echo "dF:$?" ¦ declare -F nosuch; echo "dn:$?" ¦ unset -f f; echo "uf:$?"
            type -t echo ¦ unset -f nosuch; echo "un:$?" ¦ h2() { echo one; h2() { echo two; }; }; h2; h2
            true() { return 1; }; true; echo "tr:$?"; unset -f true ¦ cd() { builtin echo "cd:$*"; }; cd /x
            echo a b; echo "_=$_" ¦ true x; echo "_=$_" ¦ f arg; echo "_=$_" ¦ (echo s); echo "_=$_"
            ! true && echo y || echo n ¦ false || ! false && echo z; echo "$?" ¦ true && false || echo "o:$?"
            ! ! true; echo "nn:$?" ¦ false && echo never; echo "an:$?" ¦ true || echo never; echo "or:$?"
            unset -f g; g; echo "ng:$?" ¦ f() { echo redef; }; f ¦ unset f; declare -F f; echo "us:$?"
            unset -v f; declare -F f ¦ declare -f inner | sed -n 1,2p ¦ function k { echo k:$1; }; k z
            "#,
        ),
        // Calls in assorted contexts.
        2 => frag(
            r#"
            f ¦ g ¦ f a b ¦ x=tmp f ¦ (f) ¦ f | cat ¦ echo "[$(g)]" ¦ g; echo "g:$?" ¦ f; echo "f:$?"
            f 2>&1 | cat ¦ f && echo ok || echo "fail:$?" ¦ ! f; echo "nf:$?" ¦ outer; show
            "#,
        ),
    ]
    .boxed()
}

fn flow_script() -> BoxedStrategy<String> {
    (
        lines(flow_stmt(), 1..4),
        lines(flow_stmt(), 1..3),
        lines(flow_stmt(), 1..6),
        sel(&[
            "",
            "",
            "set -o pipefail",
            "shopt -s lastpipe",
            "shopt -s lastpipe; set +m",
            "set -u",
        ]),
    )
        .prop_map(|(fbody, gbody, body, pre)| {
            format!(
                "x=global; y=gy\n\
                 show() {{ echo \"show:x=${{x-unset}} y=${{y-unset}}\"; }}\n\
                 inner() {{ echo \"in:${{x-unset}}:${{FUNCNAME[*]}}:${{BASH_LINENO[*]}}\"; caller 0; caller 1; echo \"c=$?\"; }}\n\
                 outer() {{ local x=outer; inner; unset x; echo \"un1:${{x-unset}}\"; unset x; echo \"un2:${{x-unset}}\"; }}\n\
                 rec() {{ local n=$1 acc=$2$1; (( n > 0 )) || {{ echo \"base:$acc:${{FUNCNAME[*]}}\"; return 3; }}; rec $((n-1)) $acc; echo \"rec$n:$?:$acc\"; }}\n\
                 bk() {{ break; }}\nck() {{ continue; }}\n\
                 f() {{\n((fd++ < 3)) || return 9\n{fbody}\necho \"f-end:$?\"\n}}\n\
                 g() {{\n((gd++ < 3)) || return 8\nlocal x=gloc\n{gbody}\necho \"g-end:$?\"\n}}\n\
                 {pre}\n{body}\necho \"end:$? x=${{x-unset}} y=${{y-unset}}\"\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- arrays

/// An expansion of a whole array or one element: `${a[@]…}`, `${#a[i]}`, `${!h[*]}`, …
fn arrays_word() -> BoxedStrategy<String> {
    let name = frag(
        r#"
        a[@] ¦ a[*] ¦ s[@] ¦ s[*] ¦ h[@] ¦ h[*] ¦ e[@] ¦ e[*] ¦ n[@] ¦ a[1] ¦ a[i+1] ¦ a[$i]
        a[x] ¦ a[-1] ¦ a[-4] ¦ a[-9] ¦ s[-1] ¦ s[-2] ¦ s[7] ¦ h[k] ¦ h[a b] ¦ h[']'] ¦ h[@k]
        h["q'"] ¦ h[nosuch] ¦ a ¦ s ¦ h ¦ e ¦ a[0] ¦ l[@] ¦ u[@] ¦ a[2] ¦ one[@]
        "#,
    );
    let op = sel(&[
        "", "", "", "#z*", "##*e", "%e", "%%o*", "/e/E", "//e/E", "/#t/T", "/%o/0", "/o", "^^",
        ",,", "^", "@Q", "@A", "@K", "@a", "@k", "@U", "@E", ":1", ":1:2", ": -1", ": -2:1",
        ":0:-1", ": -9", ":2:0", ":-def", "-def", ":+set", "+set", ":=x", "~~",
    ]);
    prop_oneof![
        6 => (name.clone(), op, 0..3usize).prop_map(|(n, o, q)| match q {
            0 => format!("${{{n}{o}}}"),
            1 => format!("\"${{{n}{o}}}\""),
            _ => format!("\"<${{{n}{o}}}>\""),
        }),
        2 => (name, sel(&["#", "!"]), prop::bool::ANY).prop_map(|(n, p, q)| {
            if q { format!("\"${{{p}{n}}}\"") } else { format!("${{{p}{n}}}") }
        }),
        1 => frag(
            r#"
            $a[1] ¦ "$a[1]" ¦ $h ¦ ${a} ¦ "${a[@]}${a[@]}" ¦ "x${a[@]}y" ¦ "${a[@]:-default}"
            "${e[@]:-default}" ¦ ${e[@]+set} ¦ ${a[@]+set} ¦ "${a[*]:-d}" ¦ ${#a} ¦ ${#h}
            "${!a[@]}" ¦ "${!s[*]}" ¦ "${!h[@]}" ¦ $((a[1+1] + ${#a[@]})) ¦ $(( s ))
            $(( n[1] * 2 )) ¦ "${a[@]:1}" ¦ "${s[@]:5}" ¦ "${s[@]:6:1}" ¦ "${s[@]: -1}"
            "${BASH_REMATCH[@]}" ¦ "${#BASH_REMATCH[*]}" ¦ "${a[@]/#/-}" ¦ "${a[*]/%/+}"
            "${h[@]@Q}" ¦ "${s[@]@A}" ¦ "${h[*]@K}" ¦ ${!a[@]} ¦ "${a[*]:1}"
            "#,
        ),
    ]
    .boxed()
}

fn arrays_line() -> BoxedStrategy<String> {
    let ws = || prop::collection::vec(arrays_word(), 1..4).prop_map(|v| v.join(" "));
    prop_oneof![
        8 => ws().prop_map(|v| format!("show {v}")),
        1 => ws().prop_map(|v| format!("for w in {v}; do printf '[%s]' \"$w\"; done; echo")),
        1 => ws().prop_map(|v| format!("b=({v}); declare -p b")),
        1 => arrays_word().prop_map(|v| format!("v={v}; show \"$v\"")),
        6 => frag(
            r#"
            a=(p q r) ¦ a=() ¦ a=([3]=x [1]=y z) ¦ a=([i+1]=ai [x]=ax) ¦ a+=(more 'm 2')
            a+=([9]=nine) ¦ a[1]+=x ¦ a[-1]=last ¦ a[-9]=bad ¦ a[i]=vi ¦ a[x*2]=vx ¦ a[$i]+=p
            s+=(six) ¦ s[-2]=neg ¦ s[-20]=neg ¦ s=("${s[@]}") ¦ a=("${a[@]}") ¦ s[0]+=add
            h[k]=new ¦ h+=([z]=zz [k]+=app) ¦ h[a b]+=' more' ¦ h[']']=x ¦ h[@]=at2
            h=([one]=1 [two]=2) ¦ h+=(x y) ¦ h=(k1 v1 k2) ¦ h[$i]=dollar ¦ h["$k"]=kv
            h['*']=star ¦ h[]=empty ¦ a[]=empty ¦ a[@]=at ¦ h+=([k]=rep) ¦ a=(1 [5]=5 6)
            declare -a a ¦ declare -A a ¦ declare -a h ¦ declare -A nh=([x]=1) ¦ declare -A nh
            declare -ai ia=(1+1 2*3 x) ¦ declare -al la=(ABC Def) ¦ declare -au ua=(abc dEf)
            ia+=(4+4) ¦ ia[0]+=5 ¦ la+=(XYZ) ¦ ua[1]=low ¦ declare -i n ¦ n+=(7) ¦ n[0]+=3
            declare -a v=scalar ¦ declare -A hv=scalar ¦ v=plain; declare -a v; declare -p v
            v=plain; declare -A v ¦ declare -a a=([2]=two) ¦ declare -A h=([new]=n)
            declare -r ro=(r1 r2) ¦ ro[0]=w ¦ ro+=(w) ¦ readonly -a ra=(x y) ¦ ra[3]=z
            readonly -A rh=([k]=v) ¦ unset ro ¦ declare -a ro ¦ declare +a a ¦ declare +A h
            unset a[1] ¦ unset 'a[@]' ¦ unset 'a[*]' ¦ unset a ¦ unset 'h[a b]' ¦ unset h[k]
            unset 'h[@]' ¦ unset s[-1] ¦ unset s[-20] ¦ unset 'a[-9]' ¦ unset a[i] ¦ unset h
            unset 'h[]' ¦ unset 'a[x]' ¦ unset -v 'a[0]' ¦ unset e
            [[ -v a[1] ]]; echo "v$?" ¦ [[ -v a[7] ]]; echo "v$?" ¦ [[ -v h[k] ]]; echo "v$?"
            [[ -v a ]]; echo "v$?" ¦ [[ -v e ]]; echo "v$?" ¦ [[ -v 'h[a b]' ]]; echo "v$?"
            [[ -v a[@] ]]; echo "v$?" ¦ test -v 'a[2]'; echo "t$?" ¦ test -v 's[5]'; echo "t$?"
            [[ -v s[-1] ]]; echo "v$?" ¦ [[ -v s[-20] ]]; echo "v$?" ¦ test -v h; echo "t$?"
            declare -p a ¦ declare -p s h ¦ declare -p e ¦ declare -p n ¦ declare -p a s h e n
            declare -p ia la ua 2>&1 ¦ declare -a | grep -E ' (a|s|e|n)=' ¦ declare -A
            read -a a <<< 'r1 r2  r3' ¦ read -ra s <<< $'x\\y z' ¦ IFS=: read -a a <<< 'a:b::c'
            read -a h <<< 'x y' ¦ read -a ro <<< 'x' ¦ read -a 'a[1]' <<< x
            mapfile -t a <<< $'m1\nm2' ¦ mapfile -t -O 2 a <<< $'o1\no2' ¦ mapfile -t s < /dev/null
            mapfile -t h <<< x ¦ readarray -t -O 1 s <<< $'r\ns'
            printf -v 'a[2]' '%s-%s' p q ¦ printf -v 'h[new key]' %d 42 ¦ printf -v 'a[-1]' x
            printf -v 's[-20]' x ¦ printf -v e z
            (( a[1] += 2 )); echo "r$?" ¦ (( n[1] += 2, n[0]-- )) ¦ (( h[k]++ )) ¦ echo $(( n ))
            (( s[-1] = 4 )) ¦ (( z = a[5] + n[1] )); echo "z=$z" ¦ (( e[3] = 1 )) ¦ let 'n[2]=n[1]*3'
            [[ 'ab12' =~ ([a-z]+)([0-9]+) ]]; show "${BASH_REMATCH[@]}" ¦ [[ x =~ (y)? ]]
            [[ abc =~ b ]]; declare -p BASH_REMATCH ¦ BASH_REMATCH=(q) ¦ unset BASH_REMATCH
            IFS=: ¦ IFS= ¦ unset IFS ¦ IFS=' e' ¦ IFS=$'\n' ¦ set -u ¦ set +u
            f() { local -a la=(l1 l2); la+=(l3); declare -p la; } ; f
            f() { local -A lh=([a]=1); lh[b]=2; declare -p lh; local a=(loc); show "${a[@]}"; }; f
            f() { local a; a[1]=x; declare -p a; }; f ¦ f() { declare -g -a ga=(g); }; f; declare -p ga
            declare -n r=a; r[1]=viaref; show "${r[@]}" ¦ declare -n r='a[0]'; echo "$r"
            b=(x y); b=$(echo new); declare -p b ¦ b=(x y); b=scalar; declare -p b
            c=str; c[2]=two; declare -p c ¦ c=str; c+=(more); declare -p c
            eval "$(declare -p h)"; declare -p h ¦ eval "b=($(printf '%q ' "${a[@]}"))"; declare -p b
            declare -A q=([k]=); echo "${#q[@]}:${q[k]+set}" ¦ echo "${#a[@]} ${#s[@]} ${#h[@]}"
            a=(0 1 2 3 4 5); unset 'a[2]' 'a[4]'; show "${a[@]:2:2}" "${!a[@]}"
            declare -a x1=(1) x2; declare -p x1 x2 ¦ declare -A y1 y2=(); declare -p y1 y2
            declare -a 'z[2]=zz' ¦ declare 'z[1]=w'; declare -p z ¦ declare -A 'hz[k]=v'
            local -a notinfn ¦ declare -a -A both ¦ declare -a 1bad=(x) ¦ a=(x) b
            "#,
        ),
    ]
    .boxed()
}

fn arrays_script() -> BoxedStrategy<String> {
    (
        lines(arrays_line(), 2..8),
        sel(&[
            "",
            "",
            "",
            "IFS=:",
            "IFS=",
            "IFS=' o'",
            "set -u",
            "shopt -s extglob",
        ]),
    )
        .prop_map(|(body, pre)| {
            format!(
                "show() {{ printf '<%s>' \"$@\"; echo \" #$#\"; }}\n\
                 a=(zero 'one two' '' three); s=([5]=five [9]=nine [2]=two); e=(); one=(solo)\n\
                 declare -A h=([k]=v ['a b']=sp [']']=br ['@k']=at [\"q'\"]=sq ['*']=st)\n\
                 n=(10 20 30); i=1; x=2; k=k; l=plain\n{pre}\n{body}\n\
                 echo \"end:$?\"\ndeclare -p a s e h n 2>&1\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- pattern matching

/// A piece of a pattern whose parentheses balance, so it is safe in any word: text,
/// wildcards, bracket expressions of every shape, quoted and escaped parts, variables
/// holding pattern characters, and extglob groups.
fn pat_atom() -> BoxedStrategy<String> {
    prop_oneof![
        3 => frag(
            r##"
            * ¦ ? ¦ a ¦ b ¦ c ¦ A ¦ x ¦ . ¦ - ¦ ] ¦ 1 ¦ ** ¦ *a ¦ a* ¦ ?? ¦ / ¦ B ¦ ab
            "##,
        ),
        3 => frag(
            r##"
            [ab] ¦ [!a] ¦ [^a] ¦ []a] ¦ [a-] ¦ [\]] ¦ [a-c] ¦ [c-a] ¦ [A-Z] ¦ [!]] ¦ []-a]
            [!a-c] ¦ [-a] ¦ [a\-z] ¦ [\!a] ¦ [a-c-e] ¦ [*] ¦ [?] ¦ [.] ¦ [/] ¦ [[] ¦ [a-Z]
            [[:alpha:]] ¦ [[:digit:]] ¦ [[:space:]] ¦ [[:punct:]] ¦ [[:upper:]] ¦ [[:lower:]]
            [[:alnum:]] ¦ [[:blank:]] ¦ [[:xdigit:]] ¦ [[:cntrl:]] ¦ [[:graph:]] ¦ [[:print:]]
            [[:word:]] ¦ [[:nosuch:]] ¦ [![:alpha:]] ¦ [[:alpha:][:digit:]] ¦ [[:alpha:]-]
            [[=a=]] ¦ [[.a.]] ¦ [[=a=]b] ¦ [[.-.]] ¦ [[.hyphen.]] ¦ [[:alpha:] ¦ [^[:upper:]]
            [ ¦ [a ¦ a[ ¦ [! ¦ \[ ¦ [[:a ¦ [a\] ¦ [[.a ¦ [a-[:digit:]]
            "##,
        ),
        2 => frag(
            r##"
            \* ¦ \? ¦ \a ¦ \\ ¦ "*" ¦ '?' ¦ "a*" ¦ '[ab]' ¦ "\*" ¦ '\' ¦ "" ¦ '' ¦ \[a]
            ${v} ¦ "${v}" ¦ ${w} ¦ "${w}" ¦ ${bs} ¦ "${bs}" ¦ ${ex} ¦ "${ex}" ¦ ${v}x ¦ ${br} ¦ "${br}" ¦ ${q}
            "##,
        ),
        2 => frag(
            r##"
            @(a|b) ¦ !(a*) ¦ *(a|b) ¦ +(ab|c) ¦ ?(x) ¦ @(a|@(b|c)) ¦ !(*.c|b) ¦ +([[:alpha:]])
            *(?) ¦ @() ¦ !() ¦ @(|a) ¦ !(!(a)) ¦ *([ab]) ¦ +(a*) ¦ @(*) ¦ ?(a|b)c ¦ @(\*|"?")
            !(a) ¦ !(*) ¦ *(a)b ¦ @(A|b)* ¦ +(?|[[:digit:]])
            "##,
        ),
    ]
    .boxed()
}

/// A pattern: one to three atoms.
fn pat() -> BoxedStrategy<String> {
    prop::collection::vec(pat_atom(), 1..4)
        .prop_map(|v| v.concat())
        .boxed()
}

/// A subject string (raw text, to be quoted).
fn pat_subject() -> BoxedStrategy<String> {
    prop::collection::vec(
        sel(&[
            "a", "b", "c", "A", "B", "ab", "abc", "]", "[", "-", "*", "?", ".", "/", "\\", " ",
            "x", "1", "\t", "é", "(", "|", "&", "aa", "Ab",
        ]),
        0..4,
    )
    .prop_map(|v| v.concat())
    .boxed()
}

/// Where a subject comes from.
fn pat_subj_ref() -> BoxedStrategy<String> {
    prop_oneof![
        3 => sel(&["$s", "\"$s\"", "$1", "\"${arr[3]}\"", "abc", "ABC", "''", "$t", "x.c"]),
        2 => pat_subject().prop_map(|s| squote(&s)),
    ]
    .boxed()
}

/// A replacement for `${x/pat/rep}`.
fn pat_rep() -> BoxedStrategy<String> {
    frag(
        r##"
        x ¦ & ¦ \& ¦ "&" ¦ '&' ¦ [&] ¦ $r ¦ "$r" ¦ \\& ¦ "\&" ¦ <&&> ¦ ¦ _ ¦ $s ¦ a/b
        "##,
    )
}

fn pat_param() -> BoxedStrategy<String> {
    let name = sel(&["s", "t", "@", "arr[@]", "arr[*]", "*", "arr", "u", "e"]);
    let op = sel(&["#", "##", "%", "%%", "/", "//", "/#", "/%"]);
    (
        name,
        op,
        prop_oneof![4 => pat(), 1 => Just(String::new())],
        pat_rep(),
        0..3usize,
    )
        .prop_map(|(n, o, p, r, q)| {
            let inner = if o.starts_with('/') {
                if r.is_empty() && p.len() % 2 == 0 {
                    format!("{n}{o}{p}")
                } else {
                    format!("{n}{o}{p}/{r}")
                }
            } else {
                format!("{n}{o}{p}")
            };
            match q {
                0 => format!("\"${{{inner}}}\""),
                1 => format!("${{{inner}}}"),
                _ => format!("x${{{inner}}}y"),
            }
        })
        .boxed()
}

/// A `case` command: arms of `|`-joined patterns ending in `;;`, `;&` or `;;&`.
fn pat_case() -> BoxedStrategy<String> {
    let arm = (
        prop::collection::vec(pat(), 1..4),
        sel(&[";;", ";;", ";&", ";;&"]),
    );
    (
        pat_subj_ref(),
        prop::collection::vec(arm, 1..4),
        prop::bool::ANY,
    )
        .prop_map(|(w, arms, default)| {
            let mut s = format!("case {w} in");
            for (i, (ps, term)) in arms.iter().enumerate() {
                s.push_str(&format!(" {}) echo c{i}{term}", ps.join("|")));
            }
            if default {
                s.push_str(" *) echo dflt;;");
            }
            s.push_str(" esac; echo \"rc=$?\"");
            s
        })
        .boxed()
}

fn pat_glob_atom() -> BoxedStrategy<String> {
    prop_oneof![
        4 => frag(
            r##"
            * ¦ ? ¦ a ¦ b ¦ A ¦ x ¦ . ¦ .* ¦ d ¦ D ¦ / ¦ */ ¦ d/ ¦ ** ¦ **/ ¦ ab ¦ .h ¦ e/ ¦ 1
            [ab] ¦ [!a] ¦ [^.] ¦ [.] ¦ [[:upper:]] ¦ [[:digit:]] ¦ [[:punct:]] ¦ [a-c] ¦ [A-Z]
            [a-Z] ¦ \* ¦ "*" ¦ ${v} ¦ "${v}" ¦ @(a|b) ¦ !(a*) ¦ *(x|1) ¦ +([0-9]) ¦ ?(.)h* ¦ !(*.c)
            [ ¦ \[* ¦ [[]* ¦ [!.]* ¦ *.[cC] ¦ x[0-9]* ¦ *' '* ¦ [[:space:]] ¦ "sp ace" ¦ sp\ * ¦ ]
            ${w} ¦ ${bs} ¦ ${ex} ¦ .[!.]* ¦ [[=a=]]* ¦ [[.a.]]* ¦ d/* ¦ d/** ¦ **/3 ¦ d/**/ ¦ */.* ¦ ?/
            "##,
        ),
    ]
    .boxed()
}

/// A glob over the files the script makes (never an absolute path: the host's root
/// is not shellbox's).
fn pat_glob() -> BoxedStrategy<String> {
    prop::collection::vec(pat_glob_atom(), 1..4)
        .prop_map(|v| {
            let g = v.concat();
            if g.starts_with('/') {
                format!("d{g}")
            } else {
                g
            }
        })
        .boxed()
}

fn pat_line() -> BoxedStrategy<String> {
    let cmp = sel(&["==", "==", "=", "!="]);
    prop_oneof![
        4 => pat_case(),
        4 => (pat_subj_ref(), cmp.clone(), pat())
            .prop_map(|(a, c, p)| format!("[[ {a} {c} {p} ]]; echo \"rc=$?\"")),
        1 => (pat(), cmp, pat_subj_ref())
            .prop_map(|(p, c, a)| format!("v2={}; [[ {a} {c} $v2 ]]; echo \"rc=$?\"; [[ {a} {c} \"$v2\" ]]; echo \"rc=$?\"", squote(&p))),
        1 => (pat(), pat_subj_ref())
            .prop_map(|(p, a)| format!("p={}; case {a} in $p) echo m;; \"$p\") echo q;; *) echo n;; esac", squote(&p))),
        4 => prop::collection::vec(pat_param(), 1..4)
            .prop_map(|w| format!("show {}", w.join(" "))),
        4 => prop::collection::vec(pat_glob(), 1..3)
            .prop_map(|w| format!("show {}; echo \"rc=$?\"", w.join(" "))),
        1 => pat_glob().prop_map(|g| format!("for f in {g}; do printf '[%s]' \"$f\"; done; echo \" rc=$?\"")),
        1 => pat_glob().prop_map(|g| format!("a2=({g}); echo \"${{#a2[@]}} rc=$?\"")),
        1 => pat_subject().prop_map(|s| format!("s={}", squote(&s))),
        3 => frag(
            r##"
            shopt -s extglob ¦ shopt -u extglob ¦ shopt -s nocasematch ¦ shopt -u nocasematch
            shopt -s dotglob ¦ shopt -u dotglob ¦ shopt -s nullglob ¦ shopt -u nullglob
            shopt -s failglob ¦ shopt -u failglob ¦ shopt -s nocaseglob ¦ shopt -u nocaseglob
            shopt -s globstar ¦ shopt -u globstar ¦ shopt -u globasciiranges
            shopt -u patsub_replacement ¦ shopt -s patsub_replacement ¦ shopt -u globskipdots
            GLOBIGNORE='a*' ¦ GLOBIGNORE=.hid:b ¦ GLOBIGNORE='*/*' ¦ GLOBIGNORE=. ¦ unset GLOBIGNORE
            GLOBIGNORE='[[:upper:]]*:d' ¦ GLOBIGNORE= ¦ set -f ¦ set +f ¦ cd d ¦ cd "$top"
            "##,
        ),
    ]
    .boxed()
}

fn patterns_script() -> BoxedStrategy<String> {
    (
        lines(pat_line(), 2..7),
        sel(&["", "", "shopt -s extglob", "shopt -s extglob", "shopt -s extglob; shopt -s nocasematch", "shopt -s extglob globstar", "shopt -s extglob dotglob"]),
        pat_subject(),
    )
        .prop_map(|(body, pre, subj)| {
            format!(
                "export LC_ALL=C; unset u GLOBIGNORE\n\
                 show() {{ printf '<%s>' \"$@\"; echo \" #$#\"; }}\n\
                 top=$PWD\n\
                 touch a b c ab abc .hid .h2 'sp ace' A B Ab aB x1 x2 x10 'a*' 'q?' '[a]' ']' y.c z.C\n\
                 mkdir -p d/e/f D .hd; touch d/1 d/e/2 d/e/f/3 d/.h D/k .hd/z\n\
                 v='a*'; w='[!a]*'; bs='\\*'; ex='@(a|b)*'; r='<&>'; br='[ab'; q='\\'; e=\n\
                 s={}; t=aXbXc; arr=(abc 'a b' '' aXa '*' ABC); set -- abc 'x y' '' ba\n{pre}\n{body}\necho \"end:$?\"\n",
                squote(&subj)
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- builtins with options

/// One line exercising a builtin with many options (valid and invalid), followed by its
/// status. Commands whose output names a path of the sandbox run under `p`, which folds
/// the working tree's prefix to `T` (and its parent to `W`).
fn builtins_line() -> BoxedStrategy<String> {
    let line = prop_oneof![
        // type and command.
        4 => frag(
            r#"
            type cat ¦ type -a cat ¦ type -a echo ¦ type -P ls ¦ type -p sed ¦ type -t cat if echo f ll
            type f ¦ type -f f ¦ type -af echo ¦ type -t nosuch ¦ type nosuch ¦ type -x ¦ type
            type ll ¦ type -a ll ¦ type -p ll ¦ type -P echo ¦ type -p echo ¦ type -tP cat ¦ type if then
            type -a f ¦ type -f cat ¦ type -- -t ¦ type -t -- ls ¦ type -t '[[' '[' ']]' ¦ type -a true
            type -ta printf ¦ type -pa cat ¦ type -fp f ¦ type cd pwd kill ¦ type -tf f ll
            command -v cat ¦ command -v cat ll f if echo nosuch ¦ command -V cat ll f if echo
            command -V nosuch ¦ command -p -v cat ¦ command -x ¦ command ¦ command -v ¦ command -pV ls
            command -v -V echo ¦ command -Vv echo ¦ command echo hi ¦ command -p echo p ¦ command f
            command -- -v ¦ command nosuch ¦ command -v -- -x ¦ command -v '' ¦ command type -t f
            "#,
        ),
        // hash.
        3 => frag(
            r#"
            hash ¦ hash -t cat ¦ hash cat ¦ hash cat ls; hash ¦ cat </dev/null; hash ¦ hash -l
            hash -p /bin/ls myls; hash ¦ hash -t myls ¦ hash -d cat ¦ hash -d nosuch ¦ hash -r
            hash nosuch ¦ hash -x ¦ hash -t ¦ hash -p ¦ hash -d ¦ hash -tl cat ¦ hash -lt cat ls
            hash -p /nonexistent zz; zz ¦ hash -t cat ls nosuch ¦ hash -r; hash -t cat ¦ hash -- cat
            ls >/dev/null; hash -t ls ¦ hash -p /bin/echo ec; type ec ¦ hash -dr ¦ hash f ¦ hash echo
            sed q </dev/null; hash -l ¦ hash -p /bin/cat ¦ hash -d cat ls ¦ hash -pd x ¦ type -a cat
            PATH=$PATH; hash ¦ hash ./x ¦ hash /bin/ls ¦ hash -l cat; hash -l
            "#,
        ),
        // enable.
        3 => frag(
            r#"
            enable -n echo; echo hi; type -t echo ¦ enable echo; type -t echo ¦ enable -n nosuch
            enable -n cd; enable -n -p ¦ enable -p | head -4 ¦ enable -a | grep -E 'cd|echo|test'
            enable -s ¦ enable -x ¦ enable -d cd ¦ enable -n test; [ 1 ] ¦ enable -np
            enable -n printf; printf '%s\n' x ¦ enable -n echo cd; enable -n ¦ enable -ps | head -3
            enable type; type -t type ¦ enable -n type; type -t cd ¦ enable -a | head -3 ¦ enable -an | head -3
            enable -n nosuch echo ¦ enable -n -s export ¦ enable -s -n | head -2 ¦ enable -- echo
            enable -n ':'; :; echo "colon:$?" ¦ enable -n builtin; builtin echo b ¦ enable -n dirs; enable -n; enable dirs
            "#,
        ),
        // shopt and set -o.
        4 => frag(
            r#"
            shopt -s extglob nullglob; shopt extglob nullglob dotglob ¦ shopt -q extglob ¦ shopt -q dotglob extglob
            shopt nosuch ¦ shopt -s nosuch ¦ shopt -x ¦ shopt -u -o errexit ¦ shopt -so ¦ shopt -s | head -3
            shopt -o -s pipefail; set -o | grep pipe ¦ set -o nosuch ¦ set +o pipefail ¦ set -o errexit nounset
            shopt -s -u x ¦ shopt -p extglob dotglob ¦ shopt -po noglob ¦ shopt -pu | head -3 ¦ shopt -ps
            shopt -o | head -4 ¦ shopt -q nosuch ¦ shopt -qo nounset ¦ set -o | head -4 ¦ set +o | head -4
            set -o | grep -E 'hashall|monitor|posix' ¦ set +o | grep -E 'brace|noglob' ¦ shopt -o noglob emacs
            shopt -o nosuch ¦ shopt -s -o noglob; echo * ¦ set -o noclobber; shopt -o noclobber ¦ set -f; shopt -po noglob
            shopt -p | md5sum ¦ shopt -po | md5sum ¦ shopt -s globstar xpg_echo; shopt -p globstar xpg_echo
            shopt -u nullglob nosuch extglob; shopt -p nullglob extglob ¦ set -o vi; set -o | grep -E 'vi|emacs'
            set -o posix; shopt -po posix ¦ set +o nosuch ¦ set -o -o ¦ set -o pipefail -o nounset; set +o | grep -E 'pipe|nounset'
            shopt -s; echo "s:$?" ¦ shopt -q; echo "q:$?" ¦ shopt -- extglob ¦ shopt -s -- nullglob ¦ set -B; shopt -po braceexpand
            "#,
        ),
        // kill -l.
        2 => frag(
            r#"
            kill -l | md5sum ¦ kill -L | md5sum ¦ kill -l 130 ¦ kill -l 9 15 HUP SIGTERM ¦ kill -l 0 ¦ kill -l 200
            kill -l nosuch ¦ kill -l 64 65 ¦ kill -l -- 3 ¦ kill -L 2 ¦ kill -l sigint ¦ kill -x ¦ kill ¦ kill -s
            kill -n 99 1 ¦ kill -l 127 128 129 257 -1 ¦ kill -l INT TERM ¦ kill -l sigusr1 SIGRTMIN+1 ¦ kill -l 143 137
            kill -s HUP ¦ kill -0 ¦ kill -l SIGRTMAX-2 RTMIN ¦ kill -l EXIT ¦ kill -ll ¦ kill -l 1 x 2 ¦ kill -L KILL
            "#,
        ),
        // ulimit, with only deterministic values.
        2 => frag(
            r#"
            ulimit -x ¦ ulimit -Z ¦ ulimit -n abc ¦ ulimit -c 0; ulimit -c ¦ ulimit -c 1 2 ¦ ulimit -Sc 0; ulimit -Sc
            ulimit -c 10; ulimit -c ¦ ulimit -c -f ¦ ulimit -fc ¦ ulimit -c 0; ulimit -fc ¦ ulimit -f unlimited; ulimit -f
            ulimit -c 0; ulimit -c -f ¦ ulimit -c soft ¦ ulimit -c hard ¦ ulimit -c -1 ¦ ulimit -c 1x ¦ ulimit -c ''
            ulimit -c 0x10; ulimit -c ¦ ulimit -c 010; ulimit -c ¦ ulimit -c 5 -f 6 ¦ ulimit -a | grep -e '-c)' -e '-f)' ¦ ulimit -Sc 3 -c ¦ ulimit -Sc -f -- 7; ulimit -f ¦ ulimit -Hc 4; ulimit -c 5 ¦ ulimit -- -c
            "#,
        ),
        // compgen and complete.
        3 => frag(
            r#"
            compgen -W "apple apricot banana" ap ¦ compgen -W "a b c" -P "<" -S ">" ¦ compgen -W "ab ac bd" -X "a*"
            compgen -W "ab ac bd" -X "!a*" ¦ compgen -b ec ¦ compgen -k fu ¦ compgen -v x ¦ compgen -A variable x
            compgen -W "a b" z ¦ compgen -x ¦ compgen -A nosuch ¦ compgen -A function ¦ compgen -a ¦ compgen -b | head -4
            compgen -k | head -4 ¦ compgen -A builtin -P '[' -S ']' ty ¦ compgen -W '$x1 "q r"' ¦ compgen -W 'a b' -- -
            compgen -A alias l ¦ compgen -A keyword -X 'f*' f ¦ compgen -d | sort ¦ compgen -d a ¦ compgen -f s ¦ compgen -G '[al]*' | sort
            compgen -A enabled ec ¦ compgen -A disabled ¦ compgen -A shopt ext ¦ compgen -A setopt no ¦ compgen -A signal SIGU
            compgen -o default | sort ¦ compgen -o nosuch ¦ compgen -W ¦ compgen -X ¦ compgen ¦ compgen -e HOM ¦ compgen -u nosuchuser
            complete -p ¦ complete -W "a b" foo; complete -p ¦ complete -p foo ¦ complete -p nosuch ¦ complete -r foo
            complete -x ¦ complete -r nosuch ¦ complete -F fn -o nospace foo bar; complete -p ¦ complete -A builtin -P x b; complete -p b
            complete -D -W d; complete -p ¦ complete -E -W e; complete -p -E ¦ complete -o nosuch z ¦ complete -A nosuch z
            complete -W 'x y' -X '!x' -S / qq; complete -p qq ¦ complete -r; complete -p ¦ complete -pr ¦ complete ¦ compopt -o nospace
            "#,
        ),
        // alias and unalias.
        3 => frag(
            r#"
            alias ¦ alias -p ¦ alias ll nosuch ¦ unalias nosuch ¦ unalias -a; alias ¦ alias -x ¦ unalias
            alias a3='echo "q'\''t"'; alias a3 ¦ alias 'bad name=x' ¦ alias =x ¦ alias x= ; alias x ¦ unalias ll; alias
            alias -p ll la ¦ alias -- -x=y; alias ¦ unalias -- ll ¦ unalias -x ¦ unalias ll ll ¦ alias la='ls -a' ll='ls' ; alias -p
            alias 'a/b=c' ¦ alias 'a$b=c' ¦ unalias -a ll ¦ alias ll; type -t ll ¦ alias '' ¦ unalias ''
            "#,
        ),
        // builtin and help -s.
        2 => frag(
            r#"
            builtin echo hi ¦ builtin nosuch ¦ builtin cat ¦ builtin ¦ builtin -x ¦ builtin -- echo a ¦ builtin builtin echo b
            builtin type -t cd ¦ builtin f ¦ builtin : x ¦ builtin -- ¦ builtin if
            help -s cd pwd ¦ help -s nosuch ¦ help -x ¦ help -s 'p*' ¦ help -s hash enable ulimit ¦ help -s 'ec*' true
            help -s kill compgen ¦ help -s dirs pushd popd ¦ help -s umask wait jobs ¦ help -s exit return '['
            "#,
        ),
        // The directory stack.
        4 => frag(
            r#"
            p pushd a ¦ p pushd b ¦ p pushd ../c ¦ p pushd lnk ¦ p dirs ¦ p dirs -v ¦ p dirs -l ¦ p dirs -p ¦ p dirs +1 ¦ p dirs -1
            p dirs +9 ¦ p pushd +1 ¦ p pushd -1 ¦ p popd ¦ p popd +1 ¦ p popd -5 ¦ p pushd ¦ dirs -c; p dirs ¦ p popd ¦ p pushd nosuch
            p pushd -x ¦ p dirs -x ¦ p pushd -n a ¦ p pushd -n b; p dirs ¦ p popd -n ¦ p popd -n +1 ¦ p dirs -lv ¦ p dirs -vp
            p pushd a; p pushd "$T/c"; p pushd +2 ¦ p pushd +0 ¦ p popd +0 ¦ p popd -0 ¦ p dirs -0 ¦ p popd x ¦ p pushd a b
            p pushd ~/a ¦ p dirs +1 +2 ¦ p dirs x ¦ p pushd -- a ¦ p popd -- ¦ p dirs -c -v ¦ p pushd "sp ace" ¦ p pushd -n "$T/c"
            p echo "${DIRSTACK[@]}" ¦ DIRSTACK[1]=zz; p dirs ¦ p pushd -1x ¦ p popd +x
            "#,
        ),
        // cd and pwd.
        4 => frag(
            r#"
            p cd lnk ¦ p pwd ¦ p pwd -P ¦ p pwd -L ¦ p cd .. ¦ p cd -P lnk ¦ p cd - ¦ p cd nosuch ¦ p cd a b ¦ p cd -x
            CDPATH=$T/a p cd b ¦ p cd "$T"; CDPATH=:a p cd b ¦ OLDPWD=; p cd - ¦ unset OLDPWD; p cd - ¦ (unset HOME; cd; echo "nh:$?")
            p pwd -x ¦ p pwd a ¦ p cd '' ¦ p cd -L lnk/.. ¦ p cd -P lnk/.. ¦ p cd lnk; p cd .. ¦ p cd -P lnk; p pwd -L
            p cd "$T/./a//b/" ¦ p cd ./a ¦ CDPATH=. p cd a ¦ CDPATH=$T p cd c ¦ CDPATH=$T/ p cd -P lnk ¦ p cd -e nosuch
            p cd -Pe lnk ¦ p cd ~ ¦ p cd ~/c ¦ cd a; PWD=/bogus; p pwd ¦ cd a; PWD=/bogus; p pwd -P ¦ p cd -LP lnk ¦ p cd -PL lnk
            OLDPWD=a p cd - ¦ p cd -- a ¦ p cd - - ¦ p cd sp* ¦ HOME=$T/c p cd ¦ HOME= p cd ¦ p cd c/../a ¦ p cd lnk/../..
            p cd f1 ¦ p cd "$T/c"; echo "${PWD/#$T/T} ${OLDPWD/#$T/T}" ¦ p cd /; p pwd; cd "$T"
            "#,
        ),
        // umask.
        3 => frag(
            r#"
            umask ¦ umask -S ¦ umask -p ¦ umask 027; umask ¦ umask u=rwx,g=rx,o=; umask ¦ umask g+w; umask -S
            umask a-x; umask ¦ umask 8 ¦ umask u=q ¦ umask -x ¦ umask -p -S ¦ umask 1 2 ¦ umask + ¦ umask 0777; umask -S
            umask 7; umask -p ¦ umask u+s; umask ¦ umask o-rwx,g=u; umask ¦ umask a=; umask -S ¦ umask ugo+r; umask
            umask -S 022 ¦ umask -pS ¦ umask 00022; umask ¦ umask 1777; umask ¦ umask '' ¦ umask u=rw,g=u-w; umask
            umask =; umask ¦ umask +x; umask ¦ umask -- 022; umask -p ¦ umask g=x,o=X; umask ¦ umask u=rwx,; umask
            "#,
        ),
        // wait and jobs on finished jobs.
        3 => frag(
            r#"
            (exit 3) & wait $!; echo "w:$?" ¦ (exit 4) & wait -n; echo "wn:$?" ¦ wait -n; echo "wn0:$?" ¦ wait
            (exit 5) & wait -p v -n; echo "wp:$? ${v:+set}" ¦ wait 99999 ¦ wait %5 ¦ wait -x ¦ jobs ¦ jobs -x ¦ jobs -l %1
            (exit 2) & (exit 6) & wait; echo "all:$?" ¦ (exit 7) & jobs -n >/dev/null; wait %1; echo "j:$?"
            wait -p ¦ wait -p 1x -n ¦ jobs -x echo xarg ¦ jobs -p %nosuch ¦ jobs -z ¦ wait %% ¦ wait %+ ¦ wait -f
            true & wait %1; echo "w1:$?" ¦ jobs %1 ¦ wait abc ¦ wait -- ¦ jobs -r ¦ jobs -s
            "#,
        ),
        // true, false, :, exit and return with arguments.
        2 => frag(
            r#"
            true a b ¦ false a ¦ : x y ¦ true --help ¦ false --version ¦ : -x ¦ exit x ¦ exit 1 2 ¦ return 1
            (exit 2 3) ¦ (exit -1) ¦ (exit 256) ¦ (exit '') ¦ (exit ' 3') ¦ (exit 3x) ¦ f 1 2 ¦ r x ¦ r 1 2 ¦ r -3 ¦ r 999
            (exit -- 4) ¦ (exit --) ¦ r '' ¦ r +5 ¦ (exit 0x3) ¦ (exit 99999999999999999999) ¦ r 4x ¦ return
            "#,
        ),
    ];
    line.prop_map(|l| format!("{l}; echo \"s:$?\"")).boxed()
}

fn builtins_script() -> BoxedStrategy<String> {
    (lines(builtins_line(), 2..8), sel(&["", "", "shopt -s expand_aliases", "set -o posix"]))
        .prop_map(|(body, pre)| {
            format!(
                "mkdir -p t/a/b t/c 't/sp ace'; : >t/f1; ln -s a/b t/lnk; : >o; cd t\n\
                 T=$PWD HOME=$PWD OLDPWD=$PWD; x1=1 x2=2\n\
                 p() {{ \"$@\" >|\"$T/../o\" 2>&1; local s=$?; sed \"s|$T|T|g; s|${{T%/t}}|W|g\" \"$T/../o\"; return $s; }}\n\
                 f() {{ echo \"f:$#\"; }}\nr() {{ return \"$@\"; }}\nalias ll='ls -l'\n{pre}\n{body}\necho \"end:$?\"\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- syntax

/// A piece of the grammar that parses (the manual's "Shell Syntax", "Shell Commands",
/// "Aliases", brace and tilde expansion): `case` in `$( )` with and without the leading
/// paren, here-documents inside `$( )` and backquotes, quotes nested in `${ }` inside
/// `"..."`, backslash-newline in odd places, reserved words where they are plain words,
/// comments, `;&`/`;;&`, arithmetic `for`, `coproc` heads. Some span lines.
fn syntax_good() -> BoxedStrategy<String> {
    let one_line = frag(
        r##"
        echo $(case a in a) echo A;; esac) ¦ echo $(case a in (a) echo A;; esac)
        echo "$(case b in a|b) echo AB;; *) echo no;; esac)" ¦ echo $( case x in x) echo ')';; esac )
        echo $(case a in a) echo "x)";; esac; echo y) ¦ echo $(echo "(") $(echo \)) ¦ echo $( (echo sub) )
        echo $((echo dbl) ) ¦ echo $( (echo a); (echo b) ) ¦ echo $(( (1+2) * 3 )) ¦ echo $(echo $(echo deep))
        echo `echo \`echo nest\`` ¦ echo "`echo "in q"`" ¦ echo "$(echo "a ( b")" ¦ echo $(case a in a) ;; esac)x
        x=$(case a in *) echo star;; esac); echo "$x" ¦ echo $(case a in (a|b) echo ab;; (*) echo st;; esac)
        echo "${v:-"a b"}" ¦ echo "${u:-"a  b"}" ¦ echo "${u:-'q'}" ¦ echo "${u:-\"x\"}" ¦ echo "${v/a/"b c"}"
        echo "${v#"a"}" ¦ echo "${u-$(echo "n (x)")}" ¦ echo "${u:-`echo bq`}" ¦ echo "${u:-}}" ¦ echo "${u:-\}}"
        echo "${u:-{}" ¦ echo "${u:-a\"b}" ¦ echo ${u:-"a  b"} ¦ echo "${v:+"${v}x"}" ¦ echo "${u:-$'\t'}"
        echo "${u:-"$'x'"}" ¦ echo "${u:-'a'"b"}" ¦ echo ${u:-'a'"b"} ¦ echo "${v//' '/_}" ¦ echo "${v/#a/'['}"
        echo "${u:-"}"}" ¦ echo "${u:-"${u:-"in"}"}" ¦ echo "${u:-'}'}" ¦ echo "${u:-a'b}" ¦ echo "${v%"b"}"
        echo { } do done ! function time if then fi ¦ echo a } ¦ { echo a; } ¦ ! true; echo $? ¦ ! false; echo $?
        ! ! true; echo $? ¦ ! { false; }; echo $? ¦ if ! false; then echo n; fi ¦ true | ! false; echo $?
        function f { echo f; }; f ¦ function f() { echo f; }; f ¦ function f ( echo s ); f ¦ f() ( echo p ); f
        for do in a; do echo $do; done ¦ case do in do) echo do;; esac ¦ case in in in) echo in;; esac
        case esac in (esac) echo e;; esac ¦ echo if; if=1; echo $if ¦ then=2; echo $then ¦ {echo a;}
        TIMEFORMAT=; time true; echo $? ¦ TIMEFORMAT=; time; echo $? ¦ TIMEFORMAT=; ! time false; echo $?
        TIMEFORMAT=; time ! true; echo $? ¦ TIMEFORMAT=; time { echo tb; } ¦ echo time ¦ [[ -n x ]] && echo y
        echo [[ ]] ¦ { { echo n; }; } ¦ {  echo sp; } ¦ ( (echo a) ) ¦ ((echo a) ) ¦ { echo a; } >/dev/null; echo $?
        echo {a,b}{1..3} ¦ echo {1..10..3} ¦ echo {a..e..2} ¦ echo {z..w} ¦ echo {,a}b ¦ echo {a} ¦ echo {a,b
        echo \{a,b} ¦ echo {"a,b"} ¦ echo x{a,{b,c}}y ¦ echo {1..3}{,} ¦ echo {-2..2} ¦ echo {01..10..4}
        echo {a..C} ¦ echo $v{1,2} ¦ echo {$v,b} ¦ echo ${v}{1,2} ¦ echo {1..3..0} ¦ echo {a,b}\ c ¦ echo "{a,b}"
        echo {a,'b c'} ¦ echo {{a,b}} ¦ echo {a,b}{} ¦ echo a{,,}b ¦ echo {1..2}{a..b} ¦ echo ~/{a,b} ¦ echo {~,~/x}
        x={a,b}; echo $x ¦ echo {1...3} ¦ echo ${u:-{a,b}} ¦ echo {a,$(echo b,c)} ¦ echo {x,y}=1 ¦ echo {a.b}
        arr=({1..3}); echo ${arr[@]} ¦ set +B; echo {a,b}; set -B ¦ echo {a,b}{c,d}{e,f} ¦ echo {1..3}-{a,b}
        echo ~ ~/x x~ "~" \~ '~' ¦ echo ~nosuchuser9 ¦ echo a=~/b ¦ a=~/b; echo $a ¦ a=x:~/b; echo $a ¦ echo --opt=~/x
        echo "${u:-~}" ¦ echo ${u:-~} ¦ x=~; echo $x ¦ declare d=~/x; echo $d ¦ echo ~:~ ¦ export ex=a:~; echo $ex
        echo ~/ ¦ echo ~//x ¦ echo ~\/x ¦ echo ~"/x" ¦ echo ~$u ¦ HOME=/o; echo ~ ¦ echo ~- ¦ echo ~+x
        echo a #c ¦ echo a#b ¦ echo # ¦ # only ¦ echo 'a' # it's ¦ { echo x; } # c ¦ echo ${v#a} ¦ echo $#x
        x=#; echo $x ¦ echo \#a ¦ echo a\ #b ¦ echo a;#c ¦ echo "#"x ¦ echo a#;echo b ¦ echo $(echo a #c)
        case a in a) echo 1;& b) echo 2;; c) echo 3;; esac ¦ case ab in a*) echo 1;;& *b) echo 2;;& c) echo 3;; esac
        case a in a) echo 1;& esac ¦ case a in (a) ;;& (a) echo again;; esac ¦ case a in a) ;& esac; echo $?
        case b in a) echo x;; b) ;;& *) echo st;& esac ¦ case a in a) echo 1;;& esac ¦ case a in esac; echo $?
        case a in a|a) echo aa ;; esac ¦ case a in *) esac; echo $? ¦ case "" in '') echo empty;; esac
        for ((i=0;i<3;i++)); do echo $i; done ¦ for ((i=0;i<2;i++)) { echo b$i; } ¦ for (( ; ; )); do echo once; break; done
        for ((i=3;i--;)); do echo $i; done ¦ for ((i=0,j=5;i<j;i+=2,j--)); do echo $i$j; done
        for((i=0;i<1;i++))do echo nospace;done ¦ for ((i=0;i<2;i++)); do :; done; echo $i
        for ((i=0; i < 1; i++)) ; do echo semi; done ¦ for i in 1 2; { echo $i; } ¦ for i do echo $i; done
        for i in a b; do echo $i; done; echo $i ¦ for ((;;)) { break; }; echo $? ¦ for ((i=0;i<2;i++)); { echo bb; }
        coproc { echo co; } >/dev/null; wait; echo rc=$? ¦ coproc CP { echo co; } >/dev/null; wait; echo rc=$?
        coproc CP ( echo co ) >/dev/null; wait; echo done ¦ coproc echo simple >/dev/null; wait; echo $?
        coproc true; wait; echo $? ¦ coproc CP2 { false; }; wait $CP2_PID; echo $?
        echo a |& cat ¦ echo a && echo b || echo c ¦ false || ! true; echo $? ¦ echo $((1+2))$((3))
        cat <(echo ps) ¦ cat < <(echo pr) ¦ echo a;echo b ¦ echo a & wait ¦ { echo a & } ; wait
        [[ a == a && (b == b || c == d) ]] && echo ok ¦ (( 1 + 1 == 2 )) && echo arith ¦ ((x=2)); echo $x
        x=(a b c); echo ${#x[@]} ¦ x=( a b ); echo ${x[1]}
        f() { echo $1; }; f a ¦ f(){ echo tight;}; f ¦ f ( ) { echo spaced; }; f ¦ function f () { echo fs; }; f
        f() { return 3; }; f; echo $? ¦ echo $'a\'b' ¦ echo $"loc" ¦ echo "\$x\`\"\\" ¦ echo 'a''b'"c"
        "##,
    );
    let multi = sel(&[
        "x=$(case c in\nc) echo C\n;;\nesac\n); echo \"$x\"",
        "x=$(case c in\n(c) echo C;;\nesac); echo \"$x\"",
        "echo $(cat <<EOF\nhd $v\nEOF\n)",
        "echo $(cat <<'EOF'\nhd $v )\nEOF\n)",
        "x=`cat <<EOF\nbq $v\nEOF\n`; echo \"$x\"",
        "echo \"$(cat <<EOF\n(\nEOF\n)\"",
        "cat <<EOF\n$(echo in hd)\n`echo bq`\n${v:-x} $((1+1))\nEOF",
        "cat <<A; cat <<B\na\nA\nb\nB",
        "cat <<-EOF\n\tx\n\t\ty\n\tEOF",
        "echo $(cat <<<\"hs\")",
        "x=$(cat <<EOF\ncase in )\nEOF\n); echo \"$x\"",
        "x=$(cat <<EOF\nEOF\n); echo \"[$x]\"",
        "echo $(cat <<E1; cat <<E2\none\nE1\ntwo\nE2\n)",
        "echo a\\\nb",
        "ec\\\nho split",
        "x=ab\\\ncd; echo $x",
        "echo \"q\\\nq\"",
        "echo 'sq\\\nsq'",
        "if \\\ntrue; then echo t; fi",
        "echo $\\\n{v}",
        "echo ${v\\\n}",
        "echo a |\\\ncat",
        "echo a &&\\\necho b",
        "cat <<E\\\nOF\nx\nEOF",
        "# comment \\\necho notcomment",
        "echo $((1 +\\\n2))",
        "f\\\n() { echo fn; }; f",
        "echo a\\\n\\\nb",
        "fo\\\nr i in 1; do echo $i; done",
        "echo \\\n",
        "x=$(echo a \\\nb); echo $x",
        "echo `echo a\\\nb`",
        "echo \"${u:-a\\\nb}\"",
        "cat <<EOF\nline \\\ncont\nEOF",
        "cat <<'EOF'\nline \\\nkept\nEOF",
        "case x in #c\nx) echo cx;; #c2\nesac",
        "echo $(echo a #c\n)",
        "f() { # c\necho f\n}; f",
        "if true; then # c\necho t; fi",
        "echo $(\n# only a comment\n)x",
        "case x in\nx) echo 1\n;&\ny) echo 2\n;;&\n*) echo 3\nesac",
        "for (( i = 0 ; i < 2 ; i ++ ))\ndo\necho $i\ndone",
        "function f\n{\necho nl\n}\nf",
        "f()\n{\necho nlb\n}\nf",
        "for i in a\nb; do echo $i; done",
        "for i\nin a b\ndo echo $i\ndone",
        "while false\ndo :\ndone; echo $?",
        "if true\nthen echo t\nelif false\nthen :\nelse :\nfi",
        "[[ a &&\nb ]] && echo multi",
        "x=(\na\nb # c\n); echo ${x[@]}",
        "echo a |\n\ncat",
        "echo a &&\n# c\necho b",
        "{\necho br\n}",
        "(\necho sub\n)",
        "case a in\n(a)\necho pa\n;;\nesac",
        "case a in a)\n;;\nesac; echo $?",
        "echo $(\ncase a in\na) echo nl;;\nesac\n)",
        "echo `case a in a) echo bqc;; esac`",
        "echo \"$(case a in a) echo \"dq\";; esac)\"",
        "coproc CP {\necho co\n} >/dev/null\nwait; echo rc=$?",
        "time {\n:\n}",
        "! {\nfalse\n}\necho $?",
    ]);
    prop_oneof![3 => one_line, 2 => multi].boxed()
}

/// A piece that does not parse: unexpected tokens, unterminated quotes and
/// substitutions, reserved words out of place, on one line or several.
fn syntax_bad() -> BoxedStrategy<String> {
    let one_line = frag(
        r##"
        if true; then echo a; fi fi ¦ echo a; } ¦ ( echo a ¦ echo ) ¦ case x in x) echo;; esac esac
        for in; do :; done ¦ for i in 1 2; echo; done ¦ while true do; done ¦ f() echo ¦ function
        echo $( ¦ echo "unterminated ¦ echo 'unterm ¦ echo ${x ¦ echo $((1+ ¦ echo ` ¦ x=(a b
        [[ a ¦ [[ a == ]] ¦ (( 1 + ¦ echo a | | b ¦ echo a && && b ¦ ; echo ¦ && echo ¦ | cat
        echo a;; ¦ { } ¦ if; then fi ¦ then ¦ do ¦ done ¦ esac ¦ fi ¦ else ¦ elif ¦ } ¦ { ¦ ( ¦ )
        (( ¦ )) ¦ cat << ¦ cat < ¦ echo > > x ¦ echo >& ¦ coproc ¦ select ¦ case ¦ case x ¦ case x in
        case x in x) ¦ if true; then ¦ { echo a } ¦ echo a & & ¦ echo a; ; ¦ ! ¦ time | cat ¦ ! | cat
        for ((i=0;i<2)); do :; done ¦ for ((;;)) echo ¦ for i in; do ¦ while ¦ until true ¦ if true
        f() { ¦ function f ¦ function f() ¦ f() ¦ x=$(case a in a) echo;; ¦ echo $(case) ¦ echo $(esac)
        echo "${u:-"}" ¦ echo "$(" ¦ echo `echo ¦ echo $[ ¦ echo ${ ¦ case a in a) ;; b ¦ echo a |
        echo a && ¦ echo a || ¦ [[ ¦ [[ ]] ¦ [[ a && ]] ¦ [[ ( a ]] ¦ echo (a) ¦ echo a(b) ¦ x=1 (echo)
        echo a; fi; echo b ¦ if true; then fi ¦ while; do :; done ¦ { ; } ¦ ( ) ¦ f() ( ) ¦ echo $(( ¦ <
        echo a >; echo b ¦ cat <<EOF ¦ echo a b c ) ¦ case a in a) esac) ¦ echo ;& ¦ echo ;;& x ¦ x=( ) )
        echo a `; echo b ¦ echo "$(echo ")" ¦ echo $(echo ')' ¦ for x in a b c ¦ select s in a; ¦ time ;
        a=1 { echo; } ¦ echo a ! b ) ¦ function ( ) ¦ function 1a { :; } ¦ case a in (a esac
        "##,
    );
    let multi = sel(&[
        "echo a\necho b\nfi",
        "if true\nthen\n  echo x\nelse\nfi",
        "echo ok\n(\necho",
        "x=$(\ncase a in\nb) ;;\nesac esac\n)",
        "echo one\necho 'open\necho two",
        "echo one\necho \"open\n\necho two",
        "echo one\ncase a in\na) echo a\nesac\ndone",
        "f() {\necho in f\n}\n}",
        "for i in 1\ndo\necho $i\n",
        "echo $(\necho a\n",
        "echo a\n)\necho b",
        "cat <<EOF\nnever ends",
        "x=`\necho a",
        "{\necho a\n",
        "echo a\n\n\nthen",
        "echo a \\\n; ;",
        "if true; then\n  echo a\n}\nfi",
        "case a in\na) echo a;;\nb) echo b\n;; ;;\nesac",
        "while true\ndo\ndone",
        "echo \"${u:-\n\" }\"",
        "echo a\nelse echo b",
        "[[ a\n== b ]]",
        "(( 1 +\n))",
        "echo a\necho $((2+\n",
        "function f {\necho b\n",
        "echo $(case a in\na) echo x\n)",
        "coproc CP {\necho a\n",
    ]);
    prop_oneof![3 => one_line, 2 => multi].boxed()
}

/// Alias definitions and uses: taking effect on the next line, a value ending in a
/// blank, reserved words and `{`/`}` from aliases, inside function bodies.
fn syntax_alias() -> BoxedStrategy<String> {
    frag(
        r##"
        alias e='echo al' ¦ alias sp='echo ' ¦ alias w=hi ¦ alias lb='{' ¦ alias rb='}' ¦ alias fi2=fi
        alias semi='echo x;' ¦ alias iff='if true; then echo yes; fi' ¦ alias two='e one; e two'
        alias e='echo al'; e same ¦ unalias e ¦ unalias -a ¦ alias ¦ alias nl=$'echo a\necho b'
        alias d='done' ¦ alias fr='for i in 1 2; do' ¦ alias cs='case' ¦ alias p='(' ¦ alias bad='fi'
        e x ¦ sp w ¦ sp sp w ¦ lb e in; } ¦ lb e in; rb ¦ f() { e f; }; f ¦ iff ¦ x=1 e a ¦ \e x ¦ 'e' x
        command e x ¦ e e ¦ semi e y ¦ two ¦ nl ¦ fr echo $i; done ¦ for i in 1; do echo $i; d ¦ bad
        cs a in a) echo csa;; esac ¦ p echo par ) ¦ if true; then e t; fi ¦ echo e ¦ e $(e sub) ¦ w=1; e $w
        "##,
    )
}

fn syntax_line() -> BoxedStrategy<String> {
    let good = syntax_good;
    let bad = syntax_bad;
    prop_oneof![
        8 => good(),
        3 => syntax_alias(),
        2 => good().prop_map(|g| format!("eval {}; echo \"rc=$?\"", squote(&g))),
        // bash's parser state is off after some errors in `eval` (a reserved word or
        // alias that starts the next line is a plain word; later constructs crash it),
        // so bad text is evaluated in a subshell.
        5 => bad().prop_map(|b| format!("( eval {} ); echo \"rc=$?\"", squote(&b))),
        4 => bad().prop_map(|b| format!("bash -c {}; echo \"rc=$?\"", squote(&b))),
        1 => good().prop_map(|g| format!("bash -c {}; echo \"rc=$?\"", squote(&g))),
        2 => (good(), bad()).prop_map(|(g, b)| format!("bash -c {}; echo \"rc=$?\"", squote(&format!("{g}\n{b}\necho after")))),
        1 => bad().prop_map(|b| format!("x=$(eval {} 2>&1); echo \"[$x] rc=$?\"", squote(&b))),
        2 => good().prop_map(|g| format!("x=$(\n{g}\n); echo \"[$x] rc=$?\"")),
        1 => good().prop_map(|g| format!("g() {{\n{g}\n}}; g; echo \"rc=$?\"; declare -f g")),
        1 => good().prop_map(|g| format!("(\n{g}\n); echo \"rc=$?\"")),
        1 => good()
            .prop_filter("no backquote or backslash", |g| !g.contains(['`', '\\']))
            .prop_map(|g| format!("x=`\n{g}\n`; echo \"[$x] rc=$?\"")),
        1 => frag("shopt -s expand_aliases ¦ shopt -u expand_aliases ¦ set -o posix ¦ set +o posix ¦ shopt -s extglob ¦ shopt -u extglob ¦ echo \"line $LINENO\""),
    ]
    .boxed()
}

fn syntax_script() -> BoxedStrategy<String> {
    (
        lines(syntax_line(), 2..7),
        sel(&["", "", "", "shopt -s expand_aliases", "shopt -s expand_aliases\nalias e='echo al' sp='echo ' w=hi"]),
        prop_oneof![3 => Just(String::new()), 1 => syntax_bad().prop_map(|b| format!("{b}\necho never"))],
    )
        .prop_map(|(body, pre, tail)| {
            format!(
                "HOME=/h; OLDPWD=/o; v='a b'; unset u CDPATH\n{pre}\n{body}\necho \"end:$?\"\n{tail}\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- variables and the environment

/// A statement exercising "Shell Parameters", "Environment", "Simple Command Expansion",
/// "Shell Functions" and "Bourne Shell Builtins"/"Bash Builtins" on variables: temporary
/// assignments before special and regular builtins, functions and utilities, `local`
/// (with `-`, without a value, over readonly/exported/array/nameref variables),
/// `declare -g`, `unset` across dynamic scopes, export attributes reaching functions and
/// children, readonly errors, `set -a`/`-k`/`-o posix`, `$_`, positional parameters and
/// the listings `declare -p`/`export -p`/`readonly -p`/`local`/`env`.
fn varenv_stmt() -> BoxedStrategy<String> {
    prop_oneof![
        // Temporary assignments before each kind of command.
        5 => frag(
            r#"
            va=t :; echo "a:${va-unset}" ¦ va=t eval 'echo "e:$va"'; echo "a:${va-unset}"
            va=t export va; echo "a:$va"; printenv va ¦ va=t show; echo "a:${va-unset}"
            va=t f; echo "a:${va-unset}" ¦ va=t g; echo "a:${va-unset}" ¦ vx=new show; echo "a:${vx-unset}"
            va=t env | grep '^va=' ¦ va=t printenv va; echo "a:$va" ¦ vx=t printenv vx; echo "a:${vx-unset}"
            va=t sh -c 'echo "sh:${va-unset}:${vx-unset}"' ¦ vx=t bash -c 'echo "bash:${vx-unset}:${va-unset}"'
            va=t command echo "c:$va"; echo "a:$va" ¦ va=t command show ¦ va=t declare va=d; echo "a:$va"
            va=t set -- p q; echo "a:$#:$va" ¦ va=t unset va; echo "a:${va-unset}" ¦ vb=t readonly vb; echo "a:$vb"
            va=t . ./s.sh sa; echo "a:$va:$#" ¦ va=t source ./s.sh; echo "a:$va" ¦ vn=t show; echo "a:$va:$vn"
            vr=t :; echo "rc=$?" ¦ vr=t printenv vr; echo "rc=$?" ¦ vr=t show; echo "rc=$?"
            vi=2+3 printenv vi ¦ vi=2+3 show; echo "a:$vi" ¦ ve=t printenv ve; echo "a:$ve"
            va=1 vb=$va printenv vb ¦ va=t builtin eval 'echo "b:$va"' ¦ va=t local va; echo "a:${va-unset}"
            va=t vb=u env | grep '^v[ab]=' | sort ¦ va=t true; echo "a:$va" ¦ va=t exec 2>&1; echo "x:$va"
            varr=t printenv varr; echo "a:${varr[*]}" ¦ vx=t export vx; printenv vx; echo "a:${vx-unset}"
            va=t declare -x va; printenv va; echo "a:$va" ¦ vx=t shift; echo "a:${vx-unset}"
            va=t return 2>/dev/null; echo "ret:${va-unset}" ¦ vx=t readonly -p | grep vx
            vx=t ; echo "a:${vx-unset}" ¦ vx=t >/dev/null; echo "a:${vx-unset}" ¦ vx=$(echo cs) show
            "#,
        ),
        // Exported attributes into functions and children.
        4 => frag(
            r#"
            export va; printenv va ¦ export -n ve; printenv ve; echo "rc=$?" ¦ declare -x vb=xb; printenv vb
            declare +x ve; env | grep '^ve=' ¦ export vx=new; sh -c 'echo "sh:$vx"' ¦ export -p | grep ' v'
            export varr; env | grep '^varr'; declare -p varr ¦ export vn; printenv va vn; declare -p va vn
            export vi; vi+=1; printenv vi ¦ export vx; printenv vx; echo "rc=$?"; declare -p vx
            export vx=; printenv vx; echo "rc=$?" ¦ declare -x | grep ' v' ¦ export -n va=nx; declare -p va
            export va=ex1 vb; bash -c 'echo "b:$va:$vb"' ¦ unset ve; printenv ve; echo "rc=$?"
            ve=changed; printenv ve ¦ declare -x vd; declare -p vd; printenv vd; echo "rc=$?"
            export 1bad=x; echo "rc=$?" ¦ export -f f; echo "rc=$?" ¦ export -nf f 2>&1; echo "rc=$?"
            export va+=app; printenv va ¦ declare -xi vj=3+4; printenv vj ¦ export vr; printenv vr
            env -u ve printenv ve; echo "rc=$?" ¦ env vx=e printenv vx ¦ env | grep '^v' | sort
            "#,
        ),
        // Local variables and their shadows.
        5 => frag(
            r#"
            local va; echo "l:[${va-unset}]" ¦ local va=l; show ¦ local -; set -a; vq=q ¦ local -; set -o posix
            local vr=l; echo "rc=$?" ¦ local vr; echo "rc=$?:$vr" ¦ local ve; printenv ve; echo "rc=$?"
            local ve=le; printenv ve ¦ local varr; declare -p varr ¦ local varr=s; declare -p varr
            local vn; declare -p vn ¦ local vn=lv; declare -p vn va ¦ local -n vn=vb; vn=nb; show
            local vi; vi=2+2; echo "vi:$vi" ¦ local vi=5*2; echo "vi:$vi" ¦ local ¦ local -p
            local vl=l2; local ¦ declare -g va=dg; echo "dg:$va" ¦ declare -g vl=dgl; echo "dgl:$vl"
            typeset va=tv; show ¦ declare va; echo "d:${va-unset}" ¦ declare -x vl=lx; printenv vl
            local -x vx=lx; printenv vx; bash -c 'echo "b:$vx"' ¦ local -r vl=lr; vl=z; echo "rc=$?"
            local va=$va-more vb=$va; echo "$va:$vb" ¦ local -a va=(1 2); declare -p va ¦ local -i vx=1+1; echo "$vx"
            local -A va; declare -p va ¦ local 1bad=2; echo "rc=$?" ¦ local va vb=2 vc; local
            local -n vm=va; vm=viam; show ¦ local vl; unset vl; local vl; echo "[${vl-unset}]"
            declare -g vq=gq; local vq=lq; echo "$vq" ¦ local vx=1; f; echo "x:$vx" ¦ local ve; export ve=le2; printenv ve
            local va=lo; unset -v va; echo "u:${va-unset}" ¦ local va=lo; g; echo "after-g:${va-unset}"
            "#,
        ),
        // unset across dynamic scopes.
        4 => frag(
            r#"
            unset va; show ¦ unset -v va; echo "u:${va-unset}" ¦ unset vr; echo "rc=$?" ¦ unset -n vn; declare -p vn va
            unset vn; declare -p vn va ¦ unset varr; declare -p varr ¦ unset 'varr[0]'; declare -p varr ¦ unset vl; show
            unset va; unset va; echo "uu:${va-unset}" ¦ unset -v vl; echo "ul:${vl-unset}" ¦ unset -f show; show; echo "rc=$?"
            shopt -s localvar_unset ¦ shopt -s localvar_inherit ¦ shopt -u localvar_unset ¦ unset vx; echo "rc=$?"
            unset ve; bash -c 'echo "b:${ve-unset}"' ¦ unset -v 1bad; echo "rc=$?" ¦ unset va vb; echo "${va-u}${vb-u}"
            "#,
        ),
        // readonly and its errors.
        3 => frag(
            r#"
            vr=x; echo "rc=$?" ¦ readonly vr=y; echo "rc=$?" ¦ declare vr=d; echo "rc=$?" ¦ export vr; printenv vr
            readonly va; va=2; echo "rc=$?:$va" ¦ declare -r vc=c; vc=d; echo "rc=$?" ¦ readonly varr; varr[0]=z; echo "rc=$?"
            readonly -p | grep ' v' ¦ readonly vx; declare -p vx ¦ readonly -a vy=(1 2); declare -p vy
            vr+=x; echo "rc=$?" ¦ declare +r vr; echo "rc=$?" ¦ readonly -f show; show() { :; }; echo "rc=$?"
            for vr in 1; do :; done; echo "rc=$?" ¦ read vr <<< in; echo "rc=$?" ¦ (( vr = 1 )); echo "rc=$?"
            "#,
        ),
        // Shell options that change assignments.
        3 => frag(
            r#"
            set -a; vq=auto; printenv vq ¦ set +a ¦ set -a; declare vq2=d; read vq3 <<< r; printenv vq2 vq3
            set -a; for vf in 1 2; do :; done; printenv vf ¦ set -a; vq=(1 2); declare -p vq
            set -k; printenv va=kw vb; echo "k:$va"; set +k ¦ set -k; show vk=1; echo "k:${vk-unset}"; set +k
            set -k; echo a=b c; show vk=2 x; set +k ¦ set -o posix ¦ set +o posix ¦ set -o posix; va=p :; echo "p:$va"
            set -o posix; va=p f; echo "p:$va" ¦ set -o posix; va=p eval :; echo "p:$va" ¦ set -o allexport
            set -o posix; va=p export vb; printenv va; echo "p:$va" ¦ set -o keyword; vk=3 printenv vk; set +o keyword
            set -a; vq=$((1+1)); vq+=3; env | grep '^vq' ¦ set -a; : ${vd:=def}; printenv vd
            "#,
        ),
        // $_ after each kind of command.
        3 => frag(
            r#"
            echo a b >/dev/null; echo "_=$_" ¦ : x y; echo "_=$_" ¦ va=t :; echo "_=$_" ¦ f q; echo "_=$_"
            (:); echo "_=$_" ¦ printenv va >/dev/null; echo "_=$_" ¦ [[ a ]]; echo "_=$_" ¦ (( 1 )); echo "_=$_"
            declare va=z; echo "_=$_" ¦ export va; echo "_=$_" ¦ for i in 1 2; do :; done; echo "_=$_"
            printenv _ ¦ env | grep '^_=' ¦ bash -c 'echo "b_=$_"' ¦ va=z; echo "_=$_" ¦ true "$va"; echo "_=$_"
            set -- s1 s2; echo "_=$_" ¦ . ./s.sh x; echo "_=$_" ¦ echo "$_" ¦ x=$(echo c); echo "_=$_"
            "#,
        ),
        // Positional parameters.
        3 => frag(
            r#"
            set -- a b c; echo "$#:$*" ¦ shift; echo "$#:${1-none}" ¦ f x y; echo "$#:$*" ¦ . ./s.sh p1 p2; echo "$#:$*"
            . ./s.sh; echo "$#:$*" ¦ set --; echo "$#" ¦ set -- "$@" z; echo "$#" ¦ source ./s.sh "$@"
            . ./s2.sh; echo "$#:$*" ¦ . ./s2.sh a1; echo "$#:$*" ¦ set -- "$@" 'sp ace'; show "$@"
            "#,
        ),
        // Listings and calls.
        4 => frag(
            r#"
            declare -p va vb ve vr 2>&1 ¦ declare -p varr vn vi vl 2>&1 ¦ export -p | grep ' v' ¦ readonly -p | grep ' v'
            env | grep '^v' | sort ¦ declare | grep '^v' ¦ declare -p | grep ' v' ¦ f ¦ g ¦ f a b ¦ show ¦ g | cat
            (g); echo "sub:$va" ¦ echo "[$(f)]" ¦ show; g; show ¦ declare -F | grep -c . ¦ set | grep '^v'
            "#,
        ),
    ]
    .boxed()
}

fn varenv_script() -> BoxedStrategy<String> {
    (
        lines(varenv_stmt(), 1..4),
        lines(varenv_stmt(), 1..3),
        lines(varenv_stmt(), 1..6),
        sel(&[
            "",
            "",
            "",
            "set -o posix",
            "set -a",
            "shopt -s localvar_inherit",
            "shopt -s localvar_unset",
        ]),
    )
        .prop_map(|(fbody, gbody, body, pre)| {
            format!(
                "va=ga; vb=gb; export ve=ge; readonly vr=gr; varr=(a1 a2); declare -n vn=va; declare -i vi=7\n\
                 printf '%s\\n' 'echo \"src:$#:$*:${{va-unset}}:${{vl-unset}}\"' 'vs=sourced; local vsl=1; echo \"src-local:$?\"' > s.sh\n\
                 printf '%s\\n' 'set -- from-s2; echo \"s2:$#:$1\"' > s2.sh\n\
                 show() {{ echo \"show:va=${{va-unset}} vb=${{vb-unset}} ve=${{ve-unset}} vl=${{vl-unset}} #=$# ${{FUNCNAME[1]-main}}\"; }}\n\
                 f() {{\n((fd++ < 3)) || return 9\n{fbody}\necho \"f-end:$?\"\n}}\n\
                 g() {{\n((gd++ < 3)) || return 8\nlocal va=gloc vl=gl\n{gbody}\necho \"g-end:$? va=${{va-unset}}\"\n}}\n\
                 {pre}\n{body}\necho \"end:$? va=${{va-unset}} vb=${{vb-unset}} vl=${{vl-unset}}\"\n\
                 declare -p va vb ve vr varr vn vi vl vs vq vx 2>&1\n\
                 env | grep '^v' | sort\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- invocation

/// A statement exercising "Invoking Bash", "Shell Scripts", "Bash Startup Files",
/// "The Restricted Shell" and the variables a shell sets about how it was run: child
/// `bash` with options and arguments (`-c`, `-s`, a file, option letters, long options,
/// invalid ones), scripts run by path (`./s`, through `PATH`, `exec`), `#!` lines,
/// `source` with and without arguments, statuses 126/127 and their messages, `$0`,
/// `BASH_SOURCE`, `BASH_LINENO`, `FUNCNAME`, `BASH_EXECUTION_STRING`, `BASH_ARGV0`,
/// `SHLVL`, exported functions, `BASH_ENV`/`ENV`, `exec -a/-c/-l` and restricted mode.
fn invoke_stmt() -> BoxedStrategy<String> {
    prop_oneof![
        // Child shells with options.
        6 => frag(
            r#"
            bash -c 'echo "${0##*/}:$#:$*"' nm a b ¦ bash -c 'echo "${0##*/}:$#"' ¦ bash -c 'echo "$1:$2"' -- x y
            bash -c 'echo $-' ¦ bash -e -c 'echo $-' ¦ bash -ex -c 'echo $-; false; echo no'; echo "rc=$?"
            bash -u -c 'echo "[$zz]"'; echo "rc=$?" ¦ bash -x -c 'a=1; echo "$a"' ¦ bash -v -c 'echo v'
            bash -n -c 'echo never'; echo "rc=$?" ¦ bash -n -c 'if then'; echo "rc=$?" ¦ bash -f -c 'echo *.sh; echo $-'
            bash -C -c 'echo a > t1; echo b > t1'; echo "rc=$?" ¦ bash -o noglob -c 'echo *.sh $-' ¦ bash +o braceexpand -c 'echo {a,b} $-'
            bash -O extglob -c 'shopt extglob; echo @(a|b)' ¦ bash +O extglob -c 'shopt extglob' ¦ bash -O nosuch -c 'echo x'; echo "rc=$?"
            bash --posix -c 'echo $POSIXLY_CORRECT; set -o | grep posix' ¦ bash --norc -c 'echo n' ¦ bash --noprofile -c 'echo p'
            bash -- -c 'echo dd'; echo "rc=$?" ¦ bash -Z; echo "rc=$?" ¦ bash --nosuch; echo "rc=$?" ¦ bash -c; echo "rc=$?"
            bash -o nosuch -c 'echo x'; echo "rc=$?" ¦ bash -o; echo "rc=$?" ¦ bash -e -u -c 'echo $-'
            bash -c 'echo "$BASH_EXECUTION_STRING"' ¦ bash -c 'echo "${BASH_SOURCE[*]}|${FUNCNAME[*]}|${BASH_LINENO[*]}"'
            bash -c 'BASH_ARGV0=new; echo "${0##*/}"' ¦ bash -c 'echo $SHLVL'; echo "$SHLVL" ¦ bash -c 'bash -c "echo \$SHLVL"'
            bash -c 'exit 7'; echo "rc=$?" ¦ bash -c 'echo $SHELLOPTS' ¦ bash -o errexit -c 'echo $SHELLOPTS' ¦ bash -c 'echo ${BASH_ARGC[*]}' a b
            bash -s a b < in.txt; echo "rc=$?" ¦ echo 'echo "s:$#:$*:${0##*/}"' | bash -s p q ¦ echo 'echo "$-"' | bash ¦ echo 'echo "$-"' | bash -s
            bash -ec 'false; echo no'; echo "rc=$?" ¦ bash -xc 'echo xc' ¦ bash -c -e 'false; echo yes'; echo "rc=$?"
            bash -r -c 'echo $-' ¦ bash --restricted -c 'shopt restricted_shell' ¦ bash -c 'shopt restricted_shell; shopt login_shell'
            "#,
        ),
        // Scripts given to bash as files.
        5 => frag(
            r#"
            bash a.sh x y; echo "rc=$?" ¦ bash ./a.sh; echo "rc=$?" ¦ bash nosuch.sh; echo "rc=$?" ¦ bash dir; echo "rc=$?"
            bash plain; echo "rc=$?" ¦ bash err.sh; echo "rc=$?" ¦ bash -x a.sh q; echo "rc=$?" ¦ bash -e err.sh; echo "rc=$?"
            bash ret.sh; echo "rc=$?" ¦ bash fn.sh; echo "rc=$?" ¦ bash -- a.sh z; echo "rc=$?" ¦ bash -n err.sh; echo "rc=$?"
            bash empty.sh; echo "rc=$?" ¦ bash bin.dat; echo "rc=$?" ¦ bash syn.sh; echo "rc=$?"
            "#,
        ),
        // Scripts run by path.
        6 => frag(
            r#"
            ./a.sh p1 p2; echo "rc=$?" ¦ ./plain; echo "rc=$?" ¦ ./noexec.sh; echo "rc=$?" ¦ ./nosuch.sh; echo "rc=$?"
            ./badint.sh; echo "rc=$?" ¦ ./catme.sh; echo "rc=$?" ¦ ./awk.sh; echo "rc=$?" ¦ ./envb.sh e1; echo "rc=$?"
            ./sh.sh s1; echo "rc=$?" ¦ ./dir; echo "rc=$?" ¦ ./err.sh; echo "rc=$?" ¦ ./fn.sh; echo "rc=$?"
            PATH=bin:$PATH; inpath arg; echo "rc=$?" ¦ PATH=bin:$PATH; hidden; echo "rc=$?" ¦ nosuchcmd; echo "rc=$?"
            (exec ./a.sh ex); echo "rc=$?" ¦ (exec ./noexec.sh) 2>/dev/null; echo "rc=$?" ¦ (exec nosuchcmd); echo "rc=$?"
            (exec -a NAME bash -c 'echo "${0##*/}"'); echo "rc=$?" ¦ (exec -a NAME ./a.sh n); echo "rc=$?"
            (export ve=1; exec -c bash -c 'echo "${ve-unset}"'); echo "rc=$?" ¦ (exec -l bash -c 'echo "${0##*/}"; shopt login_shell')
            (exec -Z true); echo "rc=$?" ¦ (exec -a); echo "rc=$?" ¦ bin/inpath w; echo "rc=$?" ¦ ./ret.sh; echo "rc=$?"
            ./empty.sh; echo "rc=$?" ¦ ./crlf.sh; echo "rc=$?" ¦ a.sh; echo "rc=$?"
            "#,
        ),
        // source and .
        6 => frag(
            r#"
            . ./src.sh; echo "after:$#:$*" ¦ . ./src.sh s1 s2; echo "after:$#:$*" ¦ source ./src.sh o; echo "after:$#:$*"
            source ./ret.sh; echo "rc=$?" ¦ . ./ret.sh r; echo "rc=$?:$#" ¦ f src; echo "rc=$?" ¦ f ret
            . src.sh w; echo "rc=$?" ¦ shopt -u sourcepath; . src.sh w; echo "rc=$?" ¦ . nosuch.sh; echo "rc=$?"
            PATH=bin:$PATH; . inpath via; echo "rc=$?" ¦ . ./dir; echo "rc=$?" ¦ .; echo "rc=$?" ¦ source; echo "rc=$?"
            . ./setpos.sh; echo "after:$#:$*" ¦ . ./setpos.sh a1; echo "after:$#:$*" ¦ . ./err.sh; echo "rc=$?"
            . ./lineno.sh; echo "rc=$?" ¦ f lineno ¦ . ./nested.sh; echo "rc=$?" ¦ (. ./plain); echo "rc=$?"
            "#,
        ),
        // Exported functions and the startup environment.
        5 => frag(
            r#"
            export -f xf; bash -c 'xf c'; echo "rc=$?" ¦ export -f xf; env | grep -A1 '^BASH_FUNC' ¦ export -f xf; ./a.sh
            export -f xf; bash -c 'declare -f xf' ¦ export -f xf; export -nf xf; bash -c 'xf'; echo "rc=$?"
            env 'BASH_FUNC_yf%%=() { echo yf "$@"; }' bash -c 'yf e' ¦ env 'BASH_FUNC_yf%%=() { echo ; }; echo inj' bash -c 'type yf'; echo "rc=$?"
            BASH_ENV=./benv.sh bash -c 'echo main:$be'; echo "rc=$?" ¦ export BASH_ENV=./benv.sh; bash ./a.sh; unset BASH_ENV
            ENV=./benv.sh bash --posix -c 'echo main:$be' ¦ ENV=./benv.sh bash -c 'echo main:${be-unset}' ¦ BASH_ENV=./nosuch bash -c 'echo m'; echo "rc=$?"
            BASH_ENV='./benv.sh' bash -c 'echo "${BASH_SOURCE[*]}"' ¦ export xv=1; bash -c 'echo "${xv-unset}"'
            SHLVL=5 bash -c 'echo $SHLVL' ¦ SHLVL=x bash -c 'echo $SHLVL' ¦ SHLVL=999 bash -c 'echo $SHLVL'; echo "rc=$?" ¦ (exec bash -c 'echo $SHLVL')
            "#,
        ),
        // The restricted shell.
        6 => frag(
            r#"
            bash -r -c 'cd /; echo "rc=$?"' ¦ bash -r -c 'PATH=/x; echo "rc=$?"' ¦ bash -r -c 'SHELL=x; echo "rc=$?:$SHELL"'
            bash -r -c 'ENV=x; BASH_ENV=y; HISTFILE=z; echo "rc=$?"' ¦ bash -r -c '/bin/echo hi; echo "rc=$?"' ¦ bash -r -c './a.sh; echo "rc=$?"'
            bash -r -c '. ./src.sh; echo "rc=$?"' ¦ bash -r -c '. src.sh; echo "rc=$?"' ¦ bash -r -c 'hash -p /bin/echo e; echo "rc=$?"'
            bash -r -c 'echo x > o1; echo "rc=$?"' ¦ bash -r -c 'echo x >> o1; echo "rc=$?"' ¦ bash -r -c 'echo x >| o1; echo "rc=$?"; echo y &> o2; echo "rc=$?"'
            bash -r -c 'exec echo hi; echo "rc=$?"' ¦ bash -r -c 'enable -f x y; echo "rc=$?"' ¦ bash -r -c 'enable -d x; echo "rc=$?"'
            bash -r -c 'command -p echo hi; echo "rc=$?"' ¦ bash -r -c 'set +r; echo "rc=$?"' ¦ bash -r -c 'set +o restricted; echo "rc=$?:$-"'
            set -r; cd /; echo "rc=$?" ¦ set -r; PATH=/x; echo "rc=$?" ¦ set -r; echo z > o3; echo "rc=$?" ¦ set -r; /bin/echo z; echo "rc=$?"
            set -r; echo "$-"; set +r; echo "rc=$?" ¦ set -r; . ./src.sh; echo "rc=$?" ¦ set -r; exec 5>o4; echo "rc=$?"
            bash -r a.sh; echo "rc=$?" ¦ bash -r -c 'unset PATH; echo "rc=$?"' ¦ bash -r -c 'declare -p PATH ENV BASH_ENV HISTFILE' | sed 's/=.*//'
            bash -r -c 'echo x 2> o5; echo "rc=$?"; echo y >&5; echo "rc=$?"' ¦ bash -r -c 'cat < in.txt; echo "rc=$?"' ¦ bash -r -c 'echo hi > /dev/null; echo "rc=$?"'
            rbash -c 'echo $-'; echo "rc=$?" ¦ bash -r -c 'export PATH; echo "rc=$?"' ¦ bash -r -c 'declare PATH=/y; echo "rc=$?"' ¦ bash -r -c 'read PATH <<< z; echo "rc=$?"'
            "#,
        ),
        // Functions, frames and names.
        3 => frag(
            r#"
            f frames ¦ f src a ¦ echo "${0##*/}:${BASH_SOURCE[*]-}:${FUNCNAME[*]-}" ¦ BASH_ARGV0=b0; echo "${0##*/}"
            echo "$BASH_EXECUTION_STRING" | head -c 20; echo ¦ echo "$SHLVL" ¦ echo "$-" ¦ shopt login_shell
            "#,
        ),
    ]
    .boxed()
}

fn invoke_script() -> BoxedStrategy<String> {
    lines(invoke_stmt(), 1..5)
        .prop_map(|body| {
            format!(
                "mkdir -p bin dir\n\
                 printf '%s\\n' '#!/bin/bash' 'echo \"a:${{0##*/}}:$#:$*:${{BASH_SOURCE[0]##*/}}:$SHLVL\"' 'type xf >/dev/null 2>&1 && xf ina' > a.sh\n\
                 printf '%s\\n' 'echo \"plain:$#:$*\"' > plain\n\
                 printf '%s\\n' '#!/bin/bash' 'echo noexec' > noexec.sh\n\
                 printf '%s\\n' '#!/nonexistent/sh' 'echo never' > badint.sh\n\
                 printf '%s\\n' '#!/bin/cat' 'cat line' > catme.sh\n\
                 printf '%s\\n' '#!/usr/bin/awk -f' 'BEGIN {{ print \"awk\", ARGC }}' > awk.sh\n\
                 printf '%s\\n' '#!/usr/bin/env bash' 'echo \"envb:$#:$1\"' > envb.sh\n\
                 printf '%s\\n' '#!/bin/sh' 'echo \"sh:$#:$1\"' > sh.sh\n\
                 printf '%s\\n' 'echo err1' 'nosuchcmd' 'false' 'echo \"err2:$LINENO\"' > err.sh\n\
                 printf '%s\\n' 'echo ret1' 'return 3' 'echo ret2' > ret.sh\n\
                 printf '%s\\n' 'g() {{ echo \"fn:${{FUNCNAME[*]}}:${{BASH_LINENO[*]}}:${{BASH_SOURCE[*]##*/}}\"; }}' 'g' > fn.sh\n\
                 printf '%s\\n' 'echo \"src:$#:$*:${{BASH_SOURCE[0]##*/}}:${{FUNCNAME[*]-}}\"' 'set -- changed' > src.sh\n\
                 printf '%s\\n' 'set -- from-setpos' 'echo \"setpos:$#\"' > setpos.sh\n\
                 printf '%s\\n' 'echo \"ln:$LINENO:${{BASH_LINENO[*]}}\"' > lineno.sh\n\
                 printf '%s\\n' '. ./lineno.sh' 'echo \"nested:${{#BASH_SOURCE[@]}}\"' > nested.sh\n\
                 printf '%s\\n' 'be=set; echo \"benv:$#:${{0##*/}}\"' > benv.sh\n\
                 printf '%s\\n' 'if then' > syn.sh\n\
                 printf '%s\\n' 'echo \"inpath:$#:$*:${{0##*/}}\"' > bin/inpath\n\
                 printf '%s\\n' 'echo hidden' > bin/hidden\n\
                 printf '#!/bin/bash\\r\\necho crlf\\r\\n' > crlf.sh\n\
                 printf 'echo bin\\0\\001\\n' > bin.dat\n\
                 printf '%s\\n' 'echo \"stdin:$#:$*\"' 'read -r l; echo \"got:$l\"' 'second line' > in.txt\n\
                 : > empty.sh; printf '%s\\n' 'echo unread' > unread.sh; chmod 000 unread.sh\n\
                 chmod +x a.sh plain badint.sh catme.sh awk.sh envb.sh sh.sh err.sh ret.sh fn.sh bin/inpath crlf.sh empty.sh\n\
                 xf() {{ echo \"xf:$#:$*\"; }}\n\
                 f() {{\ncase $1 in\nsrc) . ./src.sh in-f; echo \"f-after:$#:$*\" ;;\nret) . ./ret.sh; echo \"f-ret:$?\" ;;\n\
                 lineno) . ./lineno.sh ;;\nframes) echo \"fr:${{FUNCNAME[*]}}:${{BASH_LINENO[*]}}:${{BASH_SOURCE[*]-}}\" ;;\nesac\n}}\n\
                 {body}\necho \"end:$?\"\n"
            )
        })
        .boxed()
}

// ---------------------------------------------------------------- history

/// A line of a script that keeps a history ("HISTORY", "Bash History Builtins",
/// "History Interaction"): the `history` builtin and its options, `fc` listings and
/// re-execution, the variables that shape the list and the file (`HISTSIZE`,
/// `HISTFILESIZE`, `HISTCONTROL`, `HISTIGNORE`, `histchars`), history expansion (event
/// and word designators, modifiers, what quotes `!`) and how multi-line commands are
/// stored (`cmdhist`, `lithist`).
fn history_line() -> BoxedStrategy<String> {
    prop_oneof![
        // The history builtin.
        6 => frag(
            r#"
            history ¦ history 3 ¦ history 1 ¦ history 0 ¦ history -c ¦ history -d 2 ¦ history -d -1 ¦ history -d -2
            history -d 1-2 ¦ history -d 2-1 ¦ history -d 99 ¦ history -d -99 ¦ history -d x ¦ history -d 1-x
            history -s one two ¦ history -s 'ec ho' ¦ history -p a b ¦ history -p '!!' ¦ history -p '!-2:$'
            history -p '!e:s/e/E/' ¦ history -p '!nosuch'; echo "rc=$?" ¦ history -w ¦ history -w hw; cat hw
            history -a; cat hf ¦ history -a ha; cat ha ¦ history -r hr; history 4 ¦ history -n hr; history 3
            history -r nofile; echo "rc=$?" ¦ history -x; echo "rc=$?" ¦ history 1 2; echo "rc=$?" ¦ history -3; echo "rc=$?"
            history x; echo "rc=$?" ¦ history -d; echo "rc=$?" ¦ history -c; history ¦ history -cw; cat hf
            history -s; echo "rc=$?" ¦ history -p; echo "rc=$?" ¦ history -ar hr; echo "rc=$?" ¦ history -- 2
            "#,
        ),
        // fc.
        5 => frag(
            r#"
            fc -l ¦ fc -l 1 ¦ fc -ln ¦ fc -lr ¦ fc -lnr 1 3 ¦ fc -l -3 ¦ fc -l -1 -3 ¦ fc -l 2 4 ¦ fc -l ec ¦ fc -l hi
            fc -l 99 ¦ fc -l x; echo "rc=$?" ¦ fc -l 0 ¦ fc -l -99 ¦ fc -s ¦ fc -s echo ¦ fc -s one=ONE ¦ fc -s a=b echo
            fc -s nosuch; echo "rc=$?" ¦ fc -e : ¦ fc -e true ¦ fc -e - ¦ fc -e - e=E ¦ fc -e : -1 ¦ fc -e true 1 2
            fc -z; echo "rc=$?" ¦ fc -l 1 2 3; echo "rc=$?" ¦ fc -e; echo "rc=$?" ¦ fc -s x=y nosuch; echo "rc=$?"
            "#,
        ),
        // Variables and options.
        5 => frag(
            r#"
            HISTSIZE=2 ¦ HISTSIZE=0 ¦ HISTSIZE=-1 ¦ HISTSIZE=x ¦ unset HISTSIZE ¦ HISTFILESIZE=1 ¦ HISTFILESIZE=0 ¦ HISTFILESIZE=3
            HISTCONTROL=ignorespace ¦ HISTCONTROL=ignoredups ¦ HISTCONTROL=ignoreboth ¦ HISTCONTROL=erasedups ¦ HISTCONTROL=ignorespace:erasedups
            HISTIGNORE='echo*' ¦ HISTIGNORE='&' ¦ HISTIGNORE='history*:fc*' ¦ HISTIGNORE='ls:&:e?ho *' ¦ unset HISTIGNORE HISTCONTROL
            histchars='@^#' ¦ histchars='!%' ¦ histchars= ¦ unset histchars ¦ HISTFILE=hf2 ¦ unset HISTFILE ¦ HISTFILE=
            shopt -s histappend ¦ shopt -u cmdhist ¦ shopt -s lithist ¦ shopt -s histreedit ¦ shopt -s histverify
            set +H ¦ set -H ¦ set +o history ¦ set -o history ¦ echo "$HISTCMD" ¦ echo "[$HISTSIZE:$HISTFILESIZE]"
            "#,
        ),
        // Commands to remember, some of several lines or starting with a space.
        5 => sel(&[
            "echo one two three",
            "echo one two three",
            " echo spaced",
            "echo a.b/c/d.txt e.f",
            "true x y",
            "printf '%s\\n' p q",
            "for i in 1 2; do echo $i; done",
            "echo 'sq !x' \"dq\"",
            "x=1; echo $x",
            "if true\nthen echo multi; fi",
            "echo \"line1\nline2\"",
            "f() {\necho fbody\n}; f",
            "cat <<E\nhere !!\nE",
        ]),
        // History expansion.
        8 => frag(
            r#"
            echo !! ¦ !! ¦ echo !-2 ¦ echo !1 ¦ echo !ec ¦ echo !?one? ¦ echo !?one ¦ ^one^ONE ¦ ^one^ONE^ x ¦ ^zz^y
            echo !!:0 ¦ echo !!:1 ¦ echo !!:^ ¦ echo !!:$ ¦ echo !!:* ¦ echo !!:1-2 ¦ echo !!:-2 ¦ echo !!:2* ¦ echo !!:2- ¦ echo !$ ¦ echo !^ ¦ echo !*
            echo !!:h ¦ echo !!:t ¦ echo !!:r ¦ echo !!:e ¦ echo !!:p ¦ echo !!:q ¦ echo !!:x ¦ echo !!:s/one/1/ ¦ echo !!:gs/o/0/ ¦ echo "!!:&" ¦ echo "!!:g&"
            echo !$:h ¦ echo !$:t:r ¦ echo !!:1:s/n/N/:p ¦ echo !!:s^o^O^ ¦ echo !!:s/x/y/ ¦ echo !!:9 ¦ echo !!:z ¦ echo !#
            echo a !#:0 ¦ echo '!!' ¦ echo \!! ¦ echo "!!" ¦ echo ! x ¦ echo !=x ¦ echo !(x) ¦ echo $! ¦ [[ ! -z x ]] && echo neg
            echo !nosuch; echo after ¦ echo !99 ¦ echo !-99 ¦ echo "a" !! ¦ echo ${!x} ¦ echo x!
            echo @@ ¦ echo @-2 ¦ %one%ONE ¦ echo '@@' ¦ echo "!!:s/one/[&]/"
            "#,
        ),
    ]
    .boxed()
}

fn history_script() -> BoxedStrategy<String> {
    (
        lines(history_line(), 2..9),
        sel(&["file", "file", "stdin", "stdin", "inline"]),
        sel(&["", "", "set -H", "set -H", "set -H; HISTCONTROL=ignoreboth", "HISTSIZE=3"]),
        sel(&["", "", "", "printf '%s\\n' 'old 1' 'old 2' 'old 3' 'old 4' > hf", "printf '%s\\n' 'r1' 'r2' > hr"]),
    )
        .prop_map(|(body, mode, pre, files)| {
            let inner = format!("HISTFILE=hf; set -o history; {pre}\n{body}\necho \"end:$?\"");
            let printed: Vec<String> = inner.lines().map(squote).collect();
            let write = format!("printf '%s\\n' {} > s.sh", printed.join(" "));
            // `&` stays quoted (a background job's output would race the rest), and
            // the name of `fc`'s temporary file (random in bash) is masked.
            let shell = match mode.as_str() {
                "file" => "bash s.sh",
                "stdin" => "bash < s.sh",
                _ => "bash -c \"$(cat s.sh)\"",
            };
            let run = format!(
                "{shell} 2>&1 | sed 's/bash-fc\\.[A-Za-z0-9]*/bash-fc.X/'; echo \"rc=${{PIPESTATUS[0]}}\""
            );
            format!("printf '%s\\n' 'r1' 'r2' 'r3' > hr\n{files}\n{write}\n{run}\necho ---; cat hf 2>&1; cat hf2 2>/dev/null\n")
        })
        .boxed()
}

/// One statement of the `jobs` area: background jobs and `$!`, `wait` in each form,
/// `jobs` listings and jobspecs, `kill`, `disown`, `fg`/`bg`, `set -m`, traps on
/// signals sent to the shell or its jobs, coprocesses, `$BASHPID` and `timeout`. Each
/// statement orders its own output (by `wait`, pipes or sleeps of 0.1 s and more) and
/// never prints a PID: `jobs -l` goes through `sed`, and PIDs are compared.
fn jobs_stmt() -> BoxedStrategy<String> {
    prop_oneof![
        // Background jobs and `$!`.
        4 => frag(
            r#"
            sleep 0.1 & p=$!; wait $p; echo "w=$?" ¦ (exit 3) & wait $!; echo "s=$?" ¦ { sleep 0.1; exit 4; } & wait $!; echo "s=$?"
            echo bg-out & wait; echo "w=$?" ¦ f & wait $!; echo "f=$?" ¦ true & q=$!; wait; wait $q; echo "again=$?"
            sleep 0.2 & echo "has-pid:${!:+yes}" ¦ false & wait $!; echo "st=$?"; wait $!; echo "st2=$?"
            x=1; { x=2; } & wait; echo "x=$x" ¦ sleep 0.1 & p=$!; sleep 0.2 & [ "$p" != "$!" ] && echo distinct
            echo "bang:${!-unset}" ¦ (sleep 0.1; echo sub) & wait %1; echo "w1=$?" ¦ exit 7 & wait $!; echo "e=$?"
            sleep 0.1 | cat & wait $!; echo "pl=$?" ¦ false | true & wait $!; echo "pt=$?" ¦ true && false & wait $!; echo "and=$?"
            "#,
        ),
        // wait in each form, and its errors.
        5 => frag(
            r#"
            wait -n; echo "n=$?" ¦ sleep 0.2 & sleep 0.1 & wait -n; echo "n=$?"; jobs
            (exit 5) & (sleep 0.2; exit 6) & wait -n; echo "n=$?"; wait -n; echo "n2=$?"; wait -n; echo "n3=$?"
            sleep 0.1 & p=$!; wait -p v -n; echo "p=$?"; [ "$v" = "$p" ] && echo same-p ¦ wait -p v; echo "pv=$?:${v-unset}"
            sleep 0.1 & wait -f $!; echo "f=$?" ¦ wait 99999; echo "u=$?" ¦ wait %9; echo "j=$?" ¦ wait abc; echo "a=$?"
            wait -x; echo "x=$?" ¦ wait %sleep; echo "ws=$?" ¦ wait %?0.1; echo "wq=$?" ¦ wait %%; echo "wc=$?" ¦ wait %-; echo "wm=$?"
            sleep 1 & kill $!; wait $!; echo "k=$?" ¦ sleep 1 & kill -9 $!; wait $!; echo "k=$?" ¦ sleep 1 & kill -INT $!; wait; echo "ka=$?"
            sleep 0.1 & sleep 0.2 & wait %1 %2; echo "two=$?" ¦ (exit 2) & p=$!; sleep 0.1; wait $p; echo "late=$?"; wait $p; echo "late2=$?"
            wait -n 99999; echo "nu=$?" ¦ sleep 0.1 & wait -n $!; echo "np=$?" ¦ wait -p; echo "p=$?" ¦ wait -p 1x -n; echo "bad=$?"
            "#,
        ),
        // jobs listings and jobspecs.
        5 => frag(
            r#"
            sleep 0.3 & sleep 0.3 & jobs; jobs -p | wc -l ¦ jobs -l | sed 's/ *[0-9]\{4,\}/ PID/' ¦ jobs -r ¦ jobs -s ¦ jobs -n
            jobs %1 ¦ jobs %+ ¦ jobs %- ¦ jobs %% ¦ jobs %sleep ¦ jobs %?0.3 ¦ jobs %9; echo "j=$?" ¦ jobs %x; echo "jx=$?"
            true & sleep 0.1; jobs; jobs; echo "--" ¦ false & sleep 0.1; jobs -n; jobs -n ¦ (exit 3) & sleep 0.1; jobs
            sleep 1 & kill %%; sleep 0.1; jobs ¦ sleep 0.2 & jobs -p %+ | wc -l ¦ jobs -z; echo "z=$?" ¦ jobs -x echo %1 | wc -w
            sleep 0.3 & { sleep 0.1; }& jobs %?sle; echo "amb=$?" ¦ jobs %s; echo "js=$?" ¦ jobs 1; echo "num=$?"
            echo one & wait; jobs ¦ sleep 0.2 & sleep 0.1 & jobs -l %- | sed 's/ *[0-9]\{4,\}/ PID/' ¦ jobs -r -l | wc -l
            "#,
        ),
        // kill.
        5 => frag(
            r#"
            kill -l 9; kill -l 15; kill -l 137 ¦ kill -l TERM; kill -l SIGHUP ¦ kill -l 99; echo "l=$?" ¦ kill; echo "k=$?"
            sleep 1 & kill -s INT $!; wait $!; echo "k=$?" ¦ sleep 1 & kill -n 9 $!; wait $!; echo "k=$?" ¦ sleep 1 & kill -KILL %1; wait %1; echo "k=$?"
            sleep 1 & kill -SIGTERM -- $!; wait $!; echo "k=$?" ¦ kill -s BOGUS 1; echo "b=$?" ¦ kill -BOGUS 1; echo "b=$?" ¦ kill 99999; echo "u=$?"
            kill %9; echo "kj=$?" ¦ sleep 0.2 & kill -0 $!; echo "z=$?" ¦ kill -s 0 $$; echo "self=$?" ¦ kill -n; echo "n=$?" ¦ kill -s; echo "s=$?"
            kill -l | head -n 2 ¦ kill -L 2 ¦ kill abc; echo "a=$?" ¦ kill -15 %%; echo "c=$?" ¦ sleep 1 & kill -HUP $! && wait; echo "h=$?"
            sleep 1 & sleep 1 & kill %1 %2; wait; jobs; echo "both" ¦ sleep 1 & kill -STOP $!; kill -CONT $!; kill $!; wait $!; echo "sc=$?"
            "#,
        ),
        // disown.
        3 => frag(
            r#"
            sleep 0.2 & disown; jobs; echo "d=$?" ¦ sleep 0.2 & p=$!; disown; wait $p; echo "dw=$?" ¦ disown -h %1; jobs; echo "dh=$?"
            disown -a; jobs ¦ disown -r; jobs ¦ disown %9; echo "d9=$?" ¦ disown; echo "none=$?" ¦ sleep 0.2 & disown %sleep; jobs
            sleep 0.2 & sleep 0.2 & disown %1; jobs ¦ disown -x; echo "dx=$?" ¦ sleep 0.2 & disown $!; jobs; echo "dp=$?"
            "#,
        ),
        // fg and bg without job control.
        2 => frag(
            r#"
            fg; echo "fg=$?" ¦ bg; echo "bg=$?" ¦ fg %1; echo "fg1=$?" ¦ bg %1; echo "bg1=$?" ¦ sleep 0.1 & fg; echo "fgj=$?"
            sleep 0.1 & bg; echo "bgj=$?" ¦ fg %9; echo "fg9=$?"
            "#,
        ),
        // set -m in a non-interactive shell.
        4 => frag(
            r#"
            set -m; true & sleep 0.2; echo y; set +m ¦ set -m; sleep 1 & kill -- -$!; sleep 0.1; echo z; set +m
            set -m; ( kill 0; echo after-k0 ) & wait $!; echo "k0=$?"; set +m ¦ set -m; sleep 0.1 & fg; echo "fg=$?"; set +m
            set -m; { sleep 1; } & p=$!; kill -TERM -- -$p; wait $p; echo "g=$?"; set +m ¦ set -m; echo "[$-]" | tr -d 'hBc'; set +m
            set -m; sleep 0.1 & bg; echo "bg=$?"; wait; set +m ¦ set -m; false & wait; sleep 0.1; jobs; set +m
            set -m; (exit 4) & sleep 0.2; echo "after"; set +m ¦ set -m; sleep 1 & kill -STOP $!; sleep 0.1; jobs; kill -KILL $!; wait $!; echo "st=$?"; set +m
            set -o monitor; sleep 0.1 & wait; jobs; set +o monitor ¦ set -m; sleep 0.2 & jobs -l | sed 's/ *[0-9]\{4,\}/ PID/'; set +m
            "#,
        ),
        // Traps on signals sent to the shell or its jobs.
        4 => frag(
            r#"
            trap 'echo got' USR1; kill -USR1 $$; echo after ¦ trap 'echo got $?' USR1; { sleep 0.2; kill -USR1 $$; } & wait; echo "w=$?"
            trap 'echo t' TERM; kill $$; echo after ¦ trap '' USR1; kill -USR1 $$; echo ignored ¦ ( trap 'echo sub' USR1; kill -USR1 $BASHPID; echo sub-after )
            trap 'echo int' INT; kill -INT $$; echo "i=$?" ¦ trap 'echo h' HUP; sleep 1 & kill -HUP $$; kill $!; wait $!; echo "h=$?"
            trap 'echo u2' USR2; { sleep 0.1; kill -USR2 $$; } & sleep 0.3; echo slept ¦ ( trap 'echo term-job' TERM; sleep 0.3 ) & sleep 0.1; kill $!; wait $!; echo "tj=$?"
            trap 'echo got' USR1; sleep 1 & p=$!; { sleep 0.1; kill -USR1 $$; } & wait $p; echo "cut=$?"; kill $p; wait $p
            trap - USR1; trap -p USR1; echo reset ¦ trap 'echo q' QUIT; kill -QUIT $$; echo "q=$?"
            "#,
        ),
        // Coprocesses.
        4 => frag(
            r#"
            coproc { read x; echo "got:$x"; }; echo hi >&${COPROC[1]}; read y <&${COPROC[0]}; echo "$y"; wait $COPROC_PID; echo "cw=$?"
            coproc CAT { cat; }; echo line >&${CAT[1]}; exec {CAT[1]}>&-; cat <&${CAT[0]}; wait $CAT_PID; echo "cat=$?"
            coproc echo out; read l <&${COPROC[0]}; echo "$l"; echo "n=${#COPROC[@]}"; wait ¦ coproc C2 (exit 3); wait $C2_PID; echo "c2=$?"
            coproc sleep 0.1; [ "$COPROC_PID" = "$!" ] && echo pid-is-bang; wait $COPROC_PID; echo "s=$?"; echo "${COPROC[@]-gone}" | wc -w
            { coproc A { sleep 0.2; }; coproc B { sleep 0.1; }; wait; } 2>&1 | sed 's/[0-9]\{4,\}/PID/g'
            coproc tr a-z A-Z; echo abc >&${COPROC[1]}; eval "exec ${COPROC[1]}>&-"; read -r u <&${COPROC[0]}; echo "$u"; wait
            coproc NAME { echo named; }; read v <&${NAME[0]}; echo "$v:${#NAME[@]}"; wait $NAME_PID; echo "nw=$?"
            coproc { exit 5; }; sleep 0.1; wait $COPROC_PID; echo "ce=$?"; echo "after:${COPROC_PID-unset}"
            "#,
        ),
        // $BASHPID and $$.
        3 => frag(
            r#"
            [ $BASHPID = $$ ] && echo main-same ¦ ( [ $BASHPID != $$ ] && echo sub-differs ) ¦ { [ $BASHPID = $$ ] && echo group-same; }
            b=$(echo $BASHPID); [ "$b" != "$$" ] && echo cs-differs ¦ { echo $BASHPID > .bp; } & wait; [ "$(cat .bp)" = "$!" ] && echo bg-is-bang
            echo $BASHPID | { read r; [ "$r" != "$$" ] && echo pipe-differs; } ¦ ( a=$BASHPID; ( [ $BASHPID != $a ] && echo nested-differs ) )
            (( BASHPID == $$ )) && echo arith-same ¦ x=$( ( echo $BASHPID ) ); [ "$x" != "$$" ] && echo deep-differs
            "#,
        ),
        // timeout.
        3 => frag(
            r#"
            timeout 0.1 sleep 1; echo "t=$?" ¦ timeout -s KILL 0.1 sleep 1; echo "t=$?" ¦ timeout 1 true; echo "t=$?"
            timeout 1 sh -c 'exit 3'; echo "t=$?" ¦ timeout --preserve-status 0.1 sleep 1; echo "t=$?" ¦ timeout x sleep 1; echo "t=$?"
            timeout 1 nosuch; echo "t=$?" ¦ timeout -k 0.1 0.1 sleep 1; echo "t=$?" ¦ timeout 0.1 sleep 1 & wait $!; echo "tb=$?"
            timeout -s INT 0.1 sleep 1; echo "t=$?" ¦ timeout; echo "t=$?" ¦ timeout 1 echo hi; echo "t=$?"
            "#,
        ),
    ]
    .boxed()
}

fn jobs_script() -> BoxedStrategy<String> {
    (
        lines(jobs_stmt(), 1..5),
        sel(&["", "", "", "set -m", "set -b"]),
    )
        .prop_map(|(body, pre)| {
            format!(
                "exec 5>&2 2>.err\n\
                 trap 'exec 2>&5; sed \"s/ *[0-9]\\{{4,\\}}/ PID/g\" .err >&2' EXIT\n\
                 f() {{ sleep 0.1; return 5; }}\n\
                 {pre}\n{body}\n\
                 wait; echo \"end:$?\"\njobs\n"
            )
        })
        .boxed()
}

/// One `#[test]` per area: `name => generator`.
macro_rules! areas {
    ($($name:ident => $gen:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check_area(stringify!($name), $gen());
            }
        )*
    };
}

areas! {
    traps => traps_script,
    namerefs => namerefs_script,
    declare => declare_script,
    getopts => getopts_script,
    io => io_script,
    params => param_script,
    redirs => redirs_script,
    errexit => errexit_script,
    arith => arith_script,
    cond => cond_script,
    printing => printing_script,
    words => words_script,
    flow => flow_script,
    arrays => arrays_script,
    patterns => patterns_script,
    builtins => builtins_script,
    syntax => syntax_script,
    varenv => varenv_script,
    invoke => invoke_script,
    history => history_script,
    jobs => jobs_script,
}
