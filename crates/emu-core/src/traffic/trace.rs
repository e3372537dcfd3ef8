//! The packet-trace format a switch fabric's inputs can replay (Gramsamer §2.5, §7.6.5:
//! traces are applied open loop, "We therefore do not model an interaction of trace
//! events and the system under test").
//!
//! One line per packet or message: `cycle input output packets`, whitespace separated;
//! `cycle` counts packet cycles from the run's start, and a message of several packets
//! enters its VOQ whole (Gramsamer §2.5: a 16-byte request is one packet, an 80-byte
//! reply five). Blank lines and `#` comments are skipped. Cycles need not be sorted.

/// One line of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceLine {
    /// Packet cycle from the run's start.
    pub cycle: u64,
    /// Input (adapter) that creates it.
    pub input: u32,
    /// Output it is for.
    pub output: u32,
    /// Packets in it (≥ 1).
    pub packets: u32,
}

/// A line of a trace that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct TraceError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Most lines a trace may have (a bound on memory before anything is allocated per line).
pub(crate) const MAX_LINES: usize = 50_000_000;

/// Parses a trace.
pub fn parse(text: &str) -> Result<Vec<TraceLine>, TraceError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        if out.len() == MAX_LINES {
            return Err(TraceError {
                line,
                message: format!("more than {MAX_LINES} packet lines"),
            });
        }
        let fields: Vec<&str> = body.split_whitespace().collect();
        let [cycle, input, output, packets] = fields[..] else {
            return Err(TraceError {
                line,
                message: format!("{body:?}: give four numbers: cycle input output packets"),
            });
        };
        let num = |name: &str, v: &str| -> Result<u64, TraceError> {
            v.parse::<u64>().map_err(|_| TraceError {
                line,
                message: format!("{name} {v:?} is not a whole number ≥ 0"),
            })
        };
        let small = |name: &str, v: &str| -> Result<u32, TraceError> {
            u32::try_from(num(name, v)?).map_err(|_| TraceError {
                line,
                message: format!("{name} {v} is too large"),
            })
        };
        let packets = small("packets", packets)?;
        if packets == 0 {
            return Err(TraceError {
                line,
                message: "packets must be at least 1".into(),
            });
        }
        out.push(TraceLine {
            cycle: num("cycle", cycle)?,
            input: small("input", input)?,
            output: small("output", output)?,
            packets,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_lines_and_skips_comments() {
        let t = parse("# cycle input output packets\n0 1 2 1\n\n 5 0 3 5 # a reply\n").unwrap();
        assert_eq!(
            t,
            vec![
                TraceLine {
                    cycle: 0,
                    input: 1,
                    output: 2,
                    packets: 1
                },
                TraceLine {
                    cycle: 5,
                    input: 0,
                    output: 3,
                    packets: 5
                }
            ]
        );
    }

    #[test]
    fn bad_lines_name_their_line_number() {
        for (text, line) in [
            ("0 1 2\n", 1),
            ("0 1 2 1\n0 1 x 1\n", 2),
            ("0 1 2 0\n", 1),
            ("0 -1 2 1\n", 1),
            ("0 1 2 99999999999\n", 1),
        ] {
            assert_eq!(parse(text).unwrap_err().line, line, "{text:?}");
        }
    }
}
