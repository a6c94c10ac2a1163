//! Puzzles out of the library: selections (`Filter`), counts, and books' reservations.
//!
//! A reservation is one write transaction: the book's row, then for each section the first
//! puzzles (by the order they were added) that match and that no book holds (or none since a
//! date), recorded as the book's. Writers wait for each other (`Db::begin_write`), so a second
//! book made at the same moment sees the first one's puzzles as used and takes others.

use super::db::{Db, Val};
use super::Library;
use crate::config::UsageError;
use anyhow::Result;
use std::collections::HashMap;

/// Which puzzles, by what was used before.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Use {
    /// Any puzzle, used or not.
    #[default]
    Any,
    /// Only puzzles no book holds.
    Never,
    /// Only puzzles no book dated on or after this day (`YYYY-MM-DD`) holds.
    NotSince(String),
}

/// A selection of puzzles. Empty lists select anything.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Library kinds (`sudoku`, `sudoku-family`, `kenken`, `kakuro`, `futoshiki`, `skyscrapers`).
    pub kinds: Vec<String>,
    pub shape: Option<String>,
    pub grades: Vec<String>,
    pub min_steps: Option<f64>,
    pub max_steps: Option<f64>,
    /// Techniques the rating path used.
    pub uses: Vec<String>,
    /// Techniques the puzzle needs: used, and of the level of its hardest step (no puzzle of
    /// lower levels solves it), with that level.
    pub needs: Vec<(String, i64)>,
    pub used: Use,
}

/// One puzzle taken out of the library.
#[derive(Clone, Debug)]
pub struct Picked {
    pub row: i64,
    /// Its puzzle id (the run and the index).
    pub id: String,
    /// 0 easy to 3 expert.
    pub grade: usize,
    pub kind: String,
    pub shape: String,
    pub params: String,
    pub record: String,
}

/// A book's facts, as recorded.
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// What `library release` names it by (unique in the library).
    pub name: String,
    pub title: String,
    pub isbn: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// The plan (or query) it was made from, as text.
    pub plan: String,
}

/// A grade's number in the library (0 easy to 3 expert).
fn grade_index(name: &str) -> i64 {
    crate::grade::Grade::from_name(name).map_or(-1, |g| g.index() as i64)
}

/// A grade's name from its number.
pub fn grade_name(i: i64) -> String {
    crate::grade::Grade::ALL.get(i as usize).map_or_else(|| i.to_string(), |g| g.name().to_string())
}

