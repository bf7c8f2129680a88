//! The workloads of issue 7, in-process: start-up, an arithmetic loop, parameter
//! expansions, a recursive function, text utilities over a 5 MB file, utilities over a
//! 20,000-file tree, short pipelines in a loop, and snapshots and store saves of a
//! 100,000-file filesystem. Each script's output is checked once against what
//! `/bin/bash` printed for it (recorded below), so a bench cannot get faster by
//! getting wrong. `benches/compare.sh` times the same scripts against bash as whole
//! processes.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use shellbox::Shell;
use shellbox::fs::{Clock, Fs, FsResult};
use shellbox::store::{Snapshot, Store};

/// Workload 2.
const ARITH_LOOP: &str = "x=0; for ((i=0;i<200000;i++)); do x=$((x+i)); done; echo $x";
/// Workload 3.
const PARAM_LOOP: &str = "s=abc/def/abracadabra; n=0; for ((i=0;i<20000;i++)); do \
    a=${s//a/b}; b=${s#*/}; c=${#s}; d=${s:1:3}; n=$((n+c)); done; echo \"$a $b $c $d $n\"";
/// Workload 4: recursion through a global result (bash would fork per `$(fib ...)`).
const FIB: &str = "fib() { if (( $1 < 2 )); then r=$1; return; fi; fib $(( $1 - 1 )); \
    local a=$r; fib $(( $1 - 2 )); r=$(( a + r )); }; fib 20; echo $r";
/// Workload 3 as the shared benchmark (`W3_strings.sh`) runs it.
const SHARED_W3: &str = "s=\"alpha/beta/gamma/delta.txt\"; n=0\n\
    for ((i=0;i<20000;i++)); do\n  p=\"$s/$i\"\n  \
    a=${p//a/b}; b=${p#*/}; c=${p%/*}; d=${p:3:7}\n  \
    n=$((n + ${#a} + ${#b} + ${#c} + ${#d}))\ndone\necho \"$n $a $b $c $d\"\n";
/// Workload 4 as the shared benchmark (`W4a_fib20.sh`) runs it.
const SHARED_W4A: &str = "fib() {\n  local n=$1\n  if ((n < 2)); then r=$n; return; fi\n  \
    fib $((n-1)); local a=$r\n  fib $((n-2)); r=$((a + r))\n}\nfib 20; echo $r\n";
/// Workload 7.
const PIPELINES: &str =
    "for ((i=0;i<2000;i++)); do echo $i | tr 0-9 a-j | cut -c1-3; done | tail -n 2";
/// Workload 7 as the shared harness (`W7_pipelines.sh`) runs it: every line to the
/// caller.
const SHARED_W7: &str = "for ((i=0;i<2000;i++)); do echo $i | tr 0-9 a-j | cut -c1-3; done";

/// Fails the bench run (before timing) when a script's output is not bash's.
fn check(sh: &mut Shell, script: &str, want: &str) {
    let out = sh.exec(script);
    let got = String::from_utf8_lossy(&out.stdout);
    if got != want || out.exit_code != 0 {
        eprintln!(
            "bench script differs from bash:\n{script}\nwant {want:?}\ngot {got:?} (status {}, stderr {:?})",
            out.exit_code,
            String::from_utf8_lossy(&out.stderr)
        );
        std::process::exit(1);
    }
}

fn or_exit<T, E: std::fmt::Display>(r: Result<T, E>) -> T {
    r.unwrap_or_else(|e| {
        eprintln!("bench setup failed: {e}");
        std::process::exit(1)
    })
}

/// A short measurement: these benches run whole scripts, so few samples suffice.
fn configure() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
}

