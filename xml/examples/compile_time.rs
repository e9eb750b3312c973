//! Average time to compile MJCF models: `cargo run --release -p mjrs-xml --example
//! compile_time -- [--rounds N] M.xml...` (best of rounds, each compiling every model once).

use std::time::Instant;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rounds = 5;
    if let Some(i) = args.iter().position(|a| a == "--rounds") {
        rounds = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(5);
        args.drain(i..(i + 2).min(args.len()));
    }
    for path in &args {
        let mut best = f64::INFINITY;
        for _ in 0..rounds {
            let t = Instant::now();
            if let Err(e) = mjrs_xml::load_xml(path, None) {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!("{path} {best:.6}");
    }
}
