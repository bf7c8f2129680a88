//! Fuzz target `tool_json`: a thin wrapper over `shellbox::fuzzing::check_tool_json`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Err(e) = shellbox::fuzzing::check_tool_json(data) {
        panic!("check_tool_json: {e}");
    }
});
