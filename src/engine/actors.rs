//! Actors engine (in progress).
