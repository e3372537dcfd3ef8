//! The peers page (`book/src/peers.md`) and its picture: emu beside BookSim 2 and
//! CAMINOS 0.6.3 on the case where their models coincide, rendered from the stored runs
//! (`docs/validation/peers/`, written by `tools/peers.sh`, several seeds per load),
//! never typed. The checked-in page and picture must be what the stored data give;
//! `EMU_WRITE_PEERS_PAGE=1` rewrites them.

use emu::plot::peers::{PeerCurve, PeerPoint, Spread, peers_svg};
use std::fmt::Write as _;
use std::path::Path;

/// The page, relative to the repository's root.
const PAGE: &str = "book/src/peers.md";
/// The picture, relative to the repository's root, and as the page links it.
const PICTURE: &str = "book/src/images/peers-hypercube8.svg";
const PICTURE_LINK: &str = "images/peers-hypercube8.svg";
/// Tokens in one message: the unit conversion from messages per terminal per token
/// time to a fraction of a link's tokens.
const TOKENS: f64 = 34.0;
/// The stored runs, relative to the repository's root.
const DATA: &str = "docs/validation/peers";
/// The tools, in the page's column order, with their names as printed.
const TOOLS: [(&str, &str); 3] = [
    ("emu", "emu"),
    ("booksim", "BookSim 2"),
    ("caminos", "CAMINOS 0.6.3"),
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// One load of one simulator over its seeds (the stored lines `load, seed, offered,
/// accepted, latency, status`): offered load (fraction of a link's tokens), offered and
/// accepted messages per terminal per token time, mean message latency in token times,
/// the seeds run and the statuses other than "ok" among them.
#[derive(Clone, Debug, PartialEq)]
struct Point {
    load: String,
    offered: f64,
    accepted: Option<Spread>,
    latency: Option<Spread>,
    seeds: usize,
    not_ok: Vec<String>,
}

fn read_csv(tool: &str) -> Option<Vec<Point>> {
    let text = std::fs::read_to_string(root().join(DATA).join(format!("{tool}.csv"))).ok()?;
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    assert_eq!(
        lines.next(),
        Some("load,seed,offered,accepted,latency,status"),
        "{tool}.csv: header"
    );
    // Each load's seeds, in the order the loads first appear.
    let mut points: Vec<(Point, Vec<f64>, Vec<f64>)> = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 6, "{tool}.csv: {line}");
        let offered: f64 = f[2]
            .parse()
            .unwrap_or_else(|_| panic!("{tool}.csv: {line}"));
        let at = match points.iter().position(|p| p.0.load == f[0]) {
            Some(i) => i,
            None => {
                let point = Point {
                    load: f[0].to_string(),
                    offered,
                    accepted: None,
                    latency: None,
                    seeds: 0,
                    not_ok: Vec::new(),
                };
                points.push((point, Vec::new(), Vec::new()));
                points.len() - 1
            }
        };
        let (point, accepted, latency) = &mut points[at];
        assert_eq!(point.offered, offered, "{tool}.csv: {line}");
        point.seeds += 1;
        accepted.extend(f[3].parse::<f64>().ok());
        latency.extend(f[4].parse::<f64>().ok());
        if f[5] != "ok" {
            point.not_ok.push(f[5].to_string());
        }
    }
    Some(
        points
            .into_iter()
            .map(|(mut p, a, l)| {
                p.accepted = Spread::of(&a);
                p.latency = Spread::of(&l);
                p
            })
            .collect(),
    )
}

/// The mean, and the least to the greatest seed's value when they differ.
fn spread_cell(v: Option<Spread>, digits: usize) -> String {
    match v {
        None => "—".into(),
        Some(s) if s.min == s.max => format!("{:.digits$}", s.mean),
        Some(s) => format!(
            "{:.digits$} ({:.digits$}–{:.digits$})",
            s.mean, s.min, s.max
        ),
    }
}

/// A point's mark: its statuses other than "ok" (with how many of its seeds, when
/// several ran).
fn mark(p: &Point) -> String {
    match p.not_ok.first() {
        None => String::new(),
        Some(status) if p.seeds == 1 => format!(" ({status})"),
        Some(status) => format!(" ({status}: {} of {} seeds)", p.not_ok.len(), p.seeds),
    }
}

fn read_provenance(tool: &str) -> Option<toml::Table> {
    let text = std::fs::read_to_string(root().join(DATA).join(format!("{tool}.toml"))).ok()?;
    Some(toml::from_str(&text).unwrap_or_else(|e| panic!("{tool}.toml: {e}")))
}

/// One tool's stored run: its file stem, its printed name, its points and provenance.
type Run = (
    &'static str,
    &'static str,
    Option<Vec<Point>>,
    Option<toml::Table>,
);

