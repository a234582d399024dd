#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| promptkit_fuzz::dotprompt::run(data));
