//! Tests of the App. A model (SCI App. A, §3-4): each reading of a misprint, zero load,
//! saturation, the starved node and the hot sender.

use super::*;

/// The default workload (SCI §4) with `f_data` data packets, common rate `lambda`.
fn uniform(n: usize, f_data: f64, lambda: f64) -> ModelInput {
    ModelInput {
        f_data,
        ..ModelInput::sci(vec![lambda; n], uniform_routing(n))
    }
}

/// The common per-node λ at which a uniform ring saturates.
fn saturation(n: usize, f_data: f64) -> f64 {
    saturation_scale(&uniform(n, f_data, 1.0)).expect("valid input")
}

fn run(input: &ModelInput) -> ModelResult {
    solve(input).expect("the model solves")
}

#[test]
fn zero_load_latency_is_the_fixed_delay() {
    for n in [2, 4, 16] {
        for lambda in [0.0, 1e-12] {
            let input = uniform(n, 0.2, lambda);
            for (i, node) in run(&input).nodes.iter().enumerate() {
                let hops: f64 = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| input.routing[i][j] * ((j + n - i) % n - 1) as f64)
                    .sum();
                let model = input.hop() + input.l_send() + hops * input.hop();
                // The emulator's zero-load latency is 1 + 4d + L with L the symbols
                // without the separator idle. The model's l_send = L + 1 counts that
                // idle, and its T_i has no cycle to queue, so the two sums agree.
                let emulator = 1.0 + 4.0 * (hops + 1.0) + (input.l_send() - 1.0);
                assert!(
                    (node.latency - model).abs() < 1e-6,
                    "{n} {lambda}: {node:?} vs {model}"
                );
                assert!((node.transit - model).abs() < 1e-6);
                assert!((node.latency - emulator).abs() < 1e-6);
                assert!(!node.saturated);
            }
        }
    }
    // Uniform 4-node ring, 80/20: mean distance 2, so 8 + 14.4 + 1 = 23.4 cycles.
    assert!((run(&uniform(4, 0.2, 0.0)).nodes[0].latency - 23.4).abs() < 1e-12);
}

#[test]
fn latency_grows_with_load_and_diverges_at_saturation() {
    for n in [4, 16] {
        let sat = saturation(n, 0.2);
        let loads = [0.05, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.99, 0.999];
        let latency: Vec<f64> = loads
            .iter()
            .map(|f| run(&uniform(n, 0.2, f * sat)).nodes[0].latency)
            .collect();
        assert!(latency.windows(2).all(|w| w[1] > w[0]), "{n}: {latency:?}");
        assert!(latency[8] > 50.0 * latency[3], "{n}: {latency:?}");
        let over = run(&uniform(n, 0.2, 1.01 * sat));
        assert!(
            over.nodes
                .iter()
                .all(|x| x.saturated && x.latency.is_infinite())
        );
    }
}

#[test]
fn uniform_saturation_meets_the_link_bound() {
    // A.12 bound 2(l_send - 1)/(l_send + l_echo): every link full. The model's ρ = 1
    // exactly when its node's output link is full, so it reaches the bound and does
    // not pass it: 1.143, 1.412 and 1.739 bytes/ns for address-only, 80/20 and
    // data-only, on 4 and 16 nodes alike.
    for f_data in [0.0, 0.2, 1.0] {
        for n in [4, 16] {
            let input = uniform(n, f_data, 1.0);
            let bound = 2.0 * (input.l_send() - 1.0) / (input.l_send() + input.l_echo);
            let sat = saturation(n, f_data);
            let total = |r: &ModelResult| r.nodes.iter().map(|x| x.throughput).sum::<f64>();
            let below = run(&uniform(n, f_data, 0.999 * sat));
            assert!(
                below
                    .nodes
                    .iter()
                    .all(|x| !x.saturated && x.utilisation < 1.0)
            );
            assert!(total(&below) < bound);
            assert!(n as f64 * sat * (input.l_send() - 1.0) <= bound * (1.0 + 1e-12));
            let throttled = run(&uniform(n, f_data, 3.0 * sat));
            assert!(
                (total(&throttled) - bound).abs() < 1e-9 * bound,
                "{f_data} {n}"
            );
        }
    }
}

