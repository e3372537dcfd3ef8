//! The analytical model of the SCI ring without flow control (SCI §3, App. A): each
//! source queue is an M/G/1 queue whose service time is the transmission plus the
//! recovery stage; the service time depends on the packet trains passing the node, and
//! the trains on the coupling probabilities, which are found by fixed-point iteration.
//! Units are cycles and symbols; a symbol per cycle is one byte/ns (2 bytes per 2 ns).
//!
//! Readings of the printed equations (SCI App. A), one per misprint:
//! - (a) `F_in,i` and `F_out,i` use the coupling of the link *into* stripper i,
//!   `C_link,i-1`: App. A defines `C_link,i` as node i's *output* link. Uniform rings
//!   are unaffected.
//! - (b) `V_type` uses `[(S_cut_in + S_drain)/S_drain]^2`, not the printed
//!   `[S_cut_in/(S_cut_in + S_drain)]^2`. SCI §4.9 treats the cut-in time as a scalar
//!   multiple of the drain time, `X = αY` with `α = S_cut_in/S_drain`, so
//!   `Var(X + Y) = (1 + α)^2 Var(Y)` and "may slightly overestimate" the variance. The
//!   printed factor is below one, so it would make the variance vanish without cut-ins
//!   and always lie below the drain variance alone. Test `cut_in_scales_up_drain_variance`.
//! - (c) `S_drain` in `V_type` is `S_type,drain` of the same packet type.
//! - (d) The sum in `B_type` runs over its own index m = 1..l_type-1, not the node i.
//! - (e) `Var(S_i)` in `c_i` is `V_i`.
//! - (f) `(1-ρ_i)w_i` is kept in both `S_i` and `R_i`: in `S_i` the wait for a break
//!   occupies the queue, and in `R_i` it delays the packet. The service after that
//!   (cut-in, drain) delays only later packets. Zero-traffic limit: `R_i = w_i + T_i`,
//!   the "Idle Source" latency of SCI §4.8.
//! - (g) `T_i` has no backlog at the source node, which gives its own packet priority
//!   (SCI §2.1), so only the intermediate nodes k add `B_k`.
//! - (h, not in the usual list) `B_type` is a *total* delay per injection:
//!   `n_train` packets delayed by `l_type`, and so on. App. A calls `B_i` the backlog
//!   "seen by a passing packet", so `B_i` here is multiplied by `λ_i / r_pass,i`.
//!   Otherwise a node that never sends would still delay passing packets. Without the
//!   factor, the 16-node ring at 30% load gets a latency about twice as high, and
//!   backlog outweighs the fixed delay on large rings, against SCI §4.8.
//!
//! Other choices: `ρ_i` is solved exactly in each iteration (`S_i` is linear in `ρ_i`)
//! instead of lagging one iteration. `V_type`'s binomial sum is its closed form
//! `nP·V_train + nP(1-P)·l_train^2` with `n = l_type-1`. `V_i` is as printed. Coupling
//! probabilities are clamped to `[0, 1)`: the printed `C_link` passes 1 near saturation.
//!
//! Saturation (SCI §4.2). `S_i(ρ_i)` is linear with `S_i(1) = l_send/(1 - U_pass,i)`,
//! so `ρ_i < 1` exactly when the output link's load `λ_i·l_send + U_pass,i` is below
//! one, whatever the coupling. The throttled rates are therefore the solution of a
//! linear complementarity problem, solved before the iteration by an active-set method:
//! each node either keeps its offered `λ_i` with a load below one, or is saturated with
//! load exactly one, `λ_i = (1 - U_pass,i)/l_send`, i.e. `ρ_i = 1`, the saturated nodes'
//! equations solved jointly. Bisection is not needed. The throttled rates are never
//! negative: by the stripping at node i, `load_i = load_{i-1} + (λ_i - r_rcv,i)(l_send -
//! l_echo)`, so a throttled node gets `λ_i ≥ r_rcv,i`. That is 0 for a node no one sends
//! to once its upstream neighbour saturates ("driven back down to 0", SCI §4.2).

use thiserror::Error;

/// The paper's convergence test: "average change in coupling probabilities less than
/// 10^-5" (SCI §3.3), here over every `C_pass,i` and `C_link,i`.
pub const TOLERANCE: f64 = 1e-5;
/// [`solve`] gives up after this many iterations.
pub(crate) const MAX_ITERATIONS: u32 = 10_000;
/// The largest coupling probability used (a geometric train needs `C < 1`).
const MAX_COUPLING: f64 = 1.0 - 1e-9;

