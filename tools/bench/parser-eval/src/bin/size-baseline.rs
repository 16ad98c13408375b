//! The yardstick of the sizes: reads a command from argv and prints its length.
fn main() {
    let command = std::env::args().nth(1).unwrap_or_default();
    println!("{}", command.len());
}
