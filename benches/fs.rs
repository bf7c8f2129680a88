//! Filesystem benchmarks: a snapshot must cost the same for 10 files as for 100,000
//! (an O(1) clone), a write into a fork must copy only the path it touches, and path
//! lookup must stay cheap for deep paths; seeding many files at once is measured too.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use shellbox::fs::{Clock, Fs, FsResult};

/// Files per directory in the generated trees.
const PER_DIR: usize = 1000;

/// A default filesystem with `files` files spread over `/workspace/dN/fM`.
fn tree(files: usize) -> FsResult<Fs> {
    let mut fs = Fs::new(Clock::virtual_at(1_700_000_000));
    for dir in 0..files.div_ceil(PER_DIR) {
        fs.mkdir(&format!("/workspace/d{dir}"), 0o755)?;
    }
    for i in 0..files {
        let path = format!("/workspace/d{}/f{}", i / PER_DIR, i % PER_DIR);
        fs.write_file(&path, format!("file {i}\n").as_bytes())?;
    }
    Ok(fs)
}

/// A filesystem holding one file 64 directories below /workspace; returns its path.
fn deep() -> FsResult<(Fs, String)> {
    let mut fs = tree(1000)?;
    let dir: String = (0..64).map(|i| format!("/l{i}")).collect();
    let dir = format!("/workspace{dir}");
    fs.mkdir_all(&dir, 0o755)?;
    let file = format!("{dir}/file");
    fs.write_file(&file, b"deep\n")?;
    Ok((fs, file))
}

fn or_exit<T>(r: FsResult<T>) -> T {
    r.unwrap_or_else(|e| {
        eprintln!("fs bench setup failed: {e}");
        std::process::exit(1)
    })
}

fn snapshot(c: &mut Criterion) {
    let small = or_exit(tree(10));
    let big = or_exit(tree(100_000));
    let mut group = c.benchmark_group("snapshot");
    group.bench_function("10 files", |b| b.iter(|| black_box(&small).snapshot()));
    group.bench_function("100000 files", |b| b.iter(|| black_box(&big).snapshot()));
    group.finish();
}

fn fork_write(c: &mut Criterion) {
    let big = or_exit(tree(100_000));
    let mut group = c.benchmark_group("fork then write, 100000 files");
    group.bench_function("overwrite a file", |b| {
        b.iter_batched(
            || big.clone(),
            |mut fs| {
                let r = fs.write_file("/workspace/d50/f500", b"changed\n");
                (fs, r)
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("create a file", |b| {
        b.iter_batched(
            || big.clone(),
            |mut fs| {
                let r = fs.write_file("/workspace/d50/new", b"new\n");
                (fs, r)
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn lookup(c: &mut Criterion) {
    let (fs, file) = or_exit(deep());
    let mut group = c.benchmark_group("stat");
    group.bench_function("depth 66", |b| b.iter(|| fs.stat(black_box(&file))));
    group.bench_function("depth 3", |b| {
        b.iter(|| fs.stat(black_box("/workspace/d0/f999")))
    });
    group.finish();
}

/// Seeding a sandbox as the Node package's `new Bash({files})` does: 20,000 small
/// files over 200 directories through `provision_files` (issue 21).
fn provision(c: &mut Criterion) {
    use shellbox::session::{NewFile, provision_files};
    let files: Vec<(String, Vec<u8>)> = (0..20_000)
        .map(|i| {
            let path = format!("/workspace/d{}/f{i}.txt", i % 200);
            (
                path,
                format!("line one\nhay {i}\nline three\n").into_bytes(),
            )
        })
        .collect();
    let mut group = c.benchmark_group("provision");
    group.sample_size(20);
    group.bench_function("20000 files in 200 directories", |b| {
        b.iter_batched(
            || {
                let batch = files
                    .iter()
                    .map(|(p, d)| NewFile::new(p.as_str(), d.as_slice()));
                (Fs::new(Clock::virtual_at(0)), batch.collect::<Vec<_>>())
            },
            |(mut fs, batch)| {
                if let Err(e) = provision_files(&mut fs, batch) {
                    eprintln!("provision failed: {}", e.message());
                    std::process::exit(1);
                }
                fs
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, snapshot, fork_write, lookup, provision);
criterion_main!(benches);
