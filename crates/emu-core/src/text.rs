//! How user text and counts are written into messages — the lowest layer, used by
//! every other: a value the user typed is quoted short and with its invisible
//! characters named ([`excerpt`]), a count is grouped by thousands ([`group`]) and
//! agrees with its noun ([`count`]), a range is written in words ([`whole_range`],
//! [`indices`], [`rust_ranges`]) and a measured number is rounded for people
//! ([`decimal`]).

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

/// A count and its noun, agreeing: `count(1, "seed", "seeds")` → "1 seed",
/// `count(1500, …)` → "1,500 seeds".
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", group(n), if n == 1 { one } else { many })
}

/// The numbers of `n` things counted from 0 (ports, terminals), as a message words
/// them: "0 to 5", "only 0", "none".
pub fn indices(n: u64) -> String {
    match n {
        0 => "none".to_string(),
        1 => "only 0".to_string(),
        n => format!("0 to {}", group(n - 1)),
    }
}

/// `text` with every Rust range between whole numbers written in words: `1..=20` →
/// "1 to 20", `0..6` → "0 to 5" (an empty one, `0..0`, → "none"). A message built
/// from a library's wording (clap's "0 is not in 1..=1000") reaches the user this way.
pub fn rust_ranges(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    let mut i = 0;
    while i + 2 < b.len() {
        let is_range = b[i] == b'.'
            && b[i + 1] == b'.'
            && i > 0
            && b[i - 1].is_ascii_digit()
            && (i < 2 || b[i - 2] != b'.');
        if !is_range {
            i += 1;
            continue;
        }
        let inclusive = b[i + 2] == b'=';
        let hi_start = i + 2 + usize::from(inclusive);
        let hi_end = hi_start
            + b[hi_start..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
        let lo_start = i - b[..i]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let (Ok(lo), Ok(hi)) = (
            text[lo_start..i].parse::<u64>(),
            text[hi_start..hi_end].parse::<u64>(),
        ) else {
            i += 2;
            continue;
        };
        out.push_str(&text[last..lo_start]);
        match (inclusive, hi) {
            (false, 0) => out.push_str("none"),
            (false, hi) if hi <= lo => out.push_str("none"),
            (false, hi) => out.push_str(&format!("{lo} to {}", hi - 1)),
            (true, hi) => out.push_str(&format!("{lo} to {hi}")),
        }
        last = hi_end;
        i = hi_end;
    }
    out.push_str(&text[last..]);
    out
}

/// A measured or computed quantity for people: at most three decimals (cut, not
/// rounded up, so that an upper bound stays within itself), no trailing zeros,
/// thousands grouped: 1104.9984000000002 → "1,104.998", 25 → "25".
pub fn decimal(x: f64) -> String {
    if !x.is_finite() || x.abs() >= 1e15 {
        return number(x);
    }
    let thousandths = (x.abs() * 1000.0 + 1e-6).floor() as u64;
    let sign = if x < 0.0 && thousandths > 0 { "-" } else { "" };
    let whole = group(thousandths / 1000);
    let frac = format!("{:03}", thousandths % 1000);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac}")
    }
}

/// [`decimal`] rounded up instead of cut: a least value a user may give ("give at
/// least 0.008") stays at or above the bound. 3.2768 → "3.277".
pub fn decimal_up(x: f64) -> String {
    if !x.is_finite() || x.abs() >= 1e15 {
        return number(x);
    }
    decimal((x * 1000.0 - 1e-6).ceil() / 1000.0 + 1e-9)
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

/// Quotes `s` for a POSIX shell if it needs it, so that a printed reproduce command can
/// be pasted back as it is: words of letters, digits and `-_./=:,+@%` (never special in
/// an argument after the command name) stay as they are, anything else gets shlex's
/// quoting; a NUL byte, which no shell argument can hold, is left out.
pub fn shell_quote(s: &str) -> String {
    let clean: String = s.chars().filter(|&c| c != '\0').collect();
    let plain = !clean.is_empty()
        && clean
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        return clean;
    }
    shlex::try_quote(&clean).map_or(clean.clone(), |q| q.into_owned())
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
    fn counts_agree_with_their_noun() {
        assert_eq!(count(1, "seed", "seeds"), "1 seed");
        assert_eq!(count(0, "switch", "switches"), "0 switches");
        assert_eq!(count(2_000, "seed", "seeds"), "2,000 seeds");
        assert_eq!(indices(6), "0 to 5");
        assert_eq!(indices(1), "only 0");
        assert_eq!(indices(0), "none");
    }

    #[test]
    fn rust_ranges_become_words() {
        assert_eq!(rust_ranges("ports 0..6, not 6"), "ports 0 to 5, not 6");
        assert_eq!(
            rust_ranges("give 2..=256 switches"),
            "give 2 to 256 switches"
        );
        assert_eq!(
            rust_ranges("0 is not in 1..=1000 (see)"),
            "0 is not in 1 to 1000 (see)"
        );
        assert_eq!(rust_ranges("(0..0)"), "(none)");
        assert_eq!(rust_ranges("wait... 1.5 and a..b"), "wait... 1.5 and a..b");
        assert_eq!(rust_ranges("1..=x"), "1..=x");
    }

    #[test]
    fn decimals_are_short_and_never_above_the_value() {
        assert_eq!(decimal(1104.9984000000002), "1,104.998");
        assert_eq!(decimal(25.0), "25");
        assert_eq!(decimal(0.5), "0.5");
        assert_eq!(decimal(11100.1088), "11,100.108");
        assert_eq!(decimal(-2.25), "-2.25");
        assert_eq!(decimal_up(3.2768), "3.277");
        assert_eq!(decimal_up(0.008), "0.008");
        assert_eq!(decimal_up(2.0), "2");
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(1_234_567), "1,234,567");
    }
}
