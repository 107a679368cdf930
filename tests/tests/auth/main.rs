//! The OAuth resource server in front of Streamable HTTP: tokens verified against a real JWKS
//! on loopback, the spec's 401 and 403 challenges, per-tool scopes, the caller in the tool.

mod caller;
mod fixtures;
mod keys;
mod scopes;
mod sessions;
mod shares;
mod telemetry;
mod tokens;
