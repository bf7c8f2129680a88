//! Fuzz target `fs_ops`: a thin wrapper over `shellbox::fuzzing::check_fs_ops`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = shellbox::fuzzing::check_fs_ops(data) {
        panic!("check_fs_ops: {e}");
    }
});
