#![allow(clippy::panic, clippy::expect_used, clippy::unwrap_used)]
//! `sqlite3` inside the sandbox: the database lives in the virtual filesystem, SQLite
//! never reaches a host file, and a statement that runs too long or grows the database
//! past the file size limit ends the run with that limit's message.

use std::time::{Duration, Instant};

use shellbox::{Limits, Shell};

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

fn check(limits: Limits, script: &str) -> Run {
    let mut sh = Shell::builder().limits(limits).build();
    let out = sh.exec(script);
    Run {
        status: out.exit_code,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn the_database_is_a_file_of_the_sandbox_and_persists_across_commands() {
    let r = check(
        Limits::default(),
        "sqlite3 app.db 'create table kv(k primary key, v); insert into kv values (1, 2)'
         sqlite3 app.db 'update kv set v = v + 40'
         cp app.db copy.db
         sqlite3 copy.db 'select v from kv'
         head -c 16 app.db | od -c | head -1",
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "42\n0000000   S   Q   L   i   t   e       f   o   r   m   a   t       3  \\0\n"
    );
}

#[test]
fn attach_of_a_file_vacuum_into_and_temp_store_are_refused() {
    let host = std::env::temp_dir().join(format!("shellbox-sqlite3-{}", std::process::id()));
    let host = host.to_string_lossy().into_owned();
    let script = format!(
        "sqlite3 a.db \"attach '{host}' as h; create table h.x(a)\"; echo $?
         sqlite3 a.db \"vacuum into '{host}'\"; echo $?
         sqlite3 a.db 'pragma temp_store=file'; echo $?
         sqlite3 a.db 'pragma max_page_count=100000000'; echo $?
         sqlite3 a.db \"create table t(a); insert into t values(1); vacuum; attach ':memory:' as m; create table m.z(a); select count(*) from t\"; echo $?"
    );
    let r = check(Limits::default(), &script);
    assert_eq!(r.stdout, "23\n23\n23\n23\n1\n0\n", "{}", r.stderr);
    assert!(r.stderr.contains("not authorized"), "{}", r.stderr);
    assert!(
        !std::path::Path::new(&host).exists(),
        "a host file was created"
    );
}

#[test]
fn a_database_cannot_grow_past_the_file_size_limit() {
    let mut l = Limits::default();
    l.max_file_bytes = 100 << 10;
    let r = check(
        l,
        "sqlite3 big.db 'create table t(a); with recursive c(x) as (select 1 union all select x+1 from c where x<100000) insert into t select randomblob(100) from c'; echo not reached",
    );
    assert_eq!(r.status, 126);
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr
            .contains("sqlite3: file size limit exceeded (102400 bytes)"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_runaway_query_ends_at_the_time_limit() {
    let mut l = Limits::default();
    l.timeout = Some(Duration::from_millis(500));
    let start = Instant::now();
    let r = check(
        l,
        "sqlite3 :memory: 'with recursive c(x) as (select 1 union all select x+1 from c) select count(*) from c'; echo not reached",
    );
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(r.status, 126);
    assert!(r.stderr.contains("time limit exceeded"), "{}", r.stderr);
    assert_eq!(r.stdout, "");
}

#[test]
fn output_files_and_values_are_bounded() {
    let mut l = Limits::default();
    l.max_file_bytes = 64 << 10;
    let r = check(
        l,
        "sqlite3 :memory: '.output o.txt' 'with recursive c(x) as (select 1 union all select x+1 from c where x < 100000) select x from c'",
    );
    assert_eq!(r.status, 126);
    assert!(
        r.stderr.contains("file size limit exceeded"),
        "{}",
        r.stderr
    );
    let mut l = Limits::default();
    l.max_file_bytes = 64 << 10;
    let r = check(
        l,
        "sqlite3 :memory: 'select length(zeroblob(1000000))'; echo $?",
    );
    assert_eq!(r.stdout, "18\n", "{}", r.stderr);
    assert!(r.stderr.contains("string or blob too big"), "{}", r.stderr);
}

#[test]
fn an_endless_producer_on_stdin_ends_at_a_limit() {
    let mut l = Limits::default();
    l.timeout = Some(Duration::from_secs(2));
    let r = check(l, "yes 'select 1;' | sqlite3 >/dev/null; echo after");
    assert_eq!(r.status, 126, "{} {}", r.stdout, r.stderr);
}
