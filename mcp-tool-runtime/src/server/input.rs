//! Input-required results (MCP 2026-07-28): a tool's questions become `inputRequests`, and the
//! answers it has used so far travel in a `requestState` sealed with a TTL and bound to the call,
//! until the call completes.

use std::sync::{Mutex, RwLock};
use std::time::Duration;

use rmcp::ErrorData;
use rmcp::model::{
    InputRequest, InputRequests, InputRequiredResult, InputResponses, RequestStateCodec,
    RequestStateError, SealOptions,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::limits::DEFAULT_REQUEST_STATE_TTL;
use super::request::CallerKey;
use crate::context::{Capability, ClientRequest, ClientRequestError};
use crate::message::{describe, quote};
use crate::sync::{lock, read, write};

/// What an input-required result's `requestState` holds: the answers the tool has used so far
/// and the keys of the questions it is waiting on, sealed (HMAC) with a TTL and bound to the
/// call (see [`Binding`]), so that a changed, expired or misplaced state is refused.
#[derive(Serialize, Deserialize)]
struct SavedState {
    answers: Map<String, Value>,
    asked: Vec<String>,
}

/// What a sealed `requestState` is bound to, as associated data (authenticated, not stored): the
/// tool, a digest of its arguments, and the caller where there is one. A state answers only the
/// call that asked its questions: other arguments, another tool or another caller do not verify.
pub(crate) struct Binding([u8; 32]);

impl Binding {
    /// The binding of a call of `tool` with `arguments` by `caller` (the credential the request
    /// came with, if any). The arguments are digested as they serialize, without a copy.
    pub(crate) fn new(tool: &str, arguments: &Value, caller: Option<&CallerKey>) -> Binding {
        use sha2::Digest;
        /// Feeds serialized JSON straight into the digest.
        struct Feed<'a>(&'a mut sha2::Sha256);
        impl std::io::Write for Feed<'_> {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0.update(bytes);
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut digest = sha2::Sha256::new();
        digest.update(b"mcp-tool-runtime requestState binding v1\0");
        for part in [Some(tool.as_bytes()), caller.map(CallerKey::as_bytes)] {
            match part {
                Some(bytes) => {
                    digest.update((bytes.len() as u64).to_be_bytes());
                    digest.update(bytes);
                }
                None => digest.update(u64::MAX.to_be_bytes()),
            }
        }
        // Writing into a digest cannot fail, and a `Value` always serializes.
        let _ = serde_json::to_writer(Feed(&mut digest), arguments);
        Binding(digest.finalize().into())
    }
}

/// A state to verify or to seal for a call whose binding was not computed: never, as the call
/// computes one whenever it brings a state or its client may be asked (a bug otherwise, answered
/// as one rather than sealed unbound).
fn unbound() -> ErrorData {
    ErrorData::internal_error(
        "the call has no requestState binding: its client declared no way to be asked",
        None,
    )
}

/// The key sealing `requestState` (random per process unless servers share one), and how long a
/// sealed state may be answered.
pub(crate) struct Seal {
    codec: RwLock<RequestStateCodec>,
    ttl: RwLock<Duration>,
}

impl Default for Seal {
    fn default() -> Self {
        Seal {
            codec: RwLock::new(
                RequestStateCodec::try_new(random_key()).expect("a 64-byte key is long enough"),
            ),
            ttl: RwLock::new(DEFAULT_REQUEST_STATE_TTL),
        }
    }
}

impl Seal {
    /// Seals with `key` from now on.
    pub(crate) fn set_key(&self, key: &[u8]) -> Result<(), RequestStateError> {
        *write(&self.codec) = RequestStateCodec::try_new(key.to_vec())?;
        Ok(())
    }

    /// States sealed from now on may be answered for `ttl`.
    pub(crate) fn set_ttl(&self, ttl: Duration) {
        *write(&self.ttl) = ttl;
    }

