use mcp_tool_runtime::mcp_tool;

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Point {
    x: i64,
}

// Not an HTTP header name.
#[mcp_tool]
fn spaced(#[arg(header = "Cloud Region")] region: String) -> u8 {
    let _ = region;
    1
}

// No name at all.
#[mcp_tool]
fn unnamed(#[arg(header = "")] region: String) -> u8 {
    let _ = region;
    1
}

// The same header twice, as HTTP compares names: ignoring case.
#[mcp_tool]
fn twice(#[arg(header = "Region")] a: String, #[arg(header = "region")] b: String) -> u8 {
    let _ = (a, b);
    1
}

// A number that is not an integer.
#[mcp_tool]
fn float(#[arg(header = "Ratio")] ratio: f64) -> u8 {
    let _ = ratio;
    1
}

// A structured value.
#[mcp_tool]
fn structured(#[arg(header = "Point")] point: Point) -> u8 {
    let _ = point.x;
    1
}

// Optional: its schema admits `null`, which clients refuse on a header argument.
#[mcp_tool]
fn optional(#[arg(header = "Region")] region: Option<String>) -> u8 {
    let _ = region;
    1
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register(spaced::tool());
    let _ = toolbox.register(unnamed::tool());
    let _ = toolbox.register(twice::tool());
    let _ = toolbox.register(float::tool());
    let _ = toolbox.register(structured::tool());
    let _ = toolbox.register(optional::tool());
}
