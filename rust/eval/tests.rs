//! Exhaustive counts over every hand (DESIGN.md's numbers) and the golden deals of tests/data.

use super::enumerate::strength_histogram;
use super::*;
use crate::cards::{parse_card, validate};

fn class_counts(hist: &[u64]) -> [u64; 11] {
    let t = tables();
    let mut counts = [0u64; 11];
    hist.iter()
        .enumerate()
        .skip(1)
        .for_each(|(s, &n)| counts[t.class_of(s as u16) as usize] += n);
    counts
}

#[test]
fn five_card_classes_over_every_hand() {
    let hist = strength_histogram(5);
    assert_eq!(hist.iter().sum::<u64>(), 2_598_960);
    assert_eq!(hist.iter().skip(1).filter(|&&n| n > 0).count(), 7462);
    assert_eq!(hist[0], 0);
    assert_eq!(
        class_counts(&hist),
        [1_302_540, 0, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]
    );
}

#[test]
fn seven_card_classes_over_every_hand() {
    let hist = strength_histogram(7);
    assert_eq!(hist.iter().sum::<u64>(), 133_784_560);
    assert_eq!(hist.iter().skip(1).filter(|&&n| n > 0).count(), 4824);
    let c = class_counts(&hist);
    assert_eq!(
        c[HandClass::StraightFlush as usize] + c[HandClass::RoyalFlush as usize],
        41_584
    );
    assert_eq!(
        c[2..9],
        [58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848]
    );
    assert_eq!(c[0], 23_294_460);
}

/// Every 7-card hand looked up on its own, as the plain nested loops of a walk with no shared
/// lookups: the histogram must be the same strength by strength.
#[test]
fn seven_card_histogram_matches_a_lookup_per_hand() {
    let t = tables();
    let mut plain = vec![0u64; DISTINCT_STRENGTHS as usize + 1];
    for a in 0..52u8 {
        for b in a + 1..52 {
            for c in b + 1..52 {
                for d in c + 1..52 {
                    for e in d + 1..52 {
                        let five = Hand::of(&[a, b, c, d, e]);
                        for f in e + 1..52 {
                            let six = five.add_card(f);
                            for g in f + 1..52 {
                                plain[six.add_card(g).strength(t) as usize] += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    let walked = strength_histogram(7);
    assert_eq!(walked.len(), plain.len());
    let differ = (0..plain.len()).find(|&s| walked[s] != plain[s]);
    assert!(
        differ.is_none(),
        "strength {differ:?}: walked {:?}, one lookup per hand {:?}",
        differ.map(|s| walked[s]),
        differ.map(|s| plain[s])
    );
}

#[test]
fn six_card_hands_agree_with_their_best_five() {
    let t = tables();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200_000 {
        let mut hand = [0u8; 6];
        let mut seen = 0u64;
        let mut i = 0;
        while i < 6 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let c = (state % 52) as u8;
            if seen >> c & 1 == 0 {
                seen |= 1 << c;
                hand[i] = c;
                i += 1;
            }
        }
        let (best, five) = t.best_five(&hand);
        assert_eq!(t.strength(&hand), best);
        assert_eq!(t.strength(&five), best);
    }
}

fn parse_hand(text: &str) -> Vec<u8> {
    let cards: Vec<u8> = text
        .split_whitespace()
        .map(|w| parse_card(w).expect(w))
        .collect();
    validate(&cards, 5, 7).expect(text);
    cards
}

#[test]
fn golden_deals() {
    let t = tables();
    let data = include_str!("../../tests/data/golden_hands.txt");
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        if let Some(rest) = line.strip_prefix("class:") {
            let (cards, class) = rest.split_once(';').expect(line);
            let s = t.strength(&parse_hand(cards));
            assert_eq!(t.class_of(s).name(), class.trim(), "{line}");
        } else if let Some(rest) = line.strip_prefix("compare:") {
            let op = rest.find(['>', '<', '=']).expect(line);
            let (a, b) = (
                t.strength(&parse_hand(&rest[..op])),
                t.strength(&parse_hand(&rest[op + 1..])),
            );
            let want = match &rest[op..op + 1] {
                ">" => std::cmp::Ordering::Greater,
                "<" => std::cmp::Ordering::Less,
                _ => std::cmp::Ordering::Equal,
            };
            assert_eq!(a.cmp(&b), want, "{line}");
        } else {
            panic!("unreadable golden line: {line}");
        }
        checked += 1;
    }
    assert!(checked >= 25);
}

#[test]
fn tables_stay_small() {
    let bytes = tables().footprint();
    assert!(bytes < 512 * 1024, "{bytes} bytes");
}