fn like(name: &str) -> String {
    format!("% {} %", name.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"))
}

impl Filter {
    /// The boards the selection names (None: any board).
    fn boards(&self, db: &mut dyn Db) -> Result<Option<Vec<i64>>> {
        if self.kinds.is_empty() && self.shape.is_none() {
            return Ok(None);
        }
        let rows = db.rows("SELECT id, kind, shape FROM boards ORDER BY id", &[])?;
        Ok(Some(
            rows.iter()
                .filter(|r| self.kinds.is_empty() || self.kinds.contains(&r[1].text()))
                .filter(|r| self.shape.as_ref().is_none_or(|s| *s == r[2].text()))
                .map(|r| r[0].int())
                .collect(),
        ))
    }

    /// The WHERE clause over `puzzles p` and its parameters, numbered from `?1`; `boards` as
    /// `boards` resolved them. One board and one grade (the usual selection) are equalities,
    /// so that SQLite walks the selection index in the order puzzles were added and stops at
    /// the count, instead of sorting every match.
    fn clause(&self, boards: Option<&[i64]>, book: Option<i64>) -> (String, Vec<Val>) {
        let mut sql = vec!["1 = 1".to_string()];
        let mut params: Vec<Val> = Vec::new();
        let next = |v: Val, params: &mut Vec<Val>| {
            params.push(v);
            format!("?{}", params.len())
        };
        match boards {
            None => {}
            Some([]) => sql.push("0 = 1".into()),
            Some([one]) => {
                let p = next(Val::Int(*one), &mut params);
                sql.push(format!("p.board = {p}"));
            }
            Some(list) => {
                let list: Vec<String> = list.iter().map(|b| next(Val::Int(*b), &mut params)).collect();
                sql.push(format!("p.board IN ({})", list.join(", ")));
            }
        }
        if !self.grades.is_empty() {
            let list: Vec<String> = self.grades.iter().map(|g| next(Val::Int(grade_index(g)), &mut params)).collect();
            sql.push(if list.len() == 1 {
                format!("p.grade = {}", list[0])
            } else {
                format!("p.grade IN ({})", list.join(", "))
            });
        }
        let mut levels: Vec<i64> = self.needs.iter().map(|(_, l)| *l).collect();
        levels.sort_unstable();
        levels.dedup();
        for l in levels {
            let p = next(Val::Int(l), &mut params);
            sql.push(format!("p.hardest = {p}"));
        }
        if let Some(v) = self.min_steps {
            let p = next(Val::Real(v), &mut params);
            sql.push(format!("p.steps >= {p}"));
        }
        if let Some(v) = self.max_steps {
            let p = next(Val::Real(v), &mut params);
            sql.push(format!("p.steps <= {p}"));
        }
        for t in self.uses.iter().chain(self.needs.iter().map(|(t, _)| t)) {
            let p = next(Val::Text(like(t)), &mut params);
            sql.push(format!("p.techniques LIKE {p} ESCAPE '\\'"));
        }
        match &self.used {
            Use::Any => {}
            Use::Never => sql.push("NOT EXISTS (SELECT 1 FROM uses u WHERE u.puzzle = p.id)".into()),
            Use::NotSince(date) => {
                let p = next(Val::from(date.as_str()), &mut params);
                sql.push(format!(
                    "NOT EXISTS (SELECT 1 FROM uses u JOIN books bk ON bk.id = u.book WHERE u.puzzle = p.id AND bk.date \
                     >= {p})"
                ));
            }
        }
        if let Some(b) = book {
            let p = next(Val::Int(b), &mut params);
            sql.push(format!("NOT EXISTS (SELECT 1 FROM uses u WHERE u.puzzle = p.id AND u.book = {p})"));
        }
        (sql.join(" AND "), params)
    }
}

/// The columns a `Picked` is made of (`Picked::of`), over `PICKED_FROM`.
const PICKED: &str = "p.id, r.run, p.idx, p.grade, b.kind, b.shape, r.params, p.record, p.pack, p.slot";
const PICKED_FROM: &str = "puzzles p JOIN boards b ON b.id = p.board JOIN runs r ON r.id = p.run";

impl Picked {
    /// A puzzle from the `PICKED` columns of a row; its record from its pack when the row
    /// points into one.
    fn of(r: &[Val], packs: &mut Packs, db: &mut dyn Db) -> Result<Picked> {
        let record = match (&r[8], &r[9]) {
            (Val::Int(pack), Val::Int(slot)) => packs.record(db, *pack, *slot as usize)?,
            _ => r[7].text(),
        };
        Ok(Picked {
            row: r[0].int(),
            id: format!("{}-{}", r[1].text(), r[2].int()),
            grade: r[3].int() as usize,
            kind: r[4].text(),
            shape: r[5].text(),
            params: r[6].text(),
            record,
        })
    }
}

/// Packs read so far, unpacked (a selection's puzzles were mostly added together, so they
/// share packs); forgotten past `KEEP` of them.
#[derive(Default)]
struct Packs(HashMap<i64, Vec<String>>);

impl Packs {
    const KEEP: usize = 256;

    fn record(&mut self, db: &mut dyn Db, pack: i64, slot: usize) -> Result<String> {
        if !self.0.contains_key(&pack) {
            let rows = db.rows("SELECT data FROM packs WHERE id = ?1", &[Val::Int(pack)])?;
            let data = rows.first().map(|r| r[0].bytes().to_vec()).unwrap_or_default();
            let records = super::import::unpack(&data)
                .ok_or_else(|| anyhow::anyhow!("library {}: pack {pack} is missing or damaged", db.name()))?;
            if self.0.len() >= Self::KEEP {
                self.0.clear();
            }
            self.0.insert(pack, records);
        }
        self.0[&pack]
            .get(slot)
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("library {}: pack {pack} has no record {slot}", db.name()))
    }
}

fn pick(db: &mut dyn Db, f: &Filter, n: usize, book: Option<i64>) -> Result<Vec<Picked>> {
    pick_after(db, f, n, book, 0)
}

/// `pick`, of the puzzles added after the one numbered `after` (a puzzle's `row`).
fn pick_after(db: &mut dyn Db, f: &Filter, n: usize, book: Option<i64>, after: i64) -> Result<Vec<Picked>> {
    let boards = f.boards(db)?;
    let (clause, mut params) = f.clause(boards.as_deref(), book);
    params.push(Val::Int(after));
    let after = params.len();
    params.push(Val::Int(n as i64));
    let sql = format!(
        "SELECT {PICKED} FROM {PICKED_FROM} WHERE {clause} AND p.id > ?{after} ORDER BY p.id LIMIT ?{}",
        params.len()
    );
    let mut packs = Packs::default();
    db.rows(&sql, &params)?.iter().map(|r| Picked::of(r, &mut packs, db)).collect()
}

/// Puzzles a page of `Library::select_all` holds: a few megabytes of records at a time, however
/// large the selection.
const PAGE: usize = 4096;

