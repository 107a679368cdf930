//! What a [`ToolboxServer`](crate::ToolboxServer) declares, decided once from the toolbox it is
//! made with: tools, logging and tasks always; prompts, resources and completions, and the MCP
//! Apps extension, when the toolbox has them.

use rmcp::model::ServerCapabilities;

use crate::toolbox::Toolbox;

/// What a `ToolboxServer` declares: tools (and that their list changes), logging and tasks;
/// prompts, resources (subscriptions and list changes) and completions when the toolbox it is
/// made with has them.
pub(crate) fn declared(toolbox: &Toolbox) -> ServerCapabilities {
    let mut capabilities = ServerCapabilities::builder()
        .enable_tools()
        .enable_tool_list_changed()
        .enable_logging()
        .enable_tasks()
        .build();
    let (prompts, resources) = (toolbox.has_prompts(), toolbox.has_resources());
    let both = ServerCapabilities::builder()
        .enable_prompts()
        .enable_prompts_list_changed()
        .enable_resources()
        .enable_resources_list_changed()
        .enable_resources_subscribe()
        .enable_completions()
        .build();
    if prompts {
        capabilities.prompts = both.prompts;
    }
    if resources {
        capabilities.resources = both.resources;
    }
    if prompts || resources {
        capabilities.completions = both.completions;
    }
    // MCP Apps: declared as 2026-07-28 declares extensions (and read so by hosts of every
    // version), with the view MIME type it serves.
    if toolbox.has_views() {
        let mut apps = serde_json::Map::new();
        apps.insert(
            "mimeTypes".to_owned(),
            serde_json::json!([crate::apps::VIEW_MIME_TYPE]),
        );
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .insert(crate::apps::EXTENSION_ID.to_owned(), apps);
    }
    capabilities
}
