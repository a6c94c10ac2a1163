//! No puzzle twice: the canonical keys already emitted by this run or given by `--exclude`.
//!
//! Memory stays small: a Bloom filter of 4 bytes per key (sized once, for the most keys the run
//! can hold, at least 8 KB) answers "certainly new" for almost every key; only on a hit is the
//! key looked up exactly — by binary search in the sorted `--exclude` keys (16 bytes each, as
//! the user gave them) and by a scan of the run's own keys, which live in a file in the staging
//! folder (`.keys`, 16 bytes per emitted puzzle, appended in candidate order). With at least 32
//! filter bits per key and 6 probes, a hit on a new key happens about twice in 100,000
//! (0.002 %), so scans are rare even at a million keys.
//!
//! The key files are scratch: `.keys` and `.exclude` (the sorted exclude keys, so that a
//! resumed run needs no exclude file) live in the staging folder until the run is sealed, and
//! the commit removes them with the other scratch files (`outdir`). `.keys` is part of the saved run state: its length is
//! saved with the other files' lengths, and a resumed run truncates it to that length.

use anyhow::{Context as _, Result};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

pub const KEYS: &str = ".keys";
pub const EXCLUDE: &str = ".exclude";
const PROBES: u32 = 6;
/// Smallest filter: 2^16 bits (8 KB). The filter is sized by the most keys the run can hold
/// (32 bits each), so a small run's filter stays in cache: a floor of 4 MB for every run cost a
/// 10,000-puzzle Sudoku run 1% (zeroing the pages, then six cache misses per key).
const MIN_BITS: u32 = 16;
const MAX_BITS: u32 = 36;

pub struct Dedup {
    bits: Vec<u64>,
    /// Bit count minus one (a power of two minus one).
    mask: u64,
    exclude: Vec<u128>,
    keys_path: PathBuf,
    keys: BufWriter<File>,
    /// Keys in `.keys`.
    emitted: u64,
    /// Exact lookups made after a filter hit (for calibration.json).
    pub lookups: u64,
}

fn filter_bits(keys: u64) -> u32 {
    let want = keys.saturating_mul(32).max(1);
    (64 - (want - 1).leading_zeros()).clamp(MIN_BITS, MAX_BITS)
}

fn write_keys(path: &Path, keys: &[u128]) -> Result<()> {
    let ctx = || format!("writing {}", path.display());
    let mut w = BufWriter::new(File::create(path).with_context(ctx)?);
    for k in keys {
        w.write_all(&k.to_le_bytes()).with_context(ctx)?;
    }
    let f = w.into_inner().map_err(|e| e.into_error()).with_context(ctx)?;
    f.sync_all().with_context(ctx)
}

/// Every 16-byte key of a key file, in order.
fn read_keys(path: &Path) -> Result<Vec<u128>> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .with_context(|| format!("reading {}", path.display()))?;
    Ok(bytes.chunks_exact(16).map(|c| u128::from_le_bytes(c.try_into().expect("16 bytes"))).collect())
}

impl Dedup {
    /// A new run's set: `exclude` (any order, repeats allowed) and room for `expected` emitted
    /// keys, in the staging folder `dir`.
    pub fn create(dir: &Path, mut exclude: Vec<u128>, expected: u64) -> Result<Dedup> {
        exclude.sort_unstable();
        exclude.dedup();
        write_keys(&dir.join(EXCLUDE), &exclude)?;
        let keys_path = dir.join(KEYS);
        let file = File::create(&keys_path).with_context(|| format!("writing {}", keys_path.display()))?;
        Ok(Self::with(exclude, expected, keys_path, file, 0))
    }

