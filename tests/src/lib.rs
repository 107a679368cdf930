//! Tests of the whole toolkit live under `tests/`. This library holds what several of them share.

pub mod haproxy;
pub mod http;
pub mod redis;
pub mod tasks;
pub mod wire;
pub mod zoo;
