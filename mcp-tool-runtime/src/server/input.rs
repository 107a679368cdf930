//! Input-required results (MCP 2026-07-28): a tool's questions become `inputRequests`, and the
//! answers it has used so far travel in a sealed `requestState` until the call completes.

use std::sync::{Mutex, RwLock};

use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, InputRequest, InputRequests, InputRequiredResult, InputResponses,
    RequestStateCodec, RequestStateError,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::context::{Capability, ClientRequest, ClientRequestError};
use crate::message::{describe, quote};
use crate::sync::{lock, read, write};

/// What an input-required result's `requestState` holds: the tool it is for and the answers the
/// tool has used so far, sealed (HMAC) so that a changed state is refused.
#[derive(Serialize, Deserialize)]
struct SavedState {
    tool: String,
    answers: Map<String, Value>,
}

/// The key sealing `requestState`: random per process unless servers share one.
pub(crate) struct Seal(RwLock<RequestStateCodec>);

impl Default for Seal {
    fn default() -> Self {
        Seal(RwLock::new(
            RequestStateCodec::try_new(random_key()).expect("a 64-byte key is long enough"),
        ))
    }
}

impl Seal {
    /// Seals with `key` from now on.
    pub(crate) fn set_key(&self, key: &[u8]) -> Result<(), RequestStateError> {
        *write(&self.0) = RequestStateCodec::try_new(key.to_vec())?;
        Ok(())
    }

    /// The answers a 2026-07-28 call of tool `name` may use: those sealed in its `requestState`
    /// (refused if the seal does not hold or is for another tool) and its `inputResponses` (each
    /// an object, the client's result).
    pub(crate) fn open(
        &self,
        name: &str,
        input_responses: Option<InputResponses>,
        request_state: Option<String>,
    ) -> Result<Input, ErrorData> {
        let mut answers = Map::new();
        if let Some(state) = request_state {
            let saved: SavedState = read(&self.0).open_json(&state).map_err(|e| {
                ErrorData::invalid_params(
                    format!("the `requestState` failed its integrity check ({e}); call the tool again without it"),
                    None,
                )
            })?;
            if saved.tool != name {
                return Err(ErrorData::invalid_params(
                    format!(
                        "the `requestState` is for tool `{}`, not `{name}`",
                        quote(&saved.tool)
                    ),
                    None,
                ));
            }
            answers = saved.answers;
        }
        for (key, answer) in input_responses.unwrap_or_default() {
            if !answer.is_object() {
                return Err(ErrorData::invalid_params(
                    format!(
                        "`inputResponses.{}` must be the client's result, an object; got {}",
                        quote(&key),
                        describe(&answer)
                    ),
                    None,
                ));
            }
            answers.insert(key, answer);
        }
        Ok(Input {
            answers,
            ..Input::default()
        })
    }

    /// The input-required result for a call of tool `name` waiting on client requests.
    pub(crate) fn input_required(
        &self,
        name: &str,
        input: &Input,
    ) -> Result<CallToolResponse, ErrorData> {
        let requests: InputRequests = std::mem::take(&mut *lock(&input.pending))
            .into_iter()
            .collect();
        let state = SavedState {
            tool: name.to_owned(),
            answers: std::mem::take(&mut *lock(&input.used)),
        };
        let sealed = read(&self.0)
            .seal_json(&state)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(InputRequiredResult::new(Some(requests), Some(sealed)).into())
    }
}

/// One 2026-07-28 call's questions and answers.
#[derive(Default)]
pub(crate) struct Input {
    /// The answers this call may use: the sealed state's and the client's `inputResponses`.
    answers: Map<String, Value>,
    /// The answers the tool used, which go into the next `requestState`.
    used: Mutex<Map<String, Value>>,
    /// The requests the tool is waiting on.
    pending: Mutex<Vec<(String, InputRequest)>>,
    /// Woken when the tool waits on a request.
    pub(crate) waiting: tokio::sync::Notify,
}

impl Input {
    /// The tool asks `request` under `key`: the answer if the client gave one, else the request
    /// joins the input-required result and the answer never comes in this round (the server
    /// answers with the result and drops the tool's future; the tool runs again when the client
    /// comes back with the answer).
    pub(crate) async fn ask(
        &self,
        key: String,
        request: ClientRequest,
    ) -> Result<Value, ClientRequestError> {
        if let Some(answer) = self.answers.get(&key) {
            lock(&self.used).insert(key, answer.clone());
            return Ok(answer.clone());
        }
        let request = input_request(request).map_err(invalid_request)?;
        lock(&self.pending).push((key, request));
        self.waiting.notify_one();
        std::future::pending().await
    }
}

fn input_request(request: ClientRequest) -> Result<InputRequest, serde_json::Error> {
    let ClientRequest { capability, params } = request;
    let wire = serde_json::json!({"method": capability.method(), "params": params});
    Ok(match capability {
        Capability::Elicitation => InputRequest::Elicitation(serde_json::from_value(wire)?),
        Capability::Sampling => InputRequest::CreateMessage(serde_json::from_value(wire)?),
        Capability::Roots => InputRequest::ListRoots(serde_json::from_value(wire)?),
    })
}

/// A request MCP's model refuses (an elicitation schema that is not a flat object of
/// primitives, in practice): the tool gets the error, nothing is sent.
pub(crate) fn invalid_request(e: impl std::fmt::Display) -> ClientRequestError {
    ClientRequestError::InvalidSchema(format!("MCP's model (rmcp's) refuses the request: {e}"))
}

/// 64 bytes no one outside this process can guess: SipHash outputs under std's per-process
/// random keys (seeded from the operating system), mixed with the time and the process id.
fn random_key() -> Vec<u8> {
    use std::hash::{BuildHasher, Hasher};
    let mut key = Vec::with_capacity(64);
    for i in 0..8_u64 {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(i);
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        hasher.write_u32(std::process::id());
        key.extend_from_slice(&hasher.finish().to_le_bytes());
    }
    key
}
