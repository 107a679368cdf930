//! The result self-check (feature `self-check`): a structured result is validated against the
//! tool's own advertised `outputSchema` before it is sent.

use std::sync::{Arc, OnceLock};

use serde_json::Value;

use crate::options::ResultOptions;
use crate::result::ToolResult;
use crate::schema::SchemaObject;

/// The most problems a self-check error lists.
const MAX_LISTED_PROBLEMS: usize = 8;

/// A tool's advertised `outputSchema` and its validator, compiled once: at registration when the
/// self-check is on then, else at the first checked call. Empty for a tool that advertises none.
#[derive(Clone, Default)]
pub(crate) struct ToolCheck(Option<Arc<Compiled>>);

struct Compiled {
    schema: SchemaObject,
    validator: OnceLock<Result<jsonschema::Validator, String>>,
}

impl Compiled {
    fn validator(&self) -> &Result<jsonschema::Validator, String> {
        self.validator
            .get_or_init(|| crate::conform::compile(&Value::Object((*self.schema).clone())))
    }
}

impl ToolCheck {
    /// The check of a tool advertising `schema`; its validator compiled now if `on`.
    pub(crate) fn new(schema: Option<&SchemaObject>, on: bool) -> Self {
        let check = ToolCheck(schema.map(|schema| {
            Arc::new(Compiled {
                schema: schema.clone(),
                validator: OnceLock::new(),
            })
        }));
        if on && let Some(compiled) = &check.0 {
            compiled.validator();
        }
        check
    }

    /// `result`, or, if it is structured and does not conform, an error naming every problem
    /// (up to a few). Does nothing unless `on`.
    pub(crate) fn check(
        &self,
        on: bool,
        options: &ResultOptions,
        result: ToolResult,
    ) -> ToolResult {
        if !on || result.is_error {
            return result;
        }
        let (Some(compiled), Some(structured)) = (&self.0, &result.structured_content) else {
            return result;
        };
        let name = &options.tool_name;
        let validator = match compiled.validator() {
            Ok(validator) => validator,
            Err(e) => {
                return options.error(format!(
                    "the `outputSchema` of tool `{name}` is not a valid JSON Schema: {e}"
                ));
            }
        };
        let problems = crate::conform::problems(validator, structured);
        if problems.is_empty() {
            return result;
        }
        let more = problems.len().saturating_sub(MAX_LISTED_PROBLEMS);
        let mut listed = problems[..problems.len() - more].join("\n");
        if more > 0 {
            listed.push_str(&format!("\n... and {more} more"));
        }
        options.error(format!(
            "tool `{name}` returned a result that does not conform to its advertised \
             `outputSchema`, so it was not sent:\n{listed}"
        ))
    }
}
