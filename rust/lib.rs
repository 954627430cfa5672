//! caribbean-fast's native core: cards, the hand evaluator, and (later) the exact enumerations
//! and the bulk simulator. Everything here counts; the Python package gives the counts meaning.
//! Only `py/` touches PyO3, and only when the `python` feature is on.

pub mod cards;
pub mod combinations;
pub mod eval;
pub mod exact;
pub mod layout;
pub mod sim;

#[cfg(feature = "python")]
mod py;
