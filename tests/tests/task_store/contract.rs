//! What every [`TaskStore`] must do, whatever keeps the tasks.

use std::time::Duration;

use mcp_tool_runtime::rmcp::model::{DetailedTask, Task, TaskPayload, TaskStatus};
use mcp_tool_runtime::server::tasks::{
    StoreError, StoredTask, TaskBounds, TaskMessage, TaskMessageKind,
};
use serde_json::json;

use crate::{Stores, for_each_store};

for_each_store!(
    a_task_created_is_read_back_as_it_was,
    a_task_is_forgotten_at_its_expiry_and_its_place_freed,
    a_save_changes_a_running_task_but_never_one_that_ended,
    the_bounds_count_every_task_kept_and_each_owners,
    messages_reach_their_replica_once_in_order,
    a_wait_for_messages_ends_when_one_is_sent,
    a_replica_lives_while_its_lease_runs,
);

const LOOSE: TaskBounds = TaskBounds::new(1000, 1000);

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}

fn task(id: &str, owner: Option<&str>, lives: Duration) -> StoredTask {
    let base = Task::new(
        id,
        TaskStatus::Working,
        "2026-12-01T00:00:00Z",
        "2026-12-01T00:00:00Z",
    )
    .with_ttl_ms(lives.as_millis() as u64);
    StoredTask::new(
        DetailedTask::new(base, TaskPayload::Working),
        owner.map(str::to_owned),
        "replica-a",
        now_ms() + lives.as_millis() as u64,
    )
}

fn with(mut task: StoredTask, payload: TaskPayload) -> StoredTask {
    task.task = DetailedTask::new(task.task.task.clone(), payload);
    task
}

async fn a_task_created_is_read_back_as_it_was(stores: Stores) {
    let store = stores.open().await;
    let created = task("t1", Some("alice"), Duration::from_secs(60));
    store.create(&created, LOOSE).await.unwrap();
    assert_eq!(store.load("t1").await.unwrap(), Some(created));
    assert_eq!(store.load("t2").await.unwrap(), None);
    // Another connection (another replica) reads the same task.
    let other = stores.open().await;
    assert_eq!(other.load("t1").await.unwrap().unwrap().id(), "t1");
}

async fn a_task_is_forgotten_at_its_expiry_and_its_place_freed(stores: Stores) {
    let store = stores.open().await;
    let bounds = TaskBounds::new(1, 1);
    store
        .create(
            &task("short", Some("alice"), Duration::from_millis(300)),
            bounds,
        )
        .await
        .unwrap();
    assert!(store.load("short").await.unwrap().is_some());
    let refused = store
        .create(
            &task("next", Some("alice"), Duration::from_secs(60)),
            bounds,
        )
        .await;
    assert!(matches!(refused, Err(StoreError::Full(1))), "{refused:?}");
    tokio::time::sleep(Duration::from_millis(450)).await;
    assert_eq!(store.load("short").await.unwrap(), None);
    store
        .create(
            &task("next", Some("alice"), Duration::from_secs(60)),
            bounds,
        )
        .await
        .unwrap();
}

async fn a_save_changes_a_running_task_but_never_one_that_ended(stores: Stores) {
    let store = stores.open().await;
    let running = task("t1", None, Duration::from_secs(60));
    store.create(&running, LOOSE).await.unwrap();
    let mut messaged = running.clone();
    messaged.task.task.status_message = Some("halfway".to_owned());
    assert!(store.save(&messaged).await.unwrap());
    assert_eq!(store.load("t1").await.unwrap(), Some(messaged.clone()));
    // Another replica fails it (its runner's lease lapsed)...
    let failed = with(
        messaged.clone(),
        TaskPayload::Failed {
            error: json!({"code": -32603, "message": "replica gone"})
                .as_object()
                .unwrap()
                .clone(),
        },
    );
    assert!(stores.open().await.save(&failed).await.unwrap());
    // ...and the runner's late result is not written: the task is answered once.
    let completed = with(
        messaged,
        TaskPayload::Completed {
            result: json!({"content": []}).as_object().unwrap().clone(),
        },
    );
    assert!(!store.save(&completed).await.unwrap());
    assert_eq!(store.load("t1").await.unwrap(), Some(failed));
    // A task that is gone is not brought back.
    assert!(
        !store
            .save(&task("never", None, Duration::from_secs(60)))
            .await
            .unwrap()
    );
    assert_eq!(store.load("never").await.unwrap(), None);
}

