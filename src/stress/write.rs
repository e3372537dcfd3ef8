//! Writing a stress case out: the traffic file (TOML that `emu` reads back exactly)
//! and the command line that reruns it with the same topology, buffers and seed.

use crate::config::TrafficConfig;
use crate::config::traffic::PatternConfig;
use crate::session::shell_quote;

/// The traffic configuration could not be serialised as TOML.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the traffic file: {0}")]
pub struct TrafficFileError(#[from] toml::ser::Error);

/// The traffic file for `t`, with `comments` (one per line) at the top, and for a
/// `table` pattern the flows of the sending terminals spelled out.
pub fn traffic_file(t: &TrafficConfig, comments: &[String]) -> Result<String, TrafficFileError> {
    let mut out = String::new();
    for c in comments {
        out.push_str(&format!("# {c}\n"));
    }
    if let PatternConfig::Table { destinations } = &t.pattern {
        let flows: Vec<String> = destinations
            .iter()
            .enumerate()
            .filter(|(s, _)| {
                t.terminals
                    .senders
                    .as_ref()
                    .is_none_or(|list| list.contains(&(*s as u32)))
            })
            .map(|(s, d)| format!("{s}→{d}"))
            .collect();
        out.push_str(&format!(
            "# flows (source→destination): {}\n",
            flows.join(" ")
        ));
    }
    let body = toml::to_string(t)?;
    out.push_str(&body);
    Ok(out)
}

/// The `emu` command that runs `traffic_path` on `topology` with `seed` and the
/// `--set` overrides `sets`, shell-quoted.
pub fn command(topology: &str, traffic_path: &str, seed: u64, sets: &[String]) -> String {
    let mut args: Vec<String> = vec![
        "emu".into(),
        "--topology".into(),
        topology.into(),
        "--traffic".into(),
        traffic_path.into(),
        "--seed".into(),
        seed.to_string(),
    ];
    for s in sets {
        args.push("--set".into());
        args.push(s.clone());
    }
    args.iter()
        .map(|s| shell_quote(s))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stress::case::{CaseKind, one};

    #[test]
    fn the_traffic_file_reads_back_as_the_same_configuration() {
        for kind in CaseKind::ALL {
            let mut t = one(0, kind, 9, 8, 50.0).traffic;
            t.terminals.senders = Some(vec![1, 4]);
            let text = traffic_file(&t, &["a comment".into()]).expect("serialises");
            assert!(text.starts_with("# a comment\n"));
            let back: TrafficConfig = toml::from_str(&text).expect("reads back");
            assert_eq!(back, t, "{text}");
        }
        assert_eq!(
            command("ring4", "my file.toml", 3, &["link.buffer_tokens=8".into()]),
            "emu --topology ring4 --traffic 'my file.toml' --seed 3 --set link.buffer_tokens=8"
        );
    }
}
