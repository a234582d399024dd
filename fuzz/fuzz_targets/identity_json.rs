#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| promptic_fuzz::identity_json::run(data));
