//! The peers page (`book/src/peers.md`) and its pictures: emu beside BookSim 2 and
//! CAMINOS 0.6.3 on the cases where their models coincide, rendered from the stored runs
//! (`docs/validation/peers/CASE/`, written by `tools/peers.sh`, several seeds per load),
//! never typed. The checked-in page and pictures must be what the stored data give;
//! `EMU_WRITE_PEERS_PAGE=1` rewrites them.

use emu::plot::peers::{PeerCurve, PeerPoint, Spread, peers_svg};
use std::fmt::Write as _;
use std::path::Path;

/// The page, relative to the repository's root.
const PAGE: &str = "book/src/peers.md";
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

/// One case the simulators ran: its directory under [`DATA`] (and its picture's name),
/// its heading and what it is.
struct Case {
    dir: &'static str,
    title: &'static str,
    what: &'static str,
    net: Net,
    pattern: Pattern,
}

/// The two networks: 256 routers, one terminal each.
#[derive(Clone, Copy, PartialEq)]
enum Net {
    /// The binary 8-cube, routed highest dimension first (emu and CAMINOS; BookSim lowest
    /// first, the mirror image).
    Cube,
    /// The 16 × 16 mesh, router y · 16 + x, routed y then x (emu and CAMINOS; BookSim x
    /// then y, the mirror image).
    Mesh,
}

/// Where a terminal sends.
#[derive(Clone, Copy, PartialEq)]
enum Pattern {
    /// Every other terminal alike.
    Uniform,
    /// Terminal 255 − i.
    Bitcomp,
}

/// The cases, in the page's order (`tools/peers.sh` says what each runs).
const CASES: [Case; 4] = [
    Case {
        dir: "hypercube8-uniform",
        title: "Binary 8-cube, uniform",
        what: "The binary 8-cube (256 routers), uniform destinations (never the source). \
               emu's `hypercube8`; the peers' `benches/throughput/hc256.*`.",
        net: Net::Cube,
        pattern: Pattern::Uniform,
    },
    Case {
        dir: "hypercube8-bitcomp",
        title: "Binary 8-cube, bit complement",
        what: "The binary 8-cube, terminal i sending to 255 − i: every message crosses all \
               eight dimensions, and under dimension-order routing no two messages share a \
               link, so the only limits are the links' own rates. emu's `hypercube8` with \
               `bitcomp`; BookSim's `bitcomp`; CAMINOS's `CartesianTransform` \
               complementing every coordinate.",
        net: Net::Cube,
        pattern: Pattern::Bitcomp,
    },
    Case {
        dir: "grid16-uniform",
        title: "16 × 16 mesh, uniform",
        what: "The 16 × 16 mesh (256 routers, edge links unused), uniform destinations. \
               emu's `grid16` (routed y then x); the peers' `benches/throughput/mesh256.*` \
               (BookSim routes x then y, the mirror image).",
        net: Net::Mesh,
        pattern: Pattern::Uniform,
    },
    Case {
        dir: "grid16-bitcomp",
        title: "16 × 16 mesh, bit complement",
        what: "The 16 × 16 mesh, (x, y) sending to (15 − x, 15 − y): every message \
               crosses the middle of its column and then of its row.",
        net: Net::Mesh,
        pattern: Pattern::Bitcomp,
    },
];

/// A case's paths under its dimension-order routing, counted over every source and its
/// destinations: the mean number of router-to-router hops of a message, and the load of
/// the busiest router-to-router link as a multiple of each terminal's offered rate (no
/// simulator can accept more per terminal than a link carries divided by that).
fn paths(case: &Case) -> (f64, f64) {
    const N: u32 = 256;
    // Each directed link by its router and its direction: a dimension (cube) or one of
    // +y, -y, +x, -x (mesh).
    let mut load = vec![0.0f64; (N * 8) as usize];
    let (mut hops, mut messages) = (0.0, 0.0);
    for src in 0..N {
        let dsts: Vec<(u32, f64)> = match case.pattern {
            Pattern::Uniform => (0..N)
                .filter(|&d| d != src)
                .map(|d| (d, 1.0 / f64::from(N - 1)))
                .collect(),
            Pattern::Bitcomp => vec![(N - 1 - src, 1.0)],
        };
        for (dst, share) in dsts {
            let mut at = src;
            let mut step = |at: u32, dir: u32| {
                load[(at * 8 + dir) as usize] += share;
                hops += share;
            };
            match case.net {
                Net::Cube => {
                    for dim in (0..8).rev() {
                        if (at ^ dst) & (1 << dim) != 0 {
                            step(at, dim);
                            at ^= 1 << dim;
                        }
                    }
                }
                Net::Mesh => {
                    let (x, y) = (|r: u32| r % 16, |r: u32| r / 16);
                    while y(at) != y(dst) {
                        let up = y(dst) > y(at);
                        step(at, if up { 0 } else { 1 });
                        at = if up { at + 16 } else { at - 16 };
                    }
                    while x(at) != x(dst) {
                        let right = x(dst) > x(at);
                        step(at, if right { 2 } else { 3 });
                        at = if right { at + 1 } else { at - 1 };
                    }
                }
            }
            assert_eq!(at, dst, "{}: a path from {src} ends at {at}", case.dir);
            messages += share;
        }
    }
    let busiest = load.iter().copied().fold(0.0, f64::max);
    (hops / messages, busiest)
}

