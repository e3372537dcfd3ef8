//! Stress searches split over processes or machines.