/// Inputs of the model (SCI §3.2), in cycles and symbols.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelInput {
    /// `λ_i`: send packets per cycle offered at node i (N ≥ 2 nodes).
    pub arrival: Vec<f64>,
    /// `z_ij`: fraction of node i's packets sent to j; `z_ii = 0`, rows sum to 1.
    pub routing: Vec<Vec<f64>>,
    /// Address packet length including its separator idle (SCI App. A: 8 + 1 = 9).
    pub l_addr: f64,
    /// Data packet length including its separator idle (40 + 1 = 41).
    pub l_data: f64,
    /// Echo length including its separator idle (4 + 1 = 5).
    pub l_echo: f64,
    /// `f_data`: fraction of data packets; `f_addr = 1 - f_data`.
    pub f_data: f64,
    /// `T_wire`: cycles on the wire between nodes (SCI §4: 1).
    pub t_wire: f64,
    /// `T_parse`: cycles to parse a symbol (SCI §4: 2).
    pub t_parse: f64,
}

impl ModelInput {
    /// The paper's default workload (SCI §4): 16-byte address and 80-byte data packets,
    /// 20% data, 8-byte echoes, `T_wire = 1`, `T_parse = 2`.
    pub fn sci(arrival: Vec<f64>, routing: Vec<Vec<f64>>) -> ModelInput {
        let (l_addr, l_data, l_echo) = (9.0, 41.0, 5.0);
        let (f_data, t_wire, t_parse) = (0.2, 1.0, 2.0);
        ModelInput {
            arrival,
            routing,
            l_addr,
            l_data,
            l_echo,
            f_data,
            t_wire,
            t_parse,
        }
    }

    /// `l_send`: mean send packet length, separator idle included (SCI App. A).
    pub fn l_send(&self) -> f64 {
        self.f_data * self.l_data + (1.0 - self.f_data) * self.l_addr
    }

    fn f_addr(&self) -> f64 {
        1.0 - self.f_data
    }

    fn hop(&self) -> f64 {
        1.0 + self.t_wire + self.t_parse
    }
}

/// What the model gives for one node (SCI App. A, "final model outputs").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NodeResult {
    /// `X_i = λ_i (l_send - 1)`: send-packet symbols per cycle (= bytes/ns).
    pub throughput: f64,
    /// `R_i`: mean latency in cycles, from arrival to consumption; infinite if saturated.
    pub latency: f64,
    /// `T_i`: mean transit time in cycles once transmission begins.
    pub transit: f64,
    /// `T_i` with no backlog on the way: the wire and fixed switching delay and the
    /// packet's length (SCI §4.8's "Fixed" curve).
    pub fixed: f64,
    /// `(1 - ρ_i) w_i`: the mean wait of a packet for a break in the passing packets,
    /// over all packets (those that find the source busy wait in its queue instead):
    /// with `T_i`, SCI §4.8's "Idle Source" part of the mean latency.
    pub idle_wait: f64,
    /// `ρ_i`: source queue utilisation (1 if saturated).
    pub utilisation: f64,
    /// The offered rate could not be served and was throttled (SCI §4.2).
    pub saturated: bool,
    /// The `λ_i` actually used: the offered one, or the throttled one.
    pub arrival: f64,
}

/// The model's answer (SCI App. A).
#[derive(Clone, Debug, PartialEq)]
pub struct ModelResult {
    /// One per node.
    pub nodes: Vec<NodeResult>,
    /// Fixed-point iterations until the coupling probabilities converged (SCI §3.3).
    pub iterations: u32,
}

/// Why the model has no answer.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum ModelError {
    /// An input is out of range (SCI §3.2).
    #[error("invalid model input `{field}`: {reason}")]
    Input {
        /// The offending field of [`ModelInput`].
        field: &'static str,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A routing row is not a distribution over the other nodes.
    #[error("routing row {node} must be non-negative, sum to 1 and have z_ii = 0")]
    Routing {
        /// The row's node.
        node: usize,
    },
    /// The coupling probabilities did not settle (SCI §3.3).
    #[error("no convergence after {iterations} iterations (mean change {change:e})")]
    NoConvergence {
        /// Iterations run.
        iterations: u32,
        /// Mean change of the coupling probabilities in the last one.
        change: f64,
    },
    /// The saturation throttling found no consistent set of saturated nodes.
    #[error("saturation throttling did not settle")]
    Throttling,
}

