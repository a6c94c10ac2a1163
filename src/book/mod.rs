//! The graded puzzle book: records, the files they go to, and the run's statistics.
//!
//! Every file is written under a temporary name in the output directory and renamed only when
//! the whole run succeeded, so a crash never leaves a half-written file under its final name.

pub mod atomic;
pub mod calibration;
pub mod record;
pub mod report;
pub mod stats;
pub mod writer;

pub use calibration::Calibration;
pub use record::Record;
pub use stats::Stats;
pub use writer::BookWriter;