/// The most a terminal can have accepted, as a fraction of a link's tokens: its own
/// link's, or the busiest link's share.
fn path_bound(case: &Case) -> f64 {
    1.0f64.min(1.0 / paths(case).1)
}

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

fn read_csv(case: &str, tool: &str) -> Option<Vec<Point>> {
    let text =
        std::fs::read_to_string(root().join(DATA).join(case).join(format!("{tool}.csv"))).ok()?;
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

fn read_provenance(case: &str, tool: &str) -> Option<toml::Table> {
    let text =
        std::fs::read_to_string(root().join(DATA).join(case).join(format!("{tool}.toml"))).ok()?;
    Some(toml::from_str(&text).unwrap_or_else(|e| panic!("{tool}.toml: {e}")))
}

/// One tool's stored run of one case: its file stem, its printed name, its points and
/// provenance.
type Run = (
    &'static str,
    &'static str,
    Option<Vec<Point>>,
    Option<toml::Table>,
);

/// The three tools' stored runs of `case`.
fn runs(case: &Case) -> Vec<Run> {
    TOOLS
        .iter()
        .map(|&(t, name)| (t, name, read_csv(case.dir, t), read_provenance(case.dir, t)))
        .collect()
}

fn cell(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "—".into(), |x| format!("{x:.digits$}"))
}

/// The page from the stored runs.
fn render() -> String {
    let all: Vec<(&Case, Vec<Run>)> = CASES.iter().map(|c| (c, runs(c))).collect();
    let mut s = String::from("# Beside BookSim 2 and CAMINOS\n\n");
    s.push_str(
        "<!-- Generated by tests/peers_page.rs from docs/validation/peers/ (tools/peers.sh); \
         do not edit: EMU_WRITE_PEERS_PAGE=1 cargo test --release --test integration \
         peers_page:: -->\n\n",
    );
    s.push_str(
        "Four cases where the three simulators' models coincide: 256 routers with one \
         terminal each (the binary 8-cube and the 16 × 16 mesh), dimension-order routing, \
         one virtual channel, one-packet messages of 34 tokens (1 header byte, 32 data \
         bytes, end of packet), Bernoulli arrivals, from light load past saturation, with \
         uniform destinations and with one permutation (bit complement). The peers run the \
         configurations in `benches/throughput` (`hc256.*`, the speed bench's, and \
         `mesh256.*`) with only the pattern, the load and the run length changed. Units: \
         messages per terminal per token time (offered and accepted) and mean message \
         latency in token times, creation to delivery (one token time = 100 ns = 10 emu \
         ticks = one BookSim or CAMINOS cycle). Load is the fraction of a link's tokens \
         offered (emu's `injection.load` counts data bytes, so it is set to load × \
         32/34).\n\n",
    );
    s.push_str("## Where the numbers come from\n\n");
    for (case, runs) in &all {
        let _ = writeln!(s, "- {}:", case.title);
        for (t, name, points, prov) in runs {
            match (points, prov) {
                (Some(_), Some(p)) => {
                    let get = |k: &str| p.get(k).and_then(|v| v.as_str()).unwrap_or("not recorded");
                    let _ = writeln!(
                        s,
                        "  - {name}: {} · `{}` · seeds {} · {} · {}",
                        get("version"),
                        get("command"),
                        get("seeds"),
                        get("date"),
                        get("cpu")
                    );
                }
                _ => {
                    let _ = writeln!(s, "  - {name}: not run (no `{DATA}/{}/{t}.csv`)", case.dir);
                }
            }
        }
    }
    s.push_str(
        "\nRerun with `BOOKSIM=… CAMINOS=… tools/peers.sh` (the script says how to build \
         the peers; neither is part of this repository).\n\n",
    );
    s.push_str(&at_a_glance(&all));
    s.push_str(&mechanisms(&all));
    for (case, runs) in &all {
        s.push_str(&case_section(case, runs));
    }
    s
}

