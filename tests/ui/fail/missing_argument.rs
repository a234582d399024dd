fn main() {
    let _ = promptkit::prompt!("segment", day = "Friday");
}
