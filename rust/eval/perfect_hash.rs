//! A minimal-ish perfect hash (hash and displace) from sparse rank keys to strengths, small
//! enough to stay in cache and quick to build once per process.
//!
//! A key picks a bucket by one multiplicative hash and a base slot by another; the bucket's
//! displacement, XORed into the base slot, sends every key of the bucket to a free slot.
//! Displacements are found for the biggest buckets first, while the table is still empty.

/// Fixed power-of-two capacities, so that a masked index needs no bounds check in the hot loop.
const MAX_BUCKETS: usize = 1 << 14;
const MAX_SLOTS: usize = 1 << 16;
/// Multipliers tried in turn until one gives every bucket a displacement (odd 64-bit constants).
const SEEDS: [u64; 4] = [
    0x9e37_79b9_7f4a_7c15,
    0xbf58_476d_1ce4_e5b9,
    0x94d0_49bb_1331_11eb,
    0xd6e8_feb8_6659_fd93,
];

/// The bits of the least power of two at least `n` (and at least 2).
const fn power_of_two_bits(n: usize) -> u32 {
    let n = if n < 2 { 2 } else { n };
    n.next_power_of_two().trailing_zeros()
}

/// The hash of `ENTRIES` keys: its sizes, and so its shifts, are constants, as the number of
/// keys of each hand size is (a shift by a constant is one instruction, a shift by a loaded
/// amount two or three, three times a lookup).
pub(crate) struct PerfectHash<const ENTRIES: usize> {
    displacement: Box<[u16; MAX_BUCKETS]>,
    values: Box<[u16; MAX_SLOTS]>,
    seed: u64,
}

impl<const ENTRIES: usize> PerfectHash<ENTRIES> {
    /// About four keys a bucket, a power of two of them.
    const BUCKET_BITS: u32 = power_of_two_bits(ENTRIES / 4);
    /// About 5/4 slots a key, a power of two of them.
    const SLOT_BITS: u32 = power_of_two_bits(ENTRIES * 5 / 4);
    const BUCKET_SHIFT: u32 = 64 - Self::BUCKET_BITS;
    const SLOT_SHIFT: u32 = 64 - Self::SLOT_BITS;
    const SLOTS: usize = 1 << Self::SLOT_BITS;
    const BUCKETS: usize = 1 << Self::BUCKET_BITS;

    /// Builds the hash of `entries`: `ENTRIES` distinct keys, at most 2^16 * 4/5 of them.
    pub(crate) fn build(entries: &[(u32, u16)]) -> Self {
        assert_eq!(
            entries.len(),
            ENTRIES,
            "the hash is sized for {ENTRIES} keys"
        );
        assert!(
            Self::SLOTS <= MAX_SLOTS && Self::BUCKETS <= MAX_BUCKETS,
            "too many keys"
        );
        SEEDS
            .iter()
            .find_map(|&seed| Self::try_build(entries, seed))
            .expect("one of the seeds gives a perfect hash")
    }

    fn try_build(entries: &[(u32, u16)], seed: u64) -> Option<Self> {
        let mut hash = PerfectHash {
            displacement: Box::new([0; MAX_BUCKETS]),
            values: Box::new([0; MAX_SLOTS]),
            seed,
        };
        let mut buckets: Vec<Vec<(usize, u16)>> = vec![Vec::new(); Self::BUCKETS];
        for &(key, value) in entries {
            let (bucket, base) = hash.bucket_and_base(key);
            buckets[bucket].push((base, value));
        }
        let mut order: Vec<usize> = (0..buckets.len())
            .filter(|&b| !buckets[b].is_empty())
            .collect();
        order.sort_by_key(|&b| std::cmp::Reverse(buckets[b].len()));
        let mut used = vec![false; Self::SLOTS];
        for b in order {
            let fits = |d: usize| {
                let mut slots: Vec<usize> = buckets[b].iter().map(|&(base, _)| base ^ d).collect();
                slots.sort_unstable();
                slots.dedup();
                (slots.len() == buckets[b].len() && slots.iter().all(|&s| !used[s]))
                    .then_some(slots)
            };
            let d = (0..Self::SLOTS).find(|&d| fits(d).is_some())?;
            for &(base, value) in &buckets[b] {
                used[base ^ d] = true;
                hash.values[base ^ d] = value;
            }
            hash.displacement[b] = d as u16;
        }
        Some(hash)
    }

    #[inline(always)]
    fn bucket_and_base(&self, key: u32) -> (usize, usize) {
        let mixed = (key as u64 ^ (key as u64) << 32).wrapping_mul(self.seed);
        let bucket = (mixed >> Self::BUCKET_SHIFT) as usize;
        // The bits below the bucket's pick the base slot: one multiply serves both.
        let base = ((mixed << Self::BUCKET_BITS) >> Self::SLOT_SHIFT) as usize;
        (bucket, base)
    }

    /// The value stored for `key`; a key that was never stored reads some value, never panics.
    #[inline(always)]
    pub(crate) fn get(&self, key: u32) -> u16 {
        let (bucket, base) = self.bucket_and_base(key);
        let slot = base ^ self.displacement[bucket & (MAX_BUCKETS - 1)] as usize;
        self.values[slot & (MAX_SLOTS - 1)]
    }

    /// Bytes of the two arrays that lookups can touch.
    pub(crate) fn footprint(&self) -> usize {
        Self::BUCKETS * 2 + Self::SLOTS * 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stored_key_reads_back() {
        let entries: Vec<(u32, u16)> = (0..40_000u32)
            .map(|i| (i * i / 4 + i, (i % 60000) as u16 + 1))
            .collect();
        let hash = PerfectHash::<40_000>::build(&entries);
        for &(k, v) in &entries {
            assert_eq!(hash.get(k), v);
        }
        hash.get(u32::MAX);
        assert!(hash.footprint() <= 2 * MAX_SLOTS + 2 * MAX_BUCKETS);
    }
}
