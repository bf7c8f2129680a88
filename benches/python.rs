//! `python3` start-up in a warm session (issue 28: under 20 ms): `python3 -c
//! 'print(1)'` run again and again in one shell, so each call reuses an interpreter
//! thread, as calls after the first of a process do; and a small program that imports
//! the modules agents use most. Each script's output is checked once before timing.

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use shellbox::Shell;

const PRINT: &str = "python3 -c 'print(1)'";
const IMPORTS: &str = "python3 -c 'import json, re, collections, os; print(json.dumps(sorted(os.listdir(\"/\"))[:1]))'";

fn check(sh: &mut Shell, script: &str, want: &str) {
    let out = sh.exec(script);
    let got = String::from_utf8_lossy(&out.stdout);
    if got != want || out.exit_code != 0 {
        eprintln!(
            "bench script printed {got:?} (status {}, stderr {:?}), not {want:?}",
            out.exit_code,
            String::from_utf8_lossy(&out.stderr)
        );
        std::process::exit(1);
    }
}

fn python(c: &mut Criterion) {
    let mut sh = Shell::new();
    check(&mut sh, PRINT, "1\n");
    check(&mut sh, IMPORTS, "[\"bin\"]\n");
    c.bench_function("python3 -c print(1), warm", |b| b.iter(|| sh.exec(PRINT)));
    c.bench_function("python3 -c import json re collections os, warm", |b| {
        b.iter(|| sh.exec(IMPORTS))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(8));
    targets = python
}
criterion_main!(benches);
