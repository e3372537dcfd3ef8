//! Plain CommonMark for the pages: text escaped for a table cell or a line (tables
//! are written by [`crate::stats::format::write_markdown`]).

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
