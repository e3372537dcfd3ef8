//! The replacement values of the mutations: type changes, extremes, empties and the ones
//! made from the original value (scaled numbers, long and non-ASCII strings).

use toml_edit::Value;

/// A value of every other TOML type.
pub const TYPE_CHANGES: &[&str] = &["\"x\"", "true", "7", "1.5", "[]", "[1]", "{}", "{ a = 1 }"];

/// Numbers at and past the edges of the integer types, non-finite floats, and strings
/// that read as numbers too large for anything.
pub const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "1e308",
    "-1e308",
    "nan",
    "inf",
    "1e-300",
    "\"18446744073709551615\"",
    "\"99999999999999999999%\"",
];

/// The empty string, list and table.
pub const EMPTIES: &[&str] = &["\"\"", "[]", "{}"];

/// How long the long string is.
pub const LONG_STRING_CHARS: usize = 10_000;

/// The value written as TOML text; the texts above are constants that parse.
pub fn parse(text: &str) -> Value {
    text.parse()
        .unwrap_or_else(|e| panic!("the constant {text:?} is not a TOML value: {e}"))
}

/// The number × 1000 and ÷ 1000 (integers rounded half away from zero); none that
/// overflow, are not finite, or equal the number.
pub fn scaled(value: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    match value {
        Value::Integer(i) => {
            let i = *i.value();
            if let Some(big) = i.checked_mul(1000) {
                out.push(Value::from(big));
            }
            let half = if i < 0 { -500 } else { 500 };
            out.push(Value::from(i.saturating_add(half) / 1000));
            out.retain(|v| v.as_integer() != Some(i));
        }
        Value::Float(f) => {
            let f = *f.value();
            for scaled in [f * 1000.0, f / 1000.0] {
                if scaled.is_finite() && scaled != f {
                    out.push(Value::from(scaled));
                }
            }
        }
        _ => {}
    }
    out
}

/// The empty string, a 10,000-character string, the original behind a byte-order mark,
/// and the original with non-ASCII letters and an emoji appended.
pub fn strings(original: &str) -> Vec<Value> {
    vec![
        Value::from(""),
        Value::from("a".repeat(LONG_STRING_CHARS)),
        Value::from(format!("\u{feff}{original}")),
        Value::from(format!("{original}\u{e9}\u{2192}\u{b5}\u{1f600}")),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_constant_parses() {
        for text in TYPE_CHANGES.iter().chain(EXTREMES).chain(EMPTIES) {
            let _ = parse(text);
        }
        assert!(parse("nan").as_float().is_some_and(f64::is_nan));
        assert_eq!(parse("-9223372036854775808").as_integer(), Some(i64::MIN));
    }

    #[test]
    fn scales_numbers() {
        let ints: Vec<_> = scaled(&Value::from(1500))
            .iter()
            .filter_map(Value::as_integer)
            .collect();
        assert_eq!(ints, [1_500_000, 2]);
        let ints: Vec<_> = scaled(&Value::from(-499))
            .iter()
            .filter_map(Value::as_integer)
            .collect();
        assert_eq!(ints, [-499_000, 0]);
        assert_eq!(scaled(&Value::from(i64::MAX)).len(), 1);
        assert!(scaled(&Value::from(0)).is_empty());
        let floats: Vec<_> = scaled(&Value::from(0.5))
            .iter()
            .filter_map(Value::as_float)
            .collect();
        assert_eq!(floats, [500.0, 0.0005]);
        assert!(scaled(&Value::from("s")).is_empty());
    }
}