/// Uniform routing (SCI §4.1): `z_ij = 1/(N-1)` for every `j != i`.
pub fn uniform_routing(n: usize) -> Vec<Vec<f64>> {
    let share = 1.0 / (n.max(2) - 1) as f64;
    (0..n)
        .map(|i| (0..n).map(|j| if i == j { 0.0 } else { share }).collect())
        .collect()
}

/// Node starvation (SCI §4.2, Fig. 6): no node sends to `starved`. The starved node
/// routes uniformly, and every other node routes uniformly over the rest,
/// `1/(N-2)` each.
pub fn starved_routing(n: usize, starved: usize) -> Vec<Vec<f64>> {
    let mut z = uniform_routing(n);
    let share = 1.0 / (n.max(3) - 2) as f64;
    for (i, row) in z.iter_mut().enumerate().filter(|(i, _)| *i != starved) {
        for (j, zij) in row.iter_mut().enumerate() {
            *zij = if j == i || j == starved { 0.0 } else { share };
        }
    }
    z
}

/// The saturation point of a traffic shape (SCI §4.1, §4.2). Scaling `input.arrival` by
/// less than this factor saturates no node; at the factor, the first node's output link
/// is full and its `ρ = 1`. With `arrival = [1.0; N]` it is the largest common
/// per-node `λ`, so the model's maximum throughput per node is
/// `factor·(l_send - 1)` bytes/ns. It is exact, the inverse of the largest link load,
/// because `ρ_i < 1` exactly when that load is below one (module doc).
pub fn saturation_scale(input: &ModelInput) -> Result<f64, ModelError> {
    validate(input)?;
    let ring = Ring::new(input);
    let worst = (0..ring.n)
        .map(|i| ring.link_load(input, &input.arrival, i))
        .fold(0.0, f64::max);
    Ok(if worst > 0.0 {
        1.0 / worst
    } else {
        f64::INFINITY
    })
}

/// Solve the model (SCI App. A). Saturated queues are throttled to `ρ_i = 1`
/// (SCI §4.2, module doc). The coupling probabilities are then iterated from zero until
/// their mean change is below [`TOLERANCE`], and the outputs are computed.
pub fn solve(input: &ModelInput) -> Result<ModelResult, ModelError> {
    validate(input)?;
    let ring = Ring::new(input);
    let (lambda, saturated) = throttle(input, &ring)?;
    let passing: Vec<Passing> = (0..ring.n)
        .map(|i| Passing::new(input, &ring, &lambda, i))
        .collect();
    let (c_pass, iterations) = iterate(input, &lambda, &saturated, &passing)?;
    let states: Vec<State> = (0..ring.n)
        .map(|i| State::new(input, &passing[i], lambda[i], c_pass[i], saturated[i]))
        .collect();
    let backlog: Vec<f64> = (0..ring.n)
        .map(|i| states[i].backlog(input, &passing[i], lambda[i]))
        .collect();
    let nodes = (0..ring.n)
        .map(|i| {
            let transit = transit(input, i, &backlog);
            let fixed = self::transit(input, i, &vec![0.0; ring.n]);
            let idle_wait = (1.0 - states[i].rho) * passing[i].w;
            let wait = if saturated[i] {
                f64::INFINITY
            } else {
                states[i].wait(input, &passing[i])
            };
            NodeResult {
                throughput: lambda[i] * (input.l_send() - 1.0),
                latency: wait + transit,
                transit,
                fixed,
                idle_wait,
                utilisation: states[i].rho,
                saturated: saturated[i],
                arrival: lambda[i],
            }
        })
        .collect();
    Ok(ModelResult { nodes, iterations })
}