#[test]
fn uniform_ring_is_symmetric() {
    for n in [4, 16] {
        let result = run(&uniform(n, 0.2, 0.7 * saturation(n, 0.2)));
        let first = result.nodes[0];
        for node in &result.nodes {
            for (a, b) in [(node.latency, first.latency), (node.transit, first.transit)] {
                assert!((a - b).abs() < 1e-9 * b, "{node:?} vs {first:?}");
            }
            assert!((node.utilisation - first.utilisation).abs() < 1e-12);
        }
    }
}

#[test]
fn starved_node_saturates_first() {
    // SCI §4.2, Fig. 6a: P0 saturates "as the throughput per node reaches about 3.2
    // bytes/ns" (0.32; links carry 1 byte/ns). The model: 0.313 bytes/ns. Beyond it,
    // P0's realised throughput is "driven back down" while the others still grow.
    let starved = |n: usize, x: f64| {
        let input = ModelInput::sci(vec![x / 14.4; n], starved_routing(n, 0));
        run(&input).nodes
    };
    assert!(starved(4, 0.31).iter().all(|x| !x.saturated));
    let mut previous = f64::INFINITY;
    for x in [0.32, 0.33, 0.34] {
        let nodes = starved(4, x);
        assert!(nodes[0].saturated && nodes[0].throughput < x && nodes[0].latency.is_infinite());
        assert!(
            nodes[1..]
                .iter()
                .all(|n| !n.saturated && (n.throughput - x).abs() < 1e-12)
        );
        assert!(nodes[0].throughput < previous);
        previous = nodes[0].throughput;
    }
    // At full load P0 is "completely starved" (SCI §4.2, Fig. 7c) and "P1, P2 and
    // P3 all reach the same saturation bandwidth" (0.471 bytes/ns in the model).
    let full = starved(4, 1.0);
    assert!(full[0].throughput.abs() < 1e-9 && full.iter().all(|x| x.saturated));
    assert!(
        full[2..]
            .iter()
            .all(|x| (x.throughput - full[1].throughput).abs() < 1e-9)
    );
    // 16 nodes: P0 also saturates first, but "almost as high" as the others (0.086).
    let scale =
        saturation_scale(&ModelInput::sci(vec![1.0; 16], starved_routing(16, 0))).expect("valid");
    let x = scale * 14.4 * 1.001;
    assert!((0.08..0.0882).contains(&x), "{x}");
    let nodes = starved(16, x);
    assert!(nodes[0].saturated && nodes[1..].iter().all(|n| !n.saturated));
}

#[test]
fn hot_sender_realises_the_papers_rates() {
    // SCI §4.3 without flow control: a saturated node 0 with cold nodes at 0.177
    // (N = 4) and 0.044 bytes/ns (N = 16) "realizes a rate of 0.643" and 0.511
    // bytes/ns. The model's throttling gives 0.643 and 0.513.
    for (n, cold, paper) in [(4, 0.177, 0.643), (16, 0.044, 0.511)] {
        let mut arrival = vec![cold / 14.4; n];
        arrival[0] = 1.0;
        let nodes = run(&ModelInput::sci(arrival, uniform_routing(n))).nodes;
        assert!(nodes[0].saturated && nodes[1..].iter().all(|x| !x.saturated));
        assert!(
            (nodes[0].throughput - paper).abs() < 0.003,
            "{n}: {:?}",
            nodes[0]
        );
        // "P1, the first downstream node from the hot sender, is severely affected".
        assert!(nodes[1].latency > nodes[2].latency && nodes[2].latency > nodes[3].latency);
    }
}

#[test]
fn iteration_counts_are_near_the_papers() {
    // SCI §3.3: "Approximately 10 iterations ... for N=4, 30 for N=16 and 110 for
    // N=64". At 30% of saturation this gives 10, 37 and 127 (80/20, from C = 0);
    // over 10-90% of saturation the counts run 6-10, 14-37 and 42-127.
    let count = |n: usize, load: f64| run(&uniform(n, 0.2, load * saturation(n, 0.2))).iterations;
    let counts = [count(4, 0.3), count(16, 0.3), count(64, 0.3)];
    for (got, paper) in counts.iter().zip([10.0, 30.0, 110.0]) {
        assert!(
            (paper / 3.0..=paper * 3.0).contains(&(*got as f64)),
            "{counts:?}"
        );
    }
    assert!(counts[0] < counts[1] && counts[1] < counts[2], "{counts:?}");
}

