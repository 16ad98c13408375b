//! A tool call named by what it does, for matching the before-tool and
//! after-tool fires of one call when the host sends no call id.

/// A key for a tool call: the tool's name and its input with object keys
/// in a fixed order (the same input sent in another order is the same call).
pub fn call_key(tool: &str, input: Option<&serde_json::Value>) -> String {
    let mut text = String::from(tool);
    text.push('\0');
    if let Some(input) = input {
        canonical(input, &mut text);
    }
    text
}

fn canonical(value: &serde_json::Value, out: &mut String) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for key in keys {
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical(&map[key], out);
                out.push(',');
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}
