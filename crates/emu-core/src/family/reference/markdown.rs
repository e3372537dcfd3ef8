//! Markdown for the reference pages: tables whose cells are one line each, with `|`
//! escaped and rustdoc's links turned into plain code.

/// A table with `header` and one row per entry of `rows`, each cell passed through
/// [`cell`], every column left-aligned; a blank line after it.
pub(super) fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    use crate::stats::format::{Align, write_markdown};
    let head: Vec<String> = header.iter().map(|h| cell(h)).collect();
    let head: Vec<&str> = head.iter().map(String::as_str).collect();
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.iter().map(|c| cell(c)).collect())
        .collect();
    let mut out = String::new();
    write_markdown(&mut out, &head, &rows, |_| Align::Left);
    out
}

/// `text` fit for a table cell: on one line, `|` escaped, rustdoc links (`` [`X`] ``)
/// as plain code; `—` for nothing.
pub(super) fn cell(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = plain_links(&one_line).replace('|', "\\|");
    if text.is_empty() {
        "—".to_string()
    } else {
        text
    }
}

/// `text` on one line with rustdoc links as plain code, for a paragraph.
pub(super) fn paragraph(text: &str) -> String {
    plain_links(&text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// `text` with each rustdoc intra-doc link `` [`X`] `` (not followed by a link target)
/// written as `` `X` ``, its path left out (`` [`crate::a::B`] `` is `` `B` ``).
fn plain_links(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("[`") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("`]") else {
            break;
        };
        let target = &after[end + 2..];
        if target.starts_with('(') || target.starts_with('[') {
            out.push_str(&rest[..start + 2]);
            rest = after;
            continue;
        }
        let name = &after[..end];
        let short = name.rsplit("::").next().unwrap_or(name);
        out.push_str(&rest[..start]);
        out.push('`');
        out.push_str(short);
        out.push('`');
        rest = target;
    }
    out.push_str(rest);
    out
}

/// `text` in backticks.
pub(super) fn code(text: &str) -> String {
    format!("`{text}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_one_line_escaped_and_without_rustdoc_links() {
        assert_eq!(cell("a\nb  | c"), "a b \\| c");
        assert_eq!(
            cell("see [`crate::x::Spec`] and [`y`](z)"),
            "see `Spec` and [`y`](z)"
        );
        assert_eq!(cell(""), "—");
        assert_eq!(
            table(&["k", "v"], &[vec!["a".into(), "1|2".into()]]),
            "| k | v |\n| --- | --- |\n| a | 1\\|2 |\n\n"
        );
    }
}
