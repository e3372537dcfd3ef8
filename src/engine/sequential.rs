//! sequential (stub)
