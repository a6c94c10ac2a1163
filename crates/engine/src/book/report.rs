//! The calibration report: `report.md` with SVG plots beside it, for a generate run (from its
//! calibration statistics) and for a calibrate run (from the rated reference puzzles).
//!
//! Plots (plotters, SVG backend, no font stack needed): the step-count histogram per grade
//! with the thresholds k1 < k2 < k3 drawn as vertical lines (log step axis: the scale spans
//! orders of magnitude), the share of puzzles per grade that used each technique, and for a
//! calibrate run the steps per reference level as box plots with the thresholds as horizontal
//! lines.

use super::atomic::AtomicFile;
use super::calibration::{Calibration, StepHistogram};
use super::exact;
use anyhow::Result;
use pf_core::grade::{Grade, Thresholds};
use plotters::prelude::*;
use std::io::Write as _;
use std::path::Path;

const GRADE_COLOURS: [RGBColor; 4] =
    [RGBColor(76, 175, 80), RGBColor(33, 150, 243), RGBColor(255, 152, 0), RGBColor(183, 28, 28)];
const THRESHOLD_COLOUR: RGBColor = RGBColor(90, 90, 90);

/// A step histogram: bin edges (steps, increasing; bin i is `edges[i]..edges[i + 1]`) and the
/// count of each bin. Empty when there is nothing to show.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Histogram {
    pub edges: Vec<f64>,
    pub counts: Vec<u64>,
}

impl Histogram {
    /// Bin `values` as `calibration.json` does (`exact::log_edges`: at most 40 log-spaced bins,
    /// to 0.01 steps) between `lo` and `hi`; values outside go to the first or last bin.
    pub fn of(values: &[f64], lo: f64, hi: f64) -> Histogram {
        let edges = exact::log_edges(exact::centi(lo), exact::centi(hi));
        let mut counts = vec![0u64; edges.len() - 1];
        for &v in values {
            let bin = edges.partition_point(|&e| e <= exact::centi(v)).clamp(1, counts.len());
            counts[bin - 1] += 1;
        }
        Histogram { edges: edges.iter().map(|&e| e as f64 / 100.0).collect(), counts }
    }
}

impl From<&StepHistogram> for Histogram {
    /// The file's bins; none when edges and counts do not fit together (a hand-edited file).
    fn from(h: &StepHistogram) -> Histogram {
        if h.edges.len() != h.counts.len() + 1 {
            return Histogram::default();
        }
        Histogram { edges: h.edges.clone(), counts: h.counts.clone() }
    }
}

/// What a report shows.
pub struct Report {
    pub title: String,
    /// Markdown shown above the plots (the run's figures).
    pub summary: String,
    pub thresholds: Thresholds,
    /// Per grade, in `Grade::ALL` order.
    pub histograms: [Histogram; 4],
    /// Technique names, and per grade the number of puzzles and how many used each technique.
    pub techniques: Vec<String>,
    pub grade_counts: [u64; 4],
    pub usage: [Vec<u64>; 4],
    /// Reference level names and the step counts of each (calibrate only).
    pub levels: Option<(Vec<String>, Vec<Vec<f64>>)>,
}

fn plot_err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing a plot: {e:?}")
}

/// Render an SVG into a string (plotters draws into a string buffer; the file is then written
/// atomically like every other output).
fn svg(
    size: (u32, u32),
    draw: impl FnOnce(DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<()>,
) -> Result<String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        draw(root.clone())?;
        root.present().map_err(plot_err)?;
    }
    Ok(out)
}

/// The steps axis (log scale) and the tallest bar: every non-empty bin and every threshold in
/// view, the axis starting no lower than 0.45 steps.
fn steps_axis(r: &Report) -> (f64, f64, u64) {
    let mut lo = f64::INFINITY;
    let mut hi: f64 = 0.0;
    let mut top = 1u64;
    for h in &r.histograms {
        let filled = |c: &u64| *c > 0;
        if let (Some(first), Some(last)) = (h.counts.iter().position(filled), h.counts.iter().rposition(filled)) {
            lo = lo.min(h.edges[first]);
            hi = hi.max(h.edges[last + 1]);
            top = top.max(h.counts[first..=last].iter().copied().max().unwrap_or(0));
        }
    }
    let k = r.thresholds.k();
    if !lo.is_finite() {
        (lo, hi) = (k[0] / 2.0, k[2] * 2.0);
    }
    (lo.min(k[0]).max(0.5) * 0.9, hi.max(k[2]) * 1.1, top)
}

