//! The analytic models and published tables of the reproductions (`emu::reproduce`):
//! the SCI bus, the fabric's parallel departures and median/SIQR columns, the DS-Link
//! bandwidth formulas, the C104 tables, and one short fabric design point.

use emu::parts::fabric::Strategy;
use emu::parts::sci::PacketMix;
use emu::reproduce::c104_published::Family::{Cube, Grid, Min};
use emu::reproduce::c104_published::Kind::{Random, Systematic, Universal};
use emu::reproduce::c104_published::TABLES;
use emu::reproduce::dslink_bandwidth::{Usage, asymptote, data_rate, outbound_bits};
use emu::reproduce::fabric::columns::median_siqr;
use emu::reproduce::fabric::parallel_departures::model;
use emu::reproduce::fabric::point::Point;
use emu::reproduce::sci::bus::Bus;

#[test]
fn the_bus_is_pollaczek_khinchine_over_chunks() {
    let mix = PacketMix::PAPER;
    let bus = Bus { cycle_ns: 2.0 };
    // 0.8 · 4 + 0.2 · 20 = 7.2 cycles; 0.8 · 16 + 0.2 · 400 = 92.8 cycles².
    let (s1, s2) = bus.service(&mix);
    assert!((s1 - 14.4).abs() < 1e-9 && (s2 - 371.2).abs() < 1e-9);
    assert_eq!(bus.max_throughput(), 2.0);
    // Empty: the service alone. Half load: λ = 1 / 28.8 packets a ns.
    assert!((bus.latency(&mix, 1e-12).unwrap() - 14.4).abs() < 1e-6);
    let l = bus.latency(&mix, 1.0).unwrap();
    let rate = 1.0 / 28.8;
    assert!((l - (rate * 371.2 / (2.0 * 0.5) + 14.4)).abs() < 1e-9);
    assert_eq!(bus.latency(&mix, 2.0), None);
}

#[test]
fn the_parallel_departures_model_is_a_binomial_over_the_rows() {
    // N = 64, bursts: p_col = 0.86678 (the document's own check, §7.3.2).
    let p_col = 1.0 - (1.0 - (2.0 - 1.0 / 64.0) / 64.0_f64).powf(64.0);
    assert!((p_col - 0.86678).abs() < 1e-5, "{p_col}");
    let total: f64 = (0..=8).map(|k| model(8, true, k)).sum();
    assert!((total - 100.0).abs() < 1e-9);
    // Bernoulli on 8 ports: p_col ≈ 1, so P(0) ≈ (7/8)^8.
    assert!((model(8, false, 0) - 100.0 * (7.0f64 / 8.0).powi(8)).abs() < 0.01);
}

#[test]
fn a_short_design_point_run_measures_its_packets() {
    let p = Point {
        per_crosspoint: 200,
        ..Point::design(4, 10.0, Strategy::Lof)
    };
    let s = p.run(1).expect("runs");
    assert!(s.mean_delay >= 34.0, "{s:?}");
    assert!(s.output_pct > 80.0 && s.output_pct <= 100.0, "{s:?}");
}

#[test]
fn the_documents_medians_and_siqrs_come_out() {
    // Table 7.9 LOF: median 8.4, SIQR 2.1; LOF-CLIQ: 6.4, 2.35 (§7.6.2).
    let lof = [6.6, 2.75, 11.9, 8.4, 10.8, 10.5];
    let (m, s) = median_siqr(&lof);
    assert!((m - 8.4).abs() < 1e-9 && (s - 2.1).abs() < 1e-9, "{m} {s}");
    let cliq = [9.3, 3.4, 10.2, 6.4, 11.3, 5.5];
    let (m, s) = median_siqr(&cliq);
    assert!((m - 6.4).abs() < 1e-9 && (s - 2.35).abs() < 1e-9, "{m} {s}");
    // Table 7.19-style lists of 8 (§7.6.4): HOF median −4, SIQR 3; LOF-CLIQ −2, 1.
    let hof = [-24.5, -7.0, -6.5, -4.0, -2.0, -0.5, 0.5, 1.0];
    assert_eq!(median_siqr(&hof), (-4.0, 3.0));
    let cliq = [-9.5, -9.0, -3.0, -2.0, -1.0, -1.0, -1.0, 0.5];
    assert_eq!(median_siqr(&cliq), (-2.0, 1.0));
}

#[test]
fn the_dslink_formulas_give_the_papers_numbers() {
    // Table 6.1 (Mbytes/s) and §6.1.5 limits.
    let t = |s, u| asymptote(s, u) / 8.0;
    assert!((t(1, Usage::Unidirectional) - 9.55).abs() < 0.005);
    assert!((t(1, Usage::Bidirectional) - 8.74).abs() < 0.005);
    assert!((t(2, Usage::Unidirectional) - 9.26).abs() < 0.005);
    assert!((t(2, Usage::Bidirectional) - 8.27).abs() < 0.005);
    // m a multiple of 256: the finite formula is the asymptote.
    let d = data_rate(2048, 1, 32, Usage::Unidirectional, true);
    assert!((d - asymptote(1, Usage::Unidirectional)).abs() < 1e-9);
    // one byte, one-byte header, unidirectional: B = 10 + 14 + 4·⌈2/8⌉ = 28 bits.
    assert_eq!(outbound_bits(1, 1, 32, Usage::Unidirectional, true), 28.0);
    assert_eq!(outbound_bits(1, 1, 32, Usage::Unidirectional, false), 25.0);
}

#[test]
fn every_c104_family_kind_and_size_appears_once() {
    for f in [Cube, Grid, Min] {
        for k in [Random, Systematic, Universal] {
            for s in [64, 256, 1024] {
                let n = TABLES
                    .iter()
                    .filter(|p| p.family == f && p.kind == k && p.size == s)
                    .count();
                assert_eq!(n, 1, "{f:?} {k:?} {s}");
            }
        }
    }
}