fn validate(input: &ModelInput) -> Result<(), ModelError> {
    let bad = |field, reason| Err(ModelError::Input { field, reason });
    let n = input.arrival.len();
    if n < 2 {
        return bad("arrival", "the ring needs at least 2 nodes");
    }
    if input.arrival.iter().any(|l| !(l.is_finite() && *l >= 0.0)) {
        return bad("arrival", "rates must be finite and non-negative");
    }
    let whole = |l: f64, min: f64| l.is_finite() && l >= min && l.fract() == 0.0;
    if !(whole(input.l_addr, 2.0) && whole(input.l_data, 2.0) && whole(input.l_echo, 1.0)) {
        return bad(
            "l_addr/l_data/l_echo",
            "lengths must be whole symbols (2, 2 and 1 at least)",
        );
    }
    if !(0.0..=1.0).contains(&input.f_data) {
        return bad("f_data", "must lie in [0, 1]");
    }
    if !(input.t_wire.is_finite()
        && input.t_wire >= 0.0
        && input.t_parse.is_finite()
        && input.t_parse >= 0.0)
    {
        return bad("t_wire/t_parse", "must be finite and non-negative");
    }
    if input.routing.len() != n {
        return bad("routing", "needs one row per node");
    }
    for (i, row) in input.routing.iter().enumerate() {
        let sum: f64 = row.iter().sum();
        let entries_ok = row.iter().all(|z| z.is_finite() && *z >= 0.0);
        if row.len() != n || !entries_ok || row[i] != 0.0 || (sum - 1.0).abs() > 1e-9 {
            return Err(ModelError::Routing { node: i });
        }
    }
    Ok(())
}

/// Which packets pass which output link (SCI App. A, `r_echo,i` and `r_data,i`).
struct Ring {
    n: usize,
    /// `send[i][j]`: fraction of j's packets that pass node i as send packets,
    /// `Σ_{k=i+1}^{j-1} z_jk`.
    send: Vec<Vec<f64>>,
    /// `echo[i][j]`: fraction whose echo passes node i, `Σ_{k=j+1}^{i} z_jk`.
    echo: Vec<Vec<f64>>,
}

impl Ring {
    fn new(input: &ModelInput) -> Ring {
        let n = input.arrival.len();
        let z = &input.routing;
        // Sum of z_j over targets `from`, `from + 1`, ... up to but excluding `to` (mod N).
        let arc = |j: usize, from: usize, to: usize| {
            let (mut k, mut sum) = (from % n, 0.0);
            while k != to % n {
                sum += z[j][k];
                k = (k + 1) % n;
            }
            sum
        };
        let table = |f: &dyn Fn(usize, usize) -> f64| {
            (0..n)
                .map(|i| (0..n).map(|j| if i == j { 0.0 } else { f(i, j) }).collect())
                .collect()
        };
        let send = table(&|i, j| arc(j, i + 1, j));
        let echo = table(&|i, j| arc(j, j + 1, i + 1));
        Ring { n, send, echo }
    }

    /// Mean symbols one packet from j puts on node i's output link: `l_send` for its
    /// own, and the passing send packet or echo otherwise.
    fn carried(&self, input: &ModelInput, i: usize, j: usize) -> f64 {
        let send = if i == j { 1.0 } else { self.send[i][j] };
        send * input.l_send() + self.echo[i][j] * input.l_echo
    }

    /// Node i's output link load `λ_i·l_send + U_pass,i`; `ρ_i < 1` iff it is below 1.
    fn link_load(&self, input: &ModelInput, lambda: &[f64], i: usize) -> f64 {
        (0..self.n)
            .map(|j| lambda[j] * self.carried(input, i, j))
            .sum()
    }
}

/// The realised rates and saturation flags (SCI §4.2). Active set: the throttled
/// nodes' rates solve their link loads = 1 jointly. A node is throttled when its load
/// at the current rates reaches 1, and released when its solved rate exceeds its offer.
fn throttle(input: &ModelInput, ring: &Ring) -> Result<(Vec<f64>, Vec<bool>), ModelError> {
    let mut throttled = vec![false; ring.n];
    for _ in 0..4 * ring.n + 8 {
        let lambda = throttled_rates(input, ring, &throttled)?;
        let next: Vec<bool> = (0..ring.n)
            .map(|i| match throttled[i] {
                // Hysteresis, so that a node exactly at its offer does not flip.
                true => lambda[i] <= input.arrival[i] * (1.0 + 1e-9) + 1e-15,
                false => ring.link_load(input, &lambda, i) >= 1.0,
            })
            .collect();
        if next == throttled {
            // Rates are clamped to [0, offered]: within the hysteresis, and rounding.
            let used = (0..ring.n).map(|i| lambda[i].clamp(0.0, input.arrival[i]));
            return Ok((used.collect(), throttled));
        }
        throttled = next;
    }
    Err(ModelError::Throttling)
}

