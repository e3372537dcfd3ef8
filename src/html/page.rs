//! The page skeleton: escaping, the inline style and script, and a builder that
//! appends headings, paragraphs, tables, preformatted text and pictures, each element
//! opened and closed in one call so that the tags always balance.

use std::fmt::Write as _;

pub use crate::plot::escape;

/// The page's style: readable tables, numbers aligned, wide content scrolled inside its
/// box rather than stretching the page.
const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;\
margin:0;background:#fafafa;color:#1a1a1a;line-height:1.4}
main{max-width:1120px;margin:0 auto;padding:16px 24px 48px;background:#fff}
h1{font-size:1.5em;margin:.4em 0 .2em}
h2{font-size:1.2em;margin:1.6em 0 .5em;padding-bottom:.2em;border-bottom:1px solid #ddd}
h3{font-size:1em;margin:1.2em 0 .4em}
.box{overflow-x:auto;max-width:100%}
.tall{max-height:460px;overflow-y:auto;border:1px solid #ddd;display:inline-block}
table{border-collapse:collapse;font-size:.9em;margin:.2em 0}
th,td{padding:3px 10px;border-bottom:1px solid #e4e4e4;text-align:left;white-space:nowrap}
th{background:#f0f3f6;position:sticky;top:0}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
td.w{white-space:normal;min-width:18em}
pre.wrap{white-space:pre-wrap}
table.facts th{background:none;position:static;color:#555;font-weight:600;vertical-align:top}
table.facts td{white-space:normal}
table.sortable th{cursor:pointer}
table.sortable th:hover{background:#e2e8ee}
tr.miss td{background:#fff4e0}
tr.fail td{background:#fde4e4}
td.verdict{font-weight:600}
pre{background:#f6f8fa;border:1px solid #e4e4e4;padding:8px 10px;overflow-x:auto;font-size:.85em;\
line-height:1.3;font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace}
code{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.9em}
p.cmd{background:#f6f8fa;border:1px solid #e4e4e4;padding:6px 10px;overflow-x:auto;white-space:nowrap}
.warn{background:#fff4e0;border-left:4px solid #d58a00;padding:6px 10px;margin:.4em 0}
.error{background:#fde4e4;border-left:4px solid #c62828;padding:6px 10px;margin:.4em 0}
.figs{display:flex;flex-wrap:wrap;gap:12px}
figure{margin:0;border:1px solid #e4e4e4;padding:4px;flex:0 1 800px;min-width:0}
figure.wide{flex-basis:920px}
figure svg{display:block;width:100%;height:auto}
figcaption{font-size:.8em;color:#666;padding:2px 4px}
details summary{cursor:pointer;color:#333}
";

/// Sorts a `table.sortable` by the clicked column (numbers as numbers), again to
/// reverse. Without script the table is a plain table. It has no `<` in it, so the
/// page's tags can be checked by counting.
const SCRIPT: &str = "\
document.querySelectorAll('table.sortable').forEach(function(t){
  t.querySelectorAll('thead th').forEach(function(th,i){
    th.title='sort';
    th.addEventListener('click',function(){
      var body=t.tBodies[0];
      var rows=Array.prototype.slice.call(body.rows);
      var down=th.getAttribute('data-dir')==='up';
      t.querySelectorAll('thead th').forEach(function(h){h.removeAttribute('data-dir');});
      th.setAttribute('data-dir',down?'down':'up');
      var key=function(r){var s=r.cells[i].textContent.replace(/[,%\\s]/g,'');var v=parseFloat(s);return isNaN(v)?s:v;};
      rows.sort(function(a,b){
        var x=key(a),y=key(b);
        var c=(typeof x==='number'&&typeof y==='number')?x-y:String(x).localeCompare(String(y));
        return down?-c:c;
      });
      rows.forEach(function(r){body.appendChild(r);});
    });
  });
});
";

/// A table to lay out: its header, its rows, which columns hold numbers (aligned
/// right) and whether a click on a header sorts it.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Column headers.
    pub head: Vec<String>,
    /// The rows, each with an optional class (`"miss"`, `"fail"`) and its cells.
    pub rows: Vec<(Option<&'static str>, Vec<String>)>,
    /// True for each column of numbers (missing: text).
    pub numeric: Vec<bool>,
    /// Sortable by clicking a column header (inline script).
    pub sortable: bool,
    /// Inside a box of limited height that scrolls (long tables).
    pub tall: bool,
    /// The last column's text wraps (long notes) instead of widening the table.
    pub wrap_last: bool,
}

impl Table {
    /// A table with header `head` and plain `rows`, numbers in the columns from
    /// `first_numeric` on.
    pub fn new(head: &[&str], rows: Vec<Vec<String>>, first_numeric: usize) -> Table {
        Table {
            numeric: (0..head.len()).map(|c| c >= first_numeric).collect(),
            head: head.iter().map(|h| h.to_string()).collect(),
            rows: rows.into_iter().map(|r| (None, r)).collect(),
            sortable: false,
            tall: false,
            wrap_last: false,
        }
    }
}

/// A page under construction: call its methods in reading order, then
/// [`Page::finish`].
#[derive(Clone, Debug)]
pub struct Page {
    title: String,
    body: String,
}

impl Page {
    /// An empty page titled `title` (the browser's tab, and the page's first heading).
    pub fn new(title: &str) -> Page {
        let mut page = Page {
            title: title.to_string(),
            body: String::new(),
        };
        page.heading(1, title);
        page
    }

    /// A heading of `level` (1 to 3).
    pub fn heading(&mut self, level: u8, text: &str) {
        let level = level.clamp(1, 3);
        let _ = writeln!(self.body, "<h{level}>{}</h{level}>", escape(text));
    }

    /// A paragraph of plain text.
    pub fn paragraph(&mut self, text: &str) {
        let _ = writeln!(self.body, "<p>{}</p>", escape(text));
    }

    /// A paragraph of class `class` (`"warn"`, `"error"`, `"cmd"`) holding `text`.
    pub fn note(&mut self, class: &str, text: &str) {
        let _ = writeln!(
            self.body,
            "<p class=\"{}\">{}</p>",
            escape(class),
            escape(text)
        );
    }

    /// A command line, shown as code on one line.
    pub fn command(&mut self, line: &str) {
        let _ = writeln!(
            self.body,
            "<p class=\"cmd\"><code>{}</code></p>",
            escape(line)
        );
    }

    /// Preformatted text (a text table, as the text report prints it).
    pub fn pre(&mut self, text: &str) {
        let _ = writeln!(self.body, "<pre>{}</pre>", escape(text.trim_end()));
    }

    /// Preformatted text whose long lines wrap (a table followed by a long note).
    pub fn pre_wrapped(&mut self, text: &str) {
        let _ = writeln!(
            self.body,
            "<pre class=\"wrap\">{}</pre>",
            escape(text.trim_end())
        );
    }

    /// Two columns of facts: a label and its text on each line.
    pub fn facts(&mut self, lines: &[(String, String)]) {
        self.body
            .push_str("<div class=\"box\"><table class=\"facts\">\n");
        for (label, text) in lines {
            let _ = writeln!(
                self.body,
                "<tr><th>{}</th><td>{}</td></tr>",
                escape(label),
                escape(text)
            );
        }
        self.body.push_str("</table></div>\n");
    }

    /// A table.
    pub fn table(&mut self, t: &Table) {
        let numeric = |c: usize| t.numeric.get(c).copied().unwrap_or(false);
        let last = t.head.len().saturating_sub(1);
        let class = |c: usize| {
            if numeric(c) {
                " class=\"n\""
            } else if t.wrap_last && c == last {
                " class=\"w\""
            } else {
                ""
            }
        };
        let boxed = if t.tall { "box tall" } else { "box" };
        let sortable = if t.sortable {
            " class=\"sortable\""
        } else {
            ""
        };
        let _ = writeln!(self.body, "<div class=\"{boxed}\"><table{sortable}>");
        self.body.push_str("<thead><tr>");
        for (c, h) in t.head.iter().enumerate() {
            let _ = write!(self.body, "<th{}>{}</th>", class(c), escape(h));
        }
        self.body.push_str("</tr></thead>\n<tbody>\n");
        for (row_class, cells) in &t.rows {
            match row_class {
                Some(rc) => {
                    let _ = write!(self.body, "<tr class=\"{}\">", escape(rc));
                }
                None => self.body.push_str("<tr>"),
            }
            for (c, cell) in cells.iter().enumerate() {
                let _ = write!(self.body, "<td{}>{}</td>", class(c), escape(cell));
            }
            self.body.push_str("</tr>\n");
        }
        self.body.push_str("</tbody>\n</table></div>\n");
    }

    /// Pictures, side by side where the page is wide enough, each at most as wide as
    /// drawn: each (file name, SVG text) inlined, captioned with the name `--plot` gives
    /// its file. A name in `wide` may take up to 920 pixels (the link heat map).
    pub fn figures(&mut self, svgs: &[(String, String)], wide: &[&str]) {
        if svgs.is_empty() {
            return;
        }
        self.body.push_str("<div class=\"figs\">\n");
        for (name, svg) in svgs {
            let class = if wide.contains(&name.as_str()) {
                " class=\"wide\""
            } else {
                ""
            };
            let _ = writeln!(
                self.body,
                "<figure{class}>\n{}\n<figcaption>{}</figcaption>\n</figure>",
                inline_svg(svg),
                escape(name)
            );
        }
        self.body.push_str("</div>\n");
    }

    /// A section that starts closed: `summary` shown, `text` preformatted inside.
    pub fn folded_pre(&mut self, summary: &str, text: &str) {
        let _ = writeln!(
            self.body,
            "<details><summary>{}</summary>\n<pre>{}</pre>\n</details>",
            escape(summary),
            escape(text.trim_end())
        );
    }

    /// The whole document.
    pub fn finish(self) -> String {
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n<main>\n{}</main>\n\
             <script>\n{SCRIPT}</script>\n</body>\n</html>\n",
            escape(&self.title),
            self.body
        )
    }
}

/// An SVG document as an element of the page: without an XML declaration, and without
/// the namespace attribute (HTML puts `<svg>` in the SVG namespace by itself), so that
/// the page holds no URL at all.
pub fn inline_svg(svg: &str) -> String {
    let mut s = svg.trim();
    if s.starts_with("<?xml")
        && let Some(end) = s.find("?>")
    {
        s = s[end + 2..].trim_start();
    }
    s.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1)
}
