//! The validation pages (`book/src/validation/`) are generated from the stored run
//! (`docs/validation/results.json` and `provenance.toml`), never typed: the checked-in
//! pages must be what the renderer makes of the stored inputs, and
//! `EMU_WRITE_VALIDATION_PAGES=1` rewrites them. The renderer also reads a fresh
//! `--quick` run, and shows a known miss with its explanation.

use emu::reproduce::pages::{self, PagesError, Provenance, Results};
use emu::reproduce::{Report, Row, Table, Tolerance, table};
use std::path::Path;
use std::process::Command;

const EMU: &str = env!("CARGO_BIN_EXE_emu");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A provenance for inputs made in a test.
fn test_provenance() -> Provenance {
    Provenance::parse(
        r#"
form = "quick"
commit = "0000000"
date = "2026-11-27"
command = "emu reproduce sci-bus --quick --json results.json"
cpu = "test machine"
cores = 2

[wall_time_s]
sci-bus = 0.5
"#,
    )
    .expect("a valid provenance")
}

/// `EMU_STORE_RERUN=DIR` (`tools/validation-pages.sh --only`): the JSON files in DIR,
/// each `emu reproduce NAME --json`, replace their experiments' reports in the stored
/// results before the pages are rendered.
fn store_rerun() {
    let Some(dir) = std::env::var_os("EMU_STORE_RERUN") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the rerun's directory")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let texts: Vec<String> = files
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("a rerun's JSON"))
        .collect();
    let path = root().join(pages::INPUTS).join("results.json");
    let stored = std::fs::read_to_string(&path).expect("the stored results");
    let spliced = pages::splice(
        &stored,
        &texts.iter().map(String::as_str).collect::<Vec<_>>(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&path, spliced + "\n").expect("the stored results written");
}

#[test]
fn the_checked_in_pages_are_rendered_from_the_stored_results() {
    store_rerun();
    let rendered = pages::render_dir(&root().join(pages::INPUTS))
        .unwrap_or_else(|e| panic!("{}: {e}", pages::INPUTS));
    let dir = root().join(pages::DIR);
    if std::env::var_os("EMU_WRITE_VALIDATION_PAGES").is_some() {
        std::fs::create_dir_all(&dir).expect("the pages' directory");
        for p in &rendered {
            std::fs::write(dir.join(p.file), &p.text).expect("a page written");
        }
    }
    let mut problems = Vec::new();
    for p in &rendered {
        let path = format!("{}/{}", pages::DIR, p.file);
        let Ok(file) = std::fs::read_to_string(dir.join(p.file)) else {
            problems.push(format!("{path}: missing"));
            continue;
        };
        if file != p.text {
            let (n, (was, now)) = file
                .lines()
                .chain(std::iter::repeat(""))
                .zip(p.text.lines().chain(std::iter::repeat("")))
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .unwrap_or((0, ("", "")));
            problems.push(format!(
                "{path}:{}: differs\n  checked in: {was}\n  rendered:   {now}",
                n + 1
            ));
        }
    }
    // A page the renderer no longer makes is stale.
    for entry in std::fs::read_dir(&dir).expect("the pages' directory") {
        let name = entry.expect("an entry").file_name();
        let name = name.to_string_lossy();
        if !rendered.iter().any(|p| p.file == name) {
            problems.push(format!("{}/{name}: not a generated page", pages::DIR));
        }
    }
    assert!(
        problems.is_empty(),
        "{}\nthe validation pages are not the ones the stored results give: rerun with\n  {}",
        problems.join("\n"),
        pages::REGENERATE
    );
}

#[test]
fn a_fresh_quick_run_renders_with_every_row() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let json = tmp.path().join("sci-bus.json");
    let o = Command::new(EMU)
        .args(["reproduce", "sci-bus", "--quick", "-q", "--json"])
        .arg(&json)
        .output()
        .expect("emu runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&json).expect("the JSON written");
    let results = Results::parse(&text).expect("the JSON reads back");
    let provenance = test_provenance();
    let rendered = pages::render(&results, &provenance);
    assert_eq!(
        rendered,
        pages::render(&results, &provenance),
        "deterministic"
    );
    let files: Vec<&str> = rendered.iter().map(|p| p.file).collect();
    assert_eq!(
        files,
        [
            "index.md",
            "inmos-ch6.md",
            "inmos-ch7.md",
            "sci.md",
            "fabrics.md",
            "proteus.md"
        ]
    );
    let sci = &rendered[3].text;
    assert!(sci.contains("\n## sci-bus\n"), "{sci}");
    assert!(sci.contains("the **quick** form"), "{sci}");
    // Every row of the run is on the page, with its numbers as the text report prints
    // them, and the counts add up.
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let mut rows = 0;
    for t in v["reports"][0]["tables"].as_array().expect("tables") {
        for row in t["rows"].as_array().expect("rows") {
            rows += 1;
            let reference = table::num(row["reference"].as_f64().expect("a number"));
            let emulated = table::num(row["emulated"].as_f64().expect("a number"));
            let line = format!(
                "| {} | {reference} | {} | {emulated} |",
                row["parameter"].as_str().expect("text"),
                row["source"].as_str().expect("text")
            );
            assert!(sci.contains(&line), "{line}\n{sci}");
        }
    }
    assert!(rows > 5, "{rows}");
    let counts = pages::counts_table(&results, "book/src/validation/");
    assert!(
        counts.contains(&format!(
            "| [SCI](book/src/validation/sci.md) | SCI rings | 1 | {rows} | {rows} | 0 | 0 |"
        )),
        "{counts}"
    );
    assert!(
        rendered[0]
            .text
            .contains(&pages::counts_table(&results, ""))
    );
    // A document no report is about says so.
    assert!(
        rendered[1]
            .text
            .contains("No experiment reproduces a number of INMOS ch. 6")
    );
}

