//! The baseline plus one parse by brush-parser.
fn main() {
    let command = std::env::args().nth(1).unwrap_or_default();
    let options = brush_parser::ParserOptions::default();
    let mut parser = brush_parser::Parser::new(command.as_bytes(), &options);
    match parser.parse_program() {
        Ok(program) => println!("{}", program.complete_commands.len()),
        Err(e) => println!("{e}"),
    }
}
