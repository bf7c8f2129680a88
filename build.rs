//! Links the `shellbox` CLI as a position-dependent executable.
//!
//! A PIE binary has its ~20,000 relative relocations applied at every start, which
//! writes to (and so copies) about 90 pages of `.data.rel.ro`: a third of the CLI's
//! page faults and most of the dynamic loader's work for `shellbox -c true`. The CLI
//! runs no foreign code, and the heap, stack and shared libraries keep their address
//! randomisation; the library crate, which hosts embed, is not affected.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
