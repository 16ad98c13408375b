//! Format-preserving edits of a JSON document (comments allowed): the text
//! is spliced, never re-serialised, so everything an edit does not touch
//! keeps its bytes — indentation, inline arrays, CRLF line ends, comments,
//! a missing final newline. Removing what [`append`] added gives back the
//! exact bytes it was added to.
//!
//! How: comments are blanked out byte for byte (offsets stay), the blanked
//! text is validated by `serde_json` (which also gives the [`Value`]), and a
//! small scanner over it finds each node's byte span.

use serde_json::Value;

/// Why an edit was not made.
#[derive(Debug, thiserror::Error)]
pub enum EditError {
    /// The text is not JSON (comments allowed).
    #[error("{0}")]
    Parse(#[source] serde_json::Error),
    #[error("no such value in the document")]
    NotFound,
    #[error("the root cannot be removed")]
    Root,
    /// A bug: the spliced text did not parse.
    #[error("an edit broke the document: {0}")]
    Broken(#[source] serde_json::Error),
}

/// One step of a path into the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// `Step::Key`, shorter.
pub fn key(name: &str) -> Step {
    Step::Key(name.to_owned())
}

/// A parsed document: the text, and the value it holds.
#[derive(Debug, Clone)]
pub struct Doc {
    pub text: String,
    pub value: Value,
    blank: String,
}

/// A node's span in the text and what is inside.
#[derive(Debug)]
struct Node {
    start: usize,
    end: usize,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    /// (key, the key's start, the value).
    Object(Vec<(String, usize, Node)>),
    Array(Vec<Node>),
    Scalar,
}

impl Node {
    /// The spans of the children: (start, end) of each member or element.
    fn children(&self) -> Vec<(usize, usize)> {
        match &self.kind {
            Kind::Object(members) => members.iter().map(|(_, k, v)| (*k, v.end)).collect(),
            Kind::Array(items) => items.iter().map(|n| (n.start, n.end)).collect(),
            Kind::Scalar => Vec::new(),
        }
    }
}

impl Doc {
    /// Parses `text` (JSON, with `//` and `/* */` comments allowed).
    pub fn parse(text: &str) -> Result<Doc, EditError> {
        let blank = blank_comments(text);
        let value: Value = serde_json::from_str(&blank).map_err(EditError::Parse)?;
        Ok(Doc {
            text: text.to_owned(),
            value,
            blank,
        })
    }

    fn root(&self) -> Node {
        let bytes = self.blank.as_bytes();
        let mut at = skip_ws(bytes, 0);
        parse_node(&self.blank, &mut at)
    }

    fn find(&self, path: &[Step]) -> Option<Node> {
        let mut node = self.root();
        for step in path {
            node = match (node.kind, step) {
                (Kind::Object(members), Step::Key(k)) => {
                    members.into_iter().find(|(name, _, _)| name == k)?.2
                }
                (Kind::Array(items), Step::Index(i)) => items.into_iter().nth(*i)?,
                _ => return None,
            };
        }
        Some(node)
    }

    fn splice(&mut self, start: usize, end: usize, with: &str) -> Result<(), EditError> {
        let mut text = String::with_capacity(self.text.len() + with.len());
        text.push_str(&self.text[..start]);
        text.push_str(with);
        text.push_str(&self.text[end..]);
        *self = Doc::parse(&text).map_err(|e| match e {
            EditError::Parse(e) => EditError::Broken(e),
            other => other,
        })?;
        Ok(())
    }

    fn newline(&self) -> &'static str {
        if self.text.contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        }
    }

    /// The indentation one level adds: the smallest indentation of any line
    /// (tabs if that line uses tabs), two spaces when nothing is indented.
    fn indent_unit(&self) -> String {
        let mut best: Option<&str> = None;
        for line in self.blank.split('\n').skip(1) {
            let trimmed = line.trim_start_matches([' ', '\t']);
            if trimmed.trim().is_empty() {
                continue;
            }
            let ws = &line[..line.len() - trimmed.len()];
            if ws.is_empty() {
                continue;
            }
            if ws.starts_with('\t') {
                return "\t".into();
            }
            if best.is_none_or(|b| ws.len() < b.len()) {
                best = Some(ws);
            }
        }
        best.unwrap_or("  ").to_owned()
    }