fn cell(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "—".into(), |x| format!("{x:.digits$}"))
}

/// The page from the stored runs.
fn render() -> String {
    let runs: Vec<Run> = TOOLS
        .iter()
        .map(|&(t, name)| (t, name, read_csv(t), read_provenance(t)))
        .collect();
    let mut s = String::from("# Beside BookSim 2 and CAMINOS\n\n");
    s.push_str(
        "<!-- Generated by tests/peers_page.rs from docs/validation/peers/ (tools/peers.sh); \
         do not edit: EMU_WRITE_PEERS_PAGE=1 cargo test --release --test integration \
         peers_page:: -->\n\n",
    );
    s.push_str(
        "One case where the three simulators' models coincide: the binary 8-cube (256 \
         routers, one terminal each), dimension-order routing, one virtual channel, \
         uniform destinations (never the source), one-packet messages of 34 tokens (1 \
         header byte, 32 data bytes, end of packet), Bernoulli arrivals, from light load \
         past saturation. The peers run the speed bench's configurations \
         (`benches/throughput/hc256.booksim`, `hc256.caminos`) with only the load and the \
         run length changed. Units: messages per terminal per token time (offered and \
         accepted) and mean message latency in token times, creation to delivery (one \
         token time = 100 ns = 10 emu ticks = one BookSim or CAMINOS cycle). Load is the \
         fraction of a link's tokens offered (emu's `injection.load` counts data bytes, \
         so it is set to load × 32/34).\n\n",
    );
    s.push_str("## Where the numbers come from\n\n");
    for (t, name, points, prov) in &runs {
        match (points, prov) {
            (Some(_), Some(p)) => {
                let get = |k: &str| p.get(k).and_then(|v| v.as_str()).unwrap_or("not recorded");
                let _ = writeln!(
                    s,
                    "- {name}: {} · `{}` · seeds {} · {} · {}",
                    get("version"),
                    get("command"),
                    get("seeds"),
                    get("date"),
                    get("cpu")
                );
            }
            _ => {
                let _ = writeln!(s, "- {name}: not run (no `{DATA}/{t}.csv`)");
            }
        }
    }
    s.push_str(
        "\nRerun with `BOOKSIM=… CAMINOS=… tools/peers.sh` (the script says how to build \
         the peers; neither is part of this repository).\n\n",
    );
    s.push_str("## Accepted rate and latency against offered load\n\n");
    let _ = writeln!(
        s,
        "![Accepted rate and mean message latency against offered load for emu, BookSim 2 \
         and CAMINOS on the binary 8-cube, each point the mean over the seeds with a bar \
         from the least to the greatest]({PICTURE_LINK})\n"
    );
    s.push_str(
        "Each cell is the mean over the seeds, with the least and the greatest seed's value \
         in brackets where they differ.\n\n",
    );
    s.push_str("| load | offered |");
    for (_, name, _, _) in &runs {
        let _ = write!(s, " {name} accepted | {name} latency |");
    }
    s.push_str("\n| --: | --: |");
    for _ in &runs {
        s.push_str(" --: | --: |");
    }
    s.push('\n');
    let loads: Vec<(String, f64)> = runs
        .iter()
        .find_map(|r| r.2.as_ref())
        .map(|p| p.iter().map(|x| (x.load.clone(), x.offered)).collect())
        .unwrap_or_default();
    for (load, offered) in &loads {
        let _ = write!(s, "| {load} | {offered:.5} |");
        for (_, _, points, _) in &runs {
            let p = points
                .as_ref()
                .and_then(|p| p.iter().find(|x| x.load == *load));
            let _ = write!(
                s,
                " {} | {}{} |",
                spread_cell(p.and_then(|x| x.accepted), 5),
                spread_cell(p.and_then(|x| x.latency), 1),
                p.map(mark).unwrap_or_default()
            );
        }
        s.push('\n');
    }
    s.push_str("\n## Saturation and light load\n\n");
    for (_, name, points, _) in &runs {
        let Some(points) = points else { continue };
        let best = points
            .iter()
            .filter_map(|p| p.accepted.map(|a| a.mean))
            .fold(f64::NAN, f64::max);
        let first_short =
            first_short(points).map_or_else(|| "none of the loads".to_string(), |p| p.load.clone());
        let light = points.first().and_then(|p| p.latency.map(|l| l.mean));
        let _ = writeln!(
            s,
            "- {name}: latency at the lightest load {} token times; most accepted {} \
             messages per terminal per token time ({:.1} % of a link's tokens); first load \
             accepted below 95 % of offered or unstable: {first_short}",
            cell(light, 1),
            cell(Some(best), 5),
            100.0 * best * 34.0
        );
    }
    s.push_str(&seeds(&runs));
    s.push_str(&mechanisms(&runs));
    s.push_str(&switched());
    s
}

