//! Fuzz target `print_roundtrip`: a thin wrapper over `shellbox::fuzzing::check_print_roundtrip`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = shellbox::fuzzing::check_print_roundtrip(data) {
        panic!("check_print_roundtrip: {e}");
    }
});
