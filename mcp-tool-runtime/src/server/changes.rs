//! Telling clients that the tools, prompts or resources changed, or that a resource they
//! subscribed to was updated: a 2025 client on its session (`resources/subscribe`), a
//! 2026-07-28 client on each `subscriptions/listen` stream that asked for it.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{ServerCapabilities, SubscriptionFilter};
use rmcp::service::{Peer, SubscriptionSink};
use rmcp::{ErrorData, RoleServer};

use super::convert::ServeError;
use super::quota::{Counters, StreamSlot, count, session_of};
use crate::sync::lock;

/// Which lists changed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Lists {
    pub(crate) tools: bool,
    pub(crate) prompts: bool,
    pub(crate) resources: bool,
}

/// How many changes of the tools, prompts and resources lists there have been.
type Generations = [u64; 3];

/// What one `subscriptions/listen` stream asked for, and was accepted.
#[derive(Debug, Clone, Default)]
pub(crate) struct Wants {
    pub(crate) lists: Lists,
    /// The resources whose updates it hears.
    pub(crate) resources: HashSet<String>,
}

impl Wants {
    pub(crate) fn of(accepted: &SubscriptionFilter) -> Self {
        Wants {
            lists: Lists {
                tools: accepted.tools_list_changed == Some(true),
                prompts: accepted.prompts_list_changed == Some(true),
                resources: accepted.resources_list_changed == Some(true),
            },
            resources: accepted
                .resource_subscriptions
                .iter()
                .flatten()
                .cloned()
                .collect(),
        }
    }

    fn any(&self) -> bool {
        self.lists != Lists::default() || !self.resources.is_empty()
    }
}

/// A 2025 session's peer and the resources it subscribed to.
type Subscribed = (Peer<RoleServer>, HashSet<String>);

/// How many resource updates a `subscriptions/listen` stream may fall behind by before it
/// misses some (it is never waited for).
const UPDATES_BUFFERED: usize = 256;

/// Who to tell when the tools change: the sessions of 2025 clients, and the
/// `subscriptions/listen` streams of 2026-07-28 clients (which wait on `generation`).
pub(crate) struct Changes {
    /// The 2025 sessions, each by its identity (`quota::session_of`: the address of the client
    /// information rmcp keeps for it, alive as long as the peer held here).
    peers: Mutex<Vec<(usize, Peer<RoleServer>)>>,
    /// The resources each 2025 session subscribed to (`resources/subscribe`).
    subscriptions: Mutex<super::quota::BySession<Subscribed>>,
    /// How many changes of each list there have been.
    generation: tokio::sync::watch::Sender<Generations>,
    /// Resource updates, for the `subscriptions/listen` streams.
    updates: tokio::sync::broadcast::Sender<Arc<str>>,
    subscribing: Subscribing,
}

impl Default for Changes {
    fn default() -> Self {
        Changes {
            peers: Mutex::default(),
            subscriptions: Mutex::default(),
            generation: tokio::sync::watch::Sender::new([0; 3]),
            updates: tokio::sync::broadcast::Sender::new(UPDATES_BUFFERED),
            subscribing: Subscribing::default(),
        }
    }
}

/// The tools' generation when each `subscriptions/listen` request now being acknowledged was
/// accepted. rmcp writes the acknowledgment before it calls `listen`, so a client may already
/// have made a change by then; `listen` announces a change made since the generation
/// [`started`](Self::started) gives.
#[derive(Default)]
struct Subscribing(Mutex<Vec<Generations>>);

impl Subscribing {
    fn accepted(&self, generation: Generations) {
        lock(&self.0).push(generation);
    }

    /// For a `listen` starting: a generation no later than the one its own request was accepted
    /// at. `listen` cannot tell which entry is its own, so it reads the oldest (generations only
    /// grow) and removes the newest, and every request still pending keeps one no later than its
    /// own. A request whose acknowledgment could not be sent never reaches `listen`: its entry
    /// stays, and later streams may get one needless notice (a client re-lists, nothing is lost).
    fn started(&self) -> Option<Generations> {
        let mut pending = lock(&self.0);
        let oldest = pending.first().copied();
        pending.pop();
        oldest
    }
}

/// Why [`ToolboxServer::update`](crate::ToolboxServer::update) changed nothing.
///
/// ```
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// use mcp_tool_runtime::server::UpdateError;
/// use mcp_tool_runtime::{Toolbox, ToolboxServer};
///
/// let server = ToolboxServer::new(Toolbox::new()).unwrap();
/// let refused = server.update(|_| Err("not now")).await;
/// assert!(matches!(refused, Err(UpdateError::Change("not now"))));
/// # });
/// ```
#[derive(Debug, thiserror::Error)]
pub enum UpdateError<E> {
    /// The change itself failed.
    #[error("the change failed: {0}")]
    Change(E),
    /// A tool's entry rmcp's model refuses.
    #[error(transparent)]
    Serve(ServeError),
}

