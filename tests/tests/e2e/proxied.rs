//! `transport::http::serve` behind a real HAProxy sending the PROXY protocol (`send-proxy` and
//! `send-proxy-v2`), trusted by `ServeOptions::proxies`: each client the balancer passes on
//! has its own share of connections (`max_connections_per_peer`), where without the header
//! every connection would be the balancer's.

use std::net::SocketAddr;

use mcp_tool_runtime::transport::http::ServeOptions;
use tests::haproxy::Haproxy;
use tests::http::{connect_from, refused_per_peer, send_ok, serve_ok};

use super::free_port;

/// The address HAProxy connects to the server from: the one the server trusts.
const BALANCER_SOURCE: &str = "127.0.0.9";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs haproxy: run scripts/test.sh"]
async fn behind_haproxy_sending_the_proxy_protocol_each_client_has_a_share_of_its_own() {
    let options = ServeOptions::default()
        .max_connections_per_peer(1)
        .proxies([BALANCER_SOURCE.parse::<std::net::IpAddr>().unwrap()]);
    let connections = options.connections();
    let server = serve_ok(options).await;
    let (v1, v2) = (free_port(), free_port());
    let config = format!(
        "global\n  maxconn 256\n\
         defaults\n  mode tcp\n  timeout connect 2s\n  timeout client 30s\n  timeout server 30s\n\
         frontend v1\n  bind 127.0.0.1:{v1}\n  default_backend v1\n\
         frontend v2\n  bind 127.0.0.1:{v2}\n  default_backend v2\n\
         backend v1\n  server s {server} send-proxy source {BALANCER_SOURCE}\n\
         backend v2\n  server s {server} send-proxy-v2 source {BALANCER_SOURCE}\n"
    );
    let at = |port: u16| -> SocketAddr { format!("127.0.0.1:{port}").parse().unwrap() };
    let _haproxy = Haproxy::start(&config, at(v2));
    // Each version with clients of its own (a client holds its whole share of one); none is
    // 127.0.0.1, where `Haproxy::start`'s probe of the v2 frontend came from.
    for (balancer, ada, bob) in [
        (at(v1), "127.0.0.2", "127.0.0.3"),
        (at(v2), "127.0.0.4", "127.0.0.5"),
    ] {
        let mut first = connect_from(ada, balancer).await;
        assert_eq!(send_ok(&mut first, 1).await.1, "ok", "through {balancer}");
        // Ada's second connection through the balancer is past her share.
        let mut second = connect_from(ada, balancer).await;
        refused_per_peer(&send_ok(&mut second, 2).await.1, 2);
        // Bob, through the same balancer, is served: his own share.
        let mut other = connect_from(bob, balancer).await;
        assert_eq!(send_ok(&mut other, 3).await.1, "ok", "through {balancer}");
        drop((first, second, other));
    }
    assert_eq!(connections.refused(), 2);
}
