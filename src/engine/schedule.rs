//! schedule (stub)
