//! What a run is asked for: an order of puzzles per grade (`Quota`), and the part of a run one
//! process makes (`Shard`). The command line parses them (`cli`); the pipeline and the
//! commands use them.

/// A quota per grade, in `Grade::ALL` order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Quota(pub [u64; 4]);

impl Quota {
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }
}

/// Shard `k` of `n` of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// Candidate `j` of this shard's own sequence: candidate `j·n + k` of the run.
    pub fn candidate(&self, j: u64) -> u64 {
        j * self.n + self.k
    }

    /// How many of the run's first `count` candidates are this shard's.
    pub fn local_count(&self, count: u64) -> u64 {
        if count > self.k {
            (count - self.k).div_ceil(self.n)
        } else {
            0
        }
    }

    /// This shard's part of an order: an equal share of each grade's quota (the remainder to
    /// the lowest K, starting at a different K per grade), plus a reserve of 2% of the share
    /// (at least 1) so that the merge still fills every quota when it drops duplicates found
    /// across shards. Without the reserve the shares add up to the order.
    pub fn share(&self, order: Quota, reserve: bool) -> Quota {
        let mut q = [0; 4];
        for (g, (out, &total)) in q.iter_mut().zip(&order.0).enumerate() {
            let extra = u64::from((self.k + self.n - g as u64 % self.n) % self.n < total % self.n);
            let share = total / self.n + extra;
            *out = share + if reserve && share > 0 { share.div_ceil(50) } else { 0 };
        }
        Quota(q)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}
