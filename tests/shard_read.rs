//! The shard reader every kind of shard shares (`emu::shard::read`), on a made-up
//! format: units read once in key order, and each refusal naming its file and line.

use emu::shard::read::{Format, MergeError, Read, UnitError, UnitRead, read};
use std::fmt;

/// A format of numbered units holding a number, with an end line.
struct Toy;

#[derive(Clone, serde::Deserialize)]
struct Head {
    shard: [u32; 2],
    units: usize,
}

#[derive(Debug)]
struct Stray(usize);

impl fmt::Display for Stray {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unit {} is not one of this job's", self.0)
    }
}

impl Format for Toy {
    type Header = Head;
    type Key = usize;
    type Unit = i64;
    type Stray = Stray;
    type Difference = String;
    const TAG: &'static str = "toy/1";
    const JOB: &'static str = "toy";
    const NOUN: &'static str = "toy job";
    const UNIT: &'static str = "unit";
    const RESULTS: &'static str = "values";
    const END: Option<&'static str> = Some("end");

    fn version(_: &Head) -> Option<&str> {
        None
    }
    fn check(h: &mut Head) -> Result<(), &'static str> {
        if h.units == 0 {
            Err("no units")
        } else {
            Ok(())
        }
    }
    fn shard(h: &Head) -> [u32; 2] {
        h.shard
    }
    fn differ(f: &Head, at: &str, h: &Head) -> Option<String> {
        (f.units != h.units).then(|| format!("units differ from {at}"))
    }
    fn unit(h: &Head, v: serde_json::Value) -> UnitRead<Self> {
        #[derive(serde::Deserialize)]
        struct L {
            i: usize,
            v: i64,
        }
        let l: L = serde_json::from_value(v)?;
        if l.i >= h.units {
            return Err(UnitError::Stray(Stray(l.i)));
        }
        Ok((l.i, l.v))
    }
    fn conflict(a: (&str, &i64), b: (&str, &i64)) -> bool {
        a.1 != b.1
    }
    fn name(_: &Head, i: usize) -> String {
        format!("unit {i}")
    }
}

const H: &str = r#"{"format":"toy/1","shard":[1,2],"units":3}"#;

fn read_toy(files: &[(&str, String)]) -> Result<Read<Toy>, MergeError<Toy>> {
    let files: Vec<(String, String)> = files
        .iter()
        .map(|(n, t)| (n.to_string(), t.clone()))
        .collect();
    read::<Toy>(&files)
}

fn err(files: &[(&str, String)]) -> String {
    match read_toy(files) {
        Ok(_) => panic!("read"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn units_of_every_file_are_read_once_in_key_order() {
    let a = format!("{H}\n{{\"i\":2,\"v\":-5}}\n{{\"end\":1}}\n");
    let b = format!("\n{H}\n{{\"i\":0,\"v\":7}}\n{{\"i\":2,\"v\":-5}}\n{{\"end\":2}}\n");
    let r = read_toy(&[("a", a), ("b", b)]).expect("reads");
    assert_eq!(
        r.units.into_iter().collect::<Vec<_>>(),
        vec![(0, 7), (2, -5)]
    );
}

#[test]
fn each_shared_refusal_names_its_file_and_line() {
    let unit = "{\"i\":1,\"v\":1}";
    assert_eq!(
        err(&[("a", format!("{unit}\n"))]),
        "a:1: a unit before any header line"
    );
    assert_eq!(
        err(&[("a", format!("{H}\n[1]\n"))]),
        "a:2: not a line of an emu toy shard (each line is a JSON object, a header or a unit)"
    );
    assert_eq!(
        err(&[("a", "{\"format\":\"toy/0\"}\n".into())]),
        "a:1: format \"toy/0\" is not this emu's \"toy/1\": make the shard again with this emu"
    );
    assert_eq!(
        err(&[("a", format!("{H}\n{unit}\n"))]),
        "a:1: shard 1/2 is incomplete (it has no end line): run it again"
    );
    assert_eq!(
        err(&[("a", format!("{H}\n{H}\n"))]),
        "a:1: shard 1/2 is incomplete (it has no end line): run it again"
    );
    assert_eq!(
        err(&[("a", format!("{H}\n{{\"i\":9,\"v\":1}}\n"))]),
        "a:2: unit 9 is not one of this job's"
    );
    assert_eq!(
        err(&[
            ("a", format!("{H}\n{unit}\n{{\"end\":1}}\n")),
            ("b", format!("{H}\n{{\"i\":1,\"v\":2}}\n{{\"end\":1}}\n"))
        ]),
        "b:2: unit 1 appears twice with different values"
    );
    assert_eq!(
        err(&[(
            "a",
            format!("{H}\n{{\"end\":0}}\n{}\n", H.replace("3}", "4}"))
        )]),
        "a:3: a shard of another toy job (units differ from a:1)"
    );
    assert_eq!(
        err(&[(
            "a",
            "{\"format\":\"toy/1\",\"shard\":[1,1],\"units\":0}\n".into()
        )]),
        "a:1: not a line of an emu toy shard (no units)"
    );
    assert_eq!(err(&[("a", "\n".into())]), "no shard header in the input");
    assert_eq!(
        err(&[("a", "{\"end\":0}\n".into())]),
        "a:1: a unit before any header line"
    );
}