/// Each case's light-load latency, saturation and first short load for each simulator.
fn at_a_glance(all: &[(&Case, Vec<Run>)]) -> String {
    let mut s = String::from(
        "## At a glance\n\n\
         Latency at the lightest load (token times), the most accepted (% of a link's \
         tokens per terminal) and the first load accepted below 95 % of offered or that a \
         seed did not finish (\"unstable\" in BookSim, \"undelivered\" in emu).\n\n\
         | case | simulator | latency at the lightest load | most accepted | first load short |\n\
         | --- | --- | --: | --: | --: |\n",
    );
    for (case, runs) in all {
        for (_, name, points, _) in runs {
            let Some(points) = points else { continue };
            let first_short =
                first_short(points).map_or_else(|| "none".to_string(), |p| p.load.clone());
            let light = points.first().and_then(|p| p.latency.map(|l| l.mean));
            let _ = writeln!(
                s,
                "| {} | {name} | {} | {:.1} % | {first_short} |",
                case.title,
                cell(light, 1),
                100.0 * most_accepted(points) * TOKENS
            );
        }
    }
    s
}

/// The most a simulator accepted, mean over the seeds, in messages per terminal per
/// token time.
fn most_accepted(points: &[Point]) -> f64 {
    points
        .iter()
        .filter_map(|p| p.accepted.map(|a| a.mean))
        .fold(f64::NAN, f64::max)
}

/// One case: what it is, its picture, its table, its seeds and emu's switched runs.
fn case_section(case: &Case, runs: &[Run]) -> String {
    let (hops, busiest) = paths(case);
    let mut s = format!(
        "\n## {}\n\n{} Under dimension-order routing a message makes {hops:.2} \
         router-to-router hops on average, and the busiest link carries {busiest:.2} times \
         each terminal's offered rate, so no simulator can accept more than {:.1} % of a \
         link's tokens per terminal (the terminal's own link bounds it at 100 %).\n\n",
        case.title,
        case.what,
        100.0 * path_bound(case)
    );
    let _ = writeln!(
        s,
        "![Accepted rate and mean message latency against offered load for emu, BookSim 2 \
         and CAMINOS, {}, each point the mean over the seeds with a bar from the least to \
         the greatest]({})\n",
        case.title.to_lowercase(),
        picture_link(case)
    );
    s.push_str(
        "Each cell is the mean over the seeds, with the least and the greatest seed's value \
         in brackets where they differ.\n\n",
    );
    s.push_str("| load | offered |");
    for (_, name, _, _) in runs {
        let _ = write!(s, " {name} accepted | {name} latency |");
    }
    s.push_str("\n| --: | --: |");
    for _ in runs {
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
        for (_, _, points, _) in runs {
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
    s.push_str(&seeds(runs));
    s.push_str(&switched(case));
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
    let mut s = String::from("\nSeeds:\n\n");
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
            "\nAt the lightest load emu's mean latency is {:+.1} token times from BookSim \
             2's and {:+.1} from CAMINOS's; the widest seed spread of the three there is \
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

/// A case's picture, relative to the repository's root.
fn picture_path(case: &Case) -> String {
    format!("book/src/images/peers-{}.svg", case.dir)
}

/// A case's picture as the page links it.
fn picture_link(case: &Case) -> String {
    format!("images/peers-{}.svg", case.dir)
}

/// The picture of a case's stored runs.
fn picture(case: &Case) -> String {
    let curves: Vec<PeerCurve> = TOOLS
        .iter()
        .filter_map(|&(t, name)| {
            let points = read_csv(case.dir, t)?;
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
        &format!("{}: emu, BookSim 2, CAMINOS 0.6.3", case.title),
        &curves,
    )
    .expect("the picture is drawn")
}

/// emu's switched runs of a case (`emu-switched.csv`: variant, settings, load, offered,
/// accepted, latency, status), as the stored fields.
fn switched_lines(case: &Case) -> Vec<Vec<String>> {
    let path = root().join(DATA).join(case.dir).join("emu-switched.csv");
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<String> = line.split(',').map(str::to_string).collect();
            assert_eq!(f.len(), 7, "{}/emu-switched.csv: {line}", case.dir);
            f
        })
        .collect()
}

/// emu with a mechanism switched, as a table; nothing if it was not run.
fn switched(case: &Case) -> String {
    let lines = switched_lines(case);
    if lines.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "\nemu with one mechanism switched (`emu-switched.csv`, seed 1):\n\n\
         | variant | settings | load | accepted | latency |\n\
         | --- | --- | --: | --: | --: |\n",
    );
    for f in lines {
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
            num(&f[4], 5),
            num(&f[5], 1),
            if f[6] == "ok" {
                String::new()
            } else {
                format!(" ({})", f[6])
            }
        );
    }
    s
}

