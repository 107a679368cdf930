//! Which protocol revision a request speaks, for what changed at 2026-07-28 (input-required
//! results, `tools/list` caching hints, per-request log levels).

use rmcp::RoleServer;
use rmcp::model::ProtocolVersion;
use rmcp::service::RequestContext;

/// Whether the request was made at protocol 2026-07-28 or later.
pub(crate) fn is_2026_07_28(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}
