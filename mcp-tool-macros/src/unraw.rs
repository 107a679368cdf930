//! Identifiers as names: `r#type` is `type`, stripped in this one place.

use syn::Ident;

/// An identifier as a name: `r#type` is `type`.
pub fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}