/// A line of `Library::stats`: kind, shape, grade, puzzles, how many of them a book holds.
pub type Stat = (String, String, String, i64, i64);

/// Counts of a selection: per kind, shape and grade.
pub struct Count {
    pub kind: String,
    pub shape: String,
    pub grade: String,
    pub puzzles: i64,
}

impl Library {
    /// How many puzzles the selection holds, per kind, shape and grade.
    pub fn count(&mut self, f: &Filter) -> Result<Vec<Count>> {
        let boards = f.boards(self.db.as_mut())?;
        let (clause, params) = f.clause(boards.as_deref(), None);
        let sql = format!(
            "SELECT b.kind, b.shape, p.grade, count(*) FROM puzzles p JOIN boards b ON b.id = p.board WHERE {clause} \
             GROUP BY b.kind, b.shape, p.grade ORDER BY b.kind, b.shape, p.grade"
        );
        Ok(self
            .rows(&sql, &params)?
            .into_iter()
            .map(|r| Count {
                kind: r[0].text(),
                shape: r[1].text(),
                grade: grade_name(r[2].int()),
                puzzles: r[3].int(),
            })
            .collect())
    }

    /// The first `n` puzzles of the selection (the order they were added), not reserved.
    pub fn select(&mut self, f: &Filter, n: usize) -> Result<Vec<Picked>> {
        pick(self.db.as_mut(), f, n, None)
    }

    /// Every puzzle of the selection, in the order they were added, handed to `each` a page at
    /// a time (a selection of millions is never held whole).
    pub fn select_all(&mut self, f: &Filter, mut each: impl FnMut(&[Picked]) -> Result<()>) -> Result<()> {
        let mut after = 0;
        loop {
            let page = pick_after(self.db.as_mut(), f, PAGE, None, after)?;
            let Some(last) = page.last() else { return Ok(()) };
            after = last.row;
            each(&page)?;
            if page.len() < PAGE {
                return Ok(());
            }
        }
    }

    /// Record `book`'s puzzles as used by it, in one transaction: per section of the book, a
    /// selection and how many of it (None: a section not from the library). Its puzzles per
    /// section, and whether the book is new. A book of that name already in the library with
    /// as many puzzles in each section gives its own puzzles again (a reprint); otherwise it is
    /// refused. Puzzles a book holds are never taken (with `Use::NotSince`, none held since that
    /// day), nor twice in one book. `keep` false: the same, rolled back (what a build would
    /// take, for `--check`).
    pub fn reserve(
        &mut self,
        book: &Book,
        sections: &[Option<(Filter, usize)>],
        keep: bool,
    ) -> Result<(Vec<Option<Vec<Picked>>>, bool)> {
        let name = self.name().to_string();
        let go = |db: &mut dyn Db| -> Result<(Vec<Option<Vec<Picked>>>, bool)> {
            let had = db.rows("SELECT id FROM books WHERE name = ?1", &[Val::from(book.name.as_str())])?;
            if let Some(row) = had.first() {
                let rows = db.rows(
                    &format!(
                        "SELECT u.section, {PICKED} FROM {PICKED_FROM} JOIN uses u ON u.puzzle = p.id WHERE u.book = \
                         ?1 ORDER BY u.section, u.number"
                    ),
                    &[Val::Int(row[0].int())],
                )?;
                let mut out: Vec<Option<Vec<Picked>>> =
                    sections.iter().map(|s| s.as_ref().map(|_| Vec::new())).collect();
                let mut fits = true;
                let mut packs = Packs::default();
                for r in rows {
                    match out.get_mut(r[0].int() as usize).and_then(|s| s.as_mut()) {
                        Some(list) => list.push(Picked::of(&r[1..], &mut packs, db)?),
                        None => fits = false,
                    }
                }
                fits &= sections.iter().zip(&out).all(|(s, o)| match (s, o) {
                    (Some((_, n)), Some(list)) => list.len() == *n,
                    _ => true,
                });
                if !fits {
                    return Err(UsageError(format!(
                        "library {name} already holds a book \"{}\" with other sections or counts: `puzzle-factory \
                         library release \"{}\"` frees its puzzles if it was never printed, or give this book its own \
                         title",
                        book.name, book.name
                    ))
                    .into());
                }
                return Ok((out, false));
            }
            let id = db.rows(
                "INSERT INTO books (name, title, isbn, date, plan, made) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
                &[
                    Val::from(book.name.as_str()),
                    Val::from(book.title.as_str()),
                    Val::from(book.isbn.as_str()),
                    Val::from(book.date.as_str()),
                    Val::from(book.plan.as_str()),
                    Val::Text(super::now()),
                ],
            )?[0][0]
                .int();
            let mut out = Vec::new();
            for (k, section) in sections.iter().enumerate() {
                let Some((f, n)) = section else {
                    out.push(None);
                    continue;
                };
                let mut f = f.clone();
                if f.used == Use::Any {
                    f.used = Use::Never;
                }
                let got = pick(db, &f, *n, Some(id))?;
                if got.len() < *n {
                    return Err(UsageError(format!(
                        "section {}: library {name} holds {} puzzle(s) that match and that no book holds, not {n}; \
                         nothing was recorded",
                        k + 1,
                        got.len()
                    ))
                    .into());
                }
                let rows: Vec<Vec<Val>> = got
                    .iter()
                    .enumerate()
                    .map(|(i, p)| vec![Val::Int(id), Val::Int(p.row), Val::Int(k as i64), Val::Int(i as i64 + 1)])
                    .collect();
                db.exec_many("INSERT INTO uses (book, puzzle, section, number) VALUES (?1, ?2, ?3, ?4)", &rows)?;
                out.push(Some(got));
            }
            Ok((out, true))
        };
        if keep {
            self.write(go)
        } else {
            self.db.begin_write()?;
            let r = go(self.db.as_mut());
            self.db.rollback()?;
            r
        }
    }

