//! Fuzz target `store_load`: a thin wrapper over `shellbox::fuzzing::check_store_load`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = shellbox::fuzzing::check_store_load(data) {
        panic!("check_store_load: {e}");
    }
});
