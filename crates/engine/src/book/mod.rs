//! The graded puzzle book: records, the files they go to, and the run's statistics.
//!
//! A run writes into a staging folder that replaces the output folder in one atomic step when
//! the whole run succeeded (`outdir`), so a crash never leaves a half-written book under its
//! final name. Files written elsewhere (calibrate's reports) go through `atomic`.

pub mod atomic;
pub mod calibration;
pub mod dedup;
pub mod exact;
pub mod id;
pub mod layout;
pub mod outdir;
pub mod record;
pub mod report;
pub(crate) mod stats;
pub(crate) mod writer;
pub(crate) mod written;

pub use calibration::Calibration;
pub use record::Record;
pub use stats::Stats;
pub use writer::BookWriter;
