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
    /// Packets in it (1..=[`MAX_PACKETS`]).
    pub packets: u32,
    /// The line of the file it is on (1-based), for messages.
    pub line: usize,
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

/// Most packets one line may create: a message of 65,535 packets is 4 MB of 64-byte
/// packets, far beyond the document's largest (a reply of five, Gramsamer §2.5); a
/// larger count would only fill a VOQ and be refused.
pub const MAX_PACKETS: u32 = 65_535;

/// Parses a trace: at least one packet line.
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
                message: format!(
                    "{}: give four numbers: cycle input output packets",
                    crate::text::excerpt(body)
                ),
            });
        };
        let num = |name: &str, v: &str| -> Result<u64, TraceError> {
            v.parse::<u64>().map_err(|_| TraceError {
                line,
                message: format!(
                    "{name} {} is not a whole number ≥ 0",
                    crate::text::excerpt(v)
                ),
            })
        };
        let small = |name: &str, v: &str| -> Result<u32, TraceError> {
            u32::try_from(num(name, v)?).map_err(|_| TraceError {
                line,
                message: format!("{name} {v} is too large"),
            })
        };
        let cycle = num("cycle", cycle)?;
        let input = small("input", input)?;
        let output = small("output", output)?;
        let packets = small("packets", packets)?;
        if !(1..=MAX_PACKETS).contains(&packets) {
            return Err(TraceError {
                line,
                message: format!("packets {packets}: give 1 to {MAX_PACKETS} packets"),
            });
        }
        out.push(TraceLine {
            cycle,
            input,
            output,
            packets,
            line,
        });
    }
    if out.is_empty() {
        return Err(TraceError {
            line: text.lines().count().max(1),
            message: "no packet lines: a trace needs at least one line `cycle input output \
                      packets`"
                .into(),
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
                    packets: 1,
                    line: 2
                },
                TraceLine {
                    cycle: 5,
                    input: 0,
                    output: 3,
                    packets: 5,
                    line: 4
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
            ("0 1 2 65536\n", 1),
            ("# only a comment\n\n", 2),
            ("", 1),
        ] {
            assert_eq!(parse(text).unwrap_err().line, line, "{text:?}");
        }
        let e = parse("\u{feff}0 0 1 1 2\n").unwrap_err();
        assert!(e.message.contains("U+FEFF"), "{e}");
    }
}