/// The stored figures the explanations quote, by case directory.
struct Figures<'a> {
    all: &'a [(&'a Case, Vec<Run>)],
}

impl Figures<'_> {
    fn points(&self, case: &str, tool: &str) -> Option<&[Point]> {
        self.all
            .iter()
            .find(|(c, _)| c.dir == case)
            .and_then(|(_, runs)| runs.iter().find(|r| r.0 == tool))
            .and_then(|r| r.2.as_deref())
    }

    /// Mean latency at the lightest load, token times, as a number.
    fn light_value(&self, case: &str, tool: &str) -> Option<f64> {
        self.points(case, tool)
            .and_then(|p| p.first())
            .and_then(|p| p.latency.map(|l| l.mean))
    }

    /// The most accepted, fraction of a link's tokens, as a number.
    fn most_value(&self, case: &str, tool: &str) -> Option<f64> {
        self.points(case, tool)
            .map(|p| most_accepted(p) * TOKENS)
            .filter(|x| x.is_finite())
    }

    /// The accepted rate at the heaviest load as a share of the offered one.
    fn heaviest_share(&self, case: &str, tool: &str) -> Option<f64> {
        let p = self.points(case, tool)?.last()?;
        Some(p.accepted?.mean / p.offered)
    }

    /// Mean latency at the lightest load, token times.
    fn light(&self, case: &str, tool: &str) -> String {
        cell(self.light_value(case, tool), 1)
    }

    /// The most accepted, % of a link's tokens.
    fn most(&self, case: &str, tool: &str) -> String {
        self.most_value(case, tool)
            .map_or_else(|| "—".into(), |x| format!("{:.1} %", 100.0 * x))
    }

    /// emu's switched `variant` at the lightest load (its latency) or the heaviest (its
    /// accepted rate, % of a link's tokens).
    fn switched(&self, case: &str, variant: &str, heaviest: bool) -> String {
        let Some((c, _)) = self.all.iter().find(|(c, _)| c.dir == case) else {
            return "—".into();
        };
        let lines = switched_lines(c);
        let rows: Vec<_> = lines.iter().filter(|r| r[0] == variant).collect();
        let row = if heaviest { rows.last() } else { rows.first() };
        match row {
            Some(r) if heaviest => r[4]
                .parse::<f64>()
                .map_or_else(|_| "—".into(), |a| format!("{:.1} %", 100.0 * a * TOKENS)),
            Some(r) => cell(r[5].parse().ok(), 1),
            None => "—".into(),
        }
    }
}

