//! The windows Kakuro generation checks before the whole board on boards larger than one
//! window (see `generate`): overlapping squares of white cells, in each of which a second
//! solution that differs only there is found at the window's cost.

use super::solve::Layout;

/// The white cells of grid rows `rows` and columns `cols`, row-major (ranges clipped to the board).
fn whites_in(lay: &Layout, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) -> Vec<u32> {
    let cols = cols.start..cols.end.min(lay.cols);
    (rows.start..rows.end.min(lay.rows))
        .flat_map(|r| cols.clone().map(move |c| r * lay.cols + c))
        .map(|g| lay.white_of[g])
        .filter(|&x| x != u32::MAX)
        .collect()
}

/// Side of the square windows the generator checks before the whole board, and their step: a
/// second solution found on 20×20 boards differs from the known one within 6×6 cells 89% of
/// the time and within 9×9 98% (848 of them, seed 1); a 10×10 window at step 5 holds every
/// difference up to 6×6. Windows of 8 and 12 were measured slower overall.
pub(super) const WINDOW: usize = 10;
const WINDOW_STEP: usize = WINDOW / 2;

/// Overlapping square windows over the board's interior (white cells of each), for boards
/// larger than one window, the windows through each run, and which are to be checked again.
pub(super) struct Windows {
    pub(super) cells: Vec<Vec<u32>>,
    pub(super) of_run: Vec<Vec<usize>>,
    /// The windows holding each white cell, in window order.
    pub(super) of_cell: Vec<Vec<usize>>,
    /// Windows to check again (every window starts so; a repair marks those its runs cross).
    pub(super) dirty: Vec<bool>,
}

impl Windows {
    pub(super) fn new(lay: &Layout) -> Windows {
        let (h, w) = (lay.rows - 1, lay.cols - 1);
        let mut cells = Vec::new();
        if h > WINDOW || w > WINDOW {
            let starts = |n: usize| {
                let mut v: Vec<usize> = (0..n.saturating_sub(WINDOW)).step_by(WINDOW_STEP).collect();
                v.push(n.saturating_sub(WINDOW));
                v.dedup();
                v
            };
            for r0 in starts(h) {
                for c0 in starts(w) {
                    // Interior row/column k is grid row/column k + 1.
                    let win = whites_in(lay, r0 + 1..r0 + 1 + WINDOW, c0 + 1..c0 + 1 + WINDOW);
                    if win.len() > 1 {
                        cells.push(win);
                    }
                }
            }
        }
        let mut w = Windows {
            cells: Vec::new(),
            of_run: vec![Vec::new(); lay.runs.len()],
            of_cell: vec![Vec::new(); lay.whites.len()],
            dirty: Vec::new(),
        };
        for win in cells {
            w.add(lay, win);
        }
        w
    }

    /// One more window: `cells`, and the runs through them; it is to be checked.
    pub(super) fn add(&mut self, lay: &Layout, cells: Vec<u32>) {
        let i = self.cells.len();
        for &c in &cells {
            self.of_cell[c as usize].push(i);
            for r in lay.cell_runs[c as usize] {
                if self.of_run[r as usize].last() != Some(&i) {
                    self.of_run[r as usize].push(i);
                }
            }
        }
        self.cells.push(cells);
        self.dirty.push(true);
    }
}

/// Windows added per candidate from the whole-board check's finds. A second solution the
/// fixed windows missed (spanning more than one, or across their seams: 9×6, 8×6, 9×8 boxes
/// were the commonest at 20×20) tends to come back in another form after the repair, and was
/// then found again only by another whole-board check, at 100-200× a window's cost. Watching
/// its rectangle as one more window catches those for the window's cost: whole-board checks
/// per 20×20 candidate fell from 3.1 to 1.7, and from 7.4-11 to 3.2-4.2 at 30×30.
pub(super) const EXTRA_WINDOWS: usize = 16;

/// The white cells of the smallest rectangle holding every cell where `a` and `b` differ (a
/// margin of one cell around it was measured slower: 20×20, four seeds of 100 candidates).
pub(super) fn diff_window(lay: &Layout, a: &[u8], b: &[u8]) -> Vec<u32> {
    let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
    for w in (0..a.len()).filter(|&w| a[w] != b[w]) {
        let g = lay.whites[w] as usize;
        let (r, c) = (g / lay.cols, g % lay.cols);
        (r0, r1, c0, c1) = (r0.min(r), r1.max(r), c0.min(c), c1.max(c));
    }
    whites_in(lay, r0..r1 + 1, c0..c1 + 1)
}
