//! The tools the fuzz targets serve: the invoices example, compiled here from its source so
//! that the fuzz build needs only the runtime's `rmcp` feature (the `examples` crate builds
//! HTTP serving, OAuth and Redis, every one of them instrumented for nothing).

#[path = "../../examples/src/invoices.rs"]
pub mod invoices;
