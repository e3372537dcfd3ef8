//! The JSON report against its published schema (docs/report-schema.json): every
//! shipped topology under light random traffic of its family, every shipped traffic file
//! on a network of a family it fits, and a batch run, each validated in full (unknown
//! fields are errors: the schema says `additionalProperties: false` throughout).

use std::path::{Path, PathBuf};
use std::process::Command;

const EMU: &str = env!("CARGO_BIN_EXE_emu");

/// Short phases: the schema is about shape, not statistics.
const SHORT: [&str; 4] = [
    "--set",
    "phases.warmup_us=2",
    "--set",
    "phases.measure_us=10",
];

fn names(dir: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            let extension = p.extension()?;
            (extension == "toml" || extension == "graphml")
                .then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    v.sort();
    v
}

fn validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report-schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema")
}

/// Runs every case (topology, traffic, extra args) two at a time; returns each case's
/// report, or `None` if the run did not succeed (exit ≠ 0).
fn run_all(cases: &[(String, String, Vec<String>)]) -> Vec<Option<serde_json::Value>> {
    // One directory per call: the tests run at the same time.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let out = std::sync::Mutex::new(vec![None; cases.len()]);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some((t, p, extra)) = cases.get(i) else {
                        break;
                    };
                    let json: PathBuf = dir.join(format!("{i}.json"));
                    // A relay ring reads no phases (and refuses them): its run is short.
                    let short: &[&str] = if t.starts_with("relay") { &[] } else { &SHORT };
                    let o = Command::new(EMU)
                        .args(["-t", t, "-p", p, "-q", "--threads", "1", "--json"])
                        .arg(&json)
                        .args(short)
                        .args(extra)
                        .output()
                        .unwrap();
                    if !o.status.success() {
                        eprintln!(
                            "{t} × {p} {extra:?}: {}",
                            String::from_utf8_lossy(&o.stderr).trim()
                        );
                    }
                    if o.status.success() {
                        let v =
                            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
                        out.lock().unwrap()[i] = Some(v);
                    }
                }
            });
        }
    });
    out.into_inner().unwrap()
}

fn check(v: &jsonschema::Validator, case: &str, report: &serde_json::Value) {
    let errors: Vec<String> = v
        .iter_errors(report)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{case}: {errors:#?}");
}

/// The light random traffic of a topology's family.
fn family_traffic(topology: &str) -> (&'static str, Vec<String>) {
    if topology.starts_with("relay") {
        ("relay-balls", vec![])
    } else if topology.starts_with("sci-") {
        (
            "sci-uniform",
            vec!["--set".into(), "injection.load=0.02".into()],
        )
    } else if topology.starts_with("fabric") {
        (
            "bernoulli98",
            vec!["--set".into(), "injection.load=0.3".into()],
        )
    } else {
        (
            "uniform-rate",
            vec!["--set".into(), "injection.load=0.05".into()],
        )
    }
}

#[test]
fn every_shipped_topology_and_traffic_reports_to_the_schema() {
    let v = validator();
    let mut cases: Vec<(String, String, Vec<String>)> = Vec::new();
    for t in names("topologies") {
        let (p, extra) = family_traffic(&t);
        cases.push((t, p.into(), extra));
    }
    let traffics = names("traffic");
    for p in &traffics {
        for t in [
            "hypercube6",
            "sci-ring4",
            "fabric16-cicq-lof",
            "torus4-single",
        ] {
            cases.push((t.into(), p.clone(), vec![]));
        }
    }
    // torus4-ring is made to deadlock torus4-single (and a deadlock writes no report):
    // one message per terminal does not.
    cases.push((
        "torus4-single".into(),
        "torus4-ring".into(),
        vec![
            "--set".into(),
            "injection.kind=batch".into(),
            "--set".into(),
            "injection.messages=1".into(),
        ],
    ));
    // Link faults: a link nobody uses (everyone sends to terminal 1) dies, and the
    // report has its faults section.
    cases.push((
        "hypercube6".into(),
        "uniform".into(),
        [
            "pattern.kind=fixed",
            "pattern.destination=1",
            r#"faults.link_down=[{ link = "c104[33]:0", at_us = 1.0 }]"#,
            "faults.token_error_rate=1e-12",
        ]
        .iter()
        .flat_map(|s| ["--set".to_string(), s.to_string()])
        .collect(),
    ));
    // A batch run has a completion object; a permutation has flows.
    cases.push((
        "hypercube6".into(),
        "bitrev".into(),
        vec![
            "--set".into(),
            "injection.kind=batch".into(),
            "--set".into(),
            "injection.messages=2".into(),
        ],
    ));
    let reports = run_all(&cases);
    let mut fitted = std::collections::BTreeSet::new();
    for ((t, p, extra), r) in cases.iter().zip(&reports) {
        if let Some(r) = r {
            check(&v, &format!("{t} × {p} {extra:?}"), r);
            fitted.insert(p.clone());
        }
    }
    // Every topology ran under its family's traffic, and every traffic file on some
    // family.
    let topologies = names("topologies").len();
    let failed: Vec<&String> = cases[..topologies]
        .iter()
        .zip(&reports)
        .filter(|(_, r)| r.is_none())
        .map(|(c, _)| &c.0)
        .collect();
    assert!(
        failed.is_empty(),
        "topologies that failed to run: {failed:?}"
    );
    assert_eq!(
        fitted.iter().cloned().collect::<Vec<_>>(),
        traffics,
        "a traffic file ran nowhere"
    );
    let faults = reports[reports.len() - 2]
        .as_ref()
        .expect("the fault case runs");
    assert_eq!(
        faults["faults"]["links_down"][0]["cause"]["kind"],
        "scheduled"
    );
    assert!(
        reports[0]
            .as_ref()
            .is_some_and(|r| r.get("faults").is_none())
    );
    let batch = reports.last().unwrap().as_ref().unwrap();
    assert!(batch["completion"]["ticks"].is_u64());
    assert_eq!(batch["flows"].as_array().unwrap().len(), 64);
    assert_eq!(
        batch["links"].as_array().unwrap().len(),
        2 * (64 * 6 / 2 + 64)
    );
}

/// The checked-in schema is the one derived from the report types
/// (`emu::family::report_schema`); `EMU_WRITE_REPORT_SCHEMA=1` rewrites it.
#[test]
fn the_checked_in_schema_is_derived_from_the_report_types() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report-schema.json");
    let now = serde_json::to_string_pretty(&emu::family::report_schema()).unwrap() + "\n";
    if std::env::var_os("EMU_WRITE_REPORT_SCHEMA").is_some() {
        std::fs::write(&path, &now).unwrap();
    }
    let file = std::fs::read_to_string(&path).unwrap();
    assert!(
        file == now,
        "docs/report-schema.json is not the schema the report types give: rerun with \
         EMU_WRITE_REPORT_SCHEMA=1 cargo test --release --test integration schema::"
    );
}

#[test]
fn the_schema_rejects_what_it_should() {
    let v = validator();
    let r = run_all(&[("hypercube6".into(), "bitrev".into(), vec![])]);
    let good = r[0].clone().unwrap();
    check(&v, "good", &good);
    let mut extra = good.clone();
    extra["surprise"] = 1.into();
    assert!(!v.is_valid(&extra), "an undocumented field");
    let mut old = good.clone();
    old["schema"] = 1.into();
    assert!(!v.is_valid(&old), "another schema version");
    let mut missing = good;
    missing.as_object_mut().unwrap().remove("fairness");
    assert!(!v.is_valid(&missing), "a missing field");
}
