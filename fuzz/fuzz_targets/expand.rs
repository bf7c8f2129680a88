//! Fuzz target `expand`: a thin wrapper over `shellbox::fuzzing::check_expand`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = shellbox::fuzzing::check_expand(data) {
        panic!("check_expand: {e}");
    }
});
