pub mod positions;
