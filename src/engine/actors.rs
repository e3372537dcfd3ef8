//! actors (stub)
