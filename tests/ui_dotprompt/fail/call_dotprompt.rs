// `prompt!` reads Markdown and Jinja prompts; a dotprompt file is derived on a struct.
fn main() {
    let _ = promptic::prompt!("plain", name = "Ada");
}
