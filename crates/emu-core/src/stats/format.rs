//! Number formatting for the human summary and the progress bar.

pub use crate::text::group;

/// A number with `decimals` decimals and thousands separators: 12345.678 → "12,345.68".
pub fn fixed(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    let (int, frac) = text
        .split_once('.')
        .map_or((text.as_str(), None), |(i, f)| (i, Some(f)));
    let (sign, int) = int.strip_prefix('-').map_or(("", int), |i| ("-", i));
    let grouped = int.parse::<u64>().map_or_else(|_| int.to_string(), group);
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

/// How a column's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Align {
    /// Padded on the right.
    Left,
    /// Padded on the left (numbers).
    Right,
}

/// The one Markdown table writer (the guide's generated pages): `head` and `rows` are
/// Markdown already, one line per cell; column `c` is marked left (`---`) or right
/// (`--:`) as `align(c)` says; a blank line follows the table.
pub fn write_markdown(
    out: &mut String,
    head: &[&str],
    rows: &[Vec<String>],
    align: impl Fn(usize) -> Align,
) {
    let line = |out: &mut String, cells: &mut dyn Iterator<Item = &str>| {
        out.push('|');
        for c in cells {
            out.push(' ');
            out.push_str(c);
            out.push_str(" |");
        }
        out.push('\n');
    };
    line(out, &mut head.iter().copied());
    line(
        out,
        &mut (0..head.len()).map(|c| match align(c) {
            Align::Left => "---",
            Align::Right => "--:",
        }),
    );
    for r in rows {
        line(out, &mut r.iter().map(String::as_str));
    }
    out.push('\n');
}

/// The one table renderer of the text outputs: writes `rows` (the first is usually the
/// header) as columns two spaces apart, each as wide as its widest cell, column `c`
/// aligned as `align(c)`, every line prefixed by `indent`, trailing blanks trimmed and
/// ended by a newline.
pub fn write_aligned(
    out: &mut String,
    rows: &[Vec<String>],
    align: impl Fn(usize) -> Align,
    indent: &str,
) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let mut line = String::from(indent);
        for (c, cell) in row.iter().enumerate() {
            let w = widths[c];
            if c > 0 {
                line.push_str("  ");
            }
            match align(c) {
                Align::Left => line.push_str(&format!("{cell:<w$}")),
                Align::Right => line.push_str(&format!("{cell:>w$}")),
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// [`write_aligned`] with the first column left-aligned and the others right-aligned,
/// no indent: the layout of most of emu's tables.
pub fn write_columns(out: &mut String, rows: &[Vec<String>]) {
    write_aligned(
        out,
        rows,
        |c| if c == 0 { Align::Left } else { Align::Right },
        "",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(1_234_567), "1,234,567");
        assert_eq!(fixed(12345.678, 2), "12,345.68");
        assert_eq!(fixed(0.5, 0), "0");
        assert_eq!(fixed(-1234.5, 1), "-1,234.5");
    }

    #[test]
    fn columns_line_up_and_trailing_blanks_go() {
        let rows = vec![
            vec!["name".to_string(), "n".into(), "note".into()],
            vec!["a".to_string(), "1234".into(), "".into()],
        ];
        let mut out = String::new();
        write_aligned(
            &mut out,
            &rows,
            |c| if c == 1 { Align::Right } else { Align::Left },
            "> ",
        );
        assert_eq!(out, "> name     n  note\n> a     1234\n");
        let mut plain = String::new();
        write_columns(&mut plain, &rows);
        assert_eq!(plain, "name     n  note\na     1234\n");
    }
}
