//! [`Deadlines`]: the timer [`serve`](super::serve) gives hyper for its connections' header
//! deadlines, whose sleeps one ticking task ends instead of tokio's timer.
//!
//! hyper arms a new sleep for every request head it waits for. Registered in tokio's timer, a
//! sleep due before anything else the timer holds wakes the thread parked on it, to shorten its
//! park: on a keep-alive connection that was one more cross-thread wake-up per request (1.6 more
//! `write`s to the runtime's eventfd per request under `strace -f`, 19.7 system calls per call
//! in all against 9.1 without; without strace, a few percent more context switches, CPU per
//! request within the noise). Here a sleep is an entry in
//! a map: one lock to arm and one to disarm, and the ticking task ends the sleeps that are due
//! every `tick`, so a deadline ends within `tick` after it is due, never before. Like
//! actix-web's low-resolution timer, for deadlines of seconds where a fraction of one does not
//! matter.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use crate::sync::lock;

/// A hyper timer whose sleeps end within a tick after their deadline; see the module.
#[derive(Clone)]
pub(crate) struct Deadlines {
    shared: Arc<Shared>,
}

struct Shared {
    waiting: Mutex<Waiting>,
    /// Wakes the ticking task when a sleep is armed while it rests (no sleep to end).
    armed: Notify,
}

#[derive(Default)]
struct Waiting {
    /// The sleeps armed, by deadline, then the order they were armed in.
    sleeps: BTreeMap<(Instant, u64), Waker>,
    next: u64,
    /// The ticking task found nothing to wait for and waits on `armed`.
    resting: bool,
}

impl Deadlines {
    /// The timer, and the task that ends its sleeps every `tick`: it runs until dropped.
    pub(crate) fn new(tick: Duration) -> (Deadlines, impl Future<Output = ()> + Send + 'static) {
        let shared = Arc::new(Shared {
            waiting: Mutex::new(Waiting::default()),
            armed: Notify::new(),
        });
        let ticking = Arc::clone(&shared);
        let ticks = async move {
            loop {
                tokio::time::sleep(tick).await;
                let (due, resting) = {
                    let mut waiting = lock(&ticking.waiting);
                    let later = waiting
                        .sleeps
                        .split_off(&(Instant::now() + Duration::from_nanos(1), 0));
                    let due = std::mem::replace(&mut waiting.sleeps, later);
                    waiting.resting = waiting.sleeps.is_empty();
                    (due, waiting.resting)
                };
                due.into_values().for_each(Waker::wake);
                if resting {
                    ticking.armed.notified().await;
                }
            }
        };
        (Deadlines { shared }, ticks)
    }

    /// How many sleeps are armed (for tests).
    #[cfg(test)]
    fn armed(&self) -> usize {
        lock(&self.shared.waiting).sleeps.len()
    }
}

impl hyper::rt::Timer for Deadlines {
    fn sleep(&self, duration: Duration) -> Pin<Box<dyn hyper::rt::Sleep>> {
        self.sleep_until(Instant::now() + duration)
    }

    fn sleep_until(&self, deadline: Instant) -> Pin<Box<dyn hyper::rt::Sleep>> {
        Box::pin(Deadline {
            deadline,
            armed: None,
            shared: Arc::clone(&self.shared),
        })
    }
}

/// A sleep of [`Deadlines`]: armed when first polled before its deadline, disarmed when it ends
/// or is dropped.
struct Deadline {
    deadline: Instant,
    /// Its key among the sleeps, once armed.
    armed: Option<u64>,
    shared: Arc<Shared>,
}

impl Future for Deadline {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if Instant::now() >= self.deadline {
            self.disarm();
            return Poll::Ready(());
        }
        let deadline = self.deadline;
        let mut waiting = lock(&self.shared.waiting);
        let id = match self.armed {
            Some(id) => id,
            None => {
                let id = waiting.next;
                waiting.next += 1;
                id
            }
        };
        // Armed again if the ticking task took it, due between the clock's reading above and
        // this lock: it then ends at the next tick.
        match waiting.sleeps.get_mut(&(deadline, id)) {
            Some(waker) => waker.clone_from(cx.waker()),
            None => {
                waiting.sleeps.insert((deadline, id), cx.waker().clone());
            }
        }
        let wake_ticker = std::mem::take(&mut waiting.resting);
        drop(waiting);
        self.armed = Some(id);
        if wake_ticker {
            self.shared.armed.notify_one();
        }
        Poll::Pending
    }
}

impl Deadline {
    fn disarm(&mut self) {
        if let Some(id) = self.armed.take() {
            lock(&self.shared.waiting)
                .sleeps
                .remove(&(self.deadline, id));
        }
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        self.disarm();
    }
}

impl hyper::rt::Sleep for Deadline {}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use hyper::rt::Timer;

    use super::Deadlines;

    const TICK: Duration = Duration::from_millis(20);
    /// A busy machine's moment: the other tests run beside these.
    const SLACK: Duration = Duration::from_secs(1);

    /// A timer ticking every [`TICK`], on the test's runtime (which ends its task with it).
    fn ticking() -> Deadlines {
        let (timer, ticks) = Deadlines::new(TICK);
        tokio::spawn(ticks);
        timer
    }

    /// Waits for `sleep`, failing the test if it never ends.
    async fn ended(sleep: std::pin::Pin<Box<dyn hyper::rt::Sleep>>) {
        tokio::time::timeout(Duration::from_secs(10), sleep)
            .await
            .expect("the sleep ended");
    }

    #[tokio::test]
    async fn a_sleep_ends_after_its_deadline_within_a_tick_and_leaves_nothing_armed() {
        let timer = ticking();
        for wait in [
            Duration::ZERO,
            Duration::from_millis(50),
            Duration::from_millis(130),
        ] {
            let started = Instant::now();
            ended(timer.sleep(wait)).await;
            let took = started.elapsed();
            assert!(took >= wait, "{took:?} for {wait:?}");
            assert!(took < wait + TICK + SLACK, "{took:?} for {wait:?}");
            assert_eq!(timer.armed(), 0);
        }
    }

    #[tokio::test]
    async fn a_dropped_sleep_is_disarmed_and_others_end_in_their_order() {
        let timer = ticking();
        let long = timer.sleep(Duration::from_secs(3600));
        let waiting = tokio::time::timeout(Duration::from_millis(60), long).await;
        assert!(waiting.is_err(), "an hour's sleep ended");
        // The timeout dropped it: nothing is left armed.
        assert_eq!(timer.armed(), 0);
        let started = Instant::now();
        let ends: Vec<Duration> = futures_util::future::join_all([90, 30, 60].map(|ms| {
            let sleep = timer.sleep(Duration::from_millis(ms));
            async move {
                ended(sleep).await;
                started.elapsed()
            }
        }))
        .await;
        assert!(ends[1] <= ends[2] && ends[2] <= ends[0], "{ends:?}");
        assert!(ends[1] >= Duration::from_millis(30), "{ends:?}");
        assert_eq!(timer.armed(), 0);
    }

    #[tokio::test]
    async fn the_ticking_task_rests_without_sleeps_and_wakes_for_one() {
        let timer = ticking();
        // It finds nothing at its first tick, and rests.
        let rested = Instant::now();
        while !super::lock(&timer.shared.waiting).resting {
            assert!(rested.elapsed() < SLACK, "the ticking task never rested");
            tokio::time::sleep(TICK).await;
        }
        let started = Instant::now();
        ended(timer.sleep(Duration::from_millis(40))).await;
        let took = started.elapsed();
        assert!(took < Duration::from_millis(40) + TICK + SLACK, "{took:?}");
    }
}