/// Resident memory of this process, from /proc (Linux only).
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Workload 1: `echo hi` in a warm shell and in a fresh one; also what an idle
/// session costs in memory (1,000 sessions that each ran one command, measured as
/// growth of the resident set).
fn startup(c: &mut Criterion) {
    let mut warm = Shell::new();
    check(&mut warm, "echo hi", "hi\n");
    if let Some(before) = resident_bytes() {
        let shells: Vec<Shell> = (0..1000)
            .map(|_| {
                let mut sh = Shell::new();
                sh.exec("true");
                sh
            })
            .collect();
        if let Some(after) = resident_bytes() {
            eprintln!(
                "idle session: about {} bytes resident each",
                after.saturating_sub(before) / 1000
            );
        }
        drop(shells);
    }
    let mut group = c.benchmark_group("1 start-up");
    group.bench_function("fresh Shell::new", |b| b.iter(Shell::new));
    group.bench_function("echo hi, warm shell", |b| b.iter(|| warm.exec("echo hi")));
    group.bench_function("echo hi, fresh shell", |b| {
        b.iter(|| Shell::new().exec("echo hi"))
    });
    group.finish();
}

/// Workloads 2, 3 and 4: the interpreter alone.
fn interpreter(c: &mut Criterion) {
    let mut sh = Shell::new();
    check(&mut sh, ARITH_LOOP, "19999900000\n");
    check(
        &mut sh,
        PARAM_LOOP,
        "bbc/def/bbrbcbdbbrb def/abracadabra 19 bc/ 380000\n",
    );
    check(&mut sh, FIB, "6765\n");
    check(
        &mut sh,
        SHARED_W3,
        "1797780 blphb/betb/gbmmb/deltb.txt/19999 beta/gamma/delta.txt/19999 \
         alpha/beta/gamma/delta.txt ha/beta\n",
    );
    check(&mut sh, SHARED_W4A, "6765\n");
    let mut group = c.benchmark_group("interpreter");
    group.bench_function("2 arithmetic loop", |b| b.iter(|| sh.exec(ARITH_LOOP)));
    group.bench_function("3 parameter expansion", |b| b.iter(|| sh.exec(PARAM_LOOP)));
    group.bench_function("4 recursive fib 20", |b| b.iter(|| sh.exec(FIB)));
    group.bench_function("3 shared W3 strings", |b| b.iter(|| sh.exec(SHARED_W3)));
    group.bench_function("4 shared W4a fib 20", |b| b.iter(|| sh.exec(SHARED_W4A)));
    group.finish();
}

/// 5 MB of word pairs from a small vocabulary (deterministic).
fn big_text() -> Vec<u8> {
    const WORDS: [&str; 8] = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
    ];
    let mut out = Vec::with_capacity(5_100_000);
    let mut x: u32 = 7;
    while out.len() < 5_000_000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let a = WORDS[(x >> 16) as usize % WORDS.len()];
        let b = WORDS[(x >> 20) as usize % WORDS.len()];
        out.extend_from_slice(format!("{a} {b} {}\n", (x >> 8) % 100).as_bytes());
    }
    out
}

/// Workload 5: text utilities over a 5 MB file.
fn text(c: &mut Criterion) {
    let data = big_text();
    let data_len = data.len();
    let mut sh = Shell::builder().file("big.txt", data).build();
    // Expected values from /bin/bash with GNU grep, sort, uniq, sed, wc and awk over
    // the same bytes.
    let cases = [
        ("5a grep -c", "grep -c 'alpha beta' big.txt", "5407\n"),
        (
            "5a cat | grep -c",
            "cat big.txt | grep -c 'alpha beta'",
            "5407\n",
        ),
        (
            "5b sort, uniq -c, sort -rn, head",
            "sort big.txt | uniq -c | sort -rn | head -n 3",
            "     80 theta delta 23\n     80 gamma epsilon 8\n     80 delta epsilon 33\n",
        ),
        (
            "5c sed s///g, wc -c",
            "sed 's/a/A/g' big.txt | wc -c",
            "5000004\n",
        ),
        (
            "5d awk length sum",
            "awk '{n+=length($0)} END{print n}' big.txt",
            "4652838\n",
        ),
    ];
    for (_, script, want) in cases {
        check(&mut sh, script, want);
    }
    let mut group = c.benchmark_group("5 text, 5 MB");
    for (name, script, _) in cases {
        group.bench_function(name, |b| b.iter(|| sh.exec(script)));
    }
    group.finish();
    pipe_throughput(c, &mut sh, data_len);
}

