//! What registration refuses for prompts and resources, each with the reason, and mounting
//! another toolbox's prompts (renamed) and resources (URIs untouched), all or none.

use mcp_tool_runtime::prompt::{PromptArgument, PromptDeclaration, PromptGet, PromptResult};
use mcp_tool_runtime::resource::{
    IntoContents, Resource, ResourceDeclaration, ResourceRead, TemplateVariable,
};
use mcp_tool_runtime::{
    BoxFuture, ProtocolError, RegistrationError, ResourceContents, Toolbox, mcp_prompt,
    mcp_resource,
};

use super::fixtures::{Ledger, hours, invoice, reply};

/// A resource declared by hand, at any URI, with any variables.
struct ByHand(ResourceDeclaration);

impl Resource for ByHand {
    fn declaration(&self) -> ResourceDeclaration {
        self.0.clone()
    }
    fn read<'a>(
        &'a self,
        read: ResourceRead<'a>,
    ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ProtocolError>> {
        Box::pin(async move { "by hand".into_contents(read.uri, None) })
    }
}

fn at(uri: &'static str, variables: &[&'static str]) -> ByHand {
    let mut declaration = ResourceDeclaration::new(uri, "by-hand");
    for variable in variables {
        declaration = declaration.variable(TemplateVariable::new(*variable));
    }
    ByHand(declaration)
}

fn refusal(result: Result<&mut Toolbox, RegistrationError>) -> String {
    match result {
        Ok(_) => panic!("registered"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn two_templates_that_match_one_uri_are_refused_and_distinct_ones_kept() {
    let mut toolbox = Toolbox::new();
    toolbox
        .register_resource(at("x://{a}/data", &["a"]))
        .unwrap();
    toolbox
        .register_resource(at("x://{a}/meta", &["a"]))
        .unwrap();
    let refused = refusal(toolbox.register_resource(at("x://item-{b}/data", &["b"])));
    assert!(
        refused.contains("resource `x://item-{b}/data` cannot be registered")
            && refused.contains("`x://{a}/data`"),
        "{refused}"
    );
    let refused = refusal(toolbox.register_resource(at("x://{+rest}", &["rest"])));
    assert!(refused.contains("some URIs match both"), "{refused}");
    assert_eq!(toolbox.list_resource_templates().len(), 2);
}

#[test]
fn a_malformed_uri_or_variables_unlike_the_resources_are_refused() {
    let mut toolbox = Toolbox::new();
    let refused = refusal(toolbox.register_resource(at("no scheme", &[])));
    assert!(
        refused.contains("does not start with a scheme"),
        "{refused}"
    );
    let refused = refusal(toolbox.register_resource(at("x://{a}/{b}", &["a"])));
    assert!(
        refused.contains("its template's variables are {a, b}, but the resource reads {a}"),
        "{refused}"
    );
    let refused = refusal(toolbox.register_resource(at("x://plain", &["a"])));
    assert!(refused.contains("variables are {}"), "{refused}");
    assert!(toolbox.list_resources().is_empty());
}

#[test]
fn a_uri_or_prompt_name_taken_is_refused() {
    let mut toolbox = Toolbox::new();
    toolbox.register_resource(hours::resource()).unwrap();
    let refused = refusal(toolbox.register_resource(at("shop://hours", &[])));
    assert!(refused.contains("already registered"), "{refused}");
    toolbox.register_prompt(reply::prompt()).unwrap();
    let refused = refusal(toolbox.register_prompt(reply::prompt()));
    assert!(
        refused.contains(
            "prompt `reply` cannot be registered: a prompt of this name is already registered"
        ),
        "{refused}"
    );
}

#[test]
fn a_hand_written_prompt_with_a_bad_name_or_an_argument_twice_is_refused() {
    struct Twice(&'static str);
    impl mcp_tool_runtime::prompt::Prompt for Twice {
        fn declaration(&self) -> PromptDeclaration {
            PromptDeclaration::new(self.0)
                .argument(PromptArgument::new("a"))
                .argument(PromptArgument::new("a"))
        }
        fn get<'a>(
            &'a self,
            _: PromptGet<'a>,
        ) -> BoxFuture<'a, Result<PromptResult, ProtocolError>> {
            Box::pin(async { Ok(PromptResult::default()) })
        }
    }
    let mut toolbox = Toolbox::new();
    let refused = refusal(toolbox.register_prompt(Twice("twice")));
    assert!(
        refused.contains("declares the argument `a` twice"),
        "{refused}"
    );
    let refused = refusal(toolbox.register_prompt(Twice("has space")));
    assert!(refused.contains("its name is invalid"), "{refused}");
}

#[test]
fn a_resource_needing_state_the_toolbox_lacks_is_refused() {
    let mut toolbox = Toolbox::new();
    let error = toolbox.register_resource(invoice::resource()).unwrap_err();
    assert!(matches!(
        &error,
        RegistrationError::NeedsState { item, type_name }
            if item == "resource `invoices://{number}`" && type_name.ends_with("Ledger")
    ));
    toolbox.insert_state(Ledger(Vec::new()));
    toolbox.register_resource(invoice::resource()).unwrap();
}

/// The billing team's prompt.
#[mcp_prompt]
fn summarize(number: String) -> String {
    format!("Summarize invoice {number}.")
}

/// The billing team's terms.
#[mcp_resource(uri = "billing://terms")]
fn terms() -> &'static str {
    "Net 30."
}

#[tokio::test]
async fn mounting_renames_prompts_keeps_uris_and_refuses_a_uri_taken() {
    let mut billing = Toolbox::new();
    billing
        .register_prompt(summarize::prompt())
        .unwrap()
        .register_resource(terms::resource())
        .unwrap();
    let mut server = Toolbox::new();
    server.mount("billing", &billing).unwrap();
    assert_eq!(server.list_prompts()[0].name, "billing_summarize");
    assert_eq!(server.list_resources()[0].uri, "billing://terms");
    let got = server
        .get_prompt("billing_summarize", serde_json::json!({"number": "7"}))
        .await
        .unwrap();
    assert_eq!(
        got.messages[0].content.as_text(),
        Some("Summarize invoice 7.")
    );
    let read = server.read_resource("billing://terms").await.unwrap();
    assert_eq!(read, [ResourceContents::text("billing://terms", "Net 30.")]);

    // Mounted again under another prefix, the prompt is new but the URI is taken: nothing is
    // mounted.
    let error = server.mount("accounts", &billing).unwrap_err();
    assert!(error.to_string().contains("billing://terms"), "{error}");
    let names: Vec<&str> = server.list_prompts().iter().map(|p| &*p.name).collect();
    assert_eq!(names, ["billing_summarize"], "unchanged");
}