/// Offered rates, except that the throttled nodes' rates solve their link loads = 1.
fn throttled_rates(
    input: &ModelInput,
    ring: &Ring,
    throttled: &[bool],
) -> Result<Vec<f64>, ModelError> {
    let offered = |i: usize| if throttled[i] { 0.0 } else { input.arrival[i] };
    let mut lambda: Vec<f64> = (0..ring.n).map(offered).collect();
    let free: Vec<usize> = (0..ring.n).filter(|&i| throttled[i]).collect();
    let a = free
        .iter()
        .map(|&i| free.iter().map(|&j| ring.carried(input, i, j)).collect())
        .collect();
    let b = free
        .iter()
        .map(|&i| 1.0 - ring.link_load(input, &lambda, i))
        .collect();
    let x = solve_linear(a, b).ok_or(ModelError::Throttling)?;
    for (&i, xi) in free.iter().zip(x) {
        lambda[i] = xi;
    }
    Ok(lambda)
}

/// Gaussian elimination with partial pivoting; `None` if singular.
fn solve_linear(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n).max_by(|&r, &s| a[r][c].abs().total_cmp(&a[s][c].abs()))?;
        if a[p][c].abs() < 1e-300 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        let (pivot, rest) = a.split_at_mut(c + 1);
        let pivot = &pivot[c];
        for (row, r) in rest.iter_mut().zip(c + 1..) {
            let f = row[c] / pivot[c];
            row.iter_mut().zip(pivot).for_each(|(x, p)| *x -= f * p);
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let rest: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - rest) / a[r][r];
    }
    Some(x)
}

/// `a / b`, or 0 when there is nothing to divide (`a == 0`, e.g. no passing traffic).
fn ratio(a: f64, b: f64) -> f64 {
    if a == 0.0 { 0.0 } else { a / b }
}

/// Passing traffic at node i (SCI App. A, "preliminary calculations").
struct Passing {
    r_data: f64,
    r_addr: f64,
    r_echo: f64,
    /// `r_pass,i = Σ_{j≠i} λ_j`.
    r_pass: f64,
    /// `r_rcv,i`: packets per cycle routed to node i.
    r_rcv: f64,
    /// `U_pass,i`: output-link utilisation by passing packets.
    u: f64,
    l_pkt: f64,
    /// `w_i`: mean wait until a break in the passing packets.
    w: f64,
    v_pkt: f64,
}

impl Passing {
    fn new(input: &ModelInput, ring: &Ring, lambda: &[f64], i: usize) -> Passing {
        let others = || (0..ring.n).filter(move |&j| j != i);
        let sends: f64 = others().map(|j| lambda[j] * ring.send[i][j]).sum();
        let r_data = input.f_data * sends;
        let r_addr = input.f_addr() * sends;
        let r_echo: f64 = others().map(|j| lambda[j] * ring.echo[i][j]).sum();
        let r_pass = r_data + r_addr + r_echo;
        let r_rcv = others().map(|j| lambda[j] * input.routing[j][i]).sum();
        let mix = [
            (r_data, input.l_data),
            (r_addr, input.l_addr),
            (r_echo, input.l_echo),
        ];
        let u: f64 = mix.iter().map(|(r, l)| r * l).sum();
        let l_pkt = ratio(u, r_pass);
        let w = mix.iter().map(|(r, l)| r * l * l).sum::<f64>() / 2.0;
        let v_pkt = ratio(
            mix.iter().map(|(r, l)| r * (l - l_pkt).powi(2)).sum(),
            r_pass,
        );
        Passing {
            r_data,
            r_addr,
            r_echo,
            r_pass,
            r_rcv,
            u,
            l_pkt,
            w,
            v_pkt,
        }
    }

    /// `S_type,drain = (l_type - 1) U_pass/(1 - U_pass)` (SCI App. A).
    fn drain(&self, l_type: f64) -> f64 {
        ratio((l_type - 1.0) * self.u, 1.0 - self.u)
    }
}

/// A node's trains and source queue for one coupling probability (SCI App. A, "inside
/// iteration").
#[derive(Clone, Copy)]
struct State {
    c_pass: f64,
    n_train: f64,
    l_train: f64,
    p_pkt: f64,
    rho: f64,
    p_cut_train: f64,
    p_cut_pkt: f64,
}

