//! Small text helpers every stage uses for what it says (reports,
//! warnings, findings): a leaf, so that quoting a command or a pattern
//! never ties a stage to the settings.

/// One line, at most `max` characters, with an ellipsis when cut.
pub fn shorten(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        one_line
    } else {
        let mut cut: String = one_line.chars().take(max.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::shorten;

    #[test]
    fn shorten_makes_one_line_and_cuts_with_an_ellipsis() {
        assert_eq!(shorten("a\n  b\tc", 10), "a b c");
        assert_eq!(shorten("abcdef", 4), "abc…");
        assert_eq!(shorten("abcd", 4), "abcd");
        assert_eq!(shorten("ééééé", 3), "éé…");
    }
}
