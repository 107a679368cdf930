//! How messages quote what a client sent or a tool returned: bounded, so an error never echoes
//! an unbounded input back (a 10 MB string given for a `u32` is quoted as its first ~120
//! characters and a marker).

use std::borrow::Cow;

use serde_json::Value;

/// The most characters of any input or value a message quotes.
pub(crate) const MAX_QUOTED: usize = 120;

/// Names a JSON value for a message: its type and its text, cut to [`MAX_QUOTED`] bytes.
pub(crate) fn describe(value: &Value) -> String {
    let kind = match value {
        Value::Null => "null",
        Value::Bool(_) => "a bool",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    format!("{kind} `{}`", compact(value))
}

/// `text` cut to at most [`MAX_QUOTED`] bytes on a char boundary, with a marker saying how much
/// was left out.
pub(crate) fn quote(text: &str) -> Cow<'_, str> {
    truncate(text, MAX_QUOTED)
}

/// `text` cut to at most `max` bytes on a char boundary, with a marker when cut.
pub(crate) fn truncate(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!(
        "{}… ({} more bytes)",
        &text[..end],
        text.len() - end
    ))
}

/// The compact JSON of `value`, written only as far as a message can quote it (a huge value
/// costs no more than a small one), cut like [`truncate`].
fn compact(value: &Value) -> String {
    struct Bounded {
        kept: Vec<u8>,
        total: usize,
    }
    impl std::io::Write for Bounded {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            // A few bytes past the limit, so the cut can fall on a char boundary.
            let room = (MAX_QUOTED + 4).saturating_sub(self.kept.len());
            self.kept.extend_from_slice(&bytes[..bytes.len().min(room)]);
            self.total += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut out = Bounded {
        kept: Vec::new(),
        total: 0,
    };
    // Writing a `Value` into a sink that never fails cannot fail.
    let _ = serde_json::to_writer(&mut out, value);
    let kept = String::from_utf8_lossy(&out.kept);
    if out.total <= MAX_QUOTED {
        return kept.into_owned();
    }
    let mut end = MAX_QUOTED;
    while !kept.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} more bytes)", &kept[..end], out.total - end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_cut_on_a_char_boundary() {
        let long = "é".repeat(1000);
        let quoted = quote(&long);
        assert!(quoted.len() < MAX_QUOTED + 40, "{quoted}");
        assert!(quoted.ends_with("(1880 more bytes)"), "{quoted}");
        let described = describe(&Value::String("x".repeat(10_000_000)));
        assert!(described.len() < 200, "{described}");
        assert!(described.ends_with("more bytes)`"), "{described}");
    }

    #[test]
    fn short_values_are_quoted_whole() {
        assert_eq!(describe(&serde_json::json!([1, 2])), "an array `[1,2]`");
        assert_eq!(quote("abc"), "abc");
    }
}
