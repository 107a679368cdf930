//! Tests of the whole toolkit live under `tests/`.
