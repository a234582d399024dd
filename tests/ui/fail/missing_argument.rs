fn main() {
    let _ = promptic::prompt!("segment", day = "Friday");
}
