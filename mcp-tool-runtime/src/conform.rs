//! Whether a `structuredContent` conforms to an `outputSchema`, with the `jsonschema` crate
//! (JSON Schema 2020-12 unless the schema names another `$schema`, formats checked): the one
//! check behind both the `testing` helpers and the toolbox's result self-check.

use jsonschema::Validator;
use jsonschema::error::{TypeKind, ValidationErrorKind};
use serde_json::Value;

use crate::encode::Segment;
use crate::message::describe;

/// A validator for `schema`, formats checked.
pub(crate) fn compile(schema: &Value) -> Result<Validator, String> {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// Every way `instance` fails `validator`, one line each (`$.items[3].amount: advertised type
/// `number`; got a string `"12.50"``), sorted by path; empty when it conforms.
pub(crate) fn problems(validator: &Validator, instance: &Value) -> Vec<String> {
    let mut problems: Vec<(String, String)> = validator
        .iter_errors(instance)
        .map(|error| {
            let path = json_path(error.instance_path().as_str());
            let advertised = match error.kind() {
                ValidationErrorKind::Type {
                    kind: TypeKind::Single(t),
                } => format!("type `{t}`"),
                ValidationErrorKind::Type {
                    kind: TypeKind::Multiple(ts),
                } => format!("one of the types {ts:?}"),
                ValidationErrorKind::Format { format } => format!("format `{format}`"),
                ValidationErrorKind::Required { property } => {
                    format!("required property {property}")
                }
                _ => error.masked().to_string(),
            };
            let line = format!(
                "{path}: advertised {advertised}; got {}",
                describe(error.instance())
            );
            (path, line)
        })
        .collect();
    problems.sort();
    problems.dedup();
    problems.into_iter().map(|(_, line)| line).collect()
}

/// `/items/3/amount` as `$.items[3].amount`, spelled as `encode_json`'s errors spell paths.
pub(crate) fn json_path(pointer: &str) -> String {
    let mut path = String::from("$");
    for raw in pointer.split('/').skip(1) {
        let segment = raw.replace("~1", "/").replace("~0", "~");
        let step = match segment.parse::<usize>() {
            Ok(index) if index.to_string() == segment => Segment::Index(index),
            _ => Segment::Key(&segment),
        };
        path.push_str(&step.to_string());
    }
    path
}
