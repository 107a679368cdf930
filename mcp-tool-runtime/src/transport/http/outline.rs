//! The outline of a POST body that the guard acts on (its method, id and the tool it calls):
//! skimmed, or counted within the element budget, or read whole when a skim cannot be trusted;
//! or the JSON-RPC reply refusing the body.

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, JsonRpcMessage};
use rmcp::service::TxJsonRpcMessage;

use crate::transport::budget::{self, Outline, outline};
use crate::transport::reply::{parse, refusal};

/// The outline of `body` (skimmed, or counted within `max_elements`), or the reply refusing it.
/// A message whose outline cannot be trusted (a key it reads came twice) is read whole, as rmcp
/// will read it. A notification that cannot be read is owed no reply: rmcp answers it. With the
/// reply, whether it refuses the message for its element budget (rather than as unreadable).
pub(super) fn outline_or_reply(
    body: &[u8],
    max_elements: usize,
) -> Result<Outline, (Box<TxJsonRpcMessage<RoleServer>>, bool)> {
    match outline(body, max_elements) {
        Err(unread) => unread_outline(body, unread, max_elements),
        Ok(outline) if outline.repeated => match parse(body) {
            Ok(message) => Ok(outline_of(&message)),
            Err(reply) => reply.map_or(Ok(Outline::default()), |reply| Err((reply, false))),
        },
        Ok(outline) => Ok(outline),
    }
}

/// A body its element budget's pass could not read: the reply it is owed, with whether the pass
/// refused it for the budget (rather than as unreadable); or, owed none (a notification), an
/// empty outline, and rmcp answers it.
pub(super) fn unread_outline(
    body: &[u8],
    unread: budget::Refused,
    max_elements: usize,
) -> Result<Outline, (Box<TxJsonRpcMessage<RoleServer>>, bool)> {
    let over_budget = matches!(unread, budget::Refused::OverBudget);
    match refusal(body, unread, max_elements) {
        Some(reply) => Err((reply, over_budget)),
        None => Ok(Outline::default()),
    }
}

/// The outline of a message rmcp's model holds.
fn outline_of(message: &ClientJsonRpcMessage) -> Outline {
    let JsonRpcMessage::Request(request) = message else {
        return Outline::default();
    };
    let (method, name) = match &request.request {
        ClientRequest::InitializeRequest(_) => ("initialize".to_owned(), None),
        ClientRequest::CallToolRequest(call) => {
            ("tools/call".to_owned(), Some(call.params.name.to_string()))
        }
        ClientRequest::CustomRequest(custom) => (
            custom.method.clone(),
            custom
                .params
                .as_ref()
                .and_then(|p| p.get("name"))
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned),
        ),
        _ => (String::new(), None),
    };
    Outline {
        method: Some(method),
        id: Some(request.id.clone()),
        name,
        repeated: false,
    }
}
