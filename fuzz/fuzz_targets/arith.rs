//! Fuzz target `arith`: a thin wrapper over `shellbox::fuzzing::check_arith`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = shellbox::fuzzing::check_arith(data) {
        panic!("check_arith: {e}");
    }
});