    /// The whitespace that starts the line `at` is on.
    fn line_indent(&self, at: usize) -> &str {
        let line_start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = &self.text[line_start..];
        let n = line.len() - line.trim_start_matches([' ', '\t']).len();
        &line[..n]
    }

    /// Whether only whitespace precedes `at` on its line.
    fn starts_line(&self, at: usize) -> bool {
        let line_start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        self.text[line_start..at].trim().is_empty()
    }

    /// Renders `value` for a place whose lines start with `indent`.
    fn render(&self, value: &Value, indent: &str, pretty: bool) -> String {
        if pretty {
            let unit = self.indent_unit();
            let mut buf = Vec::new();
            let formatter = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
            let mut ser = serde_json::Serializer::with_formatter(&mut buf, formatter);
            serde::Serialize::serialize(value, &mut ser).expect("JSON values serialise");
            let text = String::from_utf8(buf).expect("serde_json writes UTF-8");
            text.replace('\n', &format!("{}{indent}", self.newline()))
        } else {
            inline(value)
        }
    }

    /// Appends a member (`key` given: the container is an object) or an
    /// element to the container at `path`, in the container's own style.
    pub fn append(
        &mut self,
        path: &[Step],
        key: Option<&str>,
        value: &Value,
    ) -> Result<(), EditError> {
        let container = self.find(path).ok_or(EditError::NotFound)?;
        let open = container.start;
        let close = container.end - 1;
        let children = container.children();
        let head = key.map_or_else(String::new, |k| {
            format!("{}: ", serde_json::to_string(k).expect("strings serialise"))
        });
        let nl = self.newline();
        if let Some(&(last_start, last_end)) = children.last() {
            let multiline = self.text[open..close].contains('\n');
            let (sep, indent) = if multiline {
                let indent = if self.starts_line(last_start) {
                    self.line_indent(last_start).to_owned()
                } else {
                    format!("{}{}", self.line_indent(open), self.indent_unit())
                };
                (format!("{nl}{indent}"), indent)
            } else {
                // Inline: as the existing elements are separated.
                let sep = match children.len() {
                    1 => " ".to_owned(),
                    n => {
                        let between = &self.text[children[n - 2].1..children[n - 1].0];
                        between.trim_start().trim_start_matches(',').to_owned()
                    }
                };
                (sep, String::new())
            };
            let text = format!("{head}{}", self.render(value, &indent, multiline));
            return self.splice(last_end, last_end, &format!(",{sep}{text}"));
        }
        let interior = &self.text[open + 1..close];
        let pretty = path.is_empty() || self.text.trim_end().contains('\n');
        let base = self.line_indent(open).to_owned();
        let indent = format!("{base}{}", self.indent_unit());
        if pretty {
            let text = format!("{head}{}", self.render(value, &indent, true));
            if interior.trim().is_empty() {
                self.splice(open + 1, close, &format!("{nl}{indent}{text}{nl}{base}"))
            } else {
                // Comments inside: the entry goes after them.
                let at = open + 1 + interior.trim_end().len();
                self.splice(at, at, &format!("{nl}{indent}{text}"))
            }
        } else {
            let text = format!("{head}{}", inline(value));
            self.splice(open + 1, close, &text)
        }
    }

    /// Inserts a member first in the object at `path` (a `version` key).
    pub fn prepend(&mut self, path: &[Step], key: &str, value: &Value) -> Result<(), EditError> {
        let container = self.find(path).ok_or(EditError::NotFound)?;
        let children = container.children();
        let Some(&(first, _)) = children.first() else {
            return self.append(path, Some(key), value);
        };
        let between = self.text[container.start + 1..first].to_owned();
        let member = format!(
            "{}: {}",
            serde_json::to_string(key).expect("strings serialise"),
            inline(value)
        );
        let ws = if between.trim().is_empty() {
            between
        } else {
            " ".into()
        };
        self.splice(first, first, &format!("{member},{ws}"))
    }

