//! A client that misbehaves hurts no one else: each test plays one hostile client over the raw
//! wire and checks the bound that stops it, and that other clients are still served.
//!
//! Every run is bounded in count and time and stays in-process on in-memory pipes or loopback.

mod abandoned;
mod broadcast;
mod calls;
mod client_requests;
mod fixtures;
mod listen;
mod memory;
mod request_ids;
mod sessions;
mod stdio;
