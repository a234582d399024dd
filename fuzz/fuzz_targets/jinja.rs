#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| promptkit_fuzz::jinja::run(data));
