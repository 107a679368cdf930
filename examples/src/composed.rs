//! An rmcp server of its own, with `#[tool_router]` tools, a prompt and a resource, that adds the
//! invoices' `#[mcp_tool]` tools without giving up its handler: one `merge` serves both.

// rmcp 3.11 marks logging deprecated (SEP-2577, a proposal); every released MCP version has it.
#![allow(deprecated)]

use mcp_tool_runtime::ToolboxServer;
use mcp_tool_runtime::server::Merged;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
    ListResourcesResult, PaginatedRequestParams, Prompt, PromptMessage, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, Role, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

/// The shop: its own rmcp tools, prompt and resource.
#[derive(Clone)]
pub struct Shop {
    tool_router: ToolRouter<Shop>,
}

impl Default for Shop {
    fn default() -> Self {
        Shop::new()
    }
}

/// The shop, serving the invoices tools beside its own.
pub fn server() -> Result<Merged<Shop>, Box<dyn std::error::Error + Send + Sync>> {
    let invoices = ToolboxServer::new(crate::invoices::toolbox()?)?;
    Ok(invoices.merge(Shop::new()))
}

/// The arguments of `opening_hours`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Day {
    /// The day, like `monday`.
    pub day: String,
}

#[tool_router]
impl Shop {
    /// The shop, with its own tools.
    pub fn new() -> Shop {
        Shop {
            tool_router: Self::tool_router(),
        }
    }

    /// When the shop is open on a day: an rmcp `#[tool]`, served beside the `#[mcp_tool]`s.
    #[tool(description = "When the shop is open on a day.")]
    fn opening_hours(&self, Parameters(Day { day }): Parameters<Day>) -> String {
        match day.as_str() {
            "saturday" | "sunday" => format!("closed on {day}"),
            _ => format!("9:00 to 17:00 on {day}"),
        }
    }
}

const PROMPT: &str = "audit_checklist";
const RESOURCE: &str = "shop://terms";

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Shop {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .enable_resources()
                .build(),
        )
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(vec![Prompt::new(
            PROMPT,
            Some("Audit the invoices, then chase the open ones"),
            None,
        )]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != PROMPT {
            return Err(ErrorData::invalid_params(
                format!("unknown prompt `{}`", request.name),
                None,
            ));
        }
        Ok(GetPromptResult::new(vec![PromptMessage::new_text(
            Role::User,
            "Audit the invoices, then send a reminder for each open one.",
        )])
        .into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(vec![Resource::new(
            RESOURCE, "terms",
        )]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != RESOURCE {
            return Err(ErrorData::resource_not_found(
                format!("no resource `{}`", request.uri),
                None,
            ));
        }
        Ok(ReadResourceResult::new(vec![ResourceContents::text(
            "Invoices are due within 30 days.",
            RESOURCE,
        )])
        .into())
    }
}
