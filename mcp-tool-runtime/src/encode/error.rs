//! [`EncodeError`]: what the encoder refuses, and the JSON path where.

use std::fmt::{self, Display};

use serde::ser;
use serde_json::Value;

/// Why a payload could not be encoded as JSON.
///
/// ```
/// use mcp_tool_runtime::{encode_json, encode::EncodeError};
///
/// let err = encode_json(&[1.0, f64::INFINITY]).unwrap_err();
/// assert!(matches!(err, EncodeError::NonFiniteFloat { .. }));
/// assert_eq!(err.path(), "$[1]");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// A float that JSON cannot represent (`NaN`, `inf`, `-inf`).
    #[error(
        "the value at `{path}` is {value}, which JSON cannot represent; replace it with a finite number or make the field an Option"
    )]
    NonFiniteFloat {
        /// Where the value sits, as a JSON path (`$.rows[3].ratio`).
        path: String,
        /// The float as Rust prints it (`NaN`, `inf`, `-inf`).
        value: String,
    },
    /// Arrays and objects nested deeper than [`MAX_DEPTH`](crate::encode::MAX_DEPTH).
    #[error(
        "the value at `{path}` nests arrays and objects deeper than {limit} levels; flatten the payload"
    )]
    TooDeep {
        /// The path of the first value past the limit.
        path: String,
        /// The limit, [`MAX_DEPTH`](crate::encode::MAX_DEPTH).
        limit: usize,
    },
    /// A map key that JSON cannot spell as a string (a struct, a sequence, a float, ...).
    #[error(
        "the map key at `{path}` is {found}; JSON object keys must be strings, integers, bools, chars or unit enum variants"
    )]
    UnsupportedKey {
        /// The path of the map holding the key.
        path: String,
        /// What the key was.
        found: &'static str,
    },
    /// An integer wider than JSON numbers carry here (i128/u128 outside the 64-bit range).
    #[error(
        "the integer at `{path}` ({value}) is outside the 64-bit range JSON numbers carry here; send it as a string"
    )]
    IntegerOutOfRange {
        /// Where the integer sits.
        path: String,
        /// The integer.
        value: String,
    },
    /// The payload's own `Serialize` impl failed.
    #[error("the value at `{path}` could not be serialized: {message}")]
    Custom {
        /// Where the failure happened.
        path: String,
        /// The message the `Serialize` impl gave.
        message: String,
    },
}

impl EncodeError {
    fn path_mut(&mut self) -> &mut String {
        match self {
            EncodeError::NonFiniteFloat { path, .. }
            | EncodeError::TooDeep { path, .. }
            | EncodeError::UnsupportedKey { path, .. }
            | EncodeError::IntegerOutOfRange { path, .. }
            | EncodeError::Custom { path, .. } => path,
        }
    }

    /// The JSON path (`$.rows[3].ratio`) of the value that could not be encoded.
    pub fn path(&self) -> &str {
        match self {
            EncodeError::NonFiniteFloat { path, .. }
            | EncodeError::TooDeep { path, .. }
            | EncodeError::UnsupportedKey { path, .. }
            | EncodeError::IntegerOutOfRange { path, .. }
            | EncodeError::Custom { path, .. } => path,
        }
    }

    /// Paths are built while the error travels back up, so the happy path pays nothing for them.
    pub(super) fn within(mut self, segment: Segment<'_>) -> Self {
        let path = self.path_mut();
        let rest = path.strip_prefix('$').unwrap_or(path).to_owned();
        *path = format!("${segment}{rest}");
        self
    }
}

/// One step of a JSON path: `[3]`, `.name`, or `["odd key"]`.
pub(crate) enum Segment<'a> {
    Index(usize),
    Key(&'a str),
}

impl Display for Segment<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Segment::Index(i) => write!(f, "[{i}]"),
            Segment::Key(k) if is_identifier(k) => write!(f, ".{k}"),
            Segment::Key(k) => write!(f, "[{}]", Value::String((*k).to_owned())),
        }
    }
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl ser::Error for EncodeError {
    fn custom<T: Display>(msg: T) -> Self {
        EncodeError::Custom {
            path: "$".to_owned(),
            message: msg.to_string(),
        }
    }
}