    /// Replaces the value at `path` (its bytes only).
    pub fn replace(&mut self, path: &[Step], value: &Value) -> Result<(), EditError> {
        let node = self.find(path).ok_or(EditError::NotFound)?;
        let multiline = self.text[node.start..node.end].contains('\n');
        let indent = self.line_indent(node.start).to_owned();
        let text = self.render(value, &indent, multiline);
        self.splice(node.start, node.end, &text)
    }

    /// Removes the member or element at `path` with its separator, so that
    /// removing the last one [`append`](Doc::append) added gives back the
    /// bytes before it.
    pub fn remove(&mut self, path: &[Step]) -> Result<(), EditError> {
        let (last, parent_path) = path.split_last().ok_or(EditError::Root)?;
        let parent = self.find(parent_path).ok_or(EditError::NotFound)?;
        let index = match (&parent.kind, last) {
            (Kind::Object(members), Step::Key(k)) => members.iter().position(|(n, _, _)| n == k),
            (Kind::Array(items), Step::Index(i)) => (*i < items.len()).then_some(*i),
            _ => None,
        }
        .ok_or(EditError::NotFound)?;
        let children = parent.children();
        let (start, end) = children[index];
        if index > 0 {
            return self.splice(children[index - 1].1, end, "");
        }
        if children.len() > 1 {
            return self.splice(start, children[1].0, "");
        }
        let (open, close) = (parent.start + 1, parent.end - 1);
        let rest = format!("{}{}", &self.text[open..start], &self.text[end..close]);
        if rest.trim().is_empty() {
            self.splice(open, close, "")
        } else {
            // Comments stay: only the value and the whitespace before it go.
            let from = open + self.text[open..start].trim_end().len();
            self.splice(from, end, "")
        }
    }
}