impl State {
    fn new(input: &ModelInput, p: &Passing, lambda: f64, c_pass: f64, saturated: bool) -> State {
        let n_train = 1.0 / (1.0 - c_pass);
        let l_train = p.l_pkt * n_train;
        // A starved node (λ = 0, U_pass = 1) never injects: its P_pkt is unused.
        let p_pkt = if p.u < 1.0 {
            ratio(p.u, (1.0 - p.u) * l_train)
        } else {
            0.0
        };
        let s = State {
            c_pass,
            n_train,
            l_train,
            p_pkt,
            rho: 0.0,
            p_cut_train: 0.0,
            p_cut_pkt: 0.0,
        };
        // S_i(ρ) is linear in ρ: solve ρ = λ S_i(ρ) exactly.
        let (s0, s1) = (
            s.with_rho(p, 0.0).service(input, p),
            s.with_rho(p, 1.0).service(input, p),
        );
        let rho = if saturated {
            1.0
        } else {
            lambda * s0 / (1.0 - lambda * (s1 - s0))
        };
        s.with_rho(p, rho)
    }

    /// Sets `ρ_i` and the cut-in probabilities that depend on it.
    fn with_rho(mut self, p: &Passing, rho: f64) -> State {
        self.rho = rho;
        self.p_cut_train = rho * self.p_pkt + (1.0 - rho) * p.u * self.c_pass;
        self.p_cut_pkt = (1.0 - rho) * ratio(p.u * (1.0 - self.c_pass), p.l_pkt);
        self
    }

    fn s_cut_in(&self, p: &Passing) -> f64 {
        self.p_cut_train * self.l_train + self.p_cut_pkt * p.l_pkt
    }

    /// `S_type,i = S_cut_in + S_type,drain + l_type`.
    fn service_type(&self, p: &Passing, l_type: f64) -> f64 {
        self.s_cut_in(p) + p.drain(l_type) + l_type
    }

    /// `S_i`, mean source-queue service time, with the wait for a break.
    fn service(&self, input: &ModelInput, p: &Passing) -> f64 {
        input.f_data * self.service_type(p, input.l_data)
            + input.f_addr() * self.service_type(p, input.l_addr)
            + (1.0 - self.rho) * p.w
    }

    /// `C_link,i`, from `[n_pass C_pass + ρ + (1-ρ)U_pass + n_clump]/(n_pass + 1)`
    /// multiplied through by `λ_i` so that `λ_i = 0` gives `C_pass,i`.
    fn c_link(&self, input: &ModelInput, p: &Passing, lambda: f64) -> f64 {
        let (rho, u) = (self.rho, p.u);
        let n_clump =
            rho * self.p_pkt + (1.0 - rho) * ratio(u, self.l_train) + self.p_pkt * input.l_send();
        let own = if lambda > 0.0 {
            lambda * (rho + (1.0 - rho) * u + n_clump)
        } else {
            0.0
        };
        ratio(p.r_pass * self.c_pass + own, p.r_pass + lambda)
    }

    /// `V_type,i` with the reading (b) of the module doc.
    fn variance_type(&self, p: &Passing, l_type: f64) -> f64 {
        let (n, pp) = (l_type - 1.0, self.p_pkt);
        let v_train = p.v_pkt / (1.0 - self.c_pass)
            + p.l_pkt.powi(2) * self.c_pass / (1.0 - self.c_pass).powi(2);
        let drain_variance = n * pp * v_train + self.l_train.powi(2) * n * pp * (1.0 - pp);
        let drain = p.drain(l_type);
        ratio(self.s_cut_in(p) + drain, drain).powi(2) * drain_variance
    }

    /// `W_i + (1-ρ_i)w_i`: mean wait in the source queue, then for a break (M/G/1).
    fn wait(&self, input: &ModelInput, p: &Passing) -> f64 {
        let rho = self.rho;
        let second = |r: f64, l: f64| r * l * (l + 1.0) * (2.0 * l + 1.0) / 6.0;
        let mix = second(p.r_data, input.l_data)
            + second(p.r_addr, input.l_addr)
            + second(p.r_echo, input.l_echo);
        let v_wait = (1.0 - rho) * mix - ((1.0 - rho) * p.w).powi(2);
        let moment = |l: f64| self.variance_type(p, l) + self.service_type(p, l).powi(2);
        let s = self.service(input, p);
        let v = (input.f_data * moment(input.l_data) + input.f_addr() * moment(input.l_addr)
            - s * s
            + v_wait)
            .max(0.0);
        let c2 = v / (s * s);
        let q = rho + rho * rho * (1.0 + c2) / (2.0 * (1.0 - rho));
        let residual = (v + s * s) / (2.0 * s);
        (q - rho) * s + rho * residual + (1.0 - rho) * p.w
    }

