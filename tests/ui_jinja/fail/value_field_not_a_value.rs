// A struct a template reads by field, one of whose fields is of a type no template can
// read: one error, at that field's type.
#[derive(promptic::PromptValue)]
struct Booking {
    guest: String,
    stay: std::time::Duration,
}

fn main() {}
