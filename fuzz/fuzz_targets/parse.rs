//! Fuzz target `parse`: a thin wrapper over `shellbox::fuzzing::check_parse`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = shellbox::fuzzing::check_parse(data) {
        panic!("check_parse: {e}");
    }
});
