//! The baseline plus one split by hookrun's own reader.
fn main() {
    let command = std::env::args().nth(1).unwrap_or_default();
    match hookrun::select::shell::split_command(&command) {
        Ok(split) => println!("{}", split.parts.len()),
        Err(e) => println!("{e}"),
    }
}
