fn main() {
    let day = "Friday";
    let _ = promptic::prompt!("day", day, day = "Monday");
}
