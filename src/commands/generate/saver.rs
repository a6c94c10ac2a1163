//! Saving the run state off the critical path: the sink flushes the files and builds the state
//! (cheap), then this thread fsyncs the files and replaces `.run.json` (slow on real disks: one
//! fsync per file). The state names byte lengths, and a file only grows after them, so syncing
//! it later still makes those bytes durable before the state that names them. One save at a
//! time: a boundary that comes while a save is under way skips its own (the next one saves).

use crate::book::outdir::save_state_in;
use anyhow::{anyhow, Context as _, Result};
use std::fs::File;
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::thread::JoinHandle;

struct Job {
    files: Vec<File>,
    state: Vec<u8>,
    staging: PathBuf,
}

pub struct Saver {
    jobs: Option<Sender<Job>>,
    done: Receiver<Result<()>>,
    pending: usize,
    thread: Option<JoinHandle<()>>,
}

impl Saver {
    pub fn new() -> Result<Saver> {
        let (jobs, rx) = channel::<Job>();
        let (tx, done) = channel();
        let thread = std::thread::Builder::new()
            .name("save-state".into())
            .spawn(move || {
                for job in rx {
                    let r = job
                        .files
                        .iter()
                        .try_for_each(|f| f.sync_data())
                        .context("syncing the book for the saved state")
                        .and_then(|_| save_state_in(&job.staging, &job.state));
                    if tx.send(r).is_err() {
                        break;
                    }
                }
            })
            .context("starting the state saver")?;
        Ok(Saver { jobs: Some(jobs), done, pending: 0, thread: Some(thread) })
    }

    /// Is a save under way? Reports the error of a finished one.
    pub fn busy(&mut self) -> Result<bool> {
        loop {
            match self.done.try_recv() {
                Ok(r) => {
                    self.pending -= 1;
                    r?;
                }
                Err(TryRecvError::Empty) => return Ok(self.pending > 0),
                Err(TryRecvError::Disconnected) => {
                    return if self.pending > 0 { Err(anyhow!("the state saver stopped")) } else { Ok(false) }
                }
            }
        }
    }

    pub fn submit(&mut self, files: Vec<File>, state: Vec<u8>, staging: PathBuf) -> Result<()> {
        let jobs = self.jobs.as_ref().ok_or_else(|| anyhow!("the state saver stopped"))?;
        jobs.send(Job { files, state, staging }).map_err(|_| anyhow!("the state saver stopped"))?;
        self.pending += 1;
        Ok(())
    }

    /// Wait for every save under way.
    pub fn wait(&mut self) -> Result<()> {
        while self.pending > 0 {
            let r = self.done.recv().map_err(|_| anyhow!("the state saver stopped"))?;
            self.pending -= 1;
            r?;
        }
        Ok(())
    }
}

impl Drop for Saver {
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
