fn main() {
    let _ = promptkit::prompt!(day = "Friday");
}
