// `flagout` tests `$verbose` and also writes it: the argument is a `bool`.
fn main() {
    let verbose: Option<&str> = Some("yes");
    let _ = promptic::prompt!("flagout", verbose);
}