/// Bytes through a three-stage pipeline, beside a plain copy of the same bytes: a
/// pipe should move a file at about memory speed.
fn pipe_throughput(c: &mut Criterion, sh: &mut Shell, len: usize) {
    check(sh, "cat big.txt | cat | cat | wc -c", &format!("{len}\n"));
    let mut group = c.benchmark_group("5 pipe throughput, 5 MB");
    group.throughput(criterion::Throughput::Bytes(len as u64));
    // `cat` hands the file's own buffer on and `/dev/null` drops it: no byte is
    // copied or read, so this measures hand-offs. A stage that writes every byte
    // anew (`tr` with nothing to change) measures a real copy through the pipes.
    group.bench_function("cat f | cat | cat > /dev/null", |b| {
        b.iter(|| sh.exec("cat big.txt | cat | cat > /dev/null"))
    });
    check(
        sh,
        "cat big.txt | tr -d '\\000' | cat | wc -c",
        &format!("{len}\n"),
    );
    group.bench_function("cat f | tr -d '\\000' | cat > /dev/null", |b| {
        b.iter(|| sh.exec("cat big.txt | tr -d '\\000' | cat > /dev/null"))
    });
    let src = vec![7u8; len];
    let mut dst = vec![0u8; len];
    group.bench_function("memcpy", |b| {
        b.iter(|| dst.copy_from_slice(black_box(&src)))
    });
    group.finish();
}

/// The shared harness's `text5mb` dataset (`../shared/bench/gen_data.py`, version 1),
/// byte for byte: 100,000 lines drawn from 2,000 distinct ones with Zipf-like counts,
/// shuffled with the same 64-bit LCG.
fn harness_text() -> Vec<u8> {
    const WORDS: &str = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima \
        mike november oscar papa quebec romeo sierra tango uniform victor whiskey \
        xray yankee zulu apple banana cherry date elder fig grape honeydew kiwi \
        lemon mango nectar olive peach quince raspberry strawberry tomato ugli \
        vanilla walnut yam zucchini foo bar baz qux quux corge grault garply waldo \
        fred plugh xyzzy thud amber azure beige coral cyan ivory jade khaki lavender \
        magenta maroon navy ochre plum ruby salmon teal umber violet wheat";
    let words: Vec<&str> = WORDS.split_whitespace().collect();
    let mut s: u64 = 20_240_601;
    let mut below = |n: usize| {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (s >> 32) as usize % n
    };
    let mut templates: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    while templates.len() < 2000 {
        let min_len = 44 + below(12);
        let (mut line, mut n) = (Vec::new(), 0);
        while n < min_len {
            let w = words[below(words.len())];
            line.push(w);
            n += w.len() + 1;
        }
        let line = line.join(" ");
        if seen.insert(line.clone()) {
            templates.push(line);
        }
    }
    let total = 100_000i64;
    let h: f64 = (0..templates.len()).map(|k| 1.0 / (k + 1) as f64).sum();
    let a = total as f64 / h;
    let mut counts: Vec<i64> = (0..templates.len())
        .map(|k| ((a / (k + 1) as f64).round_ties_even() as i64).max(1))
        .collect();
    counts[0] += total - counts.iter().sum::<i64>();
    let mut lines: Vec<&str> = Vec::new();
    for (t, &c) in templates.iter().zip(&counts) {
        lines.extend(std::iter::repeat_n(t.as_str(), c as usize));
    }
    for i in (1..lines.len()).rev() {
        let j = below(i + 1);
        lines.swap(i, j);
    }
    let mut out = lines.join("\n").into_bytes();
    out.push(b'\n');
    out
}