    /// `B_i`: mean backlog per passing packet, i.e. `B_type` per injection times
    /// `λ_i/r_pass,i`; reading (h) of the module doc.
    fn backlog(&self, input: &ModelInput, p: &Passing, lambda: f64) -> f64 {
        if lambda == 0.0 {
            return 0.0;
        }
        let per_injection = |l: f64| {
            let drain: f64 = (1..l as u32)
                .map(|m| self.p_pkt * self.n_train * (l - m as f64))
                .sum();
            self.p_cut_train * self.n_train * l + self.p_cut_pkt * l + drain
        };
        let b = input.f_data * per_injection(input.l_data)
            + input.f_addr() * per_injection(input.l_addr);
        ratio(lambda * b, p.r_pass)
    }
}

/// `C_pass,i` from the coupling `c_in` of the link into stripper i (reading (a)):
/// `F_in`, `P_unclump`, `F_out` as printed (SCI App. A).
fn next_c_pass(p: &Passing, lambda: f64, ring_rate: f64, c_in: f64) -> f64 {
    let stripped = lambda + p.r_rcv;
    if stripped == 0.0 {
        return c_in;
    }
    let f_in = c_in * ring_rate / stripped;
    let p_unclump = (lambda / stripped) * ratio(ring_rate - stripped, ring_rate);
    let c = c_in;
    let f_out = (1.0 - c).powi(2) * f_in
        + c * (1.0 - c) * (f_in - p_unclump)
        + c * c * (f_in - 1.0 - p_unclump)
        + c * (1.0 - c) * (f_in - 1.0);
    ratio(f_out * stripped, ring_rate - lambda)
}

/// The fixed point of the coupling probabilities (SCI §3.3): returns `C_pass` and the
/// iteration count.
fn iterate(
    input: &ModelInput,
    lambda: &[f64],
    saturated: &[bool],
    passing: &[Passing],
) -> Result<(Vec<f64>, u32), ModelError> {
    let n = lambda.len();
    let ring_rate: f64 = lambda.iter().sum();
    let clamp = |c: f64| c.clamp(0.0, MAX_COUPLING);
    let (mut c_pass, mut c_link) = (vec![0.0; n], vec![0.0; n]);
    let (mut change, mut iterations) = (f64::MAX, 0);
    while iterations < MAX_ITERATIONS && change.is_finite() {
        iterations += 1;
        let link: Vec<f64> = (0..n)
            .map(|i| {
                let state = State::new(input, &passing[i], lambda[i], c_pass[i], saturated[i]);
                clamp(state.c_link(input, &passing[i], lambda[i]))
            })
            .collect();
        let pass: Vec<f64> = (0..n)
            .map(|i| {
                clamp(next_c_pass(
                    &passing[i],
                    lambda[i],
                    ring_rate,
                    link[(i + n - 1) % n],
                ))
            })
            .collect();
        let moved =
            |new: &[f64], old: &[f64]| new.iter().zip(old).map(|(a, b)| (a - b).abs()).sum::<f64>();
        change = (moved(&pass, &c_pass) + moved(&link, &c_link)) / (2 * n) as f64;
        (c_pass, c_link) = (pass, link);
        if change < TOLERANCE {
            return Ok((c_pass, iterations));
        }
    }
    Err(ModelError::NoConvergence { iterations, change })
}

/// `T_i = 1 + T_wire + T_parse + l_send + Σ_j z_ij Σ_{k=i+1}^{j-1} (1 + T_wire + T_parse + B_k)`.
fn transit(input: &ModelInput, i: usize, backlog: &[f64]) -> f64 {
    let n = backlog.len();
    let route = |j: usize| {
        let hops = (j + n - i) % n;
        (1..hops)
            .map(|h| input.hop() + backlog[(i + h) % n])
            .sum::<f64>()
    };
    let via: f64 = (0..n)
        .filter(|&j| j != i)
        .map(|j| input.routing[i][j] * route(j))
        .sum();
    input.hop() + input.l_send() + via
}

#[cfg(test)]
mod tests;