    /// The set of a resumed run: the saved exclude keys and the first `emitted` run keys.
    pub fn resume(dir: &Path, emitted: u64, expected: u64) -> Result<Dedup> {
        let exclude = read_keys(&dir.join(EXCLUDE))?;
        let keys_path = dir.join(KEYS);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&keys_path)
            .with_context(|| format!("opening {}", keys_path.display()))?;
        file.set_len(emitted * 16)?;
        file.seek(SeekFrom::End(0))?;
        let mut d = Self::with(exclude, expected, keys_path.clone(), file, emitted);
        for k in read_keys(&keys_path)? {
            d.mark(k);
        }
        Ok(d)
    }

    fn with(exclude: Vec<u128>, expected: u64, keys_path: PathBuf, file: File, emitted: u64) -> Dedup {
        let bits = filter_bits(expected.saturating_add(exclude.len() as u64));
        let mut d = Dedup {
            bits: vec![0; 1 << (bits - 6)],
            mask: (1u64 << bits) - 1,
            exclude: Vec::new(),
            keys_path,
            keys: BufWriter::with_capacity(1 << 16, file),
            emitted,
            lookups: 0,
        };
        for &k in &exclude {
            d.mark(k);
        }
        d.exclude = exclude;
        d
    }

    /// The filter positions of a key (the key is already a uniform hash: its two halves serve
    /// as the two hashes of double hashing).
    fn probes(mask: u64, key: u128) -> impl Iterator<Item = u64> {
        let (h1, h2) = (key as u64, ((key >> 64) as u64) | 1);
        (0..PROBES).map(move |i| h1.wrapping_add(u64::from(i).wrapping_mul(h2)) & mask)
    }

    fn mark(&mut self, key: u128) {
        for p in Self::probes(self.mask, key) {
            self.bits[(p >> 6) as usize] |= 1 << (p & 63);
        }
    }

    fn maybe(&self, key: u128) -> bool {
        Self::probes(self.mask, key).all(|p| self.bits[(p >> 6) as usize] & (1 << (p & 63)) != 0)
    }

    /// Was `key` emitted before or excluded?
    pub fn contains(&mut self, key: u128) -> Result<bool> {
        if !self.maybe(key) {
            return Ok(false);
        }
        self.lookups += 1;
        if self.exclude.binary_search(&key).is_ok() {
            return Ok(true);
        }
        self.keys.flush().with_context(|| format!("writing {}", self.keys_path.display()))?;
        let file = File::open(&self.keys_path).with_context(|| format!("reading {}", self.keys_path.display()))?;
        let mut r = BufReader::with_capacity(1 << 16, file);
        let mut buf = [0u8; 16];
        for _ in 0..self.emitted {
            r.read_exact(&mut buf).with_context(|| format!("reading {}", self.keys_path.display()))?;
            if u128::from_le_bytes(buf) == key {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Record an emitted key.
    pub fn insert(&mut self, key: u128) -> Result<()> {
        self.mark(key);
        self.keys.write_all(&key.to_le_bytes()).with_context(|| format!("writing {}", self.keys_path.display()))?;
        self.emitted += 1;
        Ok(())
    }

    /// Flush the run's keys (a chunk boundary's save); a handle to fsync them with.
    pub fn flush_for_save(&mut self) -> Result<File> {
        let ctx = || format!("writing {}", self.keys_path.display());
        self.keys.flush().with_context(ctx)?;
        self.keys.get_ref().try_clone().with_context(ctx)
    }

    pub fn excluded(&self) -> usize {
        self.exclude.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u64) -> u128 {
        let h = pf_core::seed::fnv1a(&i.to_le_bytes());
        (u128::from(h) << 64) | u128::from(h.rotate_left(17) ^ i)
    }

    #[test]
    fn exact_membership_across_exclude_run_and_resume() {
        let dir = tempfile::tempdir().unwrap();
        let mut d = Dedup::create(dir.path(), vec![key(1), key(2), key(1)], 100).unwrap();
        assert_eq!(d.excluded(), 2);
        assert!(d.contains(key(1)).unwrap() && d.contains(key(2)).unwrap());
        for i in 10..1000 {
            assert!(!d.contains(key(i)).unwrap(), "{i}");
            d.insert(key(i)).unwrap();
            assert!(d.contains(key(i)).unwrap());
        }
        d.flush_for_save().unwrap().sync_all().unwrap();
        // A resume from the state after 500 emitted keys: later keys are new again.
        let mut r = Dedup::resume(dir.path(), 500, 100).unwrap();
        assert!(r.contains(key(509)).unwrap() && r.contains(key(1)).unwrap());
        assert!(!r.contains(key(510)).unwrap() && !r.contains(key(999)).unwrap());
        assert_eq!(std::fs::metadata(dir.path().join(KEYS)).unwrap().len(), 500 * 16);
    }

    #[test]
    fn filter_has_32_bits_per_key_and_at_least_8_kb() {
        assert_eq!(filter_bits(0), 16);
        assert_eq!(filter_bits(2_048), 16);
        assert_eq!(filter_bits(2_049), 17);
        assert_eq!(filter_bits(10_000), 19);
        assert_eq!(filter_bits(1_000_000), 25);
        assert_eq!(filter_bits(2_000_000), 26);
        assert_eq!(filter_bits(u64::MAX), 36);
    }
}
