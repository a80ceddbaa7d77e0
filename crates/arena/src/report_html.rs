//! STUB (replaced by the real module).
#![allow(missing_docs, unused)]
use serde::{Deserialize, Serialize};
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RatingRow {
    pub rank: usize,
    pub label: String,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
    pub cfs_next: Option<f64>,
    pub points: f64,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub draw_rate: f64,
    pub anchor: bool,
}
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PairCell {
    pub score: f64,
    pub games: u64,
    pub elo: f64,
    pub los: f64,
}
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PairingRow {
    pub a: String,
    pub b: String,
    pub pairs: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub score: f64,
    pub elo: f64,
    pub elo_lower: f64,
    pub elo_upper: f64,
    pub ptnml: [u64; 5],
    pub average_plies: f64,
    pub failures: String,
    pub folder: String,
}
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HistoryPoint {
    pub night: String,
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TournamentPage {
    pub title: String,
    pub context: String,
    pub anchor: String,
    pub ratings: Vec<RatingRow>,
    pub pairwise: Vec<Vec<Option<PairCell>>>,
    pub pairings: Vec<PairingRow>,
    pub nights: Vec<String>,
    pub history: Vec<(String, Vec<HistoryPoint>)>,
    pub notes: Vec<String>,
}
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct NightLink {
    pub night: String,
    pub href: String,
    pub summary: String,
}
pub fn tournament_html(page: &TournamentPage) -> String {
    String::from("<html>stub</html>")
}
pub fn index_html(nights: &[NightLink], latest: Option<&TournamentPage>) -> String {
    String::from("<html>stub</html>")
}
