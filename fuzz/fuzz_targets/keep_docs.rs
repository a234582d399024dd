#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| promptkit_fuzz::keep_docs::run(data));
