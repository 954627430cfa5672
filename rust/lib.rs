//! caribbean-fast's native core for casino table poker. Everything here counts; the Python
//! package (`python/caribbean_fast`) gives the counts meaning: settlement, par sheets, tables.
//!
//! - [`cards`]: card ids (`4 * rank + suit`), their text, and the check of a set of them.
//! - [`eval`]: the hand evaluator, 5 to 7 cards to a strength from 1 to 7462 (greater is
//!   stronger), with the hand classes; batches of hands on every core ([`eval::batch`]) and every
//!   hand of five or seven cards counted by strength ([`eval::enumerate`]).
//! - [`combinations`]: C(n, k) and the numbering of card sets that indexes the dense tables.
//! - [`exact`]: exact analysis by full enumeration, Caribbean Stud ([`exact::stud`]) and Casino
//!   Hold'em ([`exact::holdem`]): counts of every deal by outcome, one situation per class of
//!   suit renamings ([`exact::symmetry`]).
//! - [`sim`]: bulk simulation, rounds dealt from seeded streams and played by decision tables,
//!   counted by outcome cell; the same seed gives the same counts whatever the threads.
//! - [`fairness`]: the commitment to every position of a round's deck that makes a live table's
//!   deal provably fair (the engine's protocol), worked out once a round.
//! - [`layout`]: the axes and limits of the count tables, shared with Python.
//!
//! The private `py` module is the Python extension `caribbean_fast._core`, and the only code that
//! touches PyO3; it is built only with the `python` feature, so that plain `cargo test` needs no
//! interpreter. The crate builds as a `cdylib` (the extension) and an `rlib` (for Rust callers,
//! the benches and the doctests). No `unsafe` code (`unsafe_code = "forbid"`).
//!
//! ```
//! use caribbean_fast::cards::parse_card;
//! use caribbean_fast::eval::{strength, tables, HandClass};
//!
//! let hand: Vec<u8> = "As Ad Kh Kc 7s 7d 2c".split(' ').map(|c| parse_card(c).unwrap()).collect();
//! let s = strength(&hand);
//! assert_eq!(tables().class_of(s), HandClass::TwoPair);
//! ```

pub mod cards;
pub mod combinations;
pub mod eval;
pub mod exact;
pub mod fairness;
pub mod layout;
pub mod sim;

#[cfg(feature = "python")]
mod py;