    /// The answers a 2026-07-28 call bound by `binding` may use. With a `requestState`: those
    /// sealed in it (refused if the seal does not verify for this call or has expired), and of
    /// the `inputResponses` those answering a question the state says was asked; answers to
    /// other keys are ignored, as MCP says, and cannot replace sealed ones. Without one, the
    /// `inputResponses` as the client gave them: an answer is used only if the tool asks its key
    /// in this call (the conformance suite's `input-required-result-ignore-extra-params`). Each
    /// answer must be an object, the client's result.
    pub(crate) fn open(
        &self,
        binding: Option<&Binding>,
        input_responses: Option<InputResponses>,
        request_state: Option<String>,
    ) -> Result<Input, ErrorData> {
        let mut responses = input_responses.unwrap_or_default();
        let mut answers = match request_state {
            None => Map::new(),
            Some(state) => {
                let binding = binding.ok_or_else(unbound)?;
                let saved = self.verify(binding, &state)?;
                responses.retain(|key, _| saved.asked.contains(key));
                saved.answers
            }
        };
        for (key, answer) in responses {
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

    /// The state sealed in `state`, if it verifies for the call bound by `binding` and has not
    /// expired.
    fn verify(&self, binding: &Binding, state: &str) -> Result<SavedState, ErrorData> {
        read(&self.codec)
            .open_json_with(state, &binding.0)
            .map_err(|e| {
                let why = match e {
                    RequestStateError::Expired => format!(
                        "the `requestState` has expired (it may be answered for {:?})",
                        *read(&self.ttl)
                    ),
                    _ => "the `requestState` does not verify for this call: it was changed, or \
                          it was issued for other arguments, another tool or another caller"
                        .to_owned(),
                };
                ErrorData::invalid_params(format!("{why}; call the tool again without it"), None)
            })
    }

    /// The input-required result for a call bound by `binding` waiting on client requests.
    pub(crate) fn input_required(
        &self,
        binding: Option<&Binding>,
        input: &Input,
    ) -> Result<InputRequiredResult, ErrorData> {
        let binding = binding.ok_or_else(unbound)?;
        let pending = std::mem::take(&mut *lock(&input.pending));
        let state = SavedState {
            answers: std::mem::take(&mut *lock(&input.used)),
            asked: pending.iter().map(|(key, _)| key.clone()).collect(),
        };
        let requests: InputRequests = pending.into_iter().collect();
        let ttl = *read(&self.ttl);
        let sealed = read(&self.codec)
            .seal_json_with(
                &state,
                &SealOptions::new().associated_data(&binding.0).ttl(ttl),
            )
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Ok(InputRequiredResult::new(Some(requests), Some(sealed)))
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
    /// A capability the tool needed and the client did not declare.
    missing: Mutex<Option<Capability>>,
}

impl Input {
    /// The tool was refused a request for want of `capability`.
    pub(crate) fn not_supported(&self, capability: Capability) {
        lock(&self.missing).get_or_insert(capability);
    }

    /// The capability the tool needed and the client did not declare, if any.
    pub(crate) fn missing(&self) -> Option<Capability> {
        *lock(&self.missing)
    }

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

pub(crate) fn input_request(request: ClientRequest) -> Result<InputRequest, serde_json::Error> {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Binding, CallerKey};

    #[test]
    fn a_binding_changes_with_the_tool_the_arguments_and_the_caller() {
        let args = json!({"invoice": "INV-1"});
        let of = |tool: &str, args: &serde_json::Value, caller: Option<&[u8]>| {
            let caller = caller.map(CallerKey::from_bytes);
            Binding::new(tool, args, caller.as_ref()).0
        };
        let base = of("remind", &args, None);
        assert_eq!(base, of("remind", &json!({"invoice": "INV-1"}), None));
        let others = [
            of("remind", &json!({"invoice": "INV-3"}), None),
            of("remind", &json!({}), None),
            of("remind", &json!(null), None),
            of("other", &args, None),
            of("remind", &args, Some(b"Bearer alice")),
            of("remind", &args, Some(b"")),
            // The tool's name and the caller are length-prefixed: no two splits collide.
            of("remin", &args, Some(b"d")),
        ];
        for (i, other) in others.iter().enumerate() {
            assert_ne!(&base, other, "{i}");
        }
        assert_ne!(others[4], of("remind", &args, Some(b"Bearer bob")));
    }
}
