//! Baselines.