async fn the_bounds_count_every_task_kept_and_each_owners(stores: Stores) {
    let store = stores.open().await;
    let bounds = TaskBounds::new(4, 2);
    let long = Duration::from_secs(60);
    store
        .create(&task("a1", Some("alice"), long), bounds)
        .await
        .unwrap();
    // A task that ended still counts while it is readable.
    let ended = with(task("a2", Some("alice"), long), TaskPayload::Cancelled);
    store.create(&ended, bounds).await.unwrap();
    let refused = store.create(&task("a3", Some("alice"), long), bounds).await;
    assert!(
        matches!(refused, Err(StoreError::OwnerFull(2))),
        "{refused:?}"
    );
    store
        .create(&task("b1", Some("bob"), long), bounds)
        .await
        .unwrap();
    // Tasks without an owner are bounded by the store's limit only.
    store.create(&task("n1", None, long), bounds).await.unwrap();
    let refused = store.create(&task("n2", None, long), bounds).await;
    assert!(matches!(refused, Err(StoreError::Full(4))), "{refused:?}");
    assert_eq!(store.load("a3").await.unwrap(), None);
}

fn message(task: &str, n: u64) -> TaskMessage {
    TaskMessage::new(
        task,
        TaskMessageKind::Answers(json!({ "n": n }).as_object().unwrap().clone()),
    )
}

async fn messages_reach_their_replica_once_in_order(stores: Stores) {
    let sender = stores.open().await;
    let receiver = stores.open().await;
    for n in 0..3 {
        sender.send("replica-a", &message("t1", n)).await.unwrap();
    }
    let cancel = TaskMessage::new("t2", TaskMessageKind::Cancel);
    sender.send("replica-b", &cancel).await.unwrap();
    let received = receiver
        .receive("replica-a", Duration::from_secs(1))
        .await
        .unwrap();
    assert_eq!(
        received,
        (0..3).map(|n| message("t1", n)).collect::<Vec<_>>()
    );
    assert_eq!(
        receiver
            .receive("replica-b", Duration::from_secs(1))
            .await
            .unwrap(),
        vec![cancel]
    );
    // Received once: nothing is left.
    let started = std::time::Instant::now();
    let again = receiver
        .receive("replica-a", Duration::from_millis(300))
        .await
        .unwrap();
    assert!(again.is_empty(), "{again:?}");
    assert!(started.elapsed() >= Duration::from_millis(250));
}

async fn a_wait_for_messages_ends_when_one_is_sent(stores: Stores) {
    let receiver = stores.open().await;
    let sender = stores.open().await;
    let send = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        sender.send("replica-a", &message("t1", 7)).await.unwrap();
    };
    let started = std::time::Instant::now();
    let (received, ()) = tokio::join!(receiver.receive("replica-a", Duration::from_secs(4)), send);
    assert_eq!(received.unwrap(), vec![message("t1", 7)]);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "the wait ran on for {:?} after the message came",
        started.elapsed()
    );
}

async fn a_replica_lives_while_its_lease_runs(stores: Stores) {
    let store = stores.open().await;
    let other = stores.open().await;
    assert!(!other.alive("replica-a").await.unwrap());
    store
        .renew("replica-a", Duration::from_millis(400))
        .await
        .unwrap();
    assert!(other.alive("replica-a").await.unwrap());
    assert!(!other.alive("replica-b").await.unwrap());
    tokio::time::sleep(Duration::from_millis(550)).await;
    assert!(!other.alive("replica-a").await.unwrap());
}
