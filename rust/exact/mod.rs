//! Exact analysis by full enumeration: counts of every deal by outcome category, which the
//! Python side settles into par sheets.

pub mod dealt;
pub mod exchange;
pub mod holdem;
pub mod stud;
pub mod symmetry;
