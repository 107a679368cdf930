//! Escalation: a call of a tool declared `escalates` runs as an ordinary call (its questions
//! asked with input-required results) until its body calls `ctx.escalate()`; there the call is
//! answered with a task, and the body goes on as that task.

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use serde_json::Value;
use tokio::sync::{Notify, watch};

use super::channel::InTask;
use super::settle::{Outcome, settle};
use crate::context::{
    Capability, Channel, ClientRequest, ClientRequestError, LogLevel, RequestInfo, ToolContext,
};

/// One escalating call: whether its body asked to become a task, and the task once it is one.
#[derive(Clone)]
pub(crate) struct Escalation(Arc<State>);

struct State {
    requested: Notify,
    /// The task, with its TTL and result bound, once the call became one.
    adopted: watch::Sender<Option<(InTask, Duration, usize)>>,
}

impl Escalation {
    pub(crate) fn new() -> Self {
        Escalation(Arc::new(State {
            requested: Notify::new(),
            adopted: watch::channel(None).0,
        }))
    }

    /// Completes when the body asks to become a task.
    pub(crate) async fn requested(&self) {
        self.0.requested.notified().await;
    }

    /// The call is now the task `channel` is for: the body's `escalate()` returns.
    pub(super) fn adopt(&self, channel: InTask, ttl: Duration, max_result_bytes: usize) {
        self.0
            .adopted
            .send_replace(Some((channel, ttl, max_result_bytes)));
    }

    fn task(&self) -> Option<InTask> {
        self.0
            .adopted
            .borrow()
            .as_ref()
            .map(|(task, ..)| task.clone())
    }

    /// The context of the call: its channel reaches the client until the call is a task, then
    /// the task.
    pub(crate) fn context(&self, live: impl Channel + 'static) -> ToolContext {
        ToolContext::new(Escalating {
            live,
            escalation: self.clone(),
        })
    }

    /// Runs the tool's `call` to its end: sends its outcome to `answer` if it ends as an ordinary
    /// call, or, once the call became a task, writes the end to the task.
    pub(crate) async fn run(
        self,
        call: impl Future<Output = Outcome>,
        tool_context: ToolContext,
        answer: tokio::sync::oneshot::Sender<Outcome>,
    ) {
        let mut call = std::pin::pin!(call);
        let mut adopted = self.0.adopted.subscribe();
        let adopted = async move {
            // Owned before the select's output is built: a borrow of the channel is not `Send`.
            adopted.wait_for(Option::is_some).await.ok()?.clone()
        };
        tokio::select! {
            biased;
            outcome = &mut call => {
                // It may have ended in the same turn it was adopted in: then it is the task's.
                let adopted_now = self.0.adopted.borrow().clone();
                match adopted_now {
                    Some((task, ttl, max_result_bytes)) => {
                        let outcome = std::future::ready(outcome);
                        settle(task, tool_context, outcome, ttl, max_result_bytes).await;
                    }
                    None => {
                        let _ = answer.send(outcome);
                    }
                }
            }
            Some((task, ttl, max_result_bytes)) = adopted => {
                settle(task, tool_context, call, ttl, max_result_bytes).await;
            }
        }
    }
}

/// The channel of an escalating call, around the live call's channel (held in place: the
/// context is one allocation with both in it).
struct Escalating<C> {
    live: C,
    escalation: Escalation,
}

/// Calls `method` on the task once the call is one, else on the live call.
macro_rules! route {
    ($self:ident, $method:ident($($arg:expr),*)) => {
        match $self.escalation.task() {
            Some(task) => Channel::$method(&task, $($arg),*),
            None => $self.live.$method($($arg),*),
        }
    };
}

impl<C: Channel> Channel for Escalating<C> {
    fn request_info(&self) -> RequestInfo {
        self.live.request_info()
    }
    fn protocol_version(&self) -> Option<&str> {
        self.live.protocol_version()
    }
    fn progress(
        &self,
        token: Value,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) -> BoxFuture<'_, ()> {
        match self.escalation.task() {
            Some(task) => Box::pin(async move {
                task.progress(token, progress, total, message).await;
            }),
            None => self.live.progress(token, progress, total, message),
        }
    }
    fn min_level(&self) -> Option<LogLevel> {
        route!(self, min_level())
    }
    fn wants_logs(&self) -> bool {
        route!(self, wants_logs())
    }
    fn reports_progress_without_token(&self) -> bool {
        route!(self, reports_progress_without_token())
    }
    fn panicked(&self, message: &str) {
        route!(self, panicked(message))
    }
    fn not_supported(&self, capability: Capability) {
        route!(self, not_supported(capability))
    }
    fn log(&self, level: LogLevel, data: Value) -> BoxFuture<'_, ()> {
        match self.escalation.task() {
            Some(task) => Box::pin(async move { task.log(level, data).await }),
            None => self.live.log(level, data),
        }
    }
    fn request(
        &self,
        key: String,
        request: ClientRequest,
    ) -> BoxFuture<'_, Result<Value, ClientRequestError>> {
        match self.escalation.task() {
            Some(task) => Box::pin(async move { task.request(key, request).await }),
            None => self.live.request(key, request),
        }
    }
    fn is_cancelled(&self) -> bool {
        route!(self, is_cancelled())
    }
    fn cancelled(&self) -> BoxFuture<'_, ()> {
        match self.escalation.task() {
            Some(task) => Box::pin(async move { task.cancelled_signal().await }),
            None => self.live.cancelled(),
        }
    }
    fn escalate(&self) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            if self.escalation.task().is_some() {
                return;
            }
            self.escalation.0.requested.notify_one();
            let mut adopted = self.escalation.0.adopted.subscribe();
            // The server answers the call with the task, then this returns; refused (a
            // limit), the call is stopped and this never returns.
            let _ = adopted.wait_for(Option::is_some).await;
        })
    }
}