/// Workload 5 as the shared harness (`../shared/bench/workloads/W5*.sh`) runs it, over
/// its dataset; the pipelines of issue 27's targets.
fn harness_pipelines(c: &mut Criterion) {
    let mut sh = Shell::builder().file("big.txt", harness_text()).build();
    // Expected values from /bin/bash with GNU tools and mawk over the same bytes.
    let cases = [
        (
            "W5a cat | grep -c foo",
            "cat big.txt | grep -c foo",
            "19434\n",
        ),
        (
            "W5b sort | uniq -c | sort -rn | head",
            "sort big.txt | uniq -c | sort -rn | head",
            "  12237 date mango india charlie grault foo hotel strawberry\n   \
             6114 lavender juliet corge peach strawberry qux india apple\n   \
             4076 romeo zucchini ochre garply wheat qux cherry banana\n   \
             3057 olive xray oscar plum quince bravo kiwi jade romeo\n   \
             2445 violet raspberry peach yam navy ugli mango peach qux qux\n   \
             2038 xyzzy umber lemon vanilla maroon hotel raspberry tango\n   \
             1747 bravo thud india sierra charlie alpha azure salmon\n   \
             1528 ochre khaki whiskey juliet magenta tomato navy tomato\n   \
             1359 foo nectar thud lima baz charlie magenta baz nectar\n   \
             1223 whiskey tomato violet grault ivory foxtrot teal jade\n",
        ),
        (
            "W5c sed | wc -c",
            "sed 's/a/b/g' big.txt | wc -c",
            "5255147\n",
        ),
        (
            "W5d awk length sum",
            "awk '{n+=length($0)} END{print n}' big.txt",
            "5155147\n",
        ),
    ];
    for (_, script, want) in cases {
        check(&mut sh, script, want);
    }
    let mut group = c.benchmark_group("5 harness text5mb");
    for (name, script, _) in cases {
        group.bench_function(name, |b| b.iter(|| sh.exec(script)));
    }
    group.finish();
}

/// 20,000 files in 200 directories under /workspace/tree.
fn tree(fs: &mut Fs) -> FsResult<()> {
    for d in 0..200 {
        fs.mkdir(&format!("/workspace/tree/d{d}"), 0o755)?;
        for f in 0..100 {
            let body = if f % 37 == 0 { "needle" } else { "hay" };
            fs.write_file(
                &format!("/workspace/tree/d{d}/f{f}.txt"),
                format!("{body} {d} {f}\n").as_bytes(),
            )?;
        }
    }
    Ok(())
}

/// Workload 6: utilities over a 20,000-file tree.
fn files(c: &mut Criterion) {
    // A default shell (its /bin lists the utilities), then the tree.
    let mut sh = Shell::builder().cwd("tree").build();
    or_exit(tree(&mut sh.fs_mut()));
    // Counts from /bin/bash with GNU find, grep and ls over the same tree on disk.
    let cases = [
        ("6a find -name", "find . -name 'f1*' | wc -l", "2200\n"),
        ("6b grep -rl", "grep -rl needle . | wc -l", "600\n"),
        ("6c ls -R", "ls -R | wc -l", "20601\n"),
    ];
    for (_, script, want) in cases {
        check(&mut sh, script, want);
    }
    let mut group = c.benchmark_group("6 tree, 20000 files");
    for (name, script, _) in cases {
        group.bench_function(name, |b| b.iter(|| sh.exec(script)));
    }
    group.finish();
    host_tree(c, &cases);
}