/// Where the models differ, with the stored numbers that show each gap and what emu
/// measures when it switches the mechanism.
fn mechanisms(all: &[(&Case, Vec<Run>)]) -> String {
    let f = Figures { all };
    let cube = "hypercube8-uniform";
    let mut s = format!(
        "
## Where the models differ

- **Per-hop delay.** emu's C104 takes a header time of 500 ns (5 token times) per
  switch (INMOS ch. 7 §7.6), which covers the header's bits and the wire as well as the
  routing decision (INMOS ch. 6 §6.3.6), so a shorter wire alone changes nothing: the
  switch's own delay takes up the difference. On the 8-cube with uniform traffic, at the
  lightest load the latency is {} token times in emu, {} in BookSim 2 and {} in CAMINOS,
  whose routers and one-cycle links pass a header in fewer cycles; emu with a header time
  of 110 ns and a 10 ns wire (the least the model allows) gives {}.
",
        f.light(cube, "emu"),
        f.light(cube, "booksim"),
        f.light(cube, "caminos"),
        f.switched(cube, "short hops", false),
    );
    s.push_str(&path_length(&f));
    let _ = write!(
        s,
        "- **Buffers and flow control.** emu's C104 has one packet (34 tokens) of buffering at
  each input and each output, with credits returned in flow-control tokens of 8; BookSim
  buffers 34 flits per input (virtual cut-through in effect, no output buffer); CAMINOS
  8 phits per input (wormhole). On the 8-cube with uniform traffic the most accepted is
  {} of a link's tokens in emu, {} in BookSim 2 and {} in CAMINOS, in the order of their
  buffering; emu with 8-token output buffers accepts {} at the heaviest load.
",
        f.most(cube, "emu"),
        f.most(cube, "booksim"),
        f.most(cube, "caminos"),
        f.switched(cube, "8-token output buffers", true),
    );
    s.push_str(&mesh_saturation(&f));
    s.push_str(&contention_free(&f));
    s.push_str(
        "- **Accounting.** emu's latency runs from a message's creation to its delivery (source
  queue included), as BookSim's packet latency and CAMINOS's message delay do; the
  measured windows differ in length (emu 100 µs warm-up and 500 µs measured; BookSim
  3 warm-up and up to 10 measured periods of 2,000 cycles, stopping when it converges,
  and calling a load past saturation unstable; CAMINOS 2,000 and 20,000 cycles).
",
    );
    s
}

/// The case of `CASES` stored in `dir`.
fn case(dir: &str) -> &'static Case {
    CASES
        .iter()
        .find(|c| c.dir == dir)
        .unwrap_or_else(|| panic!("no case {dir}"))
}

/// How the light-load gap between emu and each peer grows with the path: the gap's
/// growth per hop between a network's uniform case and its bit complement.
fn path_length(f: &Figures) -> String {
    let per_hop = |uniform: &str, bitcomp: &str, peer: &str| -> Option<(f64, f64, f64, f64, f64)> {
        let gap = |c: &str| Some(f.light_value(c, "emu")? - f.light_value(c, peer)?);
        let (hu, hb) = (paths(case(uniform)).0, paths(case(bitcomp)).0);
        let (gu, gb) = (gap(uniform)?, gap(bitcomp)?);
        Some((gu, hu, gb, hb, (gb - gu) / (hb - hu)))
    };
    let line = |uniform: &str, bitcomp: &str, peer: &str| match per_hop(uniform, bitcomp, peer) {
        Some((gu, hu, gb, hb, per)) => format!(
            "{gu:+.1} token times over {hu:.2} hops (uniform) and {gb:+.1} over {hb:.2} (bit \
             complement): {per:+.1} a hop"
        ),
        None => "not run".into(),
    };
    format!(
        "- **Path length.** A per-switch delay shows as a gap that grows with the path. emu's
  lightest-load latency less CAMINOS's, on the 8-cube: {}; on the mesh: {}. Less
  BookSim 2's, on the 8-cube: {}; on the mesh: {}. emu's 5 token times of header time a
  switch against CAMINOS's hop of about a cycle, and against BookSim's router pipeline
  and link of a few cycles. (The lightest loads hold a little queueing, which differs
  between the patterns: none on the cube under bit complement.)
",
        line("hypercube8-uniform", "hypercube8-bitcomp", "caminos"),
        line("grid16-uniform", "grid16-bitcomp", "caminos"),
        line("hypercube8-uniform", "hypercube8-bitcomp", "booksim"),
        line("grid16-uniform", "grid16-bitcomp", "booksim"),
    )
}

/// The mesh's saturation against the bound its routes set.
fn mesh_saturation(f: &Figures) -> String {
    let share = |dir: &str, tool: &str| {
        f.most_value(dir, tool).map_or_else(
            || "—".into(),
            |m| format!("{:.0} %", 100.0 * m / path_bound(case(dir))),
        )
    };
    let row = |dir: &str| {
        format!(
            "emu {}, BookSim 2 {}, CAMINOS {}",
            share(dir, "emu"),
            share(dir, "booksim"),
            share(dir, "caminos")
        )
    };
    format!(
        "- **The mesh's bisection.** On the mesh the routes, not the routers, set the
  ceiling: the busiest link carries {:.2} times a terminal's rate under uniform traffic
  and {:.2} under bit complement, so at most {:.1} % and {:.1} % of a link's tokens per
  terminal get through. Of those ceilings the most accepted reached: uniform, {}; bit
  complement, {}.
",
        paths(case("grid16-uniform")).1,
        paths(case("grid16-bitcomp")).1,
        100.0 * path_bound(case("grid16-uniform")),
        100.0 * path_bound(case("grid16-bitcomp")),
        row("grid16-uniform"),
        row("grid16-bitcomp"),
    )
}

