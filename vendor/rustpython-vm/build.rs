use std::{env, io::prelude::*, path::PathBuf, process::Command};

fn main() {
    let frozen_libs = if cfg!(feature = "freeze-stdlib") {
        "Lib/*/*.py"
    } else {
        "Lib/python_builtins/*.py"
    };
    for entry in glob::glob(frozen_libs).expect("Lib/ exists?").flatten() {
        let display = entry.display();
        println!("cargo:rerun-if-changed={display}");
    }
    // shellbox: no `rerun-if-changed` on ../../Lib (missing outside RustPython's own
    // repository, so the crate was rebuilt by every cargo command), no git facts (git
    // here would describe shellbox's checkout), and no build environment in
    // `_sysconfigdata` (it would hand the build machine's variables to sandboxed code).
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rustc-env=RUSTC_VERSION={}", rustc_version());

    println!(
        "cargo:rustc-env=RUSTPYTHON_TARGET_TRIPLE={}",
        env::var("TARGET").unwrap()
    );

    let mut env_path = PathBuf::from(env::var_os("OUT_DIR").unwrap());
    env_path.push("env_vars.rs");
    let mut f = std::fs::File::create(env_path).unwrap();
    write!(f, "sysvars! {{}}").unwrap();
}

fn rustc_version() -> String {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    command(rustc, &["-V"])
}

fn command(cmd: impl AsRef<std::ffi::OsStr>, args: &[&str]) -> String {
    match Command::new(cmd).args(args).output() {
        Ok(output) => match String::from_utf8(output.stdout) {
            Ok(s) => s,
            Err(err) => format!("(output error: {err})"),
        },
        Err(err) => format!("(command error: {err})"),
    }
}
