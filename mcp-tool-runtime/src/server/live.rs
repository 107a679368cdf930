//! The call context's channel to a client served through rmcp: progress and log lines go to the
//! client's peer; client requests too (protocol 2025-x) or into an input-required result
//! (2026-07-28).

use std::sync::{Arc, Mutex};

use futures_util::future::BoxFuture;
use rmcp::RoleServer;
use rmcp::model::{LoggingMessageNotificationParam, ProgressNotificationParam};
use rmcp::service::RequestContext;
use serde_json::{Map, Value};

use super::input::{Input, invalid_request};
use super::quota::{Holder, count, session_of};
use super::request::Request;
use super::request::verified_caller;
use super::shared::Shared;
use crate::context::{
    Capability, Channel, ClientRequest, ClientRequestError, LogLevel, RequestInfo,
};
use crate::sync::lock;

pub(crate) struct Live {
    /// The request's context. Its `_meta` has been moved into `request`: a call keeps one copy.
    context: RequestContext<RoleServer>,
    /// What the request says, read once where it entered.
    request: Request,
    /// The server's: the session's log level, the limits on client requests.
    shared: Arc<Shared>,
    /// `Some` at 2026-07-28: client requests are answered from here or become `inputRequests`.
    input: Option<Arc<Input>>,
    /// The request's `_meta`, until the tool first reads the request.
    meta: Mutex<Option<Map<String, Value>>>,
}

impl Live {
    /// The channel for a call of `context`, which says what `request` read of it.
    pub(crate) fn new(
        context: RequestContext<RoleServer>,
        mut request: Request,
        shared: Arc<Shared>,
        input: Option<Arc<Input>>,
    ) -> Live {
        let meta = std::mem::take(&mut request.meta);
        Live {
            context,
            request,
            shared,
            input,
            meta: Mutex::new(Some(meta)),
        }
    }

    /// Sends a client request on the session (protocol 2025-x) and waits for the answer, within
    /// the server's limits on waiting client requests and on how long they wait.
    async fn send(&self, request: ClientRequest) -> Result<Value, ClientRequestError> {
        let limits = self.shared.limits();
        let holder = Holder::of(
            verified_caller(&self.context).as_deref(),
            session_of(&self.context.peer).is_some(),
        );
        let _slot = self
            .shared
            .quotas
            .acquire_client_request(&self.context.peer, holder.as_ref(), &limits)
            .map_err(|(limit, max)| ClientRequestError::TooMany { limit, max })?;
        let timeout = limits.client_request_timeout;
        match tokio::time::timeout(timeout, self.ask(request)).await {
            Ok(answer) => answer,
            Err(_) => {
                count(&self.shared.quotas.refused.client_requests_timed_out);
                Err(ClientRequestError::TimedOut(timeout))
            }
        }
    }

    async fn ask(&self, request: ClientRequest) -> Result<Value, ClientRequestError> {
        let peer = &self.context.peer;
        let answer = match request.capability {
            Capability::Elicitation => {
                let params = serde_json::from_value(request.params).map_err(invalid_request)?;
                serde_json::to_value(peer.create_elicitation(params).await.map_err(failed)?)
            }
            Capability::Sampling => {
                let params = serde_json::from_value(request.params).map_err(invalid_request)?;
                let answer = peer.create_message(params).await.map_err(failed)?;
                serde_json::to_value(answer)
            }
            Capability::Roots => serde_json::to_value(peer.list_roots().await.map_err(failed)?),
        };
        answer.map_err(|e| ClientRequestError::InvalidResponse(e.to_string()))
    }
}

fn failed(e: impl std::fmt::Display) -> ClientRequestError {
    ClientRequestError::Failed(e.to_string())
}

impl Channel for Live {
    fn protocol_version(&self) -> Option<&str> {
        self.request.protocol_version()
    }

    fn request_info(&self) -> RequestInfo {
        // Read once (the context caches it): the `_meta` moves to the tool.
        self.request
            .info(lock(&self.meta).take().unwrap_or_default())
    }

    fn progress(
        &self,
        token: Value,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> BoxFuture<'_, ()> {
        let params = serde_json::from_value::<ProgressNotificationParam>(
            serde_json::json!({"progressToken": token, "progress": progress, "total": total, "message": message}),
        );
        Box::pin(async move {
            // A notification that cannot be sent (the client left) loses nothing the tool needs.
            if let Ok(params) = params {
                let _ = self.context.peer.notify_progress(params).await;
            }
        })
    }

    /// The request's own `io.modelcontextprotocol/logLevel` (2026-07-28), else the session's
    /// `logging/setLevel`.
    fn min_level(&self) -> Option<LogLevel> {
        self.request
            .log_level
            .or_else(|| self.shared.log_levels.get(&self.context.peer))
    }

    /// At 2026-07-28 (a call with input), only a request that names a level wants log lines.
    fn wants_logs(&self) -> bool {
        self.input.is_none() || self.request.log_level.is_some()
    }

    /// At 2026-07-28 the call remembers it: if the tool then fails, the answer is `-32021`.
    fn not_supported(&self, capability: Capability) {
        if let Some(input) = &self.input {
            input.not_supported(capability);
        }
    }

    fn log(&self, level: LogLevel, data: Value) -> BoxFuture<'_, ()> {
        let params = serde_json::from_value::<LoggingMessageNotificationParam>(
            serde_json::json!({"level": level, "data": data}),
        );
        Box::pin(async move {
            if let Ok(params) = params {
                let _ = self.context.peer.notify_logging_message(params).await;
            }
        })
    }

    fn request(
        &self,
        key: String,
        request: ClientRequest,
    ) -> BoxFuture<'_, Result<Value, ClientRequestError>> {
        match &self.input {
            Some(input) => Box::pin(input.ask(key, request)),
            None => Box::pin(self.send(request)),
        }
    }

    fn is_cancelled(&self) -> bool {
        self.context.ct.is_cancelled()
    }

    fn cancelled(&self) -> BoxFuture<'_, ()> {
        Box::pin(self.context.ct.cancelled())
    }
}
