//! The tools the official MCP conformance suite calls, declared with `#[mcp_tool]`.

use mcp_tool_runtime::{
    Content, RegistrationError, ResourceContents, Toolbox, content::EmbeddedResource, mcp_tool,
};

const RED_PIXEL: &[u8] = include_bytes!("../assets/red-pixel.png");
const BEEP: &[u8] = include_bytes!("../assets/beep.wav");

/// Returns a simple text response.
#[mcp_tool(content = blocks)]
pub fn test_simple_text() -> Vec<Content> {
    vec![Content::text("This is a simple text response for testing.")]
}

/// Returns a 1x1 red pixel as a PNG image.
#[mcp_tool(content = image, mime_type = "image/png")]
pub fn test_image_content() -> &'static [u8] {
    RED_PIXEL
}

/// Returns a short beep as WAV audio.
#[mcp_tool(content = audio, mime_type = "audio/wav")]
pub fn test_audio_content() -> &'static [u8] {
    BEEP
}

/// Returns an embedded text resource.
#[mcp_tool(content = resource)]
pub fn test_embedded_resource() -> ResourceContents {
    ResourceContents::Text {
        uri: "test://embedded-resource".into(),
        mime_type: Some("text/plain".into()),
        text: "This is an embedded resource content.".into(),
    }
}

/// Returns text, an image and an embedded resource in one result.
#[mcp_tool(content = blocks)]
pub fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Content::image(RED_PIXEL, "image/png"),
        Content::Resource(EmbeddedResource {
            resource: ResourceContents::Text {
                uri: "test://mixed-content-resource".into(),
                mime_type: Some("application/json".into()),
                text: r#"{"test":"data","value":123}"#.into(),
            },
            annotations: None,
        }),
    ]
}

/// Always fails, to test error results.
#[mcp_tool]
pub fn test_error_handling() -> Result<(), String> {
    Err("This tool intentionally returns an error for testing".into())
}

/// The conformance toolbox.
pub fn toolbox() -> Result<Toolbox, RegistrationError> {
    let mut toolbox = Toolbox::new();
    toolbox
        .register(test_simple_text::tool())?
        .register(test_image_content::tool())?
        .register(test_audio_content::tool())?
        .register(test_embedded_resource::tool())?
        .register(test_multiple_content_types::tool())?
        .register(test_error_handling::tool())?;
    Ok(toolbox)
}