/// The first load whose mean accepted rate falls below 95 % of the offered one, or
/// that a seed did not run to its end ("unstable", "undelivered").
fn first_short(points: &[Point]) -> Option<&Point> {
    points
        .iter()
        .find(|p| p.accepted.is_none_or(|a| a.mean < 0.95 * p.offered) || !p.not_ok.is_empty())
}

/// How far the seeds of each simulator spread below its saturation, and whether the
/// simulators' gaps at the lightest load are larger than that.
fn seeds(runs: &[Run]) -> String {
    let mut s = String::from("\n## Seeds\n\n");
    let relative = |v: Option<Spread>| v.map(|x| (x.max - x.min) / x.mean);
    for (_, name, points, _) in runs {
        let Some(points) = points else { continue };
        let seeds = points.iter().map(|p| p.seeds).max().unwrap_or(0);
        let below: Vec<&Point> = match first_short(points) {
            Some(short) => points.iter().take_while(|p| p.load != short.load).collect(),
            None => points.iter().collect(),
        };
        let widest = |of: &dyn Fn(&Point) -> Option<f64>| {
            below.iter().filter_map(|p| of(p)).fold(0.0f64, f64::max)
        };
        let _ = writeln!(
            s,
            "- {name}: {seeds} seeds a load; below saturation the seeds' spread (greatest \
             less least) is at most {:.1} % of the mean accepted rate and {:.1} % of the \
             mean latency",
            100.0 * widest(&|p| relative(p.accepted)),
            100.0 * widest(&|p| relative(p.latency)),
        );
    }
    let light = |t: &str| lightest_latency(runs, t);
    if let (Some(e), Some(b), Some(c)) = (light("emu"), light("booksim"), light("caminos")) {
        let spread = [e, b, c]
            .iter()
            .map(|x| x.max - x.min)
            .fold(0.0f64, f64::max);
        let _ = writeln!(
            s,
            "\nAt the lightest load emu's mean latency is {:.1} token times above BookSim \
             2's and {:.1} above CAMINOS's; the widest seed spread of the three there is \
             {spread:.1}. Differences larger than the spread are the models', not the \
             seeds'.",
            e.mean - b.mean,
            e.mean - c.mean,
        );
    }
    s
}

/// Simulator `tool`'s latency over its seeds at the lightest load.
fn lightest_latency(runs: &[Run], tool: &str) -> Option<Spread> {
    runs.iter()
        .find(|r| r.0 == tool)
        .and_then(|r| r.2.as_ref())
        .and_then(|p| p.first())
        .and_then(|p| p.latency)
}

/// The picture of the stored runs.
fn picture() -> String {
    let curves: Vec<PeerCurve> = TOOLS
        .iter()
        .filter_map(|&(t, name)| {
            let points = read_csv(t)?;
            let scale = |s: Spread| Spread {
                min: s.min * TOKENS,
                mean: s.mean * TOKENS,
                max: s.max * TOKENS,
            };
            Some(PeerCurve {
                name: name.to_string(),
                points: points
                    .iter()
                    .map(|p| PeerPoint {
                        load: p.load.parse().expect("a load"),
                        accepted: p.accepted.map(scale),
                        latency: p.latency,
                    })
                    .collect(),
            })
        })
        .collect();
    peers_svg(
        "Binary 8-cube, uniform traffic: emu, BookSim 2, CAMINOS 0.6.3",
        &curves,
    )
    .expect("the picture is drawn")
}

/// emu with a mechanism switched (`emu-switched.csv`: variant, settings, load, offered,
/// accepted, latency, status), as a table; nothing if it was not run.
fn switched() -> String {
    let Ok(text) = std::fs::read_to_string(root().join(DATA).join("emu-switched.csv")) else {
        return String::new();
    };
    let mut s = String::from(
        "\nemu with one mechanism switched (`emu-switched.csv`):\n\n| variant | settings | load | accepted | latency |\n\
         | --- | --- | --: | --: | --: |\n",
    );
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 7, "emu-switched.csv: {line}");
        let num = |x: &str, d: usize| cell(x.parse().ok(), d);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {}{} |",
            f[0],
            if f[1].is_empty() {
                "as shipped".to_string()
            } else {
                format!("`{}`", f[1])
            },
            f[2],
            num(f[4], 5),
            num(f[5], 1),
            if f[6] == "ok" {
                String::new()
            } else {
                format!(" ({})", f[6])
            }
        );
    }
    s
}

