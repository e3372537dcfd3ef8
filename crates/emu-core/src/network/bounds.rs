//! What each key of a topology or traffic file takes, in words, for the user guide's
//! reference (`family::reference`): the table lives with the configuration
//! (`config::bounds`), whose type errors give the same words.

pub use crate::config::bounds::takes;
