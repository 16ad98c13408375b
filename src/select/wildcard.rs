//! The matcher behind Bash-style rule patterns (`git push *`, `*--force*`):
//! literal text with `*` standing for any run of characters, anchored at
//! both ends, and optionally a word-boundary tail (`ls *` matches `ls` and
//! `ls -la`, never `lsof`).
//!
//! It means exactly what the anchored regex `(?s)^p0.*p1.*…pn(?: .*)?$`
//! means, but costs nothing to build: a fire may hold thousands of `if`
//! rules, and compiling a regex for each one was most of its time. Matching
//! is linear in the text (for a fixed pattern): every piece between stars is
//! found by substring search, leftmost first, which is optimal for a pattern
//! whose only wildcard is `*`.

/// A compiled Bash-style pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wildcard {
    /// The literal text between the stars (one more than there are stars).
    pieces: Vec<String>,
    /// A ` *` tail: the text may go on after a space.
    word_tail: bool,
}

impl Wildcard {
    /// `body` is the pattern without its ` *` tail, if it had one.
    pub(crate) fn new(body: &str, word_tail: bool) -> Wildcard {
        Wildcard {
            pieces: body.split('*').map(str::to_owned).collect(),
            word_tail,
        }
    }

    pub(crate) fn is_match(&self, text: &str) -> bool {
        let (first, rest) = self.pieces.split_first().expect("split yields one piece");
        let Some(after_first) = text.strip_prefix(first.as_str()) else {
            return false;
        };
        let Some((last, middle)) = rest.split_last() else {
            // No star: the whole text, or the text and then a space.
            return after_first.is_empty() || (self.word_tail && after_first.starts_with(' '));
        };
        let mut from = first.len();
        if !self.word_tail {
            // The last piece must end the text, after everything before it.
            if text.len() < from + last.len() || !text.ends_with(last.as_str()) {
                return false;
            }
            return find_in_order(&text[from..text.len() - last.len()], middle).is_some();
        }
        let Some(used) = find_in_order(&text[from..], middle) else {
            return false;
        };
        from += used;
        // Any occurrence of the last piece at or after `from` that ends the
        // text or is followed by a space will do.
        let mut start = from;
        while let Some(found) = text[start..].find(last.as_str()) {
            let end = start + found + last.len();
            if end == text.len() || text[end..].starts_with(' ') {
                return true;
            }
            // Next candidate: one character further on.
            let step = text[start + found..]
                .chars()
                .next()
                .map_or(1, char::len_utf8);
            start += found + step;
        }
        false
    }
}

impl Wildcard {
    /// Whether some text this pattern matches could be what `text` becomes
    /// when every `hole` in it stands for any run of characters (an
    /// expansion only the shell performs): the intersection of two
    /// wildcards, by dynamic programming over both. Longer texts than
    /// [`MAX_HOLED`] characters are taken to match (the safe side for the
    /// rules that use it, which fail toward matching).
    pub(crate) fn is_match_with_holes(&self, text: &str, hole: char) -> bool {
        // The literal starts of both must agree where both are literal: this
        // settles almost every rule at once (views start with a program's
        // name, patterns with one), before the quadratic comparison.
        let agree = self.pieces[0]
            .chars()
            .zip(text.chars().take_while(|&c| c != hole))
            .all(|(p, t)| p == t);
        if !agree {
            return false;
        }
        let text: Vec<char> = text.chars().collect();
        if text.len() > MAX_HOLED {
            return true;
        }
        let body: Vec<Option<char>> = self.pattern_tokens(false);
        if intersects(&body, &text, hole) {
            return true;
        }
        self.word_tail && intersects(&self.pattern_tokens(true), &text, hole)
    }

    /// The pattern as characters with `None` for `*`; `tail`: followed by
    /// ` *`.
    fn pattern_tokens(&self, tail: bool) -> Vec<Option<char>> {
        let mut tokens = Vec::new();
        for (i, piece) in self.pieces.iter().enumerate() {
            if i > 0 {
                tokens.push(None);
            }
            tokens.extend(piece.chars().map(Some));
        }
        if tail {
            tokens.push(Some(' '));
            tokens.push(None);
        }
        tokens
    }
}

/// The longest text [`Wildcard::is_match_with_holes`] compares.
const MAX_HOLED: usize = 4096;

/// Whether a string exists that both `pattern` (`None` = `*`) and `text`
/// (`hole` = any run) describe.
fn intersects(pattern: &[Option<char>], text: &[char], hole: char) -> bool {
    let (m, n) = (pattern.len(), text.len());
    // reach[i][j]: pattern[..i] and text[..j] can describe the same string.
    let mut reach = vec![vec![false; n + 1]; m + 1];
    reach[0][0] = true;
    // (A vector per row keeps the indices readable; m is a rule's length.)
    for i in 0..=m {
        for j in 0..=n {
            if !reach[i][j] {
                continue;
            }
            let p = pattern.get(i).copied();
            let t = text.get(j).copied();
            if p == Some(None) {
                // `*` matches nothing more, or takes the next text character.
                reach[i + 1][j] = true;
                if j < n {
                    reach[i][j + 1] = true;
                }
            }
            if t == Some(hole) {
                // The hole is empty, or produces the next pattern character.
                reach[i][j + 1] = true;
                if let Some(Some(_)) = p {
                    reach[i + 1][j] = true;
                }
            }
            if let (Some(Some(pc)), Some(tc)) = (p, t) {
                if pc == tc {
                    reach[i + 1][j + 1] = true;
                }
            }
        }
    }
    reach[m][n]
}