/// emu's switched runs: (variant, load, accepted, latency).
fn switched_runs() -> Vec<(String, String, Option<f64>, Option<f64>)> {
    let Ok(text) = std::fs::read_to_string(root().join(DATA).join("emu-switched.csv")) else {
        return Vec::new();
    };
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 7, "emu-switched.csv: {line}");
            (
                f[0].to_string(),
                f[2].to_string(),
                f[4].parse().ok(),
                f[5].parse().ok(),
            )
        })
        .collect()
}

/// Where the models differ, with the stored numbers that show each gap and what emu
/// measures when it switches the mechanism.
fn mechanisms(runs: &[Run]) -> String {
    let light = |t: &str| lightest_latency(runs, t).map(|l| l.mean);
    let most = |t: &str| {
        runs.iter()
            .find(|r| r.0 == t)
            .and_then(|r| r.2.as_ref())
            .map(|p| {
                p.iter()
                    .filter_map(|x| x.accepted.map(|a| a.mean))
                    .fold(f64::NAN, f64::max)
                    * 3400.0
            })
    };
    let sw = switched_runs();
    let switched = |variant: &str, heaviest: bool| {
        let rows: Vec<_> = sw.iter().filter(|r| r.0 == variant).collect();
        let r = if heaviest { rows.last() } else { rows.first() };
        r.map(|r| {
            if heaviest {
                r.2.map(|a| a * 3400.0)
            } else {
                r.3
            }
        })
        .unwrap_or_default()
    };
    let pct = |v: Option<f64>| v.map_or_else(|| "—".into(), |x| format!("{x:.1} %"));
    format!(
        "
## Where the models differ

- **Per-hop delay.** emu's C104 takes a header time of 500 ns (5 token times) per
  switch (INMOS ch. 7 §7.6), which covers the header's bits and the wire as well as the
  routing decision (INMOS ch. 6 §6.3.6), so a shorter wire alone changes nothing: the
  switch's own delay takes up the difference. At the lightest load the latency is {} token
  times in emu, {} in BookSim 2 and {} in CAMINOS, whose routers and one-cycle links pass
  a header in fewer cycles; emu with a header time of 110 ns and a 10 ns wire (the least
  the model allows) gives {}.
- **Buffers and flow control.** emu's C104 has one packet (34 tokens) of buffering at
  each input and each output, with credits returned in flow-control tokens of 8; BookSim
  buffers 34 flits per input (virtual cut-through in effect, no output buffer); CAMINOS
  8 phits per input (wormhole). The most accepted is {} of a link's tokens in emu, {} in
  BookSim 2 and {} in CAMINOS, in the order of their buffering; emu with 8-token output
  buffers accepts {} at the heaviest load.
- **Accounting.** emu's latency runs from a message's creation to its delivery (source
  queue included), as BookSim's packet latency and CAMINOS's message delay do; the
  measured windows differ in length (emu 100 µs warm-up and 500 µs measured; BookSim
  3 warm-up and up to 10 measured periods of 2,000 cycles, stopping when it converges,
  and calling a load past saturation unstable; CAMINOS 2,000 and 20,000 cycles).
",
        cell(light("emu"), 1),
        cell(light("booksim"), 1),
        cell(light("caminos"), 1),
        cell(switched("short hops", false), 1),
        pct(most("emu")),
        pct(most("booksim")),
        pct(most("caminos")),
        pct(switched("8-token output buffers", true)),
    )
}

#[test]
fn the_peers_page_is_rendered_from_the_stored_runs() {
    let page = render();
    let svg = picture();
    let path = root().join(PAGE);
    if std::env::var_os("EMU_WRITE_PEERS_PAGE").is_some() {
        std::fs::write(&path, &page).expect("the page written");
        std::fs::write(root().join(PICTURE), &svg).expect("the picture written");
    }
    let stored = std::fs::read_to_string(root().join(PICTURE)).unwrap_or_default();
    assert!(
        stored == svg,
        "{PICTURE} is not what {DATA} gives; rerun with EMU_WRITE_PEERS_PAGE=1 cargo test \
         --release --test integration peers_page::"
    );
    let file = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        file == page,
        "{PAGE} is not what {DATA} gives; rerun with EMU_WRITE_PEERS_PAGE=1 cargo test \
         --release --test integration peers_page::"
    );
    // Every stored run is on the page, one row per load.
    for (t, name) in TOOLS {
        if let Some(points) = read_csv(t) {
            assert!(!points.is_empty(), "{t}.csv has no runs");
            assert!(page.contains(&format!(" {name} accepted |")), "{name}");
            for p in &points {
                assert!(
                    page.contains(&format!("| {} | {:.5} |", p.load, p.offered)),
                    "{t}: load {}",
                    p.load
                );
            }
        }
    }
}
