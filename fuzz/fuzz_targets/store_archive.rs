#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| promptkit_fuzz::store_archive::run(data));
