//! Fuzz target `script`: a thin wrapper over `shellbox::fuzzing::check_script`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = shellbox::fuzzing::check_script(data) {
        panic!("check_script: {e}");
    }
});
