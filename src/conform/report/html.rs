//! `mark`'s web pages: the student's page (`NAME/report.html`), the text
//! page's sections under headings, its diffs marked, printable on A4; and
//! the class page (`index.html`): how the marks spread and which clauses
//! the class broke, as inline SVG plots, the submissions given zero, and
//! a table of every submission linking to its page.
//!
//! Nothing is loaded from anywhere: the style is in the page, the plots
//! are drawn here, and the table sorts with a few lines of script on top
//! of a page that reads the same without it. Every text from a
//! submission (names, compiler messages, the program's bytes as the
//! diffs show them) goes through one escaper, [`super::xml`], and only there.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::page;
// XML's five escapes are HTML's too: one escaper for both.
use super::xml as escape;
use crate::conform::clause::Clause;
use crate::conform::model::{Marked, NOT_OFFICIAL};

/// The longest text shown of any one piece of a page (a compiler's
/// messages, a diff): the JSON report holds it all.
const TEXT_CUT: usize = 64 * 1024;
/// Bars of a histogram of marks.
const BINS: usize = 10;

/// At most [`TEXT_CUT`] bytes of `text`, cut at a character, and
/// whether it was cut.
fn cut(text: &str) -> (&str, bool) {
    if text.len() <= TEXT_CUT {
        return (text, false);
    }
    let mut end = TEXT_CUT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (&text[..end], true)
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;\
padding:0 1rem;line-height:1.4;color:#111}h1{font-size:1.4rem}h2{font-size:1.1rem;\
border-bottom:1px solid #999;margin-top:1.5rem}pre{white-space:pre-wrap;overflow-wrap:anywhere;\
background:#f5f5f5;padding:.5rem;border:1px solid #ddd;font-size:.85rem}\
table{border-collapse:collapse;width:100%}th,td{border:1px solid #bbb;padding:.2rem .4rem;\
text-align:left;vertical-align:top}table.marks td:last-child{overflow-wrap:anywhere}\
th{background:#eee}td.n{text-align:right}\
.lost{font-weight:bold}.exp{background:#e6f4e6}.got{background:#fbe3e3}\
table.diff{table-layout:fixed;margin:-.5rem 0 .5rem}table.diff td{white-space:pre-wrap;\
overflow-wrap:anywhere;font-size:.85rem}mark{background:#ffd54f;outline:1px solid #000;\
font-weight:bold}\
.note{color:#444;font-style:italic}figure{overflow-x:auto;margin:1rem 0}\
svg{width:100%;max-width:36rem;height:auto}\
th button{all:unset;cursor:pointer}.wide{overflow-x:auto}\
@media print{@page{size:A4;margin:15mm}body{max-width:none}pre{font-size:8pt}}";

/// A whole page around `body`.
fn document(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// A section of the text page as preformatted text, with each diff's
/// pair of lines (`expected |` then `got      |` or `test's   |`) taken
/// out of it and shown side by side, the differing part of each marked.
fn section(out: &mut String, heading: &str, text: &str) {
    if text.trim().is_empty() {
        return;
    }
    let _ = writeln!(out, "<h2>{}</h2>", escape(heading));
    let (shown, was_cut) = cut(text);
    let lines: Vec<&str> = shown.lines().collect();
    let mut pre = String::new();
    let mut i = 0;
    while i < lines.len() {
        let pair = lines.get(i + 1).and_then(|next| diff_pair(lines[i], next));
        if let Some((expected, got, label)) = pair {
            flush_pre(out, &mut pre);
            side_by_side(out, expected, got, label);
            i += 2;
            continue;
        }
        let line = lines[i];
        let trimmed = line.trim_start();
        if trimmed.starts_with("FAIL ") || trimmed.contains("ERRORS") {
            let _ = writeln!(pre, "<span class=\"lost\">{}</span>", escape(line));
        } else {
            let _ = writeln!(pre, "{}", escape(line));
        }
        i += 1;
    }
    flush_pre(out, &mut pre);
    if was_cut {
        // The page stays small whatever a program printed: the rest is in
        // the files beside it, which `--out` writes.
        let _ = writeln!(
            out,
            "<p class=\"note\">… cut at {TEXT_CUT} bytes of {}: <a href=\"report.txt\">report.txt</a> \
             and <a href=\"report.json\">report.json</a> hold it all</p>",
            text.len()
        );
    }
}

/// Each of fuzzing's findings in full, as `fuzz` writes it: its example,
/// how the run differs and the case file; the text page lists only their
/// headings.
fn fuzz_findings(m: &Marked) -> String {
    let mut text = Vec::new();
    if let Some(c) = &m.correctness {
        let findings = c.fuzz.iter().flat_map(|f| &f.findings);
        // Numbered as the text page numbers them; a scored group again
        // is shown there, with its first case.
        for (i, finding) in findings.enumerate() {
            if !c.scored_again(finding) {
                let _ = super::text::finding(&mut text, i + 1, finding);
            }
        }
    }
    String::from_utf8_lossy(&text).trim_start().to_owned()
}

/// The two sides of a diff, if `first` and `second` are its lines, and
/// what the second side is called.
fn diff_pair<'a>(first: &'a str, second: &'a str) -> Option<(&'a str, &'a str, &'static str)> {
    let expected = first.trim_start().strip_prefix("expected | ")?;
    let second = second.trim_start();
    if let Some(got) = second.strip_prefix("got      | ") {
        Some((expected, got, "got"))
    } else {
        second
            .strip_prefix("test's   | ")
            .map(|got| (expected, got, "the test's"))
    }
}

fn flush_pre(out: &mut String, pre: &mut String) {
    if !pre.is_empty() {
        let _ = writeln!(out, "<pre>{}</pre>", pre.trim_end_matches('\n'));
        pre.clear();
    }
}

/// A diff's two lines side by side, the part where they differ (between
/// their common start and common end) marked in each.
fn side_by_side(out: &mut String, expected: &str, got: &str, label: &str) {
    let (a, b): (Vec<char>, Vec<char>) = (expected.chars().collect(), got.chars().collect());
    let start = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let end = (a[start..].iter().rev())
        .zip(b[start..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let marked = |chars: &[char]| {
        let text = |range: &[char]| escape(&range.iter().collect::<String>());
        let (head, rest) = chars.split_at(start);
        let (middle, tail) = rest.split_at(rest.len() - end);
        format!("{}<mark>{}</mark>{}", text(head), text(middle), text(tail))
    };
    let _ = writeln!(
        out,
        "<table class=\"diff\"><tr><th>expected</th><th>{label}</th></tr>\
         <tr><td class=\"exp\"><code>{}</code></td><td class=\"got\"><code>{}</code></td></tr></table>",
        marked(&a),
        marked(&b)
    );
}

/// The student's page: the marks first, with what each lost, then each
/// part of the text page under its heading.
pub fn student(m: &Marked) -> String {
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<h1>{}: {} of {}</h1>\n<p class=\"note\">{}</p>\n<p>suite: {}<br>made with: {}</p>",
        escape(&m.name),
        m.marks.total,
        m.marks.max,
        escape(NOT_OFFICIAL),
        escape(&m.suite.said()),
        escape(&m.made_with.said())
    );
    if let Some(why) = &m.marks.zeroed {
        let _ = writeln!(body, "<p class=\"lost\">zero: {}</p>", escape(why));
    }
    body.push_str(
        "<table class=\"marks\">\n<tr><th>part</th><th>score</th><th>of</th><th>based on</th></tr>\n",
    );
    for part in &m.marks.parts {
        let lost = if m.marks.counted(part) < part.max {
            " class=\"lost\""
        } else {
            ""
        };
        let _ = writeln!(
            body,
            "<tr{lost}><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            escape(part.id),
            m.marks.counted(part),
            part.max,
            escape(&part.basis)
        );
    }
    body.push_str("</table>\n");
    for (heading, text) in page::sections(m) {
        section(&mut body, heading, &text);
        if heading == "Correctness" {
            section(&mut body, "What fuzzing found", &fuzz_findings(m));
        }
    }
    document(&format!("{}: marks", m.name), &body)
}

/// A histogram of `values` (each from 0 to `max`) in [`BINS`] bars, as
/// SVG with its title and the count above each bar.
fn histogram(title: &str, values: &[f64], max: f64) -> String {
    // A bar for each tenth of the mark, from its lower end up to, not
    // including, the next; then one for the full mark alone, which a
    // marker looks for first.
    let mut counts = [0usize; BINS + 1];
    for &v in values {
        let share = if max > 0.0 { v / max } else { 0.0 };
        let bin = if share >= 1.0 {
            BINS
        } else {
            ((share * BINS as f64) as usize).min(BINS - 1)
        };
        counts[bin] += 1;
    }
    let most = counts.iter().copied().max().unwrap_or(0).max(1);
    let (w, h, bar) = (20 + (BINS + 1) * 40, 160, 40);
    let mut svg = format!(
        "<figure><svg viewBox=\"0 0 {w} {}\" role=\"img\" aria-label=\"{}\">\n",
        h + 40,
        escape(title)
    );
    for (i, &n) in counts.iter().enumerate() {
        let height = n * (h - 20) / most;
        let x = 20 + i * bar;
        let y = h - height;
        let _ = writeln!(
            svg,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{height}\" fill=\"#4a6fa5\" \
             stroke=\"#000\"/><text x=\"{}\" y=\"{}\" font-size=\"12\" \
             text-anchor=\"middle\">{n}</text>",
            bar - 4,
            x + (bar - 4) / 2,
            y.saturating_sub(3),
        );
        // The marks at the bars' edges, as on any histogram's axis; the
        // last bar is the full mark's own.
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
            x.saturating_sub(2),
            h + 16,
            round(max * i as f64 / BINS as f64),
        );
        if i == BINS {
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">full</text>",
                x + (bar - 4) / 2,
                h + 32,
            );
        }
    }
    let _ = writeln!(
        svg,
        "<line x1=\"18\" y1=\"{h}\" x2=\"{}\" y2=\"{h}\" stroke=\"#000\"/>",
        20 + (BINS + 1) * bar
    );
    let _ = writeln!(
        svg,
        "</svg><figcaption>{} (each bar from the mark at its left edge up to, not including, \
         the one at its right; the last, the full mark {}; the count above each)</figcaption></figure>",
        escape(title),
        round(max)
    );
    svg
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Horizontal bars: each label with its count, longest first, as SVG.
fn bars(title: &str, rows: &[(String, usize)]) -> String {
    let most = rows.iter().map(|r| r.1).max().unwrap_or(0).max(1);
    let (label, width, row) = (160, 260, 18);
    let mut svg = format!(
        "<figure><svg viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">\n",
        label + width + 40,
        rows.len() * row + 4,
        escape(title)
    );
    for (i, (name, n)) in rows.iter().enumerate() {
        let y = i * row;
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{}</text>\
             <rect x=\"{label}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#a54a4a\" \
             stroke=\"#000\"/><text x=\"{}\" y=\"{}\" font-size=\"11\">{n}</text>",
            label - 4,
            y + 13,
            escape(name),
            y + 2,
            n * width / most,
            row - 4,
            label + n * width / most + 4,
            y + 13,
        );
    }
    let _ = writeln!(
        svg,
        "</svg><figcaption>{}</figcaption></figure>",
        escape(title)
    );
    svg
}

/// The script that sorts the table by a column clicked: the page reads
/// the same without it.
const SORT: &str = "<script>\ndocument.querySelectorAll('th button').forEach((b, col) => {\n\
  b.addEventListener('click', () => {\n\
    const body = document.querySelector('#class tbody');\n\
    const rows = Array.from(body.rows);\n\
    const key = r => r.cells[col].dataset.v ?? r.cells[col].textContent;\n\
    const num = rows.every(r => key(r) !== '' && !isNaN(key(r)));\n\
    const down = b.dataset.down !== '1';\n\
    b.dataset.down = down ? '1' : '0';\n\
    rows.sort((x, y) => {\n\
      const [a, c] = [key(x), key(y)];\n\
      const d = num ? a - c : a.localeCompare(c);\n\
      return down ? d : -d;\n\
    });\n\
    rows.forEach(r => body.appendChild(r));\n\
  });\n\
});\n</script>\n";

/// The class page: how the marks spread, the clauses the class broke,
/// who got zero and why, and every submission with a link to its page.
pub fn class(all: &[Marked]) -> String {
    let mut body = String::new();
    let max = all.first().map_or(0.0, |m| m.marks.max);
    let _ = writeln!(
        body,
        "<h1>{} submissions, each out of {max}</h1>\n<p class=\"note\">{}</p>",
        all.len(),
        escape(NOT_OFFICIAL)
    );
    if let Some(m) = all.first() {
        let _ = writeln!(
            body,
            "<p>suite: {}<br>made with: {}</p>",
            escape(&m.suite.said()),
            escape(&m.made_with.said())
        );
    }
    body.push_str("<h2>How the marks spread</h2>\n");
    let totals: Vec<f64> = all.iter().map(|m| m.marks.total).collect();
    body.push_str(&histogram("totals", &totals, max));
    let mut parts: BTreeMap<&str, (f64, Vec<f64>)> = BTreeMap::new();
    for m in all {
        for p in &m.marks.parts {
            let entry = parts.entry(p.id).or_insert((p.max, Vec::new()));
            entry.1.push(m.marks.counted(p));
        }
    }
    for (id, (part_max, scores)) in &parts {
        body.push_str(&histogram(id, scores, *part_max));
    }
    write_clauses(&mut body, all);
    write_zeros(&mut body, all);
    write_table(&mut body, all);
    body.push_str(SORT);
    document("the class's marks", &body)
}

/// For each clause, how many submissions fail a case under it: the
/// assignment's rules apart from this contract's decisions.
fn write_clauses(body: &mut String, all: &[Marked]) {
    let mut rules: BTreeMap<&str, usize> = BTreeMap::new();
    let mut decisions: BTreeMap<&str, usize> = BTreeMap::new();
    for m in all {
        let Some(c) = &m.correctness else { continue };
        let mut seen: Vec<(&str, bool)> = Vec::new();
        for f in &c.failures {
            let key = (
                f.clause.map_or("(no clause found)", Clause::id),
                f.depends_on_decisions,
            );
            if !seen.contains(&key) {
                seen.push(key);
            }
        }
        // A program still running at end of input is not run on the cases
        // that end mid-game: it breaks EOF-EXIT all the same.
        let eof = (Clause::EofExit.id(), true);
        if c.not_run_at_end_of_input > 0 && !seen.contains(&eof) {
            seen.push(eof);
        }
        for (clause, decided) in seen {
            *if decided { &mut decisions } else { &mut rules }
                .entry(clause)
                .or_default() += 1;
        }
    }
    for (title, counts) in [
        ("The assignment's rules broken", rules),
        (
            "This contract's decisions not followed (not scored)",
            decisions,
        ),
    ] {
        let _ = writeln!(body, "<h2>{title}</h2>");
        if counts.is_empty() {
            body.push_str("<p>none</p>\n");
            continue;
        }
        let mut rows: Vec<(String, usize)> =
            counts.into_iter().map(|(k, n)| (k.to_owned(), n)).collect();
        rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        body.push_str(&bars("submissions failing a case under each clause", &rows));
        body.push_str("<table>\n<tr><th>clause</th><th>submissions</th></tr>\n");
        for (clause, n) in &rows {
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td class=\"n\">{n}</td></tr>",
                escape(clause)
            );
        }
        body.push_str("</table>\n");
    }
}

fn write_zeros(body: &mut String, all: &[Marked]) {
    body.push_str("<h2>Given zero</h2>\n");
    let zeros: Vec<&Marked> = all.iter().filter(|m| m.marks.zeroed.is_some()).collect();
    if zeros.is_empty() {
        body.push_str("<p>none</p>\n");
        return;
    }
    body.push_str("<ul>\n");
    for m in zeros {
        let _ = writeln!(
            body,
            "<li><a href=\"{}/report.html\">{}</a>: {}</li>",
            escape(&link(&m.name)),
            escape(&m.name),
            escape(m.marks.zeroed.as_deref().unwrap_or(""))
        );
    }
    body.push_str("</ul>\n");
}

/// A submission's name as a relative link: each byte that could end or
/// redirect the path (`/`, `?`, `#`, `%`, spaces, quotes) percent-encoded.
fn link(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

fn write_table(body: &mut String, all: &[Marked]) {
    body.push_str(
        "<h2>Every submission</h2>\n<div class=\"wide\">\n<table id=\"class\">\n<thead><tr>",
    );
    let ids: Vec<&str> = all
        .first()
        .map(|m| m.marks.parts.iter().map(|p| p.id).collect())
        .unwrap_or_default();
    let mut columns = vec!["name", "compiles", "memory"];
    columns.extend(&ids);
    columns.extend(["total", "seconds"]);
    for c in &columns {
        let _ = write!(
            body,
            "<th><button type=\"button\">{}</button></th>",
            escape(c)
        );
    }
    body.push_str("</tr></thead>\n<tbody>\n");
    for m in all {
        let _ = write!(
            body,
            "<tr><td><a href=\"{}/report.html\">{}</a></td><td>{}</td><td>{}</td>",
            escape(&link(&m.name)),
            escape(&m.name),
            page::compiles_word(m),
            page::memory_word(m)
        );
        for id in &ids {
            let score = m
                .marks
                .score_of(id)
                .map_or(String::new(), |s| s.to_string());
            let _ = write!(body, "<td class=\"n\">{score}</td>");
        }
        let _ = writeln!(
            body,
            "<td class=\"n\">{}</td><td class=\"n\">{:.1}</td></tr>",
            m.marks.total,
            m.took.as_secs_f64()
        );
    }
    body.push_str("</tbody>\n</table>\n</div>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conform::model::{Build, Correctness, Failure, Marks, Part};

    /// A submission whose name, compiler messages and output hold markup.
    fn hostile() -> Marked {
        Marked {
            name: "<script>alert(1)</script>".to_owned(),
            build: Build {
                compiled: true,
                command: "gcc gitm.c".to_owned(),
                messages: "gitm.c:1: </pre><script>alert(2)</script>\n".to_owned(),
                ..Build::default()
            },
            correctness: Some(Correctness {
                failures: vec![Failure {
                    case: "a.in".to_owned(),
                    reason: "stdout".to_owned(),
                    clause: Some(Clause::CmdWho),
                    depends_on_decisions: false,
                    detail:
                        "    expected | B⏎\n    got      | </pre><img src=x onerror=alert(3)>⏎\n"
                            .to_owned(),
                    hint: Some("</pre><script>alert(4)</script>".to_owned()),
                    failure: None,
                }],
                ..Correctness::default()
            }),
            marks: Marks {
                total: 0.0,
                max: 10.0,
                parts: vec![Part {
                    id: "correctness",
                    score: 0.0,
                    max: 10.0,
                    basis: "<b>".to_owned(),
                }],
                zeroed: None,
            },
            ..Marked::default()
        }
    }

    #[test]
    fn a_program_still_running_at_end_of_input_counts_under_eof_exit() {
        let hangs = Marked {
            name: "hangs".into(),
            correctness: Some(Correctness {
                not_run_at_end_of_input: 4,
                ..Correctness::default()
            }),
            ..Marked::default()
        };
        let mut body = String::new();
        write_clauses(&mut body, &[hangs]);
        let decisions = body
            .split("decisions not followed")
            .nth(1)
            .expect("decisions");
        assert!(
            decisions.contains("<tr><td>EOF-EXIT</td><td class=\"n\">1</td></tr>"),
            "{body}"
        );
        let rules = body.split("decisions not followed").next().expect("rules");
        assert!(rules.contains("<p>none</p>"), "{body}");
    }

    #[test]
    fn a_students_bytes_name_and_compiler_messages_never_become_markup() {
        let m = hostile();
        for page in [student(&m), class(std::slice::from_ref(&m))] {
            for markup in ["<script>alert", "</pre><script>", "<img", "<b>"] {
                assert!(!page.contains(markup), "{markup} in:\n{page}");
            }
            // The page's own markup is all there is: one <pre> closed per
            // one opened, and the only script the class page's own.
            assert_eq!(
                page.matches("<pre>").count(),
                page.matches("</pre>").count()
            );
            assert!(page.matches("<script>").count() <= 1, "{page}");
        }
        let page = student(&m);
        assert!(
            page.contains("&lt;/pre&gt;&lt;script&gt;alert(2)"),
            "{page}"
        );
        assert!(
            page.contains("<td class=\"got\"><code><mark>&lt;/pre&gt;&lt;img"),
            "{page}"
        );
        assert!(
            page.contains("likely cause: &lt;/pre&gt;&lt;script&gt;alert(4)"),
            "{page}"
        );
        let class = class(std::slice::from_ref(&m));
        assert!(
            class.contains("href=\"%3Cscript%3Ealert%281%29%3C%2Fscript%3E/report.html\""),
            "{class}"
        );
    }

    #[test]
    fn a_long_output_is_cut_and_says_so() {
        let mut m = hostile();
        m.build.messages = "x".repeat(10 * TEXT_CUT);
        let page = student(&m);
        assert!(page.len() < 3 * TEXT_CUT, "{}", page.len());
        assert!(
            page.contains("… cut at 65536 bytes of 6553")
                && page.contains(": <a href=\"report.txt\">report.txt</a> and"),
            "{}",
            &page[page.len() - 300..]
        );
    }

    #[test]
    fn a_diff_is_shown_side_by_side_with_the_differing_part_marked() {
        let mut out = String::new();
        let text = "FAIL a.in\n    line 1   | x\n    expected | Invalid coordinate⏎\n    \
                    got      | Invalid!⏎\n  next\n    expected | B⏎\n    test's   | B⏎<\n";
        section(&mut out, "Correctness", text);
        assert_eq!(out.matches("<table class=\"diff\">").count(), 2, "{out}");
        assert!(
            out.contains(
                "<td class=\"exp\"><code>Invalid<mark> coordinate</mark>⏎</code></td>\
                 <td class=\"got\"><code>Invalid<mark>!</mark>⏎</code></td>"
            ),
            "{out}"
        );
        // The student's test is named as such; what one side lacks is an
        // empty mark there.
        assert!(out.contains("<th>the test's</th>"), "{out}");
        assert!(
            out.contains(
                "<code>B⏎<mark></mark></code></td><td class=\"got\"><code>B⏎<mark>&lt;</mark>"
            ),
            "{out}"
        );
        // The lines around stay preformatted, in order.
        let fail = out.find("FAIL a.in").expect("FAIL");
        let next = out.find("  next").expect("next");
        assert!(
            fail < out.find("Invalid").expect("diff") && out.find("Invalid").expect("diff") < next
        );
    }

    #[test]
    fn the_histogram_counts_each_value_once_the_full_mark_in_a_bar_of_its_own() {
        // Each bar's count above it, then the mark at its left edge; the
        // last bar, the full mark's, also says so.
        fn texts(svg: &str) -> Vec<&str> {
            let pieces: Vec<&str> = svg.split("</text>").collect();
            (pieces[..pieces.len() - 1].iter())
                .filter_map(|t| t.rsplit_once('>'))
                .map(|(_, text)| text)
                .collect()
        }
        let svg = histogram("totals", &[0.0, 5.0, 8.0, 8.23, 9.5, 10.0, 10.0], 10.0);
        assert_eq!(svg.matches("<rect").count(), BINS + 1);
        let shown = texts(&svg);
        let counts: Vec<&str> = shown.iter().step_by(2).take(BINS + 1).copied().collect();
        assert_eq!(
            counts,
            ["1", "0", "0", "0", "0", "1", "0", "0", "2", "1", "2"],
            "{svg}"
        );
        let edges: Vec<&str> = shown
            .iter()
            .skip(1)
            .step_by(2)
            .take(BINS + 1)
            .copied()
            .collect();
        assert_eq!(
            edges,
            ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
            "{svg}"
        );
        assert_eq!(shown.last(), Some(&"full"));
        // 8 of 8 is the full mark, not "7.2 and up".
        let eight = histogram("correctness", &[8.0], 8.0);
        let eight = texts(&eight);
        assert_eq!(eight[18..], ["0", "7.2", "1", "8", "full"], "{eight:?}");
    }
}
