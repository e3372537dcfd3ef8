//! Plain CommonMark for the pages: text escaped for a table cell or a line, and
//! tables with a header row and an alignment per column.

use std::fmt::Write as _;

/// `text` as literal Markdown inline text: characters that could start a table
/// border, code, emphasis, strikethrough, a link or an HTML tag are escaped with a
/// backslash; a line break becomes a space.
pub(super) fn text(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in chars.iter().enumerate() {
        let before = i.checked_sub(1).and_then(|j| chars.get(j));
        let after = chars.get(i + 1);
        let escape = match c {
            '\\' | '|' | '`' | '*' | '[' | ']' | '~' => true,
            // An HTML tag or autolink starts with `<` and a letter, `/`, `!` or `?`.
            '<' => after.is_some_and(|a| a.is_ascii_alphabetic() || "/!?".contains(*a)),
            // `_` inside a word (n_dt) never emphasises.
            '_' => {
                !(before.is_some_and(|b| b.is_alphanumeric())
                    && after.is_some_and(|a| a.is_alphanumeric()))
            }
            _ => false,
        };
        match c {
            '\n' | '\r' => out.push(' '),
            _ if escape => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// How a column's cells line up.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Align {
    /// Text.
    Left,
    /// Numbers.
    Right,
}

/// A table: `head` and `rows` are Markdown already (escape text with [`text`]).
pub(super) fn table(out: &mut String, head: &[&str], align: &[Align], rows: &[Vec<String>]) {
    let line = |out: &mut String, cells: &mut dyn Iterator<Item = &str>| {
        out.push('|');
        for c in cells {
            let _ = write!(out, " {c} |");
        }
        out.push('\n');
    };
    line(out, &mut head.iter().copied());
    line(
        out,
        &mut align.iter().map(|a| match a {
            Align::Left => "---",
            Align::Right => "--:",
        }),
    );
    for r in rows {
        line(out, &mut r.iter().map(String::as_str));
    }
    out.push('\n');
}