fn steps_histogram(r: &Report) -> Result<String> {
    let (lo, hi, top) = steps_axis(r);
    let k = r.thresholds.k();
    // The narrowest bar drawn: 1/200 of the axis, so a bin of 0.01 steps (one value) shows.
    let narrowest = (hi / lo).powf(1.0 / 200.0);
    svg((900, 480), |root| {
        let mut chart = ChartBuilder::on(&root)
            .caption("Step count per grade, with the thresholds", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((lo..hi).log_scale(), 0u64..top + top / 10 + 1)
            .map_err(plot_err)?;
        chart.configure_mesh().x_desc("steps (log scale)").y_desc("puzzles").draw().map_err(plot_err)?;
        for (g, h) in r.histograms.iter().enumerate() {
            let colour = GRADE_COLOURS[g];
            let bars = h.counts.iter().enumerate().filter(|(_, &c)| c > 0).map(move |(i, &c)| {
                let x0 = h.edges[i].clamp(lo, hi);
                let x1 = h.edges[i + 1].max(x0 * narrowest).min(hi);
                Rectangle::new([(x0, 0), (x1, c)], colour.mix(0.6).filled())
            });
            chart
                .draw_series(bars)
                .map_err(plot_err)?
                .label(format!("{} ({})", Grade::ALL[g].name(), r.grade_counts[g]))
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        }
        for (i, &kv) in k.iter().enumerate() {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(kv, 0), (kv, top + top / 10)],
                    THRESHOLD_COLOUR.stroke_width(2),
                )))
                .map_err(plot_err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("k{}={kv:.0}", i + 1),
                    (kv, top + top / 10),
                    ("sans-serif", 13).into_font().color(&THRESHOLD_COLOUR),
                )))
                .map_err(plot_err)?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(plot_err)?;
        Ok(())
    })
}

