//! A file written under a temporary name (`.<name>.tmp`) and renamed into place by `commit`.
//! Dropped without `commit`, the temporary file is removed.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

pub struct AtomicFile {
    tmp: PathBuf,
    dest: PathBuf,
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    pub fn create(dir: &Path, name: &str) -> std::io::Result<AtomicFile> {
        let tmp = dir.join(format!(".{name}.tmp"));
        let file = File::create(&tmp)?;
        Ok(AtomicFile { tmp, dest: dir.join(name), out: Some(BufWriter::with_capacity(1 << 16, file)) })
    }

    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.out.as_mut().expect("not committed")
    }

    /// Flush, sync and rename into place.
    pub fn commit(mut self) -> std::io::Result<()> {
        let mut out = self.out.take().expect("commit once");
        out.flush()?;
        out.get_ref().sync_all()?;
        drop(out);
        std::fs::rename(&self.tmp, &self.dest)
    }

    /// Write a whole file at once, atomically.
    pub fn write_all(dir: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
        let mut f = AtomicFile::create(dir, name)?;
        f.writer().write_all(bytes)?;
        f.commit()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