impl Changes {
    /// Tells every client that the tools changed: each at once, so that none waits on another.
    /// A client that does not accept the notice within `timeout` (it stopped reading) is
    /// forgotten, counted in `refused`; it sees the new list at its next `tools/list`.
    pub(crate) async fn announce(&self, lists: Lists, timeout: Duration, refused: &Counters) {
        self.generation.send_modify(|generation| {
            for (count, changed) in
                generation
                    .iter_mut()
                    .zip([lists.tools, lists.prompts, lists.resources])
            {
                *count += u64::from(changed);
            }
        });
        let peers: Vec<_> = lock(&self.peers).clone();
        let told = futures_util::future::join_all(peers.iter().map(|(_, peer)| async move {
            tokio::time::timeout(timeout, async {
                if lists.tools {
                    peer.notify_tool_list_changed().await?;
                }
                if lists.prompts {
                    peer.notify_prompt_list_changed().await?;
                }
                if lists.resources {
                    peer.notify_resource_list_changed().await?;
                }
                Ok::<_, rmcp::service::ServiceError>(())
            })
            .await
            .is_ok_and(|sent| sent.is_ok())
        }))
        .await;
        let dropped: Vec<usize> = peers
            .iter()
            .zip(told)
            .filter(|(_, told)| !told)
            .map(|((session, _), _)| *session)
            .collect();
        for _ in &dropped {
            count(&refused.notices_dropped);
        }
        lock(&self.peers)
            .retain(|(session, peer)| !peer.is_transport_closed() && !dropped.contains(session));
    }

    /// The 2025 session of `peer` subscribes to `uri`, within `max` subscriptions; whether it
    /// may (a session subscribed to `max` others is refused).
    pub(crate) fn subscribe(&self, peer: &Peer<RoleServer>, uri: &str, max: usize) -> bool {
        let Some(session) = session_of(peer) else {
            return false;
        };
        let mut subscriptions = lock(&self.subscriptions);
        subscriptions.retain(|_, (peer, _)| !peer.is_transport_closed());
        let (_, uris) = subscriptions
            .entry(session)
            .or_insert_with(|| (peer.clone(), HashSet::new()));
        if uris.contains(uri) {
            return true;
        }
        if uris.len() >= max {
            return false;
        }
        uris.insert(uri.to_owned());
        true
    }

    /// The 2025 session of `peer` unsubscribes from `uri`.
    pub(crate) fn unsubscribe(&self, peer: &Peer<RoleServer>, uri: &str) {
        let Some(session) = session_of(peer) else {
            return;
        };
        let mut subscriptions = lock(&self.subscriptions);
        if let Some((_, uris)) = subscriptions.get_mut(&session) {
            uris.remove(uri);
            if uris.is_empty() {
                subscriptions.remove(&session);
            }
        }
    }

    /// Tells every client subscribed to `uri` that it was updated: 2025 sessions that
    /// subscribed, each at once, within `timeout` (one that does not accept it is counted in
    /// `refused`); 2026-07-28 streams that asked for it.
    pub(crate) async fn resource_updated(&self, uri: &str, timeout: Duration, refused: &Counters) {
        // No stream listening is no error.
        let _ = self.updates.send(Arc::from(uri));
        let peers: Vec<Peer<RoleServer>> = {
            let mut subscriptions = lock(&self.subscriptions);
            subscriptions.retain(|_, (peer, _)| !peer.is_transport_closed());
            subscriptions
                .values()
                .filter(|(_, uris)| uris.contains(uri))
                .map(|(peer, _)| peer.clone())
                .collect()
        };
        let told = futures_util::future::join_all(peers.iter().map(|peer| async move {
            let params = rmcp::model::ResourceUpdatedNotificationParam::new(uri);
            tokio::time::timeout(timeout, peer.notify_resource_updated(params))
                .await
                .is_ok_and(|sent| sent.is_ok())
        }))
        .await;
        for _ in told.iter().filter(|told| !**told) {
            count(&refused.notices_dropped);
        }
    }

    /// A 2025 session is ready: it is told of changes from now on. A session is listed once,
    /// however often its client repeats `notifications/initialized`.
    pub(crate) fn initialized(&self, peer: Peer<RoleServer>) {
        let Some(session) = session_of(&peer) else {
            return;
        };
        let mut peers = lock(&self.peers);
        peers.retain(|(_, peer)| !peer.is_transport_closed());
        if peers.iter().all(|(known, _)| *known != session) {
            peers.push((session, peer));
        }
    }

    /// Of what a `subscriptions/listen` request asks for, what a server with `capabilities`
    /// accepts (the list changes and resource subscriptions it declares).
    pub(crate) fn accept(
        &self,
        requested: &SubscriptionFilter,
        capabilities: &ServerCapabilities,
    ) -> SubscriptionFilter {
        self.subscribing.accepted(*self.generation.borrow());
        requested.supported_by(capabilities)
    }

