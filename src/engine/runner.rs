//! runner (stub)
