//! A real Redis for a test: `redis-server` (installed by `scripts/e2e-setup.sh` from the system's
//! packages) started on a free loopback port, keeping nothing on disk, stopped when dropped.

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `redis-server` of this test's own.
pub struct RedisServer {
    pub port: u16,
    child: Child,
}

impl RedisServer {
    /// Starts one and waits (five seconds at most) until it accepts connections.
    ///
    /// # Panics
    /// When `redis-server` is not installed (`scripts/e2e-setup.sh` installs it), or does not
    /// start.
    pub fn start() -> RedisServer {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &port.to_string()])
            .args([
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "yes",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("redis-server is installed (scripts/e2e-setup.sh installs it)");
        let server = RedisServer { port, child };
        let deadline = Instant::now() + Duration::from_secs(5);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        server
    }

    /// Its URL, for `RedisTaskStore::connect`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