#[test]
fn cut_in_scales_up_drain_variance() {
    // Reading (b): SCI §4.9's scalar multiplier makes the recovery variance at least
    // the drain's own; the printed factor would make it smaller.
    let input = uniform(4, 0.2, 0.5 * saturation(4, 0.2));
    let ring = Ring::new(&input);
    let p = Passing::new(&input, &ring, &input.arrival, 0);
    let state = State::new(&input, &p, input.arrival[0], 0.3, false);
    for l in [input.l_addr, input.l_data] {
        let (n, pp) = (l - 1.0, state.p_pkt);
        let v_train = p.v_pkt / 0.7 + p.l_pkt.powi(2) * 0.3 / 0.49;
        let drain_only = n * pp * v_train + state.l_train.powi(2) * n * pp * (1.0 - pp);
        assert!(drain_only > 0.0 && state.variance_type(&p, l) > drain_only);
    }
}

#[test]
fn backlog_is_per_passing_packet() {
    // Reading (h): B_i = λ_i B_type / r_pass,i, so a node that hardly sends hardly
    // delays passing packets (B_type alone is about 6.5 here).
    let mut input = uniform(4, 0.2, 0.01);
    input.arrival[2] = 1e-6;
    let ring = Ring::new(&input);
    let backlog = |i: usize| {
        let p = Passing::new(&input, &ring, &input.arrival, i);
        let lambda = input.arrival[i];
        State::new(&input, &p, lambda, 0.3, false).backlog(&input, &p, lambda)
    };
    assert!(
        backlog(2) < 1e-3 && backlog(1) > 1.0,
        "{} {}",
        backlog(2),
        backlog(1)
    );
}

#[test]
fn stripper_sees_the_upstream_link() {
    // Reading (a). F_in, P_unclump and F_out reduce to
    // C_pass,i = C_in (λ_ring - λ_i - r_rcv,i)/λ_ring, where C_in is C_link,i-1.
    // Starved 4-node ring at 0.2 bytes/ns per node, where C_link,0 and C_link,3 differ.
    let input = ModelInput::sci(vec![0.2 / 14.4; 4], starved_routing(4, 0));
    let ring = Ring::new(&input);
    let (lambda, saturated) = throttle(&input, &ring).expect("throttles");
    let passing: Vec<Passing> = (0..4)
        .map(|i| Passing::new(&input, &ring, &lambda, i))
        .collect();
    let (c_pass, _) = iterate(&input, &lambda, &saturated, &passing).expect("converges");
    let c_link = |i: usize| {
        let state = State::new(&input, &passing[i], lambda[i], c_pass[i], false);
        state.c_link(&input, &passing[i], lambda[i])
    };
    let kept = 1.0 - lambda[0] / lambda.iter().sum::<f64>();
    assert!((c_link(0) - c_link(3)).abs() > 0.01);
    assert!((c_pass[0] - c_link(3) * kept).abs() < 1e-4, "{c_pass:?}");
}

#[test]
fn bad_input_is_rejected() {
    let mut input = uniform(4, 0.2, 0.01);
    input.routing[1][1] = 0.5;
    assert_eq!(solve(&input), Err(ModelError::Routing { node: 1 }));
    let short = uniform(1, 0.2, 0.01);
    assert!(matches!(
        solve(&short),
        Err(ModelError::Input {
            field: "arrival",
            ..
        })
    ));
    let negative = uniform(4, 0.2, -0.01);
    assert!(matches!(solve(&negative), Err(ModelError::Input { .. })));
    let mix = uniform(4, 1.5, 0.01);
    assert!(matches!(
        solve(&mix),
        Err(ModelError::Input {
            field: "f_data",
            ..
        })
    ));
}
