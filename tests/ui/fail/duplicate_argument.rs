fn main() {
    let day = "Friday";
    let _ = promptkit::prompt!("day", day, day = "Monday");
}
