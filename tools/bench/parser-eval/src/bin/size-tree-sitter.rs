//! The baseline plus one parse by tree-sitter-bash.
fn main() {
    let command = std::env::args().nth(1).unwrap_or_default();
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .expect("the grammar's ABI matches the runtime");
    match parser.parse(&command, None) {
        Some(tree) => println!("{}", tree.root_node().named_child_count()),
        None => println!("no tree"),
    }
}
