//! STUB (replaced by the real module).
#![allow(missing_docs, unused)]
use std::collections::BTreeMap;
pub struct PairingPairs {
    pub a: usize,
    pub b: usize,
    pub half_points: BTreeMap<u64, u8>,
}
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Ratings {
    pub elo: Vec<f64>,
    pub lower: Vec<f64>,
    pub upper: Vec<f64>,
    pub order: Vec<usize>,
    pub cfs_next: Vec<f64>,
    pub resamples: usize,
}
pub fn rate(
    n: usize,
    pairings: &[PairingPairs],
    anchor: usize,
    anchor_elo: f64,
    resamples: usize,
    seed: u64,
) -> Ratings {
    Ratings {
        elo: vec![0.0; n],
        lower: vec![0.0; n],
        upper: vec![0.0; n],
        order: (0..n).collect(),
        cfs_next: vec![0.5; n.saturating_sub(1)],
        resamples,
    }
}
