fn main() {
    let _ = promptic::prompt!(day = "Friday");
}