/// Finds `pieces` one after another in `text`, each leftmost; returns how
/// many bytes of `text` they used up.
fn find_in_order(text: &str, pieces: &[String]) -> Option<usize> {
    let mut at = 0;
    for piece in pieces {
        at += text[at..].find(piece.as_str())? + piece.len();
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The regex this matcher replaces, as the rule engine used to build it.
    fn reference(body: &str, word_tail: bool) -> regex::Regex {
        let mut source = String::from("(?s)^");
        for (i, piece) in body.split('*').enumerate() {
            if i > 0 {
                source.push_str(".*");
            }
            source.push_str(&regex::escape(piece));
        }
        if word_tail {
            source.push_str("(?: .*)?");
        }
        source.push('$');
        regex::Regex::new(&source).unwrap()
    }

    #[test]
    fn holes_stand_for_any_text() {
        let cases: &[(&str, bool, &str, bool)] = &[
            ("rm -rf", true, "rm \u{FFFF} x", true),
            ("rm -rf", true, "rm -v \u{FFFF}", false),
            ("rm -rf", true, "ls \u{FFFF}", false),
            ("git push", true, "git \u{FFFF}", true),
            ("git push", true, "git commit -m \u{FFFF}", false),
            ("*--force*", false, "git push \u{FFFF}", true),
            ("*--force*", false, "git push origin", false),
            ("a*b", false, "\u{FFFF}", true),
            ("ab", false, "a\u{FFFF}c", false),
            ("abc", false, "a\u{FFFF}c", true),
        ];
        for &(body, tail, text, expected) in cases {
            let w = Wildcard::new(body, tail);
            assert_eq!(
                w.is_match_with_holes(text, '\u{FFFF}'),
                expected,
                "{body:?} {text:?}"
            );
            // Without holes it is the plain matcher.
            if !text.contains('\u{FFFF}') {
                assert_eq!(w.is_match(text), expected, "{body:?} {text:?}");
            }
        }
    }

    #[test]
    fn examples() {
        let cases: &[(&str, bool, &str, bool)] = &[
            ("git push", true, "git push", true),
            ("git push", true, "git push origin main", true),
            ("git push", true, "git pushy", false),
            ("git push", false, "git push origin", false),
            ("ls", true, "lsof", false),
            ("*--force*", false, "git push --force origin", true),
            ("*--force*", false, "git push origin", false),
            ("rm -rf *", false, "rm -rf /", true),
            ("rm -rf *", false, "rm -rf ", true),
            ("rm -rf *", false, "rm -rf", false),
            ("a*b", false, "ab", true),
            ("a*b", false, "a", false),
            ("a*a", false, "a", false),
            ("a*a", false, "aa", true),
            ("npm run *:dev", true, "npm run web:dev --port 1", true),
            ("npm run *:dev", true, "npm run web:devx", false),
            ("npm run *:dev", true, "npm run a:dev b:devx", true),
            ("x*y", true, "xay yb", true),
            ("x*y", true, "xayb", false),
            ("é*ü", true, "éaü ü", true),
            ("", true, "", true),
            ("", true, " anything", true),
            ("", false, "x", false),
            ("a\nb", false, "a\nb", true),
            ("a*", false, "a\nline two", true),
        ];
        for &(body, tail, text, expected) in cases {
            assert_eq!(
                Wildcard::new(body, tail).is_match(text),
                expected,
                "{body:?} (tail {tail}) on {text:?}"
            );
            assert_eq!(reference(body, tail).is_match(text), expected, "reference");
        }
    }

    proptest! {
        /// Sound: whatever a hole is filled with, a text the pattern matches
        /// is matched with the hole in it.
        #[test]
        fn holes_never_hide_a_match(
            body in "[ab* ]{0,6}",
            tail: bool,
            before in "[ab ]{0,5}",
            filler in "[ab ]{0,4}",
            after in "[ab ]{0,5}",
        ) {
            let w = Wildcard::new(&body, tail);
            let filled = format!("{before}{filler}{after}");
            if w.is_match(&filled) {
                let holed = format!("{before}\u{FFFF}{after}");
                prop_assert!(w.is_match_with_holes(&holed, '\u{FFFF}'), "{body:?} {holed:?} {filled:?}");
            }
        }

        /// Same answer as the anchored regex, over small alphabets where
        /// pieces overlap and repeat.
        #[test]
        fn agrees_with_the_regex(
            body in "[ab* ]{0,6}",
            tail in any::<bool>(),
            text in "[ab ]{0,10}",
        ) {
            prop_assert_eq!(
                Wildcard::new(&body, tail).is_match(&text),
                reference(&body, tail).is_match(&text)
            );
        }

        #[test]
        fn agrees_with_the_regex_on_unicode(
            body in "[aé*\u{0}]{0,5}",
            tail in any::<bool>(),
            text in "[aé \u{0}\n]{0,8}",
        ) {
            prop_assert_eq!(
                Wildcard::new(&body, tail).is_match(&text),
                reference(&body, tail).is_match(&text)
            );
        }
    }
}