    /// Undo a book that was never printed: its puzzles are free again. The puzzles it held.
    pub fn release(&mut self, name: &str) -> Result<usize> {
        let lib = self.name().to_string();
        self.write(|db| {
            let had = db.rows("SELECT id FROM books WHERE name = ?1", &[Val::from(name)])?;
            let Some(row) = had.first() else {
                return Err(UsageError(format!(
                    "library {lib} holds no book \"{name}\": `puzzle-factory library books` lists them"
                ))
                .into());
            };
            let id = row[0].int();
            let n = db.exec("DELETE FROM uses WHERE book = ?1", &[Val::Int(id)])?;
            db.exec("DELETE FROM books WHERE id = ?1", &[Val::Int(id)])?;
            Ok(n)
        })
    }

    /// Every book: name, title, ISBN, date, puzzles.
    pub fn books(&mut self) -> Result<Vec<(Book, i64)>> {
        let rows = self.rows(
            "SELECT b.name, b.title, b.isbn, b.date, b.plan, (SELECT count(*) FROM uses u WHERE u.book = b.id) FROM \
             books b ORDER BY b.date, b.id",
            &[],
        )?;
        Ok(rows
            .into_iter()
            .map(|r| {
                (
                    Book {
                        name: r[0].text(),
                        title: r[1].text(),
                        isbn: r[2].text(),
                        date: r[3].text(),
                        plan: r[4].text(),
                    },
                    r[5].int(),
                )
            })
            .collect())
    }

    /// The puzzle ids a book holds, in section and number order.
    pub fn book_puzzles(&mut self, name: &str) -> Result<Vec<(i64, i64, String)>> {
        let rows = self.rows(
            "SELECT u.section, u.number, r.run, p.idx FROM uses u JOIN books bk ON bk.id = u.book JOIN puzzles p ON p.id \
             = u.puzzle JOIN runs r ON r.id = p.run WHERE bk.name = ?1 ORDER BY u.section, u.number",
            &[Val::from(name)],
        )?;
        Ok(rows.into_iter().map(|r| (r[0].int(), r[1].int(), format!("{}-{}", r[2].text(), r[3].int()))).collect())
    }

    /// Per kind, shape and grade: puzzles, and how many of them a book holds.
    pub fn stats(&mut self) -> Result<Vec<Stat>> {
        let rows = self.rows(
            "SELECT b.kind, b.shape, p.grade, count(*), CAST(sum(CASE WHEN EXISTS (SELECT 1 FROM uses u WHERE \
             u.puzzle = p.id) THEN 1 ELSE 0 END) AS BIGINT) FROM puzzles p JOIN boards b ON b.id = p.board GROUP BY \
             b.kind, b.shape, p.grade ORDER BY b.kind, b.shape, p.grade",
            &[],
        )?;
        Ok(rows
            .into_iter()
            .map(|r| (r[0].text(), r[1].text(), grade_name(r[2].int()), r[3].int(), r[4].int()))
            .collect())
    }

    /// Every puzzle the library holds, and every use of one by a book.
    pub fn totals(&mut self) -> Result<(i64, i64, i64)> {
        let r = self.rows(
            "SELECT (SELECT count(*) FROM puzzles), (SELECT count(*) FROM uses), (SELECT count(*) FROM books)",
            &[],
        )?;
        Ok((r[0][0].int(), r[0][1].int(), r[0][2].int()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn technique_patterns_escape_like_wildcards() {
        assert_eq!(like("x_wing"), "% x\\_wing %");
    }
}