/// Workload 6 as the CLI meets it: the same tree on the host, overlaid with `--root`
/// (`copy_host_dir`), alone and then with each command run on a fresh overlay (so
/// `grep -rl` reads every file from the host, as GNU grep does).
fn host_tree(c: &mut Criterion, cases: &[(&str, &str, &str)]) {
    let dir = std::env::temp_dir().join(format!("shellbox-bench-tree-{}", std::process::id()));
    for d in 0..200 {
        or_exit(std::fs::create_dir_all(dir.join(format!("d{d}"))));
        for f in 0..100 {
            let body = if f % 37 == 0 { "needle" } else { "hay" };
            let path = dir.join(format!("d{d}/f{f}.txt"));
            or_exit(std::fs::write(path, format!("{body} {d} {f}\n")));
        }
    }
    let overlaid = || {
        let mut sh = Shell::builder().build();
        or_exit(shellbox::session::copy_host_dir(
            &mut sh.fs_mut(),
            &dir,
            "/workspace",
            &[],
        ));
        sh
    };
    for (_, script, want) in cases {
        check(&mut overlaid(), script, want);
    }
    let mut group = c.benchmark_group("6 host tree (--root), 20000 files");
    group.bench_function("overlay", |b| {
        b.iter_batched(|| (), |()| overlaid(), BatchSize::PerIteration)
    });
    for (name, script, _) in cases {
        group.bench_function(*name, |b| {
            b.iter_batched(overlaid, |mut sh| sh.exec(script), BatchSize::PerIteration)
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Workload 7: short pipelines in a loop.
fn pipelines(c: &mut Criterion) {
    let mut sh = Shell::new();
    check(&mut sh, PIPELINES, "bjj\nbjj\n");
    let mut group = c.benchmark_group("7 pipelines");
    group.bench_function("2000 three-stage pipelines", |b| {
        b.iter(|| sh.exec(PIPELINES))
    });
    // What bash prints: each number's digits as letters, cut to three.
    let want: String = (0..2000)
        .map(|i: u32| {
            let letters: String = i
                .to_string()
                .bytes()
                .map(|d| char::from(d - b'0' + b'a'))
                .take(3)
                .collect();
            letters + "\n"
        })
        .collect();
    check(&mut sh, SHARED_W7, &want);
    group.bench_function("W7 as the harness runs it", |b| {
        b.iter(|| sh.exec(SHARED_W7))
    });
    group.finish();
}

/// 100,000 files in 100 directories.
fn big_fs() -> FsResult<Fs> {
    let mut fs = Fs::new(Clock::virtual_at(1_700_000_000));
    for d in 0..100 {
        fs.mkdir(&format!("/workspace/d{d}"), 0o755)?;
        for f in 0..1000 {
            fs.write_file(
                &format!("/workspace/d{d}/f{f}"),
                format!("file {d} {f} with some text to make it longer than inline\n").as_bytes(),
            )?;
        }
    }
    Ok(fs)
}

/// Workload 8: snapshot and fork of a 100,000-file filesystem; a store save after a
/// one-file change.
fn snapshots(c: &mut Criterion) {
    let fs = or_exit(big_fs());
    let mut group = c.benchmark_group("8 snapshot, 100000 files");
    group.bench_function("snapshot", |b| b.iter(|| black_box(&fs).snapshot()));
    group.bench_function("fork and write one file", |b| {
        b.iter_batched(
            || fs.clone(),
            |mut f| {
                let r = f.write_file("/workspace/d50/f500", b"changed\n");
                (f, r)
            },
            BatchSize::SmallInput,
        )
    });
    let dir = std::env::temp_dir().join(format!("shellbox-bench-store-{}", std::process::id()));
    let store = or_exit(Store::open(&dir));
    let meta = serde_json::Value::Null;
    or_exit(store.save(
        "bench",
        &Snapshot {
            fs: fs.clone(),
            meta: meta.clone(),
        },
    ));
    // One changed file must cost its own blob (unless it is small enough to sit in its
    // directory's listing) and the directory listings on its path, not the tree.
    let mut changed = fs.clone();
    or_exit(changed.write_file(
        "/workspace/d50/f500",
        b"changed once, long enough not to be inlined\n",
    ));
    let report = or_exit(store.save(
        "bench",
        &Snapshot {
            fs: changed,
            meta: meta.clone(),
        },
    ));
    eprintln!(
        "store save after a one-file change: {} blobs, {} blob bytes, manifest {} bytes",
        report.blobs_written, report.blob_bytes_written, report.manifest_bytes
    );
    let mut n = 0u64;
    group.bench_function("store save after a one-file change", |b| {
        b.iter_batched(
            || {
                n += 1;
                let mut f = fs.clone();
                let _ = f.write_file(
                    "/workspace/d50/f500",
                    format!("change {n}, long enough not to be inlined\n").as_bytes(),
                );
                Snapshot {
                    fs: f,
                    meta: meta.clone(),
                }
            },
            |snap| store.save("bench", &snap),
            BatchSize::LargeInput,
        )
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group! {
    name = benches;
    config = configure();
    targets = startup, interpreter, text, harness_pipelines, files, pipelines, snapshots
}
criterion_main!(benches);