/// The cube under bit complement, where no two messages share a link.
fn contention_free(f: &Figures) -> String {
    let dir = "hypercube8-bitcomp";
    let heaviest_latency = |tool: &str| {
        cell(
            f.points(dir, tool)
                .and_then(|p| p.last())
                .and_then(|p| p.latency.map(|l| l.mean)),
            1,
        )
    };
    let share = |tool: &str| {
        f.heaviest_share(dir, tool)
            .map_or_else(|| "—".into(), |x| format!("{:.1} %", 100.0 * x))
    };
    // A DS-Link data token is 10 bits, an end-of-packet or flow-control token 4 (INMOS
    // ch. 6 §6.1.1); one flow-control token returns credit for 8 tokens. A link loaded
    // both ways carries each message's 33 data tokens and end of packet, and the
    // flow-control tokens for the message going the other way.
    let bits = 33.0 * 10.0 + 4.0 + TOKENS / 8.0 * 4.0;
    format!(
        "- **No contention.** On the cube under bit complement no two messages share a
  link, so the three differ only in what a link carries: at the heaviest load ({}) emu
  accepted {} of what was offered, BookSim 2 {} and CAMINOS {}. On a DS-Link loaded both
  ways a message and the flow-control tokens of the one coming the other way take {:.0}
  bit times where 34 tokens of 10 bits would take 340 (an end-of-packet token is 4 bits,
  the flow-control tokens {:.0} in all), so emu's links carry at most {:.1} % of a
  link's tokens, where a BookSim or CAMINOS link carries a flit or phit every cycle. At
  the heaviest load emu's links are that much nearer their ceiling, and its mean
  latency there is {} token times against BookSim 2's {} and CAMINOS's {}.
",
        f.points(dir, "emu")
            .and_then(|p| p.last())
            .map_or("—", |p| p.load.as_str()),
        share("emu"),
        share("booksim"),
        share("caminos"),
        bits,
        TOKENS / 8.0 * 4.0,
        100.0 * TOKENS * 10.0 / bits,
        heaviest_latency("emu"),
        heaviest_latency("booksim"),
        heaviest_latency("caminos"),
    )
}

#[test]
fn the_peers_page_is_rendered_from_the_stored_runs() {
    let page = render();
    let path = root().join(PAGE);
    let write = std::env::var_os("EMU_WRITE_PEERS_PAGE").is_some();
    if write {
        std::fs::write(&path, &page).expect("the page written");
    }
    for case in &CASES {
        let svg = picture(case);
        let picture = picture_path(case);
        if write {
            std::fs::write(root().join(&picture), &svg).expect("the picture written");
        }
        let stored = std::fs::read_to_string(root().join(&picture)).unwrap_or_default();
        assert!(
            stored == svg,
            "{picture} is not what {DATA}/{} gives; rerun with EMU_WRITE_PEERS_PAGE=1 cargo \
             test --release --test integration peers_page::",
            case.dir
        );
    }
    let file = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        file == page,
        "{PAGE} is not what {DATA} gives; rerun with EMU_WRITE_PEERS_PAGE=1 cargo test \
         --release --test integration peers_page::"
    );
    // Every stored run is on the page, one row per load, in its case's section.
    for case in &CASES {
        let section = page
            .split(&format!("\n## {}\n", case.title))
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .unwrap_or_else(|| panic!("no section for {}", case.title));
        for (t, name) in TOOLS {
            if let Some(points) = read_csv(case.dir, t) {
                assert!(!points.is_empty(), "{}/{t}.csv has no runs", case.dir);
                assert!(section.contains(&format!(" {name} accepted |")), "{name}");
                for p in &points {
                    assert!(
                        section.contains(&format!("| {} | {:.5} |", p.load, p.offered)),
                        "{}/{t}: load {}",
                        case.dir,
                        p.load
                    );
                }
            }
        }
    }
}
