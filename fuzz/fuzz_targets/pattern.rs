//! Fuzz target `pattern`: a thin wrapper over `shellbox::fuzzing::check_pattern`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = shellbox::fuzzing::check_pattern(data) {
        panic!("check_pattern: {e}");
    }
});