fn technique_usage(r: &Report) -> Result<String> {
    let n = r.techniques.len();
    let height = 120 + 26 * n as u32;
    svg((900, height), |root| {
        let mut chart = ChartBuilder::on(&root)
            .caption("Share of puzzles per grade that used each technique", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(190)
            .build_cartesian_2d(0f64..1.0, -0.5f64..n as f64 - 0.5)
            .map_err(plot_err)?;
        let names = r.techniques.clone();
        chart
            .configure_mesh()
            .y_labels(n + 1)
            .y_label_formatter(&move |y| {
                // Technique t sits at y = n - 1 - t, its bars grouped around the tick.
                let i = y.round();
                if (y - i).abs() < 0.01 && (0.0..n as f64).contains(&i) {
                    names[n - 1 - i as usize].clone()
                } else {
                    String::new()
                }
            })
            .x_desc("share of the grade's puzzles")
            .draw()
            .map_err(plot_err)?;
        for g in 0..4 {
            let colour = GRADE_COLOURS[g];
            let total = r.grade_counts[g].max(1) as f64;
            let bars = r.usage[g].iter().enumerate().map(move |(t, &u)| {
                let y0 = (n - 1 - t) as f64 + 0.4 - (g + 1) as f64 * 0.2;
                Rectangle::new([(0.0, y0), (u as f64 / total, y0 + 0.18)], colour.filled())
            });
            chart
                .draw_series(bars)
                .map_err(plot_err)?
                .label(Grade::ALL[g].name())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .position(SeriesLabelPosition::LowerRight)
            .draw()
            .map_err(plot_err)?;
        Ok(())
    })
}

fn level_boxes(r: &Report, names: &[String], steps: &[Vec<f64>]) -> Result<String> {
    svg((900, 480), |root| {
        level_panel(
            &root,
            "Steps per reference level (box: quartiles; whiskers: 5th–95th percentile)",
            names,
            steps,
            r.thresholds.k(),
        )
    })
}

/// One panel of `size_panels`: its title, the reference level names, the steps of the puzzles
/// at each level, and that size's thresholds.
pub type Panel = (String, Vec<String>, Vec<Vec<f64>>, [f64; 3]);

/// Steps against reference level, one panel per grid size (`calibrate` on several sizes): each
/// panel the box plot of `level_boxes` with that size's thresholds.
pub fn size_panels(panels: &[Panel]) -> Result<String> {
    let cols = panels.len().clamp(1, 3);
    let rows = panels.len().div_ceil(cols).max(1);
    svg((420 * cols as u32, 320 * rows as u32), |root| {
        let areas = root.split_evenly((rows, cols));
        for ((title, names, steps, k), area) in panels.iter().zip(areas) {
            level_panel(&area, title, names, steps, *k)?;
        }
        Ok(())
    })
}

fn level_panel(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    caption: &str,
    names: &[String],
    steps: &[Vec<f64>],
    k: [f64; 3],
) -> Result<()> {
    let all: Vec<f64> = steps.iter().flatten().copied().collect();
    let lo = all.iter().copied().fold(k[0], f64::min).max(0.5) * 0.8;
    let hi = all.iter().copied().fold(k[2], f64::max) * 1.2;
    let n = names.len();
    let mut chart = ChartBuilder::on(area)
        .caption(caption, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5f64..n as f64 - 0.5, (lo..hi).log_scale())
        .map_err(plot_err)?;
    let labels = names.to_vec();
    chart
        .configure_mesh()
        .x_labels(n)
        .x_label_formatter(&move |x| {
            let i = x.round();
            if (x - i).abs() < 0.01 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_desc("steps (log scale)")
        .x_desc("reference level")
        .draw()
        .map_err(plot_err)?;
    for (i, xs) in steps.iter().enumerate() {
        if xs.is_empty() {
            continue;
        }
        let mut v = xs.clone();
        v.sort_by(f64::total_cmp);
        let q = |p: f64| v[((p * (v.len() - 1) as f64).round() as usize).min(v.len() - 1)];
        let x = i as f64;
        let style = BLUE.stroke_width(2);
        chart
            .draw_series(std::iter::once(Rectangle::new([(x - 0.3, q(0.25)), (x + 0.3, q(0.75))], style)))
            .map_err(plot_err)?;
        chart
            .draw_series([
                PathElement::new(vec![(x - 0.3, q(0.5)), (x + 0.3, q(0.5))], BLACK.stroke_width(3)),
                PathElement::new(vec![(x, q(0.05)), (x, q(0.25))], style),
                PathElement::new(vec![(x, q(0.75)), (x, q(0.95))], style),
            ])
            .map_err(plot_err)?;
    }
    for (i, &kv) in k.iter().enumerate() {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, kv), (n as f64 - 0.5, kv)],
                THRESHOLD_COLOUR.stroke_width(2),
            )))
            .map_err(plot_err)?;
        chart
            .draw_series(std::iter::once(Text::new(
                format!("k{}={kv:.0}", i + 1),
                (-0.45, kv),
                ("sans-serif", 13).into_font().color(&THRESHOLD_COLOUR),
            )))
            .map_err(plot_err)?;
    }
    Ok(())
}

/// Write `report.md` and its SVGs into `dir`, each file atomically.
pub fn write(dir: &Path, r: &Report) -> Result<()> {
    let mut files: Vec<(&str, String)> =
        vec![("steps-by-grade.svg", steps_histogram(r)?), ("technique-usage.svg", technique_usage(r)?)];
    if let Some((names, steps)) = &r.levels {
        files.push(("level-steps.svg", level_boxes(r, names, steps)?));
    }
    let [k1, k2, k3] = r.thresholds.k();
    let mut md = format!("# {}\n\n{}\n\n", r.title, r.summary.trim_end());
    md += &format!(
        "Thresholds: k1 = {k1:.2}, k2 = {k2:.2}, k3 = {k3:.2}; hardest-level floor {:?} (0 = off).\n\n",
        r.thresholds.floor()
    );
    md += "| grade | puzzles |\n| --- | --- |\n";
    for (g, n) in Grade::ALL.iter().zip(r.grade_counts) {
        md += &format!("| {} | {n} |\n", g.name());
    }
    md += "\n";
    for (name, _) in &files {
        md += &format!("![{}]({name})\n\n", name.trim_end_matches(".svg").replace('-', " "));
    }
    for (name, body) in &files {
        AtomicFile::write_all(dir, name, body.as_bytes())?; // its errors name the file
    }
    let mut f = AtomicFile::create(dir, "report.md")?;
    f.writer().write_all(md.as_bytes()).map_err(|e| super::atomic::named(e, &dir.join("report.md")))?;
    f.commit()?;
    Ok(())
}

