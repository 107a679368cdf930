//! A real HAProxy for a test: `haproxy` (installed by `scripts/e2e-setup.sh` from the system's
//! packages) run in the foreground with a configuration the test writes, stopped when dropped.

use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// An `haproxy` of this test's own.
pub struct Haproxy {
    child: Child,
    config: PathBuf,
}

impl Haproxy {
    /// Starts one with `config` and waits (ten seconds at most) until `listening` (an address
    /// the configuration binds) accepts connections.
    ///
    /// # Panics
    /// When `haproxy` is not installed, or does not start.
    pub fn start(config: &str, listening: SocketAddr) -> Haproxy {
        let path = std::env::temp_dir().join(format!(
            "haproxy-{}-{}.cfg",
            std::process::id(),
            listening.port()
        ));
        std::fs::write(&path, config).unwrap();
        let child = Command::new("haproxy")
            .args(["-db", "-f"])
            .arg(&path)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("haproxy is installed (scripts/e2e-setup.sh installs it)");
        let haproxy = Haproxy {
            child,
            config: path,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(listening).is_err() {
            assert!(Instant::now() < deadline, "haproxy did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        haproxy
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.config);
    }
}
