//! check (stub)
