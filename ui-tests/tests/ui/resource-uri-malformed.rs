use mcp_tool_runtime::mcp_resource;

/// An invoice.
#[mcp_resource(uri = "invoices://{number")]
fn invoice(number: String) -> String {
    number
}

/// A file.
#[mcp_resource(uri = "file:///{?path}")]
fn file(path: String) -> String {
    path
}

/// A note, without a scheme.
#[mcp_resource(uri = "notes/{id}")]
fn note(id: String) -> String {
    id
}

fn main() {
    let mut toolbox = mcp_tool_runtime::Toolbox::new();
    let _ = toolbox.register_resource(invoice::resource());
    let _ = toolbox.register_resource(file::resource());
    let _ = toolbox.register_resource(note::resource());
}