    /// Sends `notifications/tools/list_changed` on a `subscriptions/listen` stream's `sink`
    /// after every change, if the stream `wants` them, until `cancelled` (the client cancels the
    /// subscription) or the stream closes; the stream is held against the server's limit by
    /// what `hold` gives, or refused with its error.
    pub(crate) async fn listen(
        &self,
        wants: &Wants,
        sink: &SubscriptionSink,
        cancelled: impl Future<Output = ()>,
        hold: impl FnOnce() -> Result<StreamSlot, ErrorData>,
    ) -> Result<(), ErrorData> {
        let mut generation = self.generation.subscribe();
        let mut updates = self.updates.subscribe();
        // A change between the acknowledgment and now is announced like a later one.
        let mut seen = *generation.borrow();
        if let Some(at) = self.subscribing.started()
            && at != seen
        {
            seen = at;
            generation.mark_changed();
        }
        // Past the server's limit, the stream ends at once with the error.
        let _slot = hold()?;
        if !wants.any() {
            cancelled.await;
            return Ok(());
        }
        let mut cancelled = std::pin::pin!(cancelled);
        loop {
            tokio::select! {
                biased;
                () = &mut cancelled => return Ok(()),
                changed = generation.changed() => {
                    // The sender lives as long as the server; a stream that can no longer be
                    // written to is over.
                    if changed.is_err() {
                        return Ok(());
                    }
                    let now = *generation.borrow_and_update();
                    let before = std::mem::replace(&mut seen, now);
                    let changed = |kind: usize| now[kind] != before[kind];
                    let sent = async {
                        if wants.lists.tools && changed(0) {
                            sink.notify_tool_list_changed().await?;
                        }
                        if wants.lists.prompts && changed(1) {
                            sink.notify_prompt_list_changed().await?;
                        }
                        if wants.lists.resources && changed(2) {
                            sink.notify_resource_list_changed().await?;
                        }
                        Ok::<_, rmcp::service::SubscriptionSendError>(())
                    };
                    if sent.await.is_err() {
                        return Ok(());
                    }
                }
                update = updates.recv() => match update {
                    Ok(uri) if wants.resources.contains(&*uri) => {
                        if sink.notify_resource_updated(&*uri).await.is_err() {
                            return Ok(());
                        }
                    }
                    Ok(_) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return Ok(()),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Subscribing;

    /// Every order of three subscriptions (each accepted, then started) and two changes: each
    /// `listen` gets a generation no later than its own request's, so no change made after an
    /// acknowledgment goes unannounced, and nothing is left pending.
    #[test]
    fn every_listen_gets_a_generation_no_later_than_its_own() {
        #[derive(Clone, Copy)]
        enum Step {
            Accept(usize),
            Start(usize),
            Change,
        }
        fn orders(
            accepted: [bool; 3],
            started: [bool; 3],
            changes: u8,
            steps: &mut Vec<Step>,
            out: &mut Vec<Vec<Step>>,
        ) {
            if accepted.iter().all(|&a| a) && started.iter().all(|&s| s) && changes == 0 {
                out.push(steps.clone());
                return;
            }
            let mut next = |step: Step, accepted: [bool; 3], started: [bool; 3], changes: u8| {
                steps.push(step);
                orders(accepted, started, changes, steps, out);
                steps.pop();
            };
            for i in 0..3 {
                if !accepted[i] {
                    let mut a = accepted;
                    a[i] = true;
                    next(Step::Accept(i), a, started, changes);
                } else if !started[i] {
                    let mut s = started;
                    s[i] = true;
                    next(Step::Start(i), accepted, s, changes);
                }
            }
            if changes > 0 {
                next(Step::Change, accepted, started, changes - 1);
            }
        }
        let mut all = Vec::new();
        orders([false; 3], [false; 3], 2, &mut Vec::new(), &mut all);
        assert_eq!(
            all.len(),
            40_320 / (2 * 2 * 2 * 2),
            "8! orders of the steps, over 2 for each subscription's fixed pair and 2! for the changes"
        );
        for order in all {
            let subscribing = Subscribing::default();
            let mut generation = 0;
            let mut own = [0; 3];
            for step in &order {
                match *step {
                    Step::Accept(i) => {
                        own[i] = generation;
                        subscribing.accepted([generation; 3]);
                    }
                    Step::Start(i) => {
                        let given = subscribing.started().expect("its own request is pending")[0];
                        assert!(
                            given <= own[i],
                            "listen {i} was given {given}, accepted at {}",
                            own[i]
                        );
                    }
                    Step::Change => generation += 1,
                }
            }
            assert_eq!(subscribing.started(), None, "left pending");
        }
    }
}
