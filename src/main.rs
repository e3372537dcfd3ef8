use emu::config::{TopologyConfig, TrafficConfig};
use emu::engine::{sequential, RunControl};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let t: TopologyConfig = toml::from_str(&std::fs::read_to_string(&a[1]).unwrap()).unwrap();
    let f: TrafficConfig = toml::from_str(&std::fs::read_to_string(&a[2]).unwrap()).unwrap();
    let net = emu::network::build("x", &t, &f, 1).unwrap();
    let ctl = RunControl { end_after: net.run.end_after, hard_stop: net.run.hard_stop, deadlock_window: net.run.deadlock_window, check: std::env::var("CHECK").is_ok() };
    let w = std::time::Instant::now();
    let r = if a.len() > 3 { emu::engine::actors::run(&net, &ctl, a[3].parse().unwrap(), None) } else { sequential::run(&net, &ctl, None) };
    match r {
        Ok(o) => {
            let mut s = emu::stats::TerminalStats::default();
            for t in &o.terminals { s.merge(t); }
            let win = (net.run.window.1 - net.run.window.0) as f64;
            println!("end {} windows {} runs {} complete {} act {:?}", o.end_tick, o.windows, o.node_runs, o.complete, o.activity);
            println!("counters {:?}", s.counters);
            println!("thr {:.1}% mean {:.1} p99 {} max {}", s.counters.bytes_delivered_in_window as f64 * 10.0 / win / o.terminals.len() as f64 * 100.0, s.message_latency.mean(), s.message_latency.quantile(0.99), s.message_latency.max);
            println!("net mean {:.1}  srcq mean {:.1}", s.network_latency.mean(), s.source_queueing.mean());
        }
        Err(e) => println!("ERR {e} exit {}", e.exit_code()),
    }
    println!("wall {:?}", w.elapsed());
}
