//! A minimal perfect hash from sparse rank keys to strengths, small enough to stay in cache.
//!
//! The key's high bits pick a bucket, whose offset displaces the key's low bits into a shared
//! value table. Offsets are found first-fit, biggest buckets first, once per process.

const LOW_BITS: u32 = 9;
const LOW_MASK: u32 = (1 << LOW_BITS) - 1;
/// Fixed power-of-two sizes, so that a masked index needs no bounds check in the hot loop.
const BUCKETS: usize = 1 << 14;
const VALUES: usize = 1 << 17;

pub(crate) struct PerfectHash {
    offsets: Box<[u32; BUCKETS]>,
    values: Box<[u16; VALUES]>,
    used: usize,
}

impl PerfectHash {
    /// Builds the hash of `entries`, whose keys must be distinct.
    pub(crate) fn build(entries: &[(u32, u16)]) -> Self {
        let max_key = entries.iter().map(|&(k, _)| k).max().unwrap_or(0);
        assert!(((max_key >> LOW_BITS) as usize) < BUCKETS, "keys up to {max_key} need more buckets");
        let mut buckets: Vec<Vec<(u32, u16)>> = vec![Vec::new(); BUCKETS];
        for &(key, value) in entries {
            buckets[(key >> LOW_BITS) as usize].push((key & LOW_MASK, value));
        }
        let mut order: Vec<usize> = (0..buckets.len()).filter(|&b| !buckets[b].is_empty()).collect();
        order.sort_by_key(|&b| std::cmp::Reverse(buckets[b].len()));

        let mut offsets = Box::new([0u32; BUCKETS]);
        let mut used: Vec<bool> = Vec::new();
        let mut first_free = 0usize;
        for b in order {
            let bucket = &buckets[b];
            let lowest = bucket.iter().map(|&(low, _)| low as usize).min().unwrap_or(0);
            let mut offset = first_free.saturating_sub(lowest);
            while bucket.iter().any(|&(low, _)| used.get(low as usize + offset).copied().unwrap_or(false)) {
                offset += 1;
            }
            let top = bucket.iter().map(|&(low, _)| low as usize + offset).max().unwrap_or(0);
            if used.len() <= top {
                used.resize(top + 1, false);
            }
            bucket.iter().for_each(|&(low, _)| used[low as usize + offset] = true);
            while first_free < used.len() && used[first_free] {
                first_free += 1;
            }
            offsets[b] = offset as u32;
        }
        assert!(used.len() <= VALUES, "{} slots needed", used.len());
        let mut values = Box::new([0u16; VALUES]);
        for &(key, value) in entries {
            values[(key & LOW_MASK) as usize + offsets[(key >> LOW_BITS) as usize] as usize] = value;
        }
        PerfectHash { offsets, values, used: used.len() }
    }

    /// The value stored for `key`; a key that was never stored reads some value or 0, never panics.
    #[inline(always)]
    pub(crate) fn get(&self, key: u32) -> u16 {
        let offset = self.offsets[(key >> LOW_BITS) as usize & (BUCKETS - 1)] as usize;
        self.values[((key & LOW_MASK) as usize + offset) & (VALUES - 1)]
    }

    /// Bytes of the two arrays that lookups can touch.
    pub(crate) fn footprint(&self) -> usize {
        let buckets = self.offsets.iter().rposition(|&o| o != 0).unwrap_or(0) + 1;
        buckets * 4 + self.used * 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stored_key_reads_back() {
        let entries: Vec<(u32, u16)> = (0..5000u32).map(|i| (i * i / 4 + i, (i % 60000) as u16 + 1)).collect();
        let hash = PerfectHash::build(&entries);
        for &(k, v) in &entries {
            assert_eq!(hash.get(k), v);
        }
        hash.get(u32::MAX);
    }
}