/// A report with a row that passes and a known miss, as JSON.
fn with_a_known_miss(stored_pass: Option<bool>) -> String {
    let report = Report {
        experiment: "sci-made-up".into(),
        section: "SCI §4.9".into(),
        tables: vec![Table {
            title: "Fig. 99: a | table, E[B²] ~70 % <b> _x_ n_dt, 4 < 8\nnext".into(),
            rows: vec![
                Row::new(
                    "R=4",
                    10.0,
                    "Fig. 99",
                    10.1,
                    "B/ns",
                    Tolerance::Relative(0.05),
                ),
                Row::new(
                    "R=16",
                    10.0,
                    "Fig. 99",
                    13.0,
                    "B/ns",
                    Tolerance::Relative(0.05),
                )
                .note("read off the curve")
                .expected_miss("the paper's ring has no echo delay; ours does"),
            ],
            notes: vec!["a table note".into()],
        }],
        curves: Vec::new(),
    };
    let mut v = table::json(&[report]);
    if let Some(pass) = stored_pass {
        v["reports"][0]["tables"][0]["rows"][1]["pass"] = pass.into();
    }
    v.to_string()
}

#[test]
fn a_known_miss_and_its_explanation_are_on_the_page() {
    let results = Results::parse(&with_a_known_miss(None)).expect("reads back");
    let rendered = pages::render(&results, &test_provenance());
    let sci = &rendered[3].text;
    for expected in [
        "### Fig. 99: a \\| table, E\\[B²\\] \\~70 % \\<b> \\_x\\_ n_dt, 4 < 8 next\n",
        "| R=4 | 10 | Fig. 99 | 10.1 | B/ns | +1.00% | ±5% | pass |  |",
        "| R=16 | 10 | Fig. 99 | 13 | B/ns | +30.00% | ±5% | **MISS** (known, 1) | read off the curve |",
        "- a table note",
        "1. **R=16** (Fig. 99): the paper's ring has no echo delay; ours does",
        "- result: 1 of 2 rows pass, 1 known miss",
    ] {
        assert!(sci.contains(expected), "{expected}\n{sci}");
    }
    assert!(
        rendered[0]
            .text
            .contains("| [SCI](sci.md) | SCI rings | 1 | 2 | 1 | 1 | 0 |"),
        "{}",
        rendered[0].text
    );
}

#[test]
fn inputs_the_renderer_cannot_use_are_errors() {
    let e = Results::parse(&with_a_known_miss(Some(true))).unwrap_err();
    assert!(matches!(e, PagesError::VerdictChanged { .. }), "{e}");
    let e = Results::parse(&with_a_known_miss(None).replace("SCI §4.9", "Nobody §1")).unwrap_err();
    assert!(matches!(e, PagesError::UnknownDocument { .. }), "{e}");
    let e = Results::parse(&with_a_known_miss(None).replace(table::SCHEMA, "emu-reproduce/0"))
        .unwrap_err();
    assert!(matches!(e, PagesError::Schema { .. }), "{e}");
    assert!(matches!(
        Results::parse("{").unwrap_err(),
        PagesError::Json(_)
    ));
    assert!(matches!(
        Provenance::parse("form = \"slow\"").unwrap_err(),
        PagesError::Toml(_)
    ));
}

#[test]
fn the_readme_shows_the_counts_of_the_stored_results() {
    let json = std::fs::read_to_string(root().join(pages::INPUTS).join("results.json"))
        .expect("the stored results");
    let results = Results::parse(&json).expect("valid stored results");
    let table = pages::counts_table(&results, "book/src/validation/");
    let readme = std::fs::read_to_string(root().join("README.md")).expect("the README");
    assert!(
        readme.contains(table.trim_end()),
        "README.md's validation table is not the one the stored results give; paste:\n{table}"
    );
}

#[test]
fn a_rerun_replaces_its_experiments_reports_and_keeps_the_rest_byte_for_byte() {
    let stored = std::fs::read_to_string(root().join(pages::INPUTS).join("results.json"))
        .expect("the stored results");
    // Nothing rerun: the file as `emu reproduce --json` wrote it (without its newline).
    assert_eq!(pages::splice(&stored, &[]).expect("splices") + "\n", stored);
    let v: serde_json::Value = serde_json::from_str(&stored).expect("JSON");
    let first = v["reports"][0]["experiment"].as_str().expect("a name");
    let rerun = serde_json::json!({
        "schema": table::SCHEMA,
        "emu_version": "0.1.0",
        "reports": [{"experiment": first, "section": "x", "pass": true, "tables": []}],
    })
    .to_string();
    let spliced: serde_json::Value =
        serde_json::from_str(&pages::splice(&stored, &[&rerun]).expect("splices")).expect("JSON");
    assert_eq!(spliced["reports"][0]["section"], "x");
    assert_eq!(
        spliced["reports"].as_array().map(Vec::len),
        v["reports"].as_array().map(Vec::len)
    );
    assert_eq!(spliced["reports"][1], v["reports"][1]);
    let unknown = rerun.replace(first, "no-such-experiment");
    assert!(matches!(
        pages::splice(&stored, &[&unknown]),
        Err(PagesError::NotStored { .. })
    ));
}
