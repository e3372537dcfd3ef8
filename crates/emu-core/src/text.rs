//! How user text and counts are written into messages — the lowest layer, used by
//! every other: a value the user typed is quoted short and with its invisible
//! characters named ([`excerpt`]), a count is grouped by thousands ([`group`]).

/// An integer with thousands separators: 1234567 → "1,234,567".
pub fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A key's whole-number range as messages and the guide word it: "a whole number from
/// 2 to 4,096".
pub fn whole_range(lo: u64, hi: u64) -> String {
    format!("a whole number from {} to {}", group(lo), group(hi))
}

/// Most characters of user text a message quotes.
const EXCERPT_CHARS: usize = 40;

/// `text` quoted for a message: in double quotes, cut to 40 characters with `…`, with
/// control characters, invisible and bidirectional formatting characters shown as
/// `U+XXXX` (never as a Rust escape such as `\u{feff}`).
pub fn excerpt(text: &str) -> String {
    let mut out = String::from("\"");
    for (i, c) in text.chars().enumerate() {
        if i == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || is_invisible(c) => {
                out.push_str(&format!("U+{:04X}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Format characters that print as nothing or reorder text: zero-width spaces and
/// joiners, the byte-order mark, bidirectional marks, embeddings and isolates.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}' | '\u{00ad}')
}

/// A number from the user, as short as they would write it: `1e308` rather than 309
/// digits, `1e-300` rather than 300 zeros, `0.5` as `0.5`.
pub fn number(x: f64) -> String {
    if x.is_finite() && x != 0.0 && !(1e-3..1e9).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_short_and_show_invisible_characters_by_code() {
        assert_eq!(excerpt("\u{feff}0"), "\"U+FEFF0\"");
        assert_eq!(excerpt("a\"b\u{1}"), "\"a\\\"bU+0001\"");
        let long = "x".repeat(100);
        assert_eq!(excerpt(&long), format!("\"{}…\"", "x".repeat(40)));
        assert!(!excerpt("\u{202e}evil").contains("\\u{"));
    }

    #[test]
    fn numbers_stay_short() {
        assert_eq!(number(1e308), "1e308");
        assert_eq!(number(1e-300), "1e-300");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(64.0), "64");
        assert_eq!(number(f64::NAN), "NaN");
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(1_234_567), "1,234,567");
    }
}