/// One-line JSON with a space after `:` and `,`.
pub fn inline(value: &Value) -> String {
    match value {
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(inline).collect();
            format!("[{}]", parts.join(", "))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    format!(
                        "{}: {}",
                        serde_json::to_string(k).expect("strings serialise"),
                        inline(v)
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        other => serde_json::to_string(other).expect("JSON values serialise"),
    }
}

/// `text` with every comment's bytes replaced by spaces (line ends kept),
/// so byte offsets are the same in both.
pub fn blank_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match (b, bytes.get(i + 1)) {
            (b'"', _) => {
                in_string = true;
                i += 1;
            }
            (b'/', Some(b'/')) => {
                while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            (b'/', Some(b'*')) => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |e| i + 2 + e + 2);
                for byte in &mut out[i..end] {
                    if *byte != b'\n' && *byte != b'\r' {
                        *byte = b' ';
                    }
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes were written over whole comments: still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

fn skip_ws(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && matches!(bytes[at], b' ' | b'\t' | b'\n' | b'\r') {
        at += 1;
    }
    at
}

/// The end of the string starting at `at` (its opening quote).
fn string_end(bytes: &[u8], mut at: usize) -> usize {
    at += 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    at
}

/// Scans one value of text `serde_json` accepted; `at` ends after it.
fn parse_node(text: &str, at: &mut usize) -> Node {
    let bytes = text.as_bytes();
    let start = *at;
    match bytes.get(start) {
        Some(b'{') => {
            let mut members = Vec::new();
            *at = skip_ws(bytes, start + 1);
            while bytes.get(*at).is_some_and(|b| *b != b'}') {
                let key_start = *at;
                let key_end = string_end(bytes, key_start);
                let name: String =
                    serde_json::from_str(&text[key_start..key_end]).unwrap_or_default();
                *at = skip_ws(bytes, key_end);
                *at = skip_ws(bytes, *at + 1); // the colon
                let value = parse_node(text, at);
                members.push((name, key_start, value));
                *at = skip_ws(bytes, *at);
                if bytes.get(*at) == Some(&b',') {
                    *at = skip_ws(bytes, *at + 1);
                }
            }
            *at += 1;
            Node {
                start,
                end: *at,
                kind: Kind::Object(members),
            }
        }
        Some(b'[') => {
            let mut items = Vec::new();
            *at = skip_ws(bytes, start + 1);
            while bytes.get(*at).is_some_and(|b| *b != b']') {
                items.push(parse_node(text, at));
                *at = skip_ws(bytes, *at);
                if bytes.get(*at) == Some(&b',') {
                    *at = skip_ws(bytes, *at + 1);
                }
            }
            *at += 1;
            Node {
                start,
                end: *at,
                kind: Kind::Array(items),
            }
        }
        Some(b'"') => {
            *at = string_end(bytes, start);
            Node {
                start,
                end: *at,
                kind: Kind::Scalar,
            }
        }
        _ => {
            while *at < bytes.len()
                && !matches!(
                    bytes[*at],
                    b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'
                )
            {
                *at += 1;
            }
            Node {
                start,
                end: *at,
                kind: Kind::Scalar,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn add_and_remove(text: &str, path: &[Step], key: Option<&str>, value: &Value) -> String {
        let mut doc = Doc::parse(text).unwrap();
        doc.append(path, key, value).unwrap();
        let added = doc.text.clone();
        let mut last = path.to_vec();
        last.push(match key {
            Some(k) => Step::Key(k.to_owned()),
            None => Step::Index(doc.find(path).unwrap().children().len() - 1),
        });
        doc.remove(&last).unwrap();
        assert_eq!(doc.text, text, "after adding:\n{added}");
        added
    }

    #[test]
    fn appending_keeps_the_style_and_removing_restores_the_bytes() {
        let entry = json!({"type": "command", "command": "x"});
        // Two-space indent, final newline.
        let added = add_and_remove("{\n  \"a\": [\n    1\n  ]\n}\n", &[key("a")], None, &entry);
        assert_eq!(
            added,
            "{\n  \"a\": [\n    1,\n    {\n      \"type\": \"command\",\n      \"command\": \"x\"\n    }\n  ]\n}\n"
        );
        // Tabs, CRLF, no final newline.
        let added = add_and_remove(
            "{\r\n\t\"a\": [\r\n\t\t1\r\n\t]\r\n}",
            &[key("a")],
            None,
            &entry,
        );
        assert!(
            added.contains("1,\r\n\t\t{\r\n\t\t\t\"type\": \"command\",\r\n"),
            "{added:?}"
        );
        assert!(added.ends_with("\r\n\t]\r\n}"), "{added:?}");
        // Inline arrays stay inline.
        let added = add_and_remove("{\"a\": [1, 2]}", &[key("a")], None, &entry);
        assert_eq!(
            added,
            "{\"a\": [1, 2, {\"type\": \"command\", \"command\": \"x\"}]}"
        );
        add_and_remove("{\"a\":[1,2]}", &[key("a")], None, &json!(3));
        // Comments are kept.
        let text =
            "{\n  // mine\n  \"a\": [1], /* trailing */\n  \"b\": {\n    \"c\": 1 // c\n  }\n}\n";
        add_and_remove(text, &[key("b")], Some("d"), &json!({"e": [1]}));
        add_and_remove(text, &[], Some("z"), &json!(true));
        // Empty containers.
        let added = add_and_remove("{}", &[], Some("hooks"), &json!({}));
        assert_eq!(added, "{\n  \"hooks\": {}\n}");
        add_and_remove("{\n  \"a\": []\n}\n", &[key("a")], None, &json!(1));
        add_and_remove(
            "{\n  \"a\": [\n    // none yet\n  ]\n}\n",
            &[key("a")],
            None,
            &json!(1),
        );
    }

    #[test]
    fn prepend_replace_and_first_removal() {
        let mut doc = Doc::parse("{\n  \"hooks\": {}\n}\n").unwrap();
        doc.prepend(&[], "version", &json!(1)).unwrap();
        assert_eq!(doc.text, "{\n  \"version\": 1,\n  \"hooks\": {}\n}\n");
        doc.remove(&[key("version")]).unwrap();
        assert_eq!(doc.text, "{\n  \"hooks\": {}\n}\n");
        let mut doc = Doc::parse("{\"a\": 1, \"b\": \"x\" }").unwrap();
        doc.replace(&[key("b")], &json!("y\"z")).unwrap();
        assert_eq!(doc.text, "{\"a\": 1, \"b\": \"y\\\"z\" }");
        assert_eq!(doc.value["b"], "y\"z");
        doc.remove(&[key("a")]).unwrap();
        assert_eq!(doc.text, "{\"b\": \"y\\\"z\" }");
    }

    #[test]
    fn comments_and_strings_are_told_apart() {
        let text = "{\"u\": \"http://x/*y*/\", /* c */ \"v\": \"a\\\"//b\" // d\n}";
        let doc = Doc::parse(text).unwrap();
        assert_ne!(doc.blank, doc.text, "the text has comments");
        assert_eq!(doc.value["u"], "http://x/*y*/");
        assert_eq!(doc.value["v"], "a\"//b");
        assert_eq!(blank_comments(text).len(), text.len());
        assert!(
            Doc::parse("{\"a\": 1,}").is_err(),
            "trailing commas refused"
        );
    }

    fn value() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            any::<bool>().prop_map(Value::from),
            any::<i32>().prop_map(Value::from),
            "[a-z\"\\\\/*é ]{0,6}".prop_map(Value::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                proptest::collection::btree_map("[a-z/*]{1,4}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn styled(value: &Value, style: u8) -> String {
        let pretty = |indent: &[u8]| {
            let mut buf = Vec::new();
            let f = serde_json::ser::PrettyFormatter::with_indent(indent);
            let mut ser = serde_json::Serializer::with_formatter(&mut buf, f);
            serde::Serialize::serialize(value, &mut ser).unwrap();
            String::from_utf8(buf).unwrap()
        };
        match style % 6 {
            0 => serde_json::to_string(value).unwrap(),
            1 => inline(value),
            2 => pretty(b"  ") + "\n",
            3 => pretty(b"    "),
            4 => pretty(b"\t").replace('\n', "\r\n") + "\r\n",
            _ => format!("// head\n{}\n/* tail */", pretty(b"  ")),
        }
    }

    /// Every object or array in `value`, by path.
    fn containers(value: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        match value {
            Value::Object(map) => {
                out.push(path.clone());
                for (k, v) in map {
                    path.push(Step::Key(k.clone()));
                    containers(v, path, out);
                    path.pop();
                }
            }
            Value::Array(items) => {
                out.push(path.clone());
                for (i, v) in items.iter().enumerate() {
                    path.push(Step::Index(i));
                    containers(v, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }

    proptest::proptest! {
        #[test]
        fn append_then_remove_gives_back_the_bytes(
            root in proptest::collection::btree_map("[a-z]{1,3}", value(), 0..4),
            style in 0u8..6,
            added in value(),
        ) {
            let root = Value::Object(root.into_iter().collect());
            let text = styled(&root, style);
            let mut paths = Vec::new();
            containers(&root, &mut Vec::new(), &mut paths);
            for path in paths {
                let mut doc = Doc::parse(&text).unwrap();
                let mut expected = root.clone();
                let target = path.iter().fold(&mut expected, |v, step| match step {
                    Step::Key(k) => v.get_mut(k.as_str()).unwrap(),
                    Step::Index(i) => v.get_mut(*i).unwrap(),
                });
                let mut last = path.clone();
                match target {
                    Value::Object(map) => {
                        let name = "zz-new";
                        if map.contains_key(name) {
                            continue;
                        }
                        map.insert(name.into(), added.clone());
                        doc.append(&path, Some(name), &added).unwrap();
                        last.push(Step::Key(name.into()));
                    }
                    Value::Array(items) => {
                        items.push(added.clone());
                        doc.append(&path, None, &added).unwrap();
                        last.push(Step::Index(items.len() - 1));
                    }
                    _ => unreachable!(),
                }
                proptest::prop_assert_eq!(&doc.value, &expected, "{}", doc.text);
                doc.remove(&last).unwrap();
                proptest::prop_assert_eq!(&doc.text, &text);
            }
        }
    }
}