/// A report for a generate run, read off its calibration.json.
/// The report of a run (`generate`, or the shards of one run `merge`d) with master seed `seed`,
/// written into `dir`: the same text and plots from the same calibration.
pub fn write_run<K: pf_core::kind::Kind>(
    dir: &Path,
    seed: u64,
    thresholds: Thresholds,
    cal: &Calibration,
) -> Result<()> {
    let summary = format!(
        "Run of {} candidates, master seed {seed}, kind {}: {} accepted; figures in calibration.json.",
        cal.candidates.tried,
        K::NAME,
        cal.candidates.accepted
    );
    let title = format!("puzzle-factory {} calibration report", K::NAME);
    write(dir, &from_calibration(title, summary, thresholds, cal))
}

pub(crate) fn from_calibration(title: String, summary: String, thresholds: Thresholds, cal: &Calibration) -> Report {
    let grades = cal.grades.as_array();
    let techniques: Vec<String> = cal.all.techniques.iter().map(|(name, _)| name.to_string()).collect();
    let usage =
        grades.map(|g| techniques.iter().map(|t| g.techniques.get(t).map_or(0, |u| u.puzzles)).collect::<Vec<u64>>());
    Report {
        title,
        summary,
        thresholds,
        histograms: grades.map(|g| Histogram::from(&g.histogram)),
        techniques,
        grade_counts: grades.map(|g| g.count),
        usage,
        levels: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::exact::Exact;

    /// A report whose grade `g` holds `values`, binned as calibration.json bins them.
    fn report_with(g: usize, values: &[f64]) -> Report {
        let mut histograms: [Histogram; 4] = Default::default();
        if let Some(e) = Exact::of_steps(values) {
            histograms[g] = Histogram::from(&e.histogram());
        }
        let mut grade_counts = [0; 4];
        grade_counts[g] = values.len() as u64;
        Report {
            title: "t".into(),
            summary: String::new(),
            thresholds: Thresholds::new(256.8, 766.9, 5015.5).unwrap(),
            histograms,
            techniques: vec!["a".into()],
            grade_counts,
            usage: Default::default(),
            levels: None,
        }
    }

    /// The histogram bars in the SVG (legend boxes are opaque, bars are not) with a visible width.
    fn bars(svg: &str) -> usize {
        let doc = roxmltree::Document::parse(svg).expect("valid SVG");
        doc.descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("opacity") == Some("0.6"))
            .filter(|n| n.attribute("width").and_then(|w| w.parse::<f64>().ok()).is_some_and(|w| w >= 1.0))
            .count()
    }

    #[test]
    fn kakuro_scale_steps_are_drawn() {
        // 15×15 Kakuro: ~10^5 to 10^6 steps, far beyond the old 20,000 fine bins.
        let values: Vec<f64> = (0..500).map(|i| 1e5 * 10f64.powf(i as f64 / 499.0) + 0.37).collect();
        let r = report_with(3, &values);
        let filled = r.histograms[3].counts.iter().filter(|&&c| c > 0).count();
        assert!(filled >= 30, "{filled}");
        assert_eq!(bars(&steps_histogram(&r).unwrap()), filled);
    }

    #[test]
    fn a_single_puzzle_is_drawn() {
        for (g, v) in [(0, 0.0), (0, 12.34), (3, 4e5), (3, 1e7)] {
            let r = report_with(g, &[v]);
            assert_eq!(r.histograms[g].counts, [1]);
            assert_eq!(bars(&steps_histogram(&r).unwrap()), 1, "one puzzle of {v} steps");
        }
        assert_eq!(bars(&steps_histogram(&report_with(0, &[])).unwrap()), 0);
    }

    #[test]
    fn histogram_of_matches_the_calibration_bins() {
        let values = [3.0, 5.5, 5.5, 80.25, 1000.0];
        let h = Histogram::of(&values, 3.0, 1000.0);
        assert_eq!(h, report_with(0, &values).histograms[0]);
        assert_eq!(h.counts.iter().sum::<u64>(), 5);
    }
}
